"""The clock: the game master's timers, the real-time clock paused and resumed, the clock set."""

from __future__ import annotations

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import rule, unchanged
from delvetui.core.state import State, Timer

# What these change shows elsewhere (the log, the table), not in the state.
rule.register(ev.TimerWarned)(unchanged)


@rule.register
def _(event: ev.RealTimePaused, state: State) -> State:
    return attrs.evolve(state, realtime_paused=event.paused)


@rule.register
def _(event: ev.ClockSet, state: State) -> State:
    return attrs.evolve(state, clock=event.clock)


def _timer(state: State, name: str) -> Timer:
    found = next((timer for timer in state.timers if timer.name == name), None)
    if found is None:
        raise ValueError(f"no timer named {name!r}")
    return found


def _without_timer(state: State, name: str) -> State:
    _timer(state, name)
    return attrs.evolve(state, timers=tuple(t for t in state.timers if t.name != name))


@rule.register
def _(event: ev.TimerStarted, state: State) -> State:
    if state.timer(event.name) is not None:
        raise ValueError(f"a timer named {event.name!r} is running already")
    timer = Timer(name=event.name, unit=event.unit, left=event.left, label=event.label)
    ran_out = tuple(name for name in state.ran_out if name.casefold() != event.name.casefold())
    return attrs.evolve(state, timers=(*state.timers, timer), ran_out=ran_out)


@rule.register
def _(event: ev.TimerChanged, state: State) -> State:
    changed = attrs.evolve(_timer(state, event.name), unit=event.unit, left=event.left)
    timers = tuple(changed if t.name == event.name else t for t in state.timers)
    return attrs.evolve(state, timers=timers)


@rule.register
def _(event: ev.TimerCancelled, state: State) -> State:
    return _without_timer(state, event.name)


@rule.register
def _(event: ev.TimerEnded, state: State) -> State:
    state = _without_timer(state, event.name)
    return attrs.evolve(state, ran_out=(*state.ran_out, event.name))


@rule.register
def _(event: ev.TimersCounted, state: State) -> State:
    counted = set(event.names)
    for name in counted:
        _timer(state, name)
    timers = tuple(
        attrs.evolve(t, left=max(0, t.left - (1 if t.in_turns else event.minutes)))
        if t.name in counted
        else t
        for t in state.timers
    )
    return attrs.evolve(state, timers=timers)


@rule.register
def _(event: ev.TimersRealTimePassed, state: State) -> State:
    counted = set(event.names)
    for name in counted:
        if not _timer(state, name).real_time:
            raise ValueError(f"the timer {name!r} does not run in real time")
    timers = tuple(
        attrs.evolve(t, left=max(0, t.left - event.seconds)) if t.name in counted else t
        for t in state.timers
    )
    return attrs.evolve(state, timers=timers)
