"""The check of a calendar (``[calendar]``), in a procedure or a file of its own.

A procedure's ``[calendar]`` is read by the loader with the rest of the file and then
checked here; a calendar named for one expedition (``delvetui new --calendar FILE``, kept in
the ``CalendarSet`` event) is a file holding only a ``[calendar]`` table, read and checked
here with the same words, so either way every problem is told with its key and line.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from delvetui.errors import ProcedureError
from delvetui.procedure.model import Calendar
from delvetui.procedure.reading import (
    INVALID,
    Limit,
    LineMap,
    Problems,
    kind_of_value,
    matches,
    parse_toml,
    type_name,
    unknown,
)
from delvetui.text import suggest, unseen_in

#: A calendar file larger than this is refused before it is parsed: a hundred months and
#: a hundred week-days with long names and comments fit many times over.
MAX_FILE_BYTES = 16_000
LIMIT = Limit(MAX_FILE_BYTES, "a calendar file may be at most 16 KB")
#: The most months a year and days a week may have (days a month, and the year of day 1,
#: are bounded as every number is: ``procedure.bounds``, in the model).
MOST_NAMES = 100
#: The longest name of a month or a week-day.
LONGEST_NAME = 40
#: The longest a date's words (``reads``) may be written.
LONGEST_READS = 200
#: What a date's words (``reads``) may name.
PLACEHOLDERS = ("weekday", "ordinal", "number", "month", "year", "day")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

#: Reports one problem at a key path.
Report = Callable[[str, str], None]


def check(report: Report, calendar: Calendar, path: str = "calendar") -> None:
    """Report every problem of a converted calendar, each at its key path."""
    _names(report, f"{path}.months", calendar.months, "month", need=True)
    _names(report, f"{path}.week", calendar.week, "week-day", need=False)
    lengths = calendar.lengths()
    if isinstance(calendar.days, tuple) and len(calendar.days) != len(calendar.months):
        report(
            f"{path}.days",
            f"gives {len(calendar.days)} numbers for {len(calendar.months)} months; give one "
            "a month, or one number for every month.",
        )
    month = first_month(calendar)
    if month is None:
        report(
            f"{path}.start_month",
            f"'{calendar.start_month}' is not one of the months."
            + suggest(calendar.start_month, calendar.months),
        )
    elif month < len(lengths) and not 1 <= calendar.start_day <= lengths[month]:
        report(f"{path}.start_day", f"should be 1 to {lengths[month]}, a day of the month.")
    if calendar.start_weekday and calendar.start_weekday not in calendar.week:
        known = ", ".join(calendar.week) or "the calendar has no week"
        report(
            f"{path}.start_weekday",
            f"'{calendar.start_weekday}' is not a week-day ({known})."
            + suggest(calendar.start_weekday, calendar.week),
        )
    _reads(report, f"{path}.reads", calendar)


def first_month(calendar: Calendar) -> int | None:
    """The index of day 1's month (0 when none is named), None when it names none there is."""
    if not calendar.start_month:
        return 0
    if calendar.start_month in calendar.months:
        return calendar.months.index(calendar.start_month)
    return None


def _names(report: Report, path: str, names: tuple[str, ...], what: str, *, need: bool) -> None:
    if need and not names:
        report(path, f"needs at least one {what}, e.g. ['Thaw', 'Greenmist'].")
    if len(names) > MOST_NAMES:
        report(path, f"names {len(names)}; a calendar has at most {MOST_NAMES}.")
    for index, name in enumerate(names):
        if not name.strip() or len(name) > LONGEST_NAME or _off_the_line(name):
            report(
                f"{path}[{index}]",
                f"should be a {what}'s name of 1 to {LONGEST_NAME} letters on one line.",
            )
        elif name in names[:index]:
            report(f"{path}[{index}]", f"'{name}' is named twice; each {what} once.")


