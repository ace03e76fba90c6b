"""Every key of a `when` condition is declared in two places: its field in ``Condition``
(``delvetui.procedure.conditions``: help, scope and loader check) and its test and words in
``delvetui.core.when.KEYS`` (docs/design.md, "A `when` key").

A field of ``Condition`` without an entry in ``KEYS`` fails here, and so does one that
does not declare its scope and its check; so does a key whose words fall back to the
sentence that names nothing, whose check (where a name must exist, a part of the day, a
light level) lets a wrong name through, or whose scope does not say whether it reads the
member.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from delvetui.core import when
from delvetui.core.work import Inputs, Work
from delvetui.errors import ProcedureError
from delvetui.procedure.conditions import SCOPES, Condition
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition

ROOT = Path(__file__).resolve().parent.parent
FIELDS = [field.name for field in attrs.fields(Condition)]
#: Each key's loader check, as its field declares it (None: its type is its whole check).
CHECKS = {
    field.name: field.metadata.get("check", "undeclared") for field in attrs.fields(Condition)
}
FALLBACK = "only when its condition holds, and it does not now"

#: A sample value of each key (names from the shipped Errant procedure) and what its words
#: must say, so a game master knows which key stops a rule.
SAMPLES: dict[str, tuple[Any, str]] = {
    "inputs": ({"nav": "success"}, "nav=success"),
    "not_inputs": ({"nav": "failure"}, "not nav=failure"),
    "counter_at_least": ({"weather": 2}, "the weather is at least 2 (it is 0)"),
    "counter_at_most": ({"weather": 1}, "the weather is at most 1 (it is 0)"),
    "first_turns": (3, "during the first 3 "),
    "after_turns": (3, "after the first 3 "),
    "resting": (True, "the party rests"),
    "day_ends": (True, "ends a day"),
    "time_of_day": (("night",), "in the night (it is "),
    "first_turn_of_day": (False, "not on the first "),
    "counter_levels": ({"season": ("winter",)}, "the season is winter (it is spring)"),
    "light_levels": (("bright",), "the light is bright (it is dark)"),
    "flags": (("lost",), "is 'lost'"),
    "not_flags": (("lost",), "is not 'lost'"),
    "streak": (6, "on every 6th "),
    "by": (True, "the command names a member with by=NAME (it names none)"),
    "hp_at_least": (1, "a member has at least 1 hit points"),
    "hp_at_most": (0, "a member has at most 0 hit points"),
    "member_track_at_least": ({"exhaustion": 2}, "a member's exhaustion is at least 2"),
    "member_track_at_most": ({"exhaustion": 1}, "a member's exhaustion is at most 1"),
    "member_ability_at_least": ({"PHYS": 12}, "a member's PHYS is at least 12"),
    "member_ability_at_most": ({"MIND": 8}, "a member's MIND is at most 8"),
    "member_modifier_at_least": ({"best": 1}, "a member's best modifier is at least 1"),
    "member_modifier_at_most": ({"PRES": 0}, "a member's PRES modifier is at most 0"),
    "member_conditions": (("poisoned",), "a member is 'poisoned'"),
    "member_not_conditions": (("poisoned",), "a member is not 'poisoned'"),
    "member_resource_at_least": ({"rations": 1}, "a member's rations is at least 1"),
    "member_resource_at_most": ({"rations": 0}, "a member's rations is at most 0"),
    "member_carries_light": (True, "a member carries a lit light"),
    "member_light_levels": (("dim",), "a member stands in dim light"),
    "resource_at_least": ({"oil": 1}, "the lantern oil is at least 1 (it is 0)"),
    "resource_at_most": ({"oil": 0}, "the lantern oil is at most 0 (it is 0)"),
    "rolled": (
        {"surprise-roll": ("No surprise",)},
        "Surprise came out No surprise (it was not rolled)",
    ),
}

#: The keys whose values name something the procedure must have (a counter and its
#: levels, a track, an ability, a resource, a part of the day, a light level, an input)
#: or a number with a floor: each needs a check beyond its type.
CHECKED = {
    "inputs",
    "not_inputs",
    "counter_at_least",
    "counter_at_most",
    "counter_levels",
    "light_levels",
    "member_light_levels",
    "time_of_day",
    "member_track_at_least",
    "member_track_at_most",
    "member_ability_at_least",
    "member_ability_at_most",
    "member_modifier_at_least",
    "member_modifier_at_most",
    "member_resource_at_least",
    "member_resource_at_most",
    "resource_at_least",
    "resource_at_most",
    "rolled",
}


@pytest.fixture
def errant(home: Path) -> Work:
    """A work in progress on an Errant expedition with one member, before any turn."""
    expedition = Expedition.create(home / "keys.delve", find("errant"), seed=1)
    expedition.execute("pc add Ash hp=4 PHYS=12")
    return Work(expedition.state, expedition.procedure, Inputs(()), random.Random(1), False)


def test_the_registry_names_exactly_the_keys_of_condition() -> None:
    assert sorted(when.KEYS) == sorted(FIELDS)
    assert sorted(SAMPLES) == sorted(FIELDS)


def test_every_key_has_a_scope_a_check_a_test_and_words() -> None:
    for field in attrs.fields(Condition):
        assert field.metadata.get("help"), field.name
        assert field.metadata.get("scope") in ("party", "member"), field.name
        assert "check" in field.metadata, field.name
    assert sorted(SCOPES) == sorted(FIELDS)
    for key, entry in when.KEYS.items():
        assert callable(entry.test) and callable(entry.words), key


def test_the_keys_that_name_something_have_a_loader_check() -> None:
    assert {key for key, check in CHECKS.items() if check is not None} == CHECKED


def test_the_models_member_keys_are_the_declared_scopes() -> None:
    """``Condition.about_member`` (which the loader reads) follows each key's scope."""
    for key, (value, _) in SAMPLES.items():
        about = Condition(**{key: value}).about_member
        assert about == (SCOPES[key] == "member"), key


