"""What a procedure's words mean, where the format could be read two ways.

Each test follows a rule of docs/procedures.md that a writer relying on that page alone
would expect: a refuel renews the light's own time, a resource named on ``pc add`` sets
the resource, and an id the program already reads as a typed key is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from delvetui.core.log import lines
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.conftest import run

CELLAR = """\
id = "cellar"
name = "The cellar"
source = "the format tests"
summary = "A lantern burns an hour on a flask of oil; rations are each member's own."
default_action = "walk"

[party]
abilities = ["STR", "WIS"]

[resources.oil]
label = "Oil flasks"
per = "party"
start = 1

[resources.rations]
label = "Rations"
start = 3
max = 7

[lights.lantern]
label = "Lantern"
hours = 1
refuel_resource = "oil"
refuel_label = "a flask of oil"

[actions.walk]
label = "Walk"
kind = "move"
"""


@pytest.fixture
def cellar(home: Path) -> Iterator[Expedition]:
    opened = Expedition.create(home / "cellar.delve", load_text(CELLAR), seed=3)
    yield opened
    opened.close()


def said(expedition: Expedition) -> list[str]:
    return [line.text for line in lines(expedition.batches(), expedition.procedure)]


def problems(text: str) -> list[str]:
    with pytest.raises(ProcedureError) as caught:
        load_text(text, source="test.toml")
    return [str(problem) for problem in caught.value.problems]


# Refuelling renews the light's own time ------------------------------------------------


def test_a_refuel_without_refuel_hours_renews_the_lights_own_time(
    cellar: Expedition, home: Path
) -> None:
    """procedures.md 3.12, Refuelling: a flask renews the light; without refuel_hours the
    light's time becomes its kind's own (a lantern of 1 hour burns an hour again)."""
    run(cellar, "pc add Ash hp=6", "light add lantern carrier=Ash lit")
    run(cellar, *["turn"] * 6)
    lantern = cellar.state.light("lantern1")
    assert lantern is not None and not lantern.lit and lantern.minutes == 0
    assert not lantern.spent, "a light that can be refuelled runs out of fuel, not used up"
    shown = delvetui(home, "status", "cellar").stdout
    assert "lantern1: out, no time left" in shown
    cellar.execute("light refuel lantern1")
    lantern = cellar.state.light("lantern1")
    assert lantern is not None and lantern.minutes == 60
    assert cellar.state.resource("oil") == 0
    assert "lantern1 has 6 turns left (a flask of oil)." in said(cellar)
    cellar.execute("light on lantern1")
    assert cellar.state.light_level == "bright"


def test_a_refuel_that_renews_nothing_is_refused_by_the_check() -> None:
    """procedures.md 3.12: a refuel that takes a resource must give something back (time,
    a usage die, strikes); one that renews nothing is named with its key and line."""
    text = CELLAR.replace("hours = 1\n", "")
    assert problems(text) == [
        "line 22: lights.lantern.refuel_resource: refuelling takes one oil but renews "
        "nothing: a lantern has no time (turns, hours or minutes), usage die or strikes to "
        "renew; give refuel_hours (the time a refuel gives) or one of those."
    ]


# A resource named on pc add ------------------------------------------------------------


def test_a_resource_named_on_pc_add_is_the_members_stock(cellar: Expedition) -> None:
    """procedures.md 3.20: a member's resource is theirs from the start; ``pc add Ash hp=6
    rations=2`` starts Ash with 2 rations, not with an ability called RATIONS."""
    cellar.execute("pc add Ash hp=6 rations=2 STR=12")
    ash = cellar.state.member("Ash")
    assert ash is not None
    assert ash.resource("rations") == 2 and dict(ash.abilities) == {"STR": 12}
    cellar.execute("pc add Bo hp=6")
    bo = cellar.state.member("Bo")
    assert bo is not None and bo.resource("rations") == 3


def test_a_track_named_on_pc_add_is_where_it_starts(home: Path) -> None:
    """procedures.md 3.4: a name that is one of the procedure's tracks sets where the
    member's track starts (``pc add Ash hp=6 hunger=2``), never an ability."""
    text = CELLAR + '\n[tracks.hunger]\nlabel = "Hunger"\n'
    with Expedition.create(home / "track.delve", load_text(text), seed=3) as made:
        run(made, "pc add Ash hp=6 hunger=2", "pc add Bo hp=6")
        ash, bo = made.state.party
        assert dict(ash.tracks) == {"hunger": 2} and dict(ash.abilities) == {}
        assert dict(bo.tracks) == {"hunger": 0}


