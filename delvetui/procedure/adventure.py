"""The adventure's own tables: encounters by area, how many appear, how they react.

A procedure is a game's rules; the encounter table belongs to the dungeon. The game master
hands an expedition a small TOML file of their own tables (``tables add FILE``, or ``new
--tables FILE``) and the expedition keeps its text in an event, as it keeps its procedure's,
so it never reads the file again. This module is the format: its attrs models and the check
of its text, which treats the file as hostile: every problem at once with its key and line,
a size limit, no control characters, and no key that names a file. It reads no file itself.
"""

from __future__ import annotations

import functools
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
from delvetui.procedure.tree import OPEN_END, parse_range
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
class Adventure:
    """An adventure's own tables, loaded and checked."""

    id: str
    name: str
    areas: dict[str, Area]
    reactions: dict[str, ReactionTable] = attrs.field(factory=dict)
    #: The area in use when the tables are added (the first area when "").
    start: str = ""

    @property
    def first_area(self) -> str:
        """The area the party is in when these tables join the expedition."""
        return self.start or next(iter(self.areas))


def row_for(rows: typing.Sequence[Encounter | ReactionRow], total: int) -> int:
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
    if reader.told:
        raise ProcedureError("tables", reader.listed())
    assert isinstance(adventure, Adventure)
    return adventure


class _Reader(Problems):
    """Turns the parsed TOML into the models, collecting every problem with its line."""

    def convert(self, cls: type[Any], raw: object, path: str) -> Any:
        if not isinstance(raw, dict):
            self.problem(path, f"should be a table of keys, not {kind_of_value(raw)}.")
            return None
        hints = typing.get_type_hints(cls)
        fields = {field.name: field for field in attrs.fields(cls)}
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
            converted = self.value(hints[key], value, sub)
            if converted is not INVALID:
                values[key] = converted
        for name, field in fields.items():
            if field.default is attrs.NOTHING and name not in raw:
                self.problem(path, f"is missing the key '{name}'.")
        return None if self.told > before else cls(**values)

    def value(self, hint: Any, value: object, path: str) -> Any:
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
            if len(value) > MAX_AREAS:
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
            reader.problem(here, f"{quote(roll)} is not a range; write 3, 2-10 or 7+.")
            continue
        low, high = span
        if high == OPEN_END:
            high = max(low, expr.maximum)  # "7+": every total from 7 up
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
