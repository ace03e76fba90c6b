"""The room the party is in: its marks, where it leads, the game master's words on it."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message

from delvetui.core.room_map import LEGEND, state_of
from delvetui.core.rooms import counts, exits_of
from delvetui.text import counted, visible
from delvetui.ui.panes.pane import Pane

#: The sign an exit shows beside its id: the map's (× cleared, ! restocked, ? not explored).
_SIGN = {name: sign for name, sign, _ in LEGEND}


class RoomsPane(Pane):
    """Where the party is: the room, its marks, its exits (each with the sign of its state,
    as the map draws it), its note and the adventure's words on it; outside, the dungeon's
    rooms counted. Shown only where the expedition has rooms."""

    PREFIX = "rooms-pane"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "rooms-pane--room",
        "rooms-pane--marks",
        "rooms-pane--exit",
        "rooms-pane--cleared",
        "rooms-pane--restocked",
        "rooms-pane--unexplored",
        "rooms-pane--muted",
        "rooms-pane--note",
    }

    class Clicked(Message):
        """The game master clicked the pane: to go to an exit."""

    def render(self) -> RenderableType:
        """The room in the lines the table gives it."""
        return self._drawn(self.size.width, self.budget)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line per line drawn."""
        return len(self._drawn(width, self.budget).split())

    def wanted(self, width: int) -> tuple[int, int]:
        """The room and its marks, and its exits; the rest (its note, its words) if room."""
        least = 2 if self.state.current_room is not None else 1
        return least, len(self._drawn(width, None).split())

    def drawn_lines(self, width: int, budget: int) -> int:
        """The lines drawn when given ``budget`` lines."""
        return len(self._drawn(width, budget).split())

    def _drawn(self, width: int, budget: int | None) -> Text:
        state = self.state
        room = state.current_room
        width = max(20, width)
        if room is None:
            found = counts(state)
            line = Text("Outside: ", self._style("room"))
            rooms = counted(found["rooms"], "room")
            line.append(f"{rooms}, {found['explored']} explored", self._style("muted"))
            if found["cleared"]:
                line.append(f", {found['cleared']} cleared", self._style("muted"))
            return _lines([line], budget, width)
        head = Text(visible(room.name), self._style("room"))
        marks = [mark for mark in room.marks if mark != "explored"]
        said = Text(", ".join(marks) or "explored", self._style("marks"))
        if room.restocked:
            said.append(f" ({visible(room.restocked)})", self._style("restocked"))
        exits = Text("Exits: ", self._style("muted"))
        leads = exits_of(state, room)
        for number, other in enumerate(leads):
            if number:
                exits.append(" ")
            kind = state_of(other, state.room)
            sign = _SIGN.get(kind, "")
            exits.append(visible(other.id) + sign, self._style(_EXIT_STYLE.get(kind, "exit")))
        if not leads:
            exits.append("none known", self._style("muted"))
        lines = [head, said, exits]
        if room.notes:
            lines.append(Text(f"✎ {visible(room.notes[-1])}", self._style("note")))
        if room.text:
            lines += [Text(part, self._style("muted")) for part in _wrap(visible(room.text), width)]
        if budget is not None and budget < len(lines):
            # Short of lines: the marks after the room's name, then the exits.
            head.append(" · ", self._style("muted"))
            head.append_text(said)
            lines = [head, exits, *lines[3:]]
        return _lines(lines, budget, width)

    def on_click(self, event: events.Click) -> None:
        """Clicking the pane opens the exits to go to."""
        self.post_message(self.Clicked())


_EXIT_STYLE = {"cleared": "cleared", "restocked": "restocked", "unexplored": "unexplored"}


def _wrap(text: str, width: int) -> list[str]:
    from delvetui.text import wrap

    return wrap(text, width, width)


def _lines(lines: list[Text], budget: int | None, width: int) -> Text:
    shown = lines if budget is None else lines[: max(1, budget)]
    return Text("\n", no_wrap=True, overflow="ellipsis").join(shown)
