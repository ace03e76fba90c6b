"""A small modal that offers a list to choose from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class ChooseScreen(ModalScreen[str | None]):
    """Choose one of several options with the arrows and Enter (or the mouse)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    """Escape closes the list without a choice."""

    def __init__(
        self,
        title: str,
        choices: Sequence[tuple[str, RenderableType]],
        *,
        hint: str = "",
        selected: str | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.hint = hint
        self.selected = selected

    def compose(self) -> ComposeResult:
        """The title, the options and a hint."""
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text), classes="dialog-title")
            yield OptionList(
                *(Option(prompt, id=key) for key, prompt in self.choices), id="choose-list"
            )
            if self.hint:
                yield Static(Text(self.hint), classes="dialog-hint")

    def on_mount(self) -> None:
        """Focus the list, on the preselected option when there is one."""
        options = self.query_one("#choose-list", OptionList)
        options.focus()
        if self.selected is not None:
            keys = [key for key, _ in self.choices]
            if self.selected in keys:
                options.highlighted = keys.index(self.selected)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click chooses."""
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Close without a choice."""
        self.dismiss(None)
