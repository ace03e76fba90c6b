"""The dungeon as a stage (issue 41): rooms from the adventure's file or added at the table,
the party going from room to room, what happened in each, and bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from delvetui.core import events as ev
from delvetui.core import log
from delvetui.core.audit import Audit, Impossible
from delvetui.errors import DelveError, ProcedureError
from delvetui.export import export
from delvetui.procedure import adventure as tables
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui, status

ROOT = Path(__file__).resolve().parent.parent
DUNGEON = ROOT / "docs" / "examples" / "ash-king-dungeon.toml"
DOC = ROOT / "docs" / "procedures.md"


def dungeon(home: Path, name: str = "crypt", procedure: str = "ose") -> Expedition:
    """An expedition carrying the example dungeon, with a party of one."""
    made = Expedition.create(home / f"{name}.delve", find(procedure), seed=5)
    made.execute(f"tables add {DUNGEON}")
    made.execute("pc add Ash hp=8")
    return made


def problems(text: str) -> list[str]:
    with pytest.raises(ProcedureError) as caught:
        tables.load_text(text, source="dungeon.toml")
    return [str(problem) for problem in caught.value.problems]


def log_words(made: Expedition) -> list[str]:
    """The turn log's lines, as the table shows them."""
    return [line.text for line in log.lines(made.batches(), made.procedure)]


def refused(made: Expedition, line: str) -> str:
    """The sentence a command is refused with; nothing was written."""
    before = made.event_count
    with pytest.raises(DelveError) as caught:
        made.execute(line)
    assert made.event_count == before
    return caught.value.message


# The format ----------------------------------------------------------------------------------


def test_the_example_dungeon_has_three_levels_of_thirty_rooms_whose_exits_lead_both_ways() -> None:
    found = tables.load_text(DUNGEON.read_text(encoding="utf-8"))
    assert list(found.areas) == ["level-1", "level-2", "level-3"]
    assert len(found.rooms) == 30
    by_level = {area: [r for r in found.rooms.values() if r.area == area] for area in found.areas}
    assert [len(rooms) for rooms in by_level.values()] == [12, 10, 8]
    for room_id, room in found.rooms.items():
        for other in room.exits:
            assert room_id in found.rooms[other].exits, (room_id, other)
    # The stairs: the chapel's down to the ossuary, the well of bones to the tomb.
    assert "13" in found.rooms["9"].exits and "9" in found.rooms["13"].exits
    assert found.rooms["23"].exits[-1] == "20"
    assert found.restock is not None and found.restock.chance == "1-in-6"
    assert found.restock.rows[0].what == "Monsters"


def test_every_key_of_the_rooms_and_the_restock_is_documented() -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("### 3.23") : doc.index("### 3.23a")]
    for cls in (tables.Room, tables.Restock, tables.RestockRow):
        for field in attrs.fields(cls):
            assert f"| `{field.name}` |" in section, f"{cls.__name__}.{field.name}"
    for key in ("rooms", "restock"):
        assert f"| `{key}` |" in section


_AREA = '[areas.one]\nlabel = "One"\ndice = "d6"\nrows = [{ roll = "1-6", creature = "Rats" }]\n'


def test_a_files_rooms_naming_what_is_not_there_are_every_one_a_problem_with_its_line() -> None:
    text = (
        'id = "bad"\nname = "Bad"\n' + _AREA + '[rooms.1]\narea = "two"\nexits = ["2", "9"]\n'
        '[rooms.2]\nexits = ["2"]\n[rooms.A1]\n[rooms.a1]\n["rooms"."no way"]\n'
        '[restock]\nchance = "d6"\ndice = "d4"\n'
    )
    found = problems(text)
    assert any(
        "line 8: rooms.1.area: names the area 'two', which does not exist" in p for p in found
    )
    assert any(
        "rooms.1.exits[1]: names the room '9', which is not a room of this file" in p for p in found
    )
    assert any("rooms.2.exits[0]: names the room itself" in p for p in found)
    assert any("rooms.a1: is room A1 again" in p for p in found)
    assert any("'no way' is not a room id" in p for p in found)
    assert any("restock.chance: 'd6' is not a chance; write X-in-N" in p for p in found)
    assert any("restock: gives dice and rows together" in p for p in found)