@pytest.mark.parametrize(
    ("command", "sentence"),
    [
        (
            "pc add Ash hp=6 oil=2",
            "Oil flasks are kept by the party as one stock, not by Ash; write party oil=2 "
            "after adding Ash.",
        ),
        ("pc add Ash hp=6 rations=9", "Ash cannot start with 9 rations; give 0 to 7."),
        (
            "pc add Ash hp=6 STRR=12",
            "STRR= is not one of The cellar's abilities (STR, WIS; Ash's own resources: "
            "rations). Did you mean STR=?",
        ),
        (
            "pc add Ash hp=6 ration=2",
            "RATION= is not one of The cellar's abilities (STR, WIS; Ash's own resources: "
            "rations). Did you mean rations=?",
        ),
    ],
)
def test_pc_add_refuses_what_it_cannot_keep(
    cellar: Expedition, command: str, sentence: str
) -> None:
    """commands.md, pc add: a value that is neither the member's resource nor one of the
    procedure's abilities is refused with a sentence, and nothing is saved."""
    before = len(list(cellar.batches()))
    with pytest.raises(CommandError) as caught:
        cellar.execute(command)
    assert str(caught.value) == sentence
    assert len(list(cellar.batches())) == before and cellar.state.party == ()


def test_an_ability_the_procedure_does_not_list_is_refused_on_pc_too(
    cellar: Expedition,
) -> None:
    """commands.md, pc: ``pc Ash WIZ=3`` names no ability of the procedure; refused, with
    the nearest one (MOD and PROF, the best modifier's parts, are always taken)."""
    cellar.execute("pc add Ash hp=6 PROF=2")
    with pytest.raises(CommandError, match=r"Did you mean WIS=\?"):
        cellar.execute("pc Ash WIZ=3")
    cellar.execute("pc Ash WIS=13 rations=5")
    ash = cellar.state.member("Ash")
    assert ash is not None and dict(ash.abilities) == {"PROF": 2, "WIS": 13}
    assert ash.resource("rations") == 5


# Ids that the program already reads as typed keys --------------------------------------

CLASH = """\
id = "clash"
name = "Clash"
source = "the format tests"
summary = "Ids that the program already reads as typed keys."
default_action = "walk"

[actions.walk]
label = "Walk"
inputs.speed = { label = "how fast", number = true }
effects = [
  { do = "check", id = "usage", label = "A check", dc = 10, target = "each" },
  { do = "roll", table = "distance" },
]

[rolls.by]
label = "Who"
table = "reaction"

[tables.distance]
label = "Distance"
dice = "d6"
rows = [{ roll = "1-6", label = "Near" }]

[tables.reaction]
label = "Reaction"
dice = "2d6"
rows = [{ roll = "2-12", label = "Wary" }]
"""


def test_ids_that_collide_with_built_in_keys_are_refused_with_key_and_line() -> None:
    """procedures.md 3.18: a typed key feeds one roll. A table named ``distance`` would
    share ``distance=`` with the encounter's distance, so each such id is refused, with
    its key and line; a table named ``reaction`` is the encounter's reaction either way."""
    found = problems(CLASH)
    assert found == [
        "line 9: actions.walk.inputs.speed: the input 'speed' would be typed speed=N, but "
        "speed= already gives the movement speed (speed=SPEED); one value would feed both. "
        "Name it otherwise (e.g. 'speed-roll').",
        "line 15: rolls.by: the roll 'by' would be typed by=N, but by= already gives the "
        "member who acts (by=NAME); one value would feed both. Name it otherwise "
        "(e.g. 'by-roll').",
        "line 19: tables.distance: the table 'distance' would be typed distance=N, but "
        "distance= already gives an encounter's distance (distance=N or distance=TEXT); one "
        "value would feed both. Name it otherwise (e.g. 'distance-roll').",
        "line 10: actions.walk.effects[0].id: the check 'usage' would be typed usage=N, but "
        "usage= already gives a light's usage die (usage.ID=N); one value would feed both. "
        "Name it otherwise (e.g. 'usage-roll').",
    ]


def test_procedures_check_names_the_colliding_table(home: Path, tmp_path: Path) -> None:
    """The same through ``delvetui procedures check``: status 2 and the key with its line."""
    path = tmp_path / "clash.toml"
    path.write_text(CLASH, encoding="utf-8")
    done = delvetui(home, "procedures", "check", str(path))
    assert done.returncode == 2
    assert "line 19: tables.distance: the table 'distance' would be typed" in done.stderr
