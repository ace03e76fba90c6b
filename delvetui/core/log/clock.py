"""The words of the clock's events: timers started, changed, cancelled, warned of and run
out, the real-time clock paused and resumed (with what is left), the clock set."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core import timers
from delvetui.core.log.words import Said, clock_text, silent, words
from delvetui.core.state import State, Timer
from delvetui.procedure.model import Procedure
from delvetui.text import countdown

# Time passing for timers: the table shows what is left, and a timer that runs out has a
# line of its own.
words.register(ev.TimersCounted)(silent)
words.register(ev.TimersRealTimePassed)(silent)


@words.register(ev.TimerStarted)
@words.register(ev.TimerChanged)
@words.register(ev.TimerCancelled)
def _(
    event: ev.TimerStarted | ev.TimerChanged | ev.TimerCancelled, procedure: Procedure, state: State
) -> Said:
    return "time", _timer_line(event, procedure, state)


@words.register
def _(event: ev.TimerWarned, procedure: Procedure, state: State) -> Said:
    found = state.timer(event.name)
    left = _timer_left(event.name, event.left, procedure, state)
    soon = "next turn" if found is None else timers.soon_text(found)
    return "time", f"Timer {event.name} runs out {soon} ({left} left)."


@words.register
def _(event: ev.TimerEnded, procedure: Procedure, state: State) -> Said:
    return "time", f"Timer {event.name} has run out."


@words.register
def _(event: ev.RealTimePaused, procedure: Procedure, state: State) -> Said:
    why = f" ({event.reason})" if event.reason else ""
    left = "; ".join(
        [
            *(
                f"{light.id} {countdown(light.real_seconds or 0)} left"
                for light in state.lights
                if light.lit and light.real_seconds is not None
            ),
            *(f"timer {t.name} {countdown(t.left)} left" for t in state.real_timers),
        ]
    )
    left = f": {left}" if left else ""
    if event.paused:
        return "time", f"The real-time clock is paused{why}{left}."
    return "time", f"The real-time clock runs again{why}{left}."


@words.register
def _(event: ev.ClockSet, procedure: Procedure, state: State) -> Said:
    return "time", f"The clock is set to {clock_text(event.clock)} ({event.reason})."


def _timer_left(name: str, left: int, procedure: Procedure, state: State) -> str:
    """What is left of the named timer (as it was before the event), in words."""
    found = state.timer(name)
    unit = found.unit if found is not None else "turns"
    shown = Timer(name=name, unit=unit, left=left)
    return timers.left_text(shown, procedure.turn_name(state.turn_type))


def _timer_line(
    event: ev.TimerStarted | ev.TimerChanged | ev.TimerCancelled, procedure: Procedure, state: State
) -> str:
    if isinstance(event, ev.TimerCancelled):
        return f"Timer {event.name} cancelled."
    turn_name = procedure.turn_name(state.turn_type)
    left = timers.left_text(Timer(name=event.name, unit=event.unit, left=event.left), turn_name)
    if isinstance(event, ev.TimerChanged):
        return f"Timer {event.name} set to {left}."
    label = f" ({event.label})" if event.label else ""
    return f"Timer {event.name}{label} started: {left}."
