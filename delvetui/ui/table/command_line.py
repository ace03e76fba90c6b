"""The command line: the same command language as ``delvetui act``, with completion and history.

It owns no rules: Enter posts :class:`CommandLine.Submitted`; whoever runs the command calls
:meth:`CommandLine.succeeded` or :meth:`CommandLine.failed` with the message to show inline.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from delvetui.core.state import State
from delvetui.procedure.model import Procedure

#: How many commands the history keeps.
HISTORY = 500


class CommandLine(Vertical):
    """A one-line command prompt with an inline message below it; hidden until opened."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", show=False),
        Binding("up", "history(-1)", "Previous command", show=False),
        Binding("down", "history(1)", "Next command", show=False),
        Binding("tab", "complete", "Complete", show=False),
    ]
    """Escape closes, up and down walk the history, tab completes."""

    class Submitted(Message):
        """The game master pressed Enter on a command."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Closed(Message):
        """The command line was closed without running anything."""

    def __init__(
        self,
        context: Callable[[], tuple[State, Procedure] | None],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._complete_from = context
        self.history: list[str] = []
        self._position = 0
        self._draft = ""

    def compose(self) -> ComposeResult:
        """The prompt and the message line."""
        yield Input(
            placeholder="a command: turn search, light on torch, note Found a door (tab completes)",
            # A command put on the line (from the palette) is continued by typing, never
            # replaced by the first key.
            select_on_focus=False,
            id="command-input",
        )
        yield Static("", id="command-message", markup=False)

    @property
    def input(self) -> Input:
        """The text field."""
        return self.query_one("#command-input", Input)

    @property
    def message(self) -> str:
        """The message shown under the prompt (an error, or the completions)."""
        return str(self.query_one("#command-message", Static).content)

    def remember(self, commands: Iterable[str]) -> None:
        """Start the history with commands from earlier (oldest first)."""
        self.history = [*self.history, *commands][-HISTORY:]
        self._position = len(self.history)

    def remember_older(self, commands: Iterable[str]) -> None:
        """Put commands from before those remembered first (oldest first)."""
        self.history = [*commands, *self.history][-HISTORY:]
        self._position = len(self.history)

    def open(self, text: str = "") -> None:
        """Show the command line with text in it and focus it."""
        self.add_class("-open")
        self.input.value = text
        self.input.cursor_position = len(text)
        self._position = len(self.history)
        self._show("")
        # Focus now, not after the keys already queued: a fast ":turn" must reach the line,
        # not the table's own keys (the "t" would switch table dice).
        self.screen.set_focus(self.input)

    def action_close(self) -> None:
        """Hide the command line."""
        self.remove_class("-open")
        self._show("")
        self.post_message(self.Closed())

    def succeeded(self, text: str) -> None:
        """The command ran: remember it, clear the line and close it."""
        if text and (not self.history or self.history[-1] != text):
            self.history = [*self.history, text][-HISTORY:]
        self._position = len(self.history)
        self.input.value = ""
        self.action_close()

    def failed(self, message: str) -> None:
        """The command did not run: keep the text and say why under it."""
        self.add_class("-error")
        self._show(message)
        self.input.focus()

    def _show(self, message: str) -> None:
        if not message:
            self.remove_class("-error")
        self.query_one("#command-message", Static).update(Text(message))

    def action_history(self, step: int) -> None:
        """Walk back (-1) or forward (1) through earlier commands."""
        if not self.history:
            return
        if self._position == len(self.history):
            self._draft = self.input.value
        self._position = max(0, min(len(self.history), self._position + step))
        text = self.history[self._position] if self._position < len(self.history) else self._draft
        self.input.value = text
        self.input.cursor_position = len(text)

    def action_complete(self) -> None:
        """Complete as far as the choices agree, and list them when there are several."""
        from delvetui.core.commands.completion import completions  # the grammar, on the first Tab

        context = self._complete_from()
        if context is None:
            return
        value = self.input.value
        found = completions(value, *context)
        if not found:
            self._show("")
            return
        if len(found) == 1:
            chosen = found[0] if found[0].endswith("=") else f"{found[0]} "
        else:
            chosen = os.path.commonprefix(found)  # noqa: RUF071 (text, not paths)
            self._show("  ".join(item.rsplit(" ", 1)[-1] for item in found[:12]))
        if len(chosen) > len(value):
            self.input.value = chosen
            self.input.cursor_position = len(chosen)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: ask for the command to be run."""
        event.stop()
        text = event.value.strip()
        if not text:
            self.action_close()
            return
        self.post_message(self.Submitted(text))

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typing clears an old error message."""
        if self.has_class("-error"):
            self._show("")
