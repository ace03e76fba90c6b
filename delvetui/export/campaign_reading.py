"""Reading one expedition file for the campaign view: its record, or why it cannot be read.

Each file is opened read-only (never written, not even a snapshot): its state from its
snapshot, then its log walked once for what the state no longer holds: who joined and
left, the light burned, the supplies used, the link to its predecessor. What comes out is a
small record (``campaign.Voyage``); nothing of the log is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import singledispatch
from pathlib import Path

import attrs

from delvetui.core import calendar
from delvetui.core import events as ev
from delvetui.core.campaign import died
from delvetui.core.state import State
from delvetui.core.timeline import Batch, is_undo_or_redo, void, voiding
from delvetui.errors import DelveError
from delvetui.export.campaign import (
    MAX_ROUTE,
    Campaign,
    Death,
    Link,
    Refused,
    Voyage,
    assemble,
)
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition, to_batch
from delvetui.text import counted, minutes_words


def read(path: Path) -> Voyage | Refused:
    """One expedition file read (never written): its record, or why it cannot be read."""
    try:
        with Expedition.open(path, write=False, snapshot=True) as expedition:
            return _voyage(path, expedition)
    except DelveError as error:
        return Refused(path.stem, str(path), error.message)


def _voyage(path: Path, expedition: Expedition) -> Voyage:
    walk = _Walk()
    for stored in expedition.saved():
        # Only the events the walk reads are rebuilt (every row's checksum is still checked
        # as it is read): an undo's or redo's first event, the first batch, the kept kinds.
        first = stored.events[0].type if stored.events else ""
        if stored.seq != 1 and first not in _UNDO_OR_REDO:
            rows = tuple(e for e in stored.events if e.type in _KEPT_NAMES)
            stored = attrs.evolve(stored, events=rows)
        walk.take(to_batch(stored))
    state = expedition.state
    procedure = expedition.procedure
    walk.finish()
    dead = tuple(m.name for m in state.party if died(m, procedure))
    deaths = tuple(
        Death(m.name, m.died_at[0], m.died_at[1]) for m in state.party if m.died_at is not None
    )
    link = walk.link
    return Voyage(
        name=path.stem,
        path=str(path),
        id=expedition.expedition_id,
        digest=expedition.digest(),
        campaign=walk.campaign,
        link=link,
        procedure=procedure.name,
        start=state.start_clock,
        end=state.clock,
        ended=state.ended,
        sessions=state.session,
        turns=state.turn,
        party=tuple(_member_words(state, m.name, procedure) for m in state.party),
        members=tuple(walk.members),
        joined=tuple(walk.joined),
        died=dead,
        left=tuple(name for name in walk.left if state.member(name) is None),
        light_used=tuple(_light_words(walk, procedure)),
        supplies_used=tuple(_supply_words(walk, procedure)),
        deaths=deaths,
        dungeon=tuple(_dungeon_words(state)),
        route=tuple(walk.route[:MAX_ROUTE]),
        steps=len(walk.route),
        restocked=tuple(walk.restocked),
        fights=state.fights,
        foes_defeated=state.foes_defeated,
        calendar=calendar.in_force(state, procedure),
    )


def _dungeon_words(state: State) -> Iterator[str]:
    """The dungeon at the end: its rooms, and how many are explored, cleared, restocked."""
    if not state.rooms:
        return
    from delvetui.core.rooms import counts

    found = counts(state)
    yield counted(found["rooms"], "room")
    for mark in ("explored", "cleared", "looted", "restocked"):
        if found[mark]:
            yield f"{found[mark]} {mark}"


def _member_words(state: State, name: str, procedure: Procedure) -> str:
    """'Ash 3/8 HP, exhausted, poisoned': HP, then the fatigue the member ended with (the
    ladder's word, or Cairn's Fatigue count), then the conditions."""
    member = state.member(name)
    assert member is not None
    tired = []
    track = procedure.fatigue_track
    if track is not None and member.track(track):
        tired.append(f"{procedure.tracks[track].label} {member.track(track)}")
    elif track is None and member.fatigue:
        tired.append(procedure.party.fatigue_label(member.fatigue))
    words = [f"{member.hp}/{member.max_hp} HP", *tired, *member.conditions]
    return f"{name} {', '.join(words)}"


class _Walk:
    """What an expedition's counting events add up to, read a batch at a time.

    An undo takes back a batch already read, so what each batch adds is kept beside its
    number (only the few events that matter here) and summed at the end over the batches
    that still count.
    """

    def __init__(self) -> None:
        self.kept: dict[int, tuple[ev.Event, ...]] = {}
        self.voided: set[int] = set()
        self.link: Link | None = None
        self.campaign = ""
        self.members: list[str] = []
        self.joined: list[str] = []
        self.left: list[str] = []
        self.kinds: dict[str, str] = {}
        self.burned: dict[str, int] = {}
        self.burnt_out: dict[str, int] = {}
        #: Wear that is not time: a light dimmed (Dungeon Turn), a usage die stepped down.
        self.dimmed: dict[str, int] = {}
        self.stepped: dict[str, int] = {}
        self.used: dict[str, int] = {}
        #: The rooms gone to, in order; the rooms restocked as it began.
        self.route: list[str] = []
        self.restocked: list[str] = []

    def take(self, batch: Batch) -> None:
        if batch.seq == 1:
            self._first(batch)
        if is_undo_or_redo(batch):
            void(self.voided, voiding(batch))
            return
        kept = tuple(e for e in batch.events if isinstance(e, _KEPT))
        if kept:
            self.kept[batch.seq] = kept

    def _first(self, batch: Batch) -> None:
        for event in batch.events:
            if isinstance(event, ev.ExpeditionContinued):
                self.link = Link(
                    event.predecessor,
                    event.predecessor_id,
                    event.predecessor_digest,
                    event.ended_clock,
                    event.downtime_minutes,
                    tuple(event.notes),
                )
                self.campaign = event.campaign
            elif isinstance(event, ev.CampaignNamed):
                self.campaign = event.campaign

    def finish(self) -> None:
        for seq in sorted(self.kept):
            if seq not in self.voided:
                for event in self.kept[seq]:
                    _add(event, self, seq == 1)


@singledispatch
def _add(event: ev.Event, walk: _Walk, first: bool) -> None:
    """What one event of an expedition adds to its record (its party, light and supplies
    used); ``first`` for an event of batch 1, which a continued expedition carried."""


@_add.register
def _(event: ev.MemberJoined, walk: _Walk, first: bool) -> None:
    if event.name not in walk.members:
        walk.members.append(event.name)
    if not first and walk.link is not None:
        # A first expedition's party is made in it; a later one's is carried.
        walk.joined.append(event.name)


@_add.register
def _(event: ev.MemberLeft, walk: _Walk, first: bool) -> None:
    walk.left.append(event.name)


@_add.register
def _(event: ev.LightAdded, walk: _Walk, first: bool) -> None:
    walk.kinds[event.id] = event.kind


@_add.register
def _(event: ev.LightLit, walk: _Walk, first: bool) -> None:
    if event.source:
        # One taken from a bundle and lit ('torch2' from 'torch1') is of its kind.
        walk.kinds[event.id] = walk.kinds.get(event.source, event.source)


@_add.register
def _(event: ev.LightsBurned, walk: _Walk, first: bool) -> None:
    for light_id in event.ids:
        kind = walk.kinds.get(light_id, light_id)
        walk.burned[kind] = walk.burned.get(kind, 0) + event.minutes


@_add.register
def _(event: ev.LightPutOut, walk: _Walk, first: bool) -> None:
    if event.spent:
        kind = walk.kinds.get(event.id, event.id)
        walk.burnt_out[kind] = walk.burnt_out.get(kind, 0) + 1


@_add.register
def _(event: ev.LightDimmed, walk: _Walk, first: bool) -> None:
    if not first:
        kind = walk.kinds.get(event.id, event.id)
        walk.dimmed[kind] = walk.dimmed.get(kind, 0) + 1


@_add.register
def _(event: ev.UsageDieStepped, walk: _Walk, first: bool) -> None:
    if event.die is not None:
        kind = walk.kinds.get(event.id, event.id)
        walk.stepped[kind] = walk.stepped.get(kind, 0) + 1


@_add.register
def _(event: ev.ResourceChanged, walk: _Walk, first: bool) -> None:
    if event.change < 0 and not first:
        walk.used[event.resource] = walk.used.get(event.resource, 0) - event.change


@_add.register
def _(event: ev.RoomEntered, walk: _Walk, first: bool) -> None:
    walk.route.append(event.room)


@_add.register
def _(event: ev.RoomRestocked, walk: _Walk, first: bool) -> None:
    walk.restocked.append(f"{event.room} ({event.what})" if event.what else event.room)


#: The events a record reads: those ``_add`` takes.
_KEPT = tuple(kind for kind in _add.registry if kind is not object)
_KEPT_NAMES = frozenset(kind.__name__ for kind in _KEPT)
_UNDO_OR_REDO = frozenset({ev.BatchVoided.__name__, ev.BatchRestored.__name__})


def _light_words(walk: _Walk, procedure: Procedure) -> Iterator[str]:
    for kind in sorted({*walk.burned, *walk.burnt_out, *walk.dimmed, *walk.stepped}):
        known = procedure.lights.get(kind)
        label = known.label if known else kind
        parts = []
        if walk.burned.get(kind):
            parts.append(f"burned {minutes_words(walk.burned[kind])}")
        if walk.dimmed.get(kind):
            parts.append(f"{walk.dimmed[kind]} dimmed")
        if walk.stepped.get(kind):
            parts.append(f"usage die down {counted(walk.stepped[kind], 'step')}")
        if walk.burnt_out.get(kind):
            parts.append(f"{walk.burnt_out[kind]} burnt out")
        yield f"{label}: {', '.join(parts)}"


def _supply_words(walk: _Walk, procedure: Procedure) -> Iterator[str]:
    for key in sorted(walk.used):
        known = procedure.resources.get(key)
        yield f"{known.label if known else key}: {walk.used[key]} used"


def survey(paths: Iterable[Path]) -> tuple[list[Campaign], list[Refused]]:
    """Every campaign these expedition files make, and the files that could not be read."""
    voyages: list[Voyage] = []
    refused: list[Refused] = []
    for path in paths:
        found = read(path)
        (voyages if isinstance(found, Voyage) else refused).append(found)  # type: ignore[arg-type]
    return assemble(voyages), refused
