"""The table's dialogs: lights, party, dice, note, clock, sessions, export, help, reveal.

Each dialog answers with the commands to run; what the game master types in a question
(a roll, a note, the clock) is a line for the parser."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from delvetui import dice
from delvetui.core import commands
from delvetui.errors import CommandError, DiceError
from delvetui.ui.session_bar import SessionBar
from delvetui.ui.table_base import Answer
from delvetui.ui.table_keys import TableKeys
from delvetui.ui.table_view import bindings_of

if TYPE_CHECKING:
    from delvetui.ui.ask import AskScreen

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


class TableDialogs(TableKeys):
    """The keys that open a dialog, and running what the dialog answers."""

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

    def action_timers(self) -> None:
        """Start a timer, change a running one's length or cancel it."""
        from delvetui.ui.timer_dialog import open_dialog

        open_dialog(self.app, self.state, self.procedure, self.run)

    def _run_answer(self, answer: Answer | None) -> None:
        # A dialog may answer with several commands (refuel, then light).
        if answer:
            first, *then = answer
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
            first, *then = offer.orders
            self.run(first, then=then)
            return
        state = self.state
        if not state.in_session:
            self.run(commands.Session(start=True))
            return
        number = state.session

        def chosen(answer: str | None) -> None:
            if answer == "end":
                self.run(commands.Session(start=False))
            elif answer == "next":
                self.run(commands.Session(start=False), then=[commands.Session(start=True)])

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
        unused = self.unused_keys()
        for binding in bindings_of(self.BINDINGS):
            if binding.action in unused:
                continue  # the procedure has no use for it here (pressed, it says why)
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
        from delvetui.ui.choose import ChooseScreen
        from delvetui.ui.reveal import reveal_choices

        choices = reveal_choices(self.state, self.procedure)
        if not choices:
            self.notify("The procedure already shows the players everything they may see.")
            return

        def chosen(answer: str | None) -> None:
            if answer is not None:
                self.run(choices[int(answer)][0])

        hint = "What the players' screen (delvetui players) shows."
        shown = [(str(number), text) for number, (_, text) in enumerate(choices)]
        self.app.push_screen(ChooseScreen("The players' screen", shown, hint=hint), chosen)

    def action_odds(self) -> None:
        """Show the chance of an encounter and of each light going out."""
        from delvetui.ui.odds_dialog import OddsDialog

        self.app.push_screen(OddsDialog(self.state, self.procedure))
