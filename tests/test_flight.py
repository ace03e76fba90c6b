"""The party flees an encounter: the game's rule says whether it gets away (the game
master's word, the faster side, each character's save, a percentile chance), a flight
ends the encounter and charges the clock, and a party caught is pursued in rounds.

Each test plays a real expedition file through ``Expedition.execute``, as the table and
``delvetui act`` do, on a shipped procedure or one of its own, and asserts what a game
master would check: away or caught, who was caught, the clock, the lights, the log.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.conftest import of, replays_the_same, run
from tests.test_fights import log_text, refused


def shipped(home: Path, procedure: str, *members: str) -> Expedition:
    made = Expedition.create(home / f"{procedure}.delve", find(procedure), seed=3)
    run(made, *(f"pc add {member}" for member in members))
    return made


# ---- Faster: OSE below ground ------------------------------------------------------------------


def test_ose_the_faster_side_gets_away_and_the_flight_is_a_turn_of_running(home: Path) -> None:
    """OSE: a party faster than its pursuers gets away; slower or as fast, a pursuit. The
    party keeps to its slowest member (Ash at 90'); getting away is a turn of running."""
    x = shipped(home, "ose", "Ash hp=5 MV=90", "Bo hp=6")
    run(x, "light add torch lit", "foe add goblin count=3 hp=3 morale=7")
    refused(x, "flee", "Say how fast the pursuers are: flee speed=N, in feet")
    refused(x, "flee chance=40", "chance= is not read in Old-School Essentials")
    batch = x.execute("flee speed=90")
    assert of(batch, ev.PartyFled)[0].away is False
    assert x.state.pursued and len(x.state.foes) == 3 and x.state.turn == 0
    assert "Ash's 90 is as fast as the pursuers' 90" in log_text(x)
    assert "dropped treasure or food stops them on 3-in-6 (do drop)" in log_text(x)
    # The chase is played in rounds; tried again where the pursuers are slower (60').
    run(x, "fight initiative=5,2", "round initiative=4,3")
    batch = x.execute("flee speed=60")
    fled = of(batch, ev.PartyFled)[0]
    assert (fled.away, fled.rounds) == (True, 2)
    assert x.state.fight is None and not x.state.foes and not x.state.pursued
    assert (x.state.turn, x.state.clock % 60, x.state.escapes, x.state.fights) == (1, 10, 1, 1)
    assert of(batch, ev.TurnStarted)[0].action == "run"
    assert x.state.lights[0].minutes == 50  # the torch burnt the turn of running
    assert x.state.member("Ash").track("running") == 1
    # The turn of running was the flight's: the next bare turn explores again.
    assert of(x.execute("turn"), ev.TurnStarted)[0].action == "explore"
    assert "The party flees after 2 rounds and gets away" in log_text(x)
    replays_the_same(x)
    x.close()


def test_the_game_masters_word_under_any_rule(home: Path) -> None:
    """Cornered, the party is caught whatever its speed; out of sight, the pursuers give up."""
    x = shipped(home, "ose", "Ash hp=5")
    run(x, "foe add ogre hp=20")
    run(x, "flee caught cornered in the dead end")
    assert x.state.pursued
    assert "caught (the game master's word): cornered in the dead end." in log_text(x)
    refused(x, "flee away speed=40", "flee away is the game master's word: it reads no speed=")
    run(x, "flee away they lose sight of us")
    assert x.state.foes == () and x.state.escapes == 1 and x.state.turn == 1
    run(x, "undo")
    assert x.state.pursued and x.state.turn == 0 and len(x.state.foes) == 1
    x.close()


def test_nobody_to_flee_from_is_a_sentence(home: Path) -> None:
    x = shipped(home, "ose", "Ash hp=5")
    refused(x, "flee speed=60", "There is no one to flee from: no foe is in the encounter")
    run(x, "foe add rat hp=1", "foe rat +down")
    refused(x, "flee speed=60", "There is no one to flee from: every foe is out of the fight")
    x.close()


# ---- Save: Cairn ---------------------------------------------------------------------------------


def test_cairn_each_character_saves_under_dex_to_retreat(home: Path) -> None:
    """Cairn: running from danger takes a DEX save; those who fail are named, caught."""
    x = shipped(home, "cairn", "Ash hp=4 DEX=12", "Bo hp=5 DEX=8")
    run(x, "foe add wolf count=2 hp=4")
    refused(x, "flee speed=30", "speed= is not read in Cairn (second edition)")
    batch = x.execute("flee flee=5,13")
    fled = of(batch, ev.PartyFled)[0]
    assert (fled.away, fled.caught) == (False, ("Bo",))
    assert [roll.purpose for roll in of(batch, ev.DiceRolled)] == [
        "Ash's DEX save to get away",
        "Bo's DEX save to get away",
    ]
    assert "Bo is caught." in log_text(x)
    run(x, "flee flee=12,8")  # at most the score passes
    assert x.state.foes == () and x.state.escapes == 1
    # Cairn gives a fight no time of its own: nor does a flight.
    assert x.state.turn == 0
    x.close()


# ---- The game master's: Shadowdark ---------------------------------------------------------------


def test_shadowdark_the_game_master_says_and_a_fight_fled_counts(home: Path) -> None:
    x = shipped(home, "shadowdark", "Ash hp=6 DEX=12", "Bo hp=5")
    run(x, "foe add goblin count=2 hp=5", "fight initiative=15,3,10")
    run(x, "foe goblin1 hp=-5 morale=18")  # half their number: goblin2 holds
    run(x, "flee the rest run for the stairs")
    assert x.state.fight is None and x.state.escapes == 1
    assert (x.state.fights, x.state.foes_defeated) == (1, 1)
    x.close()


# ---- Chance, and the format ----------------------------------------------------------------------

CHANCE = """
id = "chase"
name = "Chase"
source = "a test"
summary = "a flight by a chance read from a table"
default_action = "explore"

[time]
turn_minutes = 10

[actions.explore]
label = "Explore"

[actions.fight]
label = "The fight's turn"
kind = "fight"

[encounter]
end_action = "fight"
flight = "chance"
"""


def test_a_percentile_chance_the_game_master_reads(home: Path) -> None:
    x = Expedition.create(home / "chase.delve", load_text(CHANCE), seed=1)
    run(x, "pc add Ash hp=4", "foe add bandit count=4 hp=3")
    refused(x, "flee", "Say the chance of getting away: flee chance=N, in percent")
    run(x, "flee chance=35 flee=36")
    assert x.state.pursued
    assert "36 above 35%" in log_text(x)
    run(x, "fight initiative=3,2")
    run(x, "flee chance=35 flee=35")
    # No flight_action: a flight from a fight costs what its end would (a turn).
    assert x.state.foes == () and x.state.turn == 1
    x.close()


def test_the_loader_names_what_a_flight_lacks() -> None:
    bad = CHANCE.replace('flight = "chance"', 'flight = "save"\nflight_action = "sprint"')
    bad += '\n[movement]\nunit = "feet"\n'
    with pytest.raises(ProcedureError) as raised:
        load_text(bad)
    said = str(raised.value)
    assert "encounter.flight_ability" in said and 'flight_ability = "DEX"' in said
    assert "encounter.flight_action" in said and "'sprint', which does not exist" in said
    faster = CHANCE.replace('flight = "chance"', 'flight = "faster"')
    with pytest.raises(ProcedureError, match="gives the party none: give base_speed"):
        load_text(faster)


def test_the_command_line_flees_and_status_says_pursued(home: Path) -> None:
    def delvetui(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "delvetui", *words], capture_output=True, text=True
        )

    assert delvetui("new", "run", "--procedure", "ose").returncode == 0
    delvetui("act", "run", "pc add Ash hp=5 MV=120")
    delvetui("act", "run", "foe add troll hp=30")
    bad = delvetui("act", "run", "flee")
    assert bad.returncode != 0 and "flee speed=N" in bad.stderr
    done = delvetui("act", "run", "flee speed=120")
    assert "but is caught" in done.stdout
    status = json.loads(delvetui("status", "run", "--json").stdout)
    assert (status["pursued"], status["escapes"], len(status["foes"])) == (True, 0, 1)


