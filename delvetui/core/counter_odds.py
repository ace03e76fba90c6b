"""What the rolls against a counter give now: the chance of an encounter on the next turn,
or another roll's chance at the counter's value.

Pure: the state and the procedure in, chances out. The counters pane
(``ui/panes/counters.py``) draws them beside each counter's gauge.
"""

from __future__ import annotations

import itertools
from collections import Counter as Tally
from functools import lru_cache

from delvetui import dice
from delvetui.core.state import State
from delvetui.errors import DiceError
from delvetui.procedure.model import Procedure, RollRule
from delvetui.procedure.tree import iter_effects

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


def encounter_rolls(procedure: Procedure, counter_id: str) -> list[RollRule]:
    """The rolls against the counter that can begin an encounter (the alarm's d10)."""
    return [
        rule
        for rule in procedure.rolls.values()
        if rule.hit_at_most == counter_id
        and any(effect.do == "encounter" for effect in iter_effects(rule.on_hit))
    ]


def next_turn(state: State, procedure: Procedure) -> tuple[str, str]:
    """The action the next turn takes and its chance of an encounter ('' when it cannot
    be counted): the odds' own first figure (``o`` shows the same)."""
    from delvetui.core import odds  # the table's start does not load the odds

    found = odds.compute(state, procedure, ahead=1)
    chance = found.encounter_this_turn
    return found.action, "" if chance is None else odds.percent(chance)
