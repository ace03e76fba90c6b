"""The adventure's tables changed at the table: a row of an area's table set, changed or
taken out (``core.table_rows`` says how the rows around it take up its faces)."""

import attrs

from delvetui.core.events.base import Event, event

__all__ = ["TableRowRemoved", "TableRowSet"]


@event()
@attrs.frozen(repr=False, eq=False)
class TableRowSet(Event):
    """A row of an area's table set at the table: on the faces ``roll``, the creature, how
    many appear (dice, or "" for none rolled) and its words. ``was`` names the faces of
    the row it changed (``tables change``), "" for a row set on faces of its own (``tables
    row``), which takes them from the rows that had them."""

    area: str
    roll: str
    creature: str
    number: str = ""
    text: str = ""
    was: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class TableRowRemoved(Event):
    """The row of the faces ``roll`` taken out of an area's table; its faces went to the
    row below it, else the row above."""

    area: str
    roll: str