def test_the_commands_the_format_page_lists(home: Path) -> None:
    """docs/procedures.md's flight commands, typed as it shows them."""
    x = Expedition.create(home / "page.delve", load_text(CHANCE), seed=5)
    run(x, "pc add Ash hp=4", "foe add bandit hp=3")
    run(x, "flee caught")
    assert x.state.pursued
    run(x, "flee away")
    assert x.state.escapes == 1 and x.state.foes == ()
    run(x, "foe add bandit hp=3")
    batch = x.execute("flee chance=35")
    rolled = of(batch, ev.DiceRolled)[0].total
    assert of(batch, ev.PartyFled)[0].away is (rolled <= 35)
    x.close()


def test_cairn_a_1_always_saves_and_a_20_always_fails(home: Path) -> None:
    """Cairn's Core Rules: "A 1 is always a success, and a 20 is always a failure" —
    the save to act in the first round, the retreat, the foes' WIL morale."""
    x = shipped(home, "cairn", "Ash hp=4 DEX=20", "Bo hp=5 DEX=0")
    run(x, "foe add troll count=2 hp=5 morale=20")
    batch = x.execute("fight save=20,1")
    began = of(batch, ev.RoundBegan)[0]
    assert began.idle == ("Ash",)  # DEX 20 fails on a 20; DEX 0 passes on a 1
    batch = x.execute("foe troll1 +down morale=20")
    assert of(batch, ev.MoraleChecked)[0].failed == ("troll2",)
    run(x, "undo")
    run(x, "foe troll1 +down morale=19")
    run(x, "flee flee=20,1")
    assert x.state.pursued
    # Where the game does not say so (Mausritter), a 20 under a score of 20 passes.
    m = shipped(home, "mausritter", "Ash hp=4 DEX=20 STR=10 WIL=10")
    run(m, "foe add cat hp=6")
    assert of(m.execute("fight initiative=20"), ev.RoundBegan)[0].first == "party"
    x.close()
    m.close()
