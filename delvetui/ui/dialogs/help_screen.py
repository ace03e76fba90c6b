"""Help: every key, the command language, and the procedure's actions and lights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from delvetui.core.commands import USAGE
from delvetui.procedure.model import Procedure


def help_text(keys: Sequence[tuple[str, str]], procedure: Procedure | None) -> Text:
    """The help as text: keys, commands, and what the procedure offers."""
    text = Text()
    text.append("Keys\n", "bold underline")
    width = max((len(key) for key, _ in keys), default=0)
    for key, description in keys:
        text.append(f"  {key.ljust(width)}  ", "bold")
        text.append(f"{description}\n")
    text.append(
        "\nThe command line (:) takes the same commands as delvetui act\n", "bold underline"
    )
    for usage in USAGE.values():
        text.append(f"  {usage}\n")
    text.append(
        "  Give a die you rolled at the table as KEY=N (turn hazard=3); "
        "tab completes, up and down recall.\n"
    )
    if procedure is not None:
        source = procedure.source
        title = (
            procedure.name if source in ("", procedure.name) else f"{procedure.name}, from {source}"
        )
        text.append(f"\n{title}\n", "bold underline")
        text.append(f"  {procedure.summary}\n")
        text.append("  Actions: ", "bold")
        text.append(", ".join(f"{name} ({a.label})" for name, a in procedure.actions.items()))
        text.append("\n")
        if procedure.activities:
            text.append("  Activities (the activity key, or do ACTIVITY by=NAME): ", "bold")
            text.append(
                ", ".join(f"{name} ({a.label})" for name, a in procedure.activities.items())
            )
            text.append("\n")
        text.append("  Lights: ", "bold")
        text.append(", ".join(f"{name} ({k.label})" for name, k in procedure.lights.items()))
        text.append("\n")
        if procedure.counters:
            text.append("  Counters: ", "bold")
            text.append(", ".join(c.label for c in procedure.counters.values()))
            text.append("\n")
    return text


class HelpScreen(ModalScreen[None]):
    """A scrollable page of help; Escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Close"),
    ]
    """Keys that close the help."""

    def __init__(self, keys: Sequence[tuple[str, str]], procedure: Procedure | None) -> None:
        super().__init__()
        self.keys = list(keys)
        self.procedure = procedure

    def compose(self) -> ComposeResult:
        """The help page."""
        with Vertical(classes="dialog -wide -tall"):
            yield Static(Text("Help"), classes="dialog-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(help_text(self.keys, self.procedure), id="help-text")
            yield Static(Text("esc close"), classes="dialog-hint")

    def on_mount(self) -> None:
        """Focus the page so the arrows scroll it."""
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
