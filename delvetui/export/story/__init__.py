"""The story of an expedition: its sessions, turn by turn, each with a summary.

The story is built once from the batches by replaying them (``walk``) and describing each
event with the turn log's own words (``delvetui.core.log``). It is the same for every
format: the Markdown, HTML and text writers only choose how it looks. Undone commands and
the undo and redo commands themselves are left out, so the story is what counted.

Every text in the story is made *visible* on the way in: control characters (a terminal's
escape sequences among them) become visible symbols, so no exported text can act on a
terminal or hide itself, whichever format it ends up in.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

import attrs

from delvetui.core import calendar, conditions
from delvetui.core import events as ev
from delvetui.core.evolve import evolve
from delvetui.core.log import Kind, event_line, walk
from delvetui.core.member_light import party_level
from delvetui.core.state import State
from delvetui.core.timeline import Batch, Timeline, is_undo_or_redo, voided_batches
from delvetui.errors import DelveError
from delvetui.procedure.model import Procedure
from delvetui.text import counted, plural, visible
from delvetui.text import minutes_words as _duration

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"]
_MONTHS += ["September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _visible_all(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(visible(item) for item in items)


@attrs.frozen
class Entry:
    """One line of the story: a roll and what it read, a light going out, a note...

    A table result is kept apart so a format can make it stand out: ``result`` is its
    label ('Encounter') and ``detail`` what follows it (' — A wandering monster appears.').
    """

    kind: Kind
    text: str = attrs.field(converter=visible)
    result: str = attrs.field(default="", converter=visible)
    detail: str = attrs.field(default="", converter=visible)

    @property
    def plain(self) -> str:
        """The whole line as plain words."""
        if not self.result:
            return self.text
        told = f"{self.text} → " if self.text else "→ "
        return f"{told}{self.result}{self.detail}"


@attrs.frozen
class Turn:
    """One turn and what happened in it; ``number`` None for what came before any turn."""

    number: int | None
    heading: str = attrs.field(converter=visible)
    entries: tuple[Entry, ...]


@attrs.frozen
class Fact:
    """One row of a summary: a label and its items ('Encounters': two texts)."""

    label: str = attrs.field(converter=visible)
    items: tuple[str, ...] = attrs.field(converter=_visible_all)


PartKind = Literal["before", "session", "between", "all"]
#: The procedure an expedition followed in a state (it may move to a newer one).
ProcedureAt = Callable[[State], Procedure]


@attrs.frozen
class Part:
    """A session, or the play before, between or (when none was marked) outside sessions."""

    kind: PartKind
    number: int | None
    title: str = attrs.field(converter=visible)
    date: str = attrs.field(converter=visible)
    about: str = attrs.field(converter=visible)
    turns: tuple[Turn, ...]
    summary: tuple[Fact, ...]

    @property
    def heading(self) -> str:
        """Title and date in one line: 'Session 2 · Sunday 22 November 2026'."""
        return f"{self.title} · {self.date}" if self.date else self.title

    @property
    def summary_title(self) -> str:
        """The heading of the part's summary: 'Summary of session 2', or 'Summary'."""
        return f"Summary of session {self.number}" if self.kind == "session" else "Summary"


@attrs.frozen
class Story:
    """The whole story: the expedition's title, and its parts in order."""

    title: str = attrs.field(converter=visible)
    byline: str = attrs.field(converter=visible)
    parts: tuple[Part, ...]


#: What every format says of an expedition where nothing was played yet.
NOTHING_YET = "Nothing has happened in this expedition yet."


def lines_of(story: Story, head: list[str], part: Callable[[Part], list[str]]) -> str:
    """A text format's document: its head, then each part's lines, ending in one newline."""
    out = list(head)
    if not story.parts:
        out += [NOTHING_YET, ""]
    for each in story.parts:
        out += part(each)
    return "\n".join(out).rstrip("\n") + "\n"


# Building --------------------------------------------------------------------------------


@attrs.frozen
class Played:
    """A batch as the story reads it: the batch and the wall-clock time it was committed."""

    batch: Batch
    at: str


