"""Events in plain words: the turn log as a game master reads it.

``event_line`` gives one line per event (or None for events that only carry bookkeeping).
``entries`` walks batches and groups the lines under turn headers with the clock time.
The UI, the CLI and the exporters all read the log through here, so it reads the same
everywhere. Text is returned plain: whoever shows it escapes it for their medium.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal

import attrs

from delvetui import dice
from delvetui.core import areas, calendar, timers
from delvetui.core import events as ev
from delvetui.core.evolve import UNNAMED_CREATURE, evolve
from delvetui.core.realtime import BY_PROCEDURE
from delvetui.core.state import MINUTES_PER_DAY, State, Timer
from delvetui.core.timeline import Batch, Timeline, voided_batches
from delvetui.procedure.model import Procedure
from delvetui.text import check_label, countdown, counted

Kind = Literal[
    "turn", "roll", "result", "encounter", "sign", "note", "light", "party", "session",
    "undo", "info", "check", "alarm", "time",
]  # fmt: skip


@attrs.frozen
class Line:
    """One line of the turn log: what kind of line it is, and its words."""

    kind: Kind
    text: str
    batch: int
    voided: bool = False
    turn: int | None = None
    session: int = 0


#: Bookkeeping events the log never gives a line: what they did shows elsewhere.
NO_LINE: tuple[type[ev.Event], ...] = (
    # Time passing for lights and timers: the table shows what is left, and a light or a
    # timer that runs out has a line of its own.
    ev.LightsBurned,
    ev.TimersCounted,
    ev.TimersRealTimePassed,
    ev.RealTimePassed,
    # The end of a turn: the next turn's line gives the clock.
    ev.TurnEnded,
)


def clock_text(clock: int) -> str:
    """Minutes since day 1 began as 'day N, HH:MM'."""
    day = clock // MINUTES_PER_DAY + 1
    minute = clock % MINUTES_PER_DAY
    return f"day {day}, {minute // 60:02d}:{minute % 60:02d}"


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


def event_line(event: ev.Event, procedure: Procedure, state: State) -> tuple[Kind, str] | None:
    """One event in plain words, given the state just before it; None to leave it out."""
    if isinstance(event, NO_LINE):
        return None
    match event:
        case ev.ExpeditionStarted():
            return "info", (
                f"Expedition {event.name} begins ({event.procedure_name}) at "
                f"{clock_text(event.clock)}."
            )
        case ev.MemberJoined():
            # The scores too, so a misread one (RATIONS 2) shows the moment it is typed.
            scores = "".join(f", {name} {value}" for name, value in event.abilities)
            return "party", f"{event.name} joins the party ({event.hp}/{event.max_hp} HP{scores})."
        case ev.MemberEdited():
            return "party", f"{event.name}: max HP {event.max_hp}, abilities corrected."
        case ev.MemberLeft():
            return "party", f"{event.name} leaves the party."
        case ev.MarchingOrderSet():
            return "party", f"Marching order: {', '.join(event.names)}."
        case ev.HpChanged():
            amount = abs(event.change)
            if event.reason == GAME_MASTER:
                if event.change < 0:
                    return "party", (
                        f"The game master takes {amount} HP from {event.name}; now {event.hp} HP."
                    )
                return (
                    "party",
                    f"The game master gives {event.name} {amount} HP; now {event.hp} HP.",
                )
            verb = "loses" if event.change < 0 else "regains"
            return (
                "party",
                f"{event.name} {verb} {amount} HP{_why(event.reason)}; now {event.hp} HP.",
            )
        case ev.FatigueChanged():
            if event.reason == GAME_MASTER:
                return "party", f"The game master sets {event.name}'s fatigue to {event.label}."
            return "party", f"{event.name} is now {event.label}{_why(event.reason)}."
        case ev.ConditionGained():
            if event.reason == GAME_MASTER:
                return (
                    "party",
                    f"The game master gives {event.name} a condition: {event.condition}.",
                )
            return "party", (
                f"{event.name} gains a condition: {event.condition}{_why(event.reason)}."
            )
        case ev.ConditionLost():
            if event.reason == GAME_MASTER:
                return "party", (
                    f"The game master takes a condition from {event.name}: {event.condition}."
                )
            return "party", (
                f"{event.name} loses a condition: {event.condition}{_why(event.reason)}."
            )
        case ev.ConditionTimed():
            if event.turns:
                unit = procedure.turn_name(state.turn_type)
                last = event.turn + event.turns
                return "party", (
                    f"{event.name} is {event.condition} for {counted(event.turns, unit)} "
                    f"(to the end of {unit} {last})."
                )
            return "party", f"{event.name} is {event.condition} until the next rest."
        case ev.TrackChanged():
            if event.reason == "time passed":
                return None
            track = procedure.tracks.get(event.track)
            label = track.label if track else event.track
            return "party", f"{event.name}: {label} {event.value} ({event.reason})."
        case ev.ResourceChanged():
            resource = procedure.resources.get(event.resource)
            label = resource.label if resource else event.resource
            who = event.name or "The party"
            if event.reason == GAME_MASTER:
                whose = f"{event.name}'s" if event.name else "the party's"
                return "party", (
                    f"The game master sets {whose} {label.lower()} to {event.value} "
                    f"({event.change:+d})."
                )
            return "party", f"{who}: {label} {event.change:+d} → {event.value}{_why(event.reason)}."
        case ev.ResourceShort():
            resource = procedure.resources.get(event.resource)
            label = (resource.label if resource else event.resource).lower()
            who = event.name or "The party"
            return "party", f"{who} has no {label} left{_why(event.reason)}."
        case ev.LightRenewed():
            die = f"d{event.usage_die}" if event.usage_die else "none"
            return "light", (
                f"{event.id} is renewed{_why(event.reason)}: usage die {die}, no strikes."
            )
        case ev.LightAdded():
            kind = procedure.lights.get(event.kind)
            label = kind.label if kind else event.kind
            count = f" ×{event.count}" if event.count > 1 else ""
            carrier = f", carried by {event.carrier}" if event.carrier else ""
            return "light", f"{label}{count} added as {event.id}{carrier}."
        case ev.LightLit():
            carrier = f" by {event.carrier}" if event.carrier else ""
            return "light", f"{event.id} is lit{carrier}."
        case ev.LightPutOut() if event.reason == "used up":
            return None  # its usage die's line said so
        case ev.LightPutOut():
            return "light", _light_out(event)
        case ev.LightFlickered():
            return (
                "light",
                f"{event.id} flickers ominously but keeps burning: it was only just lit.",
            )
        case ev.LightDimmed():
            return "light", f"{event.id} dims ({event.reason})."
        case ev.TimerStarted() | ev.TimerChanged() | ev.TimerCancelled():
            return "time", _timer_line(event, procedure, state)
        case ev.TimerWarned():
            found = state.timer(event.name)
            left = _timer_left(event.name, event.left, procedure, state)
            soon = "next turn" if found is None else timers.soon_text(found)
            return "time", f"Timer {event.name} runs out {soon} ({left} left)."
        case ev.TimerEnded():
            return "time", f"Timer {event.name} has run out."
        case ev.LightTimerSet():
            turns = _turns(procedure, state, event.minutes)
            if event.reason == "runs dry":
                return None  # the line that puts it out says so
            if event.reason == "runs low":
                return "light", f"{event.id}'s fuel runs low: {turns} left."
            return "light", f"{event.id} has {turns} left ({event.reason})."
        case ev.LightRealTimeSet():
            if event.seconds is None:
                return "light", f"{event.id} burns by turns again ({event.reason})."
            why = "" if event.reason == BY_PROCEDURE else f" ({event.reason})"
            return "light", (
                f"{event.id} burns in real time: {countdown(event.seconds)} left{why}."
            )
        case ev.RealTimePaused():
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
        case ev.LightHandedOver():
            return "light", f"{event.id} passes to {event.carrier or 'nobody'}."
        case ev.LightStruck():
            return "light", f"{event.id} takes strike {event.strikes}."
        case ev.UsageDieStepped() if event.die:
            return "light", f"{event.id}'s usage die steps down to d{event.die}."
        case ev.UsageDieStepped():
            # The line that puts the light out follows and is left out: this one says it.
            return "light", f"{event.id}'s usage die is spent: {event.id} goes out, used up."
        case ev.UsageDieSet():
            return "light", f"{event.id}'s usage die is set to d{event.die}{_why(event.reason)}."
        case ev.TurnStarted():
            action = procedure.actions.get(event.action)
            label = action.label if action else event.action
            name = procedure.turn_name(event.turn_type).capitalize()
            distance = f", {event.distance}" if event.distance else ""
            return "turn", f"{name} {event.number} · {clock_text(state.clock)} · {label}{distance}"
        case ev.DiceRolled():
            return "roll", f"{_capital(event.purpose)}: {faces_text(event)}"
        case ev.ResultRead():
            ignored = f" (ignored {event.ignored})" if event.ignored else ""
            text = f" — {event.text}" if event.text and not event.ignored else ""
            return "result", f"→ {event.label}{ignored}{text}"
        case ev.EncounterBegan() if event.area:
            return "encounter", _met(event, procedure, state)
        case ev.EncounterBegan():
            text = _sentence(event.text)
            if event.distance:
                text += f" Distance: {_sentence(event.distance)}"
            if event.creature == UNNAMED_CREATURE:
                return "encounter", f"Encounter with {event.creature}! {text}"
            if event.creature and event.foretold:
                return "encounter", (
                    f"Encounter with {event.creature}, as the sign foretold! {text}"
                )
            if event.creature:
                return "encounter", f"Encounter with {event.creature}! {text}"
            return "encounter", f"Encounter! {text}"
        case ev.EncounterDescribed():
            said = [f"it is {event.creature}"] if event.creature else []
            said += [f"it is {event.distance} away"] if event.distance else []
            return "encounter", f"The encounter: {_sentence(' and '.join(said))}"
        case ev.SignFound():
            if not event.foretells:
                return "sign", f"Sign: {event.text}"
            if event.creature:
                return "sign", (
                    f"Sign: {_sentence(event.text)} It is a sign of {event.creature}: "
                    "the next encounter is that creature."
                )
            return "sign", (
                f"Sign: {_sentence(event.text)} The next encounter is the creature it foretells."
            )
        case ev.RestBroken():
            return (
                "info",
                f"{_capital(event.reason)} interrupts the party's rest: the rest starts over.",
            )
        case ev.CheckMade():
            # "Batter a door (Might or Athletics): Bo fails, 8 against DC 10." The label
            # leads, as a name: a label may be a deed or a save, and neither reads after "at".
            verdict = "succeeds" if event.success else "fails"
            who = "the party" if event.name == "party" else event.name
            return (
                "check",
                f"{check_label(event.label)}: {who} {verdict}, {event.total} against DC "
                f"{event.dc}.",
            )
        case ev.CheckMadeUnder():
            # "DV 2 phys Saving Throw: Ash fails, 14 (above 2 and at most PHYS 12 succeeds)."
            verdict = "succeeds" if event.success else "fails"
            above = f"above {event.above} and " if event.above else ""
            return (
                "check",
                f"{check_label(event.label)}: {event.name} {verdict}, {event.total} "
                f"({above}at most {event.ability} {event.score} succeeds).",
            )
        case ev.CounterChanged():
            counter = procedure.counters.get(event.counter)
            label = counter.label if counter else event.counter
            if counter is not None and counter.levels:
                return "alarm", f"{label} is now {counter.shown(event.value)} ({event.reason})."
            return "alarm", f"{label} {event.change:+d} → {event.value} ({event.reason})."
        case ev.IntervalChanged():
            rule = procedure.rolls.get(event.roll)
            label = rule.label if rule else event.roll
            unit = procedure.turn_name(state.turn_type)
            every = f"every {unit}" if event.every == 1 else f"every {counted(event.every, unit)}"
            return "info", f"{label}: {every} now, counting from {unit} {event.since + 1}."
        case ev.EffectDeferred():
            label = _capital(_pending_label(event.label))
            return "info", f"{label} comes next turn unless the party rests."
        case ev.DeferredResolved():
            label = _pending_label(event.label)
            if event.applied:
                return "info", f"The party did not rest: {label} takes effect."
            return "info", f"The party rests: {label} is cancelled."
        case ev.RestSkipped():
            return "info", f"The party skipped its rest after {event.turns} turns."
        case ev.Logged():
            return "info", event.text
        case ev.ActivityDone():
            return "info", f"{event.by}: {event.text}" if event.by else event.text
        case ev.Noted():
            return "note", f"Note: {event.text}"
        case ev.ClockSet():
            return "time", f"The clock is set to {clock_text(event.clock)} ({event.reason})."
        case ev.TurnTypeChanged():
            turn_type = procedure.turn_types.get(event.turn_type)
            label = turn_type.label if turn_type else event.turn_type
            return "time", f"The party switches to: {label}."
        case ev.BatchVoided():
            if event.turns:
                return "undo", f"Undone: {event.turns} (the command {event.command})."
            return "undo", f"Undone: the command {event.command}."
        case ev.BatchRestored():
            if event.turns:
                return "undo", f"Redone: {event.turns} (the command {event.command})."
            return "undo", f"Redone: the command {event.command}."
        case ev.TablesAdded():
            return "info", f"The expedition carries the adventure's tables: {event.name}."
        case ev.CalendarSet():
            return "info", calendar.set_words(event.text)
        case ev.AreaEntered():
            label = areas.areas(state).get(event.area, event.area)
            return "time", f"The party enters {label} (its encounter table is in use)."
        case ev.ProcedureChanged():
            return "info", f"The expedition now follows {event.procedure_name} ({event.digest})."
        case ev.SessionStarted():
            return "session", f"Session {event.number} begins ({event.date})."
        case ev.SessionEnded():
            return "session", f"Session {event.number} ends ({event.date})."
        case ev.ExpeditionEnded():
            return "info", f"The expedition ends{': ' + event.words if event.words else ''}."
        case ev.ExpeditionReopened():
            if any(not light.spent and not light.lit for light in state.lights):
                return "info", (
                    "The expedition is taken up again; its lights stay out until lit (`light on`)."
                )
            return "info", "The expedition is taken up again."
        case ev.ExpeditionContinued():
            return "info", continued_text(event)
        case ev.CampaignNamed():
            return "info", f"The expedition opens the campaign {event.campaign}."
        case ev.ShownToPlayers():
            what = {"hp": "the party's hit points"}.get(event.what, f"the {event.what}")
            if event.shown:
                return "info", f"The players' screen now shows {what}."
            return "info", f"The players' screen no longer shows {what}."
    return "info", type(event).__name__


def continued_text(event: ev.ExpeditionContinued) -> str:
    """What a continued expedition's link says: whom it follows, after how long, what stayed."""
    left = "".join(f" {_capital(note)}." for note in event.notes)
    return (
        f"The expedition continues {event.predecessor} (campaign {event.campaign}) after "
        f"{span_text(event.downtime_minutes)} of downtime; {event.predecessor} ended "
        f"{clock_text(event.ended_clock)}.{left}"
    )


