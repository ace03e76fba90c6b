"""The dungeon's rooms: a room added at the table, the party going to one, a room marked
(cleared, looted, a trap sprung, a door forced), a note on it, a room restocked between
expeditions, and a room's label shown to the players.

The rooms of an adventure's tables file come with its ``TablesAdded`` (``encounters``).
"""

import attrs

from delvetui.core.events.base import Event, event, strings

__all__ = [
    "RoomAdded",
    "RoomCarried",
    "RoomEntered",
    "RoomMarked",
    "RoomNoted",
    "RoomRestocked",
    "RoomRevealed",
    "RoomTried",
]


@event()
@attrs.frozen(repr=False, eq=False)
class RoomAdded(Event):
    """The game master added a room to the dungeon at the table (``room add``), or the next
    expedition carried one so added."""

    id: str
    label: str = ""
    area: str = ""
    #: The rooms it leads to (each leads back to it).
    exits: tuple[str, ...] = attrs.field(default=(), converter=strings)
    text: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class RoomEntered(Event):
    """The party went to a room (``go ROOM``): it is explored, and a visit is counted."""

    room: str


@event()
@attrs.frozen(repr=False, eq=False)
class RoomMarked(Event):
    """A mark put on a room (``on``) or taken off it: explored, cleared, looted, trapped,
    forced, restocked. ``reason`` says why when it was not the game master's own mark
    ("carried" into the next expedition, an effect of the procedure)."""

    room: str
    mark: str
    on: bool = True
    reason: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class RoomNoted(Event):
    """The game master wrote a note on a room."""

    room: str
    text: str


@event()
@attrs.frozen(repr=False, eq=False)
class RoomCarried(Event):
    """The next expedition of a campaign carried what happened in a room in the last: its
    marks, its notes, what moved in and whether the players were shown its label (its
    visits stay with the expedition that made them)."""

    room: str
    marks: tuple[str, ...] = attrs.field(default=(), converter=strings)
    notes: tuple[str, ...] = attrs.field(default=(), converter=strings)
    restocked: str = ""
    revealed: bool = False


@event()
@attrs.frozen(repr=False, eq=False)
class RoomRestocked(Event):
    """In the downtime between two expeditions, something moved into a cleared room: it is
    no longer cleared but restocked, with ``what`` ('' when the rule names nothing)."""

    room: str
    what: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class RoomRevealed(Event):
    """The game master showed a room's label on the players' screen (or hid it again)."""

    room: str
    shown: bool = True


@event()
@attrs.frozen(repr=False, eq=False)
class RoomTried(Event):
    """An action or activity each member tries once in a room (``once_per_room``: a door
    listened at, an area searched) was taken in the room the party is in, by ``by`` ('' for
    the party as a whole)."""

    room: str
    action: str
    by: str = ""
