"""The adventure's own tables: encounters by area, how many appear, how they react; the
dungeon's rooms and how they restock.

A procedure is a game's rules; the encounter table and the map belong to the dungeon. The
game master hands an expedition a small TOML file of their own tables (``tables add FILE``,
or ``new --tables FILE``) and the expedition keeps its text in an event, as it keeps its
procedure's, so it never reads the file again. This module is the format: its attrs models
and the check of its text, which treats the file as hostile: every problem at once with its
key and line, a size limit, no control characters, and no key that names a file. It reads
no file itself.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from typing import Any

import attrs

from delvetui import dice
from delvetui.errors import DiceError, ProcedureError
from delvetui.procedure.reading import (
    ID,
    INVALID,
    Limit,
    LineMap,
    Problems,
    decode,
    kind_of_value,
    matches,
    parse_toml,
    type_name,
    unknown,
)
from delvetui.procedure.tree import parse_range
from delvetui.text import quote, suggest, unseen_in
from delvetui.values import as_tuple

#: An adventure's tables file larger than this is refused before it is parsed.
MAX_FILE_BYTES = 64_000
LIMIT = Limit(MAX_FILE_BYTES, "an adventure's tables file may be at most 64 KB")
#: The most areas one file may hold, and rows one table.
MAX_AREAS = 60
MAX_ROWS = 100
#: The longest creature's name, and the longest text of a row.
MAX_CREATURE = 80
MAX_TEXT = 500
#: The most totals a table's dice may roll (d1000 at most).
MAX_SPAN = 1000
#: The most creatures a row's fixed ``number`` may name.
MAX_APPEARING = 999
#: A row's ``reaction`` that rolls none, whatever its area's.
NO_REACTION = "none"
#: The most rooms an expedition knows (a file's and those added at the table together): a
#: megadungeon's level runs to a few hundred; a thousand is a mistake, refused.
MAX_ROOMS = 500
#: The most exits one room names.
MAX_EXITS = 20
#: The longest room label.
MAX_ROOM_LABEL = 80
#: A room's id, the number or name on the game master's map: letters (either case),
#: digits, "-", "_" and ".", starting with a letter or digit, at most 20 ("12", "B3", "4a").
ROOM_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,19}$")
#: A dict key's most entries, when its field does not say (areas, reaction tables).
_MOST = "most"


@attrs.frozen
class Encounter:
    """One row of an area's table: the creature met, how many, and how it reacts."""

    #: The totals of the area's dice this row covers: "3" or "2-4".
    roll: str
    #: The creature, as the log and the table name it.
    creature: str
    #: Number appearing, as dice ("2d4", "1"); "" leaves the number to the game master.
    number: str = ""
    #: The reaction table rolled for it; "" takes the area's, "none" rolls none.
    reaction: str = ""
    #: Words for the log (where it lairs, what it carries).
    text: str = ""


@attrs.frozen
class ReactionRow:
    """One row of a reaction table: the range it covers and the reaction."""

    roll: str
    label: str
    text: str = ""


@attrs.frozen
class ReactionTable:
    """A reaction table, such as 2d6: 2 hostile ... 12 friendly."""

    label: str
    dice: str
    rows: tuple[ReactionRow, ...] = attrs.field(converter=as_tuple)


@attrs.frozen
class Area:
    """An area or level of the adventure and its encounter table."""

    label: str
    dice: str
    rows: tuple[Encounter, ...] = attrs.field(converter=as_tuple)
    #: The reaction table its encounters roll on ("" for none, unless a row names one).
    reaction: str = ""
    text: str = ""


@attrs.frozen
class Room:
    """A room of the dungeon, as the adventure's file keys it: ``[rooms.12]``.

    ``exits`` lead both ways: a room named as another's exit has that one as an exit too,
    so each door is written once.
    """

    #: What the game master's map calls it ("The flooded crypt").
    label: str = ""
    #: The area (level) it is on: its encounter table is in use while the party is there.
    area: str = ""
    #: The rooms it leads to, by id.
    exits: tuple[str, ...] = ()
    #: Words for the game master (what is there, what the players see).
    text: str = ""


@attrs.frozen
class RestockRow:
    """One row of the table of what moves into a cleared room."""

    roll: str
    #: What moved in, in words ("Monsters", "A trap").
    what: str
    #: Roll the room's area's encounter table for the creature that moved in.
    encounter: bool = False


@attrs.frozen
class Restock:
    """How a cleared room restocks between two expeditions: a chance, and what moves in."""

    #: The chance each cleared room is restocked in the downtime: "1-in-6".
    chance: str
    #: The dice of the table of what moves in ("" for none: the room is restocked, no more).
    dice: str = ""
    rows: tuple[RestockRow, ...] = attrs.field(default=(), converter=as_tuple)
    text: str = ""


