"""Turns: a turn begun and ended, another kind of turn, the hazard read, counters, intervals,
deferred effects, rests and the activities done within a turn.
"""

from __future__ import annotations

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import rule, unchanged
from delvetui.core.state import Hazard, Pending, State

# What these change shows elsewhere (the log, the table), not in the state.
rule.register(ev.DiceRolled)(unchanged)
rule.register(ev.Logged)(unchanged)
rule.register(ev.CheckMade)(unchanged)
rule.register(ev.CheckMadeUnder)(unchanged)


@rule.register
def _(event: ev.TurnStarted, state: State) -> State:
    streak = state.streak + 1 if state.action == event.action else 1
    since_rest = 0 if event.resting else state.turns_since_rest + 1
    return attrs.evolve(
        state,
        action=event.action,
        moving=event.action if event.persists else state.moving,
        resting=event.resting,
        streak=streak,
        turns_since_rest=since_rest,
        encounter=None,
        encounter_distance="",
        sign_found="",
        in_turn=True,
        acted=(),
        ran_out=(),
        surprised=(),  # a new turn's encounter surprises afresh
    )


@rule.register
def _(event: ev.ActivityDone, state: State) -> State:
    if not event.by:
        return state
    return attrs.evolve(state, acted=(*state.acted, event.by))


@rule.register
def _(event: ev.TurnEnded, state: State) -> State:
    return attrs.evolve(
        state,
        turn=event.number,
        minutes=state.minutes + event.minutes,
        clock=state.clock + event.minutes,
        in_turn=False,
    )


@rule.register
def _(event: ev.ResultRead, state: State) -> State:
    if event.key != "hazard" and not isinstance(event, ev.HazardRead):
        return state
    label = event.label if not event.ignored else f"{event.label} (ignored: {event.ignored})"
    hazard = Hazard(roll=event.total, result=label, table=event.table, row=event.row)
    return attrs.evolve(state, last_hazard=hazard)


@rule.register
def _(event: ev.IntervalChanged, state: State) -> State:
    kept = [found for found in state.intervals if found[0] != event.roll]
    kept.append((event.roll, event.choice, event.since))
    return attrs.evolve(state, intervals=tuple(sorted(kept)))


@rule.register
def _(event: ev.RestBroken, state: State) -> State:
    if event.since_rest is None:
        return attrs.evolve(state, streak=0)  # version 1: only the rest in a row restarts
    # An interrupted rest is no rest: the party is not resting, and its count runs on.
    return attrs.evolve(state, streak=0, resting=False, turns_since_rest=event.since_rest)


@rule.register
def _(event: ev.CounterChanged, state: State) -> State:
    return state.with_counter(event.counter, event.value)


@rule.register
def _(event: ev.EffectDeferred, state: State) -> State:
    pending = Pending(ref=event.ref, label=event.label, member=event.member)
    return attrs.evolve(state, pending=(*state.pending, pending))


@rule.register
def _(event: ev.DeferredResolved, state: State) -> State:
    index = next((i for i, p in enumerate(state.pending) if p.ref == event.ref), None)
    if index is None:
        raise ValueError(f"nothing pending is called {event.ref!r}")
    return attrs.evolve(state, pending=state.pending[:index] + state.pending[index + 1 :])


@rule.register
def _(event: ev.RestSkipped, state: State) -> State:
    return attrs.evolve(state, turns_since_rest=0)


@rule.register
def _(event: ev.TurnTypeChanged, state: State) -> State:
    return attrs.evolve(state, turn_type=event.turn_type)
