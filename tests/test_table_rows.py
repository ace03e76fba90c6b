"""Tables a game master pastes, carried and changed at the table: ``tables add`` of a table
as printed, a row added, changed or taken out (an event; undo takes it back; the log, the
exports and ``status --json`` say it), the CLI as a subprocess and the dialog from the keys
(issue 40, point 7)."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delvetui.core import events as ev
from delvetui.core import log, table_rows
from delvetui.core.areas import carried
from delvetui.core.commands.completion import completions
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export
from delvetui.export.importing import import_file
from delvetui.procedure import tables_file
from delvetui.procedure.adventure import Encounter, load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui, status
from tests.ui_support import expedition, make, notices, palette_run, ready, settled

PASTED = """\
Wandering monsters of the flooded crypt

d6 Level 1
1 2d4 goblins
2-3 1d6 giant rats, nesting in the bones
4-6 1d3 skeletons

d8 Level 2
1-2: 1d4 ghouls
3-8 2d6 zombies
"""


def pasted(folder: Path, name: str = "crypt.txt", text: str = PASTED) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def crypt(home: Path, tmp_path: Path) -> Expedition:
    made = Expedition.create(home / "crypt.delve", find("delving"), seed=5)
    made.execute(f"tables add {pasted(tmp_path)}")
    return made


def table(made: Expedition, area: str = "level-1") -> list[tuple[str, str, str]]:
    rows = carried(made.state)["crypt"].areas[area].rows
    return [(row.roll, row.number, row.creature) for row in rows]


def last_line(made: Expedition) -> str:
    """The log's last line, as the table and every export say it."""
    return list(log.lines(made.batches(), made.procedure))[-1].text


# A table as printed, carried ----------------------------------------------------------------


def test_tables_add_converts_a_pasted_table_and_an_encounter_comes_with_its_number(
    home: Path, tmp_path: Path
) -> None:
    made = crypt(home, tmp_path)
    [added] = [e for b in made.batches() for e in b.events if isinstance(e, ev.TablesAdded)]
    assert isinstance(added, ev.TablesAdded)
    # The expedition keeps the TOML the table converts to, never the pasted text.
    assert added.text.startswith('id = "crypt"\nname = "Wandering monsters of the flooded crypt"')
    assert made.state.area == "level-1"
    batch = made.execute("turn hazard=1 encounter=5 appearing=2")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    assert (met.creature, met.appearing, met.area) == ("skeletons", 2, "level-1")
    made.close()


def test_a_bad_pasted_table_is_refused_with_its_lines_and_writes_nothing(
    home: Path, tmp_path: Path
) -> None:
    made = Expedition.create(home / "bad.delve", find("delving"), seed=5)
    before = (made.batch_count, made.event_count)
    bad = pasted(
        tmp_path, "bad.md", "| d6 | Monster |\n|---|---|\n| 1-3 | rats |\n| 3-6 | 2-8 orcs |\n"
    )
    with pytest.raises(ProcedureError) as refused:
        made.execute(f"tables add {bad}")
    assert [str(p) for p in refused.value.problems] == [
        "line 4: '2-8' is a range, not dice: write the dice that roll it (2d4).",
    ]
    assert (made.batch_count, made.event_count) == before
    made.close()


# Rows changed at the table -------------------------------------------------------------------


def test_a_row_added_takes_its_faces_from_the_rows_that_had_them(
    home: Path, tmp_path: Path
) -> None:
    made = crypt(home, tmp_path)
    batch = made.execute("tables row level-1 5 2d6 bats, squeaking")
    assert batch.events == (
        ev.TableRowSet(area="level-1", roll="5", creature="bats", number="2d6", text="squeaking"),
    )
    assert table(made) == [
        ("1", "2d4", "goblins"),
        ("2-3", "1d6", "giant rats"),
        ("4", "1d3", "skeletons"),
        ("5", "2d6", "bats"),
        ("6", "1d3", "skeletons"),
    ]
    assert last_line(made) == (
        "Level 1's table (d6): 5 2d6 bats, squeaking; skeletons now on 4, 6."
    )
    # An encounter rolled on the new row comes in with its number.
    batch = made.execute("turn hazard=1 encounter=5 appearing=7")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    assert (met.creature, met.appearing) == ("bats", 7)
    made.close()


