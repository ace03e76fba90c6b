"""The adventure's own tables: carried from a file, an area in use, encounters rolled on it
(issue 11, point 10)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest

from delvetui.core import events as ev
from delvetui.core.areas import carried
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export
from delvetui.export.importing import import_file
from delvetui.procedure import adventure as tables
from delvetui.procedure.registry import find, shipped_dir
from delvetui.session import Expedition
from tests import cli_support
from tests.cli_support import delvetui, status
from tests.ui_support import expedition, ready, screen_text, settled

CRYPT = shipped_dir() / "adventures" / "example-crypt.toml"
DOC = Path(__file__).resolve().parent.parent / "docs" / "procedures.md"


def problems(text: str) -> list[str]:
    with pytest.raises(ProcedureError) as caught:
        tables.load_text(text, source="crypt.toml")
    return [str(problem) for problem in caught.value.problems]


def events_of(made: Expedition, kind: type[ev.Event]) -> list[ev.Event]:
    return [e for batch in made.batches() for e in batch.events if isinstance(e, kind)]


def crypt(home: Path, name: str = "crypt", procedure: str = "delving") -> Expedition:
    made = Expedition.create(home / f"{name}.delve", find(procedure), seed=5)
    made.execute(f"tables add {CRYPT}")
    return made


# The format ----------------------------------------------------------------------------------


def test_the_shipped_example_is_a_three_level_crypt_with_a_2d6_reaction() -> None:
    crypt_tables = tables.load_text(CRYPT.read_text(encoding="utf-8"))
    assert list(crypt_tables.areas) == ["level-1", "level-2", "level-3"]
    assert crypt_tables.first_area == "level-1"
    assert crypt_tables.reactions["reaction"].dice == "2d6"
    ghouls = crypt_tables.areas["level-2"].rows[1]
    assert (ghouls.creature, ghouls.number, ghouls.reaction) == ("Ghouls", "1d4", "none")


def test_every_field_of_the_format_is_documented() -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("### 3.23") : doc.index("## 4.")]
    for cls in (tables.Adventure, tables.Area, tables.Encounter, tables.ReactionTable):
        for field in attrs.fields(cls):
            assert f"| `{field.name}` |" in section, f"{cls.__name__}.{field.name}"


HOSTILE = """\
id = "bad"
name = "Bad"
include = "/etc/passwd"

[reactions.reaction]
label = "Reaction"
dice = "2d6"
rows = [{ roll = "2-11", label = "Meh" }]

