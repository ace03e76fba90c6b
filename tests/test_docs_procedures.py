"""docs/procedures.md keeps up with the procedure format.

Every TOML block marked ``<!-- complete -->`` must load as a procedure; every other TOML
block must at least be valid TOML whose effects use only their kind's keys. Each model
class has a field table (``<!-- fields: Class -->``) that must list exactly its fields, and
each effect kind declared in ``delvetui.procedure.effect_kinds`` a section
(``<!-- effect: kind -->``) that opens with the kind's own paragraph and names every key it
takes, so a field or an effect kind added or dropped fails here until the doc says so.
"""

from __future__ import annotations

import re
import tomllib
import typing
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest

from delvetui.core import events as ev
from delvetui.core import odds
from delvetui.errors import CommandError
from delvetui.procedure import bounds, conditions, model
from delvetui.procedure.effect_kinds import KINDS
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition

DOC = Path(__file__).resolve().parent.parent / "docs" / "procedures.md"
TEXT = DOC.read_text(encoding="utf-8")

_BLOCK = re.compile(r"```toml\n(.*?)```", re.DOTALL)
_COMPLETE = re.compile(r"<!-- complete -->\s*\Z")
_FIELDS = re.compile(r"<!-- fields: (\w+) -->\n((?:\|.*\n)+)")
_EFFECT = re.compile(r"<!-- effect: ([\w-]+) -->\n(.*?)(?=<!-- effect:|\n#{1,4} |\Z)", re.DOTALL)
_CODE = re.compile(r"`([^`\n]+)`")
_KEY = re.compile(r"[\w-]+")
_HEADING = re.compile(r"^#+ .*\n")

#: The procedure format's classes: the model's and the `when` condition's.
MODEL_CLASSES = {
    name: cls
    for module in (model, conditions)
    for name, cls in vars(module).items()
    if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == module.__name__
}


def toml_blocks() -> list[tuple[int, str, bool]]:
    """Each TOML block: its line in the doc, its text, and whether it is marked complete."""
    blocks = []
    for found in _BLOCK.finditer(TEXT):
        line = TEXT.count("\n", 0, found.start()) + 1
        complete = _COMPLETE.search(TEXT[: found.start()]) is not None
        blocks.append((line, found.group(1), complete))
    return blocks


COMPLETE = [(line, text) for line, text, complete in toml_blocks() if complete]
FRAGMENTS = [(line, text) for line, text, complete in toml_blocks() if not complete]


def test_the_doc_has_complete_examples_and_fragments() -> None:
    assert len(COMPLETE) >= 3
    assert len(FRAGMENTS) >= 20


@pytest.mark.parametrize(("line", "text"), COMPLETE, ids=[f"line {n}" for n, _ in COMPLETE])
def test_every_complete_example_loads(line: int, text: str) -> None:
    procedure = load_text(text, source=f"docs/procedures.md, block at line {line}")
    assert procedure.default_action in procedure.actions


def effects_in(data: Any) -> Iterator[dict[str, Any]]:
    """Every table in parsed TOML that is an effect (has a ``do`` key)."""
    if isinstance(data, dict):
        if "do" in data:
            yield data
        for value in data.values():
            yield from effects_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from effects_in(item)


@pytest.mark.parametrize(("line", "text"), FRAGMENTS, ids=[f"line {n}" for n, _ in FRAGMENTS])
def test_every_fragment_is_toml_whose_effects_use_their_own_keys(line: int, text: str) -> None:
    data = tomllib.loads(text)
    for effect in effects_in(data):
        kind = effect["do"]
        assert kind in KINDS, f"line {line}: {kind!r} is not an effect"
        allowed = KINDS[kind].allowed
        assert set(effect) <= allowed, f"line {line}: {sorted(set(effect) - allowed)}"
        for key in KINDS[kind].required:
            assert key in effect, f"line {line}: a {kind} effect needs {key}"


def documented_fields() -> dict[str, list[str]]:
    """Class name -> the keys listed in the first column of its field table."""
    tables: dict[str, list[str]] = {}
    for found in _FIELDS.finditer(TEXT):
        rows = found.group(2).splitlines()[2:]  # past the header and its separator
        keys = []
        for row in rows:
            first = row.split("|")[1]
            code = _CODE.search(first)
            assert code is not None, f"no `key` in the row {row!r}"
            keys.append(code.group(1))
        assert found.group(1) not in tables, f"two field tables for {found.group(1)}"
        tables[found.group(1)] = keys
    return tables


