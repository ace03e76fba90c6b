"""The odds against brute force: every face of every die, through the engine's own rules.

``brute`` knows none of the shortcuts ``delvetui.core.odds`` takes (faces grouped by total
or by table row, rolls that cannot matter left unbranched, states merged less what cannot
matter): it throws every face of every die through ``decide`` and folds the events, so an
exact match means the shortcuts lose nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction

import attrs
import pytest

from delvetui.core import events as ev
from delvetui.core import odds
from delvetui.core.commands import TakeTurn, parse
from delvetui.core.decide import History, carry_out, decide, start_events
from delvetui.core.evolve import fold
from delvetui.core.outcomes import outcomes
from delvetui.core.state import State
from delvetui.core.work import Inputs, Work
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import find


class Faces(random.Random):
    """Plays back chosen faces (0-based), one per die, the lowest past the script's end."""

    def __init__(self, script: Sequence[int]) -> None:
        super().__init__(0)
        self.script = list(script)
        self.sides: list[int] = []

    def randint(self, a: int, b: int) -> int:
        index = len(self.sides)
        self.sides.append(b - a + 1)
        if index == len(self.script):
            self.script.append(0)
        return a + self.script[index]


def every_face(state: State, procedure: Procedure) -> Iterator[tuple[Fraction, list[ev.Event]]]:
    """Every sequence of faces the next turn can throw, with its chance. A choice the turn
    asks of the party takes its first option, as the odds do."""
    script: list[int] = []
    while True:
        rng = Faces(script)
        # decide's own working copy, taking a choice's first option as the odds do.
        work = Work(state, procedure, Inputs(()), rng, False)
        work.first_choice = True
        carry_out(work, TakeTurn(action=None, values=()), History())
        events = work.events
        chance = Fraction(1)
        for sides in rng.sides:
            chance /= sides
        yield chance, events
        faces = rng.script[: len(rng.sides)]
        position = len(faces) - 1
        while position >= 0 and faces[position] == rng.sides[position] - 1:
            position -= 1
        if position < 0:
            return
        script = [*faces[:position], faces[position] + 1]


def brute(
    state: State, procedure: Procedure, turns: int
) -> tuple[list[Fraction], dict[str, list[Fraction]]]:
    """The chance of an encounter, and of each lit light being out, within 1..turns turns."""
    encounter = [Fraction(0)] * turns
    lit = [light.id for light in state.lit_lights]
    out = {light_id: [Fraction(0)] * turns for light_id in lit}
    # Only the log and the notices read these three, so states that differ in them merge.
    layer = {(attrs.evolve(state, last_hazard=None, sign=None, encounter=None), False): Fraction(1)}
    for turn in range(turns):
        following: dict[tuple[State, bool], Fraction] = {}
        for (now, met), chance in layer.items():
            for weight, events in every_face(now, procedure):
                after = fold(now, events)
                share = chance * weight
                seen = met or any(isinstance(e, ev.EncounterBegan) for e in events)
                if seen:
                    encounter[turn] += share
                for light_id in lit:
                    light = after.light(light_id)
                    if light is None or not light.lit:
                        out[light_id][turn] += share
                key = (attrs.evolve(after, last_hazard=None, sign=None, encounter=None), seen)
                following[key] = following.get(key, Fraction(0)) + share
        layer = following
    return encounter, out


def play(procedure: Procedure, *commands: str, seed: int = 1) -> State:
    """The state after these commands (dice rolled with a fixed seed, or typed)."""
    state = fold(State(), start_events("odds", procedure, seed=seed))
    rng = random.Random(seed)
    for text in commands:
        state = fold(state, decide(state, procedure, parse(text), rng=rng))
    return state


def assert_matches_brute(
    state: State, procedure: Procedure, turns: int, *, hour: bool = False
) -> odds.Odds:
    found = odds.compute(state, procedure, ahead=None if hour else turns)
    encounter, out = brute(state, procedure, turns)
    assert list(found.encounter_within[:turns]) == encounter
    for light in found.lights:
        assert list(light.out_within[:turns]) == out[light.id], light.id
    assert {light.id for light in found.lights} == set(out)
    return found


