"""Tests for the dice notation module: parsing, limits, rolling, typed results, time dice."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delvetui.dice import (
    MAX_DICE,
    MAX_EXPRESSION_LENGTH,
    MAX_MODIFIER,
    MAX_SIDES,
    MAX_TERMS,
    MAX_VALUE_LENGTH,
    DiceExpr,
    DiceTerm,
    Roll,
    entered,
    parse,
    roll,
    time_dice,
)
from delvetui.errors import DiceError

# --- parsing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "terms", "modifier"),
    [
        ("d6", (DiceTerm(1, 6, 1, True, 1),), 0),
        ("2d6", (DiceTerm(2, 6, 2, True, 1),), 0),
        ("3d6+2", (DiceTerm(3, 6, 3, True, 1),), 2),
        ("d20-1", (DiceTerm(1, 20, 1, True, 1),), -1),
        ("2d20kh1", (DiceTerm(2, 20, 1, True, 1),), 0),
        ("2d20kl1", (DiceTerm(2, 20, 1, False, 1),), 0),
        ("4d6k3", (DiceTerm(4, 6, 3, True, 1),), 0),
        ("1d8+1d6+2", (DiceTerm(1, 8, 1, True, 1), DiceTerm(1, 6, 1, True, 1)), 2),
        ("d%", (DiceTerm(1, 100, 1, True, 1),), 0),
        ("2d%", (DiceTerm(2, 100, 2, True, 1),), 0),
        ("d6-d4", (DiceTerm(1, 6, 1, True, 1), DiceTerm(1, 4, 1, True, -1)), 0),
        ("-d6+3", (DiceTerm(1, 6, 1, True, -1),), 3),
    ],
)
def test_parse_forms(text: str, terms: tuple[DiceTerm, ...], modifier: int) -> None:
    expr = parse(text)
    assert expr.terms == terms
    assert expr.modifier == modifier
    assert expr.chance is None


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("d6", "d6"),
        ("1d6", "d6"),
        ("2D6", "2d6"),
        (" 3d6 + 2 ", "3d6+2"),
        ("d20 - 1", "d20-1"),
        ("2d20KH1", "2d20kh1"),
        ("2d20kl1", "2d20kl1"),
        ("4d6k3", "4d6kh3"),
        ("1d8+1d6+2", "d8+d6+2"),
        ("d%", "d100"),
        ("D%", "d100"),
        ("2+d6-2", "d6"),
        ("1+d6+1", "d6+2"),
        ("02d06", "2d6"),
        ("2d6kh2", "2d6"),
        ("2d6kl2", "2d6"),
        ("1-in-6", "1-in-6"),
        ("2 in 6", "2-in-6"),
        ("2 IN 6", "2-in-6"),
        ("2in6", "2-in-6"),
    ],
)
def test_normalised_text(text: str, normalised: str) -> None:
    expr = parse(text)
    assert expr.text == normalised
    assert parse(expr.text) == expr


def test_keep_all_is_canonical() -> None:
    assert parse("2d6kl2") == parse("2d6")


def test_chance() -> None:
    expr = parse("2-in-6")
    assert expr.chance == (2, 6)
    assert expr.terms == (DiceTerm(1, 6, 1, True, 1),)
    assert expr.modifier == 0
    assert (expr.minimum, expr.maximum) == (1, 6)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("d6", 1, 6),
        ("3d6+2", 5, 20),
        ("d20-1", 0, 19),
        ("4d6k3", 3, 18),
        ("2d20kl1+3", 4, 23),
        ("d6-d4", -3, 5),
        ("-2d6", -12, -2),
        ("d%", 1, 100),
        ("1-in-6", 1, 6),
    ],
)
def test_minimum_maximum(text: str, low: int, high: int) -> None:
    expr = parse(text)
    assert (expr.minimum, expr.maximum) == (low, high)


def test_advantage_and_disadvantage() -> None:
    expr = parse("d20+2")
    assert expr.with_advantage().text == "2d20kh1+2"
    assert expr.with_advantage() == parse("2d20kh1+2")
    assert expr.with_disadvantage().text == "2d20kl1+2"
    assert expr.with_disadvantage() == parse("2d20kl1+2")


@pytest.mark.parametrize("text", ["2d6", "d6+d4", "2d20kh1", "2-in-6", "-d20"])
def test_advantage_leaves_other_expressions_unchanged(text: str) -> None:
    expr = parse(text)
    assert expr.with_advantage() == expr
    assert expr.with_disadvantage() == expr


# --- errors --------------------------------------------------------------------------------


def test_empty() -> None:
    for text in ("", "   ", "\t"):
        with pytest.raises(DiceError) as info:
            parse(text)
        assert str(info.value) == "A dice expression is empty; write something like 2d6+1."


def test_too_long_message() -> None:
    with pytest.raises(DiceError) as info:
        parse("d" * 300)
    assert str(info.value) == "The dice expression is 300 characters long; the limit is 64."


def test_syntax_message() -> None:
    with pytest.raises(DiceError) as info:
        parse("2d")
    assert str(info.value) == (
        "'2d' is not a dice expression: expected something like d6, 2d6+1, 2d20kh1, d6! or 2-in-6."
    )


def test_syntax_message_names_offending_part() -> None:
    with pytest.raises(DiceError, match="cannot read 'x'"):
        parse("d6+x")
    with pytest.raises(DiceError, match="nothing follows a '\\+'"):
        parse("d6+")


def test_long_quote_is_truncated() -> None:
    text = "d6+" + "x" * 50
    with pytest.raises(DiceError) as info:
        parse(text)
    message = str(info.value)
    quoted = message.split("' is not")[0] + "'"
    assert quoted == "'" + text[:39] + "…'"


def test_control_characters_are_escaped_in_message() -> None:
    with pytest.raises(DiceError) as info:
        parse("\x1bd6")
    assert "\x1b" not in str(info.value)
    assert "␛" in str(info.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("7", "needs at least one die"),
        ("3+4", "needs at least one die"),
        ("1000000d6", "rolls 1000000 dice; at most 100 dice can be rolled at once"),
        ("d1000000", "has 1000000 sides; the largest die is d1000"),
        ("d0", "the smallest die is d2"),
        ("d1", "the smallest die is d2"),
        ("0d6", "rolls no dice"),
        ("2d20kh0", "keeps no dice"),
        ("2d20k3", "keeps 3 of 2 dice"),
        ("2d20kl3", "keeps 3 of 2 dice"),
        ("7-in-6", "the first number must be from 1 to 6"),
        ("0-in-6", "the first number must be from 1 to 6"),
        ("1-in-1", "the smallest die is d2"),
        ("1-in-1001", "the largest die is d1000"),
        ("2d", "is not a dice expression"),
        ("d", "is not a dice expression"),
        ("2d6kh", "is not a dice expression"),
        ("2d6k", "is not a dice expression"),
        ("2d6x", "is not a dice expression"),
        ("d6++1", "is not a dice expression"),
        ("d6!!", "is not a dice expression"),
        ("2-in-d6", "is not a dice expression"),
        ("٣d6", "is not a dice expression"),
        ("d٦", "is not a dice expression"),
        ("２d6", "is not a dice expression"),
        ("\x00d6", "is not a dice expression"),
        ("d6\u212a1", "is not a dice expression"),  # KELVIN SIGN lowercases to k
    ],
)
def test_parse_errors(text: str, fragment: str) -> None:
    with pytest.raises(DiceError) as info:
        parse(text)
    assert fragment in str(info.value)


def test_bare_number_message() -> None:
    with pytest.raises(DiceError) as info:
        parse("7")
    assert str(info.value) == "'7' needs at least one die; write something like d6+7."


# --- limits: the exact limit passes, one past fails ---------------------------------------


def test_expression_length_limit() -> None:
    padded = "d6" + " " * (MAX_EXPRESSION_LENGTH - 2)
    assert parse(padded).text == "d6"
    zeros = "d6+" + "0" * (MAX_EXPRESSION_LENGTH - 4) + "1"
    assert len(zeros) == MAX_EXPRESSION_LENGTH
    assert parse(zeros).modifier == 1
    with pytest.raises(DiceError, match="65 characters long; the limit is 64"):
        parse(padded + " ")
    with pytest.raises(DiceError, match="65 characters long; the limit is 64"):
        parse("0" + zeros)


def test_dice_limit() -> None:
    assert parse(f"{MAX_DICE}d6").terms[0].count == MAX_DICE
    assert parse(f"{MAX_DICE - 1}d6+d6").maximum == MAX_DICE * 6
    with pytest.raises(DiceError, match=f"rolls {MAX_DICE + 1} dice"):
        parse(f"{MAX_DICE + 1}d6")
    with pytest.raises(DiceError, match=f"rolls {MAX_DICE + 1} dice"):
        parse(f"{MAX_DICE}d6+d6")


def test_sides_limit() -> None:
    assert parse(f"d{MAX_SIDES}").terms[0].sides == MAX_SIDES
    assert parse("d2").terms[0].sides == 2
    with pytest.raises(DiceError) as info:
        parse(f"d{MAX_SIDES + 1}")
    assert str(info.value) == "'d1001' has 1001 sides; the largest die is d1000."


def test_terms_limit() -> None:
    at_limit = "+".join(["d6"] * MAX_TERMS)
    assert len(parse(at_limit).terms) == MAX_TERMS
    assert len(parse("+".join(["d6"] * (MAX_TERMS - 1) + ["1"])).terms) == MAX_TERMS - 1
    with pytest.raises(DiceError, match=f"has {MAX_TERMS + 1} terms"):
        parse("+".join(["d6"] * (MAX_TERMS + 1)))
    with pytest.raises(DiceError, match=f"has {MAX_TERMS + 1} terms"):
        parse("+".join(["d6"] * MAX_TERMS + ["1"]))


def test_modifier_limit() -> None:
    assert parse(f"d6+{MAX_MODIFIER}").modifier == MAX_MODIFIER
    assert parse(f"d6-{MAX_MODIFIER}").modifier == -MAX_MODIFIER
    with pytest.raises(DiceError, match="modifier"):
        parse(f"d6+{MAX_MODIFIER + 1}")
    with pytest.raises(DiceError, match="modifier"):
        parse(f"d6-{MAX_MODIFIER + 1}")
    with pytest.raises(DiceError, match="modifier"):
        parse(f"d6+{MAX_MODIFIER}+1")


def test_huge_expression_fails_quickly() -> None:
    start = time.perf_counter()
    with pytest.raises(DiceError):
        parse("1000000d1000000")
    with pytest.raises(DiceError):
        parse("9" * 100_000)
    with pytest.raises(DiceError):
        parse("d6+" * 40_000)
    with pytest.raises(DiceError):
        parse("9" * 60 + "d" + "9")
    assert time.perf_counter() - start < 1.0


# --- rolling -------------------------------------------------------------------------------


def test_roll_is_reproducible() -> None:
    first = roll("4d6k3+1d8+2", random.Random(1))
    second = roll("4d6k3+1d8+2", random.Random(1))
    assert first == second
    assert first.entered is False
    assert first.hit is None
    assert first.expression == "4d6kh3+d8+2"
    assert len(first.faces) == 5
    assert all(1 <= face <= 6 for face in first.faces[:4])
    assert 1 <= first.faces[4] <= 8


def test_roll_draws_with_randint_in_term_order() -> None:
    rng = random.Random(1)
    result = roll(parse("2d6+d20"), rng)
    expected_rng = random.Random(1)
    expected = (expected_rng.randint(1, 6), expected_rng.randint(1, 6), expected_rng.randint(1, 20))
    assert result.faces == expected
    assert result.total == sum(expected)


def test_roll_faces_within_range() -> None:
    rng = random.Random(1)
    for _ in range(200):
        result = roll("3d6+d%", rng)
        assert all(1 <= face <= 6 for face in result.faces[:3])
        assert 1 <= result.faces[3] <= 100


def test_keep_highest_and_lowest() -> None:
    rng = random.Random(1)
    for _ in range(100):
        high = roll("4d6kh3", rng)
        assert sorted(high.kept) == sorted(high.faces)[1:]
        assert high.total == sum(high.kept)
        low = roll("2d20kl1+3", rng)
        assert low.kept == (min(low.faces),)
        assert low.total == min(low.faces) + 3
        assert low.modifier == 3


def test_kept_in_rolled_order() -> None:
    # entered() shares the keep logic with roll(); faces are given explicitly here.
    result = entered("4d6kh3", "5,1,6,2")
    assert result.kept == (5, 6, 2)
    assert result.total == 13
    lowest = entered("4d6kl2", "5,1,6,1")
    assert lowest.kept == (1, 1)


def test_negative_term() -> None:
    result = entered("d6-d4+1", "5,3")
    assert result.kept == (5, 3)
    assert result.total == 3


def test_chance_hit() -> None:
    rng = random.Random(1)
    seen: set[bool] = set()
    for _ in range(100):
        result = roll("2-in-6", rng)
        assert len(result.faces) == 1
        assert result.total == result.faces[0]
        assert result.hit is (result.faces[0] <= 2)
        assert result.hit is not None
        seen.add(result.hit)
    assert seen == {True, False}


# --- typed results -------------------------------------------------------------------------


def test_entered_single_die_is_the_face() -> None:
    result = entered("d20+5", "7")
    assert result == Roll(
        expression="d20+5",
        faces=(7,),
        kept=(7,),
        modifier=5,
        total=12,
        hit=None,
        entered=True,
    )


def test_one_number_typed_for_several_dice_is_what_they_show_never_the_total() -> None:
    """One meaning for a typed die: the faces shown; the modifier is added to them."""
    assert entered("2d6", "7").total == 7
    result = entered("2d6+1", " 9 ")
    assert result.faces == (9,)
    assert result.kept == (9,)
    assert result.modifier == 1
    assert result.total == 10
    assert result.entered is True
    kept = entered("2d20kl1+2", "4")  # setback: the face of the die kept
    assert (kept.faces, kept.modifier, kept.total) == ((4,), 2, 6)
    single = entered("d20+2", "4")  # the same number means the same face on one die
    assert (single.faces, single.modifier, single.total) == ((4,), 2, 6)


def test_entered_faces() -> None:
    result = entered("2d20kh1", "12,17")
    assert result.faces == (12, 17)
    assert result.kept == (17,)
    assert result.total == 17
    assert entered(parse("3d6+2"), "3, 4 ,5").total == 14


def test_entered_chance() -> None:
    hit = entered("2-in-6", "2")
    assert hit.hit is True
    assert hit.total == 2
    assert entered("2-in-6", "3").hit is False


@pytest.mark.parametrize(
    ("expr", "value", "message"),
    [
        ("d6", "9", "A d6 shows 1 to 6, not 9."),
        ("d6", "0", "A d6 shows 1 to 6, not 0."),
        ("d20+5", "21", "A d20 shows 1 to 20, not 21."),
        ("2-in-6", "7", "A d6 shows 1 to 6, not 7."),
        ("2d6", "13", "2d6 shows 2 to 12 (its faces added up), not 13."),
        ("2d6", "1", "2d6 shows 2 to 12 (its faces added up), not 1."),
        ("2d20kl1+2", "21", "2d20kl1+2 shows 1 to 20 (the face kept), not 21."),
        ("2d6", "3,7", "A d6 shows 1 to 6, not 7."),
        ("d6+d4", "4,5", "A d4 shows 1 to 4, not 5."),
        ("2d6", "3,4,5", "2d6 rolls 2 dice, so give 2 faces, not 3."),
        ("abc", "3", "'abc' is not a dice expression"),
        ("2d6", "abc", "'abc' is not a roll: give a number like 4, or faces like 3,4."),
        ("2d6", "3,", "'3,' is not a roll: give a number like 4, or faces like 3,4."),
        ("2d6", "٣", "'٣' is not a roll: give a number like 4, or faces like 3,4."),
        ("2d6", "3.5", "'3.5' is not a roll: give a number like 4, or faces like 3,4."),
        ("2d6", "", "The typed roll is empty; give a number like 4, or faces like 3,4."),
        ("2d6", "9" * 65, "The typed roll is 65 characters long; the limit is 64."),
    ],
)
def test_entered_errors(expr: str, value: str, message: str) -> None:
    with pytest.raises(DiceError) as info:
        entered(expr, value)
    assert str(info.value).startswith(message)


# --- time dice -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hour", "faces"),
    [
        (0, ()),
        (5, (5,)),
        (6, (6,)),
        (7, (6, 1)),
        (12, (6, 6)),
        (20, (6, 6, 6, 2)),
        (23, (6, 6, 6, 5)),
    ],
)
def test_time_dice(hour: int, faces: tuple[int, ...]) -> None:
    assert time_dice(hour) == faces


def test_time_dice_all_hours() -> None:
    for hour in range(24):
        faces = time_dice(hour)
        assert sum(faces) == hour
        assert len(faces) <= 4
        assert all(1 <= face <= 6 for face in faces)


@pytest.mark.parametrize("hour", [-1, 24, 100])
def test_time_dice_out_of_range(hour: int) -> None:
    with pytest.raises(ValueError):
        time_dice(hour)


# --- properties ----------------------------------------------------------------------------

_DICE_ALPHABET = st.text(alphabet="0123456789d+-khl% in", max_size=40)


def _parse_or_none(text: str) -> DiceExpr | None:
    try:
        return parse(text)
    except DiceError:
        return None


@given(st.text())
def test_parse_arbitrary_text_only_raises_dice_error(text: str) -> None:
    result = _parse_or_none(text)
    assert result is None or isinstance(result, DiceExpr)


@settings(max_examples=500)
@given(_DICE_ALPHABET, st.integers(min_value=0, max_value=2**32))
def test_parse_dice_alphabet_and_roll_within_bounds(text: str, seed: int) -> None:
    expr = _parse_or_none(text)
    if expr is None:
        return
    assert parse(expr.text) == expr
    result = roll(expr, random.Random(seed))
    assert expr.minimum <= result.total <= expr.maximum
    assert len(result.faces) == sum(term.count for term in expr.terms)


@given(
    st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=12),
            st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100, 1000]),
            st.sampled_from(["", "kh1", "kl1", "k2"]),
            st.sampled_from(["+", "-"]),
        ),
        min_size=1,
        max_size=4,
    ),
    st.integers(min_value=-MAX_MODIFIER, max_value=MAX_MODIFIER),
    st.integers(min_value=0, max_value=2**32),
)
def test_generated_expressions_roll_within_bounds(
    terms: list[tuple[int, int, str, str]], modifier: int, seed: int
) -> None:
    text = "".join(f"{sign}{count}d{sides}{keep}" for count, sides, keep, sign in terms)
    text += f"{modifier:+d}"
    expr = _parse_or_none(text)
    if expr is None:  # e.g. k2 on a single die
        return
    result = roll(expr, random.Random(seed))
    assert expr.minimum <= result.total <= expr.maximum
    assert sum(1 for _ in result.kept) == sum(term.keep for term in expr.terms)
    typed_faces = ",".join(str(face) for face in result.faces)
    if len(typed_faces) > MAX_VALUE_LENGTH:
        with pytest.raises(DiceError, match="characters long"):
            entered(expr, typed_faces)
        return
    typed = entered(expr, typed_faces)
    assert typed.total == result.total
    assert typed.kept == result.kept
