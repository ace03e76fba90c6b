"""Wandering-monster tables as a game master pastes them: plain text, Markdown and CSV,
converted to the adventure's tables, every problem named by its line (issue 40, point 7).

The tables below follow the forms real published tables are printed in (the creatures and
numbers are this suite's own): a die and a name above the rows ("d6 Level 1"); a "1d6 Roll
Encounter" header under a title; "2 to 3 : 1d6 ghouls" rows under "(Roll 2d6)"; a d30
table of "1-2: 1d2 bandits" rows under a sentence that names the die; a Markdown d20
table with a number column; a d% table with en dashes and 00; a CSV with a level column.
Only the forms were taken, as facts, from tables published on the web: theskyfullofdust.co.uk
(catacombs-monsters), swordplusone.blogspot.com (2011/03, the under-city of Ugarit),
castletriskelion.blogspot.com (2014/05, a table with no die named), lordsofhack.com (the
BlueHolme level 0 table), monstro.cc (OSE level 1, a Markdown d20 table) and the Pathfinder
reference document's encounter tables (d% with en dashes); no row of theirs is copied.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delvetui.errors import ProcedureError
from delvetui.procedure import adventure, pasted, table_text
from delvetui.procedure.pasted import convert, detect


def tables(text: str, name: str = "crypt.txt") -> adventure.Adventure:
    converted = convert(text, name=name)
    # What is converted is a tables file like any other: the format's own check reads it.
    assert adventure.load_text(converted.toml) == converted.adventure
    return converted.adventure


def problems(text: str, name: str = "crypt.txt") -> list[str]:
    with pytest.raises(ProcedureError) as caught:
        convert(text, name=name)
    return [str(problem) for problem in caught.value.problems]


def rows(area: adventure.Area) -> list[tuple[str, str, str, str]]:
    return [(row.roll, row.number, row.creature, row.text) for row in area.rows]


# Plain text ----------------------------------------------------------------------------------

LEVELS = """\
Wandering monsters of the flooded crypt

d6 Level 1
1 2d4 goblins
2-3 1d6 giant rats, nesting in the bones
4-6 1d3 skeletons

d8 Level 2
1-2: 1d4 ghouls
3 to 5 : 2d6 zombies
6 The drowned priest (area 12)
7-8 1 shadow
"""


def test_a_die_and_a_name_begin_each_table_and_its_rows_keep_their_number() -> None:
    found = tables(LEVELS, "flooded-crypt.txt")
    assert found.id == "flooded-crypt"
    assert found.name == "Wandering monsters of the flooded crypt"
    assert found.start == "level-1"
    assert list(found.areas) == ["level-1", "level-2"]
    first, second = found.areas["level-1"], found.areas["level-2"]
    assert (first.label, first.dice, second.label, second.dice) == (
        "Level 1",
        "d6",
        "Level 2",
        "d8",
    )
    assert rows(first) == [
        ("1", "2d4", "goblins", ""),
        ("2-3", "1d6", "giant rats", "nesting in the bones"),
        ("4-6", "1d3", "skeletons", ""),
    ]
    assert rows(second) == [
        ("1-2", "1d4", "ghouls", ""),
        ("3-5", "2d6", "zombies", ""),
        ("6", "", "The drowned priest", "(area 12)"),
        ("7-8", "1", "shadow", ""),
    ]


def test_a_header_of_column_words_takes_its_name_from_the_title_above() -> None:
    text = """\
The Salt Caves: what wanders

Wandering Monsters of the Lower Caves

Every two turns, roll for a wandering monster; one comes on a 1 in 6. Use the table below.

1d6 Roll Encounter
1  1d2 cave bears hunting for the party's rations
2  1d4 blind newts, slow
3  2d6 kobolds carrying a
   stolen bell
4  1d6 giant crabs
5   1d4 salt mummies
6 Special: roll on the table below

If the special comes up, roll below:

