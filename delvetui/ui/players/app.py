"""The players' screen: a read-only view of the expedition for a second terminal.

It is made to be read across a room, on a TV as well as in a terminal: the party's light
fills the top of the screen as a coloured band with its word in block letters (bright, dim,
dark) and, where the players know it, each lit light's time left in block letters ("TORCH
4 TURNS", "LANTERN 42 MIN", "CANDLE D6"); the clock below it in block figures with the day
and the part of the day, and under them what the game master has shown (the sign, the
encounter in the players' words and its distance, each member's hit points), in block
letters too. The block letters grow with the screen, from 80×24 to a TV's 240×67 and past
it.

It follows the game master's table by watching the expedition file: a few times a second
it compares the file's change time and size, and when they move it reads the file again
through a read-only connection (never the writer's lock), so the table is never slowed or
blocked. Closing and reopening the table changes nothing here; a moment when the file
cannot be read (a commit in progress) keeps the last view and tries again.

It offers the players nothing but quitting: no command palette (whose screenshot would
write a file and whose theme switch would change the screen), and it writes nowhere. Started
by ``delvetui serve`` for a page, it ends when that server does, however the server ended.
``screenshot`` renders it headless to an SVG (``delvetui players NAME --screenshot F.svg``).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from delvetui import fileio
from delvetui.core.players import PlayersView, view
from delvetui.errors import DelveError
from delvetui.session import Expedition
from delvetui.text import away
from delvetui.ui.players.big_text import BigText
from delvetui.ui.players.cells import BigCells, Cell
from delvetui.ui.players.counters import SeenCounters
from delvetui.ui.players.fight import FightPanel

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
    """The whole view as styled text, line by line (for a plain terminal or a test)."""
    text = Text()
    text.append(f"{shown.title}\n\n", "bold")
    text.append_text(light_text(shown))
    if shown.clock is not None:
        text.append(f"\n\n{shown.clock}")
    if shown.counters:
        text.append("\n\n" + " · ".join(f"{label}: {value}" for label, value in shown.counters))
    if shown.room is not None:
        text.append("\n\nWhere: ", "bold")
        text.append(shown.room)
    revealed = revealed_text(shown)
    if revealed:
        text.append("\n\n")
        text.append_text(revealed)
    return text


def light_text(shown: PlayersView, *, counted: bool = False) -> Text:
    """The light in words: the level, then each light and who stands outside it; with
    ``counted`` (each light has a cell of its own), the level and who stands outside."""
    text = Text(shown.level, "bold")
    lights = shown.light[len(shown.left) :] if counted else shown.light
    for line in lights:
        text.append(f"\n{line}")
    return text


def day_text(shown: PlayersView) -> str:
    """The date and the part of the day, under the clock: ``Day 3 · morning``, or
    ``3rd of Greenmist, day 41 · morning`` in a calendar."""
    return " · ".join(part for part in (shown.date or f"Day {shown.day}", shown.quarter) if part)


def revealed_text(shown: PlayersView) -> Text:
    """What the game master has shown, in words: the sign, the encounter, the party."""
    text = Text()
    if shown.sign is not None:
        text.append("A sign: ", "bold")
        text.append(f"{shown.sign}\n")
    if shown.encounter is not None:
        text.append("Encounter: ", "bold")
        text.append(f"{shown.encounter or 'an encounter!'}\n")
        if shown.distance:
            text.append("Distance: ", "bold")
            text.append(f"{shown.distance}\n")
    elif shown.distance is not None:
        text.append("Something approaches, ", "bold")
        text.append(f"{away(shown.distance)}.\n")
    if shown.party is not None:
        text.append("The party: ", "bold")
        text.append(" · ".join(shown.party) + "\n")
    text.rstrip()
    return text


def hit_points(shown: PlayersView) -> str:
    """The party's hit points on one line: ``Hit points: Ash 6 of 6 · Eve 3 of 5``."""
    members = " · ".join(f"{name} {hp} of {most}" for name, hp, most in shown.hit_points)
    return f"Hit points: {members}" if members else "Hit points: no one in the party yet"


