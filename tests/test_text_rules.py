"""Supplied text on every output: made visible, bounded, wrapped in one pass, kept exactly.

The hostile expedition here is made through the app service, not the command language (which
refuses control characters at the door): it stands for a file handed to the game master,
whose names and notes hold a terminal's escape sequences.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from delvetui import dice
from delvetui.core import commands as cmd
from delvetui.errors import CommandError, DiceError
from delvetui.export import export
from delvetui.paths import name_problem, quoted
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.text import (
    clock,
    counted,
    dumps,
    number_problem,
    plural,
    quote,
    suggest,
    unseen_in,
    visible,
    wrap,
)
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.table.screen import FOLLOW_EVERY
from tests.cli_support import delvetui_bytes, made
from tests.ui_support import followed, ready, screen_text, settled

#: Clears the screen, then retitles the terminal (OSC 0).
MEMBER = "Ash\x1b[2J\x1b]0;owned\x07"
#: Writes the clipboard (OSC 52).
EXPEDITION = "crypt\x1b]52;c;ZXZpbA==\x07"
#: A one-character CSI (C1), a right-to-left override and a line separator.
NOTE = "\x9b31m red \u202eevil\u2028end"
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\u2028")
Completed = subprocess.CompletedProcess[bytes]


def delvetui(
    home: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The command line with its output as raw bytes: every escape it printed is there."""
    return delvetui_bytes(home, *args, stdin=None if stdin is None else stdin.encode())


def hostile(home: Path, name: str = "crypt") -> Path:
    """An expedition whose name, member, carrier, note and a command text hold escapes."""
    path = home / f"{name}.delve"
    with Expedition.create(path, find("delving"), name=EXPEDITION, seed=1) as made:
        made.run(cmd.AddMember(name=MEMBER, hp=6, max_hp=6))
        made.run(cmd.AddLight(kind="torch", carrier=MEMBER, count=1, lit=True))
        made.run(cmd.Note(note=NOTE, text="note \x1b[2J"))
    return path


def assert_safe(output: bytes) -> str:
    """The output as text, after checking no control character reached it raw."""
    text = output.decode("utf-8")
    for char in RAW:
        assert char not in text, f"{char!r} reached the terminal raw"
    return text


# The one function ----------------------------------------------------------------------------


def test_visible_shows_every_control_as_a_symbol() -> None:
    assert visible("a\x1b[2Jb") == "a␛[2Jb"
    assert visible("\x00\x07\x7f") == "␀␇␡"
    assert visible("\x9b31m") == "\\x9b31m"
    assert visible("x\u202ey\u2066\u2028\u2029") == "x\\u202ey\\u2066\\u2028\\u2029"
    assert visible("bad\udcff") == "bad\\udcff"  # an undecodable byte of a file name
    assert visible("line\nline", lines=True) == "line\nline"
    assert visible("line\nline") == "line␊line"
    assert visible(visible(NOTE)) == visible(NOTE)  # the visible form holds no control
    assert unseen_in(NOTE) == "\\x9b" and unseen_in("plain text") is None
    assert unseen_in("a\tb\nc", allow="\t\n") is None


def test_every_refusal_quotes_the_same_way() -> None:
    """A dice expression, an expedition's name and an import's event quote what they refuse
    through one rule: in quotes, made visible, cut with an ellipsis inside the quotes."""
    assert quote("ok") == "'ok'"
    assert quote("x" * 50) == "'" + "x" * 39 + "…'"
    assert quote("\x1b[2J") == "'␛[2J'"
    with pytest.raises(DiceError) as refused:
        dice.parse("\x1b[2Jd6")
    assert str(refused.value).startswith(quote("\x1b[2Jd6") + " is not")
    assert quoted("clr\x1b[2Jx") == quote("clr\x1b[2Jx")
    assert name_problem("a\x07b") == "it holds the control character '␇'"


def test_json_carries_no_raw_c1_or_override_and_reads_back_exactly() -> None:
    text = dumps({"note": NOTE, "name": MEMBER})
    for char in RAW:
        assert char not in text
    assert json.loads(text) == {"note": NOTE, "name": MEMBER}


