"""Every way a command can come out, with its exact chance, by running ``decide`` on it.

A random source that plays back a script of choices stands where ``decide`` expects one,
and the working copy chooses each roll's result from it instead of rolling: the script is
an odometer over the options of every roll, so each branch of the roll tree is run once
and weighs the chances of the options it took. The odds (``core.odds``) fold these
outcomes turn by turn.

Pure: no clock, no file, no global random.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

from delvetui import dice
from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.decide import History, carry_out
from delvetui.core.state import State
from delvetui.core.work import Inputs, Work
from delvetui.procedure.model import Procedure
from delvetui.procedure.tree import row_range

#: The most runs of the rules one computation may make (a few seconds at worst). A
#: procedure whose turns throw so many dice that the hour cannot be counted within this
#: gives the turns it could count and says so.
MAX_RUNS = 5_000


class _Script(random.Random):
    """Plays back a script of choices, one per roll, and remembers each roll's chances.

    Nothing in a count rolls through here (``_Counting.draw`` chooses instead); it only
    stands where ``decide`` expects a random source.
    """

    def __init__(self, script: Sequence[int]) -> None:
        super().__init__(0)
        self.script = list(script)
        self.options: list[tuple[Fraction, ...]] = []

    def choose(self, weights: tuple[Fraction, ...]) -> int:
        """The scripted choice among these options (the first past the script's end)."""
        index = len(self.options)
        self.options.append(weights)
        if index == len(self.script):
            self.script.append(0)
        return self.script[index]

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a count never rolls a die")


#: One way a roll can come out that the rules can tell apart: its chance and a result.
_Option = tuple[Fraction, dice.Roll]


class Rolls:
    """The ways each roll can come out that the rules can tell apart, for one procedure.

    Which options a roll has depends only on its key, its expression, the table it lands
    on (by the kind of turn) and, for a roll against a counter, the counter's value, so
    each is worked out once and read back on every later run of the rules.
    """

    def __init__(self, procedure: Procedure, inert: Callable[[str], bool]) -> None:
        self.procedure = procedure
        self.inert = inert
        self._ranges: dict[str, tuple[tuple[int, int], ...]] = {}
        self._found: dict[tuple[str, str, str, int | None], tuple[_Option, ...]] = {}

    def options(self, key: str, expression: str, state: State) -> tuple[_Option, ...]:
        """The options of a roll with this key and expression, thrown in this state."""
        # As run_rule and roll_table read them: a table roll by the row it lands on, a
        # roll against a number or counter by whether it is at or under it.
        rule = self.procedure.rolls.get(key)
        # A rule with a table per kind of turn reads the one of the turn being taken.
        table_name = rule.table_for(state.turn_type) if rule is not None else key
        by_table = table_name in self.procedure.tables
        threshold: int | None = None
        if not by_table and rule is not None and not table_name and rule.hit_at_most is not None:
            limit = rule.hit_at_most
            threshold = state.counter(limit) if isinstance(limit, str) else limit
        found_key = (key, expression, table_name if by_table else "", threshold)
        found = self._found.get(found_key)
        if found is None:
            found = self._options(key, expression, table_name if by_table else None, threshold)
            self._found[found_key] = found
        return found

    def _options(
        self, key: str, expression: str, table_name: str | None, threshold: int | None
    ) -> tuple[_Option, ...]:
        options = _options(expression, usage=key.startswith("usage."))
        if table_name is not None:
            ranges = self._table_ranges(table_name)
            options = _merge(
                options,
                lambda total: next(
                    (i for i, (low, high) in enumerate(ranges) if low <= total <= high), -1
                ),
            )
        elif threshold is not None:
            options = _merge(options, lambda total: total <= threshold)
        if self.inert(key):
            options = ((Fraction(1), options[0][1]),)
        return options

    def _table_ranges(self, name: str) -> tuple[tuple[int, int], ...]:
        ranges = self._ranges.get(name)
        if ranges is None:
            ranges = tuple(row_range(row) for row in self.procedure.tables[name].rows)
            self._ranges[name] = ranges
        return ranges


class _Counting(Work):
    """``decide``'s working copy, choosing each roll's result from a script.

    The rules read a roll only through its total (and, for an X-in-N chance, whether it
    hit), so the faces that give one total are one option, weighed by how many there
    are. Three kinds of roll are narrower still, as the engine reads them: a usage die
    only steps down on 1 or 2; a chance only hits or misses; and a roll whose result
    changes nothing the odds look at (``inert``) is not branched on at all.
    """

    def __init__(self, state: State, rolls: Rolls, script: _Script) -> None:
        super().__init__(state, rolls.procedure, Inputs(()), script, False)
        self.script = script
        self.rolls = rolls
        # A choice is the party's, not chance's: the odds follow its first option.
        self.first_choice = True

    def draw(self, key: str, expression: str) -> dice.Roll:
        options = self.rolls.options(key, expression, self.state)
        return options[self.script.choose(tuple(w for w, _ in options))][1]


def _merge(options: tuple[_Option, ...], use: Callable[[int], object]) -> tuple[_Option, ...]:
    """Options the rules cannot tell apart made one, keeping the first's result."""
    merged: dict[object, _Option] = {}
    for weight, result in options:
        if result.hit is not None:
            return options
        found = merged.get(use(result.total))
        merged[use(result.total)] = (
            (weight, result) if found is None else (found[0] + weight, found[1])
        )
    return tuple(merged.values())


#: Expressions whose options are kept: far more than any procedure's dice.
_KEPT_EXPRESSIONS = 256


@functools.lru_cache(maxsize=_KEPT_EXPRESSIONS)
def _options(expression: str, *, usage: bool) -> tuple[_Option, ...]:
    """Every total an expression can roll with its chance (a usage die's: 1-2 or not)."""
    parsed = dice.parse(expression)
    if parsed.chance is not None:
        times, sides = parsed.chance
        hit = _result(parsed, 1)
        miss = _result(parsed, sides)
        if times == sides:
            return ((Fraction(1), hit),)
        return ((Fraction(times, sides), hit), (Fraction(sides - times, sides), miss))
    totals = dice.chances(parsed, most=MAX_RUNS * 10)
    if totals is None:
        raise TooMany
    if usage and len(parsed.terms) == 1 and parsed.terms[0].count == 1:
        # the usage-die effect: the die steps down on a 1 or 2 and nothing else reads it.
        low = sum((w for t, w in totals.items() if t <= 2), Fraction(0))
        options = [(low, _result(parsed, 1)), (1 - low, _result(parsed, parsed.maximum))]
        return tuple(option for option in options if option[0])
    return tuple((weight, _result(parsed, total)) for total, weight in sorted(totals.items()))


def _result(parsed: dice.DiceExpr, total: int) -> dice.Roll:
    face = total - parsed.modifier
    hit = None if parsed.chance is None else total <= parsed.chance[0]
    return dice.Roll(
        expression=parsed.text,
        faces=(face,),
        kept=(face,),
        modifier=parsed.modifier,
        total=total,
        hit=hit,
        entered=False,
    )


def outcomes(
    state: State,
    procedure: Procedure,
    command: cmd.Command,
    *,
    inert: Callable[[str], bool] = lambda key: False,
    limit: int = MAX_RUNS,
) -> Iterator[tuple[Fraction, list[ev.Event], State]]:
    """Every way a command can come out: (chance, events, state after), chances adding to 1.

    Raises DelveError when the command cannot be taken, and ``TooMany`` past ``limit``
    runs of the rules.
    """
    return runs(state, command, Rolls(procedure, inert), limit)


def runs(
    state: State, command: cmd.Command, rolls: Rolls, limit: int
) -> Iterator[tuple[Fraction, list[ev.Event], State]]:
    """``outcomes`` reading the rolls through ``rolls``, kept from one call to the next."""
    script: list[int] = []
    runs = 0
    while True:
        runs += 1
        if runs > limit:
            raise TooMany
        source = _Script(script)
        work = _Counting(state, rolls, source)
        carry_out(work, command, History())
        chance = Fraction(1)
        for choice, weights in zip(source.script, source.options, strict=False):
            chance *= weights[choice]
        yield chance, work.events, work.state
        # The odometer: move the last roll that has another option left, drop the later ones.
        choices = source.script[: len(source.options)]
        position = len(choices) - 1
        while position >= 0 and choices[position] == len(source.options[position]) - 1:
            position -= 1
        if position < 0:
            return
        script = [*choices[:position], choices[position] + 1]


class TooMany(Exception):
    """More outcomes than one computation may count."""
