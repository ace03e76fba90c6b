"""The dungeon's rooms at work: a room added, the party going to one, its marks and notes,
its label shown to the players; what an event from outside may say of them; and the rooms
as ``status --json`` gives them.

A room comes from the adventure's tables file (``[rooms.ID]``, with its ``TablesAdded``)
or is added at the table (``room add``). The party is in one room at a time (``go``): the
room's area becomes the area in use, so its encounter table rolls. Exits lead both ways.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from delvetui import lazy
from delvetui.core.areas import areas
from delvetui.core.state import KEEP_NOTES, MARKS, Room, State, room_position, rooms_named
from delvetui.errors import CommandError
from delvetui.text import MAX_NOTE, quote, suggest

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.commands import AddRoom, GoToRoom, MarkRoom
    from delvetui.core.work import Work
    from delvetui.procedure.model import Procedure
else:
    ev = lazy.module("delvetui.core.events")

# The bounds of rooms are the tables file's (``procedure.adventure``: MAX_ROOMS, MAX_EXITS,
# MAX_ROOM_LABEL, ROOM_ID), one rule for both, imported where a room is added or checked:
# going from room to room and taking turns never need the tables' reader.

#: What a room's id cannot be: the word ``room add`` begins with.
_RESERVED = ("add",)
#: What a restocked room's ``what`` may hold: a row's words and the creature it rolled.
MAX_RESTOCKED = 1_200


def find(state: State, typed: str) -> Room:
    """The room a game master typed (case-insensitive); CommandError saying which exist."""
    found = state.find_room(typed)
    if found is not None:
        return found
    if not state.rooms:
        raise CommandError(
            "The dungeon has no rooms yet: add one with room add ID, or carry an adventure's "
            "tables file that has [rooms] (tables add FILE)."
        )
    raise CommandError(
        f"There is no room {quote(typed)} in the dungeon ({_some(state.rooms)})."
        + suggest(typed, [room.id for room in state.rooms])
    )


def _some(rooms: Iterable[Room], most: int = 8) -> str:
    """A few room ids, and how many more: '1, 2, 3 … and 27 more'."""
    ids = [room.id for room in rooms]
    shown = ", ".join(ids[:most])
    return shown if len(ids) <= most else f"{shown} … and {len(ids) - most} more"


def way_problem(state: State, room: Room) -> str | None:
    """Why the party cannot go to ``room`` through an exit, or None."""
    here = state.current_room
    if here is None or room.id in here.exits:
        return None
    exits = f"its exits: {', '.join(here.exits)}" if here.exits else "it has no exits known"
    return f"{room.id} is not an exit of {here.name} ({exits})"


def go(work: Work, command: GoToRoom) -> None:
    """Move the party to a room (``go ROOM``): an exit of the room it is in, or with
    ``anyway`` any room; the room's area's encounter table is in use from then on."""
    state = work.state
    room = find(state, command.room)
    if room.id == state.room:
        raise CommandError(f"The party is already in {room.name}.")
    wrong = way_problem(state, room)
    if wrong is not None and not command.anyway:
        raise CommandError(
            f"{wrong[:1].upper()}{wrong[1:]}; `go {room.id} anyway` goes there all the same "
            "(a trapdoor, a teleport). Nothing was saved."
        )
    work.emit(ev.RoomEntered(room=room.id))
    if room.area and room.area != work.state.area and room.area in areas(work.state):
        work.emit(ev.AreaEntered(area=room.area))


def add_room(work: Work, command: AddRoom) -> None:
    """Add a room as the party finds it (``room add``): its exits lead back to it."""
    from delvetui.procedure.adventure import MAX_EXITS

    state = work.state
    room_id = command.id
    problem = id_problem(state, room_id)
    if problem is not None:
        raise CommandError(f"{problem[:1].upper()}{problem[1:]}; nothing was saved.")
    label = command.label or ""
    known = areas(state)
    area = state.area if command.area is None else command.area
    if area and area not in known:
        if not known:
            raise CommandError(
                "The expedition carries no tables, so no areas: leave area= out (or tables "
                "add FILE first)."
            )
        raise CommandError(
            f"{quote(area)} is not an area of the adventure's tables ({', '.join(known)})."
            + suggest(area, known)
        )
    exits: list[str] = []
    for typed in command.exits or ():
        other = state.find_room(typed)
        if other is None:
            raise CommandError(
                f"There is no room {quote(typed)} for an exit of {room_id}: add it first, or "
                f"leave it out (room add {typed} exits={room_id} links them later; an exit "
                "leads both ways). Nothing was saved."
            )
        if other.id in exits:
            raise CommandError(f"exits= names room {other.id} twice.")
        if len(other.exits) >= MAX_EXITS:
            raise CommandError(f"Room {other.id} has {MAX_EXITS} exits, the most a room has.")
        exits.append(other.id)
    if len(exits) > MAX_EXITS:
        raise CommandError(f"A room has at most {MAX_EXITS} exits; exits= names {len(exits)}.")
    work.emit(ev.RoomAdded(id=room_id, label=label, area=area, exits=tuple(exits)))


def id_problem(state: State, room_id: str) -> str | None:
    """Why ``room_id`` cannot be a new room's id here, or None."""
    from delvetui.procedure.adventure import MAX_ROOMS, ROOM_ID

    if not ROOM_ID.match(room_id) or room_id.casefold() in _RESERVED:
        return (
            f"{quote(room_id)} is not a room id: use letters, digits, '-', '_' and '.' (at "
            "most 20), as the map numbers it (12, B3, 4a)"
        )
    there = state.find_room(room_id)
    if there is not None:
        return f"there is a room {there.name} already"
    if len(state.rooms) >= MAX_ROOMS:
        return f"the dungeon has {MAX_ROOMS} rooms, the most an expedition keeps"
    return None