def test_one_clock_one_suggestion_one_number_rule() -> None:
    assert clock("8:05") == (8, 5) and clock("08:05") == (8, 5) and clock("23:59") == (23, 59)
    assert clock("24:00") is None and clock("8:5") is None and clock("x") is None
    assert suggest("crwal", ["crawl", "walk"]) == " Did you mean 'crawl'?"
    assert suggest("zzz", ["crawl"]) == ""
    assert number_problem("hp", "12", 0, 999_999) is None
    assert number_problem("hp", "99999999999999999999", 0, 999_999) == (
        "hp=99999999999999999999 is too large; the most is 999999."
    )
    assert number_problem("length", "-99", 0, 999) == "length=-99 must be 0 or more."
    assert "is not a whole number" in (number_problem("hp", "lots", 0, 9) or "")


def test_wrap_measures_each_character_once() -> None:
    measured = 0

    def width_of(char: str) -> int:
        nonlocal measured
        measured += 1
        return 2 if char == "字" else 1

    word = "字" * 50_000
    rows = wrap(word, 80, 78, width_of)
    assert "".join(rows) == word
    assert all(len(row) * 2 <= 80 for row in rows)
    # A quadratic wrap measures the rest of the word again for every row.
    assert measured <= 2 * len(word)


# Point 1 and 4: the command line ---------------------------------------------------------------


def test_status_shows_hostile_names_visibly(home: Path) -> None:
    hostile(home)
    result = delvetui(home, "status", "crypt")
    assert result.returncode == 0, result.stderr
    text = assert_safe(result.stdout)
    assert "crypt␛]52;c;ZXZpbA==␇" in text
    assert "Ash␛[2J␛]0;owned␇: 6/6 HP" in text


def test_status_json_is_exact_and_safe_on_a_terminal(home: Path) -> None:
    hostile(home)
    result = delvetui(home, "status", "crypt", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(assert_safe(result.stdout))
    assert data["name"] == EXPEDITION
    assert data["party"][0]["name"] == MEMBER
    assert data["lights"][0]["carrier"] == MEMBER
    assert b"\\u009b" not in result.stdout  # nothing of the note is in the status
    assert b"\\u001b" in result.stdout


def test_act_lines_and_errors_that_list_members_are_safe(home: Path) -> None:
    hostile(home)
    refused = delvetui(home, "act", "crypt", "pc", "Bob", "hp=1")
    assert refused.returncode == 2
    said = assert_safe(refused.stderr)
    assert "Ash␛[2J␛]0;owned␇" in said
    undone = delvetui(home, "act", "crypt", "undo")
    assert undone.returncode == 0, undone.stderr
    assert "note ␛[2J" in assert_safe(undone.stdout)
    streamed = delvetui(home, "act", "crypt", "-", stdin="redo\nlight off torch1\n")
    assert streamed.returncode == 0, streamed.stderr
    assert_safe(streamed.stdout)


def test_list_and_exports_are_safe(home: Path) -> None:
    hostile(home, name="evil\x1b[2J")
    listed = delvetui(home, "list")
    assert listed.returncode == 0, listed.stderr
    assert "evil␛[2J: delving" in assert_safe(listed.stdout)
    listed_json = delvetui(home, "list", "--json")
    assert json.loads(assert_safe(listed_json.stdout))[0]["name"] == "evil\x1b[2J"
    for fmt in ("txt", "md", "html", "json"):
        result = delvetui(home, "export", str(home / "evil\x1b[2J.delve"), "--format", fmt)
        assert result.returncode == 0, result.stderr
        assert_safe(result.stdout)


def test_refusals_quote_what_they_refuse_visibly(home: Path) -> None:
    result = delvetui(home, "new", "clr\x1b[2Jx", "--procedure", "delving")
    assert result.returncode == 2
    said = assert_safe(result.stderr)
    assert "'clr␛[2Jx'" in said and "cannot be an expedition name" in said
    assert list(home.iterdir()) == []
    wrong = delvetui(home, "export", "x", "--format", "\x1b[2J")
    assert wrong.returncode == 2
    assert_safe(wrong.stderr)
    hostile(home)
    typed = delvetui(home, "act", "crypt", "note", "\x1b]0;owned\x07")
    assert typed.returncode == 2
    assert "control character (␛" in assert_safe(typed.stderr)


# Point 1: the table ---------------------------------------------------------------------------


async def test_the_table_shows_hostile_names_visibly(home: Path) -> None:
    path = hostile(home)
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        text = screen_text(app)
        for char in RAW:
            assert char not in text
        assert "crypt␛]52;c;ZXZpbA==␇" in text  # the status bar
        assert "Ash␛[2J␛]0;o" in text  # the roster
        assert "Ash␛[2J␛]0;owned␇ joins the party" in text  # the log
        assert "\\x9b31m red \\u202eevil\\u2028end" in text  # the note in the log
        await pilot.press("p")  # the party dialog
        await pilot.pause(0)
        text = screen_text(app)
        assert "Ash␛[2J␛]0;owned␇  6/6 HP" in text
        assert "\x1b" not in text
        await pilot.press("escape", "l")  # the light dialog
        await pilot.pause(0)
        text = screen_text(app)
        assert "Ash␛[2J␛]0;owned␇" in text and "\x1b" not in text


# Point 11: bounded text, linear wrapping -------------------------------------------------------


def long_note(home: Path, size: int) -> Path:
    path = home / "long.delve"
    with Expedition.create(path, find("delving"), name="long", seed=1) as made:
        made.execute("pc add Ash hp=6")
        made.run(cmd.Note(note="x" * size))
    return path


def test_a_note_of_a_megabyte_without_spaces_exports_at_once(home: Path) -> None:
    path = long_note(home, 1_000_000)
    with Expedition.open(path, write=False) as opened:
        started = time.perf_counter()
        text = export(opened, "txt")
        took = time.perf_counter() - started
    rows = [line for line in text.splitlines() if "xxx" in line]
    assert sum(line.count("x") for line in rows) == 1_000_000
    assert all(len(line) <= 78 for line in text.splitlines())
    # Before, this one export cut the rest of the word again for every row: minutes.
    assert took < 30


async def test_the_table_shows_and_plays_past_a_note_of_a_megabyte(home: Path) -> None:
    path = long_note(home, 1_000_000)
    app = DelveApp(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("n")
        # (A party without light is asked once before a turn in the dark.)
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen) or turned(app))
        if isinstance(app.screen, ChooseScreen):
            await pilot.press("y")
        await settled(pilot, lambda: turned(app))
        assert "Turn 1" in screen_text(app)


