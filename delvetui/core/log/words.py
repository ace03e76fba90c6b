"""What the words of every event share: the dispatch on the event's class, the kind of line,
and the few ways of saying a thing many events use (a clock time, a span, a reason).

Each family's module (``party``, ``lights``...) registers the words of each of its event
types with ``@words.register``; a bookkeeping event the log never gives a line is
registered with ``silent`` and a comment saying where what it did shows instead.
``delvetui.core.log`` imports them all.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Literal

from delvetui.core import events as ev
from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.procedure.model import Procedure
from delvetui.text import counted

Kind = Literal[
    "turn", "roll", "result", "encounter", "sign", "note", "light", "party", "session",
    "undo", "info", "check", "alarm", "time", "fight",
]  # fmt: skip
#: An event's line of the log, (its kind, its words), or None to leave it out.
Said = tuple[Kind, str] | None


@singledispatch
def words(event: ev.Event, procedure: Procedure, state: State) -> Said:
    """One event in plain words, given the state just before it: each event type registers
    its own (one with none would be named by its class)."""
    return "info", type(event).__name__


def silent(event: ev.Event, procedure: Procedure, state: State) -> Said:
    """The words of a bookkeeping event: none, since what it did shows elsewhere."""
    return None


def clock_text(clock: int) -> str:
    """Minutes since day 1 began as 'day N, HH:MM'."""
    day = clock // MINUTES_PER_DAY + 1
    minute = clock % MINUTES_PER_DAY
    return f"day {day}, {minute // 60:02d}:{minute % 60:02d}"


def span_text(minutes: int) -> str:
    """A span of in-world time in words: '7 days', '1 day and 12 hours', '0 hours'."""
    days, rest = divmod(minutes, MINUTES_PER_DAY)
    hours, minutes = divmod(rest, 60)
    parts = [counted(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"))]
    said = [part for part, n in zip(parts, (days, hours, minutes), strict=True) if n]
    if not said:
        return "no time"
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def why(reason: str) -> str:
    """A reason after what happened: in brackets, or after a dash when it has its own."""
    if not reason:
        return ""
    return f" — {reason}" if "(" in reason else f" ({reason})"


def sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."
