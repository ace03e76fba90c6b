"""A table's rows as they are printed, and an adventure's tables written back as TOML.

A wandering-monster table in a book or a blog gives each row as the faces of its die, how
many appear and the creature: ``4-6 1d3 skeletons, in rusted mail``. This module reads one
such row (``read_row``: its faces, its number appearing, the creature and the words after
it), each problem a sentence (``Unread``), and writes an adventure's tables as the TOML of
docs/procedures.md 3.23 (``adventure_toml``). It is pure and reads no file:
``procedure.pasted`` reads a whole pasted table with it, and the core a row typed at the
table (``tables row``).

Every number is read from at most four digits, so none is larger than 9999 and none costs
more than a glance; every text is bounded by the tables file's own limits.
"""

from __future__ import annotations

import math
import re
from typing import Any

import attrs

from delvetui import dice
from delvetui.errors import DiceError
from delvetui.procedure.adventure import MAX_APPEARING, MAX_CREATURE, MAX_TEXT, Adventure
from delvetui.text import quote

#: The words a range is written with between its faces: 4-6, 4–6, 4 to 6, 4 through 6.
_BETWEEN = r"(?:-|–|—|‒|−|to|through|thru)"
#: A row's faces: 3, 2-4, 2 to 4, 11+ (from 11 to the die's highest), 96-00 (00 is 100);
#: a number of more than four digits is read as 10,000, past every die.
_RANGE = re.compile(rf"([0-9]+)(?:\s*{_BETWEEN}\s*([0-9]+)|\s*(\+))?", re.IGNORECASE)
#: A word that is meant as dice (d6, 1d8, 2d4+1, d%), even a wrong one (d0, 2d, d6x).
_DICE_LIKE = re.compile(r"[0-9]{0,3}[dD][0-9%dDxX+\-.,]{0,8}")
#: A number appearing written as a range of totals (B/X's 2-8): not dice.
_COUNT_RANGE = re.compile(rf"([0-9]{{1,4}})\s*{_BETWEEN}\s*([0-9]{{1,4}})", re.IGNORECASE)
#: Where a row's creature ends and its words begin: a comma, a semicolon, a colon, a dash
#: with spaces round it, or an opening bracket (searched in words a single space apart).
_AFTER_CREATURE = re.compile(r" ?[,;:] | [-–—] | \(| ?[,;:]$")
#: A whole number as printed: ASCII digits only (never another script's, nor ²).
_DIGITS = re.compile(r"[0-9]+")


