"""Table dice: ask the game master for the number a physical die showed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from delvetui import dice
from delvetui.errors import DiceError
from delvetui.text import visible
from delvetui.ui.dialogs.list_dialog import Choices
from delvetui.ui.dialogs.question import Question


def is_dice(expression: str) -> bool:
    """True when the expression is dice notation (not a list of choices)."""
    try:
        dice.parse(expression)
    except DiceError:
        return False
    return True


#: The expression of a question answered with words (the creature a sign foretells).
WORDS = "NAME"


def choices_of(expression: str) -> list[str]:
    """The answers a list of choices (``success|failure``) allows; none for a number."""
    if expression == WORDS:
        return []
    return [choice for choice in expression.split("|") if choice and choice != "N"]


def expanded(expression: str, value: str) -> str:
    """The choice a value names: itself, or the one choice it is the start of."""
    choices = choices_of(expression)
    folded = value.casefold()
    for choice in choices:
        if choice.casefold() == folded:
            return choice
    starting = [choice for choice in choices if folded and choice.casefold().startswith(folded)]
    return starting[0] if len(starting) == 1 else value


def check_roll(expression: str, value: str) -> str | None:
    """None when value is a result the expression can give, else what is wrong."""
    if not value:
        return "Type the number the dice showed." if is_dice(expression) else "Type the result."
    if is_dice(expression):
        try:
            dice.entered(expression, value)
        except DiceError as error:
            return error.message
        return None
    if expression == WORDS:
        return None
    choices = choices_of(expression)
    if choices and expanded(expression, value) not in choices:
        return f"Type one of: {', '.join(choices)}."
    if not choices and not value.isdigit():
        return "Type a whole number."
    if any(c.isspace() for c in value):
        return "Type one word, without spaces."
    return None


class RollPrompt(Question):
    """Asks for one roll of the turn; Escape cancels the whole command (nothing is saved).

    ``value`` is typed in already (an optional input's default: Enter accepts it), ``was``
    is the value a roll being fixed had, and ``rows`` are the rows of the table the roll is
    read on, as (the number to enter, the row): choosing one enters that number.
    """

    INPUT_ID = "roll-input"
    MESSAGE_ID = "roll-message"
    ROWS_ID = "roll-rows"

    def __init__(
        self,
        key: str,
        expression: str,
        purpose: str,
        *,
        title: str = "",
        value: str = "",
        was: str = "",
        rows: Sequence[tuple[str, str]] = (),
    ) -> None:
        super().__init__()
        self.key = key
        self.expression = expression
        self.purpose = purpose
        self.value = value
        self.was = was
        self.rows = list(rows)
        self.title_text = title or ("Table dice" if is_dice(expression) else "Needed for this turn")

    def compose(self) -> ComposeResult:
        """What to roll, the field, and the hint."""
        if is_dice(self.expression):
            ask = f"Roll {dice.spoken(self.expression)} for {self.purpose}."
            hint = dice.face_hint(self.expression)
        elif self.expression == WORDS:
            ask = self.purpose if self.purpose.endswith((".", "?")) else f"{self.purpose}?"
            hint = "Type a name or a few words."
        elif choices_of(self.expression):
            ask = f"{self.purpose}: {' or '.join(choices_of(self.expression))}?"
            hint = "Type one of them (its first letters will do)."
        else:
            ask = f"{self.purpose}?"
            hint = "Type a whole number."
        if self.was:
            ask += f" It was {self.was}."
        if self.value:
            hint += f" Enter keeps {self.value}."
        if self.rows:
            hint += " Or choose a row of the table (tab, then enter or a click)."
        with Vertical(classes="dialog"):
            yield Static(Text(visible(self.title_text)), classes="dialog-title")
            yield Static(Text(visible(ask)), classes="dialog-prompt", id="roll-ask")
            yield Input(
                value=self.value,
                placeholder=self.expression,
                select_on_focus=False,
                id=self.INPUT_ID,
            )
            if self.rows:
                yield Choices(
                    *(Option(Text(visible(label)), id=number) for number, label in self.rows),
                    id=self.ROWS_ID,
                )
            yield Static(
                Text(f"{hint} Escape cancels the command."),
                classes="dialog-hint",
                id=self.MESSAGE_ID,
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A row of the table chosen: enter its number."""
        event.stop()
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def problem(self, text: str) -> str | None:
        """What is wrong with the number (the dice cannot show it)."""
        return check_roll(self.expression, text)

    def answer(self, text: str) -> str:
        """The answer given: a choice may be typed by its first letters."""
        return expanded(self.expression, text) if not is_dice(self.expression) else text
