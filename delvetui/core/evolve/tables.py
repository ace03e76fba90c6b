"""The adventure's tables changed at the table: an area's rows written again (the tables'
text in the state, so a replay never needs more than the events)."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core import table_rows
from delvetui.core.evolve.base import rule
from delvetui.core.state import State
from delvetui.errors import CommandError


@rule.register(ev.TableRowSet)
@rule.register(ev.TableRowRemoved)
def _(event: ev.TableRowSet | ev.TableRowRemoved, state: State) -> State:
    try:
        return table_rows.with_rows(state, event.area, table_rows.rows_after(state, event))
    except CommandError as error:
        raise ValueError(error.message) from None
