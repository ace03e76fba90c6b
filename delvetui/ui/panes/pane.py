"""What every pane of the table shares: the state it draws, its procedure and its styles.

The header, the roster, the lights, the time dice, the hazard table, the counters and the
action pane each draw the same two things (the expedition state, under the procedure it
follows) with their own component classes, named ``PREFIX--NAME`` in ``delvetui.tcss``.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual import events
from textual.message import Message
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

    budget: reactive[int | None] = reactive(None, layout=True)
    """The most lines the table's side column gives the pane (None: all it wants); the
    pane then says what matters in that many (``wanted``)."""

    class Widened(Message):
        """The pane's width changed (the terminal, or its borders): its lines may too."""

    def __init__(self, procedure: Procedure, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.procedure = procedure
        self._width = 0

    def on_resize(self, event: events.Resize) -> None:
        """Say when the width changed: the column shares its lines out again."""
        if event.size.width != self._width:
            self._width = event.size.width
            self.post_message(self.Widened())

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

    def watch_budget(self, budget: int | None) -> None:
        """A pane given fewer lines than it would fill cuts its lines rather than wrap."""
        self.set_class(budget is not None, "-budget")
        self.clear_cached_dimensions()
        # Textual keeps a widget's box model while a layout of it is pending (its
        # refresh counts a layout once): a new budget must be measured in that layout.
        self._layout_updates += 1

    def wanted(self, width: int) -> tuple[int, int]:
        """The lines the pane needs at this width to say what matters (every member, the
        lit lights, each counter, the next action), and the lines it would fill."""
        return 1, 1

    def drawn_lines(self, width: int, budget: int) -> int:
        """The lines the pane draws at this width when given ``budget`` lines."""
        return budget

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