1d6 Roll Special Encounter
1  The hermit from the shrine
2  1d4 lost miners
3  A drift of grey ooze on the ceiling, ready to drop
4  1 wight
5-6 2d4 crab-folk
"""
    found = tables(text, "salt-caves.txt")
    assert found.name == "The Salt Caves: what wanders"
    assert list(found.areas) == ["wandering-monsters-of-the-lower-caves", "special"]
    lower = found.areas["wandering-monsters-of-the-lower-caves"]
    assert lower.dice == "1d6"
    # A row's words a PDF broke onto the next line join the row.
    assert rows(lower)[2] == ("3", "2d6", "kobolds carrying a stolen bell", "")
    assert rows(lower)[5] == ("6", "", "Special", "roll on the table below")
    special = found.areas["special"]
    assert rows(special)[2] == ("3", "", "A drift of grey ooze on the ceiling", "ready to drop")


def test_the_die_in_a_title_and_the_die_a_sentence_names_only_by_the_rows() -> None:
    text = """\
First Level Wanderers (Roll 2d6)
2 to 3 : 1d6 ghouls
4 to 5 : 2d6 skeletons
6 to 8 : 2d6 cultists*
9 to 10 : 2d6 giant rats
11 to 12 : 1d6 zombies
*The cultists wear green and carry curved daggers.
"""
    found = tables(text)
    [area] = found.areas.values()
    assert (area.label, area.dice) == ("First Level Wanderers", "2d6")
    assert rows(area)[2] == ("6-8", "2d6", "cultists*", "")
    # The die a sentence mentions is the text's, not the table's: the rows say it (1-30).
    thirty = "Roll 1d30 to find the monster and how many.\n" + "\n".join(
        f"{n}: 1d2 bandit {n}" for n in range(1, 31)
    )
    [area] = tables(thirty, "level-0.txt").areas.values()
    assert (area.label, area.dice, len(area.rows)) == ("level-0", "d30", 30)


def test_rows_from_2_to_12_roll_2d6_and_a_lone_unnamed_table_takes_the_files_name() -> None:
    text = "\n".join(f"{n} 1d4 bats" for n in range(2, 13))
    [(area_id, area)] = tables(text, "Bat Cave.txt").areas.items()
    assert (area_id, area.label, area.dice) == ("bat-cave", "Bat Cave", "2d6")


def test_faces_as_printed_plus_to_the_top_and_hundreds() -> None:
    text = "d100 Deep halls\n01-50 1d8 skeletons\n51-95 1 giant spider\n96+ 1 dragon (young)\n"
    [area] = tables(text).areas.values()
    assert [row.roll for row in area.rows] == ["1-50", "51-95", "96-100"]
    text = "d% The ossuary\n01–50 ghouls\n51–98 wights\n99–00 a lich\n"
    [area] = tables(text).areas.values()
    assert (area.dice, [row.roll for row in area.rows]) == ("d100", ["1-50", "51-98", "99-100"])


# Markdown ------------------------------------------------------------------------------------

MARKDOWN = """\
# The Sunken Mill

## Dungeon Level 1

Roll d20 on the table below:

| d20 | Encounter | Number |
|-----|-----------|:------:|
| 1 | Acolyte | 1d8 |
| 2-5 | **Bandit** | 1d8 |
| 6-10 | Fire beetle | 1d8 |
| 11-19 | Goblin | 2d4 |
| 20 | Grey wolf | — |

## The wheel pit

| d% | Encounter | Avg. CR |
|---|---|---|
| 01–50 | 1d8 skeletons | 2 |
| 51–98 | 1 giant spider | 1 |
| 99–00 | 1 blue dragon (adult) | 13 |