def build(
    played: Sequence[Played],
    procedure_at: ProcedureAt,
    *,
    title: str,
    exported: dt.datetime | None = None,
) -> Story:
    """The story of these batches (every batch of the file, in order).

    ``procedure_at(state)`` is the procedure the expedition followed in that state: an
    expedition can move to a newer procedure part-way, and each turn is told in the words
    of the procedure it was played with.
    """
    by_seq = {p.batch.seq: p.batch for p in played}
    timeline = Timeline(load=lambda seqs: [by_seq[seq] for seq in seqs])
    voided = voided_batches(p.batch for p in played)
    at = {p.batch.seq: p.at for p in played}
    builder = _Builder(procedure_at)
    for batch, before in walk((p.batch for p in played), timeline):
        if batch.seq not in voided and not is_undo_or_redo(batch):
            builder.add(batch, before, at[batch.seq])
    parts = builder.finish()
    byline = f"{procedure_at(timeline.state).name} · the session log"
    if exported is not None:
        byline += f", exported {_date_text(exported.date().isoformat())}"
    return Story(title=title, byline=byline, parts=tuple(parts))


def only_session(story: Story, number: int) -> Story:
    """The story of one session (0: what came before the first session)."""
    found = [part for part in story.parts if _number(part) == number]
    if not found:
        have = [str(n) for part in story.parts if (n := _number(part)) is not None]
        if not any(part.kind == "session" for part in story.parts):
            raise DelveError(
                f"There is no session {number}: no session was marked in this expedition "
                "(mark them with 'session start' and 'session end'); export it without --session."
            )
        raise DelveError(
            f"There is no session {number} in this expedition; it has "
            f"{', '.join(have)} (0 is what came before the first session)."
        )
    return attrs.evolve(story, parts=tuple(found))


def _number(part: Part) -> int | None:
    if part.kind == "session":
        return part.number
    return 0 if part.kind == "before" else None


class _Builder:
    """Walks the counting batches and cuts them into parts, turns and entries."""

    def __init__(self, procedure_at: ProcedureAt) -> None:
        self.procedure_at = procedure_at
        self.parts: list[Part] = []
        self.current: _Open | None = None
        self.ended: int | None = None  # the session that ended last, while between sessions
        self.seen_session = False

    def add(self, batch: Batch, before: State, at: str) -> None:
        started = next((e for e in batch.events if isinstance(e, ev.SessionStarted)), None)
        if started is not None:
            self._close()
            self.seen_session = True
            self.ended = None
            self.current = _Open("session", started.number, before, self.procedure_at)
            self.current.date = _date_text(started.date)
        elif self.current is None:
            kind: PartKind = "before" if self.ended is None else "between"
            self.current = _Open(kind, self.ended, before, self.procedure_at)
        current = self.current
        current.take(batch, before, at)
        if any(isinstance(e, ev.SessionEnded) for e in batch.events):
            self.ended = current.number
            self._close()

    def _close(self) -> None:
        if self.current is not None:
            part = self.current.part()
            if part.turns or part.kind == "session":
                self.parts.append(part)
            self.current = None

    def finish(self) -> list[Part]:
        self._close()
        if not self.seen_session and self.parts:
            # No session was ever marked: one part tells everything.
            only = self.parts[0]
            self.parts = [attrs.evolve(only, kind="all", title="The expedition", number=None)]
        return self.parts


