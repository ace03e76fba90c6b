"""Reading the expedition's history onto the table without holding up its first paint.

The newest turns are drawn before the first paint; once painted, the file's pages are
checked in a thread and the older turns read in, in chunks, with keys and paint let
through between them. What is read and checked is the expedition's (``Expedition.history``:
the newest batches, older chunks, one verdict); this only draws what it yields.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from delvetui.core.log import Line
from delvetui.core.timeline import void, voiding
from delvetui.errors import DelveError
from delvetui.session import Newest, Older, Step, Verdict, check_pages
from delvetui.ui.table.command_line import CommandLine
from delvetui.ui.table.part import Draws, Shown

if TYPE_CHECKING:
    from delvetui.session import Expedition

#: Above this many commands the log says it is being read.
LONG_LOG = 200
#: The commands of the older turns the command line's history keeps.
REMEMBERED = 500


class HistoryTable(Shown, Draws, Protocol):
    """What the history loader needs of the table: the state shown (what the history must
    come to), whether to check the file, and a worker after the first paint."""

    @property
    def check(self) -> bool: ...

    def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...

    def run_worker(
        self,
        work: Coroutine[Any, Any, None],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Any: ...


class HistoryLines(Protocol):
    """The log's lines, as the history loader fills them (``LogLines``)."""

    shown: bool
    complete: bool
    first: int

    def lines_of(self, steps: Iterable[Step], voided: set[int]) -> list[Line]: ...

    def show_newest(self, first: int, steps: Sequence[Step]) -> None: ...

    def show_older(self, lines: list[Line], voided: set[int]) -> None: ...

    def newest_in(self) -> None: ...

    def add_waiting(self) -> None: ...

    def loading(self, text: str) -> None: ...

    def reading_older(self) -> None: ...


class Damage(Protocol):
    """The table's read-only state (``ReadOnly``): damage found, and what was."""

    @property
    def damage(self) -> str: ...

    def found(self, problem: str) -> None: ...


class HistoryLoader:
    """Draws the expedition's history: the newest turns at once, the older ones after."""

    def __init__(
        self,
        table: HistoryTable,
        expedition: Expedition,
        *,
        lines: HistoryLines,
        damage: Damage,
    ) -> None:
        self.table = table
        self.expedition = expedition
        self.lines = lines
        self.read_only = damage
        #: Set once the file's pages were checked (the app writes nothing before).
        self.checked = asyncio.Event()
        #: The whole log is read in (and, when the screen checks, the file was checked).
        self.loaded = False
        #: The state the expedition opened with: what the history must come to.
        self._opened = expedition.state
        self._history: Iterator[Newest | Older | Verdict] = iter(())
        self._newest: Sequence[Step] = ()

    def begin(self) -> None:
        """Draw the newest turns now; once the table is painted, read in the rest."""
        self.show_newest()
        if self.table.check or not self.lines.shown:
            # Paint the table first; older history is read in, and the file checked, after.
            self.table.call_after_refresh(self.start)
        else:
            self.checked.set()

    def start(self) -> None:
        """Read the rest of the history in a worker of the screen (``load``)."""
        self.table.run_worker(self.load(), name="history", group="history", exclusive=True)

    def show_newest(self) -> None:
        """Draw the newest turns before the first paint, from a snapshot kept for them.

        A file without such a snapshot (saved by an older delvetui) shows that its log is
        being read, and ``load`` reads it all.
        """
        expedition = self.expedition
        self._history = expedition.history()
        part = next(self._history)
        if isinstance(part, Verdict):  # the newest batches could not be read
            self.read_only.found(part.problem)
            return
        assert isinstance(part, Newest)
        lines = self.lines
        if not part.steps:
            if expedition.batch_count > LONG_LOG:
                lines.loading(f"Reading the log of {expedition.batch_count:,} commands…")
            return
        self._newest = part.steps
        lines.show_newest(part.first, part.steps)
        said = (step.batch.command for step in part.steps if step.batch.seq > 1)
        self.table.query_one(CommandLine).remember(said)
        lines.newest_in()
        if part.first > 1 and self.table.check:
            lines.reading_older()

    async def load(self) -> None:
        """Check the file's pages, then draw the turns not shown yet and the verdict.

        The screen stays responsive meanwhile. Reading every batch is also the check of a
        fast resume: the expedition opened from its latest snapshot, and the whole log must
        replay to the same state, or the game master is told.
        """
        table = self.table
        try:
            # The table opened from a snapshot, without SQLite's check of every page. The
            # check runs in a thread on its own read-only connection, so the screen stays
            # live meanwhile (it takes most of a second on a very long expedition).
            if table.check:
                await asyncio.to_thread(check_pages, self.expedition.path)
        except DelveError as error:
            self.read_only.found(error.message)
        finally:
            self.checked.set()
        lines = self.lines
        if lines.complete:
            self.loaded = True
            return
        older: list[Step] = []
        drawn: list[Line] = []
        voided: set[int] = set()
        problem = ""
        for part in self._history:
            if isinstance(part, Older):
                older.extend(part.steps)
                drawn.extend(lines.lines_of(part.steps, voided))
                if not lines.first:
                    lines.loading(f"Reading the log… {part.percent}%")
                await asyncio.sleep(0)  # let keys and paint through between chunks
            elif isinstance(part, Verdict):
                problem = part.problem
        for step in self._newest:
            void(voided, voiding(step.batch))
        said = [step.batch.command for step in older if step.batch.seq > 1][-REMEMBERED:]
        command_line = table.query_one(CommandLine)
        first = lines.first
        lines.show_older(drawn, voided)
        if first:
            command_line.remember_older(said)
        else:
            command_line.remember(said)
        self.loaded = True
        lines.newest_in()
        if problem:
            self.read_only.found(problem)
        lines.add_waiting()

    def follow_writer(self) -> None:
        """Show what another delvetui committed to the file this table reads (read-only)."""
        if self.read_only.damage:
            return
        try:
            self.expedition.follow()  # each new batch comes back through show_batch
        except DelveError as error:
            self.read_only.found(error.message)