# The shipped procedures ---------------------------------------------------------------------


def test_delving_a_d6_each_turn_encounter_on_1_and_torches_burn_on_3() -> None:
    procedure = find("delving")
    state = play(
        procedure,
        "pc add Ash hp=6",
        "light add torch",
        "light on torch",
        "light add candle",
        "light on candle",
    )
    found = assert_matches_brute(state, procedure, 3, hour=True)
    # The hour is six ten-minute turns: 1 - (5/6)^6 of meeting something.
    assert found.hour_turns == 6
    assert found.encounter_this_turn == Fraction(1, 6)
    assert found.encounter_within_hour == 1 - Fraction(5, 6) ** 6
    torch, candle = found.lights
    assert torch.turns_left is None
    assert torch.out_by(3) == 1 - Fraction(5, 6) ** 3
    # Only its clock puts a candle out (running blows it out, crawling does not).
    assert candle.turns_left == 48
    assert candle.clock_only
    assert candle.out_by(6) == 0


def test_dungeon_turn_grace_turns_then_depletion_dims_then_puts_out() -> None:
    procedure = find("dungeon-turn")
    start = ("pc add Ash hp=6", "light add torch", "light on torch")
    early = play(procedure, *start)
    assert_matches_brute(early, procedure, 1, hour=True)


def test_exploration_checks_the_hazard_die_before_the_turn_and_saves_do_not_matter() -> None:
    procedure = find("exploration")
    state = play(
        procedure,
        "pc add Ash hp=6 CON=12",
        "light add torch",
        "light on torch",
        "light add lantern",
        "light on lantern",
    )
    found = assert_matches_brute(state, procedure, 2)
    assert found.encounter_this_turn == Fraction(1, 6)


def test_exploration_traditional_a_one_in_six_and_a_torch_on_its_clock() -> None:
    procedure = find("exploration-traditional")
    state = play(procedure, "pc add Ash hp=6", "light add torch", "light on torch")
    found = assert_matches_brute(state, procedure, 3, hour=True)
    assert found.encounter_this_turn == Fraction(1, 6)
    assert found.lights[0].turns_left == 6
    assert found.lights[0].clock_only
    assert odds.lines(found)[0].text == "encounter this turn 1 in 6 (17%)"
    assert odds.lines(found)[1].text == "encounter within the hour 67%"
    assert odds.lines(found)[2].text == "torch1: 6 turns left by the clock"


def test_trespasser_the_alarm_rises_before_the_d10_and_usage_dice_step_down() -> None:
    procedure = find("trespasser")
    state = play(
        procedure,
        "pc add Ash hp=6",
        "light add torch",
        "light on torch",
        "turn stay usage.torch1=6",
        "turn stay usage.torch1=6",
        "turn advance usage.torch1=6 hazard=10",
    )
    assert state.counter("alarm") == 3
    state = attrs.evolve(state, counters=(("alarm", 2),))
    found = assert_matches_brute(state, procedure, 2)
    # Advance raises the alarm to 3 first: d10 ≤ 3.
    assert found.encounter_this_turn == Fraction(3, 10)
    # A torch's d6 shows 1-2 (1 in 3): it steps down to a d4; a d4 on 1-2 is spent.
    torch = found.lights[0]
    assert torch.out_by(1) == 0
    assert torch.out_by(2) == Fraction(1, 3) * Fraction(1, 2)
    # No encounter on the first round leaves the alarm at 3: the next advance makes it 4.
    assert found.encounter_within[1] == Fraction(3, 10) + Fraction(7, 10) * Fraction(4, 10)


def test_travel_turn_is_an_hour_long() -> None:
    procedure = find("travel-turn")
    state = play(procedure, "pc add Ash hp=6")
    found = assert_matches_brute(state, procedure, 1, hour=True)
    assert found.hour_turns == 1
    assert found.encounter_within_hour == found.encounter_this_turn


