"""The table screen: turn log, party, lights, time dice, hazard table, counters, keys.

The screen owns no rules. Keys and clicks become commands of the command language
(``turn search``, ``light on torch2``), posted as :class:`TableScreen.Run`; the app runs
them through the expedition and hands each committed batch back to :meth:`show_batch`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import shlex
import time
from collections.abc import Callable, Iterator, Sequence
from typing import ClassVar, Literal

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen

from delvetui.application.realtime import RealTimeClock
from delvetui.core import commands, dice
from delvetui.core.log import Line, batch_lines
from delvetui.core.state import State
from delvetui.core.timeline import Batch, Timeline, void, voiding
from delvetui.errors import CommandError, DelveError, DiceError
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition, check_pages
from delvetui.text import visible
from delvetui.ui.action_dialog import SPEED, ActionDialog
from delvetui.ui.action_pane import ActionPane, next_action
from delvetui.ui.alert_strip import AlertStrip
from delvetui.ui.ask import AskScreen
from delvetui.ui.choose import ChooseScreen
from delvetui.ui.command_line import CommandLine
from delvetui.ui.compact_log import compact_lines
from delvetui.ui.counters import Counters
from delvetui.ui.hazard_table import HazardTable, hazard_rule
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.light_inventory import LightInventory
from delvetui.ui.odds_dialog import OddsDialog
from delvetui.ui.party_roster import PartyRoster
from delvetui.ui.reveal import reveal_choices
from delvetui.ui.session_bar import SessionBar, session_offer
from delvetui.ui.status_bar import StatusBar
from delvetui.ui.time_dice import TimeDice
from delvetui.ui.turn_log import TurnLog

#: Longest stretch (seconds) the history loader works before letting keys and paint through.
BREATH = 0.015
#: Above this many commands the log says it is being read.
CHUNK = 200
#: Lines of a turn shown in the notice when it needs attention (an encounter, a sign).
NOTICE_LINES = 6
#: Seconds between looks for another delvetui's commits, while the table is read-only.
FOLLOW_EVERY = 0.5

Source = Literal["key", "line"]
#: Actions that change the expedition (refused while it is read-only).
CHANGING = frozenset(
    {
        "next_turn",
        "choose_action",
        "search",
        "rest",
        "lights",
        "party",
        "roll",
        "note",
        "undo",
        "redo",
        "fix_roll",
        "clock",
        "session",
        "pause_realtime",
        "resume_realtime",
    }
)


def check_command(text: str) -> str | None:
    """None when the text is a command of the language, else what is wrong."""
    try:
        commands.parse(text)
    except CommandError as error:
        return error.message
    return None


def check_roll_text(text: str) -> str | None:
    """None when 'roll TEXT' is a roll of dice that exist, else what is wrong."""
    problem = check_command(f"roll {text}")
    if problem is not None:
        return problem
    try:
        dice.parse(text.split()[0])
    except DiceError as error:
        return error.message
    return None


def rest_action(procedure: Procedure) -> str | None:
    """The action that rests: the one the procedure's rest names, else the first rest action."""
    if procedure.rest is not None and procedure.rest.action in procedure.actions:
        return procedure.rest.action
    return next((name for name, a in procedure.actions.items() if a.kind == "rest"), None)