def documented_types() -> dict[str, dict[str, str]]:
    """Class name -> each key of its field table and the words of its type column."""
    tables: dict[str, dict[str, str]] = {}
    for found in _FIELDS.finditer(TEXT):
        rows = found.group(2).splitlines()[2:]
        cells = [row.split("|") for row in rows]
        tables[found.group(1)] = {_key(_CODE.findall(c[1])[0]): c[2].strip() for c in cells}
    return tables


def numeric_fields() -> list[tuple[str, str]]:
    """Every key of the format that takes a number (alone, in a list or as a table's values)."""
    found = []
    for name, cls in MODEL_CLASSES.items():
        hints = typing.get_type_hints(cls, {**vars(model), **vars(conditions)})
        for field in attrs.fields(cls):
            shown = str(hints[field.name])
            if re.search(r"\b(int|float)\b", shown):
                found.append((name, field.name))
    return found


@pytest.mark.parametrize(("name", "key"), numeric_fields())
def test_every_number_key_has_a_range_and_its_row_says_it(name: str, key: str) -> None:
    """Rule: every number of the format is bounded (``procedure.bounds``), and the key's row
    in docs/procedures.md says its range in the words a problem uses."""
    field = attrs.fields_dict(MODEL_CLASSES[name])[key]
    found = bounds.of(field.metadata)
    assert found is not None, f"{name}.{key}: declare its range (procedure.bounds)"
    written = documented_types()[name][key]
    assert found.words() in written, f"{name}.{key}: write '{found.words()}' in its type"


def test_every_model_class_has_a_field_table() -> None:
    assert set(documented_fields()) == set(MODEL_CLASSES)


@pytest.mark.parametrize("name", sorted(MODEL_CLASSES))
def test_every_field_of_every_class_is_documented_and_nothing_else(name: str) -> None:
    keys = documented_fields()[name]
    fields = [field.name for field in attrs.fields(MODEL_CLASSES[name])]
    assert len(keys) == len(set(keys)), f"{name}: a key is listed twice"
    missing = set(fields) - set(keys)
    stale = set(keys) - set(fields)
    assert not missing, f"{name}: document {sorted(missing)} in docs/procedures.md"
    assert not stale, f"{name}: {sorted(stale)} are no longer fields; drop them from the doc"


def _key(span: str) -> str:
    """The key a code span names: `per_point` and `per_point = true` both name per_point."""
    found = _KEY.match(span)
    return found.group() if found else span


def effect_sections() -> dict[str, str]:
    return {found.group(1): found.group(2) for found in _EFFECT.finditer(TEXT)}


def test_every_effect_kind_has_a_section_in_the_registry_order() -> None:
    assert list(effect_sections()) == list(KINDS)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_effect_section_opens_with_the_registry_paragraph(kind: str) -> None:
    section = _HEADING.sub("", effect_sections()[kind], count=1).strip()
    first = " ".join(section.split("\n\n")[0].split())
    assert KINDS[kind].doc, f"{kind}: its handler has no docstring"
    assert first == KINDS[kind].doc, f"{kind}: the doc and the handler's docstring differ"


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_effect_section_names_its_keys_and_has_an_example(kind: str) -> None:
    section = effect_sections()[kind]
    prose = _BLOCK.sub("", section)
    named = {_key(span) for span in _CODE.findall(prose)}
    wanted = set(KINDS[kind].fields) | set(KINDS[kind].required)
    assert wanted <= named, f"{kind}: name {sorted(wanted - named)} in its section"
    examples = [tomllib.loads(block) for block in _BLOCK.findall(section)]
    assert any(effect["do"] == kind for data in examples for effect in effects_in(data))


def test_the_tutorial_plays_as_the_doc_says(home: Path) -> None:
    """The tutorial's file takes the turns its 'Try it' section shows."""
    text = next(text for _, text in COMPLETE if 'id = "gloamdeep"' in text)
    procedure = load_text(text)
    with Expedition.create(home / "test.delve", procedure, seed=7) as expedition:
        for command in (
            "pc add Ash hp=8",
            "pc add Bryn hp=6",
            "light add candle count=4",
            "light on candle carrier=Ash",
            "turn hazard=3",
        ):
            expedition.execute(command)
        assert expedition.state.pending
        expedition.execute("turn rest")
        assert not expedition.state.pending
        assert all(member.fatigue == 0 for member in expedition.state.party)
        expedition.execute("turn dash hazard=2 lurk=1")
        state = expedition.state
        assert state.light_level == "dark"
        assert state.counter("noise") == 0  # raised by the dash, reset by the Hungry Dark
        assert state.sign is None  # the sign became the Hungry Dark's encounter
        assert state.encounter is not None
        # Step 9: the rest ate a ration each; with the candle blown out, both grope.
        assert [m.resource("rations") for m in state.party] == [1, 1]
        assert all("groping" in m.conditions for m in state.party)
        expedition.execute("light on candle carrier=Bryn")
        expedition.execute("turn creep hazard=5 lurk=6")
        ash, bryn = expedition.state.party
        assert "groping" in ash.conditions and "groping" not in bryn.conditions
        expedition.execute("pc Ash rations=0")
        expedition.execute("turn rest hazard=5 lurk=6")
        ash, bryn = expedition.state.party
        assert (ash.fatigue, ash.resource("rations")) == (1, 0)  # none left: weary
        assert (bryn.fatigue, bryn.resource("rations")) == (0, 0)


