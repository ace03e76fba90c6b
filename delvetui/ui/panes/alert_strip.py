"""The alert strip: one line under the header for what needs the game master now.

What needs attention, and how loud it is, is the core's (``core/alerts.py``); the strip
draws the alerts side by side, in fewer words where the line is too narrow, and takes the
error colour in the dark.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text

from delvetui.core.alerts import Alert, alerts
from delvetui.core.member_light import party_level
from delvetui.core.state import State
from delvetui.text import visible
from delvetui.ui.panes.pane import Pane


class AlertStrip(Pane):
    """Always one line: the alerts, or that nothing needs attention."""

    PREFIX = "alert-strip"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "alert-strip--dark",
        "alert-strip--danger",
        "alert-strip--warning",
        "alert-strip--muted",
    }

    def current(self) -> list[Alert]:
        """The alerts shown now."""
        return alerts(self.state, self.procedure)

    def watch_state(self, state: State) -> None:
        """In the dark the whole strip takes the error colour."""
        self.set_class(party_level(state, self.procedure) == "dark", "-dark")

    def render(self) -> RenderableType:
        """The alerts side by side, the loudest first; in fewer words when they would not
        fit the strip's width (80 columns hold the darkness's flags, not its whole text)."""
        found = self.current()
        text = Text(no_wrap=True, overflow="ellipsis")
        if not found:
            text.append(" Nothing needs attention.", self._style("muted"))
            return text
        words = [alert.text for alert in found]
        if self.size.width and _width(words) > self.size.width:
            words = [
                alert.short if alert.short and len(alert.short) < len(alert.text) else alert.text
                for alert in found
            ]
        for index, (alert, said) in enumerate(zip(found, words, strict=True)):
            if index:
                text.append("  ")
            text.append(f" {visible(said)} ", self._style(alert.level))
        return text

    def shown(self) -> str:
        """The strip's words as they are drawn now (for tests and a reader)."""
        rendered = self.render()
        return rendered.plain if isinstance(rendered, Text) else str(rendered)


def _width(words: list[str]) -> int:
    """The columns the alerts take side by side: each padded by a space, two between."""
    return sum(len(visible(said)) + 2 for said in words) + 2 * (len(words) - 1)