def test_a_row_changed_and_one_taken_out_and_undo_takes_each_back(
    home: Path, tmp_path: Path
) -> None:
    made = crypt(home, tmp_path)
    first = table(made)
    made.execute("tables change level-1 2-3 2 to 4 1d8 giant rats")
    assert table(made) == [
        ("1", "2d4", "goblins"),
        ("2-4", "1d8", "giant rats"),
        ("5-6", "1d3", "skeletons"),
    ]
    assert last_line(made) == (
        "Level 1's table (d6): 2-4 1d8 giant rats (was 2-3 1d6 giant rats, nesting in the "
        "bones); skeletons now on 5-6."
    )
    changed = table(made)
    made.execute("tables remove level-1 1")
    assert table(made) == [("1-4", "1d8", "giant rats"), ("5-6", "1d3", "skeletons")]
    assert last_line(made) == (
        "Level 1's table (d6): 1 2d4 goblins taken out; giant rats now on 1-4."
    )
    made.execute("undo")
    assert table(made) == changed
    made.execute("undo")
    assert table(made) == first
    made.execute("redo")
    assert table(made) == changed
    made.close()
    # The file keeps every change as an event: opened again, the table is as it was left.
    with Expedition.open(home / "crypt.delve") as again:
        assert table(again) == changed


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("tables row level-1 7 rats", "7 is outside what d6 rolls (1-6)."),
        (
            "tables row level-1 rats",
            "'rats' is not a row: write its faces, how many and the "
            "creature, as 4-6 1d3 skeletons.",
        ),
        (
            "tables row level-1 2 2-8 orcs",
            "'2-8' is a range, not dice: write the dice that roll it (2d4).",
        ),
        (
            "tables row level-1 1 2d4 goblins",
            "Level 1's table already has that row; nothing changed.",
        ),
        (
            "tables row level-9 1 rats",
            "'level-9' is not an area of the adventure's tables (level-1, level-2).",
        ),
        (
            "tables change level-1 2 2 rats",
            "No row of Level 1 covers exactly 2 (its rows: 1, 2-3, 4-6).",
        ),
        (
            "tables change level-1 4-6 4-5 skeletons",
            "6 would be left without a row: the only row next to it is the one you change. "
            "Set a row on 6 first (tables row), or let the row you change keep it.",
        ),
        (
            "tables remove level-1 5",
            "No row of Level 1 covers exactly 5 (its rows: 1, 2-3, 4-6).",
        ),
    ],
)
def test_a_row_the_table_cannot_take_is_a_sentence_and_no_event(
    home: Path, tmp_path: Path, command: str, said: str
) -> None:
    made = crypt(home, tmp_path)
    before = (made.batch_count, made.event_count)
    with pytest.raises(CommandError) as refused:
        made.execute(command)
    assert str(refused.value) == said
    assert (made.batch_count, made.event_count) == before
    made.close()


def test_a_row_moved_leaves_its_faces_to_the_row_next_to_them(home: Path, tmp_path: Path) -> None:
    made = crypt(home, tmp_path)
    made.execute("tables change level-1 1 6 2d4 goblins")
    assert table(made) == [
        ("1-3", "1d6", "giant rats"),
        ("4-5", "1d3", "skeletons"),
        ("6", "2d4", "goblins"),
    ]
    assert last_line(made) == (
        "Level 1's table (d6): 6 2d4 goblins (was 1 2d4 goblins); giant rats now on 1-3; "
        "skeletons now on 4-5."
    )
    # A row set inside another cuts it in two: both parts keep the row.
    made.execute("tables row level-1 2 1 ogre")
    assert table(made)[:3] == [
        ("1", "1d6", "giant rats"),
        ("2", "1", "ogre"),
        ("3", "1d6", "giant rats"),
    ]
    made.close()


