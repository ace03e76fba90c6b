"""The words of the row changes of the adventure's tables: the row set or taken out, and
every row whose faces it moved."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core import table_rows
from delvetui.core.log.words import Said, words
from delvetui.core.state import State
from delvetui.procedure.model import Procedure


@words.register(ev.TableRowSet)
@words.register(ev.TableRowRemoved)
def _(event: ev.TableRowSet | ev.TableRowRemoved, procedure: Procedure, state: State) -> Said:
    return "info", table_rows.said(state, event)
