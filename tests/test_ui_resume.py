"""Resume, read-only, storage failures, literal text, and the headless screenshot."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.errors import StorageFailed
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui import app as app_module
from delvetui.ui.app import DelveApp, run_app, screenshot
from delvetui.ui.dialogs.error_screen import ErrorScreen
from delvetui.ui.panes.hazard_table import HazardTable
from delvetui.ui.panes.turn_log import TurnLog, wrap
from tests.ui_support import PARTY, expedition, make, notices, ready, screen_text, settled


async def test_reopening_shows_exactly_the_same_screen() -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        table.confirm_trouble = False  # the torch may burn out: no question here
        for key in ("n", "n", "s", "t"):
            await pilot.press(key)
        await settled(pilot, lambda: expedition(app).state.turn >= 3)
        await pilot.press("u")
        await settled(pilot, lambda: expedition(app).state.turn == 2)
        app.clear_notifications()  # the turns' notices come and go; the rest must stay
        await pilot.pause()
        seen = screen_text(app)
        lines = list(table.query_one(TurnLog).lines)
        voided = table.query_one(TurnLog).voided
        await pilot.press("ctrl+q")
    app.close_expedition()
    again = DelveApp(path)
    async with again.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        await pilot.pause()
        assert list(table.query_one(TurnLog).lines) == lines
        assert table.query_one(TurnLog).voided == voided
        assert screen_text(again) == seen  # every pane, not only the log
    again.close_expedition()


def test_run_app_resumes_and_closes_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    path = make()
    shown: list[Path | None] = []

    def run(self: DelveApp) -> None:
        shown.append(self.path)

    monkeypatch.setattr(app_module.DelveApp, "run", run)
    assert run_app(path) == 0
    assert shown == [path]
    with Expedition.open(path):  # the writer lock was given back
        pass


async def test_an_expedition_open_elsewhere_opens_read_only() -> None:
    path = make()
    with Expedition.open(path):  # another delvetui holds it
        app = DelveApp(path)
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await ready(pilot)
            assert expedition(app).readonly
            assert "READ-ONLY" in screen_text(app)
            assert any("Opened read-only" in text for text in notices(app))
            await pilot.press("n")
            await pilot.pause()
            assert expedition(app).state.turn == 0
        app.close_expedition()


async def test_leaving_a_read_only_table_for_the_start_screen_reports_no_damage() -> None:
    """Closing a table that follows another writer is not damage: the follow timer that
    fires as the table goes finds the file closed and reads nothing."""
    path = make()
    with Expedition.open(path):  # another delvetui holds it
        app = DelveApp(path)
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            table = await ready(pilot)
            held = expedition(app)
            app.close_expedition()
            assert held.follow() == []  # closed: nothing to read, nothing wrong
            table.history.follow_writer()
            assert table.damage == ""
            await pilot.pause(0.6)  # past the follow timer's step
            assert not any("closed" in text for text in notices(app))


async def test_a_storage_failure_opens_a_clear_message_and_loses_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 1)

        def broken(self: Expedition, text: str, **kwargs: object) -> None:
            raise StorageFailed("The disk is full; nothing of this command was saved.")

        monkeypatch.setattr(Expedition, "execute", broken)
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, ErrorScreen))
        assert "The disk is full" in screen_text(app)
        assert "nothing earlier is lost" in screen_text(app)
        await pilot.press("enter")
        await settled(pilot, lambda: app.screen is app.table)
        assert expedition(app).state.turn == 1
    app.close_expedition()
    monkeypatch.undo()
    with Expedition.open(path, write=False) as reopened:
        assert reopened.state.turn == 1


async def test_names_and_notes_with_markup_show_literally() -> None:
    path = make(
        "[red]crypt",
        [
            'pc add "[b]Zed[/b]" hp=3',
            "light add torch carrier=[b]Zed[/b] lit",
            "note Beware [red]the <b>lich</b> [/] \\[x]",
        ],
    )
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        text = screen_text(app)
        assert "[red]crypt" in text
        assert "[b]Zed[/b] ███" in text  # the roster
        assert "[b]Zed[/b] joins the party" in text  # the log
        assert "Note: Beware [red]the <b>lich</b> [/] \\[x]" in text
        await pilot.press("p")  # the party dialog
        await pilot.pause(0)
        assert "[b]Zed[/b]  3/3 HP" in screen_text(app)


def test_wrap_keeps_every_word() -> None:
    text = "Dungeon shift — The dungeon environment changes: sounds, temperature, wind"
    rows = wrap(text, 30, 28)
    assert " ".join(rows) == text
    assert all(len(row) <= 30 for row in rows)
    assert wrap("x" * 25, 10, 10) == ["x" * 10, "x" * 10, "x" * 5]


def test_screenshot_writes_the_table(tmp_path: Path) -> None:
    path = make(commands=[*PARTY, "turn"])
    out = tmp_path / "table.svg"
    screenshot(path, out, (100, 30))
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Turn&#160;1" in svg


async def test_the_table_follows_a_change_of_procedure() -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        newer = load_text(
            expedition(app).procedure.text.replace(
                'label = "Dungeon Hazard Die"', 'label = "Hazard Die (revised)"'
            )
        )
        expedition(app).change_procedure(newer)
        await settled(pilot, lambda: table.query_one(HazardTable).procedure is newer)
        await pilot.pause(0)
        assert "Hazard Die (revised)" in screen_text(app)
        await pilot.press("u")  # undoing the change goes back to the old procedure
        await settled(pilot, lambda: table.query_one(HazardTable).procedure is not newer)
    app.close_expedition()
