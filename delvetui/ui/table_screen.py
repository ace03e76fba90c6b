"""The table screen: turn log, party, lights, time dice, hazard table, counters, keys.

The screen owns no rules. Keys and clicks become commands (``TakeTurn("search")``,
``LightOn("torch2")``), and what the game master types stays a line for the parser; either
is posted as :class:`TableScreen.Run`, the app runs it through the expedition and hands
each committed batch back to :meth:`show_batch`.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll

from delvetui.core.log import Line, batch_lines
from delvetui.core.state import State
from delvetui.core.timeline import Timeline, void, voiding
from delvetui.errors import DelveError
from delvetui.procedure.model import Procedure
from delvetui.session import check_pages
from delvetui.ui.action_pane import ActionPane
from delvetui.ui.alert_strip import AlertStrip
from delvetui.ui.command_line import CommandLine
from delvetui.ui.counters import Counters
from delvetui.ui.hazard_table import HazardTable
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.light_inventory import LightInventory
from delvetui.ui.party_roster import PartyRoster
from delvetui.ui.session_bar import SessionBar
from delvetui.ui.side_column import SideColumn
from delvetui.ui.status_bar import StatusBar
from delvetui.ui.table_base import Order, Source
from delvetui.ui.table_dialogs import TableDialogs
from delvetui.ui.table_keys import KEYS
from delvetui.ui.table_view import has_time_dice
from delvetui.ui.time_dice import TimeDice
from delvetui.ui.turn_log import TurnLog

__all__ = ["Order", "Source", "TableScreen"]

#: Longest stretch (seconds) the history loader works before letting keys and paint through.
BREATH = 0.015
#: Seconds between looks for another delvetui's commits, while the table is read-only.
FOLLOW_EVERY = 0.5


class TableScreen(TableDialogs):
    """The referee's table for one open expedition."""

    BINDINGS: ClassVar[list[BindingType]] = KEYS
    """The table's keys; each has an id, so a keymap in the preferences can rebind it."""

    def compose(self) -> ComposeResult:
        """Header, log, the right-hand column, command line and footer."""
        self._size_classes(*self.app.size)
        procedure = self.procedure
        yield StatusBar(procedure, id="status")
        yield AlertStrip(procedure, id="alerts")
        yield SessionBar(id="session-offer")
        with Horizontal(id="body"):
            yield TurnLog(id="log")
            # Every pane keeps a line at least (the column shares its lines out); the next
            # action and the hazard table stay in view even where that is not enough, and
            # the party, the lights, the counters and the clock scroll above them.
            with SideColumn(id="side"):
                with VerticalScroll(id="side-scroll"):
                    yield PartyRoster(procedure, id="roster")
                    yield LightInventory(procedure, id="lights")
                    yield Counters(procedure, id="counters")
                    yield TimeDice(procedure, id="time")
                yield HazardTable(procedure, id="hazard")
                yield ActionPane(procedure, id="action")
        yield CommandLine(self.completion_context, id="command")
        yield KeyFooter()

    def completion_context(self) -> tuple[State, Procedure] | None:
        """What completion in the command line reads: the state and the procedure."""
        return self.state, self.procedure

    def on_mount(self) -> None:
        """Show the state at once, then read the log's history."""
        procedure = self.procedure
        self.query_one("#log", TurnLog).border_title = "Turn log"
        self.query_one("#roster").border_title = "Party"
        self.query_one("#lights").border_title = "Lights"
        self.query_one("#time").border_title = "Time"
        self._title_hazard()
        counters = self.query_one("#counters")
        counters.border_title = "Counters"
        counters.display = bool(procedure.counters)
        self.query_one("#time").display = has_time_dice(procedure)
        self.query_one("#action").border_title = "Action"
        status = self.query_one(StatusBar)
        status.readonly = self._readonly_reason()
        status.table_dice = self.table_dice
        self.query_one(ActionPane).speed = self.speed
        self._show_state(self.state)
        self.query_one(TurnLog).focus()
        self._layout_for(self.size.width, self.size.height)
        self._offer_session()
        self._show_newest()
        if self.check or not self.newest_shown:
            # Paint the table first; older history is read in, and the file checked, after.
            self.call_after_refresh(self.load_history)
        else:
            self._checked.set()
        if self.expedition.readonly:
            self.set_interval(FOLLOW_EVERY, self.follow_writer)

    @work(exclusive=True, group="history")
    async def load_history(self) -> None:
        """Check the file's pages, then read the turns not shown yet, in chunks.

        The screen stays responsive meanwhile. Reading every batch is also the check of a
        fast resume: the expedition opened from its latest snapshot, and the replay here
        must come to the same state, or the game master is told (as ``Expedition.verify``
        would).
        """
        expedition = self.expedition
        log = self.query_one(TurnLog)
        try:
            # The table opened from a snapshot, without SQLite's check of every page. The
            # check runs in a thread on its own read-only connection, so the screen stays
            # live meanwhile (it takes most of a second on a very long expedition).
            if self.check:
                await asyncio.to_thread(check_pages, expedition.path)
        except DelveError as error:
            self._found_damage(error.message)
        finally:
            self._checked.set()
        if self._all_shown:
            self.loaded = True
            return
        total, expected = self._opened
        start = self._newest_from  # lines from this batch on are shown (0: none are)
        lines: list[Line] = []
        voided: set[int] = set()
        said: list[str] = []
        moving = ""
        timeline = Timeline(load=self.expedition.load)
        problem = ""
        breath = time.perf_counter() + BREATH
        try:
            for count, batch in enumerate(expedition.batches(), start=1):
                if batch.seq > total or batch.seq == start:
                    break
                before = timeline.state
                timeline.apply(batch)  # first: a batch that cannot apply is named (ReplayError)
                lines.extend(
                    batch_lines(batch, self._procedure_at(before), before, session=before.session)
                )
                moving = self._moving_of(timeline.state, moving)
                void(voided, voiding(batch))
                if batch.seq > 1:
                    said.append(batch.command)
                if time.perf_counter() > breath:
                    if not start:
                        log.loading_text = f"Reading the log… {count * 100 // max(1, total)}%"
                    await asyncio.sleep(0)
                    breath = time.perf_counter() + BREATH
            if start:
                # The rest was replayed when the newest turns were drawn: from here the
                # replay goes on without drawing, to the state the table opened with.
                for batch in expedition.batches(after=start - 1):
                    if batch.seq > total:
                        break
                    timeline.apply(batch)
                    moving = self._moving_of(timeline.state, moving)
                    void(voided, voiding(batch))
                    if time.perf_counter() > breath:
                        await asyncio.sleep(0)
                        breath = time.perf_counter() + BREATH
        except DelveError as error:  # ReplayError (a batch that cannot apply) and DamagedFile
            problem = error.message
        else:
            if timeline.state != expected:
                problem = (
                    f"The snapshot inside {expedition.path} does not match its log. Close "
                    "delvetui and open the expedition again to replay it in full; the file "
                    "was not modified."
                )
        if start:
            # Undo and redo played since opening may reach back into the older turns.
            older = {seq for seq in voided if seq < start}
            void(older, self._live_voiding)
            self._full = lines + self._full
            log.prepend(self._shown(lines), older)
            log.border_subtitle = ""
            self.query_one(CommandLine).remember_older(said[-500:])
        else:
            self._full = lines
            log.replace(self._shown(lines), voided)
            log.loading_text = ""
            self.query_one(CommandLine).remember(said[-500:])
        if not problem and self.state == expected:
            self.moving = moving
            self.query_one(ActionPane).moving = moving
        self.loaded = True
        if not self.newest_shown:
            self.newest_shown = True
            self.post_message(self.NewestShown())
        if problem:
            self._found_damage(problem)
        waiting, self._waiting = self._waiting, []
        for batch, before in waiting:
            self._append(batch, before)

    def on_command_line_submitted(self, event: CommandLine.Submitted) -> None:
        """Run what was typed; the result comes back to the command line."""
        event.stop()
        self.run(event.text, "line")

    def on_command_line_closed(self, event: CommandLine.Closed) -> None:
        """Give the keys back to the log."""
        event.stop()
        self.query_one(TurnLog).focus()

    def on_party_roster_edit_member(self, event: PartyRoster.EditMember) -> None:
        """A click on the roster opens the party dialog on that member."""
        event.stop()
        if not self.readonly:
            self.action_party(event.name)

    def on_light_inventory_chosen(self, event: LightInventory.Chosen) -> None:
        """A click on a light opens the lights dialog on it."""
        event.stop()
        if not self.readonly:
            self.action_lights(event.light_id)

    def on_action_pane_clicked(self, event: ActionPane.Clicked) -> None:
        """A click on the action pane opens the action chooser."""
        event.stop()
        if not self.readonly:
            self.action_choose_action()
