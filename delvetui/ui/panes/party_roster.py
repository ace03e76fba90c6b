"""The party roster: each member's hit points as a bar, fatigue, conditions and tracks.

Every number a game master plays by is shown whole. A member's tracks and own resources
go on the member's line with their labels where they fit (with the procedure's ``short``
labels where the long ones do not); else the pane becomes a sheet: a row of short labels
over a column of numbers for each, a member a line. What gives way is the hit points' bar,
then the words (conditions) go under the member, never a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs
from rich.cells import cell_len
from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive

from delvetui.core import conditions
from delvetui.core.level_rules import check_modifier, kind_modifiers
from delvetui.core.member_light import member_level, per_member
from delvetui.core.party import track_figure
from delvetui.core.state import Member, State
from delvetui.procedure.model import Procedure
from delvetui.text import visible
from delvetui.ui.bars import bar, plural, wrapped
from delvetui.ui.panes.pane import RowPane

#: The widest hit points' bar, and the narrowest worth drawing.
BAR_MOST, BAR_LEAST = 16, 4


@attrs.frozen
class Figure:
    """One of a member's numbers (a track, a resource of their own) and its names."""

    label: str
    short: str
    value: str


@attrs.frozen
class Fit:
    """How the members' lines are laid out at a width: ``labels`` is "long" or "short"
    for a line each with the labels on it, "sheet" for the numbers in columns under a row
    of short labels, "under" for the labels on lines under each member's name."""

    labels: str
    bar: int
    #: The sheet's columns' widths: the hit points' first, then each figure's.
    columns: tuple[int, ...] = ()
    gap: int = 1