def complete(doc_id: str) -> str:
    """The complete example of the doc whose procedure has this id."""
    return next(text for _, text in COMPLETE if f'id = "{doc_id}"' in text)


def test_the_member_tests_example_plays_as_the_doc_says(home: Path) -> None:
    procedure = load_text(complete("member-tests"))
    with Expedition.create(home / "m.delve", procedure, seed=7) as expedition:
        for command in (
            "pc add Ash hp=8 CON=14",
            "pc add Bryn hp=6 CON=9",
            "light add torch carrier=Ash lit",
            "turn march",
        ):
            expedition.execute(command)
        ash, bryn = expedition.state.party
        assert (ash.resource("rations"), bryn.resource("rations")) == (0, 0)
        assert (ash.hp, bryn.hp) == (8, 6)
        assert "in darkness" not in ash.conditions and "in darkness" in bryn.conditions
        expedition.execute("turn march")
        ash, bryn = expedition.state.party
        assert (ash.hp, bryn.hp) == (7, 5)  # no ration left: 1 damage each
        expedition.execute("light give torch1 Bryn")
        expedition.execute("turn march")
        ash, bryn = expedition.state.party
        assert "in darkness" in ash.conditions and "in darkness" not in bryn.conditions
        expedition.execute("turn camp")
        ash, bryn = expedition.state.party
        assert (ash.hp, bryn.hp) == (7, 4)  # only the hardy (CON 13+) recover


def test_the_resources_example_plays_as_the_doc_says(home: Path) -> None:
    procedure = load_text(complete("rations-and-oil"))
    with Expedition.create(home / "r.delve", procedure, seed=7) as expedition:
        for command in (
            "pc add Ash hp=8",
            "light add lantern carrier=Ash lit",
            "turn march",
            "turn forage by=Ash supply.Ash=2",
            "party +2 oil",
            "light refuel lantern1",
        ):
            expedition.execute(command)
        state = expedition.state
        ash = state.party[0]
        assert ash.resource("rations") == 4 and state.resource("oil") == 2
        lantern = state.light("lantern1")
        assert lantern is not None and lantern.minutes == 240
        expedition.execute("pc Ash rations=0")
        expedition.execute("turn march")
        assert expedition.state.party[0].hp == 7  # eat a ration or take 1 damage


def test_the_resources_example_refuels_the_lantern_to_its_own_hours(home: Path) -> None:
    """3.12 and 3.20: with no refuel_hours, a flask renews the lantern's own 4 hours; a
    resource named on pc add is the member's start."""
    procedure = load_text(complete("rations-and-oil"))
    with Expedition.create(home / "r.delve", procedure, seed=7) as expedition:
        for command in ("pc add Ash hp=8 rations=5", "light add lantern carrier=Ash lit"):
            expedition.execute(command)
        expedition.execute("turn forage by=Ash supply.Ash=1")  # a day: the lantern runs dry
        state = expedition.state
        assert state.party[0].resource("rations") == 6
        lantern = state.light("lantern1")
        assert lantern is not None and not lantern.lit and lantern.minutes == 0
        expedition.execute("light refuel lantern1")
        expedition.execute("light on lantern1")
        lantern = expedition.state.light("lantern1")
        assert lantern is not None and lantern.lit and lantern.minutes == 240
        assert expedition.state.resource("oil") == 0


def test_the_three_roads_read_one_hazard_die_on_the_table_of_the_kind_of_turn(
    home: Path,
) -> None:
    """3.22: one key, the table of the kind of turn, the odds of that table, none in town."""
    procedure = load_text(complete("three-roads"))
    with Expedition.create(home / "roads.delve", procedure, seed=7) as expedition:
        expedition.execute("turn hazard=1")
        assert expedition.state.encounter == "Something shuffles out of the dark."
        expedition.execute("enter wilderness")
        assert odds.compute(expedition.state, procedure).encounter_this_turn == Fraction(1, 3)
        expedition.execute("turn hazard=2")
        last = expedition.state.last_hazard
        assert last is not None and (last.table, last.result) == ("wild_hazard", "Raiders")
        expedition.execute("enter haven")
        expedition.execute("turn")
        assert expedition.state.last_hazard == last
        with pytest.raises(CommandError):
            expedition.execute("turn hazard=3")


