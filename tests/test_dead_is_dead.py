"""Dead is dead, in every procedure: a member marked ``dead`` leaves the tracks, the alerts
and the counts of who is up, and the log, the campaign view and the chronicle date the death
at the turn it was marked, not at the expedition's end (issue #43, item 5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from delvetui.core.alerts import alerts
from delvetui.core.danger import dangers
from delvetui.core.log import lines
from delvetui.errors import CommandError
from delvetui.export.campaign import Voyage
from delvetui.export.campaign_reading import read
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.alert_strip import AlertStrip
from delvetui.ui.panes.party_roster import PartyRoster
from tests.cli_support import delvetui, made
from tests.conftest import Factory, run
from tests.shipped import SHIPPED
from tests.ui_support import make, ready, screen_text

FOUR = ("pc add Ash hp=6", "pc add Bo hp=5", "pc add Cy hp=4", "pc add Dain hp=3")


def turn(x: Expedition) -> None:
    """A bare turn; where the dice ask the party to choose (Cairn's barrier), the first
    choice the refusal names, as a game master would type it."""
    try:
        x.execute("turn")
    except CommandError as error:
        chosen = re.search(r"add (\S+?=\S+?)[ .]", error.message)
        assert chosen is not None, error.message
        x.execute(f"turn {chosen.group(1)}")


@pytest.mark.parametrize("procedure", SHIPPED)
def test_the_dead_leave_the_tracks_and_the_alerts(expedition: Factory, procedure: str) -> None:
    """Dain, marked dead after two turns, keeps the tracks he had then however many turns
    pass; no alert names him, not even at 0 HP; the state dates his death."""
    x = expedition(procedure, seed=5)
    run(x, *FOUR, "light add torch count=6 carrier=Ash lit")
    turn(x)
    turn(x)
    run(x, "pc Dain hp=0", "pc Dain +dead")
    dain = x.state.member("Dain")
    assert dain is not None
    tracks = dain.tracks
    assert dain.died_at == (2, x.state.clock)
    for _ in range(6):
        turn(x)
    dain = x.state.member("Dain")
    assert dain is not None and dain.dead
    assert dain.tracks == tracks, "a dead member's tracks do not move"
    said = [alert.text for alert in alerts(x.state, x.procedure)]
    said += [danger.text for danger in dangers(x.state, x.procedure)]
    assert not [text for text in said if "Dain" in text], said
    assert [m.name for m in x.state.living] == ["Ash", "Bo", "Cy"]


def test_ose_the_log_dates_the_death_and_the_unrested_count_ignores_him(
    expedition: Factory,
) -> None:
    """OSE writes a turn's exploring on each member's Turns without rest: once Dain is
    dead it is written for the other three only; the log says when he died."""
    x = expedition("ose", seed=2)
    run(x, *FOUR, "light add torch carrier=Ash lit", "turn", "turn", "turn")
    run(x, "pc Dain +dead", "turn", "turn")
    text = "\n".join(line.text for line in lines(x.batches(), x.procedure))
    assert "Dain dies (the game master's word): turn 3, day 1, 08:30." in text
    after = text.split("Dain dies")[1]
    assert "Dain: Turns without rest" not in after
    assert "Dain" not in " ".join(alert.text for alert in alerts(x.state, x.procedure))


def test_the_campaign_and_the_chronicle_date_the_death_at_its_turn(home: Path) -> None:
    """`delvetui campaign` and the chronicle say Dain died at turn 3, at 08:30, though
    the expedition ran on to its end at 09:20."""
    commands = [*FOUR, "light add torch carrier=Ash lit", "turn", "turn", "turn"]
    commands += ["pc Dain +dead", *["turn"] * 5, "end"]
    made(home, "crypt", "ose", commands, seed=2)
    found = read(home / "crypt.delve")
    assert isinstance(found, Voyage)
    assert found.died == ("Dain",)
    assert found.died_words() == ("Dain (turn 3, day 1, 08:30)",)
    shown = delvetui(home, "campaign", "crypt")
    assert shown.returncode == 0, shown.stderr
    assert "died: Dain (turn 3, day 1, 08:30)" in shown.stdout
    assert "Dain: 1 expedition (crypt); died in crypt (day 1, 08:30)" in shown.stdout
    data = json.loads(delvetui(home, "campaign", "crypt", "--json").stdout)
    voyage = data["campaigns"][0]["chains"][0]["expeditions"][0]
    assert voyage["deaths"] == [{"name": "Dain", "turn": 3, "clock": 8 * 60 + 30}]
    chronicle = delvetui(home, "export", "--campaign", "crypt", "--format", "md", "-o", "-")
    assert chronicle.returncode == 0, chronicle.stderr
    assert "Dain (turn 3, day 1, 08:30)" in chronicle.stdout
    assert "09:20" in chronicle.stdout  # the expedition's end is another moment


def test_a_death_taken_back_is_no_death(expedition: Factory) -> None:
    """`pc Dain -dead` (a mistake) takes the date away with the condition, and Dain's
    tracks run again; an undo of the mark does the same."""
    x = expedition("ose", seed=2)
    run(x, *FOUR, "turn", "pc Dain +dead")
    run(x, "pc Dain -dead")
    dain = x.state.member("Dain")
    assert dain is not None and not dain.dead and dain.died_at is None
    run(x, "pc Dain +dead", "undo")
    dain = x.state.member("Dain")
    assert dain is not None and dain.died_at is None


async def test_the_roster_says_dead_not_down() -> None:
    """At 80×24 the roster's row for Dain says he is dead and since when, with no hit
    points bar and no tracks; the strip does not call him at 0 HP."""
    commands = (*FOUR, "light add torch carrier=Ash lit", "turn", "pc Dain hp=0", "pc Dain +dead")
    app = DelveApp(make("dead", commands, procedure="ose"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        await pilot.press("n")
        await ready(pilot)
        roster = table.query_one(PartyRoster)
        row = next(line for line in str(roster.render()).splitlines() if "Dain" in line)
        assert "dead (turn 1)" in row
        assert "0/3" not in row and "Turns" not in row
        strip = " | ".join(alert.text for alert in table.query_one(AlertStrip).current())
        assert "Dain" not in strip
        assert "Dain at 0 HP" not in screen_text(app)
