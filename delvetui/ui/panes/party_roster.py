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
from delvetui.core.party import track_figure
from delvetui.core.state import Member
from delvetui.text import visible
from delvetui.ui.bars import bar, plural
from delvetui.ui.panes.pane import RowPane


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
        """The roster as styled text, in the lines the table gives it."""
        text, self._rows = self._drawn(self.size.width, self.budget)
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line per row drawn at this width (a member's details take the lines the
        width needs, when the table gives them)."""
        return len(self._drawn(width, self.budget)[1])

    def wanted(self, width: int) -> tuple[int, int]:
        """A line per member; the lines their details and the party's stock would fill."""
        return max(1, len(self.state.party)), len(self._drawn(width, None)[1])

    def drawn_lines(self, width: int, budget: int) -> int:
        """The rows drawn when given ``budget`` lines."""
        return len(self._drawn(width, budget)[1])

    def _drawn(self, width: int, budget: int | None) -> tuple[Text, list[str | None]]:
        """The roster at this width in at most ``budget`` lines, and what each row stands
        for. Short of lines, each member's details share the member's line (cut at its
        end), then the last members are named on one line."""
        state = self.state
        text = Text(no_wrap=True, overflow="ellipsis")
        rows: list[str | None] = []
        if not state.party:
            text.append("No one yet: press p to add a party member.", self._style("muted"))
            rows.append(None)
            return text, rows
        width = max(20, width)
        party = list(state.party)
        shown = party
        if budget is not None and budget < len(party):
            shown = party[: max(0, budget - 1)]
        short = budget is not None and budget < len(self._drawn(width, None)[1])
        name_width = min(max(len(visible(m.name)) for m in shown or party), max(6, width // 3))
        for member in shown:
            if rows:
                text.append("\n")
            self._member(text, rows, member, width, name_width, short=short)
        if len(shown) < len(party):
            if rows:
                text.append("\n")
            rest = [visible(member.name) for member in party[len(shown) :]]
            more = f"+{len(rest)} more: " if shown else f"{len(rest)} members: "
            text.append(more + ", ".join(rest), self._style("muted"))
            rows.append(None)
            return text, rows
        for line, style in self._party_lines():
            if budget is not None and len(rows) >= budget:
                break
            text.append("\n")
            text.append(line, self._style(style))
            rows.append(None)
        return text, rows

    def _party_lines(self) -> list[tuple[str, str]]:
        """The lines under the members: the party's stock, a rest due, a pending roll."""
        state = self.state
        found: list[tuple[str, str]] = []
        stock = [
            f"{resource.label} {state.resource(resource_id)}"
            for resource_id, resource in self.procedure.resources.items()
            if resource.per == "party"
        ]
        if stock:
            found.append(("Party: " + " · ".join(stock), "muted"))
        rest = self.procedure.rest
        if rest is not None and state.turns_since_rest >= rest.every:
            since = plural(state.turns_since_rest, "turn")
            found.append((f"Rest due: {since} since the last rest", "warning"))
        for pending in state.pending:
            label = pending.label.split(" unless ")[0]
            found.append((f"Next turn unless the party rests: {label}", "warning"))
        return found

    def _member(
        self,
        text: Text,
        rows: list[str | None],
        member: Member,
        width: int,
        name_width: int,
        *,
        short: bool = False,
    ) -> None:
        """The member's line: name, hit points, fatigue, light; then the details, on the
        same line where they fit (the bar shrinks for them), else under the name, or
        (``short``: the table has no lines to spare) on the same line, cut at its end."""
        shown = visible(member.name)
        name = shown if len(shown) <= name_width else shown[: name_width - 1]
        if len(shown) > name_width:
            name += "…"
        line = Text()
        line.append(name.ljust(name_width), self._style("name"))
        if member.dead:
            # Dead is dead: no hit points, tracks or conditions to follow, only when.
            when = ""
            if member.died_at is not None:
                when = f" ({self.procedure.turn_name(self.state.turn_type)} {member.died_at[0]})"
            line.append(f" dead{when}", self._style("muted"))
            text.append_text(line)
            rows.append(member.name)
            return
        numbers = f" {member.hp}/{member.max_hp}"
        after = Text()
        ladder = self.procedure.party.fatigue
        if len(ladder) > 1:
            label = self.procedure.party.fatigue_label(member.fatigue)
            after.append(f" {label}", self._style("warning" if member.fatigue else "muted"))
        elif member.hp == 0:
            after.append(" down", self._style("down"))
        if per_member(self.procedure):
            # Where a light lights only some members: who stands in dim light or darkness.
            level = member_level(self.state, self.procedure, member.name)
            if level != "bright":
                after.append(f" {level}", self._style("warning" if level == "dark" else "muted"))
        details = " · ".join(self._details(member))
        fixed = name_width + 1 + len(numbers) + after.cell_len
        spare = width - fixed - (3 + cell_len(details) if details else 0)
        inline = bool(details) and (spare >= 4 or short)
        if inline and spare < 4:
            details = self._squeezed(member, width - fixed - 7)
            spare = 4
        if inline:
            bar_width = max(4, min(16, spare))
        else:
            bar_width = max(4, min(16, width - name_width - len(numbers) - 14))
        line.append(" ")
        line.append(bar(member.hp, member.max_hp, bar_width), self._hp_style(member))
        line.append(numbers)
        line.append_text(after)
        if inline:
            line.append(f"   {details}", self._style("muted"))
        text.append_text(line)
        rows.append(member.name)
        if inline or not details:
            return
        # Under the name, as many lines as the pane's width needs (each one a row of this
        # member for a click); a single item too long for a line ends in an ellipsis.
        room = max(10, width - name_width - 1)
        lines: list[str] = []
        for extra in self._details(member):
            if lines and cell_len(lines[-1]) + 3 + cell_len(extra) <= room:
                lines[-1] += " · " + extra
            else:
                lines.append(extra)
        for extra_line in lines:
            text.append("\n")
            text.append(" " * (name_width + 1))
            text.append(extra_line, self._style("muted"))
            rows.append(member.name)

    def _details(self, member: Member) -> list[str]:
        """The member's conditions, tracks and own resources, as short items."""
        return [f"{label} {value}".rstrip() for label, value in self._items(member)]

    def _items(self, member: Member) -> list[tuple[str, str]]:
        """The member's details as (label, figure): a condition is all label."""
        state, procedure = self.state, self.procedure
        extras = [(visible(shown), "") for shown in conditions.shown(member, state, procedure)]
        extras += [track_figure(procedure, member, track_id) for track_id in procedure.tracks]
        for resource_id, resource in procedure.resources.items():
            if resource.per == "member":
                extras.append((resource.label, f"{member.resource(resource_id)}"))
        return extras

    def _squeezed(self, member: Member, room: int) -> str:
        """The member's details in ``room`` cells where cutting the longest labels does it
        ("Hours witho… 3/12"): the figures stay, they are what the game master reads."""
        items = [[label, value] for label, value in self._items(member)]

        def joined() -> str:
            return " · ".join(f"{label} {value}".rstrip() for label, value in items)

        while cell_len(joined()) > room:
            longest = max(items, key=lambda item: cell_len(item[0]) if item[1] else 0)
            if not longest[1] or cell_len(longest[0]) <= 4:
                break
            longest[0] = longest[0].rstrip("…")[:-1].rstrip() + "…"
        return joined()

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
