"""The start screen: a new expedition, the demo, or a saved one from the list."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import ClassVar

import attrs
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from delvetui import paths
from delvetui.errors import DelveError, StoreError
from delvetui.session import Expedition
from delvetui.text import visible
from delvetui.ui.key_footer import KeyFooter

NEW = "+new"
DEMO = "+demo"
CAMPAIGNS = "+campaigns"
#: The prefix of the id of "Next expedition after NAME…" (the rest is the predecessor's path).
NEXT = "+next:"
#: The prefix of the id of the expedition offered first (the rest is its path).
OFFERED = "+offered:"


def last_played(path: Path) -> str:
    """When the file was last changed: 'MM-DD HH:MM' this year, else 'YYYY-MM-DD'."""
    moment = dt.datetime.fromtimestamp(path.stat().st_mtime)
    if moment.year == dt.datetime.now().year:
        return moment.strftime("%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d")


#: The name column of the saved expeditions' rows (longer names are cut with "…").
NAME_WIDTH = 16


def name_cell(name: str) -> str:
    """The name, cut or padded to the name column, so the rows line up."""
    if len(name) > NAME_WIDTH:
        name = name[: NAME_WIDTH - 1] + "…"
    return name.ljust(NAME_WIDTH)


def folder_text(folder: Path) -> str:
    """The data folder as shown: under the user's home, from '~'."""
    try:
        return f"~/{folder.relative_to(Path.home()).as_posix()}"
    except ValueError:
        return str(folder)


@attrs.frozen
class Saved:
    """A saved expedition as the start screen lists it: its row, and its links."""

    row: Text
    #: Its id ('' when it cannot be read), whether it ended, the id of the one it continues.
    id: str = ""
    ended: bool = False
    continues: str = ""


def saved_row(path: Path) -> Text:
    """A saved expedition as one row: name, procedure, turn, clock, last played."""
    return read_saved(path).row


def read_saved(path: Path) -> Saved:
    """A saved expedition's row and links (its first batch read only when it continues
    another)."""
    row = Text(no_wrap=True, overflow="ellipsis")
    row.append(name_cell(visible(path.stem)), "bold")
    found = Saved(row)
    try:
        with Expedition.open(path, write=False) as expedition:
            state = expedition.state
            turn_name = expedition.procedure.turn_name(state.turn_type)
            row.append(f" {expedition.procedure.name}")
            row.append(f" · {turn_name} {state.turn} · day {state.day} {state.clock_text}")
            if state.ended:
                row.append(" · ended")
            continues = ""
            if state.predecessor:
                from delvetui.core.events import ExpeditionContinued

                first = next(expedition.batches())
                continues = next(
                    (e.predecessor_id for e in first.events if isinstance(e, ExpeditionContinued)),
                    "",
                )
            found = Saved(row, expedition.expedition_id, state.ended, continues)
    except DelveError as error:
        row.append(f" cannot be opened: {error.message}", "italic")
    except OSError as error:
        row.append(f" cannot be read: {error.strerror or error}", "italic")
    row.append(f"  {last_played(path)}", "dim")
    return found


def broken_lines() -> list[str]:
    """A line for each of the game master's procedures that cannot be used, with its first
    problem (none when all can)."""
    from delvetui.procedure import registry

    return [
        visible(f"Your procedure {entry.path.name} cannot be used: {entry.problem}")
        for entry in registry.user_entries()
        if entry.procedure is None
    ]


def continuable(saved: dict[Path, Saved]) -> list[Path]:
    """The ended expeditions no other one continues yet: the last of their chains."""
    continued = {entry.continues for entry in saved.values() if entry.continues}
    return [path for path, entry in saved.items() if entry.ended and entry.id not in continued]