@pytest.mark.parametrize(
    "procedure_id",
    ["basic-fantasy", "cairn", "cairn-modular", "ose", "shadowdark", "mausritter", "errant"],
)
def test_the_later_procedures_match_brute_force(procedure_id: str) -> None:
    """Basic Fantasy, Cairn and its modular procedures, Old-School Essentials, Shadowdark,
    Mausritter and Errant, each with a lit torch: the odds of an encounter and of the torch
    going out, three turns ahead, as every face gives them (where the wandering monsters are
    checked every few turns, within those three)."""
    procedure = find(procedure_id)
    state = play(procedure, "pc add Ash hp=6", "light add torch", "light on torch")
    found = assert_matches_brute(state, procedure, 3)
    assert found.encounter_within[2] > 0
    assert [light.id for light in found.lights] == [state.lit_lights[0].id]


# What a procedure can say, one rule at a time -------------------------------------------------

RULES = """
id = "odds-test"
name = "Odds test"
source = "a test"
summary = "Every rule the odds must count."
default_action = "sneak"

[counters.alarm]
label = "Alarm"
start = 1
max = 4

[lights.torch]
label = "Torch"
usage_die = 4

[lights.lamp]
label = "Lamp"
strikes = 2

[actions.sneak]
label = "Sneak"
kind = "move"
effects = [{ do = "counter", counter = "alarm", add = 1 }]
roll_mode = { hazard = "MODE" }

[actions.rest]
label = "Rest"
kind = "rest"

[rolls.depletion]
label = "Depletion"
when = "start"
on_hit = [{ do = "usage-die", kinds = ["torch"] }]

[rolls.check]
label = "Alarm check"
dice = "d4"
hit_at_most = "alarm"
on_hit = [
  { do = "encounter" },
  { do = "counter", counter = "alarm", set = 0 },
]

[rolls.hazard]
label = "Hazard"
table = "hazard"
every = EVERY

[tables.hazard]
label = "Hazard"
dice = "d4"

[[tables.hazard.rows]]
roll = "1"
label = "Encounter"
effects = [{ do = "encounter" }, { do = "roll", table = "mood" }]

[[tables.hazard.rows]]
roll = "2"
label = "Strike"
effects = [{ do = "strike", kinds = ["lamp"] }]

[[tables.hazard.rows]]
roll = "3"
label = "Burn"
effects = [{ do = "lights-out", kinds = ["torch"] }]

[[tables.hazard.rows]]
roll = "4"
label = "Late encounter"
ignore_first_turns = 2
effects = [{ do = "encounter" }, { do = "damage", dice = "d4", target = "each" }]

[tables.mood]
label = "Mood"
dice = "2d4"

[[tables.mood.rows]]
roll = "2-4"
label = "Cross"

[[tables.mood.rows]]
roll = "5-8"
label = "Calm"
"""


def rules(mode: str = "", every: int = 1) -> Procedure:
    text = RULES.replace("EVERY", str(every))
    if mode:
        return load_text(text.replace("MODE", mode))
    return load_text(text.replace('roll_mode = { hazard = "MODE" }\n', ""))


PARTY = ("pc add Ash hp=6", "light add torch", "light on torch", "light add lamp", "light on lamp")


def test_every_second_turn_grace_turns_counters_usage_dice_and_strikes() -> None:
    procedure = rules(every=2)
    state = play(procedure, *PARTY)
    found = assert_matches_brute(state, procedure, 2)
    # Turn 1: no hazard die (every 2); sneaking raises the alarm to 2, then d4 ≤ 2.
    assert found.encounter_this_turn == Fraction(1, 2)
    torch, lamp = found.lights
    # The torch's d4 usage die is rolled at the start of each turn: on 1-2 it is spent.
    assert torch.out_by(1) == Fraction(1, 2)
    assert lamp.out_by(1) == 0
    # Turn 2 rolls the hazard die: a 2 strikes the lamp once (it goes out on the second).
    assert lamp.out_by(2) == 0