@pytest.mark.parametrize("key", FIELDS)
def test_every_key_is_said_in_words_a_game_master_reads(errant: Work, key: str) -> None:
    value, said = SAMPLES[key]
    sentence = when.words(Condition(**{key: value}), errant)
    assert sentence != FALLBACK
    assert sentence.startswith("only when ")
    assert said in sentence, sentence


def test_a_member_key_holds_for_no_member_and_is_tested_for_one(errant: Work) -> None:
    """A member test holds only for the member an effect is about; with none, never."""
    for key, scope in SCOPES.items():
        if scope == "member":
            assert not when.holds(errant, Condition(**{key: SAMPLES[key][0]})), key
    assert when.holds(errant, Condition(hp_at_least=1), "Ash")
    assert not when.holds(errant, Condition(hp_at_most=0), "Ash")
    assert when.holds(errant, Condition(member_ability_at_least={"PHYS": 12}), "ash")
    assert not when.holds(errant, Condition(member_ability_at_least={"MIND": 1}), "Ash")


def test_a_member_key_reads_the_member(errant: Work) -> None:
    """A key declared for the member reads the member an effect is about: asked of none,
    its test cannot run (a party key declared as a member's would run, and be asked once
    per member for nothing)."""
    for key, scope in SCOPES.items():
        if scope == "member":
            now = when.Now(errant, Condition(), None)
            with pytest.raises((AssertionError, AttributeError)):
                when.KEYS[key].test(now, SAMPLES[key][0])


def test_a_party_key_is_tested_without_a_member(errant: Work) -> None:
    """A key declared for the party never reads a member: a member key declared as the
    party's would be asked with none and fail, not quietly hold or not."""
    for key, scope in SCOPES.items():
        if scope == "party":
            assert when.holds(errant, Condition(**{key: SAMPLES[key][0]})) in (True, False), key


def test_the_party_resource_is_said_with_what_it_holds_now(home: Path) -> None:
    """The words name the party's stock and read it now: at most 0, and there are 2."""
    with Expedition.create(home / "oil.delve", find("cairn"), seed=1) as expedition:
        expedition.execute("party oil=2")
        work = Work(expedition.state, expedition.procedure, Inputs(()), random.Random(1), False)
        condition = Condition(resource_at_most={"oil": 0})
        assert when.words(condition, work) == "only when the oil cans is at most 0 (it is 2)"
        assert not when.holds(work, condition)


def test_each_check_reports_a_wrong_name_at_its_key() -> None:
    """A bad procedure lists every problem with its key: one per checked key here."""
    bad = {
        "inputs": '{ nope-input = "x" }',
        "not_inputs": '{ nope-input-b = "x" }',
        "counter_at_least": "{ no-counter-a = 1 }",
        "counter_at_most": "{ no-counter-b = 1 }",
        "counter_levels": '{ season = ["monsoon"] }',
        "light_levels": '["murky"]',
        "member_light_levels": '["gloomy"]',
        "time_of_day": '["dusk"]',
        "member_track_at_least": "{ no-track-a = 1 }",
        "member_track_at_most": "{ no-track-b = 1 }",
        "member_ability_at_least": "{ XA = 1 }",
        "member_ability_at_most": "{ XB = 1 }",
        "member_modifier_at_least": "{ XC = 1 }",
        "member_modifier_at_most": "{ XD = 1 }",
        "member_resource_at_least": "{ no-res-a = 1 }",
        "member_resource_at_most": "{ no-res-b = 1 }",
        "resource_at_least": "{ no-res-c = 1 }",
        "resource_at_most": "{ no-res-d = 1 }",
        "rolled": '{ no-table = ["Hostile"] }',
    }
    assert set(bad) == CHECKED
    condition = ", ".join(f"{key} = {value}" for key, value in bad.items())
    text = (ROOT / "procedures" / "errant.toml").read_text(encoding="utf-8")
    text += (
        '\n[activities.probe]\nlabel = "Probe"\n'
        f'effects = [{{ do = "log", text = "probe", when = {{ {condition} }} }}]\n'
    )
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    said = [f"{p.path}: {p.message}" for p in raised.value.problems]
    for key, value in bad.items():
        wrong = value.strip("{}[] ").split(" ")[0].strip('"')
        if key == "counter_levels":
            wrong = "monsoon"
        assert any(wrong in line or f"when.{key}" in line for line in said), (key, said)
    assert len(said) == len(bad)


def test_a_condition_that_fails_on_a_member_key_reads_no_input_of_the_command(
    errant: Work,
) -> None:
    """The keys are asked in the order they always were: a member test that fails stops
    the condition before its ``inputs`` and ``by`` read the command (a read input counts as
    used, so reading it would let a value nothing else uses pass unrefused)."""
    condition = Condition(hp_at_most=0, inputs={"nav": "success"}, by=True)
    assert not when.holds(errant, condition, "Ash")
    assert not errant.inputs.wanted
    assert when.holds(errant, Condition(hp_at_least=1, inputs={"nav": "success"}), "Ash") is False
    assert errant.inputs.wanted == {"nav"}
