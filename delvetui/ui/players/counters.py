"""The counters the players see, on the players' screen: one line, each label and value.

A procedure marks a counter ``players = true`` where the table keeps it in the open (the
countdown clock, the alarm, a doom track, the weather); ``core.players.seen_counters``
says which and how, and this part of the screen draws them under the clock, or nothing.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from delvetui.core.players import PlayersView


class SeenCounters(Static):
    """``ALARM 3 of 10 · WEATHER storm``: the counters the players see, or hidden."""

    def show(self, shown: PlayersView) -> None:
        """Draw the counters of a fresh view; hidden when the procedure shows none."""
        text = Text(justify="center")
        for index, (label, value) in enumerate(shown.counters):
            if index:
                text.append("  ·  ", "dim")
            text.append(f"{label.upper()} ", "bold")
            text.append(value)
        self.display = bool(shown.counters)
        self.update(text)
