"""The audit's table of one-line checks: what an event names exists, its numbers fit.

Each check that is a single line (a lambda in its family's module of ``core/event_checks``)
is exercised here with an event a command could have written (no problem) and one it could
not (the sentence it gets).
"""

from __future__ import annotations

import random

import pytest

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.decide import decide, start_events
from delvetui.core.event_bounds import MAX_NUMBER
from delvetui.core.event_checks import problem
from delvetui.core.evolve import fold
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import find
from delvetui.text import MAX_TYPED


@pytest.fixture(scope="module")
def table() -> tuple[State, Procedure]:
    """Ash in the party and torch1 lit, on the shipped dungeon-turn procedure."""
    procedure = find("dungeon-turn")
    state = fold(State(), start_events("a", procedure, seed=1))
    for text in ("pc add Ash hp=6", "light add torch carrier=Ash", "light on torch"):
        events = decide(state, procedure, cmd.parse(text), rng=random.Random(1))
        state = fold(state, events)
    return state, procedure


CASES = [
    (ev.MemberLeft(name="Ash"), ev.MemberLeft(name="Cy"), "there is no party member 'Cy'"),
    (
        ev.ConditionLost(name="Ash", condition="poisoned", reason=""),
        ev.ConditionLost(name="Cy", condition="poisoned", reason=""),
        "there is no party member 'Cy'",
    ),
    (
        ev.LightPutOut(id="torch1", reason="", spent=True),
        ev.LightPutOut(id="torch9", reason="", spent=True),
        "there is no light 'torch9'",
    ),
    (
        ev.LightDimmed(id="torch1", reason=""),
        ev.LightDimmed(id="torch9", reason=""),
        "there is no light 'torch9'",
    ),
    (
        ev.LightHandedOver(id="torch1", carrier=None),
        ev.LightHandedOver(id="torch1", carrier="Cy"),
        "there is no party member 'Cy'",
    ),
    (
        ev.LightTimerSet(id="torch1", minutes=30, reason=""),
        ev.LightTimerSet(id="torch1", minutes=-1, reason=""),
        f"minutes is -1; it must be from 0 to {MAX_TYPED * 60}",
    ),
    (
        ev.LightStruck(id="torch1", strikes=2),
        ev.LightStruck(id="torch9", strikes=2),
        "there is no light 'torch9'",
    ),
    (
        ev.RestSkipped(turns=6),
        ev.RestSkipped(turns=-2),
        f"turns is -2; it must be from 0 to {MAX_NUMBER}",
    ),
    (
        ev.ClockSet(clock=600),
        ev.ClockSet(clock=-5),
        f"clock is -5; it must be from 0 to {MAX_NUMBER}",
    ),
]


@pytest.mark.parametrize(("fine", "wrong", "why"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_a_one_line_check_passes_what_a_command_writes_and_names_what_it_could_not(
    table: tuple[State, Procedure], fine: ev.Event, wrong: ev.Event, why: str
) -> None:
    state, procedure = table
    assert problem(state, procedure, fine) is None
    found = problem(state, procedure, wrong)
    assert found is not None
    assert found.startswith(why)
