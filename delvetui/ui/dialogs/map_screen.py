"""The map of the rooms the party knows (``M``): each area's rooms and exits, drawn."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from delvetui.core.areas import areas
from delvetui.core.room_map import Run, drawing
from delvetui.core.state import State
from delvetui.text import visible


class MapDrawing(Widget):
    """The drawing itself: each room's box styled by its state, the exits between them."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "map-drawing--title",
        "map-drawing--room",
        "map-drawing--here",
        "map-drawing--cleared",
        "map-drawing--restocked",
        "map-drawing--unexplored",
        "map-drawing--link",
        "map-drawing--legend",
    }

    def __init__(self, lines: list[list[Run]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines = lines

    def render(self) -> RenderableType:
        """The lines of the drawing, each run in its style."""
        text = Text(no_wrap=True)
        for number, line in enumerate(self.lines):
            if number:
                text.append("\n")
            for words, kind in line:
                style = self.get_component_rich_style(f"map-drawing--{kind}") if kind else None
                text.append(visible(words), style or "")
        return text


class MapScreen(ModalScreen[None]):
    """The map, as wide and long as the dungeon the party knows: it scrolls."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,M", "close", "Close")]
    """Keys that close the map."""

    def __init__(self, state: State) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        """The title, the drawing (scrolling) and the hint."""
        lines = drawing(self.state, areas(self.state))
        with Vertical(classes="dialog -wide -tall", id="map-dialog"):
            yield Static(Text("The map of the rooms the party knows"), classes="dialog-title")
            with ScrollableContainer(id="map-scroll"):
                if lines:
                    yield MapDrawing(lines, id="map-drawing")
                else:
                    yield Static(Text("The party knows no room yet: go to one (g)."))
            yield Static(Text("arrows scroll · esc close"), classes="dialog-hint")

    def on_mount(self) -> None:
        """The arrows scroll the map."""
        self.query_one("#map-scroll").focus()

    def action_close(self) -> None:
        """Close the map."""
        self.dismiss(None)
