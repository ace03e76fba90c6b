"""An effect's amount from the table: a counter's value or a typed input's number.

"1 damage, more in a harsh dungeon" is one effect whose `amount` names a counter the game
master sets for the dungeon; "eat a ration a day" one whose amount names the days typed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.errors import CommandError, InputNeeded, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition

HARSH = """
id = "harsh"
name = "Harsh"
source = "the tests of delvetui"
summary = "Amounts from a counter and from an input."
default_action = "delve"

[counters.harshness]
label = "Harshness"
start = 1
min = -3
max = 999999

[resources.rations]
label = "Rations"
start = 4

[resources.arrows]
label = "Arrows"
per = "party"
max = 30

[actions.delve]
label = "Delve"
effects = [{ do = "damage", amount = "harshness", text = "fatigue" }]

[actions.camp]
label = "Camp"
kind = "rest"
effects = [
  { do = "consume", resource = "rations", amount = "days", text = "days in camp" },
  { do = "heal", amount = "days", text = "rest" },
]

[actions.camp.inputs.days]
label = "the days spent in camp"
number = true
given_by = "gm"

[activities.fletch]
label = "Fletch"
effects = [{ do = "supply", resource = "arrows", amount = "made", target = "party" }]

[activities.fletch.inputs.made]
label = "arrows made"
number = true
default = "3"
"""


@pytest.fixture
def harsh(home: Path) -> Expedition:
    expedition = Expedition.create(home / "harsh.delve", load_text(HARSH), seed=1)
    expedition.execute("pc add Ash hp=20")
    return expedition


def test_the_damage_is_the_counter_now(harsh: Expedition) -> None:
    with harsh:
        harsh.execute("turn delve")
        assert harsh.state.party[0].hp == 19
        harsh.execute("counter set harshness 3")
        harsh.execute("turn delve")
        assert harsh.state.party[0].hp == 16


def test_a_counter_below_zero_gives_nothing_and_a_huge_one_the_most(harsh: Expedition) -> None:
    with harsh:
        harsh.execute("counter set harshness -4")  # from 1 to -3
        harsh.execute("turn delve")
        assert harsh.state.party[0].hp == 20
        harsh.execute("counter set harshness 999999")
        harsh.execute("turn delve")
        assert harsh.state.party[0].hp == 0  # 10,000 at most, and hit points stop at 0


def test_the_amount_is_the_number_typed(harsh: Expedition) -> None:
    with harsh:
        harsh.execute("pc Ash hp=-10")
        harsh.execute("turn camp days=3")
        ash = harsh.state.party[0]
        assert (ash.resource("rations"), ash.hp) == (1, 13)
        harsh.execute("do fletch")
        harsh.execute("do fletch made=5")
        assert harsh.state.resource("arrows") == 8  # the default 3, then 5


def test_an_amount_not_typed_is_refused_or_asked_for(harsh: Expedition) -> None:
    with harsh:
        with pytest.raises(CommandError, match=r"add days=N \(0 to 999\)"):
            harsh.execute("turn camp")
        with pytest.raises(InputNeeded) as asked:
            harsh.execute("turn camp", ask_inputs=True)
        assert asked.value.key == "days"
        with pytest.raises(CommandError, match="days=lots is not a whole number"):
            harsh.execute("turn camp days=lots")
        assert harsh.state.turn == 0


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ('amount = "harshnes"', "names 'harshnes', which is neither a counter nor a number input"),
        ('amount = "made"', "names both the counter 'made' and the input 'made'"),
    ],
)
def test_an_amount_that_names_nothing_or_two_things_is_refused(change: str, said: str) -> None:
    text = HARSH.replace('amount = "harshness"', change)
    if "both" in said:
        text += '\n[counters.made]\nlabel = "Made"\n'
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    problem = next(p for p in refused.value.problems if said in p.message)
    assert problem.path == "actions.delve.effects[0].amount" and problem.line is not None