def span_text(minutes: int) -> str:
    """A span of in-world time in words: '7 days', '1 day and 12 hours', '0 hours'."""
    days, rest = divmod(minutes, MINUTES_PER_DAY)
    hours, minutes = divmod(rest, 60)
    parts = [counted(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"))]
    said = [part for part, n in zip(parts, (days, hours, minutes), strict=True) if n]
    if not said:
        return "no time"
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


#: The reason events carry when the game master changed something by hand.
GAME_MASTER = "game master"


def _met(event: ev.EncounterBegan, procedure: Procedure, state: State) -> str:
    """An encounter on the adventure's own table: who, how many, where, their reaction."""
    how_many = f"{event.appearing} × " if event.appearing else ""
    foretold = ", as the sign foretold" if event.foretold else ""
    where = areas.areas(state).get(event.area, event.area)
    reaction = f" Reaction: {_sentence(event.reaction)}" if event.reaction else ""
    distance = f" Distance: {_sentence(event.distance)}" if event.distance else ""
    return (
        f"Encounter with {how_many}{event.creature}{foretold} ({where})! "
        f"{_sentence(event.text)}{distance}{reaction}"
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _why(reason: str) -> str:
    """A reason after what happened: in brackets, or after a dash when it has its own."""
    if not reason:
        return ""
    return f" — {reason}" if "(" in reason else f" ({reason})"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _pending_label(label: str) -> str:
    """A deferred effect's name, without the "unless the party rests" older files added."""
    return label.split(" unless ")[0].rstrip(". ")


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


def batch_lines(
    batch: Batch, procedure: Procedure, state: State, *, voided: bool = False, session: int = 0
) -> Iterator[Line]:
    """The log lines of one batch, given the state before it."""
    for event in batch.events:
        described = event_line(event, procedure, state)
        turn = event.number if isinstance(event, ev.TurnStarted) else None
        if described is not None:
            kind, text = described
            yield Line(kind, text, batch.seq, voided, turn, session)
        state = evolve(state, event)


def walk(
    batches: Iterable[Batch], timeline: Timeline | None = None
) -> Iterator[tuple[Batch, State]]:
    """Each batch with the state just before it, replaying as it goes."""
    timeline = timeline or Timeline()
    for batch in batches:
        yield batch, timeline.state
        timeline.apply(batch)


def lines(
    batches: Iterable[Batch], procedure: Procedure, timeline: Timeline | None = None
) -> Iterator[Line]:
    """The whole turn log, in order; a batch later undone is marked voided."""
    collected = [(batch, state) for batch, state in walk(batches, timeline)]
    voided = voided_batches(batch for batch, _ in collected)
    for batch, state in collected:
        yield from batch_lines(
            batch, procedure, state, voided=batch.seq in voided, session=state.session
        )
