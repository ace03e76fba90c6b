"""An effect's amount from the table: a number, a counter's value, or a typed input.

"1 damage, more in a harsh dungeon": `amount` names a counter the game master sets for
each dungeon (`amount = "harshness"`), or an input typed with the command (`amount =
"days"`, `turn rest days=3`), in place of a fixed number. The amount is read when the
effect happens, within the key's range (0 to ``bounds.AMOUNT``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui.errors import CommandError, InputNeeded
from delvetui.procedure.bounds import AMOUNT
from delvetui.procedure.model import Effect
from delvetui.text import number_problem

if TYPE_CHECKING:
    from delvetui.core.work import Work

#: The most an input typed for an amount may be (what a command types for a number).
MOST_TYPED = 999


def amount(work: Work, effect: Effect, default: int) -> int:
    """The effect's amount now: its number, the counter's value, or the input's number
    (``default`` when it gives none)."""
    given = effect.amount
    if given is None:
        return default
    if isinstance(given, int):
        return given
    if given in work.procedure.counters:
        return max(0, min(AMOUNT, work.state.counter(given)))
    typed = work.inputs.get(given)
    if typed is None:
        typed = work.input_default(given)
    if typed is None:
        what = f"{effect.label or effect.do}: the amount"
        message = f"{what} is typed with the command: add {given}=N (0 to {MOST_TYPED})."
        if work.ask_inputs:
            raise InputNeeded(given, "N", what, message)
        raise CommandError(message)
    problem = number_problem(given, typed, 0, MOST_TYPED)
    if problem is not None:
        raise CommandError(problem)
    return int(typed)
