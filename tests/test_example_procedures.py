"""The three example procedures of docs/examples/procedures/, each written from the docs
alone after a published turn procedure, load and play as their comments say.

They are examples, not shipped procedures: a game master starts one with
``delvetui new NAME --procedure docs/examples/procedures/ID.toml``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.cli import status_data
from delvetui.core import events as ev
from delvetui.core.players import view
from delvetui.core.turn import preview
from delvetui.errors import CommandError
from delvetui.procedure.loader import load_file
from delvetui.session import Expedition

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "examples" / "procedures"


def start(home: Path, name: str) -> Expedition:
    procedure = load_file(FOLDER / f"{name}.toml")
    assert procedure.id == name
    return Expedition.create(home / f"{name}.delve", procedure, seed=4)


def test_the_folder_holds_the_three_examples() -> None:
    names = sorted(path.stem for path in FOLDER.glob("*.toml"))
    assert names == ["encounter-clock", "knave-delving", "worn-and-fed"]


def test_the_encounter_clock_counts_down_to_an_encounter(home: Path) -> None:
    with start(home, "encounter-clock") as clock:
        clock.execute("pc add Ash hp=6")
        clock.execute("turn clock=5")
        assert clock.state.counter("clock") == 15
        assert view(clock.state, clock.procedure).counters == (("Encounter clock", "15 of 20"),)
        # Resting grows the die: a d8, then a d10.
        clock.execute("turn rest clock=8")
        clock.execute("turn rest clock=2")
        rested = clock.execute("turn rest clock=1")
        die = next(e for e in rested.events if isinstance(e, ev.DiceRolled))
        assert die.expression == "-d12" and clock.state.counter("clock") == 4
        # Landing on exactly 1 is an omen of the next encounter, which is that creature.
        clock.execute("turn explore clock=3 sign=ghouls")
        assert clock.state.counter("clock") == 1 and clock.state.sign == "ghouls"
        clock.execute("turn clock=4")
        assert clock.state.encounter is not None and "ghouls" in clock.state.encounter
        assert clock.state.counter("clock") == 20  # below zero: it starts again


def test_knave_delving_hurts_as_the_dungeon_is_harsh(home: Path) -> None:
    with start(home, "knave-delving") as delve:
        delve.execute("pc add Ash hp=8")
        delve.execute("light add torch lit")
        delve.execute("turn hazard=2")
        delve.execute("turn hazard=6")
        assert delve.state.party[0].hp == 7
        delve.execute("counter set harshness 3")
        delve.execute("turn hazard=2")
        delve.execute("turn rest hazard=6")  # a rest cancels the fatigue
        assert delve.state.party[0].hp == 7
        delve.execute("turn crawl hazard=2")
        delve.execute("turn hazard=6")
        assert delve.state.party[0].hp == 4
        # The dark takes 10 off movement and coordination, as the pane reminds the GM.
        delve.execute("turn hazard=3")
        assert status_data(delve, odds=False)["light_level"] == "dark"


def test_worn_and_fed_tires_slows_feeds_and_heals(home: Path) -> None:
    with start(home, "worn-and-fed") as worn:
        worn.execute("pc add Ash hp=8 STR=12")
        worn.execute("light add torch lit carrier=Ash")
        worn.execute("turn hazard=2")
        worn.execute("turn hazard=2")
        worn.execute("turn hazard=5")
        ash = worn.state.party[0]
        assert worn.procedure.party.fatigue_label(ash.fatigue) == "weary"
        assert preview(worn.state, worn.procedure, "explore").distance == "90 feet"
        climb = worn.execute("do climb by=Ash climb=12")
        rolled = next(e for e in climb.events if isinstance(e, ev.DiceRolled))
        assert rolled.expression == "d20-1"  # +1 STR, -2 weary
        worn.execute("do eat")
        assert worn.state.resource("supply") == 2 and worn.state.party[0].fatigue == 1
        worn.execute("party supply=0")
        with pytest.raises(CommandError, match="Eat is refused: the company has no Supply left"):
            worn.execute("do eat")
        worn.execute("light off torch1")
        with pytest.raises(CommandError, match="Draw the map is not possible in darkness"):
            worn.execute("do map")
        worn.execute("enter haven")
        day = worn.state.day
        worn.execute("turn stay stay=1")  # 1d4+1: two days
        assert worn.state.day == day + 2 and worn.state.party[0].fatigue == 0
