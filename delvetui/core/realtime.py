"""Real-time light: lights that burn by the real clock at the table, not by turns.

Many tables run a torch as one real hour. A light set to burn in real time
(``light realtime torch1 60m``, or a kind with ``real_minutes`` in its procedure) keeps
its seconds left in the state; the table counts real time while it is open and its
real-time clock is not paused, and records it as ``RealTimePassed`` only when a light
crosses a step (a minute, or its kind's ``real_step``) or runs out, never once a second.
A replay folds the same events, so it arrives at the same seconds left.

Pure: the commands here become events; the clock itself (what time it is now) belongs to
the application layer (:mod:`delvetui.application.realtime`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core import timers
from delvetui.core.state import Light, State, Timer
from delvetui.errors import CommandError
from delvetui.procedure.model import LightKind, Procedure
from delvetui.text import countdown, counted, quoted

if TYPE_CHECKING:
    from delvetui.core.work import Work

#: Seconds in the step a light records its real time by when its kind names none.
STEP = 60

#: Why a light was set to burn in real time, in its event.
BY_GAME_MASTER = "set by the game master"
BY_PROCEDURE = "burns in real time"


def step_seconds(light: Light, procedure: Procedure) -> int:
    """The step this light's real time is recorded by, in seconds."""
    kind = procedure.lights.get(light.kind)
    return STEP if kind is None or kind.real_step is None else kind.real_step * 60


#: What the clock keys a timer's count by, before its name: no light's id holds it.
TIMER_KEY = "⧗"


def running_timers(state: State) -> tuple[Timer, ...]:
    """The timers running in real time now, with time left (none while paused)."""
    if state.realtime_paused:
        return ()
    return tuple(timer for timer in state.real_timers if timer.left > 0)


def burning(state: State) -> dict[str, int]:
    """What runs down in real time now, by key, with its seconds left: each lit real-time
    light by its id, each real-time timer by ``TIMER_KEY`` and its name."""
    found = {light.id: light.real_seconds or 0 for light in state.burning_in_real_time}
    found.update({TIMER_KEY + timer.name: timer.left for timer in running_timers(state)})
    return found


def step_of(state: State, procedure: Procedure) -> int:
    """The shortest step of what runs in real time (a timer records each minute)."""
    steps = [step_seconds(light, procedure) for light in state.burning_in_real_time]
    if running_timers(state):
        steps.append(STEP)
    return min(steps, default=STEP)


def due_in(state: State, procedure: Procedure) -> int | None:
    """Seconds of running real time until the next record (a step, a light or a timer
    running out, a timer's last minute).

    None while nothing runs in real time (paused, or no lit real-time light or timer).
    """
    left = burning(state)
    if not left:
        return None
    warnings = [
        timer.left - timers.REAL_WARNING
        for timer in running_timers(state)
        if timer.left > timers.REAL_WARNING
    ]
    return min(step_of(state, procedure), *left.values(), *warnings)


def to_record(state: State, procedure: Procedure, passed: int) -> int:
    """The seconds of ``passed`` running real time to record now: whole steps only, unless
    a light or a timer runs out (or a timer enters its last minute) within them, then all
    of it, so it is told on time."""
    left = burning(state)
    warnings = [
        timer.left - timers.REAL_WARNING
        for timer in running_timers(state)
        if timer.left > timers.REAL_WARNING
    ]
    if passed >= min([*left.values(), *warnings, passed + 1]):
        return passed
    return passed - passed % step_of(state, procedure)


def passed_events(
    state: State, procedure: Procedure, seconds: int, ids: Iterable[str], names: Iterable[str] = ()
) -> list[ev.Event]:
    """Real seconds passing for these burning lights and running timers; lights that reach
    0 go out, timers that reach 0 end, and a timer entering its last minute warns."""
    counted = tuple(ids)
    events: list[ev.Event] = [ev.RealTimePassed(ids=counted, seconds=seconds)] if counted else []
    events.extend(_timers_passed(state, seconds, tuple(names)))
    for light_id in counted:
        light = state.light(light_id)
        if light is None or (light.real_seconds or 0) > seconds:
            continue
        events.append(out_of_time(light.id, light.kind, procedure))
    return events


def out_of_time(light_id: str, kind_id: str, procedure: Procedure) -> ev.LightPutOut:
    """A light whose time ran out goes out: used up, or out of fuel when it can be refuelled."""
    kind = procedure.lights.get(kind_id)
    refuels = kind is not None and kind.refuels
    reason = "out of fuel" if refuels else "burnt out"
    return ev.LightPutOut(id=light_id, reason=reason, spent=not refuels)


def _timers_passed(state: State, seconds: int, names: tuple[str, ...]) -> list[ev.Event]:
    if not names:
        return []
    events: list[ev.Event] = [ev.TimersRealTimePassed(names=names, seconds=seconds)]
    for name in names:
        timer = state.timer(name)
        if timer is None:
            continue
        left = max(0, timer.left - seconds)
        if not left:
            events.append(ev.TimerEnded(name=timer.name))
        elif left <= timers.REAL_WARNING < timer.left:
            events.append(ev.TimerWarned(name=timer.name, left=left))
    return events


