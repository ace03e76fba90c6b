"""Events in plain words: the turn log as a game master reads it.

``event_line`` gives one line per event (or None for events that only carry bookkeeping);
``said`` (``together``) the words of a batch's events, the like steps of several members
in one turn on one line. ``lines`` walks batches into the log's lines.
The UI, the CLI and the exporters all read the log through here, so it reads the same
everywhere. Text is returned plain: whoever shows it escapes it for their medium.

Each event type's words are registered on one dispatch (``words.words``, a
``functools.singledispatch``) and kept by family as the events are: ``expedition``,
``party``, ``lights``, ``clock``, ``turns``, ``encounters``, ``fights``, ``tables``, ``rooms``
and ``session``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from delvetui.core import events as ev
from delvetui.core.log import (  # noqa: F401 - each family registers its words
    clock,
    encounters,
    expedition,
    fights,
    lights,
    party,
    rooms,
    tables,
    turns,
)
from delvetui.core.log import session as _session  # noqa: F401 - and the table's
from delvetui.core.log.expedition import continued_text
from delvetui.core.log.together import minor, said
from delvetui.core.log.turns import faces_text
from delvetui.core.log.words import Kind, clock_text, silent, span_text, words
from delvetui.core.state import State
from delvetui.core.timeline import Batch, Timeline, voided_batches
from delvetui.procedure.model import Procedure

__all__ = [
    "NO_LINE",
    "Kind",
    "Line",
    "batch_lines",
    "clock_text",
    "continued_text",
    "event_line",
    "faces_text",
    "lines",
    "said",
    "span_text",
    "walk",
]


@attrs.frozen
class Line:
    """One line of the turn log: what kind of line it is, and its words."""

    kind: Kind
    text: str
    batch: int
    voided: bool = False
    turn: int | None = None
    session: int = 0
    #: A step that crosses no threshold (a track counted on): the compact view leaves it out.
    minor: bool = False
    #: Drawn on one row, cut at its end where it is longer (the compact view's turns).
    one_row: bool = False


#: Bookkeeping events the log never gives a line: what they did shows elsewhere (each
#: family says where, beside its ``silent`` registration).
NO_LINE: tuple[type[ev.Event], ...] = tuple(
    kind for kind, said in words.registry.items() if said is silent and kind is not object
)


def event_line(event: ev.Event, procedure: Procedure, state: State) -> tuple[Kind, str] | None:
    """One event in plain words, given the state just before it; None to leave it out."""
    return words(event, procedure, state)


def batch_lines(
    batch: Batch, procedure: Procedure, state: State, *, voided: bool = False, session: int = 0
) -> Iterator[Line]:
    """The log lines of one batch, given the state before it (the like steps of several
    members in a turn on one line: ``together``)."""
    for event, described, _ in said(batch.events, procedure, state):
        turn = event.number if isinstance(event, ev.TurnStarted) else None
        if described is not None:
            kind, text = described
            yield Line(kind, text, batch.seq, voided, turn, session, minor=minor(event))


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