def test_the_long_road_travels_at_the_slowest_pace_by_days_watches_and_weeks(
    home: Path,
) -> None:
    """3.22: a day's travel at Bo's pace, then a watch, then a week, as the doc says."""
    procedure = load_text(complete("long-road"))
    with Expedition.create(home / "road.delve", procedure, seed=7) as expedition:
        expedition.execute("pc add Ash hp=8 SPEED=120")
        expedition.execute("pc add Bo hp=6 SPEED=90")
        expedition.execute("turn")
        assert expedition.state.last_hazard is None
        assert (expedition.state.day, expedition.state.clock_text) == (2, "07:00")
        expedition.execute("enter camp")
        expedition.execute("turn")
        assert (expedition.state.day, expedition.state.clock_text) == (2, "11:00")
        expedition.execute("enter town")
        expedition.execute("turn")
        assert (expedition.state.day, expedition.state.clock_text) == (9, "11:00")
        first = next(expedition.batches(3))
        assert "18 miles at Bo's pace" in str(first.events)


def test_under_the_hill_checks_as_often_as_the_danger_and_the_light_say(home: Path) -> None:
    """3.22: the rounds the wandering monster check comes on, as the doc lists them."""
    procedure = load_text(complete("under-the-hill"))
    with Expedition.create(home / "hill.delve", procedure, seed=7) as expedition:
        expedition.execute("light add torch lit")

        def checked(rounds: int) -> list[int]:
            """Take rounds, each check typed as a miss; the rounds that had a check."""
            found = []
            for _ in range(rounds):
                try:
                    expedition.execute("turn wandering=6")
                    found.append(expedition.state.turn)
                except CommandError:
                    expedition.execute("turn")
            return found

        assert checked(7) == [3, 6]
        expedition.execute("counter set danger risky")
        assert checked(4) == [9, 11]
        expedition.execute("light off torch1")
        assert checked(2) == [12, 13]
        expedition.execute("counter set danger safe")
        assert checked(2) == []


def test_a_torch_rolled_when_lit_plays_as_the_doc_says(home: Path) -> None:
    """3.12: turns_dice is rolled when a source is first lit; burn=N types its dice."""
    procedure = load_text(complete("rolled-torch"))
    with Expedition.create(home / "torch.delve", procedure, seed=7) as expedition:
        expedition.execute("light add torch count=3")
        expedition.execute("light on torch burn=1")
        typed = expedition.state.light("torch2")
        assert typed is not None and typed.lit and typed.minutes == 5 * 10
        expedition.execute("light on torch")
        rolled = expedition.state.light("torch3")
        assert rolled is not None and rolled.minutes in {50, 60, 70, 80}


def test_the_reaction_bonus_plays_as_the_doc_says(home: Path) -> None:
    """3.15 roll: with ability, the lead's modifier by the game's own table is added, and
    a total beyond the rows reads the nearest end's row."""
    procedure = load_text(complete("reaction-bonus"))
    with Expedition.create(home / "reaction.delve", procedure, seed=7) as expedition:
        expedition.execute("pc add Ari hp=6 CHA=16")
        expedition.execute("pc add Bo hp=6 CHA=5")
        for command, label in (
            ("turn hazard=1 reaction=10", "Very favorable"),  # Ari leads: CHA 16 adds 2
            ("turn hazard=1 reaction=10 by=Bo", "Favorable"),  # Bo's CHA 5 takes 2
            ("turn hazard=1 reaction=2 by=Bo", "Immediate attack"),  # 0: the first row
        ):
            batch = expedition.execute(command)
            assert [e.label for e in batch.events if isinstance(e, ev.ResultRead)][-1] == label


def test_daily_bread_is_eaten_at_midnight_as_the_doc_says(home: Path) -> None:
    """3.16: day_ends holds on the turn in which the clock passes midnight."""
    procedure = load_text(complete("daily-bread"))
    with Expedition.create(home / "bread.delve", procedure, seed=7) as expedition:
        expedition.execute("pc add Ash hp=6")
        eaten, hp = [], []
        for command in ["turn travel", "turn camp"] * 9:
            expedition.execute(command)
            eaten.append(expedition.state.party[0].resource("rations"))
            hp.append(expedition.state.party[0].hp)
        assert eaten[2:4] == [2, 1] and eaten[8:10] == [1, 0]  # the 4th and 10th watches
        assert hp[14:16] == [6, 5]  # the third midnight: none left