def refuelled(light: Light, kind: LightKind, minutes: int) -> list[ev.Event]:
    """A light that burns in real time gets real time again when refuelled.

    Its kind's ``real_minutes`` when it has them, else the refuel's own time as real time.
    """
    if light.real_seconds is None:
        return []
    seconds = 60 * (kind.real_minutes or minutes)
    reason = kind.refuel_label or "refuelled"
    return [
        ev.LightRealTimeSet(id=light.id, seconds=min(seconds, cmd.MAX_REAL_SECONDS), reason=reason)
    ]


def decide(state: State, procedure: Procedure, command: cmd.Command) -> list[ev.Event]:
    """The events of a real-time command; CommandError with a sentence when it cannot be."""
    if isinstance(command, cmd.SetRealTime):
        return _set(state, command)
    if not isinstance(command, cmd.RealTime):
        raise CommandError(f"{type(command).__name__} is not a real-time command.")
    if command.verb == "resume":
        if not state.realtime_paused:
            raise CommandError("The real-time clock is not paused; 'realtime pause' pauses it.")
        return [ev.RealTimePaused(paused=False, reason=command.reason)]
    if state.realtime_paused:
        what = "already paused" if command.verb == "pause" else "paused"
        raise CommandError(
            f"The real-time clock is {what}; 'realtime resume' (or the pause key) starts it."
        )
    events: list[ev.Event] = []
    if command.seconds or command.verb == "pass":
        events = _passed(state, procedure, command)
    if command.verb == "pause":
        events.append(ev.RealTimePaused(paused=True, reason=command.reason))
    return events


def _passed(state: State, procedure: Procedure, command: cmd.RealTime) -> list[ev.Event]:
    burning = {light.id.casefold(): light.id for light in state.burning_in_real_time}
    running = {timer.name.casefold(): timer.name for timer in running_timers(state)}
    if not burning and not running:
        raise CommandError(
            "No light burns in real time now, nor does a timer run in real time, so no real "
            "time can pass; 'light realtime ID 60m' sets a light burning, 'timer add NAME "
            "10rm' a timer running."
        )
    ids: list[str] = []
    names: list[str] = []
    for wanted in command.ids or (*burning.values(), *running.values()):
        light, timer = burning.get(wanted.casefold()), running.get(wanted.casefold())
        if light is None and timer is None:
            known = ", ".join((*burning.values(), *running.values()))
            what = "a light burning or a timer running" if running else "a light burning"
            raise CommandError(
                f"'{quoted(wanted)}' is not {what} in real time (those are: {known})."
            )
        if light is not None and light not in ids:
            ids.append(light)
        elif light is None and timer is not None and timer not in names:
            names.append(timer)
    return passed_events(state, procedure, command.seconds, ids, names)


def _set(state: State, command: cmd.SetRealTime) -> list[ev.Event]:
    light = state.light(command.target)
    if light is None:
        wanted = command.target.casefold()
        kinds = [x for x in state.lights if x.kind.casefold() == wanted and not x.spent]
        lit = [x for x in kinds if x.lit]
        light = next(iter(lit or kinds), None)
    if light is None:
        ids = ", ".join(x.id for x in state.lights) or "no lights yet"
        raise CommandError(f"There is no light '{quoted(command.target)}' (lights: {ids}).")
    if light.spent:
        raise CommandError(f"{light.id} is used up; it cannot burn again.")
    if command.seconds is None:
        if light.real_seconds is None:
            raise CommandError(f"{light.id} does not burn in real time; it burns by turns.")
        return [ev.LightRealTimeSet(id=light.id, seconds=None, reason=BY_GAME_MASTER)]
    return [ev.LightRealTimeSet(id=light.id, seconds=command.seconds, reason=BY_GAME_MASTER)]


def left_text(light: Light) -> str:
    """The countdown of a real-time light ('42:17'), '' for one that burns by turns."""
    return "" if light.real_seconds is None else countdown(light.real_seconds)


def world_time_passed(work: Work, minutes: int) -> None:
    """Minutes of the game's time that the table skipped over in a moment (an action with
    ``real_time``): every lit light and every timer that runs in real time loses them too,
    paused or not, and one left with none goes out or ends."""
    seconds = minutes * 60
    reason = f"{counted(minutes, 'minute')} passed"
    for light in work.state.lit_lights:
        if light.real_seconds is None:
            continue
        left = max(0, light.real_seconds - seconds)
        work.emit(ev.LightRealTimeSet(id=light.id, seconds=left, reason=reason))
        if not left:
            work.emit(out_of_time(light.id, light.kind, work.procedure))
    for timer in work.state.real_timers:
        if timer.left > seconds:
            work.emit(ev.TimerChanged(name=timer.name, unit=timer.unit, left=timer.left - seconds))
        else:
            work.emit(ev.TimerEnded(name=timer.name))