def test_a_thousand_rooms_are_refused_and_the_file_stays_bounded(home: Path) -> None:
    rooms = "".join(f"[rooms.r{n}]\n" for n in range(1000))
    found = problems('id = "big"\nname = "Big"\n' + _AREA + rooms)
    assert found == ["rooms: has 1000 rooms; a file may have at most 500."]
    path = home / "big.toml"
    path.write_text('id = "big"\nname = "Big"\n' + _AREA + rooms, encoding="utf-8")
    made = Expedition.create(home / "big.delve", find("ose"), seed=1)
    assert "at most 500" in refused(made, f"tables add {path}")
    # Past the file's 64 KB the file is refused before it is read as TOML.
    path.write_text(path.read_text() + "# " + "x" * 70_000 + "\n", encoding="utf-8")
    assert "at most 64 KB" in refused(made, f"tables add {path}")


# Going from room to room ---------------------------------------------------------------------


def test_go_moves_the_party_its_area_is_in_use_and_undo_takes_it_back(home: Path) -> None:
    made = dungeon(home, procedure="delving")
    assert made.state.room == "" and made.state.area == "level-1"
    for room in ("1", "2", "3", "4", "8", "9", "13"):
        made.execute(f"go {room}")
    assert made.state.room == "13" and made.state.area == "level-2"
    # The level's table rolls: level 2's d8, a 5 is ghouls.
    made.execute("turn hazard=1 encounter=5 appearing=2")
    assert made.state.last_encounter is not None
    assert made.state.last_encounter.creature == "Ghouls"
    made.execute("undo")
    made.execute("undo")
    assert made.state.room == "9" and made.state.area == "level-1"
    lines = log_words(made)
    assert "The party goes to room 13 (Stair foot): its first visit, explored." in lines
    assert "The party enters Level 2: the ossuary (its encounter table is in use)." in lines


def test_a_room_that_is_not_an_exit_is_refused_unless_the_party_goes_anyway(home: Path) -> None:
    made = dungeon(home)
    made.execute("go 1")
    assert refused(made, "go 30") == (
        "30 is not an exit of 1: Chapel door (its exits: 2); `go 30 anyway` goes there all "
        "the same (a trapdoor, a teleport). Nothing was saved."
    )
    assert refused(made, "go 1") == "The party is already in 1: Chapel door."
    said = refused(made, "go 2a")
    assert said.startswith("There is no room '2a' in the dungeon (1, 2, 3, 4, 5, 6, 7, 8 … and 22")
    made.execute("go 30 anyway")
    assert made.state.room == "30" and made.state.area == "level-3"


def test_each_visit_is_kept_with_its_turn_and_the_first_explores_the_room(home: Path) -> None:
    made = dungeon(home)
    made.execute("go 1")
    made.execute("turn")
    made.execute("go 2")
    made.execute("turn")
    made.execute("turn")
    made.execute("go 1")
    made.execute("go 2")
    room = made.state.find_room("2")
    assert room is not None
    assert room.visits == (2, 4) and room.visited == 2 and room.marks == ("explored",)
    data = made.state.find_room("5")
    assert data is not None and data.marks == ()


def test_marks_and_notes_are_events_and_cleared_and_restocked_exclude_each_other(
    home: Path,
) -> None:
    made = dungeon(home)
    made.execute("go 1")
    made.execute("room 1 +cleared +looted +forced")
    made.execute("room 1 note Ash's map is wrong; the door sticks")
    room = made.state.find_room("1")
    assert room is not None
    assert room.marks == ("explored", "cleared", "looted", "forced")
    assert room.notes == ("Ash's map is wrong; the door sticks",)
    made.execute("room 1 +restocked -forced")
    room = made.state.find_room("1")
    assert room is not None and room.marks == ("explored", "looted", "restocked")
    lines = log_words(made)
    assert "Room 1 (Chapel door) is forced (a door forced)." in lines
    assert "Room 1 (Chapel door) is no longer cleared (restocked now)." in lines
    assert "Note on room 1 (Chapel door): Ash's map is wrong; the door sticks" in lines
    assert refused(made, "room 1 +looted") == (
        "Room 1: Chapel door is already looted; nothing was saved."
    )
    assert refused(made, "room 1 +clered").startswith("'clered' is not a mark of a room")
    made.execute("undo")
    room = made.state.find_room("1")
    assert room is not None and "cleared" in room.marks and "forced" in room.marks


