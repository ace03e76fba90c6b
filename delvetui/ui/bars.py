"""Drawing helpers shared by the panes: bars and gauges made of block characters."""

from __future__ import annotations

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
