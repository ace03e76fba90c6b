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

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.state import Light, State
from delvetui.errors import CommandError
from delvetui.procedure.model import LightKind, Procedure
from delvetui.text import countdown, quoted

#: Seconds in the step a light records its real time by when its kind names none.
STEP = 60

#: Why a light was set to burn in real time, in its event.
BY_GAME_MASTER = "set by the game master"
BY_PROCEDURE = "burns in real time"


def step_seconds(light: Light, procedure: Procedure) -> int:
    """The step this light's real time is recorded by, in seconds."""
    kind = procedure.lights.get(light.kind)
    return STEP if kind is None or kind.real_step is None else kind.real_step * 60


def due_in(state: State, procedure: Procedure) -> int | None:
    """Seconds of running real time until the next record (a step, or a light running out).

    None while nothing burns in real time (paused, or no lit real-time light).
    """
    burning = state.burning_in_real_time
    if not burning:
        return None
    step = min(step_seconds(light, procedure) for light in burning)
    return min(step, *(light.real_seconds or 0 for light in burning))


def passed_events(
    state: State, procedure: Procedure, seconds: int, ids: Iterable[str]
) -> list[ev.Event]:
    """Real seconds passing for these burning lights; those that reach 0 go out."""
    counted = tuple(ids)
    events: list[ev.Event] = [ev.RealTimePassed(ids=counted, seconds=seconds)]
    for light_id in counted:
        light = state.light(light_id)
        if light is None or (light.real_seconds or 0) > seconds:
            continue
        kind = procedure.lights.get(light.kind)
        refuels = kind is not None and kind.refuels
        reason = "out of fuel" if refuels else "burnt out"
        events.append(ev.LightPutOut(id=light.id, reason=reason, spent=not refuels))
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
    if not burning:
        raise CommandError(
            "No light burns in real time now, so no real time can pass for one; "
            "'light realtime ID 60m' sets one burning."
        )
    ids: list[str] = []
    for wanted in command.ids or tuple(burning.values()):
        found = burning.get(wanted.casefold())
        if found is None:
            known = ", ".join(burning.values())
            raise CommandError(
                f"'{quoted(wanted)}' is not a light burning in real time (those are: {known})."
            )
        if found not in ids:
            ids.append(found)
    return passed_events(state, procedure, command.seconds, ids)


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
