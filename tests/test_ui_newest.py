"""A long expedition opens on its newest turns; older ones come in without moving the view."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from textual.app import App

from delvetui import session
from delvetui.core import log
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp, screenshot
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table import history_loader
from tests.ui_support import PARTY, expedition, make, screen_text, settled

#: Long enough that the newest turns come from a snapshot, not from the whole log.
TURNS = [*PARTY, "session start", *["turn"] * 30, "note the last word", "turn", "undo"]


@pytest.fixture
def long_expedition(monkeypatch: pytest.MonkeyPatch) -> Path:
    """An expedition of 40-odd commands, its snapshots kept as a long one keeps them."""
    monkeypatch.setattr(session, "SNAPSHOT_EVERY", 5)
    monkeypatch.setattr(session, "TAIL_BATCHES", 12)
    return make("long", TURNS)


def log_rows(text: str) -> list[str]:
    """The turn log's rows as the screen shows them (its left-hand box, no scroll bar)."""
    return [line.split("│")[1][:-1].strip() for line in text.splitlines() if line.startswith("│")]


def full_log(path: Path) -> list[log.Line]:
    with Expedition.open(path, write=False) as whole:
        return list(log.lines(whole.batches(), whole.procedure))


async def test_the_newest_turns_show_before_the_log_is_read_and_the_view_stays_put(
    long_expedition: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()

    def held(path: Path) -> None:
        gate.wait(10)  # the background check (and so the older turns) waits for the test

    monkeypatch.setattr(history_loader, "check_pages", held)
    app = DelveApp(long_expedition)
    async with app.run_test(size=(120, 40)) as pilot:
        # Not settled: the older turns wait for the gate. The newest are drawn as the table
        # mounts, before its first paint.
        await pilot.pause()
        table = app.table
        assert table is not None and table.newest_shown
        assert table is not None and not table.loaded
        turn_log = table.query_one(TurnLog)
        assert turn_log.lines[0].batch > 1  # only the newest part of the log is read
        newest = expedition(app).state.turn
        shown = screen_text(app)
        assert f"Turn {newest} ·" in shown
        assert "Note: the last word" in shown
        assert "Reading the log" not in shown
        # The game master scrolls back before the older turns are in...
        await pilot.press("pageup")
        await pilot.pause()
        reading = log_rows(screen_text(app))
        gate.set()
        await settled(pilot, lambda: table.loaded)
        await pilot.pause()
        # ...and keeps reading the same lines when they arrive above.
        assert log_rows(screen_text(app)) == reading
        whole = full_log(long_expedition)
        assert [line.text for line in turn_log.lines] == [line.text for line in whole]
        assert turn_log.voided == {line.batch for line in whole if line.voided}
        assert turn_log.lines[-1].text.startswith("Undone: turn")
    app.close_expedition()


def test_the_screenshot_shows_the_newest_turns_without_the_test_harness(
    long_expedition: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the screenshot ran the test harness")

    def whole_log(*args: object, **kwargs: object) -> None:
        raise AssertionError("the screenshot read the whole log")

    with Expedition.open(long_expedition, write=False) as opened:
        newest = opened.state.turn
    monkeypatch.setattr(App, "run_test", refused)
    monkeypatch.setattr(Expedition, "batches", whole_log)
    out = tmp_path / "table.svg"
    before = long_expedition.read_bytes()
    screenshot(long_expedition, out, (120, 40))
    svg = out.read_text(encoding="utf-8")
    assert f"Turn&#160;{newest}&#160;·" in svg
    assert "Note:&#160;the&#160;last&#160;word" in svg
    assert "Reading&#160;the&#160;log" not in svg
    assert long_expedition.read_bytes() == before  # a picture changes nothing


def test_the_screenshot_of_a_damaged_expedition_shows_the_damage(
    long_expedition: Path, tmp_path: Path
) -> None:
    with sqlite3.connect(long_expedition) as conn:  # the last command's text, changed
        conn.execute(
            "UPDATE batches SET command = 'turn search' WHERE seq = (SELECT max(seq) FROM batches)"
        )
    before = long_expedition.read_bytes()
    out = tmp_path / "table.svg"
    screenshot(long_expedition, out, (120, 40))
    assert "needs&#160;attention" in out.read_text(encoding="utf-8")
    assert long_expedition.read_bytes() == before
