"""The table's dialogs: lights, party, timers, tables, dice, note, clock, sessions, export,
help, reveal.

The screen holds a ``DialogRunner``: it opens each dialog and runs what it answers. Each
dialog answers with the commands to run; what the game master types in a question (a roll,
a note, the clock) is a line for the parser."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeAlias

from rich.text import Text

from delvetui import dice
from delvetui.core import commands
from delvetui.errors import CommandError, DiceError
from delvetui.ui.table import messages
from delvetui.ui.table.part import Acts

if TYPE_CHECKING:
    from delvetui.ui.dialogs.ask import AskScreen

#: A dialog's answer: the commands to run, in order.
Answer: TypeAlias = "tuple[commands.Command, ...]"

# Each dialog is imported when it is first opened: the table's first paint needs none.


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


def _clock_command(text: str) -> str:
    words = text.split()
    if words and words[0].lower() == "roll":
        return f"time {text}"
    return f"time set {text}"


class KeyList(Protocol):
    """Every key of the table, as the help lists them."""

    def help_keys(self) -> list[tuple[str, str]]: ...


class OfferTaken(Protocol):
    """The session offer, taken up: what it runs (nothing when none is shown)."""

    def take_up(self) -> tuple[commands.Session, ...]: ...


class DialogRunner:
    """Opens the table's dialogs and runs what each answers."""

    def __init__(self, table: Acts, keys: KeyList, offer: OfferTaken) -> None:
        self.table = table
        self.keys = keys
        self.offer = offer

    def lights(self, selected: str | None = None) -> None:
        """Light, put out, hand over, correct or add a light."""
        from delvetui.ui.dialogs.light_dialog import LightDialog

        self.table.app.push_screen(
            LightDialog(self.table.state, self.table.procedure, selected=selected),
            self.run_answer,
        )

    def party(self, selected: str | None = None) -> None:
        """Add a party member, correct one, or change hit points."""
        from delvetui.ui.dialogs.party_dialog import PartyDialog

        self.table.app.push_screen(
            PartyDialog(self.table.state, self.table.procedure, selected=selected),
            self.run_answer,
        )

    def timers(self) -> None:
        """Start a timer, change a running one's length or cancel it."""
        from delvetui.ui.dialogs.timer_dialog import open_dialog

        open_dialog(self.table.app, self.table.state, self.table.procedure, self.table.run)

    def go_room(self) -> None:
        """Go to an exit of the room the party is in (or into the dungeon)."""
        from delvetui.ui.dialogs.room_dialog import open_go

        open_go(self.table.app, self.table.state, self.table.run)

    def room(self) -> None:
        """Mark the room the party is in, note on it, show its label, add a room."""
        from delvetui.ui.dialogs.room_dialog import open_room

        open_room(self.table.app, self.table.state, self.table.run)

    def room_map(self) -> None:
        """The map of the rooms the party knows."""
        from delvetui.ui.dialogs.map_screen import MapScreen

        self.table.app.push_screen(MapScreen(self.table.state))

    def tables(self) -> None:
        """Add, change or take out a row of a carried table (the area in use first)."""
        from delvetui.ui.dialogs.table_dialog import open_dialog

        try:
            open_dialog(self.table.app, self.table.state, self.table.run)
        except CommandError as error:
            self.table.notify(error.message, severity="warning", markup=False)

    def run_answer(self, answer: Answer | None) -> None:
        # A dialog may answer with several commands (refuel, then light).
        if answer:
            first, *then = answer
            self.table.run(first, then=then)

    def ask_and_run(self, question: AskScreen, command: Callable[[str], str]) -> None:
        """Ask the question; run the command made of a (non-empty) answer."""

        def answered(text: str | None) -> None:
            if text:
                self.table.run(command(text))

        self.table.app.push_screen(question, answered)

    def roll(self) -> None:
        """Roll any dice into the log."""
        from delvetui.ui.dialogs.ask import AskScreen

        self.ask_and_run(
            AskScreen(
                "Roll dice",
                "What to roll, and what for (e.g. 2d6 reaction, d20+2 save for Ash).",
                placeholder="2d6 reaction",
                check=check_roll_text,
            ),
            lambda text: f"roll {text}",
        )

    def note(self) -> None:
        """Write a note in the log."""
        from delvetui.ui.dialogs.ask import AskScreen

        self.ask_and_run(
            AskScreen(
                "Note", "A note for the log.", check=lambda text: check_command(f"note {text}")
            ),
            lambda text: f"note {text}",
        )

    def clock(self) -> None:
        """Set the clock (or roll the hour with time dice); the change shows in the log."""
        from delvetui.ui.dialogs.ask import AskScreen

        state = self.table.state
        self.ask_and_run(
            AskScreen(
                "Set the clock",
                f"It is {state.clock_text} on day {state.day}. Type the time as "
                "HH:MM, or 'roll N' to roll the hour with N time dice.",
                value=state.clock_text,
                check=lambda text: check_command(_clock_command(text)),
            ),
            _clock_command,
        )

    def session(self) -> None:
        """Take up the session offer; else start a session, or end the running one."""
        from delvetui.ui.dialogs.choose import ChooseScreen

        offered = self.offer.take_up()
        if offered:
            first, *then = offered
            self.table.run(first, then=then)
            return
        state = self.table.state
        if not state.in_session:
            self.table.run(commands.Session(start=True))
            return
        number = state.session

        def chosen(answer: str | None) -> None:
            if answer == "end":
                self.table.run(commands.Session(start=False))
            elif answer == "next":
                self.table.run(commands.Session(start=False), then=[commands.Session(start=True)])

        self.table.app.push_screen(
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

    def export(self) -> None:
        """Export the log: plain text, Markdown, HTML or JSON."""
        from delvetui.ui.dialogs.choose import ChooseScreen

        def chosen(fmt: str | None) -> None:
            if fmt is not None:
                self.table.post_message(messages.Export(fmt))

        self.table.app.push_screen(
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

    def help(self) -> None:
        """Show every key and the command language."""
        from delvetui.ui.dialogs.help_screen import HelpScreen

        keys = self.keys.help_keys()
        self.table.app.push_screen(HelpScreen(keys, self.table.procedure))

    def reveal(self) -> None:
        """Show something on the players' screen, or hide it again."""
        from delvetui.core.players import reveal_choices
        from delvetui.ui.dialogs.choose import ChooseScreen

        choices = reveal_choices(self.table.state, self.table.procedure)
        if not choices:
            self.table.notify("The procedure already shows the players everything they may see.")
            return

        def chosen(answer: str | None) -> None:
            if answer is not None:
                self.table.run(choices[int(answer)][0])

        hint = "What the players' screen (delvetui players) shows."
        shown = [(str(number), Text(words)) for number, (_, words) in enumerate(choices)]
        self.table.app.push_screen(ChooseScreen("The players' screen", shown, hint=hint), chosen)

    def odds(self) -> None:
        """Show the chance of an encounter and of each light going out."""
        from delvetui.ui.dialogs.odds_dialog import OddsDialog

        self.table.app.push_screen(OddsDialog(self.table.state, self.table.procedure))
