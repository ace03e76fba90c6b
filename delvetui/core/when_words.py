"""A `when` condition in the game master's words, with the values it reads now.

Says why a rule that holds a condition is not made this turn ("only when the alarm is at
least 5 (it is 3)"), for ``work.why_skipped``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui.core import daytime, member_light
from delvetui.procedure.model import Condition
from delvetui.text import counted

if TYPE_CHECKING:
    from delvetui.core.work import Work


def when_words(condition: Condition, work: Work) -> str:
    """A condition in the game master's words, with the values it reads now.

    Says why a rule that holds it is not made this turn: "only when the alarm is at least
    5 (it is 3)". Every key given is said, joined with "and".
    """
    state = work.state
    parts: list[str] = []
    for key, wanted in condition.inputs.items():
        parts.append(f"{key}={wanted}")
    for name, value in condition.counter_at_least.items():
        parts.append(
            f"{_counter_name(work, name)} is at least {value} (it is {state.counter(name)})"
        )
    for name, value in condition.counter_at_most.items():
        parts.append(
            f"{_counter_name(work, name)} is at most {value} (it is {state.counter(name)})"
        )
    turn_name = work.procedure.turn_name(state.turn_type)
    if condition.first_turns is not None:
        parts.append(f"during the first {counted(condition.first_turns, turn_name)}")
    if condition.after_turns is not None:
        parts.append(f"after the first {counted(condition.after_turns, turn_name)}")
    if condition.resting is not None:
        parts.append("the party rests" if condition.resting else "the party does not rest")
    if condition.day_ends is not None:
        parts.append(f"the {turn_name} {'ends' if condition.day_ends else 'is within'} a day")
    parts.extend(daytime.words(work.procedure, state, condition))
    for name, named in condition.counter_levels.items():
        counter = work.procedure.counters.get(name)
        now = counter.shown(state.counter(name)) if counter is not None else state.counter(name)
        parts.append(f"{_counter_name(work, name)} is {' or '.join(named)} (it is {now})")
    if condition.light_levels:
        levels = " or ".join(condition.light_levels)
        now = member_light.party_level(state, work.procedure)
        parts.append(f"the light is {levels} (it is {now})")
    for flag in condition.flags:
        parts.append(f"the {turn_name} is '{flag}'")
    for flag in condition.not_flags:
        parts.append(f"the {turn_name} is not '{flag}'")
    if condition.streak is not None:
        parts.append(f"on every {condition.streak}th {turn_name} of the same action in a row")
    if condition.hp_at_most is not None:
        parts.append(f"a member has at most {condition.hp_at_most} hit points")
    if condition.hp_at_least is not None:
        parts.append(f"a member has at least {condition.hp_at_least} hit points")
    if not parts:
        return "only when its condition holds, and it does not now"
    return "only when " + " and ".join(parts)


def _counter_name(work: Work, name: str) -> str:
    counter = work.procedure.counters.get(name)
    return f"the {counter.label.lower()}" if counter is not None else f"the counter {name}"
