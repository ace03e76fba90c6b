"""The delvetui command line, run as a real subprocess as other tools script it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from delvetui.procedure.registry import find
from delvetui.procedure.writer import dump
from delvetui.session import Expedition
from tests import cli_server, cli_support
from tests.cli_support import delvetui, made, status


def test_new_prints_the_path_and_status_has_every_contract_key(home: Path) -> None:
    result = delvetui(
        home, "new", "crypt", "--procedure", "delving", "--seed", "7", "--start", "09:30"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(home / "crypt.delve")
    data = status(home, "crypt")
    for key in (
        "procedure", "turn", "minutes", "clock", "day", "time_dice", "light_level",
        "party", "lights", "counters", "last_hazard", "events",
    ):  # fmt: skip
        assert key in data
    assert data["procedure"] == "delving"
    assert data["clock"] == "09:30" and data["time_dice"] == [6, 3] and data["day"] == 1
    assert data["light_level"] == "dark" and data["last_hazard"] is None
    assert data["events"] == 2  # the start, and the harshness's first value


def test_a_whole_expedition_from_the_shell(home: Path) -> None:
    delvetui(home, "new", "crypt", "--procedure", "delving", "--seed", "7")
    script = "pc add Ash hp=6\nlight add torch count=3 carrier=Ash lit\n"
    result = delvetui(home, "act", "crypt", "-", stdin=script)
    assert result.returncode == 0, result.stderr
    result = delvetui(home, "act", "crypt", "pc", "add", "Old Tom", "hp=5")  # one word, a space
    assert result.returncode == 0, result.stderr
    result = delvetui(home, "act", "crypt", "turn", "walk", "hazard=3")
    assert result.returncode == 0
    assert "Turn 1 · day 1, 08:00 · Walk, 720 m" in result.stdout
    assert "→ Burn" in result.stdout
    data = status(home, "crypt")
    assert data["turn"] == 1 and data["minutes"] == 10 and data["clock"] == "08:10"
    assert data["light_level"] == "dark"
    assert data["last_hazard"] == {"roll": 3, "result": "Burn"}
    party = data["party"]
    assert isinstance(party, list)
    assert [(m["name"], m["hp"], m["max_hp"]) for m in party] == [("Ash", 6, 6), ("Old Tom", 5, 5)]
    lights = data["lights"]
    assert isinstance(lights, list)
    assert {(light["id"], light["lit"], light["state"]) for light in lights} == {
        ("torch1", False, "out"),
        ("torch2", False, "out"),
    }


def test_stream_acknowledges_each_command_after_it_is_committed(home: Path) -> None:
    made(home, "crypt", "delving")
    script = "pc add Ash hp=6\n\n# a comment\nturn hazard=6\nnote [b]literal[/b]\n"
    result = delvetui(home, "act", "crypt", "-", stdin=script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "ok 2 pc add Ash hp=6",
        "ok 3 turn hazard=6",
        "ok 4 note [b]literal[/b]",
    ]


def test_a_bad_line_in_a_stream_stops_with_its_line_number(home: Path) -> None:
    path = made(home, "crypt", "delving")
    result = delvetui(home, "act", "crypt", "-", stdin="note one\nturn fly\nnote two\n")
    assert result.returncode == 2
    assert result.stdout.splitlines() == ["ok 2 note one"]
    assert "line 2:" in result.stderr and "'fly' is not an action" in result.stderr
    with Expedition.open(path, write=False) as crypt:
        assert crypt.event_count == 3  # the start's two and the note


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["turn", "fly"], "'fly' is not an action of Delving"),
        (["roll", "1000000d1000000"], "the largest die is d1000"),
        (["roll", "1000000d6"], "at most 100 dice"),
        (["turn", "hazard=9"], "A d6 shows 1 to 6, not 9"),
        (["turn", "hazrd=2"], "Did you mean 'hazard'?"),
        (["dance"], "'dance' is not a command"),
        (["pc", "add", "Ash"], "Give Ash's hit points"),
        (["light", "on", "torch"], "There is no unlit light 'torch'"),
        (["undo"], "nothing to undo"),
    ],
)
def test_bad_commands_exit_2_and_write_nothing(home: Path, words: list[str], message: str) -> None:
    before = made(home, "crypt", "delving").read_bytes()
    result = delvetui(home, "act", "crypt", *words)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""
    assert (home / "crypt.delve").read_bytes() == before


def test_unknown_expedition_and_procedure(home: Path) -> None:
    result = delvetui(home, "status", "nowhere")
    assert result.returncode == 2 and "There is no expedition 'nowhere'" in result.stderr
    result = delvetui(home, "new", "x", "--procedure", "no-such-game")
    assert result.returncode == 2 and "There is no procedure 'no-such-game'" in result.stderr
    assert not (home / "x.delve").exists()


def test_procedures_lists_check_and_show(home: Path, tmp_path: Path) -> None:
    result = delvetui(home, "procedures", "--json")
    ids = {entry["id"] for entry in json.loads(result.stdout)}
    assert "delving" in ids
    shown = delvetui(home, "procedures", "show", "delving")
    assert shown.returncode == 0 and 'id = "delving"' in shown.stdout
    mine = tmp_path / "mine.toml"
    mine.write_text(shown.stdout.replace('"delving"', '"mine"'))
    assert delvetui(home, "procedures", "check", str(mine)).returncode == 0
    mine.write_text(shown.stdout.replace("default_action", "default_actoin"))
    checked = delvetui(home, "procedures", "check", str(mine))
    assert checked.returncode == 2
    assert (
        "'default_actoin' is not a key of the file. Did you mean 'default_action'?"
        in checked.stderr
    )
    assert "is missing the key 'default_action'" in checked.stderr


def test_user_procedures_are_found_beside_the_shipped_ones(home: Path) -> None:
    shown = dump(find("delving"))  # what `delvetui procedures show delving` prints
    (home / "procedures").mkdir()
    (home / "procedures" / "homebrew.toml").write_text(shown.replace('"delving"', '"homebrew"'))
    listed = delvetui(home, "procedures").stdout
    assert "homebrew" in listed and "(user)" in listed
    assert delvetui(home, "new", "h", "--procedure", "homebrew").returncode == 0


def test_procedures_names_the_text_each_one_follows(home: Path) -> None:
    """A GM choosing a game sees which book each procedure follows, with its licence."""
    listed = delvetui(home, "procedures").stdout.splitlines()
    ose = next(i for i, line in enumerate(listed) if line.startswith("ose "))
    assert listed[ose + 1].split()[:2] == ["from", "Old-School"]
    assert "Open Game License" in listed[ose + 1] or "OGL" in listed[ose + 1]
    cairn = next(i for i, line in enumerate(listed) if line.startswith("cairn "))
    assert "CC-BY-SA 4.0" in listed[cairn + 1]


def test_list_shows_saved_expeditions(home: Path) -> None:
    made(home, "crypt", "delving", ["turn"])
    rows = json.loads(delvetui(home, "list", "--json").stdout)
    assert [(row["name"], row["procedure"], row["turn"]) for row in rows] == [
        ("crypt", "delving", 1)
    ]


def test_list_says_which_expeditions_ended_and_their_date(home: Path) -> None:
    """An ended expedition is the one a game master continues (`new --after`): `list` says
    which ended, and the date in its calendar ('day N' without one)."""
    made(home, "crypt", "delving", ["turn", "end"])
    made(home, "keep", "delving", ["turn"])
    rows = json.loads(delvetui(home, "list", "--json").stdout)
    assert {row["name"]: (row["ended"], row["date"]) for row in rows} == {
        "crypt": (True, "day 1"),
        "keep": (False, "day 1"),
    }
    lines = delvetui(home, "list").stdout.splitlines()
    assert [line.split(",")[2:4] for line in lines if line.startswith("crypt")] == [
        [" day 1 08:10", " ended"]
    ]


def test_every_subcommand_explains_itself_with_an_example(home: Path) -> None:
    for sub in ("open", "new", "act", "status", "list", "procedures"):
        result = delvetui(home, sub, "--help")
        assert result.returncode == 0
        assert "example:" in result.stdout or "examples:" in result.stdout, sub
        assert "delvetui " in result.stdout


def test_act_shows_each_example_on_its_own_line(home: Path) -> None:
    shown = delvetui(home, "act", "--help").stdout.split("examples:\n", 1)[1].splitlines()
    assert shown[:2] == [
        "  delvetui act crypt turn walk hazard=2",
        "  printf 'turn\\nturn\\n' | delvetui act crypt -",
    ]


def test_a_path_ending_in_delve_works_as_a_name(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "elsewhere" / "keep.delve"
    path.parent.mkdir()  # a path's folder must exist; test_paths.py tries one that does not
    result = delvetui(home, "new", str(path), "--procedure", "delving")
    assert result.returncode == 0 and path.exists()
    assert delvetui(home, "act", str(path), "note", "here").returncode == 0


def test_a_second_writer_is_told_the_expedition_is_open_elsewhere(home: Path) -> None:
    made(home, "crypt", "delving")
    env = {**os.environ, "DELVETUI_HOME": str(home)}
    holder = subprocess.Popen(
        cli_support.command("act", "crypt", "-"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert holder.stdin is not None and holder.stdout is not None
    holder.stdin.write("note holding\n")
    holder.stdin.flush()
    assert holder.stdout.readline().startswith("ok")
    second = delvetui(home, "act", "crypt", "note", "me too")
    assert second.returncode == 2 and "open" in second.stderr
    assert status(home, "crypt")["events"] == 3  # reading still works
    holder.stdin.close()
    holder.wait(timeout=30)
    assert delvetui(home, "act", "crypt", "note", "now").returncode == 0


def test_verify_checks_every_row(home: Path) -> None:
    path = made(home, "crypt", "delving", ["note first-note-here", "turn", "turn"])
    result = delvetui(home, "verify", "crypt")
    assert result.returncode == 0 and "all sound" in result.stdout
    data = path.read_bytes()
    at = data.index(b"first-note-here")
    path.write_bytes(data[:at] + b"F" + data[at + 1 :])
    damaged = path.read_bytes()
    result = delvetui(home, "verify", "crypt")
    assert result.returncode == 2 and "damaged" in result.stderr
    assert path.read_bytes() == damaged


def test_a_damaged_expedition_offers_what_can_be_saved_read_only(home: Path) -> None:
    path = made(home, "crypt", "delving", ["pc add Ash hp=6"] + ["note keep me"] * 300, seed=3)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 5000])
    cut = path.read_bytes()
    refused = delvetui(home, "status", "crypt")
    assert refused.returncode == 2
    assert "damaged" in refused.stderr and "--salvage" in refused.stderr
    salvaged = delvetui(home, "status", "crypt", "--salvage", "--json")
    assert salvaged.returncode == 0, salvaged.stderr
    data_out = json.loads(salvaged.stdout)
    assert data_out["readonly"] is True
    assert [m["name"] for m in data_out["party"]] == ["Ash"]
    exported = delvetui(home, "export", "crypt", "--salvage", "--format", "txt")
    assert exported.returncode == 0 and "keep me" in exported.stdout
    assert path.read_bytes() == cut


@pytest.mark.skipif(not cli_server.AVAILABLE, reason="every run is a fresh interpreter here")
def test_a_run_from_the_command_server_is_the_run_of_a_fresh_interpreter(home: Path) -> None:
    """What the tests' runs print and exit with is what a fresh ``python -m delvetui`` does."""
    path = made(home, "crypt", "delving", ["pc add Ash hp=6", "turn"], seed=5)
    runs = [
        (("--version",), None),
        (("status", "crypt", "--json"), None),
        (("act", "crypt", "-"), "note one\nbogus words\nnote two\n"),
        (("export", "crypt", "--format", "txt"), None),
        (("status", "nowhere"), None),
        (("act",), None),  # argparse's usage line and exit 2
    ]
    for args, stdin in runs:
        before = path.read_bytes()
        fresh = subprocess.run(
            cli_support.command(*args),
            input=stdin,
            capture_output=True,
            text=True,
            env=cli_support.environment(home),
            cwd=cli_support.PROJECT,
            timeout=120,
        )
        path.write_bytes(before)  # both runs start from the same file
        served = delvetui(home, *args, stdin=stdin)
        assert (served.returncode, served.stdout, served.stderr) == (
            fresh.returncode,
            fresh.stdout,
            fresh.stderr,
        ), args