class _Open:
    """A part being built, with the tally its summary is made from."""

    def __init__(
        self, kind: PartKind, number: int | None, start: State, procedure_at: ProcedureAt
    ) -> None:
        self.kind: PartKind = kind
        self.number = number
        self.procedure_at = procedure_at
        self.start = start
        self.end = start
        self.date = ""
        self.first_at = ""
        self.last_at = ""
        self.turns: list[Turn] = []
        self.heading: tuple[int | None, str] = (None, "")
        self.entries: list[Entry] = []
        self.tally = _Tally()
        self.told: set[tuple[str, str, str]] = set()

    def take(self, batch: Batch, before: State, at: str) -> None:
        self.first_at = self.first_at or at
        self.last_at = at
        pending_roll: str | None = None
        state = before
        procedure = self.procedure_at(before)
        for event in batch.events:
            described = event_line(self._briefly(event), procedure, state)
            state = evolve(state, event)
            if described is None:
                continue
            kind, text = described
            if kind == "session":
                continue  # the part's heading tells it
            # A roll and what it read on a table make one line of the story; the result
            # is kept apart to stand out, unless the procedure ignored it.
            if isinstance(event, ev.ResultRead) and not event.ignored:
                head = f"→ {event.label}"
                if text.startswith(head):
                    detail = text[len(head) :]
                    self.entries.append(Entry("roll", pending_roll or "", event.label, detail))
                    pending_roll = None
                    continue
            if kind == "result" and pending_roll is not None:
                self.entries.append(Entry("roll", f"{pending_roll} {text}"))
                pending_roll = None
                continue
            self._flush_roll(pending_roll)
            pending_roll = None
            if isinstance(event, ev.TurnStarted):
                self._next_turn(event.number, text)
            elif kind == "roll":
                pending_roll = text
            else:
                self.entries.append(Entry(kind, text))
        self._flush_roll(pending_roll)
        self.tally.take(batch.events, before)
        self.end = state
        if not before.procedure_id:
            self.start = self.end  # the expedition began here: tell time from its start

    def _briefly(self, event: ev.Event) -> ev.Event:
        """A table result told in full the first time in a part, by its label after that."""
        if not isinstance(event, ev.ResultRead) or not event.text or event.ignored:
            return event
        told = (event.table, event.label, event.text)
        if told in self.told:
            return attrs.evolve(event, text="")
        self.told.add(told)
        return event

    def _flush_roll(self, roll: str | None) -> None:
        if roll is not None:
            self.entries.append(Entry("roll", roll))

    def _next_turn(self, number: int | None, heading: str) -> None:
        self._close_turn()
        self.heading = (number, heading)

    def _close_turn(self) -> None:
        number, heading = self.heading
        if self.entries or number is not None:
            self.turns.append(Turn(number, heading, tuple(self.entries)))
        self.entries = []

    def part(self) -> Part:
        self._close_turn()
        self.heading = (None, "")
        procedure = self.procedure_at(self.end)
        summary = _summary(self.tally, self.start, self.end, procedure)
        return Part(
            kind=self.kind,
            number=self.number,
            title=self._title(),
            date=self.date or _dates(self.first_at, self.last_at),
            about=_about(self.tally, self.start, self.end, procedure),
            turns=tuple(self.turns),
            summary=summary if self.kind == "session" or self.tally.turns else (),
        )

    def _title(self) -> str:
        if self.kind == "session":
            return f"Session {self.number}"
        if self.kind == "between":
            return f"After session {self.number}"
        return "Before the first session"


# The summary ------------------------------------------------------------------------------


class _Tally:
    """What a part's events add up to, for its summary."""

    def __init__(self) -> None:
        self.turns: list[int] = []
        #: The kind of each turn taken (its turn type), beside its number.
        self.kinds: list[str] = []
        self.damage: dict[str, int] = {}
        self.healed: dict[str, int] = {}
        self.gained: dict[str, list[str]] = {}
        self.left: list[str] = []
        self.lights: dict[str, _LightUse] = {}
        self.encounters: list[str] = []
        self.signs: list[str] = []
        self.peaks: dict[str, int] = {}

    def light(self, light_id: str) -> _LightUse:
        return self.lights.setdefault(light_id, _LightUse())

    def take(self, events: Iterable[ev.Event], state: State) -> None:
        for event in events:
            self._take(event, state)
            state = evolve(state, event)

    def _take(self, event: ev.Event, state: State) -> None:
        match event:
            case ev.TurnStarted():
                self.turns.append(event.number)
                self.kinds.append(event.turn_type)
            case ev.HpChanged() if event.change < 0:
                self.damage[event.name] = self.damage.get(event.name, 0) - event.change
            case ev.HpChanged() if event.change > 0:
                self.healed[event.name] = self.healed.get(event.name, 0) + event.change
            case ev.ConditionGained():
                _add_once(self.gained.setdefault(event.name, []), event.condition)
            case ev.FatigueChanged():
                _add_once(self.gained.setdefault(event.name, []), event.label)
            case ev.MemberLeft():
                self.left.append(event.name)
            case ev.LightLit():
                self.light(event.id).lit = True
            case ev.LightsBurned():
                for light_id in event.ids:
                    # A light burns no longer than it had left (a torch in a watch).
                    had = state.light(light_id)
                    left = had.minutes if had is not None else None
                    burned = event.minutes if left is None else min(event.minutes, left)
                    self.light(light_id).minutes += burned
            case ev.LightDimmed():
                self.light(event.id).dimmed = event.reason
            case ev.LightPutOut():
                use = self.light(event.id)
                use.out = event.reason
                use.spent = event.spent
            case ev.UsageDieStepped():
                self.light(event.id).dice.append(event.die)
            case ev.UsageDieSet():
                self.light(event.id).dice.append(event.die)
            case ev.LightStruck():
                self.light(event.id).strikes = event.strikes
            case ev.EncounterBegan():
                creature = f" — {event.creature}" if event.creature else ""
                distance = f" ({event.distance})" if event.distance else ""
                self.encounters.append(f"{event.text}{creature}{distance}")
            case ev.SignFound():
                creature = f" — {event.creature}" if event.creature else ""
                self.signs.append(f"{event.text}{creature}")
            case ev.CounterChanged():
                self.peaks[event.counter] = max(self.peaks.get(event.counter, 0), event.value)


