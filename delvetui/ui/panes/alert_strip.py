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

#: The room an alert needs on the line to be begun there, cut, rather than counted.
LEAST_SHOWN = 24


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
        """The alerts side by side, the loudest first, each whole: in fewer words where they
        would not fit the strip's width (80 columns hold the darkness's flags, not its whole
        text), then darkness in two words where others follow it, then the last ones
        counted ("+2 more"); a lone alert too long for the line ends in an ellipsis."""
        found = self.current()
        text = Text(no_wrap=True, overflow="ellipsis")
        if not found:
            text.append(" Nothing needs attention.", self._style("muted"))
            return text
        width = self.size.width or 10_000
        words = [alert.text for alert in found]
        tiers = (shorter, tightest) if len(found) > 1 else (shorter,)
        for tier in tiers:
            if _width(words) <= width:
                break
            words = [tier(alert, said) for alert, said in zip(found, words, strict=True)]
        shown = len(found)
        while shown > 1 and _width(words[:shown]) + len(f"  +{len(found) - shown} more") > width:
            shown -= 1
        room = width - _width(words[:shown]) - 2
        if shown < len(found) and room >= LEAST_SHOWN:
            shown += 1  # the next one begins, cut at the end: its first words are read
        for index, (alert, said) in enumerate(zip(found[:shown], words, strict=False)):
            if index:
                text.append("  ")
            text.append(f" {visible(said)} ", self._style(alert.level))
        if shown < len(found):
            text.append(f"  +{len(found) - shown} more", self._style("muted"))
        return text

    def shown(self) -> str:
        """The strip's words as they are drawn now (for tests and a reader)."""
        rendered = self.render()
        return rendered.plain if isinstance(rendered, Text) else str(rendered)


def shorter(alert: Alert, said: str) -> str:
    """The alert in fewer words, where it has them."""
    return alert.short if alert.short and len(alert.short) < len(said) else said


def tightest(alert: Alert, said: str) -> str:
    """Darkness in its first words ("DARKNESS, no light"): the strip's colour says the rest,
    and the alerts after it keep their room."""
    return said.split(":", 1)[0] if alert.level == "dark" else said


def _width(words: list[str]) -> int:
    """The columns the alerts take side by side: each padded by a space, two between."""
    return sum(len(visible(said)) + 2 for said in words) + 2 * (len(words) - 1)
