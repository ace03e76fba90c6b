"""The full-screen table: the Textual app, its global keys, ``run_app`` and ``screenshot``.

The app holds the open expedition. Screens and widgets post intent messages; the app passes
the commands to :class:`delvetui.session.Expedition` and hands each committed batch back to
the table screen. Nothing is shown as done before it is saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from delvetui import fileio
from delvetui.application.files import Prefs, export_path, write_export
from delvetui.application.realtime import Now, RealTimeClock
from delvetui.core.state import State
from delvetui.core.timeline import Batch
from delvetui.errors import (
    DelveError,
    ExpeditionLocked,
    ReadOnlyExpedition,
    RollNeeded,
    StorageFailed,
)
from delvetui.session import Expedition
from delvetui.ui.campaign.flow import CampaignFlow
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.table.screen import Order, TableScreen

if TYPE_CHECKING:
    # The first screen of an expedition needs none of these: each is imported where it is
    # first used, so start-up does not pay for them (docs/performance.md).
    from textual.actions import ActionParseResult
    from textual.command import Provider
    from textual.dom import DOMNode

    from delvetui.ui.campaign.screen import CampaignScreen
    from delvetui.ui.forms.new_expedition import NewExpeditionScreen
    from delvetui.ui.forms.next_expedition import NextExpeditionScreen
    from delvetui.ui.start_screen import StartScreen

THEMES = ("textual-dark", "textual-light")
#: Seconds between looks at the real-time clock (it writes only when a light crosses a step).
REALTIME_EVERY = 1.0
#: A screenshot that could not be taken in this many seconds gives up with a message.
SCREENSHOT_TIMEOUT = 60.0


def _error_screen(title: str, message: str) -> Screen[None]:
    """A dialog saying what went wrong, imported the first time something does."""
    from delvetui.ui.dialogs.error_screen import ErrorScreen

    return ErrorScreen(title, message)


def _table_commands() -> type[Provider]:
    """The palette's table commands, imported when the palette first opens."""
    from delvetui.ui.table.palette import TableCommands

    return TableCommands