class Unread(ValueError):
    """A row (or a word of one) that cannot be read: ``sentence`` says why and what to write."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


@attrs.frozen
class Faces:
    """The faces a row covers: ``high`` is None for "11+" (up to the die's highest)."""

    low: int
    high: int | None

    def within(self, highest: int) -> tuple[int, int]:
        """The faces as a closed range, an open one ending at the die's highest face."""
        return self.low, highest if self.high is None else self.high


@attrs.frozen
class Entry:
    """What a row gives: how many appear ("" when it does not say), the creature, its words."""

    number: str
    creature: str
    text: str = ""


@attrs.frozen
class Row:
    """One printed row: its faces and what it gives."""

    faces: Faces
    entry: Entry


def _face(digits: str) -> int:
    # "00" is the hundred of a d100 (percentile dice), as tables print it; a number of more
    # than four digits is no die's face (and never read: 9999 is past every die).
    return 100 if digits == "00" else int(digits) if len(digits) <= 4 else 10_000


def read_faces(text: str) -> Faces:
    """A row's faces as printed: "3", "2-4", "2 to 4", "11+", "96-00"."""
    found = _RANGE.fullmatch(text.strip())
    if found is None:
        raise Unread(f"{quote(text.strip())} is not a range of the die's faces; write 3 or 2-4.")
    low = _face(found.group(1))
    if found.group(3):
        return Faces(low, None)
    high = _face(found.group(2)) if found.group(2) else low
    if high < low:
        raise Unread(
            f"{quote(text.strip())} runs backwards; write the lower face first ({high}-{low})."
        )
    return Faces(low, high)


def range_text(low: int, high: int) -> str:
    """Faces as the tables format writes them: "3" or "2-4"."""
    return str(low) if low == high else f"{low}-{high}"


def dice_like(word: str) -> bool:
    """Whether a word is meant as dice (d6, 2d4+1, d%), even one written wrong (d0, 2d)."""
    return _DICE_LIKE.fullmatch(word) is not None and any(c in "0123456789%" for c in word)


def table_dice(word: str) -> dice.DiceExpr:
    """A table's die as printed (d6, 1d8, 2d6, d%), checked: Unread when it is not a die."""
    try:
        expr = dice.parse(word)
    except DiceError as error:
        raise Unread(f"{error.message} Name the table's die as d6, 2d6 or d100.") from None
    if expr.chance is not None:
        raise Unread(f"{quote(word)} is a chance, not a table's die; write d6, 2d6 or d100.")
    return expr


def read_count(word: str) -> str:
    """A number appearing as printed (3, 2d4, 1d6+2), as the tables format keeps it."""
    if _DIGITS.fullmatch(word):
        if len(word) > 4 or not 1 <= int(word) <= MAX_APPEARING:
            raise Unread(
                f"{quote(word)} appearing: write 1 to {MAX_APPEARING}, or dice such as 2d4."
            )
        return str(int(word))
    ranged = _COUNT_RANGE.fullmatch(word)
    if ranged is not None:
        low, high = int(ranged.group(1)), int(ranged.group(2))
        hint = dice_for(low, high)
        said = f"write the dice that roll it ({hint})" if hint else "write dice such as 1d6+1"
        raise Unread(f"{quote(word)} is a range, not dice: {said}.")
    try:
        expr = dice.parse(word)
    except DiceError as error:
        raise Unread(f"{error.message} Write the number appearing as 2d4, or 3.") from None
    if expr.chance is not None or expr.minimum < 1 or expr.maximum > MAX_APPEARING:
        raise Unread(
            f"{quote(word)} is not a number appearing (it can roll {expr.minimum} to "
            f"{expr.maximum}); write dice that roll 1 to {MAX_APPEARING}, such as 2d4."
        )
    return word.lower().replace("d%", "d100")


def dice_for(low: int, high: int) -> str:
    """The dice that roll exactly low to high (2-8: 2d4), or "" when there are none."""
    if low >= 1 and high > low and high % low == 0 and high // low >= 2:
        return f"{low}d{high // low}"
    return ""


def _is_count(word: str) -> bool:
    return bool(_DIGITS.fullmatch(word) or dice_like(word) or _COUNT_RANGE.fullmatch(word))


def _trailing_count(rest: str) -> tuple[str, str] | None:
    """A number appearing printed after the creature ("Goblins (2d4)", "Goblins 2d4"): the
    dice and the words before them, or None."""
    if rest.endswith(")"):
        start = rest.rfind("(")
        inside = rest[start + 1 : -1].strip()
        if start >= 0 and dice_like(inside):
            return inside, rest[:start]
    before, _, last = rest.rpartition(" ")
    return (last, before) if before and dice_like(last) else None


def read_entry(text: str, faces: str = "") -> Entry:
    """What a row gives, as printed after its faces: "2d4 goblins", "Goblins (2d4)",
    "1d6 giant rats, because rats get everywhere", "The wizard from area H"."""
    # Every run of spaces as one: the searches below then cost one pass over the words.
    rest = " ".join(text.split())
    words = rest.split(" ", 1)
    number = ""
    if words and _is_count(words[0]):
        number = read_count(words[0])
        rest = words[1] if len(words) > 1 else ""
    else:
        trailing = _trailing_count(rest)
        if trailing is not None:
            number, rest = read_count(trailing[0]), trailing[1]
    cut = _AFTER_CREATURE.search(rest)
    creature, words_after = (rest, "") if cut is None else (rest[: cut.start()], rest[cut.end() :])
    if cut is not None and cut.group().strip() == "(":
        words_after = "(" + words_after
    creature, words_after = creature.strip(), words_after.strip()
    row = f"the row {faces}" if faces else "the row"
    if not creature:
        raise Unread(f"{row} names no creature; write it after the number appearing.")
    if len(creature) > MAX_CREATURE:
        raise Unread(
            f"{row} names a creature of {len(creature)} characters (at most {MAX_CREATURE}); "
            "put a comma after its name, and what follows becomes the row's words."
        )
    if len(words_after) > MAX_TEXT:
        raise Unread(f"{row} has {len(words_after)} characters of words; at most {MAX_TEXT}.")
    return Entry(number, creature, words_after)


_ROW = re.compile(
    rf"(?P<faces>[0-9]+(?:\s*{_BETWEEN}\s*[0-9]+|\s*\+)?)"
    r"(?:(?:\s*[:.)\]|]\s*|\s*[-–—](?:\s+|(?=[^\W\d_]))|\s+)(?P<rest>.*))?",
    re.IGNORECASE,
)


def row_match(line: str) -> re.Match[str] | None:
    """The faces and the rest of a line that is a row ("4-6 1d3 skeletons"), or None."""
    return _ROW.fullmatch(line)


def read_row(line: str) -> Row:
    """One row as printed, faces first: "4-6 1d3 skeletons, in rusted mail"."""
    found = row_match(" ".join(line.split()))
    if found is None:
        raise Unread(
            f"{quote(line.strip())} is not a row: write its faces, how many and the "
            "creature, as 4-6 1d3 skeletons."
        )
    faces = read_faces(found.group("faces"))
    return Row(faces, read_entry(found.group("rest") or "", found.group("faces").strip()))


# The adventure's tables as TOML -------------------------------------------------------------


def adventure_toml(adventure: Adventure) -> str:
    """The tables as the TOML a game master keeps and edits (docs/procedures.md 3.23): each
    key the format has, its default left out, one row a line; ``adventure.load_text`` reads
    it back to the same tables."""
    out = _keys(adventure)
    for field in attrs.fields(type(adventure)):
        value = getattr(adventure, field.name)
        if isinstance(value, dict):
            for name, table in value.items():
                out += ["", f"[{field.name}.{_key(name)}]", *_keys(table)]
        elif attrs.has(type(value)):
            out += ["", f"[{field.name}]", *_keys(value)]
    return "\n".join(out) + "\n"


def _keys(item: Any) -> list[str]:
    """An object's keys, one a line: its plain values, then each list of rows."""
    lines: list[str] = []
    lists: list[str] = []
    for field, value in _set_fields(item):
        if isinstance(value, tuple) and not all(attrs.has(type(row)) for row in value):
            lines.append(f"{field} = [{', '.join(_value(one) for one in value)}]")
        elif isinstance(value, tuple):
            lists.append(f"{field} = [")
            lists += [f"  {{ {_inline(row)} }}," for row in value]
            lists.append("]")
        elif not isinstance(value, dict) and not attrs.has(type(value)):
            lines.append(f"{field} = {_value(value)}")
    return lines + lists


def _inline(row: Any) -> str:
    return ", ".join(f"{field} = {_value(value)}" for field, value in _set_fields(row))


def _set_fields(item: Any) -> list[tuple[str, Any]]:
    """The fields of an attrs object that are not their default (the required ones always)."""
    found: list[tuple[str, Any]] = []
    for field in attrs.fields(type(item)):
        value = getattr(item, field.name)
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        if default is attrs.NOTHING or value != default:
            found.append((field.name, value))
    return found


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(name: str) -> str:
    return name if _BARE.fullmatch(name) else _string(name)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} cannot be written to a tables file")
        return repr(value)
    return _string(str(value))


def _string(text: str) -> str:
    """A TOML basic string: quotes and backslashes escaped, every control as \\uXXXX."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = re.sub(r"[\x00-\x1f\x7f]", lambda found: f"\\u{ord(found.group()):04x}", escaped)
    return f'"{escaped}"'