@pytest.mark.parametrize("mode", ["advantage", "disadvantage"])
def test_advantage_and_disadvantage_on_the_hazard_die(mode: str) -> None:
    procedure = rules(mode=mode)
    state = play(procedure, *PARTY)
    found = assert_matches_brute(state, procedure, 1)
    torch = found.lights[0]
    # The torch is out on its usage die (1-2 on a d4: spent, 1 in 2) or on a 3.
    three = Fraction(5, 16) if mode == "advantage" else Fraction(3, 16)
    assert torch.out_by(1) == Fraction(1, 2) + Fraction(1, 2) * three


def test_a_roll_against_a_counter_is_counted_at_each_states_value() -> None:
    # The options of a roll are kept once worked out: the alarm's value is part of what
    # they are kept under, so one procedure's states with other alarms count their own.
    procedure = rules()
    state = play(procedure, *PARTY)
    chances: dict[int, tuple[Fraction, ...]] = {}
    for alarm in (1, 3, 1, 0):
        at = attrs.evolve(state, counters=(("alarm", alarm),))
        found = assert_matches_brute(at, procedure, 1)
        chances.setdefault(alarm, found.encounter_within)
        assert found.encounter_within == chances[alarm]
    # Sneaking raises the alarm first: the d4 check hits at or under alarm + 1.
    assert chances[0][0] < chances[1][0] < chances[3][0]


def test_an_action_that_cannot_be_taken_says_why() -> None:
    shipped = find("trespasser")
    # Hide as a mode the party keeps to, so the next turn is a Hide, which needs a result.
    hide = attrs.evolve(shipped.actions["hide"], persist=True)
    procedure = attrs.evolve(shipped, actions={**shipped.actions, "hide": hide})
    state = play(procedure, "pc add Ash hp=6", "light add torch", "light on torch")
    state = attrs.evolve(state, action="hide", moving="hide")  # as a Hide kept to leaves it
    found = odds.compute(state, procedure)
    assert found.encounter_this_turn is None
    assert "stealth" in found.note
    assert odds.lines(found)[0].text.startswith("No odds for 'hide'")
    assert odds.as_json(found)["encounter_this_turn"] is None


def test_too_many_outcomes_count_the_turns_they_can() -> None:
    procedure = find("delving")
    state = play(procedure, "pc add Ash hp=6", "light add torch", "light on torch")
    found = odds.compute(state, procedure, limit=10)
    assert found.encounter_this_turn == Fraction(1, 6)
    assert found.encounter_within_hour is None
    assert "too many" in found.note
    assert 1 <= len(found.encounter_within) < 6


def test_in_words() -> None:
    assert odds.in_words(Fraction(1, 6)) == "1 in 6 (17%)"
    assert odds.in_words(Fraction(3, 10)) == "30%"
    assert odds.percent(Fraction(1, 1000)) == "under 1%"
    assert odds.percent(Fraction(999, 1000)) == "over 99%"
    assert odds.percent(Fraction(0)) == "0%"
    assert odds.percent(Fraction(1)) == "100%"


def test_the_count_sees_a_free_roll_as_every_other_roll() -> None:
    """Rule: every roll of a command is settled in one place (``Work.settle``), so the
    count of outcomes chooses a free roll's result as it does a procedure's: ``roll d6``
    comes out six ways, a sixth each, and with its result typed (``result=4``) one way."""
    procedure = find("delving")
    state = play(procedure)

    def totals(line: str) -> list[tuple[Fraction, int]]:
        return sorted(
            (chance, event.total)
            for chance, events, _ in outcomes(state, procedure, parse(line))
            for event in events
            if isinstance(event, ev.DiceRolled)
        )

    assert totals("roll d6 for luck") == [(Fraction(1, 6), face) for face in range(1, 7)]
    assert totals("roll d6 for luck result=4") == [(Fraction(1), 4)]
