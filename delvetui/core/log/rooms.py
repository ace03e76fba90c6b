"""The words of the rooms' events: a room added, the party going to one (its first visit
explores it), a mark put on or taken off, a note, a room restocked, a label shown."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.log.words import Said, capital, sentence, silent, words
from delvetui.core.state import Room, State, room_position
from delvetui.procedure.model import Procedure

#: A mark as the log says it: "Room 12 is cleared", "a trap was sprung in room 12".
MARK_WORDS = {
    "explored": "explored",
    "cleared": "cleared",
    "looted": "looted",
    "trapped": "trapped (a trap sprung)",
    "forced": "forced (a door forced)",
    "restocked": "restocked",
}


def _room(state: State, room_id: str) -> str:
    """The room an event names, as a sentence names it: "room 12 (The crypt)"."""
    at = room_position(state.rooms, room_id)
    return state.rooms[at].called if at is not None else f"room {room_id}"


def where(room: Room | None) -> str:
    """Where the party is, for a turn's header: ' · in 12: The crypt', or ''."""
    return f" · in {room.name}" if room is not None else ""


@words.register
def _(event: ev.RoomAdded, procedure: Procedure, state: State) -> Said:
    label = f": {event.label}" if event.label else ""
    exits = f", its exits {', '.join(event.exits)}" if event.exits else ""
    return "info", f"A room joins the map: {event.id}{label}{exits}."


@words.register
def _(event: ev.RoomEntered, procedure: Procedure, state: State) -> Said:
    at = room_position(state.rooms, event.room)
    room = state.rooms[at] if at is not None else None
    if room is None:
        return "time", f"The party goes to room {event.room}."
    first = "explored" not in room.marks
    said = ": its first visit, explored" if first else f", visit {room.visited + 1}"
    return "time", f"The party goes to {room.called}{said}."


@words.register
def _(event: ev.RoomMarked, procedure: Procedure, state: State) -> Said:
    name = _room(state, event.room)
    mark = MARK_WORDS.get(event.mark, event.mark)
    why = f" ({event.reason})" if event.reason else ""
    if event.on:
        return "info", f"{capital(name)} is {mark}{why}."
    return "info", f"{capital(name)} is no longer {mark}{why}."


@words.register
def _(event: ev.RoomNoted, procedure: Procedure, state: State) -> Said:
    return "note", f"Note on {_room(state, event.room)}: {event.text}"


# What a room carried into the next expedition: the expedition's link says the dungeon in
# one line (its rooms explored, cleared, restocked), the rooms pane and the map each room.
words.register(ev.RoomCarried)(silent)


@words.register
def _(event: ev.RoomRestocked, procedure: Procedure, state: State) -> Said:
    what = f": {sentence(event.what)}" if event.what else "."
    return "info", f"In the downtime {_room(state, event.room)} was restocked{what}"


@words.register
def _(event: ev.RoomRevealed, procedure: Procedure, state: State) -> Said:
    name = _room(state, event.room)
    if event.shown:
        return "info", f"The players' screen now shows {name}."
    return "info", f"The players' screen no longer shows {name}."


@words.register
def _(event: ev.RoomTried, procedure: Procedure, state: State) -> Said:
    at = room_position(state.rooms, event.room)
    room = state.rooms[at] if at is not None else None
    done = procedure.actions.get(event.action) or procedure.activities.get(event.action)
    label = done.label if done is not None else event.action
    who = f"{event.by}: " if event.by else ""
    before = room.tried_on(event.action, event.by) if room is not None else None
    if room is not None and before is None:
        return None  # a first try: the room keeps it, the log says the action already
    when = f" (turn {before})" if before else ""
    return "info", (
        f"{who}{label} was tried in {_room(state, event.room)} before{when}; the game's "
        "text allows one try each: is it another door or place?"
    )
