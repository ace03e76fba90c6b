"""Table dice: ask the game master for the number a physical die showed."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from delvetui.core import dice
from delvetui.errors import DiceError


def is_dice(expression: str) -> bool:
    """True when the expression is dice notation (not a list of choices)."""
    try:
        dice.parse(expression)
    except DiceError:
        return False
    return True


def check_roll(expression: str, value: str) -> str | None:
    """None when value is a result the expression can give, else what is wrong."""
    if not value:
        return "Type the number the dice showed."
    if is_dice(expression):
        try:
            dice.entered(expression, value)
        except DiceError as error:
            return error.message
        return None
    choices = [choice for choice in expression.split("|") if choice and choice != "N"]
    if choices and value.casefold() not in (choice.casefold() for choice in choices):
        return f"Type one of: {', '.join(choices)}."
    if not choices and not value.isdigit():
        return "Type a whole number."
    if any(c.isspace() for c in value):
        return "Type one word, without spaces."
    return None


class RollPrompt(ModalScreen[str | None]):
    """Asks for one roll of the turn; Escape cancels the whole command (nothing is saved)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """Escape cancels the command."""

    def __init__(self, key: str, expression: str, purpose: str, *, title: str = "") -> None:
        super().__init__()
        self.key = key
        self.expression = expression
        self.purpose = purpose
        self.title_text = title or "Table dice"

    def compose(self) -> ComposeResult:
        """What to roll, the field, and the hint."""
        if is_dice(self.expression):
            ask = f"Roll {self.expression} for {self.purpose}."
            several = dice.parse(self.expression).dice > 1
            hint = "Type the total" + (", or each face as 3,4" if several else "") + "."
        else:
            ask = f"{self.purpose}: {self.expression.replace('|', ' or ')}?"
            hint = "Type the result the players rolled."
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text), classes="dialog-title")
            yield Static(Text(ask), classes="dialog-prompt", id="roll-ask")
            yield Input(placeholder=self.expression, id="roll-input")
            yield Static(
                Text(f"{hint} Escape cancels the command."),
                classes="dialog-hint",
                id="roll-message",
            )

    def on_mount(self) -> None:
        """Type at once."""
        self.query_one("#roll-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Give the number, unless the dice cannot show it."""
        event.stop()
        value = event.value.strip()
        problem = check_roll(self.expression, value)
        if problem:
            message = self.query_one("#roll-message", Static)
            message.update(Text(problem))
            message.add_class("-error")
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        """Cancel: nothing of the command is saved."""
        self.dismiss(None)
