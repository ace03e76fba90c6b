"""A choice among consequences (`choose`): the party picks one of the options the text offers.

The game master types it as ID=OPTION; at the table it is asked for with the options; a
command without it is refused and nothing is saved; the effects that name the option in
their `when = { inputs = ... }` are its consequences. docs/procedures.md, "choose".
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core import odds
from delvetui.core.decide import decide
from delvetui.errors import CommandError, InputNeeded, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.conftest import of
from tests.test_docs_procedures import complete

CLIMB = complete("long-climb")


@pytest.fixture
def climb(home: Path) -> Expedition:
    made = Expedition.create(home / "climb.delve", load_text(CLIMB), seed=7)
    made.execute("pc add Ash hp=6")
    made.execute("pc add Bryn hp=6")
    made.execute("pc Bryn rations=0")
    return made


def test_the_choice_is_refused_until_typed_and_nothing_is_saved(climb: Expedition) -> None:
    before = climb.state
    with pytest.raises(CommandError) as refused:
        climb.execute("turn hazard=1")
    assert str(refused.value) == (
        "Rest now, a step of fatigue each, or a ration each: the party's choice is needed; "
        "add weary=rest or weary=fatigue or weary=ration."
    )
    assert climb.state == before


def test_a_ration_each_and_a_step_of_fatigue_for_whoever_has_none(climb: Expedition) -> None:
    batch = climb.execute("turn hazard=1 weary=ration")
    assert "Weariness: ration (the party's choice)" in [e.text for e in of(batch, ev.Logged)]
    ash, bryn = climb.state.party
    assert (ash.resource("rations"), ash.fatigue) == (1, 0)
    assert (bryn.resource("rations"), bryn.fatigue) == (0, 1)


def test_each_option_does_only_its_own_consequence(climb: Expedition) -> None:
    climb.execute("turn hazard=1 weary=fatigue")
    assert [(m.fatigue, m.resource("rations")) for m in climb.state.party] == [(1, 2), (1, 0)]
    batch = climb.execute("turn hazard=1 weary=REST")  # typed in any case
    logged = [e.text for e in of(batch, ev.Logged)]
    assert "The party rests: the next turn is `turn rest`." in logged
    assert [(m.fatigue, m.resource("rations")) for m in climb.state.party] == [(1, 2), (1, 0)]


def test_an_option_not_offered_or_a_choice_nothing_asked_for_is_refused(
    climb: Expedition,
) -> None:
    with pytest.raises(CommandError, match=r"weary=sleep is not one of the choices \(rest, "):
        climb.execute("turn hazard=1 weary=sleep")
    with pytest.raises(CommandError, match="'weary=' was given but nothing in this command uses"):
        climb.execute("turn hazard=4 weary=rest")
    assert climb.state.turn == 0


def test_the_table_is_asked_for_the_choice_with_its_options(climb: Expedition) -> None:
    state, procedure = climb.state, climb.procedure
    command = cmd.parse("turn hazard=1")
    with pytest.raises(InputNeeded) as asked:
        decide(state, procedure, command, rng=random.Random(1), ask_inputs=True)
    assert asked.value.key == "weary"
    assert asked.value.choices == ("rest", "fatigue", "ration")
    assert "the party's choice" in asked.value.purpose


def test_the_odds_follow_no_choice_and_still_count(climb: Expedition) -> None:
    found = odds.compute(climb.state, climb.procedure, ahead=2)
    assert found.note == ""
    assert found.encounter_within == (Fraction(0), Fraction(0))


def test_act_refuses_without_the_choice_then_rolls_the_same_die_with_it(home: Path) -> None:
    path = home / "climb.toml"
    path.write_text(CLIMB, encoding="utf-8")
    assert delvetui(home, "new", "up", "--procedure", str(path), "--seed", "3").returncode == 0
    assert delvetui(home, "act", "up", "pc add Ash hp=6").returncode == 0
    tries = 0
    while True:  # the program rolls; find a turn whose die asks for the choice
        tries += 1
        assert tries < 40
        done = delvetui(home, "act", "up", "turn")
        if done.returncode == 0:
            continue
        assert done.returncode == 2
        assert "add weary=rest or weary=fatigue or weary=ration" in done.stderr
        break
    chosen = delvetui(home, "act", "up", "turn weary=fatigue")
    assert chosen.returncode == 0, chosen.stderr
    assert "Weariness: fatigue (the party's choice)" in chosen.stdout


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ('["rest"]', "a choice needs at least two options."),
        ('["rest", "a ration"]', "'a ration' cannot be typed as weary=a ration"),
        ('["rest", "Rest"]', "'Rest' is given twice."),
    ],
)
def test_a_choice_the_table_could_not_type_is_refused(options: str, problem: str) -> None:
    text = CLIMB.replace('options = ["rest", "fatigue", "ration"]', f"options = {options}")
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    assert problem in str(refused.value)


def test_a_choice_named_as_a_key_the_program_keeps_is_refused() -> None:
    text = CLIMB.replace('id = "weary"', 'id = "speed"').replace("weary =", "speed =")
    with pytest.raises(ProcedureError, match="the choice 'speed' would be typed speed=N"):
        load_text(text)
