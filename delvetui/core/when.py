"""A procedure's `when` conditions at play: whether one holds now, and in words.

``holds`` is the test the effects, roll rules and member rules ask (``Work.holds``);
``member_passes`` the member tests (hit points, abilities, tracks, resources, conditions,
carrying a light) of the member an effect is about; ``words`` says why a rule that holds a
condition is not made this turn ("only when the alarm is at least 5 (it is 3)").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from delvetui.core import daytime, member_light
from delvetui.core.state import State
from delvetui.procedure.model import Condition
from delvetui.text import counted

if TYPE_CHECKING:
    from delvetui.core.work import Work


def member_passes(
    state: State, condition: Condition, name: str | None, of: Callable[[int], int] | None = None
) -> bool:
    """True when the member an effect is about passes every member test of the condition.

    No member (a roll rule's ``only``, an effect for the party) passes none.
    """
    member = state.member(name) if name else None
    if member is None:
        return False
    if condition.hp_at_most is not None and member.hp > condition.hp_at_most:
        return False
    if condition.hp_at_least is not None and member.hp < condition.hp_at_least:
        return False
    # A member with no score in an ability passes no test of it, above or below.
    scores = dict(member.abilities)
    mods = {key.upper(): member.modifier(key, of) for key in [*scores, "best"]}
    tests: tuple[tuple[dict[str, int], Callable[[str], int | None], int], ...] = (
        (condition.member_track_at_least, member.track, 1),
        (condition.member_track_at_most, member.track, -1),
        (condition.member_ability_at_least, lambda key: scores.get(key.upper()), 1),
        (condition.member_ability_at_most, lambda key: scores.get(key.upper()), -1),
        (condition.member_modifier_at_least, lambda key: mods.get(key.upper()), 1),
        (condition.member_modifier_at_most, lambda key: mods.get(key.upper()), -1),
        (condition.member_resource_at_least, member.resource, 1),
        (condition.member_resource_at_most, member.resource, -1),
    )
    for bounds, value_of, sign in tests:
        for key, bound in bounds.items():
            value = value_of(key)
            if value is None or (value - bound) * sign < 0:
                return False
    if any(c not in member.conditions for c in condition.member_conditions):
        return False
    if any(c in member.conditions for c in condition.member_not_conditions):
        return False
    carries = condition.member_carries_light
    return carries is None or state.carries_light(member.name) == carries


def holds(work: Work, condition: Condition, member: str | None = None) -> bool:
    """True when every key of the condition holds now (for ``member`` where it asks)."""
    state = work.state
    of = work.procedure.party.modifier_of
    if condition.about_member and not member_passes(state, condition, member, of):
        return False
    if not member_light.light_holds(state, work.procedure, condition, member):
        return False
    for name, value in condition.resource_at_least.items():
        if state.resource(name) < value:
            return False
    for name, value in condition.resource_at_most.items():
        if state.resource(name) > value:
            return False
    for key, wanted in condition.inputs.items():
        given = work.inputs.get(key)
        if given is None:
            given = work.input_default(key)
        if given is None or given.casefold() != wanted.casefold():
            return False
    for name, value in condition.counter_at_least.items():
        if state.counter(name) < value:
            return False
    for name, value in condition.counter_at_most.items():
        if state.counter(name) > value:
            return False
    for name, levels in condition.counter_levels.items():
        rules = work.procedure.counters.get(name)
        level = rules.level_of(state.counter(name)) if rules is not None else None
        if level is None or level.casefold() not in {w.casefold() for w in levels}:
            return False
    if condition.first_turns is not None and work.turn_number > condition.first_turns:
        return False
    if condition.after_turns is not None and work.turn_number <= condition.after_turns:
        return False
    if condition.resting is not None and state.resting != condition.resting:
        return False
    if condition.day_ends is not None and condition.day_ends != state.day_ends_after(
        work.procedure.turn_minutes(state.turn_type)
    ):
        return False
    if condition.by is not None and (work.inputs.get("by") is not None) != condition.by:
        return False
    if not daytime.holds(work.procedure, state, condition):
        return False
    if any(flag not in work.flags for flag in condition.flags):
        return False
    if any(flag in work.flags for flag in condition.not_flags):
        return False
    return not (
        condition.streak is not None and (state.streak == 0 or state.streak % condition.streak != 0)
    )


def words(condition: Condition, work: Work) -> str:
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
