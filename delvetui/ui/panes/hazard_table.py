"""The procedure's hazard table, with the line the last hazard roll hit highlighted."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from delvetui.core.next_turn import hazard_rule
from delvetui.procedure.model import Table
from delvetui.procedure.tree import row_range
from delvetui.ui.bars import roll_text
from delvetui.ui.panes.pane import Pane


class HazardTable(Pane):
    """The rows of the hazard table; the row of the last roll is marked."""

    PREFIX = "hazard-table"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "hazard-table--hit",
        "hazard-table--notable",
        "hazard-table--muted",
        "hazard-table--roll",
    }

    compact: reactive[bool] = reactive(False, layout=True)
    """Leave out the text of the last result (small terminals)."""

    def table(self) -> tuple[str, Table] | None:
        """The table shown: the hazard roll's table in this kind of turn, else the one the
        last hazard roll used."""
        found = hazard_rule(self.procedure, self.state.turn_type)
        table = found[1].table_for(self.state.turn_type) if found is not None else ""
        if table in self.procedure.tables:
            return table, self.procedure.tables[table]
        last = self.state.last_hazard
        if last is not None and last.table in self.procedure.tables:
            return last.table, self.procedure.tables[last.table]
        return None

    def wanted(self, width: int) -> tuple[int, int]:
        """Up to two lines of the rows side by side; the whole table, a row a line."""
        shown = self.table()
        if shown is None:
            rolled = self.state.last_hazard is not None
            return 1, 2 if rolled and hazard_rule(self.procedure, self.state.turn_type) else 1
        table_id, table = shown
        last = self.state.last_hazard
        marked = last.row if last is not None and last.table == table_id else -1
        inline = len(self._inline(table, marked, width).plain.splitlines())
        if self.compact:
            return min(2, inline), inline
        full = len(table.rows)
        if marked >= 0 and last is not None:
            said = last.result if "ignored" in last.result else table.rows[marked].text or ""
            full += len(Text(said).wrap(self.app.console, max(1, width)))
        return min(2, inline), max(full, 1)

    def render(self) -> RenderableType:
        """The table rows, the marked row, and what the last result said, in the lines
        the table gives it (short of them: the rows side by side, cut at the last line)."""
        state = self.state
        last = state.last_hazard
        shown = self.table()
        rows = Text(no_wrap=True, overflow="ellipsis")
        if shown is None:
            found = hazard_rule(self.procedure, state.turn_type)
            if found is None:
                rows.append("This procedure rolls no hazard die.", self._style("muted"))
                return rows
            rule = found[1]
            limit = rule.hit_at_most
            rows.append(f"{rule.dice}", self._style("roll"))
            if isinstance(limit, str):
                counter = self.procedure.counters.get(limit)
                label = counter.label if counter else limit
                said = f"{rule.dice} ≤ {label} ({state.counter(limit)}): {rule.hit_label}"
                if counter is not None and len(said) > self.size.width:
                    label = counter.short or label  # the value in the line, not cut away
                rows.append(f" ≤ {label} ({state.counter(limit)})")
            elif limit is not None:
                rows.append(f" ≤ {limit}")
            rows.append(f": {rule.hit_label} / {rule.miss_label}", self._style("muted"))
            if last is not None:
                apart = "\n" if self.budget is None or self.budget > 1 else "  "
                rows.append(f"{apart}Last: {last.roll} → {last.result}", self._style("hit"))
            return rows
        table_id, table = shown
        marked = last.row if last is not None and last.table == table_id else -1
        whole = len(table.rows) + (marked >= 0)
        if self.compact or (self.budget is not None and self.budget < whole):
            return self._inline(table, marked, self.size.width, self.budget)
        width = max(len(roll_text(*row_range(row))) for row in table.rows)
        for index, row in enumerate(table.rows):
            if index:
                rows.append("\n")
            hit = index == marked
            style = self._style("hit") if hit else Style()
            if row.highlight and not hit:
                style = self._style("notable")
            rows.append("▶ " if hit else "  ", style)
            rows.append(roll_text(*row_range(row)).rjust(width), style + self._style("roll"))
            rows.append(f"  {row.label}", style)
            if hit and last is not None and last.roll is not None:
                rows.append(f"  (rolled {last.roll})", style)
        if marked < 0 or self.compact or last is None:
            return rows
        said = last.result if "ignored" in last.result else table.rows[marked].text or ""
        detail = Text(said, style=self._style("muted"))
        if self.budget is not None:
            detail.no_wrap, detail.overflow = True, "ellipsis"  # one line: the one it has
        return Group(rows, detail)

    def _inline(self, table: Table, marked: int, width: int, limit: int | None = None) -> Text:
        """The rows side by side, wrapped to the width (small terminals), in at most
        ``limit`` lines: the last of them is cut at its end."""
        text = Text(no_wrap=True, overflow="ellipsis")
        width = max(20, width)
        used = 0
        lines = 1
        for index, row in enumerate(table.rows):
            hit = index == marked
            entry = f"{'▶' if hit else ''}{roll_text(*row_range(row))} {row.label}"
            if used and used + 2 + len(entry) > width and (limit is None or lines < limit):
                text.append("\n")
                lines += 1
                used = 0
            elif used:
                text.append("  ")
                used += 2
            style = self._style("hit") if hit else Style()
            if row.highlight and not hit:
                style = self._style("notable")
            text.append(entry, style)
            used += len(entry)
        return text
