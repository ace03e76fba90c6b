"""Procedure files are validated as data: every problem at once, with its key and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from delvetui.errors import DelveError, ProcedureError
from delvetui.procedure.loader import MAX_FILE_BYTES, load_bytes, load_file, load_text
from delvetui.procedure.registry import find, shipped_dir
from delvetui.procedure.writer import dump

MINIMAL = """\
id = "tiny"
name = "Tiny"
source = "none"
summary = "A tiny test procedure."
default_action = "walk"

[actions.walk]
label = "Walk"

[rolls.hazard]
label = "Hazard"
table = "hazard"

[tables.hazard]
label = "Hazard"
dice = "d6"

[[tables.hazard.rows]]
roll = "1-3"
label = "Encounter"
effects = [{ do = "encounter" }]

[[tables.hazard.rows]]
roll = "4-6"
label = "Nothing"
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ProcedureError) as caught:
        load_text(text, source="test.toml")
    return [str(problem) for problem in caught.value.problems]


def test_minimal_procedure_loads() -> None:
    procedure = load_text(MINIMAL)
    assert procedure.id == "tiny"
    assert procedure.tables["hazard"].rows[0].effects[0].do == "encounter"


@pytest.mark.parametrize("path", sorted(shipped_dir().glob("*.toml")), ids=lambda p: p.stem)
def test_every_shipped_procedure_loads_and_round_trips_through_the_writer(path: Path) -> None:
    procedure = load_file(path)
    assert procedure.id == path.stem  # registry.find opens a shipped procedure by its file name
    # The source is named by its title only: a file name such as 000_461e076bb7b1234e.txt
    # means nothing to a game master and is never shown; the file's comment names it.
    assert procedure.source and ".txt" not in procedure.source
    # A procedure follows one of the seed texts, or a published text its header names with
    # its address and licence (and `source` names it too).
    text = path.read_text()
    seed = re.search(r"^# Follows shared/seeds/00[0-4]_[0-9a-f]{16}\.txt", text, re.M)
    published = re.search(r"^# Source: ", text, re.M) and re.search(r"^# .*licen[cs]", text, re.M)
    assert seed or (published and "https://" in procedure.source)
    assert procedure.default_action in procedure.actions
    assert load_text(dump(procedure)) == procedure


def test_unknown_key_is_reported_with_its_line_and_the_nearest_valid_key() -> None:
    found = problems(MINIMAL.replace('label = "Walk"', 'lable = "Walk"'))
    assert found == [
        "line 8: actions.walk.lable: 'lable' is not a key of actions.walk. Did you mean 'label'?",
        "line 7: actions.walk: is missing the key 'label'.",
    ]


def test_every_problem_is_reported_at_once() -> None:
    text = MINIMAL.replace('dice = "d6"', 'dice = "d8"').replace(
        'default_action = "walk"', 'default_action = "run"\nversion = "one"'
    )
    found = problems(text)
    assert any("version: should be a whole number, not the text 'one'" in p for p in found)
    # The wrong type stops the whole-file checks; fix it and the rest appear together.
    found = problems(text.replace('version = "one"\n', ""))
    assert any("no row covers 7-8" in p for p in found)
    assert any("names the action 'run', which does not exist" in p for p in found)


def test_overlapping_ranges_name_the_row() -> None:
    found = problems(MINIMAL.replace('roll = "4-6"', 'roll = "3-6"'))
    assert found == [
        "line 24: tables.hazard.rows[1].roll: 3 is also covered by row 1; ranges overlap."
    ]


def test_wrong_types_and_missing_keys() -> None:
    found = problems(
        MINIMAL.replace('[actions.walk]\nlabel = "Walk"', "[actions.walk]\nturns = 'x'")
    )
    assert "line 8: actions.walk.turns: should be a whole number, not the text 'x'." in found
    assert "line 7: actions.walk: is missing the key 'label'." in found


def test_unknown_effect_suggests_the_nearest() -> None:
    found = problems(MINIMAL.replace('do = "encounter"', 'do = "encounterr"'))
    assert len(found) == 1
    assert "'encounterr' is not an effect" in found[0]
    assert "Did you mean 'encounter'?" in found[0]
    assert found[0].startswith("line 21:")


def test_references_to_things_that_do_not_exist() -> None:
    text = MINIMAL.replace('table = "hazard"\n\n[tables', 'table = "hazzard"\n\n[tables')
    found = problems(text)
    assert any("names the table 'hazzard', which does not exist (hazard)" in p for p in found)


def test_syntax_error_reports_line_and_column() -> None:
    found = problems(MINIMAL.replace('label = "Walk"', 'label = "Walk'))
    assert len(found) == 1
    assert found[0].startswith("line 8: is not valid TOML at column")


