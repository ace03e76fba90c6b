"""Counters such as the alarm, drawn as gauges with the chance they give right now."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.style import Style
from rich.text import Text

from delvetui.core.counter_odds import chance_at_most, encounter_rolls, next_turn
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.ui.bars import bar, wrapped
from delvetui.ui.panes.pane import Pane


class Counters(Pane):
    """Each counter of the procedure as a gauge. A counter an encounter is rolled against
    shows the chance of an encounter on the next turn with the action it takes (the figure
    of ``o``); another roll against it shows its chance at the counter's value."""

    PREFIX = "counters"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "counters--gauge",
        "counters--high",
        "counters--muted",
    }

    def __init__(self, procedure: Procedure, *, id: str | None = None) -> None:
        super().__init__(procedure, id=id)
        self._counted: tuple[State, Procedure, tuple[str, str]] | None = None

    def next_turn(self) -> tuple[str, str]:
        """``next_turn`` of the state shown, counted once for each state."""
        counted = self._counted
        if counted is not None and counted[0] is self.state and counted[1] is self.procedure:
            return counted[2]
        found = next_turn(self.state, self.procedure)
        self._counted = (self.state, self.procedure, found)
        return found

    def render(self) -> RenderableType:
        """One gauge per counter, or the counters side by side in the lines given."""
        return self._drawn(self.size.width, self.budget)

    def wanted(self, width: int) -> tuple[int, int]:
        """The lines that hold every counter's value side by side (short names, no
        chances); a line each (and lines for the chances of a counter whose line cannot
        hold them) fills more."""
        width = max(20, width)
        items = [self._item(name, "short", with_chances=False) for name in self.procedure.counters]
        least = len(packed(items, width, self._style("muted")))
        return max(1, least), max(1, least, len(self._lines(width, None)))

    def drawn_lines(self, width: int, budget: int) -> int:
        """The lines drawn when given ``budget`` lines."""
        return len(self._lines(max(20, width), budget))

    def _drawn(self, width: int, budget: int | None) -> Text:
        width = max(20, width)
        return Text("\n", no_wrap=True, overflow="ellipsis").join(self._lines(width, budget))

    def _lines(self, width: int, budget: int | None) -> list[Text]:
        """The counters' lines at this width in at most ``budget``: a line each where
        there is a line each, else side by side. What gives way is the gauge, then the
        label's aside ("(in 6)"), then the label for its short name, then the chances;
        never a counter's value."""
        counters = list(self.procedure.counters)
        if budget is not None and budget < len(counters):
            return self._side_by_side(counters, width, budget)
        found: dict[str, tuple[str, bool]] = {
            counter_id: self._numbers(counter_id) for counter_id in counters
        }
        chances = {name: self._chances(name, high) for name, (_, high) in found.items()}
        for labels in ("long", "bare", "short"):
            names = {name: self._label(name, labels) for name in counters}
            label_width = max((cell_len(label) for label in names.values()), default=0)
            widest = max(
                label_width + len(found[name][0]) + chances[name].cell_len for name in counters
            )
            if widest <= width:
                break
        lines: list[Text] = []
        figures = max(len(numbers) for numbers, _ in found.values())
        # One gauge width for all, in the room the lines whose chances fit leave.
        rooms = [
            width - label_width - 1 - figures - chances[name].cell_len
            for name in counters
            if label_width + figures + chances[name].cell_len <= width
        ]
        gauge = min(20, width // 3, *rooms) if rooms else 0
        for index, counter_id in enumerate(counters):
            numbers, high = found[counter_id]
            line = Text(names[counter_id].ljust(label_width))
            said = chances[counter_id]
            if gauge >= 4:  # the gauge gives way to the figures on a narrow pane
                line.append(" ")
                line.append_text(self._gauge(counter_id, gauge))
            line.append(
                numbers.ljust(figures) if said else numbers,
                self._style("high") if high else Style(),
            )
            lines.append(line)
            if line.cell_len + said.cell_len <= width:
                line.append_text(said)
                continue
            # Its chances on lines of their own under it, where the lines are there.
            under = wrapped(self.app.console, Text(" ") + said, width)
            after = len(counters) - index - 1
            if said and (budget is None or len(lines) + len(under) + after <= budget):
                lines.extend(under)
        return lines if budget is None else lines[: max(1, budget)]

    def _side_by_side(self, counters: list[str], width: int, budget: int) -> list[Text]:
        """The counters in a few words each, as many a line as fit, in ``budget`` lines:
        with their chances where those fit, else without; the last ones counted when
        even that does not fit ("+2 more")."""
        for labels, with_chances in (("bare", True), ("short", True), ("short", False)):
            items = [self._item(name, labels, with_chances=with_chances) for name in counters]
            lines = packed(items, width, self._style("muted"))
            if len(lines) <= budget:
                return lines
        shown = list(lines[: max(1, budget)])
        while shown:
            left = len(counters) - sum(line.plain.count(" · ") + 1 for line in shown)
            if not left:
                return shown
            more = f"+{left} more"
            if shown[-1].cell_len + 3 + len(more) <= width:
                shown[-1].append(f" · {more}", self._style("muted"))
                return shown
            last = shown[-1].plain.rfind(" · ")
            if last < 0:
                shown[-1] = Text(more, self._style("muted"))
                return shown
            shown[-1] = shown[-1][:last]
        return shown

    def _label(self, counter_id: str, labels: str) -> str:
        """The counter's name: its label ("long"), the label without its aside ("bare":
        "(in 6)" gives way, the figures follow it), or its short name ("short")."""
        counter = self.procedure.counters[counter_id]
        if labels == "long":
            return counter.label
        bare = re.sub(r"\s*\([^)]*\)", "", counter.label) or counter.label
        return bare if labels == "bare" else counter.short or bare

    def _numbers(self, counter_id: str) -> tuple[str, bool]:
        """The counter's value as shown (' 3/10', ' risky'), and whether it is high."""
        counter = self.procedure.counters[counter_id]
        value = self.state.counter(counter_id)
        bound = counter.top()
        top = bound if bound is not None else max(10, value)
        high = value >= top * 0.7
        at = counter.danger_at
        if at is not None:
            threshold = counter.value_of(at) if isinstance(at, str) else at
            high = threshold is not None and value >= threshold
        numbers = f" {value}/{top}" if bound is not None else f" {value}"
        if counter.levels:
            numbers = f" {counter.shown(value)}"
        return numbers, high

    def _chances(self, counter_id: str, high: bool) -> Text:
        """What the rolls against the counter give: the next turn's chance of an encounter,
        or another roll's chance at this value."""
        text = Text()
        style = self._style("high" if high else "muted")
        value = self.state.counter(counter_id)
        encounters = encounter_rolls(self.procedure, counter_id)
        if encounters:
            action, chance = self.next_turn()
            if chance:
                known = self.procedure.actions.get(action)
                doing = known.label if known is not None else action
                label = encounters[0].hit_label.lower() or "encounter"
                text.append(f"  {doing}: {label} {chance}", style)
        for rule in self.procedure.rolls.values():
            if rule.hit_at_most != counter_id or not rule.dice or rule in encounters:
                continue
            chance_now = chance_at_most(rule.dice, value)
            if chance_now is not None:
                text.append(f"  {rule.hit_label} {chance_now:.0%}", style)
        return text

    def _item(self, counter_id: str, labels: str, *, with_chances: bool = True) -> Text:
        """The counter in a few words, for a line shared with the others."""
        numbers, high = self._numbers(counter_id)
        item = Text(self._label(counter_id, labels))
        item.append(numbers, self._style("high") if high else Style())
        if with_chances:
            item.append_text(self._chances(counter_id, high))
        return item

    def _gauge(self, counter_id: str, width: int) -> Text:
        """The counter's value as a gauge ``width`` cells wide."""
        counter = self.procedure.counters[counter_id]
        value = self.state.counter(counter_id)
        _, high = self._numbers(counter_id)
        bound = counter.top()
        top = bound if bound is not None else max(10, value)
        gauge = bar(value - counter.min, top - counter.min, width)
        return Text(gauge, self._style("high" if high else "gauge"))


def packed(items: list[Text], width: int, muted: Style) -> list[Text]:
    """The items side by side, " · " between, as many a line as fit the width."""
    lines: list[Text] = []
    for item in items:
        if lines and lines[-1].cell_len + 3 + item.cell_len <= width:
            lines[-1].append(" · ", muted)
            lines[-1].append_text(item)
        else:
            lines.append(item.copy())
    return lines
