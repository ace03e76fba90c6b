"""Whether the table may change its expedition: the one owner of read-only and damage.

A table is read-only when its file was opened read-only (another delvetui writes it) or
was found damaged while open (the page check, reading the whole log, a replay that
disagrees). ``ReadOnly`` keeps which, says it in the header, and tells the app once when
damage is found (``messages.Damaged``); everything else asks ``TableScreen.readonly``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.table import messages
from delvetui.ui.table.part import Draws

if TYPE_CHECKING:
    from textual.message import Message

    from delvetui.session import Expedition


class ReadOnlyTable(Draws, Protocol):
    """What the read-only state needs of the table: the header, the keys, the app told."""

    def refresh_bindings(self) -> None: ...

    def post_message(self, message: Message) -> bool: ...


class ReadOnly:
    """Why nothing can be changed on the table, if anything: read-only, or damage found."""

    def __init__(self, table: ReadOnlyTable, expedition: Expedition) -> None:
        self.table = table
        self.expedition = expedition
        #: What is wrong with the file ('' while nothing is); changes are refused when set.
        self.damage = ""

    @property
    def readonly(self) -> bool:
        """True when nothing can be changed: the file is read-only, or found damaged."""
        return self.expedition.readonly or bool(self.damage)

    @property
    def reason(self) -> str:
        """Why nothing can be changed ('' while it can), for the header."""
        if self.damage:
            return self.damage
        if not self.expedition.readonly:
            return ""
        return self.expedition.readonly_reason or "read-only"

    def show(self) -> None:
        """Say in the header why nothing can be changed (nothing while it can)."""
        self.table.query_one(StatusBar).readonly = self.reason

    def found(self, problem: str) -> None:
        """The file is damaged: make the table read-only and tell the game master (once)."""
        if self.damage:
            return
        self.damage = problem
        self.expedition.found_damaged(problem)
        self.show()
        self.table.refresh_bindings()
        self.table.post_message(messages.Damaged(problem))
