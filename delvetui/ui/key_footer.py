"""The footer of the table: every key, over as many rows as the screen needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's footer laid out as a grid, so no key falls off the right edge."""

    rows: reactive[int] = reactive(2, recompose=True)
    """How many rows the keys are spread over."""

    def compose(self) -> ComposeResult:
        """The footer's keys; then the grid gets as many columns as the rows need."""
        children = list(super().compose())
        yield from children
        keys = len(children)
        self.styles.grid_size_columns = max(1, -(-keys // max(1, self.rows)))