def test_the_command_line_completes_an_areas_rows_by_their_faces(
    home: Path, tmp_path: Path
) -> None:
    made = crypt(home, tmp_path)
    assert completions("tables ", made.state, made.procedure) == [
        "tables add",
        "tables row",
        "tables change",
        "tables remove",
    ]
    assert completions("tables remove level-1 ", made.state, made.procedure) == [
        "tables remove level-1 1",
        "tables remove level-1 2-3",
        "tables remove level-1 4-6",
    ]
    made.close()


def test_the_last_row_stays_and_no_tables_means_nothing_to_change(
    home: Path, tmp_path: Path
) -> None:
    made = Expedition.create(home / "one.delve", find("delving"), seed=5)
    with pytest.raises(CommandError, match="carries no tables of its own"):
        made.execute("tables row level-1 1 rats")
    pit = pasted(tmp_path, "pit.txt", "d4 The pit\n1-4 1d6 bats\n")
    made.execute(f"tables add {pit}")
    with pytest.raises(CommandError, match="has only this row; change it instead"):
        made.execute("tables remove the-pit 1-4")
    made.close()


# What tells it: the exports, an import, status ------------------------------------------------


def test_exports_tell_the_change_and_an_export_imports_identically(
    home: Path, tmp_path: Path
) -> None:
    made = crypt(home, tmp_path)
    made.execute("tables row level-2 8 1 wight, in the well")
    made.execute("turn hazard=1")
    markdown = export(made, "md")
    assert "Level 2's table (d8): 8 1 wight, in the well; zombies now on 3-7." in markdown
    document = export(made, "json")
    source = tmp_path / "crypt.json"
    source.write_text(document, encoding="utf-8")
    state = made.state
    made.close()
    with Expedition.open(import_file(source, "copy")) as copy:
        assert copy.state == attrs.evolve(state, name=copy.state.name)
    # A row change no command could have made is refused by the import's check.
    forged = document.replace('"roll": "8"', '"roll": "9"')
    assert forged != document
    (tmp_path / "forged.json").write_text(forged, encoding="utf-8")
    with pytest.raises(Exception, match="9 is outside what d8 rolls"):
        import_file(tmp_path / "forged.json", "forged")
    # Nor a creature with a terminal's escape in it, which no row typed could hold.
    forged = document.replace('"creature": "wight"', '"creature": "wight\\u001b[2J"')
    assert forged != document
    (tmp_path / "escape.json").write_text(forged, encoding="utf-8")
    with pytest.raises(Exception, match="control character"):
        import_file(tmp_path / "escape.json", "escape")


def test_the_cli_adds_changes_and_says_the_rows_in_status_json(home: Path, tmp_path: Path) -> None:
    markdown = pasted(
        tmp_path,
        "mill.md",
        "## Cellar\n\n| d6 | Monster | Number |\n|---|---|---|\n| 1-3 | Giant rats | 2d4 |\n"
        "| 4-6 | Eels | 1d6 |\n",
    )
    made = delvetui(home, "new", "mill", "--procedure", "delving", "--tables", str(markdown))
    assert made.returncode == 0, made.stderr
    changed = delvetui(home, "act", "mill", "tables", "row", "cellar", "6", "1", "drowned miller")
    assert changed.returncode == 0, changed.stderr
    assert "Cellar's table (d6): 6 1 drowned miller; Eels now on 4-5." in changed.stdout
    [tables] = status(home, "mill")["tables"]
    assert tables["rows"]["cellar"] == [
        {"roll": "1-3", "creature": "Giant rats", "number": "2d4", "text": ""},
        {"roll": "4-5", "creature": "Eels", "number": "1d6", "text": ""},
        {"roll": "6", "creature": "drowned miller", "number": "1", "text": ""},
    ]
    refused = delvetui(home, "act", "mill", "tables", "remove", "cellar", "2")
    assert refused.returncode == 2
    assert "No row of Cellar covers exactly 2" in refused.stderr


# tables convert -------------------------------------------------------------------------------