- 1: a plain list is a table too
- 2: with its own faces
"""


def test_markdown_tables_with_a_die_column_a_number_column_and_other_columns() -> None:
    converted = convert(MARKDOWN, name="mill.md")
    assert converted.said == "Markdown"
    found = converted.adventure
    assert found.name == "The Sunken Mill"
    first = found.areas["dungeon-level-1"]
    assert first.dice == "d20"
    assert rows(first)[1] == ("2-5", "1d8", "Bandit", "")
    assert rows(first)[4] == ("20", "", "Grey wolf", "")
    pit = found.areas["the-wheel-pit"]
    assert pit.dice == "d100"
    # A column the format has no key for is kept in the row's words.
    assert rows(pit) == [
        ("1-50", "1d8", "skeletons", "Avg. CR: 2"),
        ("51-98", "1", "giant spider", "Avg. CR: 1"),
        ("99-100", "1", "blue dragon", "(adult); Avg. CR: 13"),
    ]
    listed = [row.creature for row in found.areas["table-3"].rows]
    assert listed == ["a plain list is a table too", "with its own faces"]


def test_a_heading_that_names_the_die_fills_the_markdown_table_under_it() -> None:
    text = "## Level 3 (d4)\n\n| Roll | Monster |\n|---|---|\n| 1-2 | 2d4 orcs |\n| 3-4 | ogre |\n"
    [(area_id, area)] = tables(text).areas.items()
    assert (area_id, area.dice, rows(area)[0]) == ("level-3", "d4", ("1-2", "2d4", "orcs", ""))


# CSV -----------------------------------------------------------------------------------------


def test_a_csv_with_a_header_a_level_column_and_notes() -> None:
    text = (
        "Level,Roll,Monster,Number,Notes\n"
        "1,1-3,Giant rats,2d4,\n"
        '1,4-6,Skeletons,1d3,"in rusted mail, slow"\n'
        "2,1-2,Ghouls,1d4,\n"
        '2,3-4,"Bandits; led by Ulf",1d6+2,\n'
    )
    converted = convert(text, name="crypt.csv")
    assert converted.said == "CSV"
    found = converted.adventure
    assert list(found.areas) == ["level-1", "level-2"]
    assert found.areas["level-1"].dice == "d6" and found.areas["level-2"].dice == "d4"
    assert rows(found.areas["level-1"])[1] == (
        "4-6",
        "1d3",
        "Skeletons",
        "Notes: in rusted mail, slow",
    )
    assert rows(found.areas["level-2"])[1] == ("3-4", "1d6+2", "Bandits", "led by Ulf")


def test_a_csv_with_semicolons_and_the_die_in_its_header() -> None:
    text = "d4;creature;number\n1;rats;2d4\n2-4;bats;1d6\n"
    [area] = tables(text, "pit.csv").areas.values()
    assert (area.dice, rows(area)) == ("d4", [("1", "2d4", "rats", ""), ("2-4", "1d6", "bats", "")])


def test_the_kind_of_file_from_its_name_else_its_first_line() -> None:
    assert detect("crypt.toml", "d6 Level 1") == pasted.TOML
    assert detect("crypt.CSV", "") == pasted.CSV
    assert detect("crypt.md", "d6,rats") == pasted.TEXT
    assert detect("crypt", 'id = "crypt"\n') == pasted.TOML
    assert detect("crypt", "\n[areas.level-1]\n") == pasted.TOML
    assert detect("crypt", "d6,creature,number\n1-6,rats,2d4\n") == pasted.CSV
    assert detect("crypt", "Roll;Monster\n") == pasted.CSV
    assert detect("crypt", "d6 Level 1\n1-2: 2d4 rats, fat\n") == pasted.TEXT


# Every problem, by its line --------------------------------------------------------------------

BAD = """\
d6 Level 1
1 2d4 goblins
3-5 1d3 skeletons
4-6 ghouls
7 bats

d7x Level 2
1 rats

