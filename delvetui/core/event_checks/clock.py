"""Checks of the clock's events: the game master's timers (started, changed, counted down,
warned, ended), the real-time clock paused and resumed, the clock set by hand."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.event_bounds import MAX_NUMBER
from delvetui.core.event_checks.base import At, check, number
from delvetui.core.state import State, Timer
from delvetui.core.timers import UNITS
from delvetui.procedure.model import Procedure
from delvetui.text import MAX_NAME, MAX_PURPOSE, MAX_REAL_SECONDS, MAX_TYPED, quote

check.register(ev.ClockSet)(lambda e, at: number("clock", e.clock, 0, MAX_NUMBER))


@check.register(ev.RealTimePaused)
def _real_time_paused(e: ev.RealTimePaused, at: At) -> str | None:
    if e.paused == at.state.realtime_paused:
        return f"the real-time clock is {'already' if e.paused else 'not'} paused"
    if len(e.reason) > MAX_PURPOSE:
        return f"its reason is longer than {MAX_PURPOSE} characters"
    return None


@check.register(ev.TimerStarted)
def _timer_started(e: ev.TimerStarted, at: At) -> str | None:
    if at.state.timer(e.name) is not None:
        return f"a timer {quote(e.name)} is running already at this point"
    if len(e.label) > MAX_PURPOSE:
        return f"its label is longer than {MAX_PURPOSE} characters"
    return _name_problem(e.name) or _length_problem(e.unit, e.left)


@check.register(ev.TimerChanged)
def _timer_changed(e: ev.TimerChanged, at: At) -> str | None:
    return _running(at.state, e.name) or _length_problem(e.unit, e.left)


@check.register(ev.TimersCounted)
@check.register(ev.TimersRealTimePassed)
def _timers_counted(e: ev.TimersCounted | ev.TimersRealTimePassed, at: At) -> str | None:
    if not e.names or len(set(e.names)) != len(e.names):
        return "it names no timer, or one timer twice"
    real = isinstance(e, ev.TimersRealTimePassed)
    if real and at.state.realtime_paused:
        return "the real-time clock is paused, so no real time passes"
    missing = (_running(at.state, name, real=real) for name in e.names)
    wrong = next((found for found in missing if found), None)
    if isinstance(e, ev.TimersRealTimePassed):
        amount, low, high = e.seconds, 1, MAX_REAL_SECONDS
    else:
        amount, low, high = e.minutes, 0, MAX_TYPED * 60
    if wrong is None and not low <= amount <= high:
        wrong = f"the time passed is {amount}; it must be from {low} to {high}"
    return wrong


@check.register(ev.TimerEnded)
def _timer_ended(e: ev.TimerEnded, at: At) -> str | None:
    found = next((t for t in at.state.timers if t.name == e.name), None)
    if found is not None and found.left and not _ended_by_the_turn(at.state, found, at.procedure):
        return f"the timer {quote(e.name)} has {found.left} left; it has not run out"
    return _running(at.state, e.name)


# A timer cancelled or warned of must be running.
check.register(ev.TimerCancelled)(lambda e, at: _running(at.state, e.name))
check.register(ev.TimerWarned)(lambda e, at: _running(at.state, e.name))


def _ended_by_the_turn(state: State, timer: Timer, procedure: Procedure) -> bool:
    """True when the turn under way ends this timer with time left: its action expires
    whatever lasts turns (a timer in turns), or its time passes in real time too (a timer
    in real minutes, for which the turn's minutes may be more than it has)."""
    if not state.in_turn or state.action is None:
        return False
    action = procedure.actions.get(state.action)
    if action is None:
        return False
    return (action.expires_turns and timer.in_turns) or (action.real_time and timer.real_time)


def _running(state: State, name: str, *, real: bool | None = None) -> str | None:
    """Why the named timer is not running here (of the kind asked: in real time or not)."""
    found = next((timer for timer in state.timers if timer.name == name), None)
    if found is None:
        return f"there is no timer {quote(name)} running at this point"
    if real is not None and found.real_time != real:
        runs = "runs in real time" if found.real_time else "runs with the turns"
        return f"the timer {quote(name)} {runs}"
    return None


def _name_problem(name: str) -> str | None:
    if not name.strip() or name != name.strip() or "=" in name:
        return f"the timer name {quote(name)} is empty, has spaces around it or holds '='"
    if len(name) > MAX_NAME:
        return f"the timer name {quote(name)} is longer than {MAX_NAME} characters"
    return None


def _length_problem(unit: str, left: int) -> str | None:
    if unit not in UNITS:
        return f"the unit {quote(unit)} is not one of turns, minutes or hours"
    most = MAX_REAL_SECONDS if unit == "real" else MAX_TYPED * (60 if unit == "hours" else 1)
    if not 1 <= left <= most:
        return f"left is {left}; it must be from 1 to {most}"
    return None