def _reads(report: Report, path: str, calendar: Calendar) -> None:
    for name in _PLACEHOLDER.findall(calendar.reads):
        if name not in PLACEHOLDERS:
            report(
                path,
                f"'{{{name}}}' is not a part of a date; use {', '.join(PLACEHOLDERS)}."
                + suggest(name, PLACEHOLDERS),
            )
        elif name == "weekday" and not calendar.week:
            report(path, "names {weekday} but the calendar has no week; give week.")
        elif name == "year" and calendar.start_year is None:
            report(path, "names {year} but the calendar has no year; give start_year.")
    if calendar.reads and not calendar.reads.strip():
        report(path, "is blank; leave it out for the usual words.")
    elif _off_the_line(calendar.reads):
        report(path, "should be one line: a date is shown on one.")
    elif len(calendar.reads) > LONGEST_READS:
        report(path, f"is longer than {LONGEST_READS} characters; a date reads in a line.")


def _off_the_line(text: str) -> bool:
    """A tab or a line break: a date is shown on one line of the header."""
    return "\t" in text or "\n" in text


def load_text(text: str, *, source: str = "the calendar") -> Calendar:
    """A calendar file's text (one ``[calendar]`` table) as a Calendar; ProcedureError
    naming ``source`` with every problem, each with its key and line."""
    try:
        return _load_valid(text)
    except ProcedureError as error:
        raise ProcedureError(source, error.problems) from None


@functools.lru_cache(maxsize=8)
def _load_valid(text: str) -> Calendar:
    raw = parse_toml(text, LIMIT, source="calendar")
    reader = _Reader(LineMap(text))
    for key in raw:
        if key != "calendar":
            reader.problem(key, f"'{key}' is not for a calendar file, which holds [calendar].")
    found = None
    if "calendar" in raw:
        found = reader.convert(raw["calendar"], "calendar")
    elif not reader.told:
        reader.problem("", "has no [calendar] table; write [calendar] and its months.")
    if found is not None and not reader.told:
        check(reader.problem, found)
    if reader.told:
        raise ProcedureError("calendar", reader.listed())
    assert found is not None
    return found


class _Reader(Problems):
    """Turns the parsed ``[calendar]`` into a Calendar with the loader's words."""

    def convert(self, raw: object, path: str) -> Calendar | None:
        if not isinstance(raw, dict):
            self.problem(path, f"should be a table of keys, not {kind_of_value(raw)}.")
            return None
        hints = typing.get_type_hints(Calendar)
        fields = {field.name: field for field in attrs.fields(Calendar)}
        before = self.told
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in fields:
                self.problem(f"{path}.{key}", unknown(key, set(fields), path))
                continue
            if self.out_of_range(fields[key].metadata, value, f"{path}.{key}"):
                continue
            converted = self.value(hints[key], value, f"{path}.{key}")
            if converted is not INVALID:
                values[key] = converted
        for name, field in fields.items():
            if field.default is attrs.NOTHING and name not in raw:
                self.problem(path, f"is missing the key '{name}'.")
        return None if self.told > before else Calendar(**values)

    def value(self, hint: Any, value: object, path: str) -> Any:
        if typing.get_origin(hint) in (types.UnionType, typing.Union):
            options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
            for option in options:
                if matches(option, value):
                    return self.value(option, value, path)
            names = " or ".join(type_name(option) for option in options)
            self.problem(path, f"should be {names}, not {kind_of_value(value)}.")
            return INVALID
        if typing.get_origin(hint) is tuple:
            if not isinstance(value, list):
                self.problem(path, f"should be a list, not {kind_of_value(value)}.")
                return INVALID
            item = typing.get_args(hint)[0]
            items = [self.value(item, each, f"{path}[{i}]") for i, each in enumerate(value)]
            return INVALID if any(each is INVALID for each in items) else tuple(items)
        if not matches(hint, value):
            self.problem(path, f"should be {type_name(hint)}, not {kind_of_value(value)}.")
            return INVALID
        control = unseen_in(value, allow="\t\n") if isinstance(value, str) else None
        if control is not None:
            self.problem(path, f"contains a control character ({control}); use plain text.")
            return INVALID
        return value