Level 3
1-2 2-8 orcs
3 0 kobolds
4 2d wolves
5
6-4 bears
7 1d6-3 snakes
8 zombies
"""


def test_every_problem_is_named_by_its_line() -> None:
    assert problems(BAD) == [
        "line 1: the d6 table 'Level 1' has no row for 2; give every face of the die a row.",
        "line 4: 4-6 overlaps the row of line 3 (3-5); each face of the die belongs to one row.",
        "line 5: 7 is outside what d6 rolls (1-6).",
        "line 7: 'd7x' is not a dice expression: expected something like d6, 2d6+1, 2d20kh1 "
        "or 2-in-6. Name the table's die as d6, 2d6 or d100.",
        "line 11: '2-8' is a range, not dice: write the dice that roll it (2d4).",
        "line 12: '0' appearing: write 1 to 999, or dice such as 2d4.",
        "line 13: '2d' is not a dice expression: expected something like d6, 2d6+1, 2d20kh1 "
        "or 2-in-6. Write the number appearing as 2d4, or 3.",
        "line 14: the row 5 names no creature; write it after the number appearing.",
        "line 15: '6-4' runs backwards; write the lower face first (4-6).",
        "line 16: '1d6-3' is not a number appearing (it can roll -2 to 3); write dice that "
        "roll 1 to 999, such as 2d4.",
    ]


def test_the_die_the_rows_do_not_say_two_tables_of_one_name_and_an_empty_one() -> None:
    assert problems("Level 1\n3 rats\n5 bats\n") == [
        "line 2: the table 'Level 1' names no die, and its rows (3-5) do not say one; write "
        "it before the rows, as d6 Level 1.",
    ]
    assert problems("Level 1\n3+ rats\n1-2 bats\n")[0].startswith(
        "line 2: the table 'Level 1' has a row running to the die's highest face"
    )
    twice = "d4 Level 1\n1-4 rats\n\nd4 Level 1\n1-4 bats\n"
    assert problems(twice) == [
        "line 4: begins a second table named 'Level 1' (the first is at line 1); give each "
        "table a name of its own."
    ]
    assert problems("d6 Level 1\n\nd4 Level 2\n1-4 bats\n") == [
        "line 1: begins the table 'Level 1', which has no rows."
    ]
    assert problems("Nothing to see here.\nOnly words.\n") == [
        "holds no table: write the die and the table's name (d6 Level 1), then a row a line "
        "(1 2d4 goblins, 4-6 1d3 skeletons); or paste a Markdown table with a die column, or "
        "a CSV file with a header row."
    ]


def test_markdown_and_csv_problems_are_named_by_their_lines_too() -> None:
    text = (
        "## Level 1\n\n| d6 | Monster | No. |\n|---|---|---|\n"
        "| 1-3 | rats | 2-8 |\n| x | bats | 1 |\n| 4-6 | | 1 |\n"
    )
    assert problems(text, "bad.md") == [
        "line 5: '2-8' is a range, not dice: write the dice that roll it (2d4).",
        "line 6: 'x' is not a range of the die's faces; write 3 or 2-4.",
        "line 7: the row 4-6 names no creature; write it after the number appearing.",
    ]
    text = 'd6,monster\n1-3,rats\n4-6,"bats\nand more"\n'
    assert problems(text, "bad.csv") == [
        "line 4: has a cell that runs over two lines; keep a row on one.",
    ]
    # The level column first; the row refused leaves no gap told beside it.
    text = 'Level,Roll,Monster\n1,1-3,rats\n1,4-6,"bats\nand more"\n2,1-4,ghouls\n'
    assert problems(text, "bad.csv") == [
        "line 4: has a cell that runs over two lines; keep a row on one.",
    ]
    text = "\ndd6,monster\n1-3,rats\n4-6,bats\n"
    assert problems(text, "bad.csv") == [
        "line 2: 'dd6' is not a dice expression: expected something like d6, 2d6+1, 2d20kh1 "
        "or 2-in-6. Name the table's die as d6, 2d6 or d100.",
    ]


# Hostile text ----------------------------------------------------------------------------------


def test_control_characters_are_refused_by_line_and_never_reach_a_message() -> None:
    text = "d6 Level 1\n1-3 gob\x1b[2Jlins\n4-6 rats\u202e\nd4 Level 2\n1-4 bats\n"
    found = problems(text)
    assert found[0] == "line 2: holds the control character '␛'; paste plain text."
    assert found[1].startswith("line 3: holds the control character ")
    assert len(found) == 2
    assert not any("\x1b" in problem or "\u202e" in problem for problem in found)


def test_numbers_are_bounded_and_never_read_past_four_digits() -> None:
    huge = "9" * 5000  # int() of 5,000 digits would raise: never read
    found = problems(f"d6 Level 1\n1-6 {huge} rats\n")
    assert found[0].startswith("line 2: '9999999999")
    assert problems("d1001 Level 1\n1-1001 rats\n")[0].startswith("line 1: 'd1001' has 1001 sides")
    assert problems(f"d6 Level 1\n1-{huge} rats\n") == [
        "line 2: 1-10000 is outside what d6 rolls (1-6)."
    ]
    # Another script's digits and superscripts are words, not numbers.
    assert rows(tables("d6 Level 1\n1-6 ² rats\n").areas["level-1"]) == [("1-6", "", "² rats", "")]


def test_too_many_rows_and_tables_are_refused_and_the_problems_counted() -> None:
    many_rows = "d200 Level 1\n" + "\n".join(f"{n} rats" for n in range(1, 202))
    assert problems(many_rows) == [
        "line 102: is row 101 of 'Level 1'; a table may have at most 100."
    ]
    many_tables = "\n".join(f"d2 Level {n}\n1-2 rats" for n in range(1, 63))
    assert problems(many_tables)[0] == "line 121: begins table 61; a file may hold at most 60."
    noisy = "d6 Level 1\n" + "\n".join("1 rats\x07" for _ in range(300))
    found = problems(noisy)
    assert len(found) == 101 and found[-1] == "… and 200 more problems."


def test_a_long_hostile_line_costs_one_pass() -> None:
    # Runs of spaces and dashes that a careless pattern would try at every start.
    line = "1" + " " * 60_000 + "x"
    [area] = tables(f"d1 Level 1\n{line}\n".replace("d1 ", "d2 ") + "2 bats\n").areas.values()
    assert rows(area)[0] == ("1", "", "x", "")
    assert problems("d6 Level 1\n1-6 rats" + ", -" * 20_000 + "\n")[0].startswith("line 2: ")
    # Words wrapped onto thirty thousand lines are joined once.
    wrapped = "d6 Level 1\n1-6 rats\n" + " x\n" * 20_000
    assert problems(wrapped) == [
        "line 2: the row 1-6 names a creature of 40004 characters (at most 80); put a comma "
        "after its name, and what follows becomes the row's words."
    ]


# A row as printed, read one at a time (the table's dialog types these) ---------------------------


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("4-6 1d3 skeletons", ("1d3", "skeletons", "")),
        ("1-2: 1d2 bandits, AC 6", ("1d2", "bandits", "AC 6")),
        ("2 to 3 : 1d6 ghouls", ("1d6", "ghouls", "")),
        ("3 goblins (2d4)", ("2d4", "goblins", "")),
        ("5 orcs 2d4", ("2d4", "orcs", "")),
        ("6 Special: roll on the table below", ("", "Special", "roll on the table below")),
        ("12   dungeon dressing", ("", "dungeon dressing", "")),
        ("4-5-dwarves", ("", "dwarves", "")),
    ],
)
def test_one_row_as_printed(line: str, read: tuple[str, str, str]) -> None:
    entry = table_text.read_row(line).entry
    assert (entry.number, entry.creature, entry.text) == read


# Any text at all -------------------------------------------------------------------------------

_HEADERS = ["d6", "d%", "2d6", "d0", "Level 1", "## Level 2 (d8)", "| d6 | Monster |"]
_ROWS = ["1", "2-3", "4 to 6", "00", "11+", "9999", "0", "2d4", "1d6-3", "2-8", "goblins"]
_MARKS = [",", ":", "|", "|---|---|", "-", "(", ")", "\t", " ", "\n", "\x1b", "\u202e", "é"]
_PIECES = st.sampled_from([*_HEADERS, *_ROWS, *_MARKS, "²", "#", "**", "\n1 ", "\nd4 "])


@settings(max_examples=200, deadline=None)
@given(
    pieces=st.lists(st.one_of(_PIECES, st.text(max_size=6)), max_size=60),
    name=st.sampled_from(["t.txt", "t.md", "t.csv", "t"]),
)
def test_any_text_is_tables_the_format_reads_or_problems_with_their_lines(
    pieces: list[str], name: str
) -> None:
    text = " ".join(pieces)
    try:
        converted = convert(text, name=name)
    except ProcedureError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.line is None or 1 <= problem.line <= text.count("\n") + 2
            assert "\x1b" not in problem.message and "\u202e" not in problem.message
        return
    # What converts is a tables file the format takes, and reads back the same.
    assert adventure.load_text(converted.toml) == converted.adventure
