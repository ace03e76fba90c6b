"""The turn log's lines: the newest drawn first, the older ones put before them once read,
and each new command added. An encounter or a sign is the log's and the alert strip's to
say: no notice covers the panes or a dialog for it.

The table screen holds one ``LogLines``; the history loader (``ui/table/history_loader.py``)
hands it what the expedition's history reader yields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from delvetui.core.compact_log import compact_lines
from delvetui.core.log import Line, batch_lines
from delvetui.core.state import State
from delvetui.core.timeline import Batch, void, voiding
from delvetui.session import Step
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table import messages
from delvetui.ui.table.part import Draws

if TYPE_CHECKING:
    from textual.message import Message

    from delvetui.procedure.model import Procedure


class LinesTable(Draws, Protocol):
    """What the log's lines need of the table: its log, its switch."""

    @property
    def compact_log(self) -> bool: ...

    def post_message(self, message: Message) -> bool: ...


class LogLines:
    """What the turn log shows, in full or one line a turn (the screen's ``compact_log``)."""

    def __init__(self, table: LinesTable, procedure_at: Callable[[State], Procedure]) -> None:
        self.table = table
        #: The procedure that applied at a state (``Expedition.procedure_at``).
        self.procedure_at = procedure_at
        #: Every line of the full log drawn so far (the log widget may show the compact one).
        self.full: list[Line] = []
        #: The first batch drawn (0 while none is).
        self.first = 0
        #: The log shows the newest turns (older ones may still be read in).
        self.shown = False
        #: Every batch of the log is drawn.
        self.complete = False
        #: Commands committed before the newest turns were drawn, with the state before.
        self._waiting: list[tuple[Batch, State]] = []
        #: What undo and redo played since opening did to batches not drawn yet.
        self._voiding: list[tuple[int, bool]] = []

    @property
    def log(self) -> TurnLog:
        """The turn log widget."""
        return self.table.query_one(TurnLog)

    def lines_of(self, steps: Iterable[Step], voided: set[int]) -> list[Line]:
        """The log's lines of these batches; what each undoes or redoes is folded into
        ``voided``."""
        procedure_at = self.procedure_at
        lines: list[Line] = []
        for batch, before, _ in steps:
            lines.extend(batch_lines(batch, procedure_at(before), before, session=before.session))
            void(voided, voiding(batch))
        return lines

    def shown_lines(self, lines: Sequence[Line]) -> Sequence[Line]:
        """The lines as the log shows them: in full, or one line a turn."""
        return compact_lines(lines) if self.table.compact_log else lines

    def show_newest(self, first: int, steps: Sequence[Step]) -> None:
        """Draw the newest batches, from ``first`` on, before the older ones are read."""
        voided: set[int] = set()
        self.full = self.lines_of(steps, voided)
        self.log.replace(self.shown_lines(self.full), voided)
        self.first = first
        self.complete = first == 1

    def show_older(self, lines: list[Line], voided: set[int]) -> None:
        """Put the older lines before the newest (or draw the whole log, when none was)."""
        log = self.log
        if self.first:
            # Undo and redo played since opening may reach back into the older turns.
            older = {seq for seq in voided if seq < self.first}
            void(older, self._voiding)
            self.full = lines + self.full
            log.prepend(self.shown_lines(lines), older)
            log.border_subtitle = ""
        else:
            self.full = lines
            log.replace(self.shown_lines(lines), voided)
            log.loading_text = ""
        self.complete = True

    def loading(self, text: str) -> None:
        """Say in the empty log that it is being read (``''``: no more)."""
        self.log.loading_text = text

    def reading_older(self) -> None:
        """Say under the newest turns that the older ones are being read."""
        self.log.border_subtitle = "reading older turns…"

    def newest_in(self) -> None:
        """The log shows the newest turns: say so (once)."""
        if not self.shown:
            self.shown = True
            self.table.post_message(messages.NewestShown())

    def add_waiting(self) -> None:
        """Add the commands committed while the log was not drawn yet."""
        waiting, self._waiting = self._waiting, []
        for batch, before in waiting:
            self._append(batch, before)

    def add(self, batch: Batch, before: State) -> None:
        """A command was committed: add its lines (once the newest turns are drawn)."""
        if not self.shown:
            self._waiting.append((batch, before))
            return
        self._append(batch, before)

    def _append(self, batch: Batch, before: State) -> None:
        log = self.log
        procedure = self.procedure_at(before)
        lines = list(batch_lines(batch, procedure, before, session=before.session))
        self.full.extend(lines)
        log.append(self.shown_lines(lines))
        for target, voided in voiding(batch):
            log.set_voided(target, voided)
            if not self.complete:
                self._voiding.append((target, voided))

    def redraw(self) -> None:
        """Draw the log again, in full or compact as the screen's switch now says."""
        log = self.log
        log.border_title = "Turn log (compact)" if self.table.compact_log else "Turn log"
        if self.shown:
            log.replace(self.shown_lines(self.full), log.voided)