class DelveApp(App[None]):
    """The referee's table."""

    CSS_PATH = "delvetui.tcss"
    TITLE = "delvetui"
    #: A screen under a dialog: its notices wait hidden (``delvetui.tcss``), none covers
    #: the dialog.
    SUSPENDED_SCREEN_CLASS = "-under-dialog"
    COMMANDS = App.COMMANDS | {_table_commands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
        Binding("ctrl+t", "toggle_theme", "Theme", id="theme", show=False),
    ]
    """Keys that work everywhere: quit (everything is already saved) and the theme."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        salvage: bool = False,
        shoot: bool = False,
        now: Now | None = None,
        resumed: bool = False,
    ) -> None:
        super().__init__()
        self.path = path
        #: The path is the expedition played last, not one named (`delvetui` alone): an
        #: ended one is offered on the start screen instead of opening on the table.
        self.resumed = resumed
        #: Where the real-time clock reads the time (a test moves it by hand).
        self.now: Now = now or time.monotonic
        #: The real-time clock of the open expedition (None while read-only or a picture).
        self.realtime: RealTimeClock | None = None
        #: Open a damaged expedition read-only with what can be read of it.
        self.salvage = salvage
        #: Take a picture of the table's first screen (``screenshot``) and exit.
        self.shoot = shoot
        #: The picture, once taken (SVG).
        self.picture: str | None = None
        self.expedition: Expedition | None = None
        self.prefs = Prefs.load()
        self.open_error: DelveError | None = None
        self._lock = asyncio.Lock()
        #: The campaign's screens and the next expedition.
        self.campaign = CampaignFlow(self)
        self._shown: set[str] = set()

    # Opening -----------------------------------------------------------------------------

    def on_mount(self) -> None:
        """Apply the preferences and show the expedition (or the start screen)."""
        if self.prefs.theme in self.available_themes:
            self.theme = self.prefs.theme
        if self.prefs.keys:
            self.set_keymap(self.prefs.keys)
        if self.shoot:
            # A guard, not a wait: the picture is taken as soon as the screen is ready.
            self.set_timer(SCREENSHOT_TIMEOUT, self.exit)
        if self.path is None:
            from delvetui.ui.start_screen import StartScreen

            self.push_screen(StartScreen())
        else:
            self.open_expedition(self.path, first=True)
        if not self.shoot:
            self.set_interval(REALTIME_EVERY, self.tick_realtime)

    def open_expedition(self, path: Path, *, first: bool = False) -> None:
        """Open an expedition on the table; read-only when another delvetui has it."""
        try:
            try:
                if self.salvage:
                    expedition = Expedition.open_salvage(path)
                else:
                    expedition = Expedition.open(path, snapshot=True)
            except ExpeditionLocked as locked:
                expedition = Expedition.open(path, write=False, snapshot=True)
                self.notify(f"{locked.message} Opened read-only.", severity="warning", markup=False)
        except DelveError as error:
            self.open_error = error
            if self.shoot:
                self.exit()
                return
            from delvetui.ui.start_screen import StartScreen

            self._show(StartScreen(), first=first)
            self.push_screen(_error_screen("This expedition cannot be opened", error.message))
            return
        self._close()
        if self.table is not None:
            from delvetui.ui.forms.new_expedition import NewExpeditionScreen

            if isinstance(self.screen, NewExpeditionScreen):
                self.pop_screen()  # the form was opened over a table: the new one replaces it
        if first and self.resumed and expedition.state.ended and not self.shoot:
            # `delvetui` on an ended expedition: the start screen, with it offered first
            # (the next expedition after it, or it again), not the table of a finished one.
            expedition.close(snapshot=False)
            from delvetui.ui.start_screen import StartScreen

            self._show(StartScreen(offered=path), first=first)
            return
        self.expedition = expedition
        expedition.listeners.append(self._committed)
        if not expedition.readonly and not self.shoot:
            self.realtime = RealTimeClock(expedition, self.now)
        key = str(path.resolve())
        table = TableScreen(
            expedition,
            table_dice=self.prefs.table_dice.get(key, False),
            speed=self.prefs.speed.get(key, ""),
            check=not self.shoot,
            confirm_trouble=self.prefs.confirm_trouble,
        )
        self._show(table, first=first)

    def on_table_screen_newest_shown(self, event: TableScreen.NewestShown) -> None:
        """The log shows the newest turns: a picture can be taken once the keys are in."""
        self._ready_to_shoot("log")

    def on_key_footer_keys_shown(self, event: KeyFooter.KeysShown) -> None:
        """The footer shows the table's keys: a picture can be taken once the log is in."""
        self._ready_to_shoot("keys")

    def _ready_to_shoot(self, part: str) -> None:
        self._shown.add(part)
        if self.shoot and self._shown >= {"log", "keys"} and self.picture is None:
            self.call_after_refresh(self._take_picture)

    def _take_picture(self) -> None:
        if self.picture is None:
            self.picture = self.export_screenshot()
            self.exit()

    def on_table_screen_damaged(self, event: TableScreen.Damaged) -> None:
        """The page check or reading the log found damage (or a snapshot that disagrees)."""
        self.push_screen(
            _error_screen(
                "The expedition file needs attention",
                f"{event.message}\n\nThe table is read-only: you can read the expedition, "
                "but nothing can be changed.",
            )
        )
        # The message covers the table: its footer's keys are not waited for.
        self._ready_to_shoot("keys")

    def _show(self, screen: Screen[None], *, first: bool = False) -> None:
        if first or len(self.screen_stack) < 2:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def _close(self, *, snapshot: bool = True) -> None:
        if self.realtime is not None:
            clock, self.realtime = self.realtime, None
            # Closing pauses the real-time lights, so reopening shows their time as it was.
            # Should that fail (a full disk), the file keeps the last step: nothing is lost
            # but the seconds since it.
            with contextlib.suppress(DelveError):
                clock.close()
        if self.expedition is not None:
            self.expedition.listeners.clear()
            # Closing saves a snapshot, so the next resume replays nothing (never into a
            # file found damaged: that one is read-only by then).
            self.expedition.close(snapshot=snapshot)
            self.expedition = None

    def close_expedition(self, *, snapshot: bool = True) -> None:
        """Close the file (and give up the writer lock); see ``Expedition.close``."""
        self._close(snapshot=snapshot)

    @property
    def table(self) -> TableScreen | None:
        """The table screen, when it is showing."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None

    def tick_realtime(self) -> None:
        """Let the real-time clock record a step crossed, and show the countdown."""
        table = self.table
        clock = self.realtime
        if table is None or clock is None or not clock.in_play:
            return
        if table.writable_now:
            try:
                clock.tick()
            except DelveError as error:
                self._failed(error, None)
        table.panes.show_countdown(clock.seconds_left())

    def _committed(self, batch: Batch, state: State) -> None:
        table = self.table
        if table is not None:
            table.show_batch(batch, state)

    # The start screen and the form --------------------------------------------------------

    def on_start_screen_new(self, event: StartScreen.New) -> None:
        """Show the new-expedition form."""
        from delvetui.ui.forms.new_expedition import NewExpeditionScreen

        self.switch_screen(NewExpeditionScreen())

    def on_start_screen_demo(self, event: StartScreen.Demo) -> None:
        """Make (or reopen) the demo expedition."""
        from delvetui.application import creation

        try:
            path = creation.demo()
        except DelveError as error:
            self.push_screen(_error_screen("The demo cannot be made", error.message))
            return
        self.open_expedition(path)

    def on_start_screen_open(self, event: StartScreen.Open) -> None:
        """Open a saved expedition."""
        self.open_expedition(event.path)

    def on_start_screen_campaigns(self, event: StartScreen.Campaigns) -> None:
        """Show the campaign screen."""
        self.campaign.show_campaigns()

    def on_campaign_screen_next(self, event: CampaignScreen.Next) -> None:
        """The form of the next expedition after an ended one (the start screen's entry,
        or the campaign screen's n)."""
        self.campaign.next_form(event.path)

    def action_home(self) -> None:
        """H on the table: the start screen, the expedition just played offered first."""
        self._to_start(offered=self.expedition.path if self.expedition is not None else None)

    def on_table_screen_next_expedition(self, event: TableScreen.NextExpedition) -> None:
        """The form of the next expedition after the ended one on the table (the palette)."""
        self.campaign.next_form(event.path)

    def on_campaign_screen_open(self, event: CampaignScreen.Open) -> None:
        """Open an expedition of the campaign on the table."""
        self.open_expedition(event.path)

    def on_campaign_screen_back(self, event: CampaignScreen.Back) -> None:
        """Back to the start screen."""
        self._to_start()

    def on_next_expedition_screen_cancelled(self, event: NextExpeditionScreen.Cancelled) -> None:
        """Back to the start screen; nothing was created."""
        self._to_start()

    def on_next_expedition_screen_create(self, event: NextExpeditionScreen.Create) -> None:
        """Create the next expedition, all at once, and open it."""
        self.campaign.create(event)

    def on_new_expedition_screen_cancelled(self, event: NewExpeditionScreen.Cancelled) -> None:
        """Back where the form was opened from (the table, or the start screen)."""
        if self.table is not None:
            self.pop_screen()
        else:
            from delvetui.ui.start_screen import StartScreen

            self.switch_screen(StartScreen())

    def on_new_expedition_screen_create(self, event: NewExpeditionScreen.Create) -> None:
        """Create the expedition the form describes, all at once, and open it."""
        from delvetui.application import creation
        from delvetui.ui.forms.new_expedition import NewExpeditionScreen

        form = event.control if isinstance(event.control, NewExpeditionScreen) else None
        try:
            path = creation.create(event.name, event.procedure, event.commands, start=event.start)
        except StorageFailed as error:
            self.push_screen(_error_screen("The expedition could not be saved", error.message))
            return
        except DelveError as error:
            if isinstance(self.screen, NewExpeditionScreen):
                self.screen.failed("name", error.message, "form-name")
            elif form is None:
                self.notify(error.message, severity="error", markup=False)
            return
        self.open_expedition(path)

    # Commands ----------------------------------------------------------------------------

    def on_table_screen_run(self, event: TableScreen.Run) -> None:
        """Run a command from the table."""
        self.run_command(event.command, event.source, event.then)

    @work(group="commands")
    async def run_command(
        self, command: Order, source: str = "key", then: Sequence[Order] = ()
    ) -> None:
        """Run a command (and then more) through the expedition; stop at the first refused.

        Say what went wrong where it belongs. Nothing is written before the file's pages
        are checked, nor after damage was found.
        """
        from delvetui.application import runner

        async with self._lock:
            ready = await self._writable(inline=source == "line")
            if ready is None:
                return
            table, expedition = ready
            inline = table if source == "line" else None
            for order in (command, *then):
                try:
                    if self.realtime is not None:
                        order = self.realtime.typed(order)
                    await runner.execute(
                        expedition, order, table_dice=table.table_dice, ask=self._ask_roll
                    )
                except DelveError as error:
                    self._failed(error, inline)
                    return
            if isinstance(command, str) and source == "line":
                table.command_succeeded(command)

    async def _writable(self, *, inline: bool) -> tuple[TableScreen, Expedition] | None:
        """The table and its expedition once the file's pages are checked (hold the lock).

        None when there is nothing open, or when the file was found damaged (said inline
        on the command line, or in a notification).
        """
        table = self.table
        expedition = self.expedition
        if table is None or expedition is None:
            return None
        await table.pages_checked()
        if table.damage:
            self._failed(ReadOnlyExpedition(_refused(expedition)), table if inline else None)
            return None
        return table, expedition

    def _failed(self, error: DelveError, table: TableScreen | None) -> None:
        if isinstance(error, StorageFailed):
            self.push_screen(
                _error_screen(
                    "Could not save",
                    f"{error.message}\n\nNothing of this command was saved, and nothing "
                    "earlier is lost: the table shows what is on disk. Check the disk "
                    "(space, permissions) and try again.",
                )
            )
        elif table is not None:
            table.command_failed(error.message)
        else:
            from delvetui.application import runner

            cancelled = isinstance(error, runner.Cancelled)
            self.notify(error.message, severity="warning" if cancelled else "error", markup=False)

    async def _ask_roll(self, need: RollNeeded) -> str | None:
        from delvetui.ui.dialogs import asking

        table = self.table
        if table is None:
            return None
        return await self.push_screen_wait(asking.question(need, table.state, table.procedure))

    def on_table_screen_fix_roll(self, event: TableScreen.FixRoll) -> None:
        """Correct a roll of the last command."""
        self.fix_roll()

    @work(group="commands")
    async def fix_roll(self) -> None:
        """Choose the roll, type the right number, and make the command again."""
        from delvetui.application import runner
        from delvetui.ui.dialogs.choose import ChooseScreen
        from delvetui.ui.dialogs.roll_prompt import RollPrompt

        async with self._lock:
            ready = await self._writable(inline=False)
            if ready is None:
                return
            table, expedition = ready

            async def choose(rolls: list[runner.MadeRoll]) -> int | None:
                if len(rolls) == 1:
                    return 0
                choices = [(str(n), Text(roll.shown)) for n, roll in enumerate(rolls)]
                answer = await self.push_screen_wait(ChooseScreen("Fix which roll?", choices))
                return None if answer is None else int(answer)

            async def fix(roll: runner.MadeRoll) -> str | None:
                return await self.push_screen_wait(
                    RollPrompt(
                        roll.key,
                        roll.expression,
                        f"{roll.purpose} (the last command: {roll.command})",
                        title=f"Fix a roll: {roll.purpose}",
                        was=roll.value,
                    )
                )

            try:
                batch = await runner.fix_roll(
                    expedition, choose, fix, self._ask_roll, table_dice=table.table_dice
                )
            except DelveError as error:
                self._failed(error, None)
                return
            if batch is not None:
                self.notify("The roll is fixed; the turn was made again.", markup=False)

    def on_table_screen_export(self, event: TableScreen.Export) -> None:
        """Export the log beside the saved expeditions."""
        if self.expedition is not None:
            source = self.expedition.path
            self.export_log(source, event.fmt, export_path(source, event.fmt))

    @work(thread=True, group="export")
    def export_log(self, source: Path, fmt: str, path: Path) -> None:
        """Read the file on its own connection and write the export, in the background."""
        from delvetui import export

        try:
            with Expedition.open(source, write=False) as expedition:
                text = export.export(expedition, fmt)
            write_export(path, text)
        except DelveError as error:
            self.call_from_thread(
                self.push_screen, _error_screen("The log could not be exported", error.message)
            )
            return
        self.call_from_thread(self.notify, f"The log is in {path}", markup=False)

    def on_table_screen_settings(self, event: TableScreen.Settings) -> None:
        """Remember table dice and the speed for this expedition."""
        table = self.table
        if table is None or self.expedition is None:
            return
        key = str(self.expedition.path.resolve())
        self.prefs.table_dice[key] = table.table_dice
        self.prefs.speed[key] = table.speed
        self.prefs.confirm_trouble = table.confirm_trouble
        self._save_prefs()

    def _save_prefs(self) -> None:
        try:
            self.prefs.save()
        except DelveError as error:
            self.notify(f"Preferences not saved: {error.message}", severity="warning", markup=False)

    # Global ------------------------------------------------------------------------------

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Run an action; on an ended expedition a table key that would change it says so
        instead (``Ending.refusal``): nothing is opened whose answer the core would refuse."""
        if isinstance(default_namespace, TableScreen):
            name = action if isinstance(action, str) else action[1]
            sentence = default_namespace.ending.refusal(name)
            if sentence is not None:
                self.notify(sentence, severity="warning", markup=False)
                return True
        return await super().run_action(action, default_namespace, namespaces)

    def action_toggle_theme(self) -> None:
        """Switch between the dark and the light theme."""
        self.theme = THEMES[1] if self.theme == THEMES[0] else THEMES[0]
        self.prefs.theme = self.theme
        self._save_prefs()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette's own commands, plus new, demo and open."""
        yield from super().get_system_commands(screen)
        yield SystemCommand("New expedition", "Open the new-expedition form", self._to_new)
        yield SystemCommand("Open another expedition", "The start screen", self._to_start)
        yield SystemCommand(
            "Campaigns", "Each chain, in calendar order", self.campaign.show_campaigns
        )
        yield SystemCommand("Toggle dark / light", "Switch the theme", self.action_toggle_theme)

    def _to_new(self) -> None:
        from delvetui.ui.forms.new_expedition import NewExpeditionScreen

        if isinstance(self.screen, TableScreen):
            # Over the table, which Escape goes back to (it stays open until Create).
            self.push_screen(NewExpeditionScreen())
            return
        self._close()
        self._show(NewExpeditionScreen())

    def _to_start(self, *, offered: Path | None = None) -> None:
        from delvetui.ui.start_screen import StartScreen

        self._close()
        self._show(StartScreen(offered=offered))


def _refused(expedition: Expedition) -> str:
    return f"{expedition.path.name} is damaged, so the table is read-only: nothing was saved."


def settle_imports() -> None:
    """Keep what importing made out of the garbage collector's way for the whole session.

    The modules, classes and functions loaded at start live as long as the program, but
    every full collection walks them again: one falling in the table's start cost 15-20
    ms, and each later one is a pause as long. ``gc.freeze`` sets them aside; what the
    session creates afterwards is collected as usual.
    """
    gc.freeze()


def run_app(path: Path | None, *, salvage: bool = False, resumed: bool = False) -> int:
    """Run the table on an expedition (or the start screen); return the exit status.

    With ``salvage`` a damaged expedition opens read-only with every command before the
    damage; ``resumed`` says the path is the one played last (``delvetui`` alone), which
    the start screen offers first if it has ended.
    """
    settle_imports()
    app = DelveApp(path, salvage=salvage, resumed=resumed)
    try:
        app.run()
    finally:
        app.close_expedition()
    return app.return_code or 0


def screenshot(path: Path, out: Path, size: tuple[int, int], *, salvage: bool = False) -> None:
    """Render the table on an expedition headless and write the SVG to out.

    The picture is the table's first screen, newest turns included, taken as soon as it is
    painted; the file is only read.
    """
    settle_imports()
    app = DelveApp(path, salvage=salvage, shoot=True)
    try:
        asyncio.run(app.run_async(headless=True, size=size))
    finally:
        app.close_expedition(snapshot=False)  # a picture changes nothing in the file
    if app.open_error is not None:
        raise app.open_error
    if app.picture is None:
        raise DelveError(f"{path} could not be shown in time for the screenshot.")
    fileio.write_file(out, app.picture, replace=True)
