"""A clear message for a failure the game master must see (storage, a file that won't open)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ErrorScreen(ModalScreen[None]):
    """Says what went wrong and that nothing was lost; Enter or Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("enter", "close", "Close", show=False),
    ]
    """Escape or Enter closes the message."""

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        """The title, the message, and OK."""
        with Vertical(classes="dialog -error"):
            yield Static(Text(self.title_text), classes="dialog-title")
            yield Static(Text(self.message), classes="dialog-prompt", id="error-message")
            yield Button("OK", id="error-ok", variant="error")

    def on_mount(self) -> None:
        """Focus OK."""
        self.query_one("#error-ok", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """OK closes."""
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        """Close the message."""
        self.dismiss(None)
