"""The range of every number a procedure or a calendar may hold, and the check of it.

Each numeric key of the format declares its range beside its type, in its field's metadata
(``bound(1, 40_320, "minutes")``); ``docs/procedures.md`` writes the same words in the
key's row (``tests/test_docs_procedures.py`` keeps them one). The readers of a file
(``procedure.loader``, ``procedure.calendar``) ask ``problems`` of each key's value before
they convert it, so a number that is not finite (``nan``, ``inf``), or is outside its key's
range (``1e308`` hours, ``99999999999`` minutes, a negative count), is a problem with its
key, its line and the range, and never reaches the game.

The ranges are far above what a game needs and far below what the expedition file can
hold: a whole number an event keeps is at most ±1,000,000,000 (``core.event_bounds``), and
twenty turns with any one key at the top of its range stay within it (a longer game that
goes past it has that command refused: ``session``). Nothing here imports anything of
delvetui, so the model may use it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

#: The largest count a game keeps: a counter, a track, a resource, hit points, a threshold
#: (what a command may type: six digits).
COUNT = 999_999
#: The largest amount one effect gives or takes (damage, healing, what a counter gains).
AMOUNT = 10_000
#: The most turns a duration or an interval may be (a light, a condition, every N turns).
TURNS = 10_000
#: The most turns one action takes.
ACTION_TURNS = 100
#: A year, in minutes and in hours: the longest a light burns or a duration runs.
YEAR_MINUTES = 365 * 24 * 60
YEAR_HOURS = 365 * 24
#: The longest turn, in minutes: a year (a season of downtime is a turn of some games).
TURN_MINUTES = YEAR_MINUTES
#: The farthest distance one turn covers, in the procedure's unit.
DISTANCE = 1_000_000
#: The largest flat modifier a level or a condition adds to a check (as a DC's range).
MODIFIER = 1_000

#: The key of a field's metadata that holds its range.
KEY = "bound"


@attrs.frozen
class Bound:
    """The numbers one key may hold: ``least`` to ``most`` (``least`` itself excluded when
    ``above``), in ``unit`` when the key has one."""

    least: float
    most: float
    unit: str = ""
    above: bool = False

    def words(self) -> str:
        """The range as the docs and the problems say it: '1 to 40,320 minutes'."""
        unit = f" {self.unit}" if self.unit else ""
        if self.above:
            return f"more than {_number(self.least)}, at most {_number(self.most)}{unit}"
        return f"{_number(self.least)} to {_number(self.most)}{unit}"

    def problem(self, value: float) -> str | None:
        """What is wrong with a number for this key, or None when it is in range."""
        if isinstance(value, float) and math.isnan(value):
            return f"is nan, which is not a number; give a number from {self.words()}."
        if isinstance(value, float) and math.isinf(value):
            return f"is infinite ({value}); give a number from {self.words()}."
        low = value <= self.least if self.above else value < self.least
        if low or value > self.most:
            return f"is {_shown(value)}; it should be {self.words()}."
        return None


def bound(least: float, most: float, unit: str = "", *, above: bool = False) -> dict[str, Any]:
    """Field metadata declaring a key's range (merged with its help: ``{**help, **bound}``)."""
    return {KEY: Bound(least, most, unit, above)}


def of(metadata: Mapping[str, Any]) -> Bound | None:
    """The range a field's metadata declares, if any."""
    found = metadata.get(KEY)
    return found if isinstance(found, Bound) else None


def problems(value: object, found: Bound, path: str) -> Iterator[tuple[str, str]]:
    """Each number in a key's value outside its range, with the key path it is at: the
    value itself, each item of a list, or each value of a table (``distance.fast``).
    Anything that is not a number is left to the key's type check."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        said = found.problem(value)
        if said is not None:
            yield path, said
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from problems(item, found, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from problems(item, found, f"{path}.{key}")


def _number(value: float) -> str:
    """A bound as the docs write it: '40,320', '-999,999', '0.5'."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:g}"


def _shown(value: float) -> str:
    """A number as a problem quotes it: a huge whole number by its count of digits."""
    if isinstance(value, int) and abs(value) >= 10**15:
        sign = "-" if value < 0 else ""
        return f"{sign}a {math.floor(math.log10(abs(value))) + 1}-digit number"
    if isinstance(value, float):
        return f"{value:g}"
    return f"{value:,}"
