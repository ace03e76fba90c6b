"""Bad input on the command line is one true sentence and exit 2: never a usage dump, never a
value quietly taken as another (docs/reliability.md, "Bad input at the command line").

Each case below was a finding: ``--day 0`` taken as day 1 under a message saying 1 to
10000, ``--downtime ''`` taken as none, ``--downtime -7d`` answered with argparse's usage,
a 300 KB calendar said to be 16,001 bytes, ``days = 0`` reported as a start_day of "1 to 0"
on a line that does not set it, a chain linked to itself said to continue an expedition
"not in the data folder", and the byte 0xFF called a control character.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.cli_support import delvetui, delvetui_bytes


def refused(home: Path, *args: str) -> str:
    """The one line a refused command says; it made nothing in the data folder."""
    before = sorted(p.name for p in home.iterdir())
    done = delvetui(home, *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert "usage:" not in done.stderr and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert sorted(p.name for p in home.iterdir()) == before
    return lines[0]


@pytest.fixture
def ended(home: Path) -> Path:
    """An ended expedition, ``crypt``, to continue."""
    assert delvetui(home, "new", "crypt", "--procedure", "delving", "--seed", "1").returncode == 0
    assert delvetui(home, "act", "crypt", "end").returncode == 0
    return home / "crypt.delve"


def test_a_day_out_of_range_is_refused_not_taken_as_day_one(home: Path) -> None:
    for day in ("0", "-3", "10001"):
        said = refused(home, "new", "x", "--procedure", "delving", "--day", day)
        assert said == f"delvetui: The day {day} is out of range; give a day from 1 to 10000."
    said = refused(home, "new", "x", "--procedure", "delving", "--day", "soon")
    assert said.startswith("delvetui new: --day 'soon' is not a whole number; write it in digits.")


def test_a_downtime_empty_or_below_none_is_a_sentence(home: Path, ended: Path) -> None:
    said = refused(home, "new", "next", "--after", "crypt", "--downtime", "")
    assert said == (
        "delvetui: '' is not a downtime; write days and hours, e.g. 7d, 36h or 2d6h (0d for none)."
    )
    for given in (["--downtime", "-7d"], ["--downtime=-7d"]):
        said = refused(home, "new", "next", "--after", "crypt", *given)
        assert said == (
            "delvetui: '-7d' is not a downtime, which cannot be less than none; write days and "
            "hours, e.g. 7d, 36h or 2d6h (0d for none)."
        )
    made = delvetui(home, "new", "next", "--after", "crypt", "--downtime", "0d")
    assert made.returncode == 0, made.stderr


def test_a_note_that_starts_with_a_dash_and_a_digit_is_kept_as_typed(home: Path) -> None:
    """The joining of ``--option -7d`` is for options only: ``act`` words are a command."""
    assert delvetui(home, "new", "crypt", "--procedure", "delving").returncode == 0
    done = delvetui(home, "act", "crypt", "note", "--loot", "-3", "gold")
    assert done.returncode == 0, done.stderr
    listed = delvetui(home, "export", "crypt", "--format", "txt")
    assert "--loot -3 gold" in listed.stdout


def test_a_calendar_too_large_says_its_own_size(home: Path, tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 300_000)
    said = delvetui(home, "new", "x", "--procedure", "delving", "--calendar", str(big))
    assert said.returncode == 2
    assert said.stderr.splitlines()[1:] == [
        "  is 300,000 bytes; a calendar file may be at most 16 KB."
    ]


def test_a_month_of_no_days_is_one_problem_on_its_own_line(home: Path, tmp_path: Path) -> None:
    for days, line in (("0", 3), ("[30, 0]", 3)):
        calendar = tmp_path / "zero.toml"
        calendar.write_text(f'[calendar]\nmonths = ["A", "B"]\ndays = {days}\n', encoding="utf-8")
        said = delvetui(home, "new", "x", "--procedure", "delving", "--calendar", str(calendar))
        assert said.returncode == 2
        assert "start_day" not in said.stderr
        assert f"  line {line}: calendar.days" in said.stderr
        assert "is 0; it should be 1 to 1,000 days." in said.stderr


def test_a_name_holding_a_byte_that_is_not_text_says_which_byte(home: Path) -> None:
    # The byte 0xFF on a command line reaches Python as the lone surrogate U+DCFF.
    done = delvetui_bytes(home, "new", "\udcff", "--procedure", "delving")
    assert done.returncode == 2
    assert b"it holds the byte 0xFF, which is not UTF-8 text" in done.stderr
    assert b"control character" not in done.stderr


def test_an_expedition_linked_to_itself_is_said_so(home: Path, ended: Path) -> None:
    """A file whose link names its own id (only a hand could write one) is told as that,
    not as a predecessor missing from the folder."""
    assert delvetui(home, "new", "next", "--after", "crypt", "--downtime", "1d").returncode == 0
    with sqlite3.connect(ended) as first:
        (own,) = first.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
    ended.unlink()
    with sqlite3.connect(home / "next.delve") as second:
        second.execute("UPDATE meta SET value = ? WHERE key = 'id'", (own,))
    (home / "next.delve").rename(home / "crypt.delve")
    shown = delvetui(home, "campaign")
    assert shown.returncode == 0, shown.stderr
    assert (
        "crypt names itself as the expedition it continues, which no command writes (the file "
        "was made or changed outside delvetui): what came before it is not known."
    ) in shown.stdout
    assert "not in the data folder" not in shown.stdout
