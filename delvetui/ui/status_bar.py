"""The header line: expedition, procedure, turn, clock, light level, table dice, read-only."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from delvetui.core.state import State
from delvetui.procedure.model import Procedure


class StatusBar(Widget):
    """One line the game master can read from across the table."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "status-bar--name",
        "status-bar--bright",
        "status-bar--dim",
        "status-bar--dark",
        "status-bar--badge",
        "status-bar--readonly",
        "status-bar--muted",
    }

    state: reactive[State] = reactive(State)
    """The expedition state shown."""

    table_dice: reactive[bool] = reactive(False)
    """True when the program asks for every roll instead of rolling."""

    readonly: reactive[str] = reactive("")
    """Why the expedition cannot be changed ('' when it can)."""

    def __init__(self, procedure: Procedure, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.procedure = procedure

    def render(self) -> RenderableType:
        """The line."""
        state = self.state
        procedure = self.procedure
        muted = self._style("muted")
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" {state.name} ", self._style("name"))
        text.append(f" {procedure.name}", muted)
        turn_name = procedure.turn_name(state.turn_type).capitalize()
        text.append(" │ ", muted)
        text.append(f"{turn_name} {state.turn}", Style(bold=True))
        text.append(" │ ", muted)
        text.append(f"day {state.day} {state.clock_text}", Style(bold=True))
        level = state.light_level
        text.append(" │ ", muted)
        text.append(f" {level.upper()} ", self._style(level))
        if state.in_session:
            text.append(f"  session {state.session}", muted)
        if self.table_dice:
            text.append("  ")
            text.append(" TABLE DICE ", self._style("badge"))
        if self.readonly:
            text.append("  ")
            text.append(" READ-ONLY ", self._style("readonly"))
        return text

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"status-bar--{name}")
