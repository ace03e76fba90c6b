"""The table's panes: how they are laid out, and the state flowing down into them.

Every pane (``ui/panes/pane.py``) is composed here and given each new state and procedure by
``TablePanes.show``; the turn log's lines are ``LogLines``' (``ui/table/log_lines.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content

from delvetui.core.next_turn import hazard_rule
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.ui.key_footer import KeyFooter, footer_rows
from delvetui.ui.panes.action_pane import ActionPane
from delvetui.ui.panes.alert_strip import AlertStrip
from delvetui.ui.panes.counters import Counters
from delvetui.ui.panes.hazard_table import HazardTable
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.pane import Pane
from delvetui.ui.panes.party_roster import PartyRoster
from delvetui.ui.panes.rooms_pane import RoomsPane
from delvetui.ui.panes.session_bar import SessionBar
from delvetui.ui.panes.side_column import SideColumn
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.panes.time_dice import TimeDice
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table.part import Draws, Shown, W

if TYPE_CHECKING:
    from textual.css.query import DOMQuery
    from textual.geometry import Size


#: The right-hand column's width on a narrow table (delvetui.tcss), and the least the turn
#: log keeps when the column widens for the party's numbers.
NARROW_SIDE, LEAST_LOG = 40, 34


def has_time_dice(procedure: Procedure) -> bool:
    """True when the game reads the hour as time dice: turns of an hour or more."""
    minutes = [procedure.time.length(), *(t.length() for t in procedure.turn_types.values())]
    return max(minutes) >= 60


class PanesTable(Shown, Draws, Protocol):
    """What the layout needs of the table: the screen's widgets, its size and size classes,
    its keys refreshed, and the switches shown in the panes."""

    @property
    def table_dice(self) -> bool: ...

    @property
    def speed(self) -> str: ...

    @property
    def size(self) -> Size: ...

    def query(self, selector: type[W]) -> DOMQuery[W]: ...

    def set_class(self, add: bool, *class_names: str, update: bool = True) -> Any: ...

    def has_class(self, *class_names: str) -> bool: ...

    def call_later(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...

    def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...

    def refresh_bindings(self) -> None: ...


class FooterWidth(Protocol):
    """The cells the footer's keys take side by side (``KeyMap``)."""

    def footer_width(self) -> int: ...


