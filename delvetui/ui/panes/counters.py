"""Counters such as the alarm, drawn as gauges with the chance they give right now."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text

from delvetui.core.counter_odds import chance_at_most, encounter_rolls, next_turn
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.ui.bars import bar
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
        """One line will do (the counters side by side); a gauge each fills a line each."""
        return 1, max(1, len(self.procedure.counters))

    def _drawn(self, width: int, budget: int | None) -> Text:
        counters = self.procedure.counters
        text = Text(no_wrap=True, overflow="ellipsis")
        width = max(20, width)
        if budget is not None and budget < len(counters):
            # Side by side, as many a line as fit: "Alarm 3/10 · Advance: encounter 40%".
            items = [self._item(counter_id) for counter_id in counters]
            lines: list[Text] = []
            for item in items:
                fits = bool(lines) and lines[-1].cell_len + 3 + item.cell_len <= width
                if lines and (fits or len(lines) >= budget):
                    lines[-1].append(" · ", self._style("muted"))
                    lines[-1].append_text(item)
                else:
                    lines.append(item)
            return Text("\n", no_wrap=True, overflow="ellipsis").join(lines)
        label_width = max((len(c.label) for c in counters.values()), default=0)
        for number, counter_id in enumerate(counters):
            if number:
                text.append("\n")
            text.append_text(self._gauge(counter_id, width, label_width))
        return text

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

    def _item(self, counter_id: str) -> Text:
        """The counter in a few words, for a line shared with the others."""
        numbers, high = self._numbers(counter_id)
        # A label's aside ("(in 6)") gives way on a shared line: the figures follow it.
        label = re.sub(r"\s*\([^)]*\)", "", self.procedure.counters[counter_id].label)
        item = Text(label or self.procedure.counters[counter_id].label)
        item.append(numbers, self._style("high") if high else Style())
        item.append_text(self._chances(counter_id, high))
        return item

    def _gauge(self, counter_id: str, width: int, label_width: int) -> Text:
        """The counter on a line of its own: label, gauge, value, chances."""
        counter = self.procedure.counters[counter_id]
        value = self.state.counter(counter_id)
        numbers, high = self._numbers(counter_id)
        chances = self._chances(counter_id, high)
        bound = counter.top()
        top = bound if bound is not None else max(10, value)
        line = Text(counter.label.ljust(label_width))
        room = width - label_width - 1 - len(numbers) - chances.cell_len
        if room >= 4:  # the gauge gives way to the figures on a narrow pane
            gauge = bar(value - counter.min, top - counter.min, min(20, width // 3, room))
            line.append(" ")
            line.append(gauge, self._style("high" if high else "gauge"))
        line.append(numbers)
        line.append_text(chances)
        return line
