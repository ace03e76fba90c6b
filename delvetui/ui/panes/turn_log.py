"""The turn log: every event in plain words, grouped under turn headers, newest at the bottom.

A line-API widget: it keeps the log's ``Line`` objects and renders only the rows on screen,
so scrolling through ten thousand turns costs the same as through ten. Lines are wrapped to
the widget's width; the wrap index is rebuilt only when the width changes, and a new batch
only appends its own rows.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.cells import cell_len, get_character_cell_size, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from delvetui.core.log import Line
from delvetui.text import visible
from delvetui.text import wrap as wrap_text

#: Line kinds drawn as a band across the log (they start a group).
HEADER_KINDS = frozenset({"turn", "session"})


def style_name(line: Line) -> str:
    """The component class a line is drawn with: a failed check as failure, not success."""
    if line.kind == "check" and " fails, " in line.text:
        return "turn-log--failure"
    return f"turn-log--{line.kind}"


def wrap(text: str, first: int, rest: int) -> list[str]:
    """Greedy word wrap in one pass: the first row ``first`` cells wide, the others ``rest``."""
    return wrap_text(text, first, rest, get_character_cell_size)


class TurnLog(ScrollView, can_focus=True):
    """The expedition's log, virtualised: only the rows in view are rendered."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "turn-log--turn",
        "turn-log--session",
        "turn-log--roll",
        "turn-log--result",
        "turn-log--encounter",
        "turn-log--sign",
        "turn-log--note",
        "turn-log--light",
        "turn-log--party",
        "turn-log--undo",
        "turn-log--info",
        "turn-log--check",
        "turn-log--failure",
        "turn-log--fight",
        "turn-log--alarm",
        "turn-log--time",
        "turn-log--voided",
        "turn-log--loading",
    }

    loading_text: reactive[str] = reactive("")
    """Shown instead of the log while the history is read in (empty when loaded)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[Line] = []
        self._voided: set[int] = set()
        self._starts: list[int] = []
        self._rows = 0
        self._width = 0
        self._wrapped: LRUCache[int, list[str]] = LRUCache(2048)
        self._strips: LRUCache[tuple[int, int], Strip] = LRUCache(1024)
        self._follow = True

    # Content -----------------------------------------------------------------------------

    @property
    def lines(self) -> Sequence[Line]:
        """Every line in the log, oldest first."""
        return self._lines

    @property
    def voided(self) -> frozenset[int]:
        """The batches that were undone (drawn struck through)."""
        return frozenset(self._voided)

    def is_voided(self, line: Line) -> bool:
        """True when the line's batch no longer counts."""
        return line.batch in self._voided

    def replace(self, lines: Iterable[Line], voided: Iterable[int] = ()) -> None:
        """Show these lines instead of what was there (used once the history is read)."""
        self._lines = list(lines)
        self._voided = set(voided)
        self._reflow()
        self._follow = True
        self._to_end()

    def prepend(self, lines: Iterable[Line], voided: Iterable[int] = ()) -> None:
        """Put older lines above those shown; the view stays on the lines it shows.

        ``voided`` are the undone batches among the older ones (it replaces what was known
        of batches before the first line shown).
        """
        older = list(lines)
        first = self._lines[0].batch if self._lines else None
        self._voided = {b for b in self._voided if first is not None and b >= first}
        self._voided.update(voided)
        rows = self._rows
        self._lines[:0] = older
        self._reflow()
        if self._follow:
            self._to_end()
        else:
            self.scroll_to(y=self.scroll_y + self._rows - rows, animate=False, immediate=True)
        self.refresh()

    def _to_end(self) -> None:
        self.scroll_end(animate=False, immediate=True, x_axis=False)
        # Again once laid out: until then the view may not know it can scroll.
        self.call_after_refresh(self.scroll_end, animate=False, immediate=True, x_axis=False)

    def append(self, lines: Iterable[Line]) -> None:
        """Add a batch's lines at the bottom; follow them when the view was at the bottom."""
        start = len(self._lines)
        self._lines.extend(lines)
        self._index(start)
        if self._follow:
            self._to_end()
        self.refresh()

    def set_voided(self, batch: int, voided: bool) -> None:
        """Mark a batch undone (or redone)."""
        if voided:
            self._voided.add(batch)
        else:
            self._voided.discard(batch)
        self._strips.clear()
        self.refresh()

    # Layout ------------------------------------------------------------------------------

    def _indent(self, line: Line) -> tuple[int, int]:
        return (0, 2) if line.kind in HEADER_KINDS else (2, 4)

    def _wrap_line(self, index: int) -> list[str]:
        cached = self._wrapped.get(index)
        if cached is not None:
            return cached
        line = self._lines[index]
        first, rest = self._indent(line)
        text = visible(line.text)
        if line.kind in HEADER_KINDS:
            text = f" {text}"
        rows = wrap(text, self._width - first, self._width - rest)
        self._wrapped[index] = rows
        return rows

    def _reflow(self) -> None:
        self._width = max(10, self.scrollable_content_region.width)
        self._wrapped.clear()
        self._strips.clear()
        self._starts = []
        self._rows = 0
        self._index(0)

    def _index(self, start: int) -> None:
        del self._starts[start:]
        rows = self._starts[-1] + self._count(start - 1) if start else 0
        width = self._width
        for index in range(start, len(self._lines)):
            self._starts.append(rows)
            # Most lines fit on one row: skip the wrap for them.
            rows += 1 if _fits(self._lines[index], width) else len(self._wrap_line(index))
        self._rows = rows
        self.virtual_size = Size(width, rows)

    def _count(self, index: int) -> int:
        return 1 if _fits(self._lines[index], self._width) else len(self._wrap_line(index))

    def on_resize(self) -> None:
        """Re-wrap when the width changes; stay at the bottom when following."""
        if self.scrollable_content_region.width != self._width:
            self._reflow()
        if self._follow:
            self._to_end()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Follow new lines only while the view is at the bottom."""
        super().watch_scroll_y(old_value, new_value)
        self._follow = new_value >= self.max_scroll_y - 1

    def notify_style_update(self) -> None:
        """Styles (or the theme) changed: draw again."""
        super().notify_style_update()
        self._strips.clear()

    def watch_loading_text(self) -> None:
        """Draw the loading message (or the log) again."""
        self._strips.clear()
        self.refresh()

    # Rendering ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """One row of the log on screen."""
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.rich_style
        if self.loading_text:
            if y == 1:
                style = base + self.get_component_rich_style("turn-log--loading")
                text = f"  {self.loading_text}"
                return Strip([Segment(text, style)], cell_len(text)).crop_extend(0, width, base)
            return Strip.blank(width, base)
        row = scroll_y + y
        if row >= self._rows or not self._starts:
            return Strip.blank(width, base)
        key = (row, width)
        cached = self._strips.get(key)
        if cached is None:
            cached = self._render_row(row, width, base)
            self._strips[key] = cached
        return cached.apply_offsets(scroll_x, row)

    def _render_row(self, row: int, width: int, base: Style) -> Strip:
        index = bisect_right(self._starts, row) - 1
        line = self._lines[index]
        part = row - self._starts[index]
        pieces = self._wrap_line(index) if part or not _fits(line, self._width) else None
        text = line.text if pieces is None else pieces[min(part, len(pieces) - 1)]
        text = visible(text)
        first, rest = self._indent(line)
        if pieces is None and line.kind in HEADER_KINDS:
            text = f" {text}"
        indent = first if part == 0 else rest
        style = base + self.get_component_rich_style(style_name(line))
        if line.batch in self._voided:
            style += self.get_component_rich_style("turn-log--voided")
        segments = [Segment(" " * indent, base if line.kind not in HEADER_KINDS else style)]
        if line.one_row and indent + cell_len(text) > width:
            text = set_cell_size(text, max(1, width - indent - 1)) + "…"
        segments.append(Segment(text, style))
        strip = Strip(segments, indent + cell_len(text))
        fill = style if line.kind in HEADER_KINDS else base
        return strip.crop_extend(0, width, fill)


def _fits(line: Line, width: int) -> bool:
    if line.one_row:
        return True  # one row, cut at its end (the compact view's turns)
    first = 0 if line.kind in HEADER_KINDS else 2
    return len(line.text) + first + 1 < width and line.text.isascii()
