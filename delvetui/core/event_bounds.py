"""The bounds every event keeps, whatever its type: no number and no text larger than a
command could have written. ``core.event_checks`` asks these of every event first."""

from __future__ import annotations

import functools
import typing
from collections.abc import Iterable

import attrs

from delvetui.core import events as ev

#: No whole number in an event is larger than this (or below its negative): a billion
#: minutes is nineteen centuries of play. Commands take at most six digits.
MAX_NUMBER = 10**9
#: The longest text one field of an event holds. What commands write comes from a command
#: line (at most 2,000 characters) or from the procedure, whose every text is at most
#: ``loader.MAX_TEXT`` (10,000) and which a field joins a few of at most. The procedure
#: and tables files an event carries whole have their own bounds (256 KB and 64 KB).
MAX_EVENT_TEXT = 40_000
#: The fields that carry a whole file's text, bounded as those files are.
_WHOLE_FILES = frozenset({("ProcedureChanged", "text"), ("TablesAdded", "text")})


def shown(value: int) -> str:
    """A number as a message shows it: a huge one by its count of digits."""
    text = (
        str(value)
        if abs(value) < 10**30
        else f"{'-' if value < 0 else ''}a {len(str(abs(value)))}-digit number"
    )
    return text


def every_number(event: ev.Event) -> str | None:
    """Any whole number of the event beyond MAX_NUMBER (seeds have their own bound)."""
    for field in _fields(event.type, "int"):
        value = getattr(event, field)
        numbers: Iterable[object]
        if isinstance(value, tuple):
            # A tuple of numbers (faces), or of name and number pairs (abilities).
            numbers = [v[1] if isinstance(v, tuple) and len(v) == 2 else v for v in value]
        elif isinstance(value, dict):
            numbers = value.values()
        else:
            numbers = (value,)
        for number in numbers:
            if (
                isinstance(number, int)
                and not isinstance(number, bool)
                and abs(number) > MAX_NUMBER
            ):
                return f"{field} is {shown(number)}, beyond the ±{MAX_NUMBER:,} any count can be"
    return None


def every_text(event: ev.Event) -> str | None:
    """Any text of the event longer than a command could have written."""
    for field in _fields(event.type, "str"):
        value = getattr(event, field)
        texts = value if isinstance(value, tuple) else (value,)
        for text in texts:
            if isinstance(text, tuple):  # (name, number) pairs: the name
                text = text[0] if text else ""
            if isinstance(text, str) and len(text) > MAX_EVENT_TEXT:
                return (
                    f"its {field} is {len(text):,} characters long; no command writes more "
                    f"than {MAX_EVENT_TEXT:,} in one field"
                )
    return None


@functools.cache
def _fields(type_name: str, kind: str) -> tuple[str, ...]:
    """The fields of an event type whose declared type holds ``kind`` ("int" or "str"),
    less those bounded on their own: the seed, and a whole file's text."""
    event_type = ev.EVENT_TYPES[type_name]
    hints = typing.get_type_hints(event_type)
    return tuple(
        field.name
        for field in attrs.fields(event_type)
        if kind in str(hints[field.name])
        and field.name != "seed"
        and (type_name, field.name) not in _WHOLE_FILES
    )
