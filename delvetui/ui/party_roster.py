"""The party roster: each member's hit points as a bar, fatigue, conditions and tracks."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message

from delvetui.core import conditions
from delvetui.core.member_light import member_level, per_member
from delvetui.core.state import Member
from delvetui.text import visible
from delvetui.ui.bars import bar, plural
from delvetui.ui.pane import RowPane


class PartyRoster(RowPane):
    """Who is in the party and how they are; names are always shown literally."""

    PREFIX = "party-roster"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "party-roster--name",
        "party-roster--ok",
        "party-roster--hurt",
        "party-roster--critical",
        "party-roster--down",
        "party-roster--muted",
        "party-roster--warning",
    }

    class EditMember(Message):
        """The game master clicked a member (or the empty roster) to edit the party."""

        def __init__(self, name: str | None) -> None:
            super().__init__()
            self.name = name

    def render(self) -> RenderableType:
        """The roster as styled text."""
        text, self._rows = self._drawn(self.size.width)
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line per row drawn at this width (a member's details take the lines the
        width needs)."""
        return len(self._drawn(width)[1])

    def _drawn(self, width: int) -> tuple[Text, list[str | None]]:
        """The roster at this width, and what each of its rows stands for."""
        state = self.state
        text = Text(no_wrap=True, overflow="ellipsis")
        rows: list[str | None] = []
        if not state.party:
            text.append("No one yet: press p to add a party member.", self._style("muted"))
            rows.append(None)
            return text, rows
        width = max(20, width)
        name_width = min(max(len(visible(m.name)) for m in state.party), max(6, width // 3))
        for number, member in enumerate(state.party):
            if number:
                text.append("\n")
            self._member(text, rows, member, width, name_width)
        stock = [
            f"{resource.label} {state.resource(resource_id)}"
            for resource_id, resource in self.procedure.resources.items()
            if resource.per == "party"
        ]
        if stock:
            text.append("\n")
            text.append("Party: " + " · ".join(stock), self._style("muted"))
            rows.append(None)
        rest = self.procedure.rest
        if rest is not None:
            since = state.turns_since_rest
            if since >= rest.every:
                text.append("\n")
                text.append(
                    f"Rest due: {plural(since, 'turn')} since the last rest",
                    self._style("warning"),
                )
                rows.append(None)
        for pending in state.pending:
            text.append("\n")
            label = pending.label.split(" unless ")[0]
            text.append(f"Next turn unless the party rests: {label}", self._style("warning"))
            rows.append(None)
        return text, rows

    def _member(
        self, text: Text, rows: list[str | None], member: Member, width: int, name_width: int
    ) -> None:
        shown = visible(member.name)
        name = shown if len(shown) <= name_width else shown[: name_width - 1]
        if len(shown) > name_width:
            name += "…"
        text.append(name.ljust(name_width), self._style("name"))
        numbers = f" {member.hp}/{member.max_hp}"
        bar_width = max(4, min(16, width - name_width - len(numbers) - 14))
        text.append(" ")
        text.append(bar(member.hp, member.max_hp, bar_width), self._hp_style(member))
        text.append(numbers)
        ladder = self.procedure.party.fatigue
        if len(ladder) > 1:
            label = self.procedure.party.fatigue_label(member.fatigue)
            text.append(f" {label}", self._style("warning" if member.fatigue else "muted"))
        elif member.hp == 0:
            text.append(" down", self._style("down"))
        if per_member(self.procedure):
            # Where a light lights only some members: who stands in dim light or darkness.
            level = member_level(self.state, self.procedure, member.name)
            if level != "bright":
                text.append(f" {level}", self._style("warning" if level == "dark" else "muted"))
        rows.append(member.name)
        extras = [visible(shown) for shown in conditions.shown(member, self.state, self.procedure)]
        for track_id, track in self.procedure.tracks.items():
            value = member.track(track_id)
            limit = track.limit
            if isinstance(limit, str):
                limit = member.ability(limit)
            extras.append(f"{track.label} {value}" + (f"/{limit}" if limit is not None else ""))
        for resource_id, resource in self.procedure.resources.items():
            if resource.per == "member":
                extras.append(f"{resource.label} {member.resource(resource_id)}")
        # Under the name, as many lines as the pane's width needs (each one a row of this
        # member for a click); a single item too long for a line ends in an ellipsis.
        room = max(10, width - name_width - 1)
        lines: list[str] = []
        for extra in extras:
            if lines and cell_len(lines[-1]) + 3 + cell_len(extra) <= room:
                lines[-1] += " · " + extra
            else:
                lines.append(extra)
        for line in lines:
            text.append("\n")
            text.append(" " * (name_width + 1))
            text.append(line, self._style("muted"))
            rows.append(member.name)

    def _hp_style(self, member: Member) -> Style:
        if member.hp <= 0:
            return self._style("down")
        share = member.hp / max(1, member.max_hp)
        if share <= 0.34:
            return self._style("critical")
        return self._style("hurt" if share < 1 else "ok")

    def on_click(self, event: events.Click) -> None:
        """Clicking a member asks to edit them."""
        self.post_message(self.EditMember(self.row_at(event)))
