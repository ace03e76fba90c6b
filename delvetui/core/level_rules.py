"""Levels with teeth: the flat modifiers on a member's checks, and the party's slower pace.

Beyond advantage and disadvantage (``core.modes``), a level can add a whole number to a
check and slow the party. A check's modifier has up to four sources, added together: the
light level the member stands in (``check_modifier``, and ``check_modifiers`` for the
check's kind), the member's fatigue step (``party.fatigue_modifiers``), each declared
condition the member has (its ``check_modifier`` and ``check_modifiers``), and each
counter at a level (``level_modifiers``: hunger, the weather). The party's distances are
multiplied by its slowest member's factor (conditions, as ``core.conditions`` says, and the
fatigue step's ``party.fatigue_movement``), then by each counter level's
``level_movement``. Pure: the state and the procedure in, numbers and words out.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from delvetui.core import conditions
from delvetui.core.member_light import member_level, party_level
from delvetui.core.state import Member, State
from delvetui.procedure.model import Procedure


def _given(every: int | None, by_kind: Mapping[str, int], kind: str) -> int:
    return (every or 0) + (by_kind.get(kind, 0) if kind else 0)


def sources(
    procedure: Procedure, state: State, member: Member | None, kind: str = ""
) -> Iterator[tuple[int, str]]:
    """Each modifier given to a check of this kind by this member now, with whence it comes
    ("exhausted", "darkness"); none that adds 0."""
    if member is None:
        level = party_level(state, procedure)
    else:
        level = member_level(state, procedure, member.name)
    rules = procedure.light_level(level)
    found = _given(rules.check_modifier, rules.check_modifiers, kind)
    if found:
        yield found, (rules.label or level).lower()
    for name, counter in procedure.counters.items():
        at = counter.level_of(state.counter(name))
        if at is not None and counter.level_modifiers.get(at):
            yield counter.level_modifiers[at], f"{counter.label.lower()} {at}"
    if member is None:
        return
    step = procedure.party.fatigue_label(member.fatigue)
    if procedure.party.fatigue_modifiers.get(step):
        yield procedure.party.fatigue_modifiers[step], step
    for name in member.conditions:
        declared = procedure.conditions.get(name)
        if declared is not None:
            found = _given(declared.check_modifier, declared.check_modifiers, kind)
            if found:
                yield found, declared.label.lower() or name


def check_modifier(
    procedure: Procedure, state: State, member: Member | None, kind: str = ""
) -> tuple[int, str]:
    """What is added to a check of this kind by this member now, and why in words
    ("exhausted -2, darkness -10"; '' when nothing is)."""
    found = list(sources(procedure, state, member, kind))
    total = sum(value for value, _ in found)
    return total, ", ".join(f"{why} {value:+d}" for value, why in found)


def kind_modifiers(procedure: Procedure, member: Member) -> dict[str, int]:
    """What a member's conditions add to checks of a kind ("attack": -1), besides every
    check's: reminders for the rolls made at the table, summed over the conditions."""
    found: dict[str, int] = {}
    for name in member.conditions:
        declared = procedure.conditions.get(name)
        for kind, value in (declared.check_modifiers if declared is not None else {}).items():
            found[kind] = found.get(kind, 0) + value
    return {kind: value for kind, value in found.items() if value}


def movement(procedure: Procedure, state: State) -> tuple[float, str]:
    """The factor the party's levels put on its distance, and why in words.

    The slowest member sets the pace, by their conditions or their fatigue step; a counter
    at a level with a factor (deep snow) slows the whole party on top of it.
    """
    factor, why = conditions.movement(procedure, state)
    slow = procedure.party.fatigue_movement
    for member in state.party:
        step = procedure.party.fatigue_label(member.fatigue)
        if step in slow and slow[step] < factor:
            factor, why = slow[step], f"{member.name} is {step}"
    reasons = [why] if why else []
    for name, counter in procedure.counters.items():
        at = counter.level_of(state.counter(name))
        if at is not None and at in counter.level_movement:
            factor *= counter.level_movement[at]
            reasons.append(f"{counter.label.lower()} is {at}")
    return factor, "; ".join(reasons)


def modifiers_text(every: int | None, by_kind: Mapping[str, int]) -> str:
    """What a light level or a condition adds to checks, in words ('' when nothing):
    ``all checks -2 · movement, coordination -10``."""
    parts = [f"all checks {every:+d}"] if every else []
    for value in sorted(set(by_kind.values())):
        if value:
            kinds = [kind for kind, given in by_kind.items() if given == value]
            parts.append(f"{', '.join(kinds)} {value:+d}")
    return " · ".join(parts)
