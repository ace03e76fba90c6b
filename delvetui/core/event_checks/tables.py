"""Checks of the row changes of the adventure's tables: the area is carried, the row is one
a game master could type, and the table takes it (``core.table_rows.problem``)."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core import table_rows
from delvetui.core.event_checks.base import At, check


@check.register(ev.TableRowSet)
@check.register(ev.TableRowRemoved)
def _(event: ev.TableRowSet | ev.TableRowRemoved, at: At) -> str | None:
    return table_rows.problem(at.state, event)