class TablePanes:
    """The header, the turn log and the right-hand column, and the state shown in them."""

    def __init__(self, table: PanesTable, keys: FooterWidth) -> None:
        self.table = table
        self.keys = keys

    def compose(self) -> ComposeResult:
        """The header strips, then the log beside the column of panes."""
        procedure = self.table.procedure
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
                    yield RoomsPane(procedure, id="rooms")
                    yield PartyRoster(procedure, id="roster")
                    yield LightInventory(procedure, id="lights")
                    yield Counters(procedure, id="counters")
                    yield TimeDice(procedure, id="time")
                yield HazardTable(procedure, id="hazard")
                yield ActionPane(procedure, id="action")

    def mounted(self) -> None:
        """Title the panes, and show the table's switches and the state it opened with."""
        table = self.table
        table.query_one(TurnLog).border_title = "Turn log"
        # Short of lines the title is the party's first row instead (no border: not shown).
        table.query_one(PartyRoster).border_title = "Party"
        table.query_one(LightInventory).border_title = "Lights"
        table.query_one(TimeDice).border_title = "Time"
        self.title_hazard()
        table.query_one(Counters).border_title = "Counters"
        self._shown_for(table.procedure)
        table.query_one(ActionPane).border_title = "Action"
        rooms = table.query_one(RoomsPane)
        rooms.border_title = "Room"
        rooms.border_subtitle = "g go · R mark · M map"
        table.query_one(StatusBar).table_dice = table.table_dice
        table.query_one(ActionPane).speed = table.speed
        self.show(table.state, moved=False)
        table.query_one(TurnLog).focus()
        self.lay_out(table.size.width, table.size.height)

    def _shown_for(self, procedure: Procedure) -> None:
        """Show the counters and the time dice only where the procedure has them; where
        the table is short, the header says the time instead of the time pane."""
        table = self.table
        table.query_one(Counters).display = bool(procedure.counters)
        in_header = has_time_dice(procedure) and table.has_class("-short")
        table.query_one(TimeDice).display = has_time_dice(procedure) and not in_header
        table.query_one(StatusBar).with_time = in_header

    def title_hazard(self) -> None:
        """Name the hazard roll (and the table it reads in this kind of turn)."""
        procedure, state = self.table.procedure, self.table.state
        found = hazard_rule(procedure, state.turn_type)
        title = found[1].label if found else "Hazard"
        if found is not None and found[1].tables:
            # One roll with a table per kind of turn: name the table read in this one.
            read = procedure.tables.get(found[1].table_for(state.turn_type))
            title = f"{title}: {read.label}" if read is not None else title
        self.table.query_one(HazardTable).border_title = Content(title)

    def show(self, was: State, *, moved: bool) -> None:
        """Show the table's state in every pane; ``was`` is the state shown before it, and
        ``moved`` says the expedition moved to another procedure (or an undo moved it back)."""
        table = self.table
        state = table.state
        real_time = bool(state.real_time_lights or state.real_timers or state.realtime_paused)
        if real_time != bool(was.real_time_lights or was.real_timers or was.realtime_paused) or (
            state.realtime_paused != was.realtime_paused
        ):
            table.call_later(table.refresh_bindings)  # the pause key comes, goes or turns
        if state.turn_type != was.turn_type:
            table.call_later(table.refresh_bindings)  # s and r follow the kind of turn's actions
        panes = list(table.query(Pane))
        if moved:
            for pane in panes:
                pane.procedure = table.procedure
                pane.refresh(layout=True)
            self._shown_for(table.procedure)
            self.title_hazard()
            table.refresh_bindings()
        for pane in panes:
            pane.state = state
        # The room the party is in, where the expedition has a dungeon of rooms.
        table.query_one(RoomsPane).display = bool(state.rooms)
        self.widen_side()
        table.query_one(SideColumn).share_lines()

    def widen_side(self) -> None:
        """Where the table is narrow, make the right-hand column as wide as the party's
        numbers need (a long name, two-digit hit points, many tracks), up to what leaves
        the log its least width; the log takes the rest."""
        table = self.table
        side = table.query_one(SideColumn)
        if not table.has_class("-narrow"):
            if side.styles.has_rule("width"):
                side.styles.clear_rule("width")
            return
        roster = table.query_one(PartyRoster)
        gutter = side.size.width - roster.content_size.width if roster.content_size.width else 2
        most = table.size.width - LEAST_LOG
        wanted = max(NARROW_SIDE, min(most, roster.least_width() + max(1, gutter)))
        if side.styles.width is None or side.styles.width.value != wanted:
            side.styles.width = wanted

    def show_countdown(self, seconds_left: dict[str, int]) -> None:
        """Show each real-time light's seconds left as the real-time clock counts them."""
        for inventory in self.table.query(LightInventory):  # none while the table closes
            inventory.countdown = seconds_left

    def size_classes(self, width: int, height: int) -> None:
        """The classes that collapse or widen the panes for this size of terminal.

        Set once before the panes are mounted (from ``compose``), they are styled once;
        set after, every pane on the table is styled again.
        """
        self.table.set_class(width < 100, "-narrow")
        self.table.set_class(height < 32, "-short")
        self.table.set_class(width >= 160, "-wide")

    def lay_out(self, width: int, height: int) -> None:
        """Collapse or widen the panes, and fit the footer's keys, for this terminal size."""
        table = self.table
        self.size_classes(width, height)
        table.query_one(TimeDice).compact = height < 48
        table.query_one(PartyRoster).heading_in_title = table.has_class("-short")
        self._shown_for(table.procedure)
        table.query_one(HazardTable).compact = table.has_class("-short")
        footer = table.query_one(KeyFooter)
        rows = footer_rows(self.keys.footer_width(), width)
        if footer.rows != rows:
            footer.rows = rows
        footer.styles.height = rows
        # The panes' borders change with the size: share the column's lines once they have.
        table.call_after_refresh(self.widen_side)
        table.call_after_refresh(table.query_one(SideColumn).share_lines)
