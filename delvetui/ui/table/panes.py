"""The table's panes: how they are laid out, and the state flowing down into them.

Every pane (``ui.panes.pane.Pane``) is composed here and given each new state and procedure by
``TablePanes.show``; the turn log's lines are ``LogLines``' (``ui/table/log_lines.py``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content

from delvetui.application.session_offer import session_offer
from delvetui.core.next_turn import hazard_rule
from delvetui.core.state import State
from delvetui.errors import DelveError
from delvetui.procedure.model import Procedure
from delvetui.ui.key_footer import KeyFooter, footer_rows
from delvetui.ui.panes.action_pane import ActionPane
from delvetui.ui.panes.alert_strip import AlertStrip
from delvetui.ui.panes.counters import Counters
from delvetui.ui.panes.hazard_table import HazardTable
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.pane import Pane
from delvetui.ui.panes.party_roster import PartyRoster
from delvetui.ui.panes.session_bar import SessionBar
from delvetui.ui.panes.side_column import SideColumn
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.panes.time_dice import TimeDice
from delvetui.ui.panes.turn_log import TurnLog

if TYPE_CHECKING:
    from delvetui.ui.table.screen import TableScreen


def has_time_dice(procedure: Procedure) -> bool:
    """True when the game reads the hour as time dice: turns of an hour or more."""
    minutes = [procedure.time.length(), *(t.length() for t in procedure.turn_types.values())]
    return max(minutes) >= 60


def _last_saved_at(screen: TableScreen) -> str | None:
    """When the last command was saved (reads the last batch only)."""
    try:
        return screen.expedition.last_saved_at()
    except DelveError:
        return None  # the history loader reads the same batch and says what is wrong


def _readonly_reason(screen: TableScreen) -> str:
    """Why nothing can be changed ('' while it can), for the header."""
    if screen.damage:
        return screen.damage
    if not screen.expedition.readonly:
        return ""
    return screen.expedition.readonly_reason or "read-only"


class TablePanes:
    """The header, the turn log and the right-hand column, and the state shown in them."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen

    def compose(self) -> ComposeResult:
        """The header strips, then the log beside the column of panes."""
        procedure = self.screen.procedure
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

    def mounted(self) -> None:
        """Title the panes, and show the table's switches and the state it opened with."""
        screen = self.screen
        screen.query_one("#log", TurnLog).border_title = "Turn log"
        screen.query_one("#roster").border_title = "Party"
        screen.query_one("#lights").border_title = "Lights"
        screen.query_one("#time").border_title = "Time"
        self.title_hazard()
        screen.query_one("#counters").border_title = "Counters"
        self._shown_for(screen.procedure)
        screen.query_one("#action").border_title = "Action"
        status = screen.query_one(StatusBar)
        status.readonly = _readonly_reason(screen)
        status.table_dice = screen.table_dice
        screen.query_one(ActionPane).speed = screen.speed
        self.show(screen.state, moved=False)
        screen.query_one(TurnLog).focus()
        self.lay_out(screen.size.width, screen.size.height)
        self.offer_session()

    def _shown_for(self, procedure: Procedure) -> None:
        """Show the counters and the time dice only where the procedure has them."""
        self.screen.query_one("#counters").display = bool(procedure.counters)
        self.screen.query_one("#time").display = has_time_dice(procedure)

    def title_hazard(self) -> None:
        """Name the hazard roll (and the table it reads in this kind of turn)."""
        procedure, state = self.screen.procedure, self.screen.state
        found = hazard_rule(procedure, state.turn_type)
        title = found[1].label if found else "Hazard"
        if found is not None and found[1].tables:
            # One roll with a table per kind of turn: name the table read in this one.
            table = procedure.tables.get(found[1].table_for(state.turn_type))
            title = f"{title}: {table.label}" if table is not None else title
        self.screen.query_one("#hazard").border_title = Content(title)

    def show(self, was: State, *, moved: bool) -> None:
        """Show the screen's state in every pane; ``was`` is the state shown before it, and
        ``moved`` says the expedition moved to another procedure (or an undo moved it back)."""
        screen = self.screen
        state = screen.state
        if (state.session, state.in_session) != (was.session, was.in_session):
            screen.query_one(SessionBar).offer = None  # a session began or ended: offer done
        real_time = bool(state.real_time_lights or state.real_timers or state.realtime_paused)
        if real_time != bool(was.real_time_lights or was.real_timers or was.realtime_paused) or (
            state.realtime_paused != was.realtime_paused
        ):
            screen.call_later(screen.refresh_bindings)  # the pause key comes, goes or turns
        if state.turn_type != was.turn_type:
            screen.call_later(screen.refresh_bindings)  # s and r follow the kind of turn's actions
        panes = list(screen.query(Pane))
        if moved:
            for pane in panes:
                pane.procedure = screen.procedure
                pane.refresh(layout=True)
            self._shown_for(screen.procedure)
            self.title_hazard()
            screen.refresh_bindings()
        screen.turns.follow(state)
        for pane in panes:
            pane.state = state
        screen.query_one(SideColumn).share_lines()

    def size_classes(self, width: int, height: int) -> None:
        """The classes that collapse or widen the panes for this size of terminal.

        Set once before the panes are mounted (from ``compose``), they are styled once;
        set after, every pane on the table is styled again.
        """
        self.screen.set_class(width < 100, "-narrow")
        self.screen.set_class(height < 32, "-short")
        self.screen.set_class(width >= 160, "-wide")

    def lay_out(self, width: int, height: int) -> None:
        """Collapse or widen the panes, and fit the footer's keys, for this terminal size."""
        screen = self.screen
        self.size_classes(width, height)
        screen.query_one(TimeDice).compact = height < 48
        screen.query_one(HazardTable).compact = screen.has_class("-short")
        footer = screen.query_one(KeyFooter)
        rows = footer_rows(screen.key_map.footer_width(), width)
        if footer.rows != rows:
            footer.rows = rows
        footer.styles.height = rows
        # The panes' borders change with the size: share the column's lines once they have.
        screen.call_after_refresh(screen.query_one(SideColumn).share_lines)

    def offer_session(self) -> None:
        """Offer a session when none is running, or the running one was left after a break."""
        screen = self.screen
        bar = screen.query_one(SessionBar)
        if screen.readonly:
            bar.offer = None
            return
        last_at = _last_saved_at(screen) if screen.state.in_session else None
        bar.key = screen.key_map.key_of("session")
        bar.offer = session_offer(screen.state, last_at, dt.datetime.now(dt.UTC))
