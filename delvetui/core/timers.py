"""Timers: what else runs out besides the lights (a spell, a burning fuse, a potion).

The game master starts a named timer for a number of turns, minutes or hours
(``timer add bless 6t``); it counts down at the end of every turn (a turn timer by one
turn, the others by the turn's minutes), warns a turn before it runs out and ends by
itself. A timer in real minutes (``10rm``) is counted by the table's real-time clock
instead, as a real-time light is (:mod:`delvetui.core.realtime`), and warns in its last
minute. A procedure may declare the timers its game uses (``[timers.light]``), so the
table offers them by name with their usual length. Pure: commands in, events out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.errors import CommandError
from delvetui.text import countdown, counted, quoted

if TYPE_CHECKING:
    from delvetui.core import commands as cmd
    from delvetui.core import events as ev
    from delvetui.core.state import State, Timer
    from delvetui.core.work import Work
    from delvetui.procedure.model import Procedure
else:
    # The table's first paint asks which timers end soon; the events load when one is made.
    ev = lazy.module("delvetui.core.events")

#: How a timer counts, as its events and ``status --json`` name it.
UNITS = ("turns", "minutes", "hours", "real")
#: Real seconds before a real-time timer runs out when the game master is warned.
REAL_WARNING = 60
#: The most timers that may run at once: a table, not a list of every effect in the game.
MAX_TIMERS = 50


def length(unit: str, amount: int) -> int:
    """What a timer of ``amount`` units keeps as ``left``: turns, minutes, or real seconds
    (``amount`` real minutes)."""
    return amount * 60 if unit in ("hours", "real") else amount


def left_text(timer: Timer, turn_name: str = "turn") -> str:
    """What is left of a timer in words: '3 turns', '20 minutes', '1 hour 30 minutes'."""
    if timer.in_turns:
        return counted(timer.left, turn_name)
    if timer.real_time:
        if timer.left % 60 == 0:
            return counted(timer.left // 60, "real minute")
        return f"{countdown(timer.left)} real time"
    if timer.unit == "hours" and timer.left >= 60:
        hours, minutes = divmod(timer.left, 60)
        whole = counted(hours, "hour")
        return f"{whole} {counted(minutes, 'minute')}" if minutes else whole
    return counted(timer.left, "minute")


def shown_name(timer: Timer) -> str:
    """The timer's name with its label when it has one: 'light (Light spell)'."""
    return f"{timer.name} ({timer.label})" if timer.label else timer.name


def ends_next_turn(timer: Timer, state: State, procedure: Procedure) -> bool:
    """True when the timer runs out in the next turn of the kind the party is in (one that
    runs in real time: within a minute)."""
    if timer.real_time:
        return timer.left <= REAL_WARNING
    return timer.left <= (1 if timer.in_turns else procedure.turn_minutes(state.turn_type))


def soon_text(timer: Timer) -> str:
    """When a timer about to run out does: 'next turn', or 'within a minute'."""
    return "within a minute" if timer.real_time else "next turn"


def ending(state: State, procedure: Procedure) -> tuple[Timer, ...]:
    """The running timers that run out in the next turn (the attention strip warns)."""
    return tuple(t for t in state.timers if ends_next_turn(t, state, procedure))


def decide(work: Work, command: cmd.SetTimer) -> None:
    """Start, change or cancel a timer; CommandError with a sentence when it cannot be."""
    state, procedure = work.state, work.procedure
    found = state.timer(command.name)
    if command.verb == "add":
        if found is not None:
            raise CommandError(
                f"A timer called {found.name} is running already "
                f"({left_text(found)} left); 'timer set {found.name} 3t' changes it."
            )
        if len(state.timers) >= MAX_TIMERS:
            raise CommandError(
                f"{MAX_TIMERS} timers are running, the most the table keeps; cancel one first."
            )
        unit, amount, label = _length(procedure, command)
        work.emit(
            ev.TimerStarted(name=command.name, unit=unit, left=length(unit, amount), label=label)
        )
        return
    if found is None:
        running = ", ".join(t.name for t in state.timers)
        known = f"running: {running}" if running else "none is running"
        raise CommandError(f"There is no timer called '{quoted(command.name)}' ({known}).")
    if command.verb == "cancel":
        work.emit(ev.TimerCancelled(name=found.name))
        return
    unit, amount, _ = _length(procedure, command)
    work.emit(ev.TimerChanged(name=found.name, unit=unit, left=length(unit, amount)))


def _length(procedure: Procedure, command: cmd.SetTimer) -> tuple[str, int, str]:
    """The command's unit and amount, or the declared timer's usual ones; and its label."""
    declared = procedure.timers.get(command.name.casefold())
    label = declared.label if declared is not None else ""
    if command.amount is not None:
        return command.unit, command.amount, label
    if declared is None:
        usual = ", ".join(procedure.timers)
        hint = f" (this procedure declares {usual})" if usual else ""
        raise CommandError(
            f"Say how long the timer {command.name} runs: 6t (turns), 30m (minutes) or "
            f"2h (hours){hint}."
        )
    unit, amount = declared.length
    return unit, amount, label


def count_down(work: Work, *, expire_turns: bool = False) -> None:
    """At the end of a turn: every running timer loses a turn or the turn's minutes; one
    that runs out in the next turn warns, one that reaches nothing ends. With
    ``expire_turns`` (an action that ``expires_turns``), a timer in turns ends at once."""
    # A timer that runs in real time is counted by the table's clock, not by turns.
    before = tuple(timer for timer in work.state.timers if not timer.real_time)
    if not before:
        return
    minutes = work.turn_minutes
    work.emit(ev.TimersCounted(names=tuple(t.name for t in before), minutes=minutes))
    for old in before:
        timer = work.state.timer(old.name)
        if timer is None:
            continue
        if timer.left == 0 or (expire_turns and timer.in_turns):
            work.emit(ev.TimerEnded(name=timer.name))
        elif ends_next_turn(timer, work.state, work.procedure) and not ends_next_turn(
            old, work.state, work.procedure
        ):
            work.emit(ev.TimerWarned(name=timer.name, left=timer.left))


def status(state: State) -> dict[str, object]:
    """``status --json``'s ``timers``, only where timers run (every other expedition's JSON
    stays as it was): each with its unit and what is left (turns, or minutes)."""
    if not state.timers:
        return {}
    return {
        "timers": [
            {"name": t.name, "label": t.label, "unit": t.unit, "left": t.left} for t in state.timers
        ]
    }