def turned(app: DelveApp) -> bool:
    return app.expedition is not None and app.expedition.state.turn == 1


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("note " + "y" * 1996, "The command is 2001 characters long; the limit is 2000"),
        ("roll d6 " + "z" * 201, "What a roll is for may be up to 200 characters long"),
        ("pc Ash +" + "w" * 41, "A condition may be up to 40 characters long"),
        ("turn " + "c" * 61, "An action may be up to 60 characters long"),
        ("light add " + "t" * 61, "A light kind may be up to 60 characters long"),
        ("turn crawl hazard=" + "9" * 300, "the value of hazard= may be up to 200"),
    ],
)
def test_every_text_field_of_a_command_is_bounded(text: str, says: str) -> None:
    with pytest.raises(CommandError) as refused:
        cmd.parse(text)
    assert says.lower() in refused.value.message.lower()


# Point 14: a note keeps exactly what the game master typed ---------------------------------------


def test_a_note_through_the_shell_keeps_its_apostrophe(home: Path) -> None:
    made(home, "crypt", "delving")
    result = delvetui(home, "act", "crypt", "note", "Ash's torch is out")
    assert result.returncode == 0, result.stderr
    assert "Ash's torch is out" in result.stdout.decode()
    with Expedition.open(home / "crypt.delve", write=False) as opened:
        last = list(opened.batches())[-1]
        assert last.command == "note Ash's torch is out"
        assert [getattr(event, "text", None) for event in last.events] == ["Ash's torch is out"]
    quoted = delvetui(home, "act", "crypt", 'note "the door" is a mimic')
    assert quoted.returncode == 0, quoted.stderr
    assert 'Note: "the door" is a mimic' in quoted.stdout.decode()


# Point 15: a command that changes nothing is not saved ------------------------------------------


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("pc Ash fatigue=-5", "Ash is fresh (fatigue 0) already"),
        ("pc Ash hp=+4", "Ash has 6/6 hit points already (the most is their maximum)"),
        ("pc Ash max=6", "Ash already has those numbers"),
        ("pc Ash +blind", "Ash is blind already"),
    ],
)
def test_a_command_that_changes_nothing_is_refused_and_not_saved(
    home: Path, command: str, says: str
) -> None:
    path = home / "crypt.delve"
    with Expedition.create(path, find("delving"), name="crypt", seed=1) as made:
        made.execute("pc add Ash hp=6")
        made.execute("pc Ash +blind")
        before = made.batch_count
        with pytest.raises(CommandError) as refused:
            made.execute(command)
        assert says in refused.value.message
        assert "Nothing was saved" in refused.value.message
        assert made.batch_count == before
        undone = made.execute("undo")  # takes back the last real change, not an empty batch
        assert undone.command == "undo"
        assert "blind" not in made.state.party[0].conditions


