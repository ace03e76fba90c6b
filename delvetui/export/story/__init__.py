"""The story of an expedition: its sessions, turn by turn, each with a summary.

The story is built once from the batches by replaying them (``walk``) and describing each
event with the turn log's own words (``delvetui.core.log``). It is the same for every
format: the Markdown, HTML and text writers only choose how it looks. Undone commands and
the undo and redo commands themselves are left out, so the story is what counted.

Every text in the story is made *visible* on the way in: control characters (a terminal's
escape sequences among them) become visible symbols, so no exported text can act on a
terminal or hide itself, whichever format it ends up in.

The story is a package: ``model`` (what a story is made of), ``parts`` (cutting batches
into parts, turns and entries), ``tally`` (what a part's events add up to, one
registration per event type, kept by family: ``lights``, ``party``, and the turn, the
counters and the encounters in ``summary``) and ``summary`` (a part's summary and the line
about it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import attrs

from delvetui.core.log import walk
from delvetui.core.timeline import Timeline, is_undo_or_redo, voided_batches
from delvetui.errors import DelveError
from delvetui.export.story.model import (
    NOTHING_YET,
    Entry,
    Fact,
    Part,
    PartKind,
    Played,
    ProcedureAt,
    Story,
    Turn,
    lines_of,
)
from delvetui.export.story.parts import Builder, date_text

__all__ = [
    "NOTHING_YET",
    "Entry",
    "Fact",
    "Part",
    "PartKind",
    "Played",
    "ProcedureAt",
    "Story",
    "Turn",
    "build",
    "lines_of",
    "only_session",
]


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
    builder = Builder(procedure_at)
    for batch, before in walk((p.batch for p in played), timeline):
        if batch.seq not in voided and not is_undo_or_redo(batch):
            builder.add(batch, before, at[batch.seq])
    parts = builder.finish()
    byline = f"{procedure_at(timeline.state).name} · the session log"
    if exported is not None:
        byline += f", exported {date_text(exported.date().isoformat())}"
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
