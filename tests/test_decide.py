"""Engine behaviour shared by every procedure, on a small procedure of our own."""

from __future__ import annotations

import random

import pytest

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.decide import decide, start_events
from delvetui.core.evolve import fold
from delvetui.core.state import State
from delvetui.errors import CommandError, RollNeeded
from delvetui.procedure.loader import load_text

GAME = """\
id = "tiny"
name = "Tiny"
source = "none"
summary = "A small procedure for engine tests."
default_action = "walk"

[counters.alarm]
label = "Alarm"
start = 2
max = 5

[actions.walk]
label = "Walk"
effects = [{ do = "counter", counter = "alarm", add = 1 }]

[actions.rest]
label = "Rest"
kind = "rest"

[rolls.hazard]
label = "Hazard"
table = "hazard"

[tables.hazard]
label = "Hazard"
dice = "d6"

[[tables.hazard.rows]]
roll = "1"
label = "Cold"
effects = [
  { do = "check", id = "save", ability = "CON", dc = 12, on_failure = [
    { do = "damage", amount = 2 },
  ] },
]

[[tables.hazard.rows]]
roll = "2-6"
label = "Quiet"
"""


def play(state: State, text: str, *, ask: bool = False) -> tuple[State, list[ev.Event]]:
    procedure = load_text(GAME)
    events = decide(state, procedure, cmd.parse(text), rng=random.Random(1), ask=ask)
    return fold(state, events), events


def started() -> State:
    procedure = load_text(GAME)
    state = fold(State(), start_events("t", procedure, seed=1))
    for text in ("pc add Ash hp=6 CON=10", "pc add Bryn hp=6 CON=10"):
        state, _ = play(state, text)
    return state


def test_counters_begin_at_their_start_and_keep_their_bounds() -> None:
    state = started()
    assert state.counter("alarm") == 2
    for _ in range(5):
        state, _ = play(state, "turn walk hazard=2")
    assert state.counter("alarm") == 5


def test_what_follows_a_members_check_reaches_that_member_only() -> None:
    state, events = play(started(), "turn hazard=1 save.Ash=4 save.Bryn=15")
    assert [(m.name, m.hp) for m in state.party] == [("Ash", 4), ("Bryn", 6)]
    checks = [e for e in events if isinstance(e, ev.CheckMade)]
    assert [(c.name, c.total, c.success) for c in checks] == [("Ash", 4, False), ("Bryn", 15, True)]


def test_table_dice_asks_for_each_roll_in_turn() -> None:
    state = started()
    with pytest.raises(RollNeeded) as asked:
        play(state, "turn", ask=True)
    assert asked.value.key == "hazard" and asked.value.expression == "d6"
    with pytest.raises(RollNeeded) as asked:
        play(state, "turn hazard=1", ask=True)
    assert asked.value.key == "save.Ash"
    state, events = play(state, "turn hazard=1 save.Ash=20 save.Bryn=20", ask=True)
    assert all(
        isinstance(e, ev.DiceRolled) and e.entered for e in events if isinstance(e, ev.DiceRolled)
    )


def test_a_value_nothing_uses_is_refused_with_a_suggestion() -> None:
    with pytest.raises(CommandError, match="Did you mean 'hazard'"):
        play(started(), "turn hazrd=2")
    with pytest.raises(CommandError, match=r"'save\.cora=' was given but nothing"):
        play(started(), "turn hazard=1 save.Ash=5 save.Bryn=5 save.Cora=5")


def test_decide_never_changes_the_state_it_was_given() -> None:
    state = started()
    before = state
    play(state, "turn hazard=1 save.Ash=1 save.Bryn=1")
    assert state == before


def test_notes_keep_apostrophes_and_quotes() -> None:
    command = cmd.parse('note Bryn\'s map says "beware"')
    assert isinstance(command, cmd.Note)
    assert command.note == 'Bryn\'s map says "beware"'


def test_a_member_with_a_space_in_the_name_can_be_given_a_roll() -> None:
    state, _ = play(started(), "pc add 'Old Tom' hp=6 CON=10")
    state, _ = play(state, "turn hazard=1 save.Ash=20 save.Bryn=20 'save.Old Tom=3'")
    tom = state.member("Old Tom")
    assert tom is not None and tom.hp == 4
