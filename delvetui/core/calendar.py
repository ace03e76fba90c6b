"""Dates: the day count read in the world's calendar ("3rd of Greenmist, day 41").

The clock counts minutes since day 1 began, and days number on across a campaign. A
calendar (``[calendar]`` in the procedure, or one named for the expedition and kept in
its ``CalendarSet`` event) says which date day 1 is and how the months and the week run;
the years roll over. Without one a date is plain "day N". Every screen and export asks
``date_for`` (or ``moment_for``), so a date reads the same everywhere.
"""

from __future__ import annotations

import functools
import re

import attrs

from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.errors import ProcedureError
from delvetui.procedure import calendar as calendar_file
from delvetui.procedure.model import Calendar, Procedure
from delvetui.text import counted

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@attrs.frozen
class Date:
    """A day as the calendar names it: the year (counted from day 1's, which is 0), the
    month (its index), the day of the month (from 1) and the week-day (its index, or None
    in a calendar without a week)."""

    year: int
    month: int
    number: int
    weekday: int | None


def _first(calendar: Calendar) -> int:
    """Day 1's place in its year: the days of the year before it."""
    month = calendar_file.first_month(calendar) or 0
    return sum(calendar.lengths()[:month]) + calendar.start_day - 1


def date_of(calendar: Calendar, day: int) -> Date:
    """The date of day ``day`` (day 1 is the calendar's start)."""
    lengths = calendar.lengths()
    year, left = divmod(day - 1 + _first(calendar), sum(lengths))
    month = 0
    while left >= lengths[month]:
        left -= lengths[month]
        month += 1
    weekday = None
    if calendar.week:
        start = calendar.week.index(calendar.start_weekday) if calendar.start_weekday else 0
        weekday = (start + day - 1) % len(calendar.week)
    return Date(year=year, month=month, number=left + 1, weekday=weekday)


def day_of(calendar: Calendar, date: Date) -> int:
    """The day count of a date: ``date_of``'s inverse."""
    lengths = calendar.lengths()
    inside = sum(lengths[: date.month]) + date.number - 1
    return date.year * sum(lengths) + inside - _first(calendar) + 1


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    return f"{number}{suffix or 'th'}"


def _reads(calendar: Calendar) -> str:
    """How a date reads: the calendar's own words, else the usual ones it can fill."""
    if calendar.reads:
        return calendar.reads
    weekday = "{weekday} " if calendar.week else ""
    year = " {year}" if calendar.start_year is not None else ""
    return f"{weekday}{{ordinal}} of {{month}}{year}, day {{day}}"


def date_words(calendar: Calendar | None, day: int) -> str:
    """Day ``day`` in words: "3rd of Greenmist, day 41" ("Moonday 3rd of Greenmist, day
    41" with a week, "3rd of Greenmist 1042, day 41" with a year); "day 41" without a
    calendar."""
    if calendar is None:
        return f"day {day}"
    date = date_of(calendar, day)
    parts = {
        "weekday": "" if date.weekday is None else calendar.week[date.weekday],
        "ordinal": ordinal(date.number),
        "number": str(date.number),
        "month": calendar.months[date.month],
        "year": str(date.year + (calendar.start_year or 0)),
        "day": str(day),
    }
    return _PLACEHOLDER.sub(
        lambda found: parts.get(found.group(1), found.group()), _reads(calendar)
    )


def moment(calendar: Calendar | None, clock: int) -> str:
    """A moment in words: "3rd of Greenmist, day 41, 08:00"; "day 41, 08:00" without a
    calendar (as the log writes a time)."""
    minute = clock % MINUTES_PER_DAY
    day = clock // MINUTES_PER_DAY + 1
    return f"{date_words(calendar, day)}, {minute // 60:02d}:{minute % 60:02d}"


def in_force(state: State, procedure: Procedure) -> Calendar | None:
    """The calendar an expedition keeps: its own (``CalendarSet``), else its procedure's,
    else none."""
    if state.calendar:
        return _own(state.calendar) or procedure.calendar
    return procedure.calendar


@functools.lru_cache(maxsize=8)
def _own(text: str) -> Calendar | None:
    """An expedition's own calendar, read once however often a date is asked for (each
    paint of the header, each part of an export)."""
    try:
        return calendar_file.load_text(text)
    except ProcedureError:
        # Never stored so (event_checks refuses it on import): the procedure's stands.
        return None


def date_for(state: State, procedure: Procedure) -> str:
    """Today's date in the expedition's calendar: "3rd of Greenmist, day 41" or "day 41"."""
    return date_words(in_force(state, procedure), state.day)


def moment_for(state: State, procedure: Procedure, clock: int | None = None) -> str:
    """A moment (now, or ``clock``) in the expedition's calendar, with its time."""
    return moment(in_force(state, procedure), state.clock if clock is None else clock)


def text_problem(text: str) -> str | None:
    """Why a calendar's text could not have been named for an expedition, or None."""
    try:
        calendar_file.load_text(text)
    except ProcedureError as error:
        return f"its calendar does not load ({error})"
    return None


def set_words(text: str) -> str:
    """The log's words for a calendar named for the expedition."""
    try:
        named = calendar_file.load_text(text)
    except ProcedureError:
        return "The expedition keeps a calendar of its own."
    months = named.months
    span = months[0] if len(months) == 1 else f"{months[0]} to {months[-1]}"
    return f"The expedition keeps a calendar of its own: {counted(len(months), 'month')} ({span})."
