"""The dungeon's rooms: a room added, the party going to one (a visit, and explored), its
marks and notes, a room restocked, a label shown to the players; and the rooms a tables
file brings (``with_tables_rooms``, for ``TablesAdded``).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import rule
from delvetui.core.state import KEEP_NOTES, KEEP_VISITS, MARKS, Room, State, room_position


def room_of(state: State, room_id: str) -> Room:
    """The room an event names (exactly as the state keeps its id); ValueError when none."""
    at = room_position(state.rooms, room_id)
    if at is None:
        raise ValueError(f"no room with id {room_id!r}")
    return state.rooms[at]


def with_mark(marks: Iterable[str], mark: str, on: bool) -> tuple[str, ...]:
    """The marks with one put on or taken off, in the order of ``MARKS``."""
    kept = set(marks) - {mark} | ({mark} if on else set())
    return tuple(name for name in MARKS if name in kept)


def linked(rooms: tuple[Room, ...], room_id: str, exits: Iterable[str]) -> tuple[Room, ...]:
    """The rooms with each of ``exits`` leading back to ``room_id`` (an exit leads both ways)."""
    back = set(exits)
    return tuple(
        attrs.evolve(room, exits=(*room.exits, room_id))
        if room.id in back and room_id not in room.exits
        else room
        for room in rooms
    )


@rule.register
def _(event: ev.RoomAdded, state: State) -> State:
    if any(room.id.casefold() == event.id.casefold() for room in state.rooms):
        raise ValueError(f"there is a room {event.id!r} already")
    added = Room(
        id=event.id, label=event.label, area=event.area, exits=event.exits, text=event.text
    )
    return attrs.evolve(state, rooms=(*linked(state.rooms, event.id, event.exits), added))


@rule.register
def _(event: ev.RoomEntered, state: State) -> State:
    room = room_of(state, event.room)
    visits = (*room.visits, state.turn + 1)[-KEEP_VISITS:]
    went = attrs.evolve(
        room,
        visits=visits,
        visited=room.visited + 1,
        marks=with_mark(room.marks, "explored", True),
    )
    return attrs.evolve(state.with_room(went), room=room.id)


@rule.register
def _(event: ev.RoomMarked, state: State) -> State:
    room = room_of(state, event.room)
    if event.mark not in MARKS:
        raise ValueError(f"{event.mark!r} is not a mark of a room")
    changed = attrs.evolve(room, marks=with_mark(room.marks, event.mark, event.on))
    if event.mark == "restocked" and not event.on:
        changed = attrs.evolve(changed, restocked="")
    return state.with_room(changed)


@rule.register
def _(event: ev.RoomNoted, state: State) -> State:
    room = room_of(state, event.room)
    return state.with_room(attrs.evolve(room, notes=(*room.notes, event.text)[-KEEP_NOTES:]))


@rule.register
def _(event: ev.RoomCarried, state: State) -> State:
    room = room_of(state, event.room)
    marks = tuple(mark for mark in MARKS if mark in event.marks)
    if len(marks) != len(event.marks):
        raise ValueError(f"{event.marks!r} are not marks of a room, each once")
    carried = attrs.evolve(
        room,
        marks=marks,
        notes=event.notes[-KEEP_NOTES:],
        restocked=event.restocked,
        revealed=event.revealed,
    )
    return state.with_room(carried)


@rule.register
def _(event: ev.RoomRestocked, state: State) -> State:
    room = room_of(state, event.room)
    marks = with_mark(with_mark(room.marks, "cleared", False), "restocked", True)
    return state.with_room(attrs.evolve(room, marks=marks, restocked=event.what))


@rule.register
def _(event: ev.RoomTried, state: State) -> State:
    room = room_of(state, event.room)
    key = f"{event.action}:{event.by}"
    if room.tried_on(event.action, event.by) is not None:
        return state
    # The turn under way, or the last one when it came between turns (as the log groups it).
    turn = state.turn + 1 if state.in_turn else state.turn
    return state.with_room(attrs.evolve(room, tried=(*room.tried, (key, turn))))


@rule.register
def _(event: ev.RoomRevealed, state: State) -> State:
    room = room_of(state, event.room)
    return state.with_room(attrs.evolve(room, revealed=event.shown))


# The rooms of a tables file ------------------------------------------------------------------


def with_tables_rooms(state: State, tables_id: str, text: str) -> State:
    """The state with the rooms of tables ``tables_id`` as its text (``TablesAdded``) has
    them: a room kept from an earlier text of the same tables keeps its marks, notes and
    visits; one the new text leaves out goes (and the party with it, when it stood there);
    a room added at the table keeps its exits to the file's rooms that are still there."""
    from delvetui.procedure.adventure import load_text

    found = load_text(text).rooms
    was = {room.id: room for room in state.rooms if room.tables == tables_id}
    if not found and not was:
        return state
    fresh = [
        _kept(Room(room_id, r.label, r.area, r.exits, r.text, tables_id), was.get(room_id))
        for room_id, r in found.items()
    ]
    places = [i for i, room in enumerate(state.rooms) if room.tables == tables_id]
    at = places[0] if places else len(state.rooms)
    others = [room for room in state.rooms if room.tables != tables_id]
    rooms = tuple(others[:at]) + tuple(fresh) + tuple(others[at:])
    known = {room.id for room in rooms}
    rooms = tuple(
        attrs.evolve(room, exits=tuple(e for e in room.exits if e in known))
        if any(e not in known for e in room.exits)
        else room
        for room in rooms
    )
    for room in others:
        if not room.tables:
            rooms = linked(rooms, room.id, room.exits)
    return attrs.evolve(state, rooms=rooms, room=state.room if state.room in known else "")


def _kept(room: Room, was: Room | None) -> Room:
    """A room of a tables file's new text with what happened in it under the old one."""
    if was is None:
        return room
    return attrs.evolve(
        room,
        marks=was.marks,
        notes=was.notes,
        visits=was.visits,
        visited=was.visited,
        restocked=was.restocked,
        revealed=was.revealed,
        tried=was.tried,
    )
