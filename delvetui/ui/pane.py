"""What every pane of the table shares: the state it draws, its procedure and its styles.

The header, the roster, the lights, the time dice, the hazard table, the counters and the
action pane each draw the same two things (the expedition state, under the procedure it
follows) with their own component classes, named ``PREFIX--NAME`` in ``delvetui.tcss``.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from delvetui.core.state import State
from delvetui.procedure.model import Procedure


class Pane(Widget):
    """A widget that draws the expedition state; the table screen sets ``state``."""

    PREFIX: ClassVar[str] = ""
    """The start of the pane's component class names (``party-roster`` for ``--name``)."""

    state: reactive[State] = reactive(State)
    """The expedition state the pane shows."""

    def __init__(self, procedure: Procedure, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.procedure = procedure

    def _watch_state(self) -> None:
        """Lay the screen out again only when the pane's height changes with the state.

        A new state usually changes a pane's text, not its number of lines; laying out
        the whole table for each pane on every turn cost more than drawing the turn. A
        hidden pane (the time dice and counters at 80×24) is laid out when it is shown,
        and a pane of fixed height keeps its size whatever it draws: neither asks for a
        layout, only for its lines to be drawn again (the reactive's own refresh).
        """
        if not self.display:
            return
        height = self.styles.height
        if height is not None and not height.is_auto:
            return
        self.clear_cached_dimensions()
        width = self.content_size.width
        if not self.is_mounted or not width:
            self.refresh(layout=True)
            return
        parent = self.parent
        container = parent.size if isinstance(parent, Widget) else self.app.size
        if self.get_content_height(container, self.app.size, width) != self.content_size.height:
            self.refresh(layout=True)

    def _style(self, name: str) -> Style:
        """The style of one of the pane's component classes (``PREFIX--name``)."""
        return self.get_component_rich_style(f"{self.PREFIX}--{name}")


class RowPane(Pane):
    """A pane whose rows stand for things the game master can click (a member, a light).

    ``render`` fills ``_rows`` with the key of each row drawn (None for a row that stands
    for nothing), so a click can be turned into the thing under the pointer.
    """

    def __init__(self, procedure: Procedure, *, id: str | None = None) -> None:
        super().__init__(procedure, id=id)
        self._rows: list[str | None] = []

    def row_at(self, event: events.Click) -> str | None:
        """The key of the row clicked (None: a row of nothing, or below the rows)."""
        offset = event.get_content_offset(self)
        row = -1 if offset is None else offset.y
        return self._rows[row] if 0 <= row < len(self._rows) else None
