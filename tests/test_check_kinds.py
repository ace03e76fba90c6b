"""Light levels that change checks by kind (docs/procedures.md §3.13, "Checks by kind").

A check names its kind (``check_kind``); a light level's ``check_modes`` gives a mode per
kind beside its ``check_mode`` for all checks; modes from the light, fatigue and
conditions gather, and advantage with disadvantage cancels out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.modes import check_mode, modes_text
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from tests.test_docs_procedures import COMPLETE
from tests.ui_support import ready, screen_text, settled

GLOOM = next(text for _, text in COMPLETE if 'id = "gloom"' in text)


def _rolled(events: tuple[ev.Event, ...]) -> list[tuple[str, str]]:
    return [(e.key, e.expression) for e in events if isinstance(e, ev.DiceRolled)]


def _gloom(home: Path, extra: str = "") -> Expedition:
    expedition = Expedition.create(home / "gloom.delve", load_text(GLOOM + extra), seed=5)
    expedition.execute("pc add Ash hp=6 DEX=14 WIS=12")
    return expedition


def test_darkness_helps_stealth_and_hinders_sight_by_the_checks_kind(home: Path) -> None:
    with _gloom(home) as expedition:
        assert expedition.state.light_level == "dark"
        creep = expedition.execute("turn creep sneak=5,17")
        assert _rolled(creep.events) == [("sneak", "2d20kh1+2")]
        made = next(e for e in creep.events if isinstance(e, ev.CheckMade))
        assert made.total == 19 and made.success
        spot = expedition.execute("do spot spot=16,3")
        assert _rolled(spot.events) == [("spot", "2d20kl1+1")]


def test_in_the_light_the_same_checks_are_plain_rolls(home: Path) -> None:
    with _gloom(home) as expedition:
        expedition.execute("light add torch carrier=Ash lit")
        assert expedition.state.light_level == "bright"
        creep = expedition.execute("turn creep sneak=5")
        assert _rolled(creep.events) == [("sneak", "d20+2")]
        spot = expedition.execute("do spot spot=16")
        assert _rolled(spot.events) == [("spot", "d20+1")]


POISON = """
[conditions.poisoned]
check_mode = "disadvantage"

[conditions.keen]
check_modes = { sight = "advantage" }
"""


def test_advantage_and_disadvantage_from_light_and_conditions_cancel_out(home: Path) -> None:
    with _gloom(home, POISON) as expedition:
        expedition.execute("pc Ash +poisoned")
        # Stealth in the dark (advantage) by a poisoned member (disadvantage): plain.
        creep = expedition.execute("turn creep sneak=5")
        assert _rolled(creep.events) == [("sneak", "d20+2")]
        # Sight in the dark (disadvantage) and poisoned (disadvantage): disadvantage once.
        spot = expedition.execute("do spot spot=16,3")
        assert _rolled(spot.events) == [("spot", "2d20kl1+1")]
        # Keen eyes (advantage on sight) against both: cancelled, however many give each.
        expedition.execute("pc Ash +keen")
        spot = expedition.execute("do spot spot=16")
        assert _rolled(spot.events) == [("spot", "d20+1")]


def test_fatigue_joins_the_sources_and_a_check_without_a_kind_takes_only_all_check_modes(
    home: Path,
) -> None:
    extra = (
        '\n[activities.climb]\nlabel = "Climb"\n'
        'effects = [{ do = "check", id = "climb", dc = 10, target = "by" }]\n'
    )
    text = GLOOM.replace(
        'abilities = ["DEX", "WIS"]',
        'abilities = ["DEX", "WIS"]\nfatigue = ["fresh", "worn"]\n'
        'fatigue_modes = { worn = "disadvantage" }',
    )
    procedure = load_text(text + extra)
    with Expedition.create(home / "worn.delve", procedure, seed=5) as expedition:
        expedition.execute("pc add Ash hp=6 DEX=14 WIS=12")
        ash = expedition.state.member("Ash")
        state = expedition.state
        assert check_mode(procedure, state, ash, "stealth") == "advantage"
        assert check_mode(procedure, state, ash, "") == ""
        expedition.execute("pc Ash fatigue=1")
        ash = expedition.state.member("Ash")
        assert check_mode(procedure, expedition.state, ash, "stealth") == ""
        climb = expedition.execute("do climb climb=4,9")
        assert _rolled(climb.events) == [("climb", "2d20kl1")]


def test_the_modes_are_told_in_words() -> None:
    procedure = load_text(GLOOM)
    rules = procedure.light_level("dark")
    assert modes_text(rules.check_mode, rules.check_modes) == (
        "sight, attack: disadvantage · stealth: advantage"
    )
    assert modes_text("disadvantage", {}) == "all checks: disadvantage"
    assert modes_text(None, rules.check_modes, short=True) == (
        "sight, attack: disadv. · stealth: adv."
    )


def test_a_near_miss_of_a_kind_a_check_names_is_reported_but_a_reminder_loads() -> None:
    misspelt = GLOOM.replace("sight = ", "sigth = ")
    with pytest.raises(ProcedureError) as raised:
        load_text(misspelt)
    assert [(p.path, p.message) for p in raised.value.problems] == [
        (
            "light_levels.dark.check_modes.sigth",
            "no check names the kind 'sigth' (check_kind); did you mean 'sight'?",
        )
    ]
    # "attack" is named by no check of the procedure: a reminder for the table, not an error.
    assert "attack" in load_text(GLOOM).light_level("dark").check_modes


async def test_the_lights_pane_tells_what_darkness_does_to_each_kind(home: Path) -> None:
    _gloom(home).close()
    app = DelveApp(home / "gloom.delve")
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await settled(pilot, lambda: "Checks: sight, attack: disadv." in screen_text(app))
        assert "Checks: sight, attack: disadv. · stealth: adv." in screen_text(app)