@attrs.define
class _LightUse:
    lit: bool = False
    minutes: int = 0
    dimmed: str = ""
    out: str = ""
    spent: bool = False
    strikes: int = 0
    dice: list[int | None] = attrs.field(factory=list)


def _add_once(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _summary(tally: _Tally, start: State, end: State, procedure: Procedure) -> tuple[Fact, ...]:
    spent = f"{_duration(end.minutes - start.minutes)}, {_span(start, end, procedure)}"
    facts = [
        Fact("Turns", [_turns_text(tally, procedure, end)]),
        Fact("In-world time", [spent]),
        Fact("Light used", _lights_used(tally, procedure, end) or ["none"]),
        Fact("Light left", _lights_left(procedure, end)),
        Fact("Light level", [f"{party_level(end, procedure)} at the end"]),
        Fact("Party", _party(tally, procedure, end) or ["nobody"]),
    ]
    for name in sorted(set(procedure.counters) | {n for n, _ in end.counters}):
        counter = procedure.counters.get(name)
        label = counter.label if counter else name
        first, last = start.counter(name), end.counter(name)
        peak = tally.peaks.get(name, last)
        say = counter.shown if counter is not None else str
        text = f"{say(first)} → {say(last)}" if first != last else f"{say(last)}, unchanged"
        if peak > max(first, last):
            text += f" (at most {say(peak)})"
        facts.append(Fact(label.capitalize(), [text]))
    for key, resource in procedure.resources.items():
        if resource.per == "party":
            first, last = start.resource(key), end.resource(key)
            text = f"{first} → {last}" if first != last else f"{last}, unchanged"
            facts.append(Fact(resource.label, [text]))
    facts.append(Fact(f"Encounters ({len(tally.encounters)})", tally.encounters or ["none"]))
    facts.append(Fact(f"Signs ({len(tally.signs)})", tally.signs or ["none"]))
    return tuple(facts)


def _turns_text(tally: _Tally, procedure: Procedure, end: State) -> str:
    turns = tally.turns
    unit = procedure.turn_name(end.turn_type)
    if not turns:
        return f"no {plural(unit)} taken"
    if len(set(tally.kinds)) > 1:
        return f"{len(turns)} ({_kinds_text(tally, procedure, ', ')})"
    unit = procedure.turn_name(tally.kinds[0]) if tally.kinds else unit
    if len(turns) == 1:
        return f"1 ({unit} {turns[0]})"
    return f"{len(turns)} ({plural(unit)} {turns[0]}–{turns[-1]})"


def _kinds_text(tally: _Tally, procedure: Procedure, between: str) -> str:
    """The turns taken counted by kind, in the order each first came: '10 watches, 2 days'."""
    counts = Counter(tally.kinds)
    return between.join(counted(n, procedure.turn_name(kind)) for kind, n in counts.items())


def _lights_used(tally: _Tally, procedure: Procedure, end: State) -> list[str]:
    per_turn = procedure.turn_minutes(end.turn_type)
    unit = procedure.turn_name(end.turn_type)
    items = []
    for light_id, use in tally.lights.items():
        parts = []
        if use.minutes:
            turns = use.minutes // per_turn
            whole = f" ({counted(turns, unit)})" if turns * per_turn == (use.minutes) else ""
            parts.append(f"burned {_duration(use.minutes)}{whole}")
        elif use.lit:
            parts.append("lit")
        if use.dice:
            last = use.dice[-1]
            parts.append(f"usage die down to d{last}" if last else "usage die spent")
        if use.strikes:
            parts.append(f"{use.strikes} strike{'s' if use.strikes != 1 else ''}")
        if use.dimmed:
            parts.append(f"dimmed ({use.dimmed})")
        if use.out:
            verb = "burnt out" if use.spent else "went out"
            parts.append(verb if use.out == verb else f"{verb} ({use.out})")
        if parts:
            items.append(f"{light_id}: {', '.join(parts)}")
    return items


def _lights_left(procedure: Procedure, end: State) -> list[str]:
    per_turn = procedure.turn_minutes(end.turn_type)
    unit = procedure.turn_name(end.turn_type)
    items = []
    for light in end.lights:
        if light.spent:
            continue
        kind = procedure.lights.get(light.kind)
        label = kind.label if kind else light.kind
        count = f" ×{light.count}" if light.count > 1 else ""
        parts = [f"{label}{count}", "lit" if light.lit else "unlit"]
        if light.lit and light.state == "dim":
            parts[-1] = "lit, dim"
        if light.minutes is not None:
            turns = -(-light.minutes // per_turn)
            # In turns longer than an hour (a watch, a day), the time itself says more.
            left = counted(turns, unit) if per_turn <= 60 else _duration(light.minutes)
            parts.append(f"{left} left")
        if light.usage_die:
            parts.append(f"usage die d{light.usage_die}")
        if light.carrier:
            parts.append(f"carried by {light.carrier}")
        items.append(f"{light.id}: {', '.join(parts)}")
    return items or ["no lights"]


def _party(tally: _Tally, procedure: Procedure, end: State) -> list[str]:
    ladder = procedure.party.fatigue
    items = []
    for member in end.party:
        now = [f"{member.hp}/{member.max_hp} HP"]
        if member.fatigue and ladder:
            now.append(procedure.party.fatigue_label(member.fatigue))
        now.extend(conditions.shown(member, end, procedure))
        now.extend(
            f"{resource.label.lower()} {member.resource(key)}"
            for key, resource in procedure.resources.items()
            if resource.per == "member"
        )
        changes = []
        if member.name in tally.damage:
            changes.append(f"took {tally.damage[member.name]} damage")
        if member.name in tally.healed:
            changes.append(f"regained {tally.healed[member.name]} HP")
        if tally.gained.get(member.name):
            changes.append(f"became {', '.join(tally.gained[member.name])}")
        told = f"{member.name}: {', '.join(now)}"
        items.append(f"{told} — {'; '.join(changes)}" if changes else told)
    items.extend(f"{name} left the party" for name in tally.left)
    return items


def _about(tally: _Tally, start: State, end: State, procedure: Procedure) -> str:
    turns = tally.turns
    unit = procedure.turn_name(end.turn_type)
    if not turns:
        return f"{_capital(_span(start, end, procedure))} · no {plural(unit)}"
    count = counted(len(turns), unit)
    if len(set(tally.kinds)) > 1:
        count = _kinds_text(tally, procedure, " and ")
    numbers = f" ({turns[0]}–{turns[-1]})" if len(turns) > 1 else f" (number {turns[0]})"
    minutes = _duration(end.minutes - start.minutes)
    return f"{_capital(_span(start, end, procedure))} · {count}{numbers} · {minutes} in the world"


def _span(start: State, end: State, procedure: Procedure) -> str:
    first = calendar.moment_for(end, procedure, start.clock)  # in the calendar kept at the end
    last = calendar.moment_for(end, procedure)
    if first == last:
        return first
    return f"{first} → {end.clock_text if start.day == end.day else last}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _date_text(iso: str) -> str:
    """'2026-11-22' as 'Sunday 22 November 2026'; a text that is no date stays as it is."""
    try:
        day = dt.date.fromisoformat(iso[:10])
    except ValueError:
        return iso
    return f"{_DAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]} {day.year}"


def _dates(first_at: str, last_at: str) -> str:
    first, last = _date_text(first_at[:10]), _date_text(last_at[:10])
    return first if first == last else f"{first} – {last}"
