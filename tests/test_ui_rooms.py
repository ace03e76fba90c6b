"""The dungeon at the table (issue 41): the rooms pane, g to go to an exit, R to mark the
room, M for the map, and the room's label on the players' screen once revealed."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.map_screen import MapScreen
from delvetui.ui.panes.rooms_pane import RoomsPane
from delvetui.ui.players.app import PlayersApp
from tests.ui_support import expedition, ready, screen_text, settled

DUNGEON = Path(__file__).resolve().parent.parent / "docs" / "examples" / "ash-king-dungeon.toml"


def crypt(home: Path, *commands: str) -> Path:
    path = home / "crypt.delve"
    with Expedition.create(path, find("ose"), seed=5) as made:
        made.execute(f"tables add {DUNGEON}")
        made.execute("pc add Ash hp=8")
        made.execute("light add torch count=3 carrier=Ash lit")
        for line in commands:
            made.execute(line)
    return path


async def test_at_80x24_the_rooms_pane_shows_the_room_its_marks_and_exits(home: Path) -> None:
    app = DelveApp(crypt(home, "go 1", "turn", "go 2", "room 2 +cleared"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        pane = table.query_one(RoomsPane)
        assert pane.display and pane.region.height >= 2
        shown = screen_text(app)
        # The room and its marks (on one line when the column is short of lines), its exits.
        assert "│ 2: Narthex" in shown and "cleared" in shown
        assert "Exits: 3? 5? 6? 1" in shown
        assert "g Go" in shown


async def test_g_goes_to_an_exit_and_r_marks_the_room_and_undo_takes_it_back(home: Path) -> None:
    app = DelveApp(crypt(home, "go 1"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("g")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert app.screen.query_one(OptionList).option_count == 2  # room 2, and any room
        await pilot.press("1")
        await settled(pilot, lambda: expedition(app).state.room == "2")
        await pilot.press("R")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("1")  # Mark it cleared
        await settled(pilot, lambda: "cleared" in expedition(app).state.find_room("2").marks)  # type: ignore[union-attr]
        assert "Room 2 (Narthex) is cleared." in screen_text(app)
        await pilot.press("u")
        await settled(pilot, lambda: "cleared" not in expedition(app).state.find_room("2").marks)  # type: ignore[union-attr]


async def test_m_draws_the_map_of_the_rooms_the_party_knows(home: Path) -> None:
    app = DelveApp(crypt(home, "go 1", "go 2", "room 2 +cleared", "go 3"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("M")
        await settled(pilot, lambda: isinstance(app.screen, MapScreen))
        shown = screen_text(app)
        assert "Level 1: the chapel" in shown
        assert "[1 ]──[2×]──[3@]" in shown
        assert "[4?]" in shown and "[8" not in shown  # known through an exit; beyond, not
        await pilot.press("escape")
        await settled(pilot, lambda: not isinstance(app.screen, MapScreen))


async def test_without_rooms_there_is_no_pane_and_no_go_key(home: Path) -> None:
    path = home / "plain.delve"
    with Expedition.create(path, find("ose"), seed=5) as made:
        made.execute("pc add Ash hp=8")
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        assert not table.query_one(RoomsPane).display
        assert "g Go" not in screen_text(app)
        await pilot.press("colon", *"room add 1 label=Cellar", "enter")
        await settled(pilot, lambda: bool(expedition(app).state.rooms))
        await settled(pilot, lambda: table.query_one(RoomsPane).display)
        assert "Outside: 1 room, 0 explored" in screen_text(app)


async def test_the_players_screen_shows_the_rooms_label_in_its_own_part(home: Path) -> None:
    path = crypt(home, "go 1")
    players = PlayersApp(path)
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        assert not players.query_one("#room").display
    with Expedition.open(path) as table:
        table.execute("reveal room")
    players = PlayersApp(path)
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        part = players.query_one("#room")
        assert part.display and "Chapel door" in str(part.render())
