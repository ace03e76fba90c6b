"""A small modal that offers a list to choose from."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.widgets.option_list import Option

from delvetui.ui.dialogs.list_dialog import PickDialog, numbered


class ChooseScreen(PickDialog):
    """Choose one of several options: arrows and Enter, a digit, first letters, or the mouse."""

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
        options = [
            Option(numbered(index, prompt), id=key)
            for index, (key, prompt) in enumerate(self.choices)
        ]
        yield from self.framed(self.title_text, options, self.hint)

    def on_mount(self) -> None:
        """Focus the list, on the preselected option when there is one."""
        self.focus_list([key for key, _ in self.choices], self.selected)
