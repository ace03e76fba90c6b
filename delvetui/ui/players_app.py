"""The players' screen: a read-only view of the expedition for a second terminal.

It follows the game master's table by watching the expedition file: a few times a second
it compares the file's change time and size, and when they move it reads the file again
through a read-only connection (never the writer's lock), so the table is never slowed or
blocked. Closing and reopening the table changes nothing here; a moment when the file
cannot be read (a commit in progress) keeps the last view and tries again.

It offers the players nothing but quitting: no command palette (whose screenshot would
write a file and whose theme switch would change the screen), and it writes nowhere. Started
by ``delvetui serve`` for a page, it ends when that server does, however the server ended.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from delvetui.core.players import PlayersView, view
from delvetui.errors import DelveError
from delvetui.session import Expedition

#: Seconds between two looks at the file: a commit shows well within a second.
WATCH_EVERY = 0.2


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_ctime_ns, found.st_size)


def read_view(path: Path) -> PlayersView:
    """Read the expedition read-only and work out what the players see."""
    with Expedition.open(path, write=False, snapshot=True) as expedition:
        return view(expedition.state, expedition.procedure)


def players_text(shown: PlayersView) -> Text:
    """The players' view as styled text."""
    text = Text()
    text.append(f"{shown.title}\n\n", "bold")
    text.append(f"{shown.level}\n", "bold reverse" if shown.level != "Darkness" else "bold")
    for line in shown.light:
        text.append(f"  {line}\n")
    if shown.clock is not None:
        text.append(f"\n{shown.clock}\n")
    if shown.party is not None:
        text.append("\nThe party\n", "bold")
        for line in shown.party:
            text.append(f"  {line}\n")
    if shown.sign is not None:
        text.append("\nA sign: ", "bold")
        text.append(f"{shown.sign}\n")
    if shown.encounter is not None:
        text.append("\nEncounter: ", "bold")
        text.append(f"{shown.encounter}\n")
        if shown.distance:
            text.append("Distance: ", "bold")
            text.append(f"{shown.distance}\n")
    elif shown.distance is not None:
        text.append("\nSomething approaches, ", "bold")
        text.append(f"{shown.distance} away.\n")
    text.rstrip()
    return text


class PlayersApp(App[None]):
    """What the players may see, following the game master's table."""

    CSS_PATH = Path(__file__).with_name("players.tcss")
    TITLE = "delvetui — the players' screen"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,ctrl+q", "quit", "Quit")]
    """Only quitting: nothing here changes the expedition."""
    ENABLE_COMMAND_PALETTE = False
    """No palette: its screenshot writes a file, its theme switch changes the screen."""

    def __init__(
        self, path: Path, *, watch_every: float = WATCH_EVERY, server: int | None = None
    ) -> None:
        super().__init__()
        self.path = path
        self.watch_every = watch_every
        #: The process that started this screen (``delvetui serve``); gone, the screen ends.
        self.server = server
        self.shown: PlayersView | None = None
        self.stamp: tuple[int, int, int] | None = None
        self.reading = False
        #: How many times the view was read from the file (for tests and the benchmark).
        self.reads = 0

    def compose(self) -> ComposeResult:
        """The view, and a line for what went wrong reading it."""
        with Vertical(id="players"):
            yield Static(Text("Reading the expedition…"), id="players-view")
            yield Static("", id="players-problem")

    def on_mount(self) -> None:
        """Read the file now, then look at it a few times a second."""
        self.look()
        self.set_interval(self.watch_every, self.look)
        if self.server is not None:
            self.set_interval(self.watch_every, self.end_with_server)

    def end_with_server(self) -> None:
        """End with the server that started this screen: once it is gone, this process's
        parent is another (the system's), whatever way the server ended."""
        if os.getppid() != self.server:
            self.exit()

    def look(self) -> None:
        """Read the file again when it changed since the last read."""
        stamp = _stamp(self.path)
        if self.reading or (stamp == self.stamp and self.shown is not None):
            return
        self.reading = True
        self.read(stamp)

    @work(thread=True, exclusive=True)
    def read(self, stamp: tuple[int, int, int] | None) -> None:
        """Read the file off the screen's thread."""
        try:
            shown = read_view(self.path)
        except (DelveError, OSError) as error:
            message = getattr(error, "message", None) or str(error)
            self.call_from_thread(self.failed, message)
            return
        self.call_from_thread(self.show, shown, stamp)

    def show(self, shown: PlayersView, stamp: tuple[int, int, int] | None) -> None:
        """Put a fresh view on screen."""
        self.reading = False
        self.reads += 1
        self.stamp = stamp
        self.shown = shown
        self.query_one("#players-view", Static).update(players_text(shown))
        self.query_one("#players-problem", Static).update("")

    def failed(self, message: str) -> None:
        """Keep the last view; say why it may be behind, and try again at the next look."""
        self.reading = False
        self.query_one("#players-problem", Static).update(Text(message))