class StartScreen(Screen[None]):
    """Where a session begins when there is no expedition to resume."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New expedition", id="start-new"),
        Binding("d", "demo", "Demo", id="start-demo"),
        Binding("c", "campaigns", "Campaigns", id="start-campaigns"),
        Binding("q", "app.quit", "Quit", id="start-quit", show=False),
    ]
    """Keys of the start screen (Enter opens the highlighted entry)."""

    class New(Message):
        """Open the new-expedition form."""

    class Demo(Message):
        """Open (or make) the demo expedition."""

    class Campaigns(Message):
        """Show the campaign screen."""

    class Open(Message):
        """Open a saved expedition."""

        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    def __init__(self, *, offered: Path | None = None) -> None:
        super().__init__()
        #: The expedition offered first, highlighted (the one just played, or the one
        #: `delvetui` would have resumed had it not ended).
        self.offered = offered
        #: Why the saved expeditions cannot be listed (the data folder cannot be read).
        self.problem: str | None = None
        try:
            self.saved = paths.saved_expeditions()
        except StoreError as error:
            self.saved, self.problem = [], error.message
        #: Each saved expedition's row, once read (its name alone until then).
        self.rows = {str(path): Text(name_cell(visible(path.stem)), "bold") for path in self.saved}
        #: The ended expeditions that end their chain: each can be continued.
        self.continuable: list[Path] = []

    def _options(self) -> list[Option | None]:
        options: list[Option | None] = []
        offered = self.offered
        if offered is not None:
            # First: the next expedition after it (when it ended the chain), then it again.
            if offered in self.continuable:
                options.append(self._next(offered))
            row = self.rows.get(str(offered), Text(visible(offered.stem), "bold"))
            options.append(Option(Text.assemble("Open ", row), id=f"{OFFERED}{offered}"))
        options.append(Option(Text("New expedition…"), id=NEW))
        options.extend(self._next(path) for path in self.continuable if path != offered)
        options += [
            Option(
                Text("Demo expedition (Delving: a ready party with torches and candles)"),
                id=DEMO,
            ),
            Option(Text("Campaigns… (each chain of expeditions, in calendar order)"), id=CAMPAIGNS),
        ]
        if self.saved:
            options.append(None)
            options.extend(Option(row, id=key) for key, row in self.rows.items())
        return options

    @staticmethod
    def _next(path: Path) -> Option:
        return Option(Text(f"Next expedition after {visible(path.stem)}…"), id=f"{NEXT}{path}")

    def compose(self) -> ComposeResult:
        """Title, the choices, and the saved expeditions."""
        options = self._options()
        with Vertical(id="start"):
            yield Static(Text("delvetui"), id="start-title")
            yield Static(
                Text("The referee's table for dungeon turns. Everything is saved as you play."),
                id="start-subtitle",
            )
            if self.offered is not None:
                yield Static(Text(self._offered_words()), id="start-offered")
            yield OptionList(*options, id="start-list")
            folder = paths.data_dir()
            where = self.problem or f"Saved expeditions live in {folder_text(folder)}"
            yield Static(Text(where), id="start-folder")
            yield Static("", id="start-broken")
        yield KeyFooter(fit=True)

    def _offered_words(self) -> str:
        """The line above the list about the expedition offered first."""
        assert self.offered is not None
        name = visible(self.offered.stem)
        if self.offered in self.continuable:
            return f"{name} has ended: the next expedition after it is first, then {name} again."
        return f"Last played: {name}. Enter opens it again; the others are below."

    def on_mount(self) -> None:
        """Focus the list and fill in the saved expeditions' details."""
        self.query_one("#start-list", OptionList).focus()
        if self.saved:
            self.describe_saved()
        self.find_broken()

    @work(thread=True, exclusive=True, group="broken")
    def find_broken(self) -> None:
        """Read the game master's procedures (in the background) and name each that
        cannot be used, with its first problem: the others all work."""
        try:
            found = broken_lines()
        except DelveError as error:
            found = [error.message]
        if found:
            self.app.call_from_thread(self._show_broken, found)

    def _show_broken(self, lines: list[str]) -> None:
        if self.is_attached:
            shown = self.query_one("#start-broken", Static)
            shown.update(Text("\n".join(lines)))
            shown.display = True

    @work(thread=True, exclusive=True)
    def describe_saved(self) -> None:
        """Read each saved expedition (read-only, in the background) for its row, then
        offer the next expedition after each ended one that ends its chain."""
        worker = get_current_worker()
        found: dict[Path, Saved] = {}
        for path in self.saved:
            if worker.is_cancelled:
                return  # the screen has gone
            found[path] = read_saved(path)
            self.app.call_from_thread(self._show_row, path, found[path].row)
        ends = continuable(found)
        if ends and not worker.is_cancelled:
            self.app.call_from_thread(self._show_continuable, ends)

    def _show_row(self, path: Path, row: Text) -> None:
        if not self.is_attached:
            return
        self.rows[str(path)] = row
        options = self.query_one("#start-list", OptionList)
        options.replace_option_prompt(str(path), row)
        if path == self.offered:
            options.replace_option_prompt(f"{OFFERED}{path}", Text.assemble("Open ", row))

    def _show_continuable(self, ends: list[Path]) -> None:
        if not self.is_attached:
            return
        self.continuable = ends
        options = self.query_one("#start-list", OptionList)
        highlighted = options.highlighted_option
        first = options.highlighted in (None, 0)
        options.set_options(self._options())
        if first:
            options.highlighted = 0  # the first choice stays the one offered
        elif highlighted is not None and highlighted.id is not None:
            options.highlighted = options.get_option_index(highlighted.id)
        if self.offered is not None:
            self.query_one("#start-offered", Static).update(Text(self._offered_words()))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click: new, demo, or open."""
        event.stop()
        if event.option.id == NEW:
            self.action_new()
        elif event.option.id == DEMO:
            self.action_demo()
        elif event.option.id == CAMPAIGNS:
            self.action_campaigns()
        elif event.option.id is not None and event.option.id.startswith(OFFERED):
            self.post_message(self.Open(Path(event.option.id[len(OFFERED) :])))
        elif event.option.id is not None and event.option.id.startswith(NEXT):
            from delvetui.ui.campaign.screen import CampaignScreen

            self.post_message(CampaignScreen.Next(Path(event.option.id[len(NEXT) :])))
        elif event.option.id is not None:
            self.post_message(self.Open(Path(event.option.id)))

    def action_new(self) -> None:
        """Open the new-expedition form."""
        self.post_message(self.New())

    def action_demo(self) -> None:
        """Open the demo expedition."""
        self.post_message(self.Demo())

    def action_campaigns(self) -> None:
        """Show the campaign screen."""
        self.post_message(self.Campaigns())