def hit_point_cells(shown: PlayersView) -> list[Cell]:
    """Each member's hit points in block letters ('6/6'), their name under them; the dead
    are DEAD."""
    cells: list[Cell] = [(f"{hp}/{most}", (), name) for name, hp, most in shown.hit_points]
    return cells + [("DEAD", (), name) for name in shown.dead]


def light_cells(shown: PlayersView) -> list[Cell]:
    """Each lit light's time left in block letters ('4 TURNS', or '4T' where a cell is
    narrow), the light in words under it ('Ash's torch burns bright.')."""
    return [(light.left, (light.short,), light.words) for light in shown.left]


#: The block word for each light level.
_BIG_WORDS = {"bright": "BRIGHT", "dim": "DIM", "dark": "DARK"}


class PlayersApp(App[None]):
    """What the players may see, following the game master's table."""

    CSS_PATH = Path(__file__).parent.parent / "players.tcss"
    TITLE = "delvetui — the players' screen"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q,ctrl+q", "quit", "Quit")]
    """Only quitting: nothing here changes the expedition."""
    ENABLE_COMMAND_PALETTE = False
    """No palette: its screenshot writes a file, its theme switch changes the screen."""

    def __init__(
        self,
        path: Path,
        *,
        watch_every: float = WATCH_EVERY,
        server: int | None = None,
        shoot: bool = False,
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
        #: Take a picture of the first view (``screenshot``) and end.
        self.shoot = shoot
        #: The picture, once taken (SVG), and why none could be, when the file was unreadable.
        self.picture: str | None = None
        self.problem: str | None = None

    def compose(self) -> ComposeResult:
        """The light's band, the clock, what was shown, and a line for what went wrong."""
        with Vertical(id="band", classes="-bright"):
            yield BigText("", id="level")
            yield Static(Text("Reading the expedition…"), id="light-lines")
            yield BigCells(most=2, lines=1, id="light-left")
        with Vertical(id="time"):
            yield BigText("", most=6, id="clock")
            yield Static("", id="day")
        yield SeenCounters("", id="counters")
        # Where the party is, once the game master reveals the room: a part of its own.
        yield Static("", id="room")
        with Vertical(id="revealed"):
            yield Static("", id="sign-label", classes="label")
            yield BigText("", most=2, lines=2, id="sign")
            yield Static("", id="encounter-label", classes="label")
            yield BigText("", most=2, lines=2, id="encounter")
            yield BigText("", most=1, lines=1, id="distance")
            yield BigCells(most=2, id="party")
        yield FightPanel("", id="fight")
        yield Static("", id="players-title")
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
        if not self.screen.query("#revealed"):
            return  # the screen is not made yet, or going: the next look reads again
        self.reads += 1
        self.stamp = stamp
        self.shown = shown
        self._fit()  # before the cells are made, so they are made at their size
        band = self.query_one("#band")
        for shade in ("bright", "dim", "dark"):
            band.set_class(shown.shade == shade, f"-{shade}")
        self.query_one("#level", BigText).update(_BIG_WORDS.get(shown.shade, shown.level))
        lines = self.query_one("#light-lines", Static)
        lines.update(light_text(shown, counted=bool(shown.left)))
        # With a cell for each light and BRIGHT above them, the line says nothing more.
        lines.display = not shown.left or len(shown.light) > len(shown.left)
        made = [self.query_one("#light-left", BigCells).show(light_cells(shown))]
        self.query_one("#time").display = shown.time is not None
        self.query_one("#clock", BigText).update(shown.time or "")
        self.query_one("#day", Static).update(Text(day_text(shown)) if shown.day else "")
        self.query_one("#counters", SeenCounters).show(shown)
        room = self.query_one("#room", Static)
        room.display = shown.room is not None
        room.update(Text(shown.room or ""))
        made.append(self._show_revealed(shown))
        self.query_one("#fight", FightPanel).show(shown.fight)
        self.query_one("#players-title", Static).update(shown.title)
        self._say_problem("")
        self._fit()
        if self.shoot and self.picture is None:
            self.run_worker(self._picture_once_made([m for m in made if m is not None]))

    async def _picture_once_made(self, made: list[AwaitComplete]) -> None:
        """The picture, once the cells just made are on the screen."""
        for cells in made:
            await cells
        self.call_after_refresh(self._take_picture)

    def _show_revealed(self, shown: PlayersView) -> AwaitComplete | None:
        """The sign, the encounter and its distance, the party: each shown once revealed,
        the words in block letters as large as the room allows."""
        labels: dict[str, str | None] = {
            "sign-label": "A SIGN" if shown.sign is not None else None,
            "encounter-label": "AN ENCOUNTER" if shown.encounter is not None else None,
        }
        for name, words in labels.items():
            widget = self.query_one(f"#{name}", Static)
            widget.display = words is not None
            widget.update(words or "")
        distance = None
        if shown.encounter is not None and shown.distance:
            distance = f"{shown.distance} away"
        elif shown.distance is not None:
            distance = f"Something approaches, {shown.distance} away."
        bigs = (("sign", shown.sign), ("encounter", shown.encounter), ("distance", distance))
        for name, words in bigs:
            big = self.query_one(f"#{name}", BigText)
            big.display = bool(words)
            big.update(words or "")
        self.query_one("#revealed").display = (
            any(labels.values()) or bool(distance) or shown.party is not None
        )
        party = self.query_one("#party", BigCells)
        return party.show(hit_point_cells(shown) if shown.party is not None else [])

    def _take_picture(self) -> None:
        """The screen as an SVG, once the first view is on it; then end."""
        if self.picture is None:
            self.picture = self.export_screenshot(title="delvetui players")
            self.exit()

    def failed(self, message: str) -> None:
        """Keep the last view; say why it may be behind, and try again at the next look."""
        self.reading = False
        if self.shoot:
            self.problem = message
            self.exit()
            return
        self._say_problem(message)

    def _say_problem(self, message: str) -> None:
        problem = self.query_one("#players-problem", Static)
        problem.update(Text(message))
        problem.display = bool(message)

    def on_resize(self, event: events.Resize) -> None:
        """Fit what was shown to the new size."""
        self._fit(event.size.height)

    def _fit(self, rows: int | None = None) -> None:
        """What was shown takes block letters while it leaves the light and the clock their
        room: below 30 rows one line of the smallest (plain words when a sign and an
        encounter are both shown), below 40 up to two lines of the smallest, else three lines
        twice as large, and from 60 rows (a TV) two lines three times as large. The title is
        left out below 30 rows."""
        shown = self.shown
        if shown is None:
            return
        rows = self.size.height if rows is None else rows
        both = shown.sign is not None and shown.encounter is not None
        most, lines = (2, 3) if rows >= 40 else (1, 2) if rows >= 30 else (0 if both else 1, 1)
        if rows >= 60:  # a TV: what was shown as large as the light's word, in two lines
            most, lines = 3, 2
        for name in ("sign", "encounter"):
            self.query_one(f"#{name}", BigText).fitted(most, lines)
        self.query_one("#distance", BigText).fitted(min(most, 1), 1)
        # The light's word and the clock grow with the rows, leaving what was shown its own;
        # with nothing shown they take the room it would have.
        calm = shown.sign is None and shown.encounter is None and shown.party is None
        size = max(1, rows // 16) + (2 if calm and shown.distance is None else 0)
        self.query_one("#level", BigText).fitted(size, 1)
        self.query_one("#clock", BigText).fitted(size, 1)
        # The light's word and the clock keep their room: the cells grow only on a tall screen.
        self.query_one("#party", BigCells).fitted(2 if rows >= 48 else 1)
        self.query_one("#light-left", BigCells).fitted(2 if rows >= 48 else 1)
        self.query_one("#players-title").display = rows >= 30
        self.screen.set_class(rows < 40, "-short")


def screenshot(path: Path, out: Path, size: tuple[int, int]) -> None:
    """Render the players' screen on an expedition headless and write the SVG to out.

    The picture is the first view, taken as soon as it is painted; the file is only read.
    """
    app = PlayersApp(path, shoot=True)
    asyncio.run(app.run_async(headless=True, size=size))
    if app.problem is not None:
        raise DelveError(app.problem)
    if app.picture is None:
        raise DelveError(f"{path} could not be shown in time for the screenshot.")
    fileio.write_file(out, app.picture, replace=True)