class TableScreen(Screen[None]):
    """The referee's table for one open expedition."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "n,space",
            "next_turn",
            "Turn",
            id="next-turn",
            key_display="n",
            tooltip="Next turn with the current action",
        ),
        Binding(
            "a",
            "choose_action",
            "Action",
            id="choose-action",
            tooltip="Choose the action or movement mode, and take the turn",
        ),
        Binding("s", "search", "Search", id="search", tooltip="A turn searching"),
        Binding("r", "rest", "Rest", id="rest", tooltip="A turn resting"),
        Binding(
            "l",
            "lights",
            "Lights",
            id="lights",
            tooltip="Light, put out, hand over, correct or add a light",
        ),
        Binding(
            "p",
            "party",
            "Party",
            id="party",
            tooltip="Hit points, correct, add or remove a party member",
        ),
        Binding("d", "roll", "Dice", id="roll", tooltip="Roll any dice into the log"),
        Binding("m", "note", "Note", id="note", tooltip="Write a note in the log"),
        Binding(
            "colon",
            "command_line",
            "Command",
            id="command-line",
            key_display=":",
            tooltip="The command line (the commands of delvetui act)",
            # Handled before the keys typed after it are passed on, so a fast ":turn" goes
            # into the command line, not to the table's own keys.
            priority=True,
        ),
        Binding(
            "u", "undo", "Undo", id="undo", tooltip="Undo the last command (it shows in the log)"
        ),
        Binding("ctrl+r", "redo", "Redo", id="redo", tooltip="Redo what was undone"),
        Binding(
            "f",
            "fix_roll",
            "Fix roll",
            id="fix-roll",
            tooltip="Fix a mistaken roll of the last command",
        ),
        Binding(
            "c",
            "clock",
            "Clock",
            id="clock",
            tooltip="Set the clock, or roll the hour with time dice",
        ),
        Binding(
            "S",
            "session",
            "Session",
            id="session",
            tooltip="Start a session, or end the running one",
        ),
        Binding(
            "escape",
            "dismiss_offer",
            "Not now",
            id="dismiss-offer",
            show=False,
            tooltip="Put away the offer to start a session",
        ),
        Binding(
            "t",
            "table_dice",
            "Table dice",
            id="table-dice",
            tooltip="Table dice: ask me for every roll instead of rolling",
        ),
        Binding(
            "x",
            "export",
            "Export",
            id="export",
            tooltip="Export the log (text, Markdown, HTML, JSON)",
        ),
        Binding(
            "o",
            "odds",
            "Odds",
            id="odds",
            show=False,
            tooltip="The odds: an encounter this turn and within the hour, each light going out",
        ),
        Binding(
            "P",
            "reveal",
            "Reveal",
            id="reveal",
            show=False,
            tooltip="Show the players (delvetui players) the sign, the encounter or the HP",
        ),
        Binding(
            "b",
            "pause_realtime",
            "Pause",
            id="pause-realtime",
            tooltip="Pause every light that burns in real time (for a break)",
        ),
        Binding(
            "b",
            "resume_realtime",
            "Resume",
            id="resume-realtime",
            tooltip="Let the paused real-time lights burn again",
        ),
        Binding(
            "v",
            "compact_log",
            "Compact",
            id="compact-log",
            tooltip="The log one line a turn, or in full",
        ),
        Binding(
            "question_mark",
            "help",
            "Help",
            id="help",
            key_display="?",
            tooltip="Every key, the command language, the procedure",
        ),
    ]
    """The table's keys; each has an id, so a keymap in the preferences can rebind it."""

    table_dice: reactive[bool] = reactive(False)
    """Ask the game master for every roll instead of rolling."""

    speed: reactive[str] = reactive("")
    """The movement speed added to turns ('' for the procedure's default)."""

    compact_log: reactive[bool] = reactive(False)
    """Show the log one line a turn (action, roll, result, changes) instead of in full."""

    class Run(Message):
        """Run a command of the command language on the expedition (and ``then`` more)."""

        def __init__(self, text: str, source: Source = "key", then: Sequence[str] = ()) -> None:
            super().__init__()
            self.text = text
            self.source = source
            self.then = tuple(then)

    class FixRoll(Message):
        """Undo the last command and make it again with a roll corrected."""

    class Export(Message):
        """Export the expedition's log in a format (txt, md, html or json)."""

        def __init__(self, fmt: str) -> None:
            super().__init__()
            self.fmt = fmt

    class Settings(Message):
        """Table dice, the speed or asking before trouble changed; the app remembers them."""

    class NewestShown(Message):
        """The log shows the newest turns (older ones may still be read in)."""

    class Damaged(Message):
        """The page check or reading the whole log found damage, or a replay that disagrees.

        The table is read-only from then on.
        """

        def __init__(self, message: str) -> None:
            super().__init__()
            self.message = message

    def __init__(
        self,
        expedition: Expedition,
        *,
        table_dice: bool = False,
        speed: str = "",
        check: bool = True,
        confirm_trouble: bool = True,
        realtime: RealTimeClock | None = None,
    ) -> None:
        super().__init__()
        self.expedition = expedition
        #: The real-time clock (None while read-only): the countdown of real-time lights.
        self.realtime = realtime
        self.procedure = expedition.procedure
        self.state = expedition.state
        #: The log holds the newest turns (drawn before the first paint when it can be).
        self.newest_shown = False
        #: The whole log is read in (and, when ``check``, the file was checked).
        #: Ask before a turn into total darkness or with a member at 0 HP.
        self.confirm_trouble = confirm_trouble
        #: The trouble the game master already said to go on into (asked once).
        self._accepted: frozenset[str] = frozenset()
        #: The last movement mode taken: ``n`` goes on with it after a search or a rest.
        self.moving = self._moving_of(expedition.state, "")
        self.loaded = False
        #: Read the older history and check the file in the background once painted; off
        #: for a screenshot, which shows the first screen and exits.
        self.check = check
        #: What is wrong with the file ('' while nothing is); changes are refused when set.
        self.damage = ""
        self._opened = (expedition.batch_count, expedition.state)
        self._newest_from = 0
        self._all_shown = False
        self._waiting: list[tuple[Batch, State]] = []
        self._live_voiding: list[tuple[int, bool]] = []
        #: Every line of the full log (the log widget may show the compact one).
        self._full: list[Line] = []
        #: The batch whose encounter or sign the notice on screen shows.
        self._noticed: int | None = None
        self._checked = asyncio.Event()
        self.set_reactive(TableScreen.table_dice, table_dice)
        self.set_reactive(TableScreen.speed, speed)

    # Layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Header, log, the right-hand column, command line and footer."""
        procedure = self.procedure
        yield StatusBar(procedure, id="status")
        yield AlertStrip(procedure, id="alerts")
        yield SessionBar(id="session-offer")
        with Horizontal(id="body"):
            yield TurnLog(id="log")
            # The next action and the hazard table stay in view at every size; the party,
            # the lights, the clock and the counters scroll above them when space is short.
            with Vertical(id="side"):
                with VerticalScroll(id="side-scroll"):
                    yield PartyRoster(procedure, id="roster")
                    yield LightInventory(procedure, id="lights")
                    yield Counters(procedure, id="counters")
                    yield TimeDice(procedure, id="time")
                yield HazardTable(procedure, id="hazard")
                yield ActionPane(procedure, id="action")
        yield CommandLine(self.completion_context, id="command")
        yield KeyFooter(compact=True)

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
        self.query_one("#hazard").border_title = Content(found[1].label if found else "Hazard")

    def _readonly_reason(self) -> str:
        if self.damage:
            return self.damage
        if not self.expedition.readonly:
            return ""
        return self.expedition.readonly_reason or "read-only"

    @property
    def readonly(self) -> bool:
        """True when nothing can be changed: the file is read-only, or found damaged."""
        return self.expedition.readonly or bool(self.damage)

    async def pages_checked(self) -> None:
        """Wait until the file's pages were checked (the app writes nothing before)."""
        await self._checked.wait()

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

    def _found_damage(self, problem: str) -> None:
        """The file is damaged: make the table read-only and tell the game master."""
        if self.damage:
            return
        self.damage = problem
        self.expedition.found_damaged(problem)
        self.query_one(StatusBar).readonly = problem
        self.query_one(SessionBar).offer = None
        self.refresh_bindings()
        self.post_message(self.Damaged(problem))

    def on_resize(self, event: Resize) -> None:
        """Collapse the panes on small terminals."""
        self._layout_for(event.size.width, event.size.height)

    def _layout_for(self, width: int, height: int) -> None:
        narrow = width < 100
        short = height < 32
        wide = width >= 160
        self.set_class(narrow, "-narrow")
        self.set_class(short, "-short")
        self.set_class(wide, "-wide")
        self.query_one(TimeDice).compact = height < 48
        self.query_one(HazardTable).compact = short
        footer = self.query_one(KeyFooter)
        rows = footer_rows(self._footer_width(), width)
        if footer.rows != rows:
            footer.rows = rows
        footer.styles.height = rows

    def _footer_width(self) -> int:
        """The cells every key of the footer takes side by side (with the palette's key)."""
        cells = 0
        for binding in _bindings(self.BINDINGS):
            if binding.show and self.check_action(binding.action, ()) is not False:
                key = binding.key_display or binding.key.split(",")[0]
                cells += len(key) + len(binding.description) + 2
        return cells + len("^p palette") + 2

    # State flowing down ------------------------------------------------------------------

    def _show_state(self, state: State) -> None:
        if (state.session, state.in_session) != (self.state.session, self.state.in_session):
            self.query_one(SessionBar).offer = None  # a session began or ended: offer done
        real_time = bool(state.real_time_lights or state.realtime_paused)
        if real_time != bool(self.state.real_time_lights or self.state.realtime_paused) or (
            state.realtime_paused != self.state.realtime_paused
        ):
            self.call_later(self.refresh_bindings)  # the pause key comes, goes or turns
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

    def _procedure_at(self, state: State) -> Procedure:
        """The procedure the expedition followed in that state (it can be changed)."""
        return self.expedition.procedure_at(state)

    # Keys --------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys the procedure has no use for; grey out changes when read-only."""
        if action == "search" and "search" not in self.procedure.actions:
            return False
        if action == "rest" and rest_action(self.procedure) is None:
            return False
        if action == "command_line" and self.query_one(CommandLine).has_class("-open"):
            return False  # a ":" typed in the command line is text
        if action == "dismiss_offer":
            return self.query_one(SessionBar).offer is not None
        if action in ("pause_realtime", "resume_realtime"):
            # One key: Pause while the real-time clock runs, Resume while it is paused, and
            # neither shown where no light burns in real time.
            paused = self.state.realtime_paused
            if not (self.state.real_time_lights or paused):
                return False
            if paused != (action == "resume_realtime"):
                return False
        if action in CHANGING and self.readonly:
            return None
        return True

    @property
    def writable_now(self) -> bool:
        """True once the file's pages are checked and no damage was found."""
        return self._checked.is_set() and not self.damage and not self.readonly

    def show_countdown(self, seconds_left: dict[str, int]) -> None:
        """Show each real-time light's seconds left as the real-time clock counts them."""
        for inventory in self.query(LightInventory):  # none while the table closes
            inventory.countdown = seconds_left

    def action_pause_realtime(self) -> None:
        """Pause every light that burns in real time."""
        self.run("realtime pause")

    def action_resume_realtime(self) -> None:
        """Let the paused real-time lights burn again."""
        self.run("realtime resume")

    def run(self, text: str, source: Source = "key", *, then: Sequence[str] = ()) -> None:
        """Ask the app to run a command (and then these, while each goes through)."""
        self.post_message(self.Run(text, source, then))

    def _moving_of(self, state: State, moving: str) -> str:
        """The last movement mode, given the state after a command and the one before."""
        action = self.procedure.actions.get(state.action or "")
        return (
            state.action
            if action is not None and action.kind == "move" and state.action
            else moving
        )

    def _turn(self, action: str | None = None) -> str:
        words = ["turn"] if action is None else ["turn", action]
        if self.speed and self.speed != self.procedure.movement.default_speed:
            words.append(f"speed={self.speed}")
        return shlex.join(words)

    def trouble(self) -> dict[str, str]:
        """What makes the next turn dangerous: total darkness, a member at 0 HP."""
        state = self.state
        found: dict[str, str] = {}
        if state.light_level == "dark":
            found["dark"] = "The party is in total darkness."
        for member in state.party:
            if member.hp <= 0:
                found[f"down:{member.name}"] = f"{member.name} is at 0 HP."
        return found

    def _turn_checked(self, command: str) -> None:
        """Run a turn; into trouble not yet accepted, ask once first."""
        trouble = self.trouble()
        fresh = set(trouble) - self._accepted
        if not self.confirm_trouble or not fresh:
            self._accepted = frozenset(trouble)
            self.run(command)
            return

        def chosen(answer: str | None) -> None:
            if answer is None or answer == "no":
                return
            if answer == "never":
                self.confirm_trouble = False
                self.post_message(self.Settings())
            self._accepted = frozenset(trouble)
            self.run(command)

        self.app.push_screen(
            ChooseScreen(
                " ".join(trouble.values()) + " Take the turn?",
                [
                    ("yes", Text("Yes, take the turn")),
                    ("no", Text("No, not yet")),
                    ("never", Text("Go on, and never ask this again (table preferences)")),
                ],
                hint="asked once for each danger · esc is no",
                selected="yes",
            ),
            chosen,
        )

    def action_next_turn(self) -> None:
        """Take the next turn: the current action, or the movement mode after s or r."""
        name, _ = next_action(self.state, self.procedure, self.moving)
        current = self.state.action or self.procedure.default_action
        self._turn_checked(self._turn(None if name == current else name))

    def take_turn(self, action: str) -> None:
        """Take a turn with this action (it becomes the current one)."""
        self._turn_checked(self._turn(action))

    def action_search(self) -> None:
        """Take a turn searching."""
        self.take_turn("search")

    def action_rest(self) -> None:
        """Take a turn resting."""
        action = rest_action(self.procedure)
        if action is not None:
            self.take_turn(action)

    def action_choose_action(self) -> None:
        """Choose the action (or the movement speed) and take a turn with it."""

        def chosen(answer: str | None) -> None:
            if answer is None:
                return
            if answer.startswith(SPEED):
                self.speed = answer[len(SPEED) :]
                self.query_one(ActionPane).speed = self.speed
                self.post_message(self.Settings())
                self.notify(f"Moving at {self.speed} speed.", markup=False)
                return
            self.take_turn(answer)

        self.app.push_screen(
            ActionDialog(self.state, self.procedure, speed=self.speed, moving=self.moving), chosen
        )

    def action_lights(self, selected: str | None = None) -> None:
        """Light, put out, hand over, correct or add a light."""
        from delvetui.ui.light_dialog import LightDialog

        self.app.push_screen(
            LightDialog(self.state, self.procedure, selected=selected), self._run_answer
        )

    def action_party(self, selected: str | None = None) -> None:
        """Add a party member, correct one, or change hit points."""
        from delvetui.ui.party_dialog import PartyDialog

        self.app.push_screen(
            PartyDialog(self.state, self.procedure, selected=selected), self._run_answer
        )

    def _run_answer(self, command: str | None) -> None:
        # A dialog may answer with several commands, one a line (refuel, then light).
        if command:
            first, *then = command.splitlines()
            self.run(first, then=then)

    def _ask_and_run(self, question: AskScreen, command: Callable[[str], str]) -> None:
        """Ask the question; run the command made of a (non-empty) answer."""

        def answered(text: str | None) -> None:
            if text:
                self.run(command(text))

        self.app.push_screen(question, answered)

    def action_roll(self) -> None:
        """Roll any dice into the log."""
        from delvetui.ui.ask import AskScreen

        self._ask_and_run(
            AskScreen(
                "Roll dice",
                "What to roll, and what for (e.g. 2d6 reaction, d20+2 save for Ash).",
                placeholder="2d6 reaction",
                check=check_roll_text,
            ),
            lambda text: f"roll {text}",
        )

    def action_note(self) -> None:
        """Write a note in the log."""
        from delvetui.ui.ask import AskScreen

        self._ask_and_run(
            AskScreen(
                "Note", "A note for the log.", check=lambda text: check_command(f"note {text}")
            ),
            lambda text: f"note {text}",
        )

    def action_clock(self) -> None:
        """Set the clock (or roll the hour with time dice); the change shows in the log."""
        from delvetui.ui.ask import AskScreen

        self._ask_and_run(
            AskScreen(
                "Set the clock",
                f"It is {self.state.clock_text} on day {self.state.day}. Type the time as "
                "HH:MM, or 'roll N' to roll the hour with N time dice.",
                value=self.state.clock_text,
                check=lambda text: check_command(_clock_command(text)),
            ),
            _clock_command,
        )

    def action_session(self) -> None:
        """Take up the session offer; else start a session, or end the running one."""
        from delvetui.ui.choose import ChooseScreen

        bar = self.query_one(SessionBar)
        offer = bar.offer
        if offer is not None:
            bar.offer = None
            first, *then = offer.commands
            self.run(first, then=then)
            return
        state = self.state
        if not state.in_session:
            self.run("session start")
            return
        number = state.session

        def chosen(answer: str | None) -> None:
            if answer == "end":
                self.run("session end")
            elif answer == "next":
                self.run("session end", then=["session start"])

        self.app.push_screen(
            ChooseScreen(
                f"Session {number} is running",
                [
                    ("end", Text(f"End session {number}")),
                    ("next", Text(f"End session {number} and start session {number + 1}")),
                ],
                hint="esc keeps playing in this session",
            ),
            chosen,
        )

    def action_dismiss_offer(self) -> None:
        """Put the session offer away (until the expedition is opened again)."""
        self.query_one(SessionBar).offer = None
        self.refresh_bindings()

    def action_command_line(self, text: str = "") -> None:
        """Open the command line."""
        self.query_one(CommandLine).open(text)

    def action_undo(self) -> None:
        """Undo the last command still standing."""
        self.run("undo")

    def action_redo(self) -> None:
        """Redo the last undone command."""
        self.run("redo")

    def action_fix_roll(self) -> None:
        """Correct a roll of the last command (undo, then the same command with the number)."""
        self.post_message(self.FixRoll())

    def action_table_dice(self) -> None:
        """Switch table dice on or off."""
        self.table_dice = not self.table_dice
        self.post_message(self.Settings())
        if self.table_dice:
            self.notify("Table dice on: you will be asked for every roll.", markup=False)
        else:
            self.notify("Table dice off: the program rolls.", markup=False)

    def watch_table_dice(self, value: bool) -> None:
        """Show the switch in the header."""
        if self.is_mounted:
            self.query_one(StatusBar).table_dice = value

    def action_export(self) -> None:
        """Export the log: plain text, Markdown, HTML or JSON."""
        from delvetui.ui.choose import ChooseScreen

        def chosen(fmt: str | None) -> None:
            if fmt is not None:
                self.post_message(self.Export(fmt))

        self.app.push_screen(
            ChooseScreen(
                "Export the log",
                [
                    ("txt", Text("Plain text (.txt)")),
                    ("md", Text("Markdown (.md)")),
                    ("html", Text("Web page (.html)")),
                    ("json", Text("JSON, to import again (.json)")),
                ],
                hint="The file is written in the exports folder beside the saved expeditions.",
            ),
            chosen,
        )

    def action_help(self) -> None:
        """Show every key and the command language."""
        from delvetui.ui.help_screen import HelpScreen

        keys: list[tuple[str, str]] = []
        for binding in _bindings(self.BINDINGS):
            shown = " or ".join(
                self.app.get_key_display(Binding(key, binding.action))
                for key in binding.key.split(",")
            )
            keys.append((shown, binding.tooltip or binding.description))
        keys.append(("ctrl+p", "Command palette: every command and action"))
        keys.append(("ctrl+t", "Dark or light theme"))
        keys.append(("ctrl+q", "Quit (everything is already saved)"))
        keys.append(("↑ ↓ pgup pgdn", "Scroll the log (home and end: its ends)"))
        keys.append(("click", "A member, a light or the action pane to change it"))
        self.app.push_screen(HelpScreen(keys, self.procedure))

    def action_reveal(self) -> None:
        """Show something on the players' screen, or hide it again."""
        choices = reveal_choices(self.state, self.procedure)
        if not choices:
            self.notify("The procedure already shows the players everything they may see.")
            return

        def chosen(command: str | None) -> None:
            if command is not None:
                self.run(command)

        hint = "What the players' screen (delvetui players) shows."
        self.app.push_screen(ChooseScreen("The players' screen", choices, hint=hint), chosen)

    def action_odds(self) -> None:
        """Show the chance of an encounter and of each light going out."""
        self.app.push_screen(OddsDialog(self.state, self.procedure))

    # Messages from the panes -------------------------------------------------------------

    def on_command_line_submitted(self, event: CommandLine.Submitted) -> None:
        """Run what was typed; the result comes back to the command line."""
        event.stop()
        self.run(event.text, "line")

    def on_command_line_closed(self, event: CommandLine.Closed) -> None:
        """Give the keys back to the log."""
        event.stop()
        self.query_one(TurnLog).focus()

    def command_succeeded(self, text: str) -> None:
        """A command typed on the command line went through."""
        self.query_one(CommandLine).succeeded(text)

    def command_failed(self, message: str) -> None:
        """A command typed on the command line was refused: say why, inline."""
        self.query_one(CommandLine).failed(message)

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

    def key_bindings(self) -> list[Binding]:
        """Every key of the footer that can be used now (for the palette)."""
        return [
            binding
            for binding in _bindings(self.BINDINGS)
            if binding.show and self.check_action(binding.action, ()) is True
        ]


def has_time_dice(procedure: Procedure) -> bool:
    """True when the game reads the hour as time dice: turns of an hour or more."""
    minutes = [procedure.time.turn_minutes, *(t.minutes for t in procedure.turn_types.values())]
    return max(minutes) >= 60


def footer_rows(needed: int, width: int) -> int:
    """The rows the footer's keys take at this width: one where they fit in one.

    Over several rows the grid's columns take the width of their widest key, so two rows
    need room to spare (a third more than half).
    """
    if needed <= width:
        return 1
    return 2 if needed * 2 // 3 <= width else 3


def _bindings(items: Sequence[BindingType]) -> Iterator[Binding]:
    for item in items:
        if isinstance(item, Binding):
            yield item


def _clock_command(text: str) -> str:
    words = text.split()
    if words and words[0].lower() == "roll":
        return f"time {text}"
    return f"time set {text}"
