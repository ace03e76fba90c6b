"""The words of the lights' events: added, lit, put out (and why), dimmed and flickering,
the time set, real time, handed over, struck, their usage dice and their refuelling."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.log.words import Said, silent, why, words
from delvetui.core.realtime import BY_PROCEDURE
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import countdown, counted, minutes_words

# Time passing for lights: the table shows what is left, and a light that runs out has a
# line of its own.
words.register(ev.LightsBurned)(silent)
words.register(ev.RealTimePassed)(silent)


@words.register
def _(event: ev.LightRenewed, procedure: Procedure, state: State) -> Said:
    die = f"d{event.usage_die}" if event.usage_die else "none"
    return "light", (f"{event.id} is renewed{why(event.reason)}: usage die {die}, no strikes.")


@words.register
def _(event: ev.LightAdded, procedure: Procedure, state: State) -> Said:
    kind = procedure.lights.get(event.kind)
    label = kind.label if kind else event.kind
    count = f" ×{event.count}" if event.count > 1 else ""
    carrier = f", carried by {event.carrier}" if event.carrier else ""
    return "light", f"{label}{count} added as {event.id}{carrier}."


@words.register
def _(event: ev.LightKindDeclared, procedure: Procedure, state: State) -> Said:
    unit = procedure.turn_name(state.turn_type)
    if event.turns is not None:
        lasts = f"burns {counted(event.turns, unit)}"
    elif event.minutes is not None:
        lasts = f"burns {minutes_words(event.minutes)}"
    elif event.real_minutes is not None:
        lasts = f"burns {counted(event.real_minutes, 'real minute')}"
    elif event.usage_die is not None:
        lasts = f"usage die d{event.usage_die}"
    else:
        lasts = "burns until put out"
    return "light", (
        f"A light of the table's own: {event.label} ({event.id}), {event.brightness}, {lasts}."
    )


@words.register
def _(event: ev.LightLit, procedure: Procedure, state: State) -> Said:
    carrier = f" by {event.carrier}" if event.carrier else ""
    return "light", f"{event.id} is lit{carrier}."


@words.register
def _(event: ev.LightPutOut, procedure: Procedure, state: State) -> Said:
    if event.reason == "used up":
        return None  # its usage die's line said so
    return "light", _light_out(event)


@words.register
def _(event: ev.LightFlickered, procedure: Procedure, state: State) -> Said:
    return (
        "light",
        f"{event.id} flickers ominously but keeps burning: it was only just lit.",
    )


@words.register
def _(event: ev.LightDimmed, procedure: Procedure, state: State) -> Said:
    return "light", f"{event.id} dims ({event.reason})."


@words.register
def _(event: ev.LightTimerSet, procedure: Procedure, state: State) -> Said:
    turns = _turns(procedure, state, event.minutes)
    if event.reason == "runs dry":
        return None  # the line that puts it out says so
    if event.reason == "runs low":
        return "light", f"{event.id}'s fuel runs low: {turns} left."
    return "light", f"{event.id} has {turns} left ({event.reason})."


@words.register
def _(event: ev.LightRealTimeSet, procedure: Procedure, state: State) -> Said:
    if event.seconds is None:
        return "light", f"{event.id} burns by turns again ({event.reason})."
    why = "" if event.reason == BY_PROCEDURE else f" ({event.reason})"
    return "light", (f"{event.id} burns in real time: {countdown(event.seconds)} left{why}.")


@words.register
def _(event: ev.LightHandedOver, procedure: Procedure, state: State) -> Said:
    return "light", f"{event.id} passes to {event.carrier or 'nobody'}."


@words.register
def _(event: ev.LightStruck, procedure: Procedure, state: State) -> Said:
    return "light", f"{event.id} takes strike {event.strikes}."


@words.register
def _(event: ev.UsageDieStepped, procedure: Procedure, state: State) -> Said:
    if event.die:
        return "light", f"{event.id}'s usage die steps down to d{event.die}."
    return "light", f"{event.id}'s usage die is spent: {event.id} goes out, used up."


@words.register
def _(event: ev.UsageDieSet, procedure: Procedure, state: State) -> Said:
    return "light", f"{event.id}'s usage die is set to d{event.die}{why(event.reason)}."


def _light_out(event: ev.LightPutOut) -> str:
    """Why a light went out, as a game master would say it."""
    reason = event.reason
    plain = {
        "burnt out": "burns out",
        "out of fuel": "runs out of fuel",
        "put out": "is put out",
    }
    if reason in plain:
        return f"{event.id} {plain[reason]}."
    if reason.startswith("blown out"):
        return f"{event.id} is {reason}."
    if reason.startswith("strike "):
        return f"{event.id} goes out at {reason}."
    what = "burns out" if event.spent else "goes out"
    return f"{event.id} {what} ({reason})."


def _turns(procedure: Procedure, state: State, minutes: int) -> str:
    per_turn = procedure.turn_minutes(state.turn_type)
    turns = -(-minutes // per_turn)
    unit = procedure.turn_name(state.turn_type)
    return counted(turns, unit)
