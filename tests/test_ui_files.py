"""The table's own files: exports apart from the preferences, and a data folder it cannot write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from delvetui.application.files import PREFS_NAME, Prefs
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.error_screen import ErrorScreen
from delvetui.ui.start_screen import StartScreen
from tests.ui_support import PARTY, make, notices, ready, settled, table

SIZE = (120, 40)


async def test_exporting_an_expedition_named_like_the_preferences_keeps_them(
    home: Path,
) -> None:
    prefs = Prefs(theme="textual-light", keys={"next-turn": "n,space,j"})
    prefs.save()
    saved = (home / PREFS_NAME).read_text(encoding="utf-8")
    app = DelveApp(make("delvetui-table"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("x")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        for _ in range(3):  # plain text, Markdown, web page, then JSON
            await pilot.press("down")
        await pilot.press("enter")
        out = home / "exports" / "delvetui-table.json"
        await settled(pilot, out.exists)
        await settled(pilot, lambda: any(str(out) in text for text in notices(app)))
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "delvetui-expedition"
    assert (home / PREFS_NAME).read_text(encoding="utf-8") == saved
    assert Prefs.load().keys == {"next-turn": "n,space,j"}


@pytest.fixture
def unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An expedition of its own, with a data folder that cannot be made (under a file)."""
    path = tmp_path / "crypt.delve"
    with Expedition.create(path, find("delving"), seed=3) as expedition:
        for command in PARTY:
            expedition.execute(command)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DELVETUI_HOME", str(blocker / "home"))
    return path


async def test_t_and_ctrl_t_say_so_when_the_preferences_cannot_be_saved(
    unwritable: Path,
) -> None:
    app = DelveApp(unwritable)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("t")
        await settled(pilot, lambda: table(app).table_dice)
        await settled(pilot, lambda: any("Preferences not saved" in t for t in notices(app)))
        theme = app.theme
        await pilot.press("ctrl+t")
        await settled(pilot, lambda: app.theme != theme)
        await settled(pilot, lambda: sum("Preferences not saved" in t for t in notices(app)) == 2)
        assert any("data folder" in t and "cannot be created" in t for t in notices(app))
        await pilot.press("n")
        await settled(pilot, lambda: screen.expedition.state.turn == 1 or app.screen is not screen)
        assert app.is_running


async def test_an_export_the_data_folder_cannot_take_is_reported(unwritable: Path) -> None:
    app = DelveApp(unwritable)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        table(app).post_message(table(app).Export("txt"))
        await settled(pilot, lambda: isinstance(app.screen, ErrorScreen))
        assert app.is_running


async def test_the_start_screen_says_when_the_data_folder_cannot_be_used(
    unwritable: Path,
) -> None:
    app = DelveApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        shown = str(app.screen.query_one("#start-folder", Static).content)
        assert "is not a folder" in shown or "cannot be read" in shown
        app.screen.post_message(StartScreen.Demo())
        await settled(pilot, lambda: isinstance(app.screen, ErrorScreen))
        assert app.is_running