[areas.one]
label = "One"
dice = "d6"
reaction = "reacton"
rows = [
  { roll = "1-3", creature = "Rats", number = "2d" },
  { roll = "3-5", creature = "Bats\\u001b[2J" },
]
"""


def test_a_hostile_file_gets_every_problem_with_its_key_and_line() -> None:
    found = problems(HOSTILE)
    assert found == [
        "line 3: include: 'include' is not a key of the file.",
        "line 14: areas.one.rows[1].creature: contains a control character (␛); use plain text.",
    ]
    # Once the keys and values are sound, the problems between parts, all at once.
    fixed = HOSTILE.replace('include = "/etc/passwd"\n', "").replace("\\u001b[2J", "")
    found = problems(fixed)
    assert "line 7: reactions.reaction.rows: no row covers 12; leave no gaps." in found
    assert any(
        p.startswith("line 12: areas.one.reaction: names the reaction table 'reacton'")
        and "Did you mean 'reaction'?" in p
        for p in found
    )
    assert any(p.startswith("line 13: areas.one.rows[0].number: ") for p in found)
    assert "line 13: areas.one.rows[1].roll: 3 is also covered by row 1; ranges overlap." in found
    assert "line 13: areas.one.rows: no row covers 6; leave no gaps." in found


def test_size_and_encoding_are_checked_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * tables.MAX_FILE_BYTES)
    with pytest.raises(ProcedureError, match="at most 64 KB"):
        tables.load_bytes(big.read_bytes(), source="big.toml")
    with pytest.raises(ProcedureError, match="not valid UTF-8"):
        tables.load_bytes(b'id = "\xff"', source="latin.toml")


# Carrying the tables -------------------------------------------------------------------------


def test_tables_add_keeps_the_text_so_the_file_is_never_read_again(
    home: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "my-crypt.toml"
    copy.write_text(CRYPT.read_text(encoding="utf-8"), encoding="utf-8")
    made = Expedition.create(home / "kept.delve", find("delving"), seed=5)
    made.execute(f"tables add {copy}")
    [added] = events_of(made, ev.TablesAdded)
    assert isinstance(added, ev.TablesAdded)
    assert added.text == copy.read_text(encoding="utf-8")
    assert made.state.area == "level-1"
    made.close()
    copy.unlink()  # gone: the expedition does not need it
    with Expedition.open(home / "kept.delve") as again:
        assert list(carried(again.state)) == ["example-crypt"]
        again.execute("area level-3")
        again.execute("turn hazard=1 encounter=4 reaction=12")
        assert again.state.encounter == "1 × Ash wraith, Friendly (helpful)"


def test_area_switches_the_table_and_bad_areas_change_nothing(home: Path) -> None:
    made = Expedition.create(home / "bare.delve", find("delving"), seed=5)
    with pytest.raises(CommandError, match="carries no tables of its own; add them with"):
        made.execute("area level-2")
    made.execute(f"tables add {CRYPT}")
    before = (made.batch_count, made.event_count)
    with pytest.raises(CommandError) as refused:
        made.execute("area levle-2")
    assert str(refused.value) == (
        "'levle-2' is not an area of the adventure's tables (level-1, level-2, level-3). "
        "Did you mean 'level-2'?"
    )
    with pytest.raises(CommandError, match="already in Level 1: the chapel"):
        made.execute("area level-1")
    assert (made.batch_count, made.event_count) == before
    made.execute("area level-2")
    assert made.state.area == "level-2"
    made.execute("undo")
    assert made.state.area == "level-1"
    made.close()


def test_a_bad_tables_file_is_refused_with_its_problems_and_writes_nothing(
    home: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(HOSTILE, encoding="utf-8")
    made = Expedition.create(home / "refused.delve", find("delving"), seed=5)
    before = (made.batch_count, made.event_count)
    with pytest.raises(ProcedureError, match="include: 'include' is not a key of the file"):
        made.execute(f"tables add {bad}")
    with pytest.raises(ProcedureError, match="cannot be read"):
        made.execute(f"tables add {tmp_path / 'missing.toml'}")
    with pytest.raises(ProcedureError, match="is not a file but a folder; it was not opened"):
        made.execute(f"tables add {tmp_path}")
    assert (made.batch_count, made.event_count) == before
    made.close()


# Encounters and signs ------------------------------------------------------------------------


def test_an_encounter_rolls_the_areas_table_and_names_creature_number_and_reaction(
    home: Path,
) -> None:
    made = crypt(home)
    batch = made.execute("turn hazard=1 encounter=3 appearing=3 reaction=7")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    # 1d4+1 typed as the die's face, 3: four grave robbers.
    assert (met.creature, met.appearing, met.area) == ("Grave robbers", 4, "level-1")
    assert met.reaction == "Uncertain (waits to see what the party does)"
    assert made.state.encounter == (
        "4 × Grave robbers, Uncertain (waits to see what the party does)"
    )
    rolls = [(e.key, e.total) for e in batch.events if isinstance(e, ev.DiceRolled)]
    assert rolls[:4] == [("hazard", 1), ("encounter", 3), ("appearing", 4), ("reaction", 7)]
    # They come in as foes, as many as appear, each with a hit die rolled.
    assert [key for key, _ in rolls[4:]] == ["hit-dice"] * 4
    assert [f.name for f in made.state.foes] == [f"grave-robbers{n}" for n in range(1, 5)]
    # Ghouls roll no reaction; a number typed out of the dice's range is refused.
    made.execute("area level-2")
    with pytest.raises(CommandError, match="A d4 shows 1 to 4, not 5"):
        made.execute("turn hazard=1 encounter=4 appearing=5")
    batch = made.execute("turn hazard=1 encounter=4 appearing=3")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    assert (met.creature, met.appearing, met.reaction) == ("Ghouls", 3, "")
    assert [f.name for f in made.state.foes[4:]] == ["ghouls1", "ghouls2", "ghouls3"]
    made.close()


def test_a_creature_the_game_master_names_is_met_as_named(home: Path) -> None:
    made = crypt(home)
    batch = made.execute("turn hazard=1 creature=skeletons appearing=2 reaction=2")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    assert (met.creature, met.appearing, met.reaction) == (
        "skeletons",
        2,
        "Hostile (attacks at once)",
    )
    assert not any(isinstance(e, ev.DiceRolled) and e.key == "encounter" for e in batch.events)
    made.close()


def test_a_sign_that_foretells_names_the_creature_from_the_areas_table(home: Path) -> None:
    made = crypt(home)
    batch = made.execute("turn hazard=5 encounter=6")
    [sign] = [e for e in batch.events if isinstance(e, ev.SignFound)]
    assert isinstance(sign, ev.SignFound)
    assert (sign.creature, sign.foretells) == ("The chapel's ghost", True)
    assert made.state.sign == "The chapel's ghost"
    batch = made.execute("turn hazard=1 reaction=11")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    assert (met.creature, met.foretold, met.appearing) == ("The chapel's ghost", True, 1)
    told = " ".join(export(made, "txt").split())
    assert "It is a sign of The chapel's ghost: the next encounter is that creature." in told
    assert (
        "Encounter with 1 × The chapel's ghost, as the sign foretold (Level 1: the chapel)!" in told
    )
    assert "Reaction: Indifferent (uninterested; may talk)." in told
    made.close()


def test_without_tables_an_encounter_is_as_before(home: Path) -> None:
    made = Expedition.create(home / "plain.delve", find("delving"), seed=5)
    batch = made.execute("turn hazard=1")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert met == ev.EncounterBegan(
        text=met.text, creature="", foretold=False, players=met.players
    )  # no area, no number, no reaction
    with pytest.raises(CommandError, match="'encounter=' was given but nothing"):
        made.execute("turn hazard=1 encounter=2")
    made.close()


# What tells it: exports, import, status, the table ---------------------------------------------


def test_exports_tell_the_tables_and_an_export_imports_identically(home: Path) -> None:
    made = crypt(home)
    made.execute("turn hazard=1 encounter=1 appearing=5 reaction=3")
    made.execute("area level-2")
    markdown = export(made, "md")
    assert "The expedition carries the adventure's tables: The Crypt of the Ash-King." in markdown
    assert "Encounter with 5 × Giant rats (Level 1: the chapel)!" in markdown
    assert "Reaction: Unfriendly (may attack)." in markdown
    assert "The party enters Level 2: the ossuary" in markdown
    document = export(made, "json")
    source = home / "crypt.json"
    source.write_text(document, encoding="utf-8")
    state = made.state
    made.close()
    with Expedition.open(import_file(source, "copy")) as copy:
        assert copy.state == attrs.evolve(state, name=copy.state.name)


def test_an_import_refuses_an_area_its_tables_do_not_have(home: Path) -> None:
    made = crypt(home)
    made.execute("area level-2")
    document = export(made, "json").replace('"area": "level-2"', '"area": "level-9"')
    made.close()
    source = home / "forged.json"
    source.write_text(document, encoding="utf-8")
    with pytest.raises(Exception, match="'level-9' is not an area of the tables"):
        import_file(source, "forged")


def test_new_with_tables_and_status_json(home: Path) -> None:
    made = delvetui(
        home, "new", "deep", "--procedure", "delving", "--seed", "2", "--tables", str(CRYPT)
    )
    assert made.returncode == 0, made.stderr
    moved = delvetui(home, "act", "deep", "area", "level-3")
    assert moved.returncode == 0, moved.stderr
    assert "The party enters Level 3: the Ash-King's tomb" in moved.stdout
    status = json.loads(delvetui(home, "status", "deep", "--json").stdout)
    assert status["area"] == "level-3"
    [carried] = status["tables"]
    rows = carried.pop("rows")
    assert carried == {
        "id": "example-crypt",
        "name": "The Crypt of the Ash-King",
        "areas": ["level-1", "level-2", "level-3"],
    }
    # Each area's rows, as the table rolls them now (a row changed at the table shows).
    assert list(rows) == carried["areas"]
    assert rows["level-2"][1] == {"roll": "4-5", "creature": "Ghouls", "number": "1d4", "text": ""}
    text = delvetui(home, "status", "deep").stdout
    assert "Area: Level 3: the Ash-King's tomb" in text


def test_new_with_a_bad_tables_file_makes_nothing(home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("id = 'x'\nname = 'X'\n\x1b[2J = 1\n", encoding="utf-8")
    made = delvetui(home, "new", "nope", "--procedure", "delving", "--tables", str(bad))
    assert made.returncode == 2
    assert "\x1b" not in made.stderr
    assert "bad.toml has" in made.stderr
    assert not list(home.glob("**/nope*"))


def test_act_tables_add_and_an_expedition_without_tables_keeps_its_status(home: Path) -> None:
    cli_support.made(home, "later", "delving")
    plain = json.loads(delvetui(home, "status", "later", "--json").stdout)
    assert "area" not in plain and "tables" not in plain
    added = delvetui(home, "act", "later", "tables", "add", str(CRYPT))
    assert added.returncode == 0, added.stderr
    assert "The Crypt of the Ash-King" in added.stdout
    status = json.loads(delvetui(home, "status", "later", "--json").stdout)
    assert status["area"] == "level-1"


@pytest.mark.long
async def test_the_table_shows_the_area_and_takes_tables_add(home: Path) -> None:
    from delvetui.ui.app import DelveApp
    from delvetui.ui.table.command_line import CommandLine

    path = home / "table.delve"
    Expedition.create(path, find("delving"), seed=5).close()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        line = table.query_one(CommandLine)
        assert "Level 1: the chapel" not in screen_text(app)
        await pilot.press("colon", *f"tables add {CRYPT}", "enter")
        await settled(pilot, lambda: expedition(app).state.area == "level-1")
        assert "Level 1: the chapel" in screen_text(app)
        await pilot.press("colon", *"area level-2", "enter")
        await settled(pilot, lambda: expedition(app).state.area == "level-2")
        assert "Level 2: the ossuary" in screen_text(app)
        assert line.message == ""


# The docs' example ---------------------------------------------------------------------------


def test_the_docs_example_of_3_23_loads_and_plays(home: Path, tmp_path: Path) -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("### 3.23") : doc.index("## 4.")]
    blocks = re.findall(r"<!-- adventure -->\s*```toml\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1
    source = tmp_path / "doc-tables.toml"
    source.write_text(blocks[0], encoding="utf-8")
    loaded = tables.load_text(blocks[0])
    made = Expedition.create(home / "doc.delve", find("delving"), seed=1)
    made.execute(f"tables add {source}")
    assert made.state.area == loaded.first_area
    first = loaded.areas[loaded.first_area]
    batch = made.execute("turn hazard=1 encounter=1 appearing=2 reaction=7")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    assert met.creature == first.rows[0].creature
    made.close()


def test_status_json_gives_the_last_encounter_and_keeps_it_after_its_turn(home: Path) -> None:
    """A script reading ``status --json`` learns what the party last met (creature, how
    many, how far, their reaction, the turn, when) and whether it is this turn's."""
    made = delvetui(
        home, "new", "deep", "--procedure", "delving", "--seed", "2", "--tables", str(CRYPT)
    )
    assert made.returncode == 0, made.stderr
    assert status(home, "deep")["encounter"] is None
    played = delvetui(
        home,
        "act",
        "deep",
        "-",
        stdin=(
            "pc add Ash hp=6\nturn hazard=6\n"
            "turn hazard=1 encounter=3 appearing=3 reaction=7\nencounter distance=40ft\n"
        ),
    )
    assert played.returncode == 0, played.stderr
    met = status(home, "deep")["encounter"]
    assert met == {
        "creature": "Grave robbers",
        "text": met["text"],
        "appearing": 4,
        "distance": "40ft",
        "reaction": "Uncertain (waits to see what the party does)",
        "area": "level-1",
        "turn": 2,
        "day": 1,
        "clock": "08:10",
        "this_turn": True,
    }
    later = delvetui(home, "act", "deep", "turn", "hazard=6")
    assert later.returncode == 0, later.stderr
    after = status(home, "deep")
    assert after["encounter"] == met | {"this_turn": False}
    assert after["sign"] is None
