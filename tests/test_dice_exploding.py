"""Exploding dice (``d6!``): a die that shows its highest face rolls again and adds.

A die explodes at most ``MAX_EXPLOSIONS`` times in one roll, so every roll is bounded and
its chances are exact: the odds count the same chain of dice the program throws.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from delvetui.core import events as ev
from delvetui.core import odds
from delvetui.core.event_checks import problem
from delvetui.dice import (
    MAX_EXPLOSIONS,
    chances,
    entered,
    face_hint,
    from_faces,
    parse,
    roll,
    scaled,
    with_mode,
)
from delvetui.errors import CommandError, DiceError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition


def test_the_notation_reads_and_writes_the_bang() -> None:
    parsed = parse("2D6! + 1")
    assert parsed.text == "2d6!+1"
    assert parsed.explodes and parsed.dice == 2
    assert (parsed.minimum, parsed.maximum) == (3, 2 * 6 * (MAX_EXPLOSIONS + 1) + 1)
    assert parse("d8-d6!").text == "d8-d6!"
    assert parse("d8-d6!").minimum == 1 - 6 * (MAX_EXPLOSIONS + 1)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("4d6!kh3", r"an exploding die \(d6!\) is always kept"),
        ("d6!!", "is not a dice expression"),
        ("1-in-6!", "is not a dice expression"),
        ("d!6", "is not a dice expression"),
    ],
)
def test_what_the_notation_refuses(text: str, said: str) -> None:
    with pytest.raises(DiceError, match=said):
        parse(text)


class Faces(random.Random):
    """A random source that shows these faces, in order."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_a_highest_face_rolls_again_and_adds() -> None:
    rolled = roll("d6!+1", Faces(6, 6, 2))
    assert (rolled.faces, rolled.total) == ((6, 6, 2), 15)
    assert roll("2d6!", Faces(3, 6, 1)).total == 10
    assert roll("d6", Faces(6)).faces == (6,)  # a plain die never explodes


def test_a_die_explodes_at_most_max_explosions_times() -> None:
    rolled = roll("d2!", Faces(*[2] * (MAX_EXPLOSIONS + 1)))
    assert len(rolled.faces) == MAX_EXPLOSIONS + 1
    assert rolled.total == 2 * (MAX_EXPLOSIONS + 1)


@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["d6!", "2d4!+d6-1", "d20!"]))
def test_a_roll_reads_back_from_its_faces(seed: int, expression: str) -> None:
    """What replay and the import check: the faces stored give the same roll."""
    rolled = roll(expression, random.Random(seed))
    again = from_faces(expression, list(rolled.faces), entered=False)
    assert again == rolled
    typed = entered(expression, ",".join(map(str, rolled.faces)))
    assert typed.total == rolled.total


def test_a_typed_total_of_one_die_is_its_chain() -> None:
    assert entered("d6!", "14").faces == (6, 6, 2)
    assert entered("d6!", "5").faces == (5,)
    assert entered("d2!", str(2 * (MAX_EXPLOSIONS + 1))).faces == (2,) * (MAX_EXPLOSIONS + 1)
    with pytest.raises(DiceError, match=r"A d6! never totals 12: .* \(13 to 17\)"):
        entered("d6!", "12")
    with pytest.raises(DiceError, match="A d6! totals 1 to 66, not 67"):
        entered("d6!", "67")


def test_typed_faces_must_be_a_roll_of_the_dice() -> None:
    assert entered("d6!+d4", "6,3,2").total == 11
    with pytest.raises(DiceError, match="is not a roll of d6!"):
        entered("d6!", "6,6")  # a 6 rolls again: a face must follow it
    with pytest.raises(DiceError, match="A d4 shows 1 to 4, not 5"):
        entered("d6!+d4", "6,3,5")


def test_the_chances_are_exact_with_the_last_explosion_counted() -> None:
    found = chances("d6!", most=10_000)
    assert found is not None and sum(found.values()) == 1
    assert found[7] == Fraction(1, 36)
    assert 6 not in found and 12 not in found  # a 6 always rolls again
    top = 6 * (MAX_EXPLOSIONS + 1)
    assert found[top] == Fraction(1, 6 ** (MAX_EXPLOSIONS + 1))  # stops at the most


def test_advantage_and_scaling_keep_the_bang() -> None:
    assert with_mode("d6!", "advantage") == "d6!"  # rolled as it is
    assert scaled("d6!", 3) == "3d6!"
    assert "rolled again" in face_hint("d6!")


def test_a_dice_rolled_event_with_a_chain_passes_the_check(home: Path) -> None:
    with Expedition.create(home / "e.delve", load_text(OPEN_ENDED), seed=1) as expedition:
        state, procedure = expedition.state, expedition.procedure
    good = ev.DiceRolled.of("hazard", "Hazard die", from_faces("d6!", [6, 3], entered=True))
    assert problem(state, procedure, good, {}) is None
    bad = ev.DiceRolled(
        key="hazard", purpose="x", expression="d6!", faces=(6,), kept=(6,), modifier=0,
        total=6, hit=None, entered=True,
    )  # fmt: skip
    assert "faces" in (problem(state, procedure, bad, {}) or "")


OPEN_ENDED = """
id = "open-ended"
name = "Open-ended"
source = "the tests of delvetui"
summary = "The hazard die explodes; 8 or more is a cave-in."
default_action = "dig"

[actions.dig]
label = "Dig"

[rolls.hazard]
label = "Hazard die"
table = "hazard"

[tables.hazard]
label = "Hazard die"
dice = "d6!"

[[tables.hazard.rows]]
roll = "1"
label = "Encounter"
effects = [{ do = "encounter" }]

[[tables.hazard.rows]]
roll = "2-7"
label = "Dust"

[[tables.hazard.rows]]
roll = "8+"
label = "Cave-in"
effects = [{ do = "encounter", text = "Something digs through." }]
"""


def test_a_table_row_open_at_the_top_covers_every_total_over_it(home: Path) -> None:
    procedure = load_text(OPEN_ENDED)
    with Expedition.create(home / "dig.delve", procedure, seed=1) as expedition:
        expedition.execute("turn hazard=6,6,6,4")
        read = expedition.state.last_hazard
        assert read is not None and (read.roll, read.result) == (22, "Cave-in")
        with pytest.raises(CommandError, match="never totals 12"):
            expedition.execute("turn hazard=12")
        # 1: an encounter (1/6); 8 or more: a 6, then anything but a 1 (1/6 × 5/6).
        chance = odds.compute(expedition.state, procedure).encounter_this_turn
        assert chance == Fraction(1, 6) + Fraction(5, 36)


def test_a_row_over_what_the_dice_roll_is_refused() -> None:
    text = OPEN_ENDED.replace('dice = "d6!"', 'dice = "d6"')
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    assert "tables.hazard.rows[2].roll: 8+ is outside what d6 can roll (1-6)" in str(refused.value)


def test_a_procedure_keeping_some_exploding_dice_is_told_with_its_key_and_line() -> None:
    with pytest.raises(ProcedureError) as refused:
        load_text(OPEN_ENDED.replace('dice = "d6!"', 'dice = "4d6!kh3"'))
    (problem,) = [p for p in refused.value.problems if p.path == "tables.hazard.dice"]
    assert "an exploding die (d6!) is always kept" in problem.message
    assert problem.line is not None