def dead_words(procedure: Procedure, state: State, member: Member) -> str:
    """A dead member's row after the name: dead is dead, no hit points, tracks or
    conditions to follow, only when (' dead (turn 3)')."""
    if member.died_at is None:
        return " dead"
    return f" dead ({procedure.turn_name(state.turn_type)} {member.died_at[0]})"


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
        "party-roster--title",
    }

    class EditMember(Message):
        """The game master clicked a member (or the empty roster) to edit the party."""

        def __init__(self, name: str | None) -> None:
            super().__init__()
            self.name = name

    heading_in_title: reactive[bool] = reactive(False, layout=True)
    """True where the table is short of lines: a sheet's row of labels is the pane's title
    line ("Party" and the labels over their columns), in place of its border."""

    def render(self) -> RenderableType:
        """The roster as styled text, in the lines the table gives it."""
        width = self.size.width
        text, self._rows = self._drawn(width, self.budget)
        titled = self._titled()
        if self.has_class("-titled") != titled:
            self.set_class(titled, "-titled")  # the row of labels takes the border's line
        return text

    def _titled(self) -> bool:
        """True when the pane's first row is its title line (the border's line goes)."""
        return bool(self.heading_in_title and self.state.party)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line per row drawn at this width."""
        return len(self._drawn(width, self.budget)[1])

    def wanted(self, width: int) -> tuple[int, int]:
        """A line per member (and the sheet's labels); the lines everything would fill."""
        least = max(1, len(self.state.party))
        if self.state.party and (self._heading_line(max(20, width)) or self.heading_in_title):
            least += 1
        return least, len(self._drawn(width, None)[1])

    def least_width(self) -> int:
        """The narrowest the pane can be with every number whole on the member's line: the
        sheet of numbers under short labels, without the bar, and the member's words (their
        conditions) after them (the table's side column is made at least this wide where it
        is narrow, as far as the log's least width allows)."""
        party = self.state.party
        if not party:
            return 0
        figures = [figures_of(self.procedure, member) for member in party]
        name_width = max(5, *(len(visible(member.name)) for member in party))
        columns = [max(2, *(len(hp_text(member)) for member in party))]
        for index, figure in enumerate(figures[0]):
            columns.append(max(cell_len(figure.short), *(len(own[index].value) for own in figures)))
        words = self._words_width()
        sheet = name_width + 1 + sum(columns) + len(columns) - 1
        return sheet + (words + 1 if words else 0)

    def _words_width(self) -> int:
        """The widest of the members' words (fatigue, light, conditions) side by side."""
        procedure, state = self.procedure, self.state
        return max(
            cell_len(
                " · ".join(
                    [word for word, _ in after_words(procedure, state, member)]
                    + conditions_of(procedure, state, member)
                )
            )
            for member in state.party
        )

    def drawn_lines(self, width: int, budget: int) -> int:
        """The rows drawn when given ``budget`` lines."""
        return len(self._drawn(width, budget)[1])

    def _drawn(self, width: int, budget: int | None) -> tuple[Text, list[str | None]]:
        """The roster at this width in at most ``budget`` lines, and what each row stands
        for. Short of lines, the words under the members go onto their lines (cut at the
        end), then the party's lines go, then the last members are named on one line."""
        state = self.state
        text = Text(no_wrap=True, overflow="ellipsis")
        rows: list[str | None] = []
        if not state.party:
            text.append("No one yet: press p to add a party member.", self._style("muted"))
            rows.append(None)
            return text, rows
        width = max(20, width)
        party = list(state.party)
        fit = self._fit(width)
        heading = self._heading_line(width)
        shown = party
        if budget is not None and budget < len(party) + heading:
            shown = party[: max(0, budget - 1 - heading)]
        lines: list[tuple[Text, str | None]] = []
        if heading and shown:
            lines.append((self._heading(fit, width), None))
        elif self.heading_in_title and shown:
            lines.append((self._title_line(fit, width), None))
        members = [self._member(member, width, fit) for member in shown]
        full = len(lines) + sum(len(drawn) for drawn in members)
        squeeze = budget is not None and full > budget
        for member, drawn in zip(shown, members, strict=True):
            if squeeze and len(drawn) > 1:
                drawn = [self._squeezed(member, drawn, width, fit)]
            lines.extend((line, member.name) for line in drawn)
        if len(shown) < len(party):
            rest = [visible(member.name) for member in party[len(shown) :]]
            more = f"+{len(rest)} more: " if shown else f"{len(rest)} members: "
            lines.append((Text(more + ", ".join(rest), self._style("muted")), None))
        else:
            for said, style in party_lines(self.procedure, self.state, width):
                # Wrapped, never cut: short of lines, the last of them go whole.
                for part in wrapped(self.app.console, Text(said, self._style(style)), width):
                    lines.append((part, None))
        if budget is not None:
            lines = lines[: max(1, budget)]
        for index, (line, row) in enumerate(lines):
            if index:
                text.append("\n")
            text.append_text(line)
            rows.append(row)
        return text, rows

    def _heading_line(self, width: int) -> bool:
        """True when the sheet's labels take a line of their own, under the title."""
        return self._fit(width).labels == "sheet" and not self.heading_in_title

    def _title_line(self, fit: Fit, width: int) -> Text:
        """The pane's title line where it is the first row: "Party", and the sheet's
        labels over their columns."""
        line = Text("Party", self._style("title"))
        if fit.labels == "sheet":
            heading = self._heading(fit, width)
            start = len(heading.plain) - len(heading.plain.lstrip())
            if start >= len("Party") + 1:
                line = Text("Party".ljust(start), self._style("title"))
                line.append_text(heading[start:])
        return line

    def _fit(self, width: int) -> Fit:
        """The layout the members' lines take at this width (see ``Fit``)."""
        party = self.state.party
        name_width = names_width(self.state.party, width)
        hp_width = max(len(hp_text(member)) for member in party)
        figures = [figures_of(self.procedure, member) for member in party]
        after = max(
            sum(1 + cell_len(word) for word, _ in after_words(self.procedure, self.state, m))
            for m in party
        )
        if not figures[0]:
            room = width - name_width - 1 - hp_width - 14
            return Fit("long", max(BAR_LEAST, min(BAR_MOST, room)))
        for labels in ("long", "short"):
            details = max(
                cell_len(" · ".join(f"{figure_label(f, labels)} {f.value}" for f in own))
                for own in figures
            )
            room = width - (name_width + 2 + hp_width + after + 3 + details)
            if room >= BAR_LEAST:
                return Fit(labels, min(BAR_MOST, room))
        columns = [max(2, hp_width)]
        for index, figure in enumerate(figures[0]):
            values = [len(own[index].value) for own in figures]
            columns.append(max(cell_len(figure.short), *values))
        needed = name_width + 1 + sum(columns) + len(columns) - 1
        if needed > width:
            return Fit("under", max(BAR_LEAST, min(BAR_MOST, width - name_width - hp_width - 3)))
        words = self._words_width()
        # Two spaces between the columns where they and the words after them fit so.
        spread = needed + len(columns) - 1 + (words + 1 if words else 0)
        gap = 2 if spread <= width else 1
        needed += (gap - 1) * (len(columns) - 1)
        # The bar gives way to the words: it is what is least needed.
        room = width - needed - 1 - (words + 1 if words else 0)
        shown_bar = min(BAR_MOST, room) if room >= BAR_LEAST else 0
        return Fit("sheet", shown_bar, tuple(columns), gap)

    def _heading(self, fit: Fit, width: int) -> Text:
        """The sheet's row of labels over its columns."""
        figures = figures_of(self.procedure, self.state.party[0])
        line = Text(
            " " * (names_width(self.state.party, width) + 1 + (fit.bar + 1 if fit.bar else 0))
        )
        labels = ["HP", *(figure.short for figure in figures)]
        for index, (label, column) in enumerate(zip(labels, fit.columns, strict=True)):
            line.append(" " * fit.gap if index else "")
            line.append(label.ljust(column))
        line.rstrip()
        line.stylize(self._style("muted"))
        return line

    def _member(self, member: Member, width: int, fit: Fit) -> list[Text]:
        """The member's lines: name, hit points, then the rest as the fit says."""
        name_width = names_width(self.state.party, width)
        shown = visible(member.name)
        name = shown if len(shown) <= name_width else shown[: name_width - 1] + "…"
        line = Text()
        line.append(name.ljust(name_width), self._style("name"))
        if member.dead:
            line.append(dead_words(self.procedure, self.state, member), self._style("muted"))
            return [line]
        if fit.bar:
            line.append(" ")
            line.append(bar(member.hp, member.max_hp, fit.bar), self._hp_style(member))
        words = [(word, "muted") for word in conditions_of(self.procedure, self.state, member)]
        figures = figures_of(self.procedure, member)
        if fit.labels == "sheet":
            values = [hp_text(member), *(figure.value for figure in figures)]
            for index, (value, column) in enumerate(zip(values, fit.columns, strict=True)):
                line.append(" " * fit.gap if index else " ")
                line.append(value.ljust(column))
            line.rstrip()
            return self._with_words(
                line, after_words(self.procedure, self.state, member) + words, width, name_width
            )
        hp_width = max(len(hp_text(each)) for each in self.state.party)
        line.append(f" {hp_text(member):<{hp_width}}")
        for word, style in after_words(self.procedure, self.state, member):
            line.append(f" {word}", self._style(style))
        if fit.labels == "under":
            # Under the name, as many lines as the width needs, the short labels on them.
            items = [f"{figure.short} {figure.value}" for figure in figures]
            room = max(10, width - name_width - 1)
            under: list[str] = []
            for item in items:
                if under and cell_len(under[-1]) + 3 + cell_len(item) <= room:
                    under[-1] += " · " + item
                else:
                    under.append(item)
            lines = [line]
            for extra in under:
                lines.append(Text(" " * (name_width + 1) + extra, self._style("muted")))
            if words:
                lines[1:1] = self._with_words(Text(" " * name_width), words, width, name_width)
            return lines
        if figures:
            details = " · ".join(f"{figure_label(f, fit.labels)} {f.value}" for f in figures)
            line.append(f"   {details}", self._style("muted"))
            if words:
                line.append(" ·", self._style("muted"))
        elif words:
            line.append("  ")
        return self._with_words(line, words, width, name_width)

    def _with_words(
        self, line: Text, words: list[tuple[str, str]], width: int, name_width: int
    ) -> list[Text]:
        """The line with the member's words after it where they fit, else on lines of
        their own under the name."""
        if not words:
            return [line]
        said = " · ".join(word for word, _ in words)
        if line.cell_len + 1 + cell_len(said) <= width:
            for index, (word, style) in enumerate(words):
                line.append(" · " if index else " ", self._style("muted"))
                line.append(word, self._style(style))
            return [line]
        plain = line.plain.rstrip(" ·")
        line = line[: len(plain)]
        lines = [line] if line.plain.strip() else []
        under = Text(" " * name_width)
        for word, style in words:
            fresh = not under.plain.strip()
            if not fresh and under.cell_len + 3 + cell_len(word) > width:
                lines.append(under)
                under, fresh = Text(" " * name_width), True
            under.append(" " if fresh else " · ", self._style("muted"))
            under.append(word, self._style(style))
        lines.append(under)
        return lines

    def _squeezed(self, member: Member, drawn: list[Text], width: int, fit: Fit) -> Text:
        """The member's lines on one, short of lines: the first line, then what was
        under it, cut at the end (the numbers come first, on the first line, in a sheet)."""
        line = drawn[0].copy()
        for extra in drawn[1:]:
            line.append(" ·", self._style("muted"))
            line.append_text(extra[len(extra.plain) - len(extra.plain.lstrip()) - 1 :])
        return line

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


def figure_label(figure: Figure, labels: str) -> str:
    """The figure's label as a layout names it: its long label, else its short one."""
    return figure.label if labels == "long" else figure.short


def figures_of(procedure: Procedure, member: Member) -> list[Figure]:
    """The member's numbers: each track, then each resource of their own."""
    figures = []
    for track_id, track in procedure.tracks.items():
        label, value = track_figure(procedure, member, track_id)
        figures.append(Figure(label, track.short or label, value))
    for resource_id, resource in procedure.resources.items():
        if resource.per == "member":
            value = f"{member.resource(resource_id)}"
            figures.append(Figure(resource.label, resource.short or resource.label, value))
    return figures


def hp_text(member: Member) -> str:
    """The member's hit points as the roster says them: '5/8'."""
    return f"{member.hp}/{member.max_hp}"


def after_words(procedure: Procedure, state: State, member: Member) -> list[tuple[str, str]]:
    """The words right after the member's hit points, with their styles: the fatigue step
    (or down), and the light they stand in where lights light only some members."""
    words: list[tuple[str, str]] = []
    ladder = procedure.party.fatigue
    if len(ladder) > 1:
        label = procedure.party.fatigue_label(member.fatigue)
        words.append((label, "warning" if member.fatigue else "muted"))
    elif member.hp == 0:
        words.append(("down", "down"))
    if per_member(procedure):
        level = member_level(state, procedure, member.name)
        if level != "bright":
            words.append((level, "warning" if level == "dark" else "muted"))
    return words


def conditions_of(procedure: Procedure, state: State, member: Member) -> list[str]:
    """The member's conditions as the roster says them (shown literally), then what their
    levels add to their checks: to every check ("checks -3": fatigue, conditions, the
    light, a counter's level) and to checks of a kind ("attack -1", rolled at the table)."""
    words = [visible(shown) for shown in conditions.shown(member, state, procedure)]
    flat, _ = check_modifier(procedure, state, member)
    if flat:
        words.append(f"checks {flat:+d}")
    words += [f"{kind} {value:+d}" for kind, value in kind_modifiers(procedure, member).items()]
    return words


def names_width(party: Sequence[Member], width: int) -> int:
    """The names' column: the longest name (at least as wide as "Party", which heads it
    where the pane's title is its first row), up to a third of the pane."""
    names = [len(visible(member.name)) for member in party]
    return min(max(5, *names), max(6, width // 3))


def party_lines(procedure: Procedure, state: State, width: int) -> list[tuple[str, str]]:
    """The lines under the members, with their styles: the party's stock (by the short
    labels where the long ones do not fit), a rest due, a pending roll."""
    found: list[tuple[str, str]] = []
    stock = [
        (resource.label, resource.short or resource.label, state.resource(resource_id))
        for resource_id, resource in procedure.resources.items()
        if resource.per == "party"
    ]
    if stock:
        line = "Party: " + " · ".join(f"{label} {value}" for label, _, value in stock)
        if cell_len(line) > width:
            line = "Party: " + " · ".join(f"{short} {value}" for _, short, value in stock)
        found.append((line, "muted"))
    rest = procedure.rest
    if rest is not None and state.turns_since_rest >= rest.every:
        since = plural(state.turns_since_rest, "turn")
        found.append((f"Rest due: {since} since the last rest", "warning"))
    for pending in state.pending:
        label = pending.label.split(" unless ")[0]
        found.append((f"Next turn unless the party rests: {label}", "warning"))
    return found
