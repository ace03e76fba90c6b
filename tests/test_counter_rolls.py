"""A counter moved by a roll, another counter or an input, and going below zero.

"The die is taken off the clock every turn; below zero, an encounter": the `counter`
effect's `dice` (typed as COUNTER=N), `per_counter` and `per_input`, and a counter whose
`min` is below zero, so the log shows the value the clock really came to.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core import odds
from delvetui.core.log import batch_lines
from delvetui.core.timeline import Batch
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition

CLOCK = """
id = "clock"
name = "Clock"
source = "the tests of delvetui"
summary = "A clock counted down by a die and the noise."
default_action = "explore"

[counters.clock]
label = "Encounter clock"
start = 20
min = -20
max = 20

[counters.noise]
label = "Noise"
max = 5

[actions.explore]
label = "Explore"

[actions.hide]
label = "Hide"
effects = [{ do = "counter", counter = "clock", per_input = { minutes = 1 }, text = "quiet" }]

[actions.hide.inputs.minutes]
label = "the minutes hidden"
number = true
default = "2"

[actions.bash]
label = "Bash a door"
effects = [{ do = "counter", counter = "noise", add = 2, text = "a crash" }]

[rolls.tick]
label = "The clock"
on_hit = [
  { do = "counter", counter = "clock", dice = "-d6", per_counter = { noise = -1 }, text = "the \
danger die" },
  { do = "encounter", text = "The clock runs out.", when = { counter_at_most = { clock = -1 } } },
  { do = "counter", counter = "clock", set = 20, text = "the clock starts again", when = { \
counter_at_most = { clock = -1 } } },
]
"""


@pytest.fixture
def clock(home: Path) -> Expedition:
    return Expedition.create(home / "clock.delve", load_text(CLOCK), seed=5)


def lines(expedition: Expedition, batch: Batch) -> list[str]:
    return [line.text for line in batch_lines(batch, expedition.procedure, expedition.state)]


def test_the_die_and_the_noise_are_taken_off_the_clock(clock: Expedition) -> None:
    with clock:
        turn = clock.execute("turn clock=4")
        assert clock.state.counter("clock") == 16
        told = lines(clock, turn)
        assert "Encounter clock: -d6 [4] = -4 (table dice)" in told
        assert "Encounter clock -4 → 16 (the danger die)." in told
        clock.execute("turn bash clock=6")
        assert (clock.state.counter("noise"), clock.state.counter("clock")) == (2, 8)
        clock.execute("turn explore clock=6")
        assert clock.state.counter("clock") == 0
        assert clock.state.encounter is None


def test_below_zero_the_encounter_comes_and_the_clock_starts_again(clock: Expedition) -> None:
    with clock:
        for command in ("counter set clock 1", "counter set noise 2"):
            clock.execute(command)
        turn = clock.execute("turn clock=3")
        values = [e.value for e in turn.events if isinstance(e, ev.CounterChanged)]
        assert values == [-4, 20]  # the value it came to, then the new start: no other
        assert clock.state.encounter == "The clock runs out."


def test_the_counter_stops_at_its_min(clock: Expedition) -> None:
    with clock:
        for command in ("counter set clock -39", "counter set noise 5"):  # -N: from 20
            clock.execute(command)
        turn = clock.execute("turn clock=6")
        assert [e.value for e in turn.events if isinstance(e, ev.CounterChanged)] == [-20, 20]


def test_an_input_moves_the_counter_by_its_number(clock: Expedition) -> None:
    with clock:
        clock.execute("counter set clock 10")
        clock.execute("turn hide minutes=5 clock=1")
        assert clock.state.counter("clock") == 10 + 5 - 1
        clock.execute("turn hide clock=1")
        assert clock.state.counter("clock") == 14 + 2 - 1  # the input's default


def test_the_counter_roll_is_typed_once_and_checked(clock: Expedition) -> None:
    with clock:
        with pytest.raises(CommandError, match="A d6 shows 1 to 6, not 7"):
            clock.execute("turn clock=7")
        with pytest.raises(CommandError, match="clock= was given 2 times"):
            clock.execute("turn clock=2 clock=3")
        assert clock.state.turn == 0


def test_the_odds_count_the_counter_roll(clock: Expedition) -> None:
    with clock:
        clock.execute("counter set clock 3")
        chance = odds.compute(clock.state, clock.procedure, ahead=1).encounter_this_turn
        assert chance == Fraction(1, 2)  # 4, 5 or 6 takes it below zero
        clock.execute("counter set noise 1")
        chance = odds.compute(clock.state, clock.procedure, ahead=1).encounter_this_turn
        assert chance == Fraction(2, 3)  # 3, 4, 5 or 6, with the noise


def test_a_counter_effect_that_changes_nothing_is_refused_with_its_key_and_line() -> None:
    text = CLOCK.replace(
        '{ do = "counter", counter = "noise", add = 2, text = "a crash" }',
        '{ do = "counter", counter = "noise", text = "a crash" }',
    ).replace("per_counter = { noise = -1 }", "per_counter = { nosie = -1 }")
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    said = str(refused.value)
    assert "actions.bash.effects[0]: a 'counter' effect needs 'add', 'set'" in said
    assert "rolls.tick.on_hit[0].per_counter: names the counter 'nosie'" in said
    for problem in refused.value.problems:
        assert problem.line is not None


def test_a_roll_named_like_the_counter_it_rolls_is_advised_against() -> None:
    text = CLOCK.replace("[rolls.tick]", "[rolls.clock]")
    with pytest.raises(ProcedureError, match="the counter 'clock': rolled as clock=N"):
        load_text(text)
    load_text(text, stored=True)  # advice: an expedition that holds it still opens
