"""Reading the expedition's history onto the table without holding up its first paint.

The newest turns are drawn before the first paint; once painted, the file's pages are
checked in a thread and the older turns read in, in chunks, with keys and paint let
through between them. What is read and checked is the expedition's (``Expedition.history``:
the newest batches, older chunks, one verdict); this only draws what it yields.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from delvetui.core.log import Line
from delvetui.core.next_turn import moving_of
from delvetui.core.timeline import void, voiding
from delvetui.errors import DelveError
from delvetui.session import Newest, Older, Step, Verdict, check_pages
from delvetui.ui.panes.session_bar import SessionBar
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.table.command_line import CommandLine

if TYPE_CHECKING:
    from delvetui.ui.table.screen import TableScreen

#: Above this many commands the log says it is being read.
LONG_LOG = 200
#: The commands of the older turns the command line's history keeps.
REMEMBERED = 500


class HistoryLoader:
    """Draws the expedition's history: the newest turns at once, the older ones after."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        #: Set once the file's pages were checked (the app writes nothing before).
        self.checked = asyncio.Event()
        #: The whole log is read in (and, when the screen checks, the file was checked).
        self.loaded = False
        #: What is wrong with the file ('' while nothing is); changes are refused when set.
        self.damage = ""
        #: The state the expedition opened with: what the history must come to.
        self._opened = screen.expedition.state
        self._history: Iterator[Newest | Older | Verdict] = iter(())
        self._newest: Sequence[Step] = ()

    def _moving(self, steps: Sequence[Step]) -> str:
        """The last movement mode taken in these batches ('' for none)."""
        moving = ""
        for step in steps:
            moving = moving_of(self.screen.procedure, step.after, moving)
        return moving

    def found_damage(self, problem: str) -> None:
        """The file is damaged: make the table read-only and tell the game master."""
        if self.damage:
            return
        self.damage = problem
        screen = self.screen
        screen.expedition.found_damaged(problem)
        screen.query_one(StatusBar).readonly = problem
        screen.query_one(SessionBar).offer = None
        screen.refresh_bindings()
        screen.post_message(screen.Damaged(problem))

    def begin(self) -> None:
        """Draw the newest turns now; once the table is painted, read in the rest."""
        self.show_newest()
        if self.screen.check or not self.screen.log_lines.shown:
            # Paint the table first; older history is read in, and the file checked, after.
            self.screen.call_after_refresh(self.start)
        else:
            self.checked.set()

    def start(self) -> None:
        """Read the rest of the history in a worker of the screen (``load``)."""
        self.screen.run_worker(self.load(), name="history", group="history", exclusive=True)

    def show_newest(self) -> None:
        """Draw the newest turns before the first paint, from a snapshot kept for them.

        A file without such a snapshot (saved by an older delvetui) shows that its log is
        being read, and ``load`` reads it all.
        """
        screen = self.screen
        expedition = screen.expedition
        self._history = expedition.history()
        part = next(self._history)
        if isinstance(part, Verdict):  # the newest batches could not be read
            self.found_damage(part.problem)
            return
        assert isinstance(part, Newest)
        lines = screen.log_lines
        if not part.steps:
            if expedition.batch_count > LONG_LOG:
                lines.log.loading_text = f"Reading the log of {expedition.batch_count:,} commands…"
            return
        self._newest = part.steps
        lines.show_newest(part.first, part.steps)
        said = (step.batch.command for step in part.steps if step.batch.seq > 1)
        screen.query_one(CommandLine).remember(said)
        moving = self._moving(part.steps)
        if moving:
            screen.turns.go_on_with(moving)
        lines.newest_in()
        if part.first > 1 and screen.check:
            lines.log.border_subtitle = "reading older turns…"

    async def load(self) -> None:
        """Check the file's pages, then draw the turns not shown yet and the verdict.

        The screen stays responsive meanwhile. Reading every batch is also the check of a
        fast resume: the expedition opened from its latest snapshot, and the whole log must
        replay to the same state, or the game master is told.
        """
        screen = self.screen
        try:
            # The table opened from a snapshot, without SQLite's check of every page. The
            # check runs in a thread on its own read-only connection, so the screen stays
            # live meanwhile (it takes most of a second on a very long expedition).
            if screen.check:
                await asyncio.to_thread(check_pages, screen.expedition.path)
        except DelveError as error:
            self.found_damage(error.message)
        finally:
            self.checked.set()
        lines = screen.log_lines
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
                    lines.log.loading_text = f"Reading the log… {part.percent}%"
                await asyncio.sleep(0)  # let keys and paint through between chunks
            elif isinstance(part, Verdict):
                problem = part.problem
        for step in self._newest:
            void(voided, voiding(step.batch))
        said = [step.batch.command for step in older if step.batch.seq > 1][-REMEMBERED:]
        command_line = screen.query_one(CommandLine)
        first = lines.first
        lines.show_older(drawn, voided)
        if first:
            command_line.remember_older(said)
        else:
            command_line.remember(said)
        if not problem and screen.state == self._opened:
            screen.turns.go_on_with(self._moving([*older, *self._newest]))
        self.loaded = True
        lines.newest_in()
        if problem:
            self.found_damage(problem)
        lines.add_waiting()

    def follow_writer(self) -> None:
        """Show what another delvetui committed to the file this table reads (read-only)."""
        if self.damage:
            return
        try:
            self.screen.expedition.follow()  # each new batch comes back through show_batch
        except DelveError as error:
            self.found_damage(error.message)
