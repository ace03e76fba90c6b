"""Levels with teeth: a flat modifier on checks, a slower pace, an activity forbidden or
refused, and an action whose turns are rolled (docs/procedures.md, 3.21a)."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.level_rules import check_modifier, modifiers_text, movement
from delvetui.core.turn import preview
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition

TEETH = """
id = "teeth"
name = "Teeth"
source = "the tests of delvetui"
summary = "Levels that add to checks, slow the party and forbid."
default_action = "walk"

[turn_types.dungeon]
label = "turn"
minutes = 10

[turn_types.haven]
label = "day"
days = 1

[party]
abilities = ["WIS"]
fatigue = ["fresh", "tired", "exhausted"]
fatigue_modifiers = { tired = -1, exhausted = -2 }
fatigue_movement = { tired = 0.75, exhausted = 0.5 }

[counters.snow]
label = "Snow"
levels = ["none", "light", "deep"]
level_modifiers = { deep = -1 }
level_movement = { deep = 0.5 }

[conditions.unrested]
label = "Unrested"
check_modifier = -1
check_modifiers = { attack = -1 }

[resources.picks]
label = "Lockpicks"

[lights.torch]
label = "Torch"
turns = 6

[light_levels.dark]
label = "Darkness"
text = "nothing can be mapped in the dark"
forbid = ["map"]
check_modifier = -3
check_modifiers = { sight = -4 }
turns = { camp = 2 }

[actions.walk]
label = "Walk"
kind = "move"
turn_types = ["dungeon"]
distance = { normal = 120 }

[actions.camp]
label = "Camp"
kind = "rest"
turn_types = ["dungeon"]
turns_dice = "1d4"

[actions.stay]
label = "Stay"
kind = "rest"
turn_types = ["haven"]
turns_dice = "1d4+1"

[activities.map]
label = "Draw the map"

[activities.pick]
label = "Pick a lock"
refused_when = { member_resource_at_most = { picks = 0 } }
refusal = "a lock is picked with lockpicks"

[activities.spot]
label = "Spot"
effects = [
  { do = "check", id = "spot", check_kind = "sight", ability = "WIS", dc = 10, target = "by" },
]