def test_bad_dice_and_ids() -> None:
    found = problems(
        MINIMAL.replace('dice = "d6"', 'dice = "1000000d6"').replace('"tiny"', '"Tiny Game"')
    )
    assert any("id: should be lower-case" in p for p in found)
    assert any("rolls 1000000 dice" in p for p in found)


def test_size_limit_and_encoding_are_checked_before_parsing() -> None:
    with pytest.raises(ProcedureError, match="at most 256 KB"):
        load_bytes(b"#" * (MAX_FILE_BYTES + 1), source="big.toml")
    with pytest.raises(ProcedureError, match="not valid UTF-8") as caught:
        load_bytes(b'id = "x"\nname = "\xff"\n', source="bad.toml")
    assert caught.value.problems[0].line == 2


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    deep = "x = " + "[" * 1000 + "]" * 1000 + "\n"
    assert problems(deep)
    deep_table = MINIMAL + "[actions.walk.distance]\n" + "a = { " * 200 + "}" * 200
    assert problems(deep_table)


def test_control_characters_in_labels_are_refused() -> None:
    found = problems(MINIMAL.replace('label = "Walk"', 'label = "Wa\\u001b[31mlk"'))
    assert found == [
        "line 8: actions.walk.label: contains a control character (␛); use plain text."
    ]


def test_a_text_longer_than_a_few_pages_is_refused() -> None:
    found = problems(MINIMAL.replace('label = "Walk"', f'label = "{"w" * 10_001}"'))
    assert found == [
        "line 8: actions.walk.label: is 10,001 characters long; a text holds at most 10,000."
    ]
    longest = load_text(MINIMAL.replace('label = "Walk"', f'label = "{"w" * 10_000}"'))
    assert len(longest.actions["walk"].label) == 10_000


def test_markup_in_labels_is_just_text() -> None:
    procedure = load_text(MINIMAL.replace('label = "Walk"', 'label = "[bold]Walk[/] <b>"'))
    assert procedure.actions["walk"].label == "[bold]Walk[/] <b>"


def test_find_never_takes_a_game_masters_file_for_a_shipped_procedure(home: Path) -> None:
    """Rule: a file of the game master's with a shipped id is refused (it is listed as one
    that cannot be used), so the shipped procedure keeps its rules, whatever the file is
    called; one with an id of its own is theirs, and one that cannot be used is found by
    its file's name with its problems."""
    delving = (shipped_dir() / "delving.toml").read_text()
    mine = home / "procedures"
    mine.mkdir()
    assert find("delving").name == "Delving"  # none of the game master's own yet
    (mine / "a-copy.toml").write_text(delving.replace('name = "Delving"', 'name = "Mine"'))
    (mine / "delving.toml").write_text("id = 'delving'\n")  # the game master's, broken
    assert find("delving").name == "Delving"
    (mine / "c.toml").write_text(delving.replace('id = "delving"', 'id = "homebrew"'))
    assert find("homebrew").name == "Delving"
    (mine / "broken.toml").write_text("id = 'broken'\n")
    with pytest.raises(ProcedureError, match="default_action"):
        find("broken")
    with pytest.raises(DelveError, match="There is no procedure 'nothing'"):
        find("nothing")


def test_a_bad_modifier_range_and_bad_rolled_turns_name_their_keys() -> None:
    """A score range of `[party] modifiers` that is not one, and `turns_dice` that do not
    parse, are reported with their keys, together."""
    text = (
        MINIMAL
        + '\n[party]\nmodifiers = { "13-15" = 1, "high" = 3, "9-5" = 0 }\n'
        + '\n[lights.torch]\nlabel = "Torch"\nturns_dice = "1d4+"\n'
    )
    found = problems(text)
    assert any("party.modifiers.high" in p for p in found)
    assert any("party.modifiers.9-5" in p for p in found)
    assert any("lights.torch.turns_dice" in p for p in found)


def test_a_short_label_longer_than_eight_characters_is_refused_where_it_is() -> None:
    """A track's, a counter's or a resource's `short` is what a narrow table heads a column
    with: eight characters at most, each named with its line."""
    extra = """
[tracks.awake]
label = "Hours without sleep"
short = "Sleepless"

[counters.alarm]
label = "Alarm"
short = "Alarm"

[resources.oil]
label = "Oil flasks"
short = "Oil flasks"
"""
    found = problems(MINIMAL + extra)
    assert found == [
        "line 37: resources.oil.short: should be at most 8 characters (it is shown where the "
        "label does not fit); it has 10.",
        "line 29: tracks.awake.short: should be at most 8 characters (it is shown where the "
        "label does not fit); it has 9.",
    ]
    fixed = extra.replace("Sleepless", "Awake").replace('short = "Oil flasks"\n', "")
    fits = load_text(MINIMAL + fixed)
    assert fits.tracks["awake"].short == "Awake"
    assert fits.counters["alarm"].short == "Alarm"
