"""A row of block-letter cells: one for each lit light (its time left, its words under it)
or each member shown (their name over their hit points), side by side across the players'
screen."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from delvetui.ui.players.big_text import BigText

#: One cell: its words in block letters, fewer letters for them, and a line under them.
Cell = tuple[str, tuple[str, ...], str]


class BigCell(Vertical):
    """Words in block letters with a line of plain words under them."""

    DEFAULT_CSS = """
    BigCell { width: 1fr; height: auto; }
    BigCell > BigText { height: auto; }
    BigCell > Static { height: auto; text-align: center; text-style: bold; }
    """

    def __init__(self, cell: Cell, most: int, lines: int) -> None:
        super().__init__()
        self.cell = cell
        self.big = BigText(cell[0], most=most, lines=lines)
        self.big.shorter = cell[1]
        self.under = Static(cell[2])

    def compose(self) -> ComposeResult:
        """The block letters, then the plain line."""
        yield self.big
        yield self.under

    def show(self, cell: Cell) -> None:
        """Other words, in place."""
        self.cell = cell
        self.big.update(cell[0], cell[1])
        self.big.display = bool(cell[0])
        self.under.update(cell[2])
        self.under.display = bool(cell[2])

    def on_mount(self) -> None:
        """Hide what has no words."""
        self.show(self.cell)


class BigCells(Horizontal):
    """Cells of block letters, as many as given, each as large as its share of the width
    allows (up to ``most`` times the smallest, in up to ``lines`` lines)."""

    DEFAULT_CSS = """
    BigCells { height: auto; width: 100%; }
    """

    def __init__(self, *, most: int = 2, lines: int = 2, id: str | None = None) -> None:
        super().__init__(id=id)
        self.most = most
        self.lines = lines
        self.shown: tuple[Cell, ...] = ()
        self.display = False  # until there are cells to show

    def show(self, cells: Sequence[Cell]) -> AwaitComplete | None:
        """One cell for each, in order; made again only when their number changes (then
        what to await for them to be on the screen)."""
        cells = tuple(cells)
        if cells == self.shown:
            return None
        self.shown = cells
        self.display = bool(cells)
        made = list(self.query(BigCell))
        if len(made) == len(cells):
            for widget, cell in zip(made, cells, strict=True):
                widget.show(cell)
            return None
        removed = self.remove_children()
        mounted = self.mount_all(BigCell(cell, self.most, self.lines) for cell in cells)

        async def both() -> None:
            await removed
            await mounted

        return AwaitComplete(both())

    def fitted(self, most: int) -> None:
        """Draw every cell at most this large."""
        self.most = most
        for cell in self.query(BigCell):
            cell.big.fitted(most, self.lines)