@attrs.frozen
class Adventure:
    """An adventure's own tables, loaded and checked."""

    id: str
    name: str
    areas: dict[str, Area]
    reactions: dict[str, ReactionTable] = attrs.field(factory=dict)
    #: The area in use when the tables are added (the first area when "").
    start: str = ""
    #: The dungeon's rooms, by id, in the file's order; each one's exits lead both ways.
    rooms: dict[str, Room] = attrs.field(factory=dict, metadata={_MOST: MAX_ROOMS})
    #: How cleared rooms restock between expeditions (None: as the procedure says).
    restock: Restock | None = None

    @property
    def first_area(self) -> str:
        """The area the party is in when these tables join the expedition."""
        return self.start or next(iter(self.areas))


def row_for(rows: typing.Sequence[Encounter | ReactionRow | RestockRow], total: int) -> int:
    """The index of the row that covers a total (the tables were checked to cover all)."""
    for index, row in enumerate(rows):
        span = parse_range(row.roll)
        if span is not None and span[0] <= total <= span[1]:
            return index
    raise ValueError(f"no row covers {total}")


def load_bytes(data: bytes, *, source: str) -> Adventure:
    """Check a tables file given as bytes (its size and encoding first)."""
    return load_text(decode(data, LIMIT, source=source), source=source)


def load_text(text: str, *, source: str = "the adventure's tables") -> Adventure:
    """Check an adventure's tables text; raise ProcedureError listing every problem.

    A valid text is remembered (the last few), as the expedition reads its tables from the
    state at every encounter.
    """
    try:
        return _load_valid(text)
    except ProcedureError as error:
        raise ProcedureError(source, error.problems) from None


def forget() -> None:
    """Forget the texts found valid (for a measure of the check itself)."""
    _load_valid.cache_clear()


@functools.lru_cache(maxsize=16)
def _load_valid(text: str) -> Adventure:
    raw = parse_toml(text, LIMIT, source="tables")
    reader = _Reader(LineMap(text))
    adventure = reader.convert(Adventure, raw, "")
    if adventure is not None and not reader.told:
        _check(reader, adventure)
        _check_rooms(reader, adventure)
    if reader.told:
        raise ProcedureError("tables", reader.listed())
    assert isinstance(adventure, Adventure)
    return attrs.evolve(adventure, rooms=two_way(adventure.rooms))


def two_way(rooms: typing.Mapping[str, Room]) -> dict[str, Room]:
    """The rooms with every exit leading both ways: a room named as another's exit gets
    that one as an exit too (each in the order first named)."""
    exits = {room_id: list(room.exits) for room_id, room in rooms.items()}
    for room_id, room in rooms.items():
        for other in room.exits:
            if other in exits and room_id not in exits[other]:
                exits[other].append(room_id)
    return {
        room_id: room
        if len(room.exits) == len(exits[room_id])
        else attrs.evolve(room, exits=tuple(exits[room_id]))
        for room_id, room in rooms.items()
    }


_SHAPES: dict[str, tuple[dict[str, Any], dict[str, attrs.Attribute[Any]]]] = {}


def _shape(cls: type[Any]) -> tuple[dict[str, Any], dict[str, attrs.Attribute[Any]]]:
    """A model class's type hints and fields, read once (a file of 500 rooms converts 500)."""
    if cls.__name__ not in _SHAPES:
        fields = {field.name: field for field in attrs.fields(cls)}
        _SHAPES[cls.__name__] = (typing.get_type_hints(cls), fields)
    return _SHAPES[cls.__name__]