def mark_room(work: Work, command: MarkRoom) -> None:
    """Put marks on a room or take them off, or write a note on it (``room ROOM ...``).

    A room cleared again is no longer restocked, and one restocked no longer cleared.
    """
    room = find(work.state, command.room)
    if command.note:
        work.emit(ev.RoomNoted(room=room.id, text=command.note))
        return
    for mark, _ in command.marks:
        if mark not in MARKS:
            raise CommandError(
                f"{quote(mark)} is not a mark of a room ({', '.join(MARKS)})."
                + suggest(mark, MARKS)
            )
    for mark, on in command.marks:
        now = work.state.find_room(room.id)
        assert now is not None
        if (mark in now.marks) == on:
            continue
        work.emit(ev.RoomMarked(room=room.id, mark=mark, on=on))
        other = {"cleared": "restocked", "restocked": "cleared"}.get(mark)
        if on and other in now.marks:
            work.emit(ev.RoomMarked(room=room.id, mark=other, on=False, reason=f"{mark} now"))
    if not work.events:
        said = ", ".join(f"{'' if on else 'not '}{mark}" for mark, on in command.marks)
        raise CommandError(f"Room {room.name} is already {said}; nothing was saved.")


def reveal(work: Work, shown: bool) -> None:
    """Show the label of the room the party is in on the players' screen, or hide it."""
    room = work.state.current_room
    if room is None:
        raise CommandError("The party is in no room; go to one first (go ROOM).")
    if room.revealed == shown:
        now = "already shown on" if shown else "not shown on"
        raise CommandError(f"Room {room.name} is {now} the players' screen.")
    work.emit(ev.RoomRevealed(room=room.id, shown=shown))


def exits_of(state: State, room: Room) -> list[Room]:
    """The rooms a room leads to, in the order of its exits."""
    return rooms_named(state.rooms, room.exits)


def counts(state: State) -> dict[str, int]:
    """How many rooms the dungeon has, and how many carry each mark."""
    found = {"rooms": len(state.rooms)}
    for mark in MARKS:
        found[mark] = sum(1 for room in state.rooms if mark in room.marks)
    return found


def tried(work: Work, name: str, once_per_room: bool, by: str) -> None:
    """Keep a try of an action each member tries once in a room (``once_per_room``): the
    room remembers it, and a second try there is said in the log for the game master."""
    here = work.state.current_room
    if once_per_room and here is not None:
        work.emit(ev.RoomTried(room=here.id, action=name, by=by))


def shown_label(state: State) -> str | None:
    """The label the players' screen shows for the room the party is in (once revealed)."""
    room = state.current_room
    if room is None or not room.revealed:
        return None
    return room.label or f"Room {room.id}"


# What an event from outside may say (the import's checks, ``core.event_checks``) -----------


def _there(state: State, room_id: str) -> Room | str:
    at = room_position(state.rooms, room_id)
    return state.rooms[at] if at is not None else f"there is no room {quote(room_id)} at this point"


def added_problem(state: State, event: ev.RoomAdded) -> str | None:
    """Why no command could have added this room here, or None."""
    from delvetui.procedure.adventure import MAX_EXITS, MAX_ROOM_LABEL

    wrong = id_problem(state, event.id)
    if wrong is not None:
        return wrong
    if len(event.label) > MAX_ROOM_LABEL:
        return f"its label is longer than {MAX_ROOM_LABEL} characters"
    if event.area and event.area not in areas(state):
        return f"{quote(event.area)} is not an area of the tables the expedition carries"
    if len(event.exits) > MAX_EXITS or len(set(event.exits)) != len(event.exits):
        return f"its exits are not up to {MAX_EXITS} rooms, each named once"
    for exit_id in event.exits:
        there = _there(state, exit_id)
        if isinstance(there, str):
            return there
    return None


