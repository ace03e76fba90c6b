"""The counters the procedure keeps (the alarm, the danger), set by the game master."""

from __future__ import annotations

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.work import Work, counter_changed, named
from delvetui.errors import CommandError
from delvetui.procedure.model import Counter
from delvetui.text import number_problem, quoted, suggest


def set_counter(work: Work, command: cmd.SetCounter) -> None:
    """Set a counter to a number, change it by +N or -N, or set it to a named level
    (``counter set danger risky``). A value outside its bounds is refused, not cut."""
    procedure = work.procedure
    rules = named(
        procedure.counters, command.counter, f"a counter of {procedure.name}", none="it has none"
    )
    current = work.state.counter(command.counter)
    value = _value(rules, command.value, current)
    if value == current:
        raise CommandError(f"{rules.label} is already {rules.shown(value)}; nothing was saved.")
    work.emit(
        ev.CounterChanged(
            counter=command.counter, value=value, change=value - current, reason=ev.GAME_MASTER
        )
    )
    counter_changed(work, command.counter)


def _value(rules: Counter, given: str, current: int) -> int:
    """The value typed: a level's name, N, +N or -N; a CommandError when it cannot be."""
    level = rules.value_of(given)
    if level is not None:
        return level
    top = rules.top()
    bounds = _bounds(rules, top)
    if not given.lstrip("+-").isdigit():
        levels = f" or one of its levels ({', '.join(rules.levels)})" if rules.levels else ""
        raise CommandError(
            f"'{quoted(given)}' is not a value of {rules.label}: give a whole number "
            f"({bounds}), +N or -N{levels}.{suggest(given, rules.levels)}"
        )
    problem = number_problem("the value", given.lstrip("+-"), 0, cmd.MAX_NUMBER)
    if problem is not None:
        raise CommandError(problem)
    number = int(given)
    value = current + number if given.startswith(("+", "-")) else number
    if value < rules.min or (top is not None and value > top):
        raise CommandError(f"{rules.label} goes {bounds}, so it cannot be {value}.")
    return value


def _bounds(rules: Counter, top: int | None) -> str:
    low = f"{rules.min} ({rules.levels[0]})" if rules.levels else str(rules.min)
    if top is None:
        return f"from {low} up"
    high = f"{top} ({rules.level_of(top)})" if rules.level_of(top) else str(top)
    return f"from {low} to {high}"
