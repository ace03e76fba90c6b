"""Cutting the counting batches of an expedition into the story's parts (sessions, and the
play before, between or outside them), each part's turns and each turn's entries; a roll
and what it read on a table make one entry, and a table's text is told in full once a part.
"""

from __future__ import annotations

import datetime as dt

import attrs

from delvetui.core import events as ev
from delvetui.core.log import said
from delvetui.core.state import State
from delvetui.core.timeline import Batch
from delvetui.export.story.model import Entry, Part, PartKind, ProcedureAt, Turn
from delvetui.export.story.summary import about, facts
from delvetui.export.story.tally import Tally


class Builder:
    """Walks the counting batches and cuts them into parts, turns and entries."""

    def __init__(self, procedure_at: ProcedureAt) -> None:
        self.procedure_at = procedure_at
        self.parts: list[Part] = []
        self.current: OpenPart | None = None
        self.ended: int | None = None  # the session that ended last, while between sessions
        self.seen_session = False

    def add(self, batch: Batch, before: State, at: str) -> None:
        started = next((e for e in batch.events if isinstance(e, ev.SessionStarted)), None)
        if started is not None:
            self._close()
            self.seen_session = True
            self.ended = None
            self.current = OpenPart("session", started.number, before, self.procedure_at)
            self.current.date = date_text(started.date)
        elif self.current is None:
            kind: PartKind = "before" if self.ended is None else "between"
            self.current = OpenPart(kind, self.ended, before, self.procedure_at)
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


class OpenPart:
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
        self.tally = Tally()
        self.told: set[tuple[str, str, str]] = set()

    def take(self, batch: Batch, before: State, at: str) -> None:
        self.first_at = self.first_at or at
        self.last_at = at
        pending_roll: str | None = None
        state = before
        procedure = self.procedure_at(before)
        for event, described, after in said(batch.events, procedure, before, shown=self._briefly):
            state = after
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
        summary = facts(self.tally, self.start, self.end, procedure)
        return Part(
            kind=self.kind,
            number=self.number,
            title=self._title(),
            date=self.date or dates(self.first_at, self.last_at),
            about=about(self.tally, self.start, self.end, procedure),
            turns=tuple(self.turns),
            summary=summary if self.kind == "session" or self.tally.turns else (),
        )

    def _title(self) -> str:
        if self.kind == "session":
            return f"Session {self.number}"
        if self.kind == "between":
            return f"After session {self.number}"
        return "Before the first session"


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"]
_MONTHS += ["September", "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def date_text(iso: str) -> str:
    """'2026-11-22' as 'Sunday 22 November 2026'; a text that is no date stays as it is."""
    try:
        day = dt.date.fromisoformat(iso[:10])
    except ValueError:
        return iso
    return f"{_DAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]} {day.year}"


def dates(first_at: str, last_at: str) -> str:
    first, last = date_text(first_at[:10]), date_text(last_at[:10])
    return first if first == last else f"{first} – {last}"