def test_tables_convert_prints_or_writes_the_toml_and_names_every_problem(
    home: Path, tmp_path: Path
) -> None:
    source = pasted(tmp_path)
    printed = delvetui(home, "tables", "convert", str(source))
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.startswith('id = "crypt"\n')
    assert (
        '{ roll = "2-3", creature = "giant rats", number = "1d6", text = "nesting in the bones" }'
        in printed.stdout
    )
    out = tmp_path / "crypt.toml"
    written = delvetui(home, "tables", "convert", str(source), "-o", str(out))
    assert written.returncode == 0, written.stderr
    assert written.stdout.splitlines() == [
        str(out),
        "read as plain text: Level 1, d6, 3 rows; Level 2, d8, 2 rows",
    ]
    assert out.read_text(encoding="utf-8") == printed.stdout
    # The TOML it writes is a tables file a game master keeps: tables add takes it as it is.
    again = delvetui(home, "tables", "convert", str(source), "-o", str(out))
    assert again.returncode == 2 and "already exists; add --force" in again.stderr
    kept = delvetui(home, "tables", "convert", str(out))
    assert kept.returncode == 2 and "is a tables file in TOML already" in kept.stderr
    hostile = pasted(tmp_path, "bad.txt", "d6 Level 1\n1-3 gob\x1b[2Jlins\n4-7 rats\n")
    refused = delvetui(home, "tables", "convert", str(hostile))
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert "\x1b" not in refused.stderr
    assert "line 2: holds the control character '␛'; paste plain text." in refused.stderr
    assert "line 3: 4-7 is outside what d6 rolls (1-6)." in refused.stderr


# The table dialog, from the keys and the palette ---------------------------------------------


def made_with_tables(tmp_path: Path) -> Path:
    return make("tabled", (f"tables add {pasted(tmp_path)}",))


@pytest.mark.long
async def test_the_table_dialog_changes_adds_and_takes_out_rows_at_80x24(tmp_path: Path) -> None:
    from textual.widgets import Input

    from delvetui.ui.app import DelveApp
    from delvetui.ui.dialogs.ask import AskScreen
    from delvetui.ui.dialogs.choose import ChooseScreen

    app = DelveApp(made_with_tables(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)

        def level_1() -> tuple[Encounter, ...]:
            return carried(expedition(app).state)["crypt"].areas["level-1"].rows

        def rows() -> list[str]:
            return [row.roll for row in level_1()]

        await pilot.press("W")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        listed = app.screen
        assert isinstance(listed, ChooseScreen)
        assert listed.title_text == "Level 1 (d6)"
        assert [str(prompt) for _, prompt in listed.choices] == [
            "1: 2d4 goblins",
            "2-3: 1d6 giant rats, nesting in the bones",
            "4-6: 1d3 skeletons",
            "+ New row…",
            "Another area…",
        ]
        await pilot.press("3")  # the skeletons' row
        await settled(
            pilot, lambda: isinstance(app.screen, ChooseScreen) and app.screen is not listed
        )
        await pilot.press("enter")  # Change it…
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        asked = app.screen
        assert isinstance(asked, AskScreen)
        field = asked.query_one(Input)
        assert field.value == "4-6 1d3 skeletons"
        # A row the table cannot take is said in the dialog, and nothing is saved: face 6
        # would have no row but the one changed next to it.
        events = expedition(app).event_count
        field.value = "4-5 1d3 skeletons"
        await pilot.press("enter")
        await settled(pilot, lambda: app.screen is asked)
        said = str(asked.query_one("#ask-message").render())
        assert said.startswith("6 would be left without a row")
        assert expedition(app).event_count == events
        field.value = "3-6 1d3 skeletons, in rusted mail"
        await pilot.press("enter")
        await settled(pilot, lambda: rows() == ["1", "2", "3-6"])
        assert app.screen is app.table
        assert last_line(expedition(app)) == (
            "Level 1's table (d6): 3-6 1d3 skeletons, in rusted mail (was 4-6 1d3 skeletons); "
            "giant rats now on 2."
        )
        await pilot.press("W")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("4")  # + New row…, after the rows 1, 2 and 3-6
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"9 rats", "enter")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        new_row = app.screen
        assert isinstance(new_row, AskScreen)
        assert "9 is outside what d6 rolls (1-6)." in str(
            new_row.query_one("#ask-message").render()
        )
        new_row.query_one(Input).value = "6 2d6 rats"
        await pilot.press("enter")
        await settled(pilot, lambda: rows() == ["1", "2", "3-5", "6"])
        assert level_1()[3].creature == "rats"
        # From the palette: take the first row out; u takes it back.
        await palette_run(pilot, "ounter tab")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("1")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("2")  # Take it out
        await settled(pilot, lambda: rows() == ["1-2", "3-5", "6"])
        await pilot.press("u")
        await settled(pilot, lambda: rows() == ["1", "2", "3-5", "6"])


