"""A counter the players see (``players = true``): the countdown clock, the alarm, a doom
track are the table's to know; the players' screen shows each with its label and its value
(or level), under the clock, and never a counter the procedure keeps for the game master."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core.players import view
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.players.app import WATCH_EVERY, PlayersApp, players_text
from delvetui.ui.players.counters import SeenCounters
from tests.ui_support import followed, settled

SEEN = """
id = "seen"
name = "Seen"
source = "the tests of delvetui"
summary = "An alarm and a doom track the players see; the harshness they do not."
default_action = "sneak"

[counters.alarm]
label = "Alarm"
max = 10
players = true

[counters.doom]
label = "Doom"
levels = ["calm", "stirring", "awake"]
players = true

[counters.harshness]
label = "Harshness"
start = 2

[actions.sneak]
label = "Sneak"
effects = [{ do = "counter", counter = "alarm", add = 1 }]
"""


def made(home: Path) -> Path:
    path = home / "seen.delve"
    with Expedition.create(path, load_text(SEEN), seed=1) as expedition:
        expedition.execute("turn sneak")
    return path


def test_the_players_see_the_counters_marked_and_no_other(home: Path) -> None:
    with Expedition.open(made(home)) as expedition:
        shown = view(expedition.state, expedition.procedure)
        assert shown.counters == (("Alarm", "1 of 10"), ("Doom", "calm"))
        lines = shown.lines()
        assert "Alarm: 1 of 10" in lines and "Doom: calm" in lines
        assert not any("Harshness" in line or line == "2" for line in lines)
        assert "Alarm: 1 of 10 · Doom: calm" in players_text(shown).plain


def test_a_procedure_without_such_counters_shows_none(home: Path) -> None:
    text = SEEN.replace("players = true", "players = false")
    with Expedition.create(home / "none.delve", load_text(text), seed=1) as expedition:
        assert view(expedition.state, expedition.procedure).counters == ()


async def test_the_players_screen_shows_them_and_follows_the_table(home: Path) -> None:
    path = made(home)
    players = PlayersApp(path)
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        line = players.query_one("#counters", SeenCounters)
        assert line.display and "ALARM 1 of 10" in str(line.render())
        assert "DOOM calm" in str(line.render())
        with Expedition.open(path) as table:
            table.execute("counter set doom awake")
            table.execute("turn sneak")
            await followed(
                pilot,
                lambda: (
                    players.shown is not None
                    and players.shown.counters == (("Alarm", "2 of 10"), ("Doom", "awake"))
                ),
                WATCH_EVERY,
            )
        assert "DOOM awake" in str(line.render())
        assert line.region.height >= 1 and line.region.y < players.size.height


@pytest.mark.parametrize("game", ["cairn", "errant", "mausritter"])
def test_the_players_see_the_season_and_the_weather(home: Path, game: str) -> None:
    """The weather is what the characters see: the shipped games that roll it show the
    season and the weather on the players' screen as the table sets them, and no other
    counter."""
    with Expedition.create(home / "weather.delve", find(game), seed=3) as expedition:
        expedition.execute("counter set season winter")
        shown = dict(view(expedition.state, expedition.procedure).counters)
        assert list(shown) == ["Season", "Weather"] and shown["Season"] == "winter"
        assert shown["Weather"]