def test_room_add_links_both_ways_in_the_area_in_use_and_refuses_what_is_not_there(
    home: Path,
) -> None:
    made = dungeon(home)
    made.execute("go 1")
    made.execute("room add 31 label='Hidden shrine' exits=1")
    shrine, door = made.state.find_room("31"), made.state.find_room("1")
    assert shrine is not None and door is not None
    assert (shrine.label, shrine.area, shrine.exits) == ("Hidden shrine", "level-1", ("1",))
    assert "31" in door.exits
    made.execute("go 31")
    assert refused(made, "room add 32 exits=40").startswith(
        "There is no room '40' for an exit of 32: add it first"
    )
    assert refused(made, "room add 31").startswith("There is a room 31: Hidden shrine already")
    assert refused(made, "room add b@d").startswith("'b@d' is not a room id")
    assert refused(made, "room add 33 area=level-9").startswith(
        "'level-9' is not an area of the adventure's tables (level-1, level-2, level-3)."
    )
    assert refused(made, "room 99 +cleared").startswith("There is no room '99'")


def test_an_expedition_keeps_at_most_500_rooms(home: Path, tmp_path: Path) -> None:
    rooms = "".join(f'[rooms.r{n}]\nlabel = "Room {n}"\n' for n in range(500))
    path = tmp_path / "big.toml"
    path.write_text('id = "big"\nname = "Big"\n' + _AREA + rooms, encoding="utf-8")
    made = Expedition.create(home / "big.delve", find("ose"), seed=1)
    made.execute(f"tables add {path}")
    assert len(made.state.rooms) == 500
    assert refused(made, "room add r500") == (
        "The dungeon has 500 rooms, the most an expedition keeps; nothing was saved."
    )


def test_a_room_added_at_the_table_cannot_share_an_id_with_a_files_room(home: Path) -> None:
    made = Expedition.create(home / "t.delve", find("ose"), seed=1)
    made.execute("room add 1 label=Gatehouse")
    assert "Room 1 of The Crypt of the Ash-King is already a room, from the table" in refused(
        made, f"tables add {DUNGEON}"
    )


def test_a_tables_file_added_again_keeps_what_happened_in_its_rooms(
    home: Path, tmp_path: Path
) -> None:
    made = dungeon(home)
    made.execute("go 1")
    made.execute("room 1 +cleared")
    made.execute("room add 31 exits=2")
    edited = tmp_path / "edited.toml"
    edited.write_text(
        DUNGEON.read_text(encoding="utf-8").replace('label = "Chapel door"', 'label = "Gate"'),
        encoding="utf-8",
    )
    made.execute(f"tables add {edited}")
    door, narthex = made.state.find_room("1"), made.state.find_room("2")
    assert door is not None and narthex is not None
    assert door.label == "Gate" and door.marks == ("explored", "cleared") and door.visited == 1
    assert "31" in narthex.exits and made.state.room == "1"


def test_a_row_changed_at_the_table_keeps_the_files_rooms_and_restock_rule(home: Path) -> None:
    made = dungeon(home)
    made.execute("go 1")
    made.execute("tables row level-1 1 2d6 bats")
    (text,) = [text for _, text in made.state.adventures]
    again = tables.load_text(text)
    first = tables.load_text(DUNGEON.read_text(encoding="utf-8"))
    assert again.rooms == first.rooms and again.restock == first.restock
    assert again.areas["level-1"].rows[0].creature == "bats"
    made.execute("go 2")
    assert made.state.room == "2" and made.state.area == "level-1"


# Where the party was, said everywhere --------------------------------------------------------


def test_each_turn_says_where_the_party_was_in_the_log_and_every_export(home: Path) -> None:
    made = dungeon(home)
    made.execute("go 1")
    made.execute("turn")
    made.execute("go 2")
    made.execute("turn")
    header = "Turn 2 · day 1, 08:10 · Explore, 120 feet · in 2: Narthex"
    assert header in log_words(made)
    for fmt in ("txt", "md", "html"):
        assert "in 2: Narthex" in export(made, fmt), fmt
    assert '"type": "RoomEntered"' in export(made, "json")
    # The timeline says where: a span for each run of turns in one room.
    picture = export(made, "svg")
    assert ">Rooms</text>" in picture and "<title>2: Narthex, turns 2–2</title>" in picture
    # The picture and the map too: the HTML export draws the rooms the party knows.
    page = export(made, "html")
    assert '<figure class="map">' in page and ">Narthex</text>" in page


