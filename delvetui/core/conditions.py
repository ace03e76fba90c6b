"""Conditions with a duration or a kind, and what conditions do to the party's movement.

A condition is a word a member has (poisoned, shaken). The procedure may declare it
(``[conditions.ID]``): a kind that ends together ("transient"), a duration ("for 6
turns", "until the next rest"), a mode for the member's checks (``delvetui.core.modes``)
and a factor on the party's movement. Durations are counted in turns: one given in turn N
(or between turns, after turn N) for T turns lasts through the end of turn N + T.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.state import Member, State
from delvetui.procedure.model import Procedure
from delvetui.text import counted

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Work
else:
    ev = lazy.module("delvetui.core.events")


def give(
    work: Work, name: str, condition: str, reason: str, *, turns: int | None, until: str
) -> bool:
    """Give a member a condition, for a duration when one is given or declared.

    Returns False when nothing changed: the member has the condition already and no
    duration is given. A duration given to a condition the member has starts afresh.
    """
    declared = work.procedure.conditions.get(condition)
    if not turns and not until and declared is not None:
        turns, until = declared.turns, declared.until
    member = work.member(name)
    timed = bool(turns) or bool(until)
    if condition in member.conditions and not timed:
        return False
    if condition not in member.conditions:
        work.emit(ev.ConditionGained(name=member.name, condition=condition, reason=reason))
    if timed:
        work.emit(
            ev.ConditionTimed(
                name=member.name,
                condition=condition,
                turn=work.turn_number,
                turns=turns or 0,
                until=until if not turns else "",
            )
        )
    return True


def end_kind(work: Work, name: str, kind: str, reason: str) -> None:
    """End every condition of a declared kind ("transient") that a member has."""
    for condition in work.member(name).conditions:
        declared = work.procedure.conditions.get(condition)
        if declared is not None and declared.kind == kind:
            work.emit(ev.ConditionLost(name=name, condition=condition, reason=reason))


def wear_off(work: Work, *, every_timed: bool = False) -> None:
    """At the end of a turn: end the conditions whose turns are over, and after a rest
    those that lasted until it (given before this resting turn). With ``every_timed`` (an
    action that ``expires_turns``), every condition that lasts a number of turns ends."""
    turn = work.turn_number
    for member in work.state.party:
        for condition, last in member.timers:
            if last <= turn or every_timed:
                work.emit(
                    ev.ConditionLost(name=member.name, condition=condition, reason="wore off")
                )
        if work.state.resting:
            for condition, given in member.until_rest:
                if given < turn:
                    work.emit(
                        ev.ConditionLost(
                            name=member.name, condition=condition, reason="the party rested"
                        )
                    )


def left_text(member: Member, condition: str, state: State, procedure: Procedure) -> str:
    """What is left of a member's condition in words: "3 turns", "until rest" or ""."""
    left = member.time_left(condition, state.turn)
    if left is None:
        return ""
    if left == "rest":
        return "until rest"
    unit = procedure.turn_name(state.turn_type)
    return counted(int(left), unit)


def shown(member: Member, state: State, procedure: Procedure) -> list[str]:
    """Each of a member's conditions with what is left of it: "poisoned 3 turns"."""
    return [
        f"{condition} {left}".rstrip()
        for condition in member.conditions
        for left in (left_text(member, condition, state, procedure),)
    ]


def movement(procedure: Procedure, state: State) -> tuple[float, str]:
    """The factor members' conditions put on the party's distance, and why in words.

    The party moves together, at the pace of its slowest member: the smallest factor of
    any declared condition any member has (1 when none slows it).
    """
    factor, why = 1.0, ""
    for member in state.party:
        for condition in member.conditions:
            declared = procedure.conditions.get(condition)
            if declared is not None and declared.movement_factor < factor:
                factor = declared.movement_factor
                why = f"{member.name} is {declared.label or condition}"
    return factor, why


def status(state: State, procedure: Procedure) -> dict[str, object]:
    """``status --json``'s ``conditions``: each member's conditions with their kind and
    what is left. Only where conditions can last or have rules (the procedure declares
    some, or one has a duration), so every other expedition's JSON is as it was."""
    if not procedure.conditions and not any(m.timers or m.until_rest for m in state.party):
        return {}
    return {"conditions": {m.name: _as_json(m, state, procedure) for m in state.party}}


def _as_json(member: Member, state: State, procedure: Procedure) -> list[dict[str, object]]:
    shown: list[dict[str, object]] = []
    for condition in member.conditions:
        declared = procedure.conditions.get(condition)
        left = member.time_left(condition, state.turn)
        shown.append(
            {
                "condition": condition,
                "label": (declared.label if declared else "") or condition,
                "kind": declared.kind if declared and declared.kind else None,
                "turns_left": left if isinstance(left, int) else None,
                "until": left if isinstance(left, str) else None,
            }
        )
    return shown
