"""A small modal that asks for one line of text and checks it before closing."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

#: Checks a typed answer: None when it is fine, else the sentence to show.
Check = Callable[[str], str | None]


class AskScreen(ModalScreen[str | None]):
    """Ask a question; Enter answers (once the check passes), Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """Escape closes the question without an answer."""

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
            yield Static(Text(self.title_text), classes="dialog-title")
            yield Static(Text(self.prompt), classes="dialog-prompt")
            yield Input(value=self.value, placeholder=self.placeholder, id="ask-input")
            yield Static(Text(self.hint), classes="dialog-hint", id="ask-message")

    def on_mount(self) -> None:
        """Start typing at once."""
        self.query_one("#ask-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Answer, unless the check finds a problem (shown under the field)."""
        event.stop()
        text = event.value.strip()
        problem = self.check(text) if self.check is not None else None
        if problem:
            message = self.query_one("#ask-message", Static)
            message.update(Text(problem))
            message.add_class("-error")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.dismiss(None)