def test_status_says_the_room_and_every_room_by_id(home: Path) -> None:
    made = dungeon(home)
    made.execute("go 1")
    made.execute("turn")
    made.execute("go 2")
    made.execute("room 2 +cleared")
    made.execute("room 2 note rats")
    made.close()
    data = status(home, "crypt")
    assert data["room"] == "2"
    assert len(data["rooms"]) == 30
    assert data["rooms"]["2"] == {
        "label": "Narthex",
        "area": "level-1",
        "exits": ["3", "5", "6", "1"],
        "marks": ["explored", "cleared"],
        "visits": [2],
        "visit_count": 1,
        "notes": ["rats"],
        "restocked": None,
    }
    assert data["rooms"]["5"]["marks"] == [] and data["rooms"]["5"]["visits"] == []
    text = delvetui(home, "status", "crypt")
    assert "Room: 2: Narthex (explored, cleared); exits 3, 5, 6, 1" in text.stdout


def test_status_of_an_expedition_without_rooms_says_none(home: Path) -> None:
    Expedition.create(home / "plain.delve", find("delving"), seed=1).close()
    data = status(home, "plain")
    assert data["room"] is None and data["rooms"] == {}


def test_the_command_line_refuses_bad_rooms_with_status_2_and_writes_nothing(home: Path) -> None:
    dungeon(home).close()
    before = status(home, "crypt")["events"]
    for line, said in (
        ("go 99", "There is no room '99'"),
        ("room add 3", "There is a room 3: Nave already"),
        ("room 3 +shiny", "'shiny' is not a mark of a room"),
        ("room 3", "Say what to mark, e.g. room 3 +cleared"),
    ):
        done = delvetui(home, "act", "crypt", *line.split())
        assert done.returncode == 2, line
        assert said in done.stderr, (line, done.stderr)
    assert status(home, "crypt")["events"] == before
    done = delvetui(home, "act", "crypt", "-", stdin="go 1\ngo 2\nroom 2 +cleared\ngo 7\n")
    assert done.returncode == 2 and "line 4: 7 is not an exit of 2: Narthex" in done.stderr
    assert status(home, "crypt")["room"] == "2"


# A log from outside --------------------------------------------------------------------------


def test_an_import_refuses_a_room_event_no_command_could_have_written(home: Path) -> None:
    made = dungeon(home)
    made.execute("go 1")
    data = json.loads(export(made, "json"))
    batches = data["batches"]
    entered = next(e for b in batches for e in b["events"] if e["type"] == "RoomEntered")
    entered["payload"]["room"] = "99"
    audit = Audit(made.procedure)
    from delvetui.core.timeline import Batch

    checked = [
        Batch(
            b["seq"],
            b["command"],
            tuple(
                ev.Event.from_payload(e["type"], e["version"], e["payload"]) for e in b["events"]
            ),
        )
        for b in batches
    ]
    with pytest.raises(Impossible) as caught:
        audit.take_all(checked)
    assert "there is no room '99' at this point" in str(caught.value)


def test_the_players_see_a_rooms_label_only_once_it_is_revealed(home: Path) -> None:
    from delvetui.core.players import reveal_choices, view

    made = dungeon(home)
    made.execute("go 1")
    assert view(made.state, made.procedure).room is None
    assert refused(made, "hide room") == "Room 1: Chapel door is not shown on the players' screen."
    choices = [words for _, words in reveal_choices(made.state, made.procedure)]
    assert "Show the room (Chapel door)" in choices
    made.execute("reveal room")
    assert view(made.state, made.procedure).room == "Chapel door"
    assert "Where: Chapel door" in view(made.state, made.procedure).lines()
    made.execute("go 2")
    assert view(made.state, made.procedure).room is None  # each room is revealed on its own
    made.execute("go 1")
    assert view(made.state, made.procedure).room == "Chapel door"
