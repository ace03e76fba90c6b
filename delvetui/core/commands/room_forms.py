"""The dungeon's verbs: ``room`` (a room added, marked, noted) and ``go`` (the party moves).

Part of the one table of the command language (``grammar.GRAMMAR``, where the verbs take
their place); kept in a module of their own as the light verb's are. A room's marks and its
note are read by hand (``read_room_change``): ``+cleared -trapped`` are words of one value,
and a note is free text, kept as typed (the parser hands it over before any shell-like
splitting, as it does a ``note``).
"""

from __future__ import annotations

import re

import attrs

from delvetui.core.commands import kinds
from delvetui.core.commands import readers as read
from delvetui.core.commands.forms import Form, Verb, Word, flag, key, sub, value
from delvetui.core.commands.types import Command
from delvetui.text import MAX_NOTE
from delvetui.text import quoted as _short

__all__ = ["GO", "ROOM", "ROOM_NOTE", "AddRoom", "GoToRoom", "MarkRoom"]

#: The longest room label a command takes (the tables file's own limit).
MAX_ROOM_LABEL = 80


@attrs.frozen(repr=False, eq=False)
class AddRoom(Command):
    """Add a room to the dungeon as the party finds it (a room the map had not)."""

    id: str
    label: str | None = None
    #: Its area (level); None puts it in the area in use.
    area: str | None = None
    #: The rooms it leads to, which lead back to it.
    exits: tuple[str, ...] | None = None


@attrs.frozen(repr=False, eq=False)
class GoToRoom(Command):
    """Move the party to a room: an exit of the room it is in, or (``anyway``) any room."""

    room: str
    anyway: bool = False


@attrs.frozen(repr=False, eq=False)
class MarkRoom(Command):
    """Put marks on a room or take them off (``marks``: each mark and whether it is put
    on), or write a note on it."""

    room: str
    marks: tuple[tuple[str, bool], ...] = ()
    note: str = ""


#: ``room ID note TEXT``, told apart before the line is split (the note is free text).
ROOM_NOTE = re.compile(r"^\s*room\s+(\S+)\s+note(?:\s+|$)", re.IGNORECASE)
_ROOM = value("ROOM", "room", "room")


def read_room_change(words: list[str], text: str) -> Command:
    """``room 12 +cleared -trapped`` or ``room 12 note TEXT``: by hand, because marks are
    several words making one value and a note is free text, kept exactly as typed."""
    if not words:
        raise read.UsageProblem("Name a room, e.g. room 12 +cleared.", "room")
    room = read.bounded("room", "a room's id", words[0], kinds.MAX_ROOM_ID)
    found = ROOM_NOTE.match(text)
    if found is not None:
        note = text[found.end() :].strip()
        if not note:
            raise read.UsageProblem(
                f"A note needs some text, e.g. room {room} note idol taken.", "room"
            )
        return MarkRoom(room=room, note=read.bounded("room", "a note", note, MAX_NOTE))
    if len(words) == 1:
        raise read.UsageProblem(
            f"Say what to mark, e.g. room {room} +cleared, or room {room} note TEXT.", "room"
        )
    marks: list[tuple[str, bool]] = []
    for word in words[1:]:
        if len(word) < 2 or word[0] not in "+-":
            raise read.UsageProblem(
                f"'{_short(word)}' is not a mark; write +MARK or -MARK (+cleared, -trapped) "
                "or note TEXT.",
                "room",
            )
        marks.append((read.bounded("room", "a mark", word[1:].lower(), 40), word[0] == "+"))
    return MarkRoom(room=room, marks=tuple(marks))


def room_change_words(command: Command) -> list[str]:
    """The words of a room's marks, or of its note (kept as typed)."""
    assert isinstance(command, MarkRoom)
    if command.note:
        return [command.room, "note", command.note]
    return [command.room, *(f"{'+' if on else '-'}{mark}" for mark, on in command.marks)]


ROOM = Verb(
    "room",
    "The dungeon's rooms: add one, mark it, note on it.",
    (
        Form(
            (
                sub("add"),
                value("ID", "new-room", "id"),
                key(
                    "label",
                    "TEXT",
                    "text",
                    type=kinds.Text(what="a room's label", limit=MAX_ROOM_LABEL),
                ),
                key("area", "AREA", "area"),
                key("exits", "ID,ID…", "rooms"),
            ),
            AddRoom,
            "Add a room as the party finds it: its label, its area (the one in use when left "
            "out) and its exits, which lead back to it.",
            "room add 31 label='Hidden shrine' exits=12,14",
            wrong="room add takes one id (the number on the map), e.g. room add 31.",
        ),
        Form(
            (_ROOM, value("+MARK|-MARK", "room-mark", "marks", many=True)),
            MarkRoom,
            "Mark a room, or take a mark off: explored, cleared, looted, trapped (a trap "
            "sprung), forced (a door forced), restocked.",
            "room 12 +cleared +looted",
            reader=read_room_change,
            writer=room_change_words,
        ),
        Form(
            (_ROOM, Word("note", "word"), value("TEXT", "text", "note")),
            MarkRoom,
            "A note on a room, kept with it (and carried to the next expedition).",
            "room 12 note the idol is a fake",
            reader=read_room_change,
            writer=room_change_words,
        ),
    ),
    wrong="Say room add ID, room ROOM +MARK or room ROOM note TEXT.",
)

GO = Verb(
    "go",
    "Move the party to another room.",
    (
        Form(
            (value("ROOM", "way", "room"), flag("anyway", "anyway")),
            GoToRoom,
            "Go to a room: an exit of the room the party is in (anyway: any room, through a "
            "trapdoor or a teleport). Its area's encounter table is in use from then on.",
            "go 12",
            wrong="go takes one room, e.g. go 12.",
        ),
    ),
)