class _Reader(Problems):
    """Turns the parsed TOML into the models, collecting every problem with its line."""

    def convert(self, cls: type[Any], raw: object, path: str) -> Any:
        if not isinstance(raw, dict):
            self.problem(path, f"should be a table of keys, not {kind_of_value(raw)}.")
            return None
        hints, fields = _shape(cls)
        before = self.told
        values: dict[str, Any] = {}
        for key, value in raw.items():
            sub = f"{path}.{key}" if path else key
            if key not in fields:
                if self.full:  # the nearest key takes time to find: not for those left out
                    self.more += 1
                else:
                    self.problem(sub, unknown(key, set(fields), path or "the file"))
                continue
            if cls is Room and key == "exits" and isinstance(value, list):
                # A map numbers its rooms: exits = [2, 3] names rooms "2" and "3".
                value = [str(v) if type(v) is int else v for v in value]
            converted = self.value(hints[key], value, sub, fields[key].metadata.get(_MOST))
            if converted is not INVALID:
                values[key] = converted
        for name, field in fields.items():
            if field.default is attrs.NOTHING and name not in raw:
                self.problem(path, f"is missing the key '{name}'.")
        return None if self.told > before else cls(**values)

    def value(self, hint: Any, value: object, path: str, most: int | None = None) -> Any:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (types.UnionType, typing.Union):
            hint = next(arg for arg in args if arg is not type(None))
            origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is tuple:
            if not isinstance(value, list):
                self.problem(path, f"should be a list, not {kind_of_value(value)}.")
                return INVALID
            if len(value) > MAX_ROWS:
                self.problem(path, f"has {len(value)} rows; a table may have at most {MAX_ROWS}.")
                return INVALID
            items = [self.value(args[0], item, f"{path}[{i}]") for i, item in enumerate(value)]
            return INVALID if any(item is INVALID for item in items) else tuple(items)
        if origin is dict:
            if not isinstance(value, dict):
                self.problem(path, f"should be a table, not {kind_of_value(value)}.")
                return INVALID
            if most is not None and len(value) > most:
                self.problem(path, f"has {len(value)} {path}; a file may have at most {most}.")
                return INVALID
            if most is None and len(value) > MAX_AREAS:
                self.problem(path, f"has {len(value)} tables; a file may have at most {MAX_AREAS}.")
                return INVALID
            out = {key: self.value(args[1], item, f"{path}.{key}") for key, item in value.items()}
            return INVALID if any(item is INVALID for item in out.values()) else out
        if attrs.has(hint):
            found = self.convert(hint, value, path)
            return INVALID if found is None else found
        if not matches(hint, value):
            self.problem(path, f"should be {type_name(hint)}, not {kind_of_value(value)}.")
            return INVALID
        if isinstance(value, str):
            control = unseen_in(value)
            if control is not None:
                self.problem(path, f"contains a control character ({control}); use plain text.")
                return INVALID
            if len(value) > MAX_TEXT:
                self.problem(path, f"is {len(value)} characters long; at most {MAX_TEXT}.")
                return INVALID
        return value


def _check(reader: _Reader, adventure: Adventure) -> None:
    """The checks between parts: ids, references, dice, rows that cover every total."""
    problem = reader.problem
    if not ID.match(adventure.id):
        problem("id", "should be lower-case letters, digits and dashes, e.g. 'my-crypt'.")
    if not adventure.areas:
        problem("areas", "needs at least one area, e.g. [areas.level-1].")
    if adventure.start and adventure.start not in adventure.areas:
        _ref(reader, "start", adventure.start, adventure.areas, "area")
    for name, reaction in adventure.reactions.items():
        path = f"reactions.{name}"
        if not ID.match(name) or name == NO_REACTION:
            problem(path, f"'{name}' should be lower-case letters, digits and dashes (not none).")
        _cover(reader, path, reaction.dice, [row.roll for row in reaction.rows])
    for name, area in adventure.areas.items():
        path = f"areas.{name}"
        if not ID.match(name):
            problem(path, f"'{name}' should be lower-case letters, digits and dashes.")
        if area.reaction:
            _ref(reader, f"{path}.reaction", area.reaction, adventure.reactions, "reaction table")
        _cover(reader, path, area.dice, [row.roll for row in area.rows])
        for index, row in enumerate(area.rows):
            here = f"{path}.rows[{index}]"
            if not row.creature.strip():
                problem(f"{here}.creature", "should name the creature met.")
            elif len(row.creature) > MAX_CREATURE:
                problem(f"{here}.creature", f"is longer than {MAX_CREATURE} characters.")
            if row.reaction and row.reaction != NO_REACTION:
                _ref(
                    reader, f"{here}.reaction", row.reaction, adventure.reactions, "reaction table"
                )
            if row.number:
                _number(reader, f"{here}.number", row.number)


def _ref(
    reader: _Reader, path: str, name: str, options: typing.Mapping[str, Any], what: str
) -> None:
    if name not in options:
        known = ", ".join(options) or "none are defined"
        reader.problem(
            path,
            f"names the {what} '{name}', which does not exist ({known})." + suggest(name, options),
        )


def _number(reader: _Reader, path: str, text: str) -> None:
    if text.isdigit():
        if not 1 <= int(text) <= MAX_APPEARING:
            reader.problem(path, f"should be 1 to {MAX_APPEARING}, or dice such as 2d4.")
        return
    try:
        expr = dice.parse(text)
    except DiceError as error:
        reader.problem(path, error.message)
        return
    if expr.chance is not None or expr.minimum < 1:
        reader.problem(
            path, f"'{text}' is not a number appearing; write dice such as 2d4 or a number."
        )