async def test_the_table_key_without_tables_says_so(tmp_path: Path) -> None:
    from delvetui.ui.app import DelveApp

    app = DelveApp(make())
    async with app.run_test(size=(80, 24)) as pilot:
        table_screen = await ready(pilot)
        await pilot.press("W")
        await settled(
            pilot,
            lambda: any("carries no tables of its own" in text for text in notices(app)),
        )
        assert app.screen is table_screen


# The docs' example -----------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_docs_example_of_tables_as_printed_converts_and_plays(
    home: Path, tmp_path: Path
) -> None:
    """docs/procedures.md's pasted file converts to the TOML shown beside it, and the rows
    docs/commands.md changes say what it says they do."""
    doc = (DOCS / "procedures.md").read_text(encoding="utf-8")
    section = doc[doc.index("#### Tables as printed") : doc.index("### 3.23a")]
    [printed] = re.findall(r"<!-- pasted -->\s*```\n(.*?)```", section, re.DOTALL)
    [toml] = re.findall(r"<!-- pasted-toml -->\s*```toml\n(.*?)```", section, re.DOTALL)
    source = pasted(tmp_path, "flooded-crypt.md", printed)
    assert tables_file.convert(source).toml == toml
    made = Expedition.create(home / "doc.delve", find("delving"), seed=1)
    made.execute(f"tables add {source}")
    commands_doc = (DOCS / "commands.md").read_text(encoding="utf-8")
    told = "Level 1's table (d6): 5 2d6 bats; skeletons now on 4, 6."
    assert f"`{told}`" in commands_doc
    for line in ("tables row level-1 5 2d6 bats", "tables change level-1 2-3 2-4 1d6 giant rats"):
        assert f"`{line}`" in commands_doc
    made.execute("tables row level-1 5 2d6 bats")
    assert last_line(made) == told
    made.execute("undo")
    made.execute("tables change level-1 2-3 2-4 1d6 giant rats")
    assert carried(made.state)["flooded-crypt"].areas["level-1"].rows[-1].roll == "5-6"
    made.execute("area level-2")
    batch = made.execute("turn hazard=1 encounter=8")
    [met] = [e for e in batch.events if isinstance(e, ev.EncounterBegan)]
    assert isinstance(met, ev.EncounterBegan)
    assert (met.creature, met.appearing) == ("The drowned priest", 1)
    made.close()


# Every face on one row, whatever is done ---------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["row", "change", "remove"]),
            st.integers(0, 9),
            st.integers(0, 9),
            st.integers(0, 20),
        ),
        max_size=12,
    )
)
def test_rows_set_changed_and_taken_out_keep_every_face_on_one_row(
    steps: list[tuple[str, int, int, int]],
) -> None:
    pit = 'id = "pit"\nname = "Pit"\n[areas.pit]\nlabel = "Pit"\ndice = "d8"\n'
    area = load_text(pit + 'rows = [{ roll = "1-8", creature = "rats" }]\n').areas["pit"]
    for verb, one, other, which in steps:
        low, high = sorted((one % 8 + 1, other % 8 + 1))
        faces = [row.roll for row in area.rows]
        try:
            if verb == "row":
                rows = table_rows.set_rows(area, low, high, Encounter("", f"c{which}"))
            elif verb == "change":
                was = faces[which % len(faces)]
                rows = table_rows.set_rows(area, low, high, Encounter("", f"c{which}"), was)
            else:
                rows = table_rows.removed_rows(area, faces[which % len(faces)])
        except CommandError:
            continue
        area = table_rows.area_with(area, rows)
        spans = table_rows.spans(area)
        assert [face for lo, hi, _ in spans for face in range(lo, hi + 1)] == list(range(1, 9))
