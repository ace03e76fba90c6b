"""The session bar: a line under the header offering a session, when an evening at the
table seems to begin.

The line only offers: play goes on whether or not the game master takes it up (the key in
the line, or Escape to put it away). What is offered is ``application/session_offer.py``'s.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from delvetui.application.session_offer import Offer


class SessionBar(Widget):
    """One line offering to start (or end and start) a session; hidden when there is none."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"session-bar--key", "session-bar--muted"}

    offer: reactive[Offer | None] = reactive(None, layout=True)
    """The offer shown (None: the line is hidden)."""

    key: reactive[str] = reactive("S")
    """The key that takes up the offer, as shown."""

    def watch_offer(self, offer: Offer | None) -> None:
        """Show the line only while there is an offer."""
        self.display = offer is not None

    def render(self) -> RenderableType:
        """The offer and its keys."""
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.offer is None:
            return text
        choices = self.offer.words()
        for said, does in choices:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(f"{said} ")
            text.append(f" {self.key} ", self._style("key"))
            text.append(f" {does}  ")
            text.append(" esc ", self._style("key"))
            text.append(" not now", self._style("muted"))
            if text.cell_len <= self.content_size.width:
                break
        return text

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"session-bar--{name}")