def _cover(reader: _Reader, path: str, dice_text: str, rolls: list[str]) -> None:
    """Every total the dice can roll is covered by exactly one row."""
    try:
        expr = dice.parse(dice_text)
    except DiceError as error:
        reader.problem(f"{path}.dice", error.message)
        return
    if expr.chance is not None:
        reader.problem(
            f"{path}.dice", f"'{dice_text}' is a chance; a table rolls dice such as d6 or 2d6."
        )
        return
    if expr.maximum - expr.minimum > MAX_SPAN:
        reader.problem(
            f"{path}.dice", f"{dice_text} rolls more than {MAX_SPAN} totals; a table needs fewer."
        )
        return
    if not rolls:
        reader.problem(f"{path}.rows", "a table needs at least one row.")
        return
    covered: dict[int, int] = {}
    for index, roll in enumerate(rolls):
        here = f"{path}.rows[{index}].roll"
        span = parse_range(roll)
        if span is None:
            reader.problem(here, f"{quote(roll)} is not a range; write 3 or 2-10.")
            continue
        low, high = span
        if low < expr.minimum or high > expr.maximum:
            reader.problem(
                here,
                f"{roll} is outside what {dice_text} can roll ({expr.minimum}-{expr.maximum}).",
            )
        overlap = [
            v for v in range(max(low, expr.minimum), min(high, expr.maximum) + 1) if v in covered
        ]
        if overlap:
            reader.problem(
                here,
                f"{overlap[0]} is also covered by row {covered[overlap[0]] + 1}; ranges overlap.",
            )
        for value in range(max(low, expr.minimum), min(high, expr.maximum) + 1):
            covered.setdefault(value, index)
    missing = [v for v in range(expr.minimum, expr.maximum + 1) if v not in covered]
    if missing:
        shown = ", ".join(str(v) for v in missing[:10]) + (" …" if len(missing) > 10 else "")
        reader.problem(f"{path}.rows", f"no row covers {shown}; leave no gaps.")


def _check_rooms(reader: _Reader, adventure: Adventure) -> None:
    """The rooms' ids, labels, areas and exits, and the restocking rule."""
    problem = reader.problem
    folded: dict[str, str] = {}
    for room_id in adventure.rooms:
        if not ROOM_ID.match(room_id):
            problem(
                f"rooms.{room_id}",
                f"{quote(room_id)} is not a room id; use letters, digits, '-', '_' and '.' "
                "(at most 20), as the map numbers it: 12, B3, 4a.",
            )
        elif room_id.casefold() in folded:
            problem(f"rooms.{room_id}", f"is room {folded[room_id.casefold()]} again.")
        folded.setdefault(room_id.casefold(), room_id)
    for room_id, room in adventure.rooms.items():
        path = f"rooms.{room_id}"
        if len(room.label) > MAX_ROOM_LABEL:
            problem(f"{path}.label", f"is longer than {MAX_ROOM_LABEL} characters.")
        if room.area and room.area not in adventure.areas:
            _ref(reader, f"{path}.area", room.area, adventure.areas, "area")
        if len(room.exits) > MAX_EXITS:
            problem(
                f"{path}.exits", f"names {len(room.exits)} exits; a room has at most {MAX_EXITS}."
            )
            continue
        for index, exit_id in enumerate(room.exits):
            here = f"{path}.exits[{index}]"
            if exit_id == room_id:
                problem(here, "names the room itself; an exit leads to another room.")
            elif exit_id not in adventure.rooms:
                # The nearest id takes time to find among hundreds: not for those left out.
                hint = "" if reader.full else suggest(exit_id, adventure.rooms)
                problem(
                    here,
                    f"names the room {quote(exit_id)}, which is not a room of this file.{hint}",
                )
            elif room.exits.index(exit_id) != index:
                problem(here, f"names room {exit_id} twice.")
    if adventure.restock is not None:
        _check_restock(reader, adventure.restock)


def _check_restock(reader: _Reader, restock: Restock) -> None:
    chance_problem = restock_chance_problem(restock.chance)
    if chance_problem is not None:
        reader.problem("restock.chance", chance_problem)
    if bool(restock.dice) != bool(restock.rows):
        reader.problem(
            "restock", "gives dice and rows together (a table of what moves in), or neither."
        )
    elif restock.dice:
        _cover(reader, "restock", restock.dice, [row.roll for row in restock.rows])
    for index, row in enumerate(restock.rows):
        if not row.what.strip():
            reader.problem(f"restock.rows[{index}].what", "should say what moves in.")


def restock_chance_problem(text: str) -> str | None:
    """Why ``text`` is not a restocking chance ("1-in-6"), or None."""
    try:
        expr = dice.parse(text)
    except DiceError:
        expr = None
    if expr is None or expr.chance is None:
        return f"{quote(text)} is not a chance; write X-in-N, e.g. 1-in-6."
    return None
