"""The base of the table screen: the open expedition, the state shown, and the messages.

The table screen is built in layers, each a class of its own file: this base, the view
(``table_view``: state flowing down into the panes and the log), the keys (``table_keys``:
turns, undo, the table's switches), the dialogs' glue (``table_dialogs``) and the screen
itself (``table_screen``: the layout and reading the log's history).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Literal, TypeAlias

from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen

from delvetui.application.realtime import RealTimeClock
from delvetui.core import commands
from delvetui.core.log import Line
from delvetui.core.state import State
from delvetui.core.timeline import Batch
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition
from delvetui.ui.command_line import CommandLine
from delvetui.ui.session_bar import SessionBar
from delvetui.ui.status_bar import StatusBar

Source = Literal["key", "line"]
#: What the table runs: a command it built, or a line the game master typed. (Written as
#: text, so the command language is imported only when the first command is run.)
Order: TypeAlias = "commands.Command | str"
#: A dialog's answer: the commands to run, in order.
Answer: TypeAlias = "tuple[commands.Command, ...]"


class TableBase(Screen[None]):
    """What every part of the table shares: the expedition, its state, and the messages.

    The messages keep the table screen's name (``on_table_screen_run``), wherever in the
    table they are posted from.
    """

    table_dice: reactive[bool] = reactive(False)
    """Ask the game master for every roll instead of rolling."""

    speed: reactive[str] = reactive("")
    """The movement speed added to turns ('' for the procedure's default)."""

    compact_log: reactive[bool] = reactive(False)
    """Show the log one line a turn (action, roll, result, changes) instead of in full."""

    class Run(Message, namespace="table_screen"):
        """Run a command on the expedition (and ``then`` more): built, or a typed line."""

        def __init__(
            self, command: Order, source: Source = "key", then: Sequence[Order] = ()
        ) -> None:
            super().__init__()
            self.command = command
            self.source = source
            self.then = tuple(then)

    class FixRoll(Message, namespace="table_screen"):
        """Undo the last command and make it again with a roll corrected."""

    class Export(Message, namespace="table_screen"):
        """Export the expedition's log in a format (txt, md, html or json)."""

        def __init__(self, fmt: str) -> None:
            super().__init__()
            self.fmt = fmt

    class Settings(Message, namespace="table_screen"):
        """Table dice, the speed or asking before trouble changed; the app remembers them."""

    class NewestShown(Message, namespace="table_screen"):
        """The log shows the newest turns (older ones may still be read in)."""

    class Damaged(Message, namespace="table_screen"):
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
        self.set_reactive(TableBase.table_dice, table_dice)
        self.set_reactive(TableBase.speed, speed)

    def run(self, command: Order, source: Source = "key", *, then: Sequence[Order] = ()) -> None:
        """Ask the app to run a command (and then these, while each goes through)."""
        self.post_message(self.Run(command, source, then))

    def _moving_of(self, state: State, moving: str) -> str:
        """The last movement mode, given the state after a command and the one before."""
        action = self.procedure.actions.get(state.action or "")
        return (
            state.action
            if action is not None and action.kind == "move" and state.action
            else moving
        )

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

    def _procedure_at(self, state: State) -> Procedure:
        """The procedure the expedition followed in that state (it can be changed)."""
        return self.expedition.procedure_at(state)

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

    @property
    def writable_now(self) -> bool:
        """True once the file's pages are checked and no damage was found."""
        return self._checked.is_set() and not self.damage and not self.readonly

    def command_succeeded(self, text: str) -> None:
        """A command typed on the command line went through."""
        self.query_one(CommandLine).succeeded(text)

    def command_failed(self, message: str) -> None:
        """A command typed on the command line was refused: say why, inline."""
        self.query_one(CommandLine).failed(message)
