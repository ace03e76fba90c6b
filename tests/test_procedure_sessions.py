"""A scripted session of each shipped procedure: 40 turns, read from top to bottom.

Each script plays 40 turns (travel turns, dungeon rounds) as a game master would, typing
the hazard die so that every result comes up, and covers lights running out, a rest, an
encounter and the procedure's own rule. The exported plain text is kept under
``docs/examples/`` so a reader can see what a session looks like; the test checks the
program still tells it the same way. After a deliberate change of wording, write the
examples again with ``DELVETUI_WRITE_EXAMPLES=1 pytest tests/test_procedure_sessions.py``
and read them through before committing.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.export import export
from delvetui.procedure.registry import find
from delvetui.session import Expedition

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
#: Every command is stamped with this moment, so the export is the same on every run.
NOW = dt.datetime(2026, 3, 14, 19, 30, tzinfo=dt.UTC)


def turns(command: str, count: int) -> list[str]:
    return [command] * count


SCRIPTS: dict[str, list[str]] = {
    # Delving (000): the d6 hazard die; a sign foretells the next encounter; torches burn
    # out on a 3; walking is surprised; darkness; searching takes two turns in dim light.
    "delving": [
        "pc add Ash hp=8",
        "pc add Bryn hp=6",
        "light add torch count=3 carrier=Ash",
        "light on torch",
        "light add candle count=2 carrier=Bryn",
        "session start",
        *turns("turn crawl hazard=6", 2),
        "turn crawl hazard=4",
        "turn crawl hazard=2",
        "turn rest hazard=6",
        "turn crawl hazard=2",
        "turn crawl hazard=6",
        "turn search hazard=6",
        "turn crawl hazard=5 sign=ghouls",
        "turn crawl hazard=6",
        "turn crawl hazard=1",
        "note The ghouls are feasting; the party slips past.",
        "turn crawl hazard=3",
        "turn crawl hazard=6",
        "light on torch",
        "turn walk hazard=1 'creature=giant rats'",
        *turns("turn crawl hazard=6", 3),
        "turn crawl hazard=3",
        "light on candle",
        "turn search hazard=6 hazard=4",
        "turn run hazard=6",
        "turn crawl hazard=6",
        "light on candle",
        *turns("turn crawl hazard=6", 4),
        "turn crawl hazard=5 'sign=a gelatinous cube'",
        *turns("turn crawl hazard=6", 3),
        "turn rest hazard=2",
        "turn rest hazard=6",
        "turn crawl hazard=1",
        *turns("turn crawl hazard=6", 4),
        "turn crawl hazard=4",
        "turn crawl hazard=6",
        "turn walk hazard=6",
        "session end",
    ],
    # Dungeon Turn (002): the first 6 turns ignore 4-6; lights only dim and go out at a 5;
    # fatigue tired then exhausted; an hour's rest heals; an encounter breaks the rest;
    # harvesting and leaving the dungeon.
    "dungeon-turn": [
        "pc add Ash hp=10 STR=14 INT=12 WIS=16 PROF=2",
        "pc add Bo hp=8 STR=10 DEX=14",
        "light add torch count=2 carrier=Ash",
        "light on torch",
        "light add candle count=2 carrier=Bo",
        "session start",
        "turn explore hazard=4",
        "turn explore hazard=5",
        "turn explore hazard=6",
        "turn search hazard=3",
        "turn explore hazard=2",
        "turn explore hazard=6",
        "turn explore hazard=4",
        "turn explore hazard=1 disposition=4",
        "turn harvest hd=2 by=Ash hazard=6",
        "turn explore hazard=5",
        *turns("turn explore hazard=6", 3),
        "turn explore hazard=5",
        "light on candle",
        "turn explore hazard=2",
        "turn rest hazard=6",
        "turn explore hazard=2",
        "turn explore hazard=6",
        "turn explore hazard=5",
        "light on torch",
        "pc Ash hp=-4",
        *turns("turn rest hazard=6", 3),
        "turn rest hazard=1 disposition=9",
        *turns("turn rest hazard=6", 6),
        "turn explore hazard=3 sign=kobold-spoor",
        *turns("turn explore hazard=6", 8),
        "turn explore hazard=4",
        "turn explore hazard=6",
        "turn leave path=dangerous length=2 rooms=3 leave.Ash=14 leave.Bo=9",
        "session end",
    ],
    # Dungeon Exploration (001): torches burn 6 turns; a 3 puts one out (a torch just lit
    # flickers, lantern oil runs low); fatigue is a CON save unless the party rests; a rest
    # is owed every 6 turns; darkness halves movement and forbids searching.
    "exploration": [
        "pc add Ash hp=8 STR=12 DEX=16 CON=14 WIS=14",
        "pc add Bo hp=6 CON=10",
        "light add torch count=4 carrier=Ash",
        "light on torch",
        "light add lantern carrier=Bo",
        "session start",
        "turn cautious hazard=3",
        "turn cautious hazard=2",
        "turn cautious hazard=5",
        "turn search dc=12 by=Ash hazard=6",
        "turn cautious hazard=1",
        "do surprise",
        "turn rushing hazard=3",
        "turn cautious hazard=6",
        "light on torch",
        "turn cautious hazard=4",
        "turn rest hazard=5",
        "turn cautious hazard=4",
        "turn cautious hazard=6",
        *turns("turn cautious hazard=5", 3),
        "turn cautious hazard=6",
        "light on lantern",
        "turn listen by=Bo hazard=6",
        "turn cautious hazard=3",
        "turn cautious hazard=5",
        "light refuel lantern1",
        "light on lantern1",
        "turn rest hazard=6",
        *turns("turn cautious hazard=5", 5),
        "turn cautious hazard=1 creature=goblins",
        "light off lantern1",
        "turn cautious hazard=5",
        "turn cautious hazard=6",
        "light on torch",
        "turn force-door dc=14 by=Ash hazard=5",
        "turn rest hazard=5",
        *turns("turn cautious hazard=6", 9),
        "turn pick-lock dc=13 by=Ash hazard=5",
        "turn cautious hazard=2",
        "session end",
    ],
    # Trespasser (003): light depletion checks on usage dice at the start of each round;
    # the alarm and its d10 encounter check; Hide with a group Stealth check and sparks;
    # character actions within a round.
    "trespasser": [
        "pc add Ash hp=10 MIGHT=14 AGILITY=12 INTELLECT=13 ENDURANCE=3",
        "pc add Bryn hp=8 AGILITY=15 INTELLECT=11 ENDURANCE=2",
        "light add torch count=3 carrier=Ash",
        "light on torch",
        "session start",
        "turn advance hazard=6",
        "do search by=Bryn what=room",
        "turn stay",
        "light on torch",
        "do listen by=Ash",
        "turn advance hazard=9",
        "turn stay",
        "do batter-door by=Ash",
        "turn advance hazard=3",
        "turn hide stealth=success sparks=1",
        "turn advance hazard=8",
        "turn backtrack hazard=5",
        "turn stay",
        "do moments-rest by=Ash ate=no",
        "do moments-rest by=Bryn ate=yes",
        "turn advance hazard=2",
        "turn hide stealth=failure",
        "turn advance hazard=10",
        *turns("turn stay", 2),
        "do pick-lock by=Bryn tools=improvised",
        "turn advance hazard=7",
        "turn hide stealth=success sparks=0",
        "turn advance hazard=9",
        "turn backtrack hazard=10",
        "turn advance hazard=4",
        "turn stay",
        "do cast-incantation by=Bryn",
        "turn advance hazard=10",
        "turn hide stealth=success sparks=2",
        *turns("turn backtrack hazard=10", 3),
        "turn advance hazard=1",
        *turns("turn stay", 2),
        "turn advance hazard=10",
        "turn advance hazard=6",
        "turn stay",
        "turn hide stealth=success sparks=1",
        *turns("turn advance hazard=10", 7),
        "turn stay",
        "session end",
    ],
    # Travel Turns (004): the d20 threat table with advantage when cautious; torches an
    # hour, lanterns three; time dice; resilience past CON hours and exhaustion; rolling to
    # return.
    "travel-turn": [
        "pc add Ash hp=8 CON=10 STR=12 MOD=2",
        "pc add Bo hp=6 CON=8 WIS=13 PROF=1",
        "time set 05:00",
        "light add torch count=6 carrier=Ash",
        "light add lantern count=2 carrier=Bo",
        "light on torch",
        "session start",
        "turn cautious hazard=20,3",
        "turn cautious hazard=14,12",
        "light on lantern",
        "turn careless hazard=6,15",
        "turn cautious hazard=1,1",
        "turn cautious hazard=18,9",
        "light add daylight lit",
        *turns("turn cautious hazard=12,16", 3),
        "turn careless hazard=20,11",
        "turn cautious hazard=19,4",
        "turn cautious hazard=9,2 resilience.Bo=6",
        "turn cautious hazard=20,7 resilience.Bo=13,4",
        "turn rest hazard=17",
        "pc Bo -exhausted",
        *turns("turn cautious hazard=15,13", 4),
        "light off daylight1",
        "light on torch",
        "turn cautious hazard=11,10",
        "turn careless hazard=2,19",
        "light on torch",
        "turn cautious hazard=16,20",
        "turn rest hazard=20",
        "light on lantern",
        *turns("turn cautious hazard=13,8", 3),
        "turn careless hazard=10,18",
        *turns("turn cautious hazard=12,17", 3),
        "turn rest hazard=19",
        *turns("turn cautious hazard=14,6", 6),
        "turn cautious hazard=1,20",
        *turns("turn cautious hazard=12,12", 4),
        "turn return path=arduous return.Ash=15 return.Bo=6",
        "session end",
    ],
}


def played(home: Path, procedure_id: str) -> Expedition:
    """The script played on a real expedition file, every command stamped at NOW."""
    made = Expedition.create(
        home / f"{procedure_id}.delve", find(procedure_id), seed=40, now=NOW, name=procedure_id
    )
    for command in SCRIPTS[procedure_id]:
        made.execute(command, now=NOW)
    return made


@pytest.mark.parametrize("procedure_id", sorted(SCRIPTS))
def test_a_forty_turn_session_covers_the_procedure(home: Path, procedure_id: str) -> None:
    with played(home, procedure_id) as made:
        procedure = made.procedure
        state = made.state
        assert state.turn == 40
        every = [e for b in made.batches() for e in b.events]
        hazard_table = procedure.rolls["hazard"].table
        if hazard_table:
            rows = {e.row for e in every if isinstance(e, ev.ResultRead) and e.key == "hazard"}
            assert rows == set(range(len(procedure.tables[hazard_table].rows)))
        else:
            labels = {e.label for e in every if isinstance(e, ev.ResultRead) and e.key == "hazard"}
            assert labels == {"Encounter", "No encounter"}
        assert any(isinstance(e, ev.LightPutOut) and e.reason != "put out" for e in every)
        assert any(isinstance(e, ev.TurnStarted) and e.resting for e in every) or (
            procedure_id == "trespasser"  # its rest is a character's moment's rest
            and any(isinstance(e, ev.TrackChanged) for e in every)
        )
        assert any(isinstance(e, ev.EncounterBegan) for e in every)
        text = export(made, "txt", now=NOW)
    example = EXAMPLES / f"{procedure_id}.txt"
    if os.environ.get("DELVETUI_WRITE_EXAMPLES"):
        example.write_text(text, encoding="utf-8")
    assert text == example.read_text(encoding="utf-8"), (
        f"{example.name} no longer matches the program; see this module's docstring."
    )


def test_the_special_rules_show_in_the_examples() -> None:
    """What each text is known for reads in its example, in the text's own terms."""
    read = {  # as one line: the export wraps at its width
        path.stem: " ".join(path.read_text(encoding="utf-8").split())
        for path in EXAMPLES.glob("*.txt")
    }
    assert "Encounter with ghouls, as the sign foretold!" in read["delving"]
    assert "The party is surprised (walking, running or in total darkness)" in read["delving"]
    assert "candle2 is blown out by running." in read["delving"]
    assert "(ignored during the first 6 turns)" in read["dungeon-turn"]
    assert "torch2 dims (Depletion)." in read["dungeon-turn"]
    assert "interrupts the party's rest" in read["dungeon-turn"]
    assert "flickers ominously" in read["exploration"]
    assert "lantern1's fuel runs low: 2 turns left." in read["exploration"]
    assert "torch3 burns out." in read["exploration"]  # its 6 turns are up
    assert "Sparks on the Stealth check: 1" in read["trespasser"]
    assert "is above the alarm" in read["trespasser"]
    assert "gains a condition: exhausted" in read["travel-turn"]
    assert "with disadvantage" in read["travel-turn"]
