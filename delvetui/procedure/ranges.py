"""A table's rows against its dice: every total the dice can roll covered by exactly one row.

Checked in slices of a list of the totals, so a long table, or a hostile one whose every row
overlaps every other, costs few steps; the words of an overlap are worked out only for the
problems that are told (``reading.MAX_PROBLEMS``).
"""

from __future__ import annotations

from typing import Protocol

from delvetui.dice import DiceExpr
from delvetui.errors import Problem
from delvetui.procedure.model import Table
from delvetui.procedure.reading import MAX_PROBLEMS
from delvetui.procedure.tree import OPEN_END, parse_range
from delvetui.text import quote

#: The most totals a table's dice may roll (d1000; a table covers each with a row).
MAX_TABLE_TOTALS = 1000


class Reports(Protocol):
    """The loader's checker, as far as this check reports to it."""

    found: list[Problem]
    more: int

    def problem(self, path: str, message: str) -> None:
        """Report a problem at a key path."""


def check_rows(checks: Reports, path: str, table: Table, expr: DiceExpr) -> bool:
    """Report every row that is not a range, falls outside the dice or overlaps another,
    and the totals no row covers; False when the table is refused whole (its dice roll too
    many totals, or it has more rows than totals), so its rows need no further check."""
    totals = expr.maximum - expr.minimum + 1
    if totals > MAX_TABLE_TOTALS:
        checks.problem(
            f"{path}.dice",
            f"{table.dice} rolls {totals:,} totals; a table's dice may roll at most "
            f"{MAX_TABLE_TOTALS:,} (d1000).",
        )
        return False
    if len(table.rows) > totals:
        checks.problem(
            f"{path}.rows",
            f"has {len(table.rows):,} rows, more than the {totals} totals {table.dice} can "
            "roll; give each row a total or a range of its own.",
        )
        return False
    # covered[i]: the row that covers the total expr.minimum + i (-1: none yet).
    covered = [-1] * totals
    for index, row in enumerate(table.rows):
        here = f"{path}.rows[{index}].roll"
        span = parse_range(row.roll)
        if span is None:
            checks.problem(here, f"{quote(row.roll)} is not a range; write 3, 2-10 or 7+.")
            continue
        low, high = span
        if high == OPEN_END:
            high = max(low, expr.maximum)  # "7+": every total from 7 up
        if low < expr.minimum or high > expr.maximum:
            checks.problem(
                here,
                f"{row.roll} is outside what {table.dice} can roll "
                f"({expr.minimum}-{expr.maximum}).",
            )
        first = max(low, expr.minimum) - expr.minimum
        last = min(high, expr.maximum) - expr.minimum + 1
        _cover(checks, here, covered, (first, last), index, expr.minimum)
    missing = [expr.minimum + i for i, owner in enumerate(covered) if owner < 0]
    if missing and table.rows:
        checks.problem(f"{path}.rows", f"no row covers {ranges(missing)}; leave no gaps.")
    if not table.rows:
        checks.problem(f"{path}.rows", "a table needs at least one row.")
    return True


def _cover(
    checks: Reports,
    path: str,
    covered: list[int],
    span: tuple[int, int],
    index: int,
    minimum: int,
) -> None:
    """Mark the totals a row covers (``span``, from ``minimum``, end excluded) as the
    row's, or report those another row covered already; one slice when it overlaps none."""
    first, last = span
    owners = covered[first:last]
    if owners.count(-1) == len(owners):
        covered[first:last] = [index] * len(owners)
    elif len(checks.found) >= MAX_PROBLEMS:
        checks.more += 1  # not told: its words are not worked out
    else:
        overlap = [first + i for i, owner in enumerate(owners) if owner >= 0]
        checks.problem(
            path,
            f"{ranges([v + minimum for v in overlap])} "
            f"{'is' if len(overlap) == 1 else 'are'} also covered "
            f"by row {covered[overlap[0]] + 1}; ranges overlap.",
        )
        covered[first:last] = [owner if owner >= 0 else index for owner in owners]


def ranges(values: list[int]) -> str:
    """Sorted whole numbers as ranges: '1-3, 5'."""
    parts: list[str] = []
    start = previous = values[0]
    for value in [*values[1:], None]:
        if value is not None and value == previous + 1:
            previous = value
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if value is not None:
            start = previous = value
    return ", ".join(parts)
