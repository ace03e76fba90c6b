"""The words of the turns' events: a turn's header, rolls and what they read, checks,
counters, intervals, deferred effects, rests, the procedure's lines and activities,
another kind of turn."""

from __future__ import annotations

from delvetui import dice
from delvetui.core import events as ev
from delvetui.core.log.rooms import where
from delvetui.core.log.words import Said, capital, clock_text, silent, words
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import check_label, counted

# The end of a turn: the next turn's line gives the clock.
words.register(ev.TurnEnded)(silent)


@words.register
def _(event: ev.TurnStarted, procedure: Procedure, state: State) -> Said:
    action = procedure.actions.get(event.action)
    label = action.label if action else event.action
    name = procedure.turn_name(event.turn_type).capitalize()
    distance = f", {event.distance}" if event.distance else ""
    here = where(state.current_room)
    return "turn", f"{name} {event.number} · {clock_text(state.clock)} · {label}{distance}{here}"


@words.register
def _(event: ev.DiceRolled, procedure: Procedure, state: State) -> Said:
    return "roll", f"{capital(event.purpose)}: {faces_text(event)}"


@words.register
def _(event: ev.ResultRead, procedure: Procedure, state: State) -> Said:
    ignored = f" (ignored {event.ignored})" if event.ignored else ""
    text = f" — {event.text}" if event.text and not event.ignored else ""
    return "result", f"→ {event.label}{ignored}{text}"


@words.register
def _(event: ev.RestBroken, procedure: Procedure, state: State) -> Said:
    if event.since_rest is None:
        return (
            "info",
            f"{capital(event.reason)} interrupts the party's rest: the rest starts over.",
        )
    turn = procedure.turn_name(state.turn_type)
    return (
        "info",
        f"{capital(event.reason)} interrupts the party's rest: this {turn} is no rest, and the "
        "rest starts over.",
    )


@words.register
def _(event: ev.CheckMade, procedure: Procedure, state: State) -> Said:
    verdict = "succeeds" if event.success else "fails"
    who = "the party" if event.name == "party" else event.name
    return (
        "check",
        f"{check_label(event.label)}: {who} {verdict}, {event.total} against DC {event.dc}.",
    )


@words.register
def _(event: ev.CheckMadeUnder, procedure: Procedure, state: State) -> Said:
    # "DV 2 phys Saving Throw: Ash fails, 14 (above 2 and at most PHYS 12 succeeds)."
    verdict = "succeeds" if event.success else "fails"
    above = f"above {event.above} and " if event.above else ""
    return (
        "check",
        f"{check_label(event.label)}: {event.name} {verdict}, {event.total} "
        f"({above}at most {event.ability} {event.score} succeeds).",
    )


@words.register
def _(event: ev.CounterChanged, procedure: Procedure, state: State) -> Said:
    counter = procedure.counters.get(event.counter)
    label = counter.label if counter else event.counter
    if counter is not None and counter.levels:
        return "alarm", f"{label} is now {counter.shown(event.value)} ({event.reason})."
    return "alarm", f"{label} {event.change:+d} → {event.value} ({event.reason})."


@words.register
def _(event: ev.IntervalChanged, procedure: Procedure, state: State) -> Said:
    rule = procedure.rolls.get(event.roll)
    label = rule.label if rule else event.roll
    unit = procedure.turn_name(state.turn_type)
    every = f"every {unit}" if event.every == 1 else f"every {counted(event.every, unit)}"
    return "info", f"{label}: {every} now, counting from {unit} {event.since + 1}."


@words.register
def _(event: ev.EffectDeferred, procedure: Procedure, state: State) -> Said:
    label = capital(_pending_label(event.label))
    return "info", f"{label} comes next turn unless the party rests."


@words.register
def _(event: ev.DeferredResolved, procedure: Procedure, state: State) -> Said:
    label = _pending_label(event.label)
    if event.applied:
        return "info", f"The party did not rest: {label} takes effect."
    return "info", f"The party rests: {label} is cancelled."


@words.register
def _(event: ev.RestSkipped, procedure: Procedure, state: State) -> Said:
    return "info", f"The party skipped its rest after {event.turns} turns."


@words.register
def _(event: ev.Logged, procedure: Procedure, state: State) -> Said:
    return "info", event.text


@words.register
def _(event: ev.ActivityDone, procedure: Procedure, state: State) -> Said:
    return "info", f"{event.by}: {event.text}" if event.by else event.text


@words.register
def _(event: ev.TurnTypeChanged, procedure: Procedure, state: State) -> Said:
    turn_type = procedure.turn_types.get(event.turn_type)
    label = turn_type.label if turn_type else event.turn_type
    return "time", f"The party switches to: {label}."


def faces_text(event: ev.DiceRolled) -> str:
    """The faces of a roll as the table would read them: '2d6 [3, 4] = 7'."""
    faces = ", ".join(str(face) for face in event.faces)
    dropped = ""
    if len(event.kept) != len(event.faces):
        dropped = f" keep {', '.join(str(face) for face in event.kept)}"
    modifier = f" {event.modifier:+d}" if event.modifier else ""
    typed = " (table dice)" if event.entered else ""
    # "d20+1 with disadvantage [7, 17] keep 7 +1 = 8": the mode in words, not 2d20kl1.
    shown = dice.mode_words(event.expression)
    return f"{shown} [{faces}]{dropped}{modifier} = {event.total}{typed}"


def _pending_label(label: str) -> str:
    """A deferred effect's name, without the "unless the party rests" older files added."""
    return label.split(" unless ")[0].rstrip(". ")
