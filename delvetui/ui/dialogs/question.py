"""What the one-line questions share: a field, a check, and the problem shown under it.

:class:`Question` is the base of :class:`~delvetui.ui.dialogs.ask.AskScreen` (any line of text) and
:class:`~delvetui.ui.dialogs.roll_prompt.RollPrompt` (the number a die showed): Enter answers once
the check passes, Escape answers None.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class Question(ModalScreen[str | None]):
    """Ask for one line; Enter answers (once ``problem`` finds nothing), Escape cancels."""

    INPUT_ID: ClassVar[str] = "ask-input"
    """The id of the field."""

    MESSAGE_ID: ClassVar[str] = "ask-message"
    """The id of the line under the field that shows what is wrong."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """Escape closes the question without an answer."""

    def problem(self, text: str) -> str | None:
        """What is wrong with the answer (None when it will do)."""
        return None

    def answer(self, text: str) -> str:
        """The answer given for text that passed the check (the text itself by default)."""
        return text

    def on_mount(self) -> None:
        """Start typing at once."""
        self.query_one(f"#{self.INPUT_ID}", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Answer, unless the check finds a problem (shown under the field)."""
        event.stop()
        text = event.value.strip()
        problem = self.problem(text)
        if problem:
            message = self.query_one(f"#{self.MESSAGE_ID}", Static)
            message.update(Text(problem))
            message.add_class("-error")
            return
        self.dismiss(self.answer(text))

    def action_cancel(self) -> None:
        """Close without an answer (nothing is saved)."""
        self.dismiss(None)
