"""The table's view: the state shown in the panes, the turn log and notices, the layout."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.events import Resize

from delvetui.core.log import Line, batch_lines
from delvetui.core.state import State
from delvetui.core.timeline import Batch, void, voiding
from delvetui.errors import DelveError
from delvetui.procedure.model import Procedure
from delvetui.text import visible
from delvetui.ui.action_pane import ActionPane
from delvetui.ui.alert_strip import AlertStrip
from delvetui.ui.command_line import CommandLine
from delvetui.ui.compact_log import compact_lines
from delvetui.ui.counters import Counters
from delvetui.ui.hazard_table import HazardTable, hazard_rule
from delvetui.ui.key_footer import KeyFooter, footer_rows
from delvetui.ui.key_use import unused_keys
from delvetui.ui.light_inventory import LightInventory
from delvetui.ui.party_roster import PartyRoster
from delvetui.ui.session_bar import SessionBar, session_offer
from delvetui.ui.side_column import SideColumn
from delvetui.ui.status_bar import StatusBar
from delvetui.ui.table_base import TableBase
from delvetui.ui.time_dice import TimeDice
from delvetui.ui.turn_log import TurnLog

#: Above this many commands the log says it is being read.
CHUNK = 200
#: Lines of a turn shown in the notice when it needs attention (an encounter, a sign).
NOTICE_LINES = 6


def has_time_dice(procedure: Procedure) -> bool:
    """True when the game reads the hour as time dice: turns of an hour or more."""
    minutes = [procedure.time.length(), *(t.length() for t in procedure.turn_types.values())]
    return max(minutes) >= 60


def bindings_of(items: Sequence[BindingType]) -> Iterator[Binding]:
    for item in items:
        if isinstance(item, Binding):
            yield item


class TableView(TableBase):
    """The state flowing down: the panes, the turn log, the notices and the layout."""

    def _show_newest(self) -> None:
        """Draw the newest turns before the first paint, from a snapshot kept for it.

        A file without such a snapshot (saved by an older delvetui) shows that its log is
        being read, and ``load_history`` reads it all.
        """
        expedition = self.expedition
        log = self.query_one(TurnLog)
        try:
            found = expedition.newest()
        except DelveError as error:
            self._found_damage(error.message)
            found = None
        if found is None:
            if expedition.batch_count > CHUNK and not self.damage:
                log.loading_text = f"Reading the log of {expedition.batch_count:,} commands…"
            return
        first, pairs = found
        lines: list[Line] = []
        voided: set[int] = set()
        for batch, before in pairs:
            lines.extend(
                batch_lines(batch, self._procedure_at(before), before, session=before.session)
            )
            void(voided, voiding(batch))
        self._full = lines
        log.replace(self._shown(lines), voided)
        self.query_one(CommandLine).remember(batch.command for batch, _ in pairs if batch.seq > 1)
        moving = ""
        for state in [before for _, before in pairs[1:]] + [self.state]:
            moving = self._moving_of(state, moving)
        if moving:
            self.moving = moving
            self.query_one(ActionPane).moving = moving
        self._newest_from = first
        self.newest_shown = True
        self.post_message(self.NewestShown())
        if first == 1:
            # Every batch was replayed, up to the state the expedition opened with: the
            # background has only the file's pages to check.
            self._all_shown = True
        elif self.check:
            log.border_subtitle = "reading older turns…"

    def follow_writer(self) -> None:
        """Show what another delvetui committed to the file this table reads (read-only)."""
        if self.damage:
            return
        try:
            self.expedition.follow()  # each new batch comes back through show_batch
        except DelveError as error:
            self._found_damage(error.message)

    def _title_hazard(self) -> None:
        found = hazard_rule(self.procedure, self.state.turn_type)
        title = found[1].label if found else "Hazard"
        if found is not None and found[1].tables:
            # One roll with a table per kind of turn: name the table read in this one.
            table = self.procedure.tables.get(found[1].table_for(self.state.turn_type))
            title = f"{title}: {table.label}" if table is not None else title
        self.query_one("#hazard").border_title = Content(title)

    def _offer_session(self) -> None:
        """Offer a session when none is running, or the running one was left after a break."""
        bar = self.query_one(SessionBar)
        if self.readonly:
            bar.offer = None
            return
        last_at = self._last_command_at() if self.state.in_session else None
        bar.key = self._key_of("session")
        bar.offer = session_offer(self.state, last_at, dt.datetime.now(dt.UTC))

    def _last_command_at(self) -> str | None:
        """When the last command was saved (reads the last batch only)."""
        try:
            return self.expedition.last_saved_at()
        except DelveError:
            return None  # load_history reads the same batch and says what is wrong

    def _key_of(self, action: str) -> str:
        """The key of an action as shown (the keymap may have moved it)."""
        for active in self.active_bindings.values():
            if active.binding.action == action:
                return self.app.get_key_display(active.binding)
        return action

    def on_resize(self, event: Resize) -> None:
        """Collapse the panes on small terminals."""
        self._layout_for(event.size.width, event.size.height)

    def _size_classes(self, width: int, height: int) -> None:
        """The classes that collapse or widen the panes for this size of terminal.

        Set once before the panes are mounted (from ``compose``), they are styled once;
        set after, every pane on the table is styled again.
        """
        self.set_class(width < 100, "-narrow")
        self.set_class(height < 32, "-short")
        self.set_class(width >= 160, "-wide")

    def _layout_for(self, width: int, height: int) -> None:
        self._size_classes(width, height)
        self.query_one(TimeDice).compact = height < 48
        self.query_one(HazardTable).compact = self.has_class("-short")
        footer = self.query_one(KeyFooter)
        rows = footer_rows(self._footer_width(), width)
        if footer.rows != rows:
            footer.rows = rows
        footer.styles.height = rows
        # The panes' borders change with the size: share the column's lines once they have.
        self.call_after_refresh(self.query_one(SideColumn).share_lines)

    def _footer_width(self) -> int:
        """The cells every key of the footer takes side by side (with the palette's key)."""
        cells = 0
        unused = unused_keys(self.procedure, self.state.turn_type)
        for binding in bindings_of(self.BINDINGS):
            if binding.action in unused:
                continue
            if binding.show and self.check_action(binding.action, ()) is not False:
                key = binding.key_display or binding.key.split(",")[0]
                cells += len(key) + len(binding.description) + 2
        return cells + len("^p palette") + 2

    def _show_state(self, state: State) -> None:
        if (state.session, state.in_session) != (self.state.session, self.state.in_session):
            self.query_one(SessionBar).offer = None  # a session began or ended: offer done
        real_time = bool(state.real_time_lights or state.real_timers or state.realtime_paused)
        was = self.state
        if real_time != bool(was.real_time_lights or was.real_timers or was.realtime_paused) or (
            state.realtime_paused != self.state.realtime_paused
        ):
            self.call_later(self.refresh_bindings)  # the pause key comes, goes or turns
        if state.turn_type != self.state.turn_type:
            self.call_later(self.refresh_bindings)  # s and r follow the kind of turn's actions
        self.state = state
        current = self.expedition.procedure
        if current is not self.procedure:
            # The expedition moved to another procedure (or an undo moved it back).
            self.procedure = current
            panes: tuple[
                StatusBar
                | AlertStrip
                | PartyRoster
                | LightInventory
                | TimeDice
                | HazardTable
                | Counters
                | ActionPane,
                ...,
            ] = (
                self.query_one(StatusBar),
                self.query_one(AlertStrip),
                self.query_one(PartyRoster),
                self.query_one(LightInventory),
                self.query_one(TimeDice),
                self.query_one(HazardTable),
                self.query_one(Counters),
                self.query_one(ActionPane),
            )
            for pane in panes:
                pane.procedure = current
                pane.refresh(layout=True)
            self.query_one("#counters").display = bool(current.counters)
            self.query_one("#time").display = has_time_dice(current)
            self._title_hazard()
            self.refresh_bindings()
        self.moving = self._moving_of(state, self.moving)
        self.query_one(ActionPane).moving = self.moving
        self.query_one(StatusBar).state = state
        self.query_one(AlertStrip).state = state
        self.query_one(PartyRoster).state = state
        self.query_one(LightInventory).state = state
        self.query_one(TimeDice).state = state
        self.query_one(HazardTable).state = state
        self.query_one(Counters).state = state
        self.query_one(ActionPane).state = state
        self.query_one(SideColumn).share_lines()

    def show_countdown(self, seconds_left: dict[str, int]) -> None:
        """Show each real-time light's seconds left as the real-time clock counts them."""
        for inventory in self.query(LightInventory):  # none while the table closes
            inventory.countdown = seconds_left

    def show_batch(self, batch: Batch, state: State) -> None:
        """A command was committed: add its lines to the log and show the new state."""
        before = self.state
        self._show_state(state)
        if not self.newest_shown:
            self._waiting.append((batch, before))
            return
        self._append(batch, before)

    def _append(self, batch: Batch, before: State) -> None:
        log = self.query_one(TurnLog)
        procedure = self._procedure_at(before)
        lines = list(batch_lines(batch, procedure, before, session=before.session))
        self._full.extend(lines)
        log.append(self._shown(lines))
        for target, voided in voiding(batch):
            log.set_voided(target, voided)
            if not self.loaded:
                self._live_voiding.append((target, voided))
            if voided and target == self._noticed:
                # The turn that raised the notice was undone (or is being made again with
                # a roll fixed): its notice goes with it.
                self.app.clear_notifications()
                self._noticed = None
        self._notice(lines)

    def _shown(self, lines: Sequence[Line]) -> Sequence[Line]:
        """The lines as the log shows them: in full, or one line a turn."""
        return compact_lines(lines) if self.compact_log else lines

    def action_compact_log(self) -> None:
        """Switch between the compact log (one line a turn) and the full log."""
        self.compact_log = not self.compact_log
        log = self.query_one(TurnLog)
        log.border_title = "Turn log (compact)" if self.compact_log else "Turn log"
        if self.newest_shown:
            log.replace(self._shown(self._full), log.voided)

    def _notice(self, lines: Sequence[Line]) -> None:
        """An encounter or a sign: show it with its sub-rolls, without stopping play."""
        for index, line in enumerate(lines):
            if line.kind in ("encounter", "sign"):
                shown = [visible(item.text) for item in lines[index : index + NOTICE_LINES]]
                # One notice at a time: turns taken quickly would stack them over the panes
                # (each is in the log too).
                self.app.clear_notifications()
                self._noticed = line.batch
                self.notify(
                    "\n".join(shown),
                    title="Encounter" if line.kind == "encounter" else "Sign",
                    severity="warning",
                    timeout=8,
                    markup=False,
                )
                return