def test_the_shell_refuses_a_change_that_changes_nothing(home: Path) -> None:
    made(home, "crypt", "delving", ["pc add Ash hp=6"])
    result = delvetui(home, "act", "crypt", "pc", "Ash", "fatigue=-5")
    assert result.returncode == 2
    assert "Nothing changed" in result.stderr.decode()
    events = json.loads(delvetui(home, "status", "crypt", "--json").stdout)["events"]
    with Expedition.open(home / "crypt.delve", write=False) as opened:
        assert opened.event_count == events
        assert opened.batch_count == 2


# Point 16: messages say the real limit ------------------------------------------------------------


def test_numbers_too_large_or_too_small_say_the_limit(home: Path) -> None:
    with pytest.raises(CommandError) as large:
        cmd.parse("pc add Ash hp=99999999999999999999")
    assert "hp=99999999999999999999 is too large; the most is 999999." in large.value.message
    with pytest.raises(CommandError) as many:
        cmd.parse("light add torch count=1000")
    assert "count=1000 is too large; the most is 999." in many.value.message
    path = home / "deep.delve"
    with Expedition.create(path, find("dungeon-turn"), name="deep", seed=1) as made:
        made.execute("pc add Ash hp=6")
        with pytest.raises(CommandError) as negative:
            made.execute("turn leave length=-99 rooms=1 path=dangerous")
        assert "length=-99 must be 0 or more." in negative.value.message


# Point 16: a read-only table follows the writer ---------------------------------------------------


def turn(app: DelveApp) -> int | None:
    return None if app.expedition is None else app.expedition.state.turn


async def test_a_read_only_table_follows_the_writers_commits(home: Path) -> None:
    path = home / "crypt.delve"
    with Expedition.create(path, find("delving"), name="crypt", seed=1) as made:
        made.execute("pc add Ash hp=6")
    writer = Expedition.open(path)  # holds the writer lock: the table opens read-only
    try:
        app = DelveApp(path)
        async with app.run_test(size=(120, 40)) as pilot:
            await ready(pilot)
            assert app.expedition is not None and app.expedition.readonly
            writer.execute("note the players hear drums")
            writer.execute("turn crawl hazard=3")
            await followed(
                pilot, lambda: "Note: the players hear drums" in screen_text(app), FOLLOW_EVERY
            )
            await settled(
                pilot, lambda: app.expedition is not None and app.expedition.state.turn == 1
            )
            assert app.expedition.state == writer.state
            writer.execute("undo")
            await followed(
                pilot,
                lambda: app.expedition is not None and app.expedition.state.turn == 0,
                FOLLOW_EVERY,
            )
            assert app.expedition.event_count == writer.event_count
    finally:
        writer.close()


@pytest.mark.parametrize(
    ("word", "many"),
    [
        ("turn", "turns"),
        ("watch", "watches"),
        ("day", "days"),
        ("sortie", "sorties"),
        ("hex turn", "hex turns"),
        ("foray", "forays"),
        ("pass", "passes"),
        ("city", "cities"),
    ],
)
def test_a_units_plural_reads_right(word: str, many: str) -> None:
    assert plural(word) == many
    assert counted(1, word) == f"1 {word}" and counted(3, word) == f"3 {many}"


def test_a_unit_of_several_words_takes_its_plural_on_its_head_noun() -> None:
    """Shadowdark's camp and travel turns are an "hour of rest" and an "hour of travel"
    (Time › Time Passes): the session log counts "2 hours of rest", not "2 hour of rests"."""
    assert plural("hour of rest") == "hours of rest"
    assert counted(2, "hour of travel") == "2 hours of travel"
    assert counted(1, "hour of rest") == "1 hour of rest"


def test_a_noun_takes_the_article_its_sound_asks_for() -> None:
    """The refusal of another mode's action reads "this is an hour of rest", never "a
    hour"; "a usage die", never "an usage die"."""
    from delvetui.text import a

    assert [a(w) for w in ("hour of rest", "watch", "oil flask", "usage die", "one")] == [
        "an hour of rest",
        "a watch",
        "an oil flask",
        "a usage die",
        "a one",
    ]