def entered_problem(state: State, room_id: str) -> str | None:
    """Why the party could not have gone to this room here, or None."""
    there = _there(state, room_id)
    if isinstance(there, str):
        return there
    return f"the party is in {quote(room_id)} already" if room_id == state.room else None


def marked_problem(state: State, event: ev.RoomMarked) -> str | None:
    """Why no command could have put (or taken off) this mark here, or None."""
    there = _there(state, event.room)
    if isinstance(there, str):
        return there
    if event.mark not in MARKS:
        return f"{quote(event.mark)} is not a mark of a room"
    if (event.mark in there.marks) == event.on:
        return f"room {there.id} is {'already' if event.on else 'not'} {event.mark}"
    return None


def noted_problem(state: State, event: ev.RoomNoted) -> str | None:
    """Why no command could have written this note on a room here, or None."""
    there = _there(state, event.room)
    if isinstance(there, str):
        return there
    if not event.text.strip() or len(event.text) > MAX_NOTE:
        return f"a note on a room has 1 to {MAX_NOTE} characters"
    return None


def _next_begins(state: State) -> bool:
    """Whether this is the start of a campaign's next expedition (where the dungeon is
    carried and restocked)."""
    return not state.turn and bool(state.predecessor)


def carried_problem(state: State, event: ev.RoomCarried) -> str | None:
    """Why this room's record could not have been carried here, or None: as a continued
    expedition begins, onto a room with nothing yet, marks of a room each once."""
    from delvetui.procedure.adventure import MAX_ROOM_LABEL

    there = _there(state, event.room)
    if isinstance(there, str):
        return there
    if not _next_begins(state):
        return "a room is carried only as the next expedition of a campaign begins"
    if there.marks or there.notes:
        return f"room {there.id} was carried already"
    if any(mark not in MARKS for mark in event.marks) or len(set(event.marks)) != len(event.marks):
        return f"its marks are not marks of a room ({', '.join(MARKS)}), each once"
    if len(event.notes) > KEEP_NOTES or any(
        not note.strip() or len(note) > MAX_NOTE for note in event.notes
    ):
        return f"a room carries at most {KEEP_NOTES} notes of 1 to {MAX_NOTE} characters"
    if len(event.restocked) > MAX_RESTOCKED + MAX_ROOM_LABEL:
        return f"what moved in is longer than {MAX_RESTOCKED} characters"
    return None


def restocked_problem(state: State, event: ev.RoomRestocked) -> str | None:
    """Why this room could not have restocked here, or None: only a cleared room does,
    as the next expedition begins."""
    there = _there(state, event.room)
    if isinstance(there, str):
        return there
    if "cleared" not in there.marks:
        return f"room {there.id} is not cleared, and only a cleared room restocks"
    if not _next_begins(state):
        return "a room restocks only as the next expedition of a campaign begins"
    if len(event.what) > MAX_RESTOCKED:
        return f"what moved in is longer than {MAX_RESTOCKED} characters"
    return None


def tried_problem(state: State, procedure: Procedure, event: ev.RoomTried) -> str | None:
    """Why no command could have tried this action in this room here, or None."""
    if event.room != state.room:
        return f"the party is not in room {quote(event.room)}"
    done = procedure.actions.get(event.action) or procedure.activities.get(event.action)
    if done is None or not done.once_per_room:
        return f"{quote(event.action)} is not an action tried once in a room"
    if event.by and state.member(event.by) is None:
        return f"there is no party member {quote(event.by)} at this point"
    return None


def revealed_problem(state: State, event: ev.RoomRevealed) -> str | None:
    """Why no command could have shown (or hidden) this room's label here, or None."""
    there = _there(state, event.room)
    if isinstance(there, str):
        return there
    if there.revealed == event.shown:
        return f"room {there.id} is {'already' if event.shown else 'not'} shown to the players"
    return None


# The rooms as status --json gives them ------------------------------------------------------


def status(state: State) -> dict[str, Any]:
    """``room`` (the id, or None) and ``rooms`` (by id: label, area, exits, marks, visits)."""
    return {
        "room": state.room or None,
        "rooms": {
            room.id: {
                "label": room.label,
                "area": room.area or None,
                "exits": list(room.exits),
                "marks": list(room.marks),
                "visits": list(room.visits),
                "visit_count": room.visited,
                "notes": list(room.notes),
                "restocked": room.restocked or None,
            }
            for room in state.rooms
        },
    }
