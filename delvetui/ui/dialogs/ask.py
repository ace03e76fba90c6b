"""A small modal that asks for one line of text and checks it before closing."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from delvetui.text import visible
from delvetui.ui.dialogs.question import Question

#: Checks a typed answer: None when it is fine, else the sentence to show.
Check = Callable[[str], str | None]


def check_line(line: str) -> str | None:
    """None when the line is a command of the language, else what is wrong (the check of a
    question whose answer becomes a command: a timer's length, a room's note)."""
    from delvetui.core import commands
    from delvetui.errors import CommandError

    try:
        commands.parse(line)
    except CommandError as error:
        return error.message
    return None


class AskScreen(Question):
    """Ask a question; Enter answers (once the check passes), Escape cancels."""

    def __init__(
        self,
        title: str,
        prompt: str,
        *,
        value: str = "",
        placeholder: str = "",
        check: Check | None = None,
        hint: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.value = value
        self.placeholder = placeholder
        self.check = check
        self.hint = hint

    def compose(self) -> ComposeResult:
        """The question, the field, and a line for what is wrong."""
        with Vertical(classes="dialog"):
            yield Static(Text(visible(self.title_text)), classes="dialog-title")
            yield Static(Text(visible(self.prompt)), classes="dialog-prompt")
            yield Input(value=self.value, placeholder=self.placeholder, id=self.INPUT_ID)
            yield Static(Text(self.hint), classes="dialog-hint", id=self.MESSAGE_ID)

    def problem(self, text: str) -> str | None:
        """What the check finds wrong with the answer."""
        return self.check(text) if self.check is not None else None