[activities.swing]
label = "Swing"
effects = [{ do = "check", id = "swing", check_kind = "attack", dc = 10, target = "by" }]
"""


@pytest.fixture
def teeth(home: Path) -> Expedition:
    expedition = Expedition.create(home / "teeth.delve", load_text(TEETH), seed=2)
    for command in ("pc add Ash hp=6 WIS=12", "pc add Bo hp=6 WIS=10", "light add torch lit"):
        expedition.execute(command)
    return expedition


def rolled(expedition: Expedition, command: str) -> ev.DiceRolled:
    batch = expedition.execute(command)
    return next(e for e in batch.events if isinstance(e, ev.DiceRolled))


def test_the_modifiers_of_every_level_add_up(teeth: Expedition) -> None:
    with teeth:
        assert rolled(teeth, "do spot by=Ash spot=10").expression == "d20+1"
        teeth.execute("pc Ash fatigue=1 +unrested")
        teeth.execute("counter set snow deep")
        roll = rolled(teeth, "do spot by=Ash spot=10")
        assert roll.expression == "d20-2"  # +1 WIS, -1 tired, -1 unrested, -1 deep snow
        assert "tired -1" in roll.purpose and "unrested -1" in roll.purpose
        assert "snow deep -1" in roll.purpose
        # A kind of check takes its own besides: an attack takes the unrested's -1 twice.
        assert rolled(teeth, "do swing by=Ash swing=10").expression == "d20-4"
        state, procedure = teeth.state, teeth.procedure
        assert check_modifier(procedure, state, state.member("Bo"))[0] == -1  # snow only


def test_the_dark_adds_its_own_for_every_check_and_a_kind(teeth: Expedition) -> None:
    with teeth:
        teeth.execute("light off torch1")
        assert rolled(teeth, "do spot by=Bo spot=10").expression == "d20-7"  # -3 and -4
        assert rolled(teeth, "do swing by=Bo swing=10").expression == "d20-3"
        dark = teeth.procedure.light_levels["dark"]
        words = modifiers_text(dark.check_modifier, dark.check_modifiers)
        assert words == "all checks -3 · sight -4"


def test_the_slowest_member_and_the_snow_set_the_pace(teeth: Expedition) -> None:
    with teeth:
        assert preview(teeth.state, teeth.procedure, "walk").distance == "120 feet"
        teeth.execute("pc Bo fatigue=2")
        teeth.execute("pc Ash fatigue=1")
        shown = preview(teeth.state, teeth.procedure, "walk")
        assert shown.distance == "60 feet" and "Bo is exhausted" in shown.light_note
        teeth.execute("counter set snow deep")
        factor, why = movement(teeth.procedure, teeth.state)
        assert factor == 0.25 and why == "Bo is exhausted; snow is deep"
        turn = teeth.execute("turn walk")
        started = next(e for e in turn.events if isinstance(e, ev.TurnStarted))
        assert started.distance == "30 feet"


def test_an_activity_the_dark_forbids_is_refused(teeth: Expedition) -> None:
    with teeth:
        teeth.execute("do map")
        teeth.execute("light off torch1")
        before = teeth.event_count
        with pytest.raises(CommandError, match="Draw the map is not possible in darkness: "):
            teeth.execute("do map")
        assert teeth.event_count == before


def test_an_activity_wanting_a_resource_is_refused_for_its_doer(teeth: Expedition) -> None:
    with teeth:
        with pytest.raises(
            CommandError, match=r"Pick a lock is refused: a lock is picked with lockpicks \(Ash\)"
        ):
            teeth.execute("do pick by=Ash")
        teeth.execute("pc Ash +1 picks")
        teeth.execute("do pick by=Ash")
        with pytest.raises(CommandError, match=r"\(Bo\)"):
            teeth.execute("do pick by=Bo")


def test_an_action_lasts_the_turns_its_dice_roll(teeth: Expedition) -> None:
    with teeth:
        turn = teeth.execute("turn camp camp=3")
        assert teeth.state.turn == 3
        first = turn.events[0]
        assert isinstance(first, ev.DiceRolled) and first.purpose == "How long Camp lasts, in turns"
        teeth.execute("enter haven")
        teeth.execute("turn stay stay=4")
        assert (teeth.state.turn, teeth.state.day) == (8, 6)  # 1d4+1: five days
        teeth.execute("enter dungeon")
        assert teeth.state.light_level == "dark"  # the torch burnt out on the sixth turn
        teeth.execute("turn camp")  # the dark's own count of turns wins: nothing is rolled
        assert teeth.state.turn == 10
        with pytest.raises(CommandError, match="nothing in this command uses it"):
            teeth.execute("turn camp camp=2")


@pytest.mark.parametrize(
    ("old", "new", "path", "said"),
    [
        (
            "exhausted = -2 }",
            "exausted = -2 }",
            "party.fatigue_modifiers.exausted",
            "'exausted' is not one of party.fatigue (fresh, tired, exhausted). Did you mean",
        ),
        (
            "[conditions.unrested]",
            '[counters.x]\nlabel = "X"\nlevel_movement = { deep = 0.5 }\n\n[conditions.unrested]',
            "counters.x.level_movement",
            "names levels of X, which has none",
        ),
        ('turns_dice = "1d4"', 'turns_dice = "d4-1"', "actions.camp.turns_dice", "rolls 0 to 3"),
        ('forbid = ["map"]', 'forbid = ["mop"]', "light_levels.dark.forbid", "activity 'mop'"),
        (
            "check_modifiers = { sight = -4 }",
            "check_modifiers = { sigth = -4 }",
            "light_levels.dark.check_modifiers.sigth",
            "did you mean 'sight'",
        ),
        (
            "check_modifier = -3",
            "check_modifier = -3000",
            "light_levels.dark.check_modifier",
            "it should be -1,000 to 1,000",
        ),
    ],
)
def test_each_misuse_is_told_with_its_key_and_line(
    old: str, new: str, path: str, said: str
) -> None:
    text = TEETH.replace(old, new, 1)
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    found = [p for p in refused.value.problems if p.path == path]
    assert found and said in found[0].message and found[0].line is not None, refused.value


def test_an_activity_with_rolled_turns_is_refused() -> None:
    text = TEETH.replace('label = "Draw the map"', 'label = "Draw the map"\nturns_dice = "1d4"')
    with pytest.raises(ProcedureError, match=r"activities\.map\.turns_dice: an activity takes no"):
        load_text(text)
