"""Drawing helpers shared by the panes and the dialogs: bars and gauges made of block
characters, and a table row's range of rolls."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

FULL = "█"
EMPTY = "░"


def bar(value: int, total: int, width: int) -> str:
    """A bar ``width`` cells wide, filled in proportion to value/total (never empty above 0)."""
    width = max(1, width)
    if total <= 0:
        return EMPTY * width
    value = max(0, min(value, total))
    filled = round(width * value / total)
    if value > 0 and filled == 0:
        filled = 1
    return FULL * filled + EMPTY * (width - filled)


def plural(count: int, word: str) -> str:
    """'1 turn', '3 turns'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def roll_text(low: int, high: int) -> str:
    """'3' or '4-6'."""
    return str(low) if low == high else f"{low}-{high}"


def wrapped(console: Console, text: Text, width: int) -> list[Text]:
    """The text in lines of at most ``width`` cells, broken between words (a word longer
    than a line is broken inside it), each line without the spaces it ended in."""
    lines = list(text.wrap(console, max(1, width), justify="left", overflow="fold"))
    for line in lines:
        line.rstrip()
    return lines
