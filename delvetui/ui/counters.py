"""Counters such as the alarm, drawn as gauges with the chance they give right now."""

from __future__ import annotations

import itertools
from collections import Counter as Tally
from functools import lru_cache
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text

from delvetui.core import dice
from delvetui.errors import DiceError
from delvetui.ui.bars import bar
from delvetui.ui.pane import Pane

#: Expressions with more outcomes than this are not worked out.
MAX_OUTCOMES = 50_000


@lru_cache(maxsize=64)
def distribution(expression: str) -> dict[int, float] | None:
    """The chance of each total of a dice expression, or None when it is too big to list."""
    try:
        parsed = dice.parse(expression)
    except DiceError:
        return None
    if parsed.chance is not None:
        return None
    outcomes = 1
    for term in parsed.terms:
        outcomes *= term.sides**term.count
    if outcomes > MAX_OUTCOMES:
        return None
    totals: dict[int, float] = {parsed.modifier: 1.0}
    for term in parsed.terms:
        tally: Tally[int] = Tally()
        for faces in itertools.product(range(1, term.sides + 1), repeat=term.count):
            kept = sorted(faces, reverse=term.highest)[: term.keep]
            tally[term.sign * sum(kept)] += 1
        count = term.sides**term.count
        merged: dict[int, float] = {}
        for total, chance in totals.items():
            for value, ways in tally.items():
                merged[total + value] = merged.get(total + value, 0.0) + chance * ways / count
        totals = merged
    return totals


def chance_at_most(expression: str, value: int) -> float | None:
    """The chance that a roll of the expression comes out at or below value."""
    found = distribution(expression)
    if found is None:
        return None
    return sum(chance for total, chance in found.items() if total <= value)


class Counters(Pane):
    """Each counter of the procedure as a gauge; a roll made against it shows its chance."""

    PREFIX = "counters"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "counters--gauge",
        "counters--high",
        "counters--muted",
    }

    def render(self) -> RenderableType:
        """One gauge per counter."""
        state = self.state
        text = Text(no_wrap=True, overflow="ellipsis")
        width = max(20, self.size.width)
        label_width = max((len(c.label) for c in self.procedure.counters.values()), default=0)
        for number, (counter_id, counter) in enumerate(self.procedure.counters.items()):
            if number:
                text.append("\n")
            value = state.counter(counter_id)
            bound = counter.top()
            top = bound if bound is not None else max(10, value)
            high = value >= top * 0.7
            numbers = f" {value}/{top}" if bound is not None else f" {value}"
            if counter.levels:
                numbers = f" {counter.shown(value)}"
            text.append(counter.label.ljust(label_width))
            gauge = bar(value - counter.min, top - counter.min, max(4, min(20, width // 3)))
            text.append(" ")
            text.append(gauge, self._style("high" if high else "gauge"))
            text.append(numbers)
            for rule in self.procedure.rolls.values():
                if rule.hit_at_most != counter_id or not rule.dice:
                    continue
                chance = chance_at_most(rule.dice, value)
                if chance is None:
                    continue
                text.append(
                    f"  {rule.hit_label} {chance:.0%}", self._style("high" if high else "muted")
                )
        return text
