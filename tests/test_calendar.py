"""The world's calendar: the day count read as a date, wherever the table shows a date.

A procedure's ``[calendar]``, or a calendar file named for one expedition (``new --calendar
FILE``, kept whole in its ``CalendarSet`` event), says which date day 1 is and how the months
and the week run; without one, a date is "day N" as it always was (docs/procedures.md
§3.23a). A bad calendar is refused with every problem, its key and its line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delvetui.cli import status_data
from delvetui.core import event_checks
from delvetui.core import events as ev
from delvetui.core.audit import Audit, Impossible
from delvetui.core.calendar import date_of, date_words, day_of, moment, ordinal
from delvetui.core.decide import start_events
from delvetui.core.log import clock_text, event_line
from delvetui.core.players import view
from delvetui.core.state import State
from delvetui.core.timeline import Batch
from delvetui.errors import ProcedureError
from delvetui.export import export
from delvetui.export.importing import import_file
from delvetui.procedure import calendar as calendar_file
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Calendar, Procedure
from delvetui.procedure.registry import find
from delvetui.procedure.writer import calendar_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.panes.time_dice import TimeDice
from tests.cli_support import delvetui
from tests.conftest import replays_the_same
from tests.strategies import calendars
from tests.ui_support import ready, screen_text, settled, sized

DOC = Path(__file__).resolve().parent.parent / "docs" / "procedures.md"
#: The complete example of docs/procedures.md §3.23a: a procedure with a calendar.
VALE = next(
    block
    for block in re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    if 'id = "vale-watches"' in block
)
#: Its ``[calendar]`` table alone: what ``new --calendar FILE`` takes.
VALE_CALENDAR = VALE[VALE.index("[calendar]") :]
#: Another world's calendar, for an expedition of a procedure that has one of its own.
MARCHES = """\
# The Marches reckon by seasons of 91 days.
[calendar]
months = ["Sowing", "Growing", "Reaping", "Sleeping"]
days = 91
start_month = "Reaping"
start_day = 90
"""


def vale() -> Procedure:
    return load_text(VALE, source="docs/procedures.md §3.23a")


def test_the_documented_calendar_reads_its_dates_as_the_doc_says(home: Path) -> None:
    """docs/procedures.md §3.23a: day 1 is Fireday 30th of Greenmist 1042; two watches from
    20:00 it is 04:00 of day 2, the 1st of Highsun; the next year begins on day 124."""
    procedure = vale()
    words = {day: date_words(procedure.calendar, day) for day in (1, 2, 124, 183)}
    assert words == {
        1: "Fireday 30th of Greenmist 1042, day 1",
        2: "Restday 1st of Highsun 1042, day 2",
        124: "Ashday 1st of Thaw 1043, day 124",
        183: "Moonday 30th of Greenmist 1043, day 183",
    }
    with Expedition.create(home / "vale.delve", procedure, seed=1) as made:
        assert status_data(made, odds=False)["date"] == words[1]
        made.execute("turn")
        made.execute("turn")
        assert made.state.clock_text == "04:00"
        assert status_data(made, odds=False)["date"] == words[2]


def test_without_a_calendar_a_date_is_the_day_count() -> None:
    """The default is plain "day N", and a moment is the log's own "day N, HH:MM"."""
    assert date_words(None, 41) == "day 41"
    for clock in (0, 59, 1439, 1440, 41 * 1440 + 605):
        assert moment(None, clock) == clock_text(clock)


ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th"}
ORDINALS |= {21: "21st", 22: "22nd", 23: "23rd", 101: "101st", 111: "111th", 112: "112th"}


@pytest.mark.parametrize(("number", "said"), ORDINALS.items())
def test_ordinals_read_as_english_does(number: int, said: str) -> None:
    assert ordinal(number) == said


def test_a_calendar_reads_a_date_in_its_own_words() -> None:
    """``reads`` places the parts as the world writes a date; the usual words leave out the
    week-day and the year of a calendar without them."""
    plain = Calendar(months=("Thaw", "Greenmist"), days=(3, 40), start_day=2)
    assert date_words(plain, 1) == "2nd of Thaw, day 1"
    assert date_words(plain, 3) == "1st of Greenmist, day 3"
    assert date_words(plain, 42) == "40th of Greenmist, day 42"
    assert date_words(plain, 43) == "1st of Thaw, day 43"  # a year of 43 days rolls over
    own = Calendar(
        months=("Thaw", "Greenmist"),
        days=(3, 40),
        week=("Moonday", "Ashday"),
        start_year=7,
        reads="{weekday}, the {number} {month} in the year {year} (day {day})",
    )
    assert date_words(own, 4) == "Ashday, the 1 Greenmist in the year 7 (day 4)"
    assert date_words(own, 44) == "Ashday, the 1 Thaw in the year 8 (day 44)"


@settings(max_examples=300, deadline=None)
@given(calendar=calendars(), day=st.integers(-20_000, 200_000))
def test_days_map_one_to_one_onto_dates_and_back(calendar: Calendar, day: int) -> None:
    """Every day has one date of the calendar, the date names that day alone (``day_of``
    reads it back), and the next day is the next date: the next day of the month, else the
    1st of the next month, else the 1st of the first month of the next year; the week runs
    on without a break."""
    assert calendar_file_problems(calendar) == []
    date, after = date_of(calendar, day), date_of(calendar, day + 1)
    lengths = calendar.lengths()
    assert 0 <= date.month < len(lengths) and 1 <= date.number <= lengths[date.month]
    assert day_of(calendar, date) == day
    if date.number < lengths[date.month]:
        assert (after.year, after.month, after.number) == (date.year, date.month, date.number + 1)
    elif date.month + 1 < len(lengths):
        assert (after.year, after.month, after.number) == (date.year, date.month + 1, 1)
    else:
        assert (after.year, after.month, after.number) == (date.year + 1, 0, 1)
    if calendar.week:
        assert date.weekday is not None and after.weekday == (date.weekday + 1) % len(calendar.week)
    start = date_of(calendar, 1)
    first = calendar.months.index(calendar.start_month) if calendar.start_month else 0
    assert (start.year, start.month, start.number) == (0, first, calendar.start_day)


def calendar_file_problems(calendar: Calendar) -> list[str]:
    found: list[str] = []
    calendar_file.check(lambda path, message: found.append(f"{path}: {message}"), calendar)
    return found


TINY = """\
id = "tiny"
name = "Tiny"
source = "my notes"
summary = "One action."
default_action = "explore"

[actions.explore]
label = "Explore"

"""
#: A calendar with a problem in every key the checks look at, once the types are right.
BAD = """\
[calendar]
months = ["Thaw", "Greenmist", "Thaw", ""]
days = [30, 30]
week = ["Moonday"]
start_month = "Greenmst"
start_weekday = "Ashday"
reads = "{ordinal} of {month}, {yeer} {year}"
"""
BAD_PROBLEMS = [
    ("calendar.months[2]", 2, "'Thaw' is named twice; each month once."),
    ("calendar.months[3]", 2, "should be a month's name of 1 to 40 letters on one line."),
    (
        "calendar.days",
        3,
        "gives 2 numbers for 4 months; give one a month, or one number for every month.",
    ),
    ("calendar.start_month", 5, "'Greenmst' is not one of the months. Did you mean 'Greenmist'?"),
    ("calendar.start_weekday", 6, "'Ashday' is not a week-day (Moonday)."),
    (
        "calendar.reads",
        7,
        "'{yeer}' is not a part of a date; use weekday, ordinal, number, month, year, day. "
        "Did you mean 'year'?",
    ),
    ("calendar.reads", 7, "names {year} but the calendar has no year; give start_year."),
]
#: A calendar whose values are of the wrong kind (found before the checks above).
WRONG_KINDS = """\
[calendar]
months = "Thaw"
days = [30, "thirty"]
start_year = 1042.5
weekdays = ["Moonday"]
"""
WRONG_KINDS_PROBLEMS = [
    ("calendar.months", 2, "should be a list, not the text 'Thaw'."),
    ("calendar.days[1]", 3, "should be a whole number, not the text 'thirty'."),
    ("calendar.start_year", 4, "should be a whole number, not the number 1042.5."),
    ("calendar.weekdays", 5, "'weekdays' is not a key of calendar. Did you mean 'week'?"),
]


@pytest.mark.parametrize(
    ("text", "wanted"), [(BAD, BAD_PROBLEMS), (WRONG_KINDS, WRONG_KINDS_PROBLEMS)]
)
def test_a_bad_calendar_names_every_problem_with_its_key_and_line(
    text: str, wanted: list[tuple[str, int, str]]
) -> None:
    """Procedures are validated as data, every problem at once with its path and line; a
    calendar file is checked as the procedure's section is, in the same words."""
    with pytest.raises(ProcedureError) as in_procedure:
        load_text(TINY + text, source="tiny.toml")
    lines_before = TINY.count("\n")
    said = [(p.path, p.line, p.message) for p in in_procedure.value.problems]
    assert said == [(path, line + lines_before, message) for path, line, message in wanted]
    with pytest.raises(ProcedureError) as in_file:
        calendar_file.load_text(text, source="vale.toml")
    assert [(p.path, p.line, p.message) for p in in_file.value.problems] == wanted
    assert str(in_file.value).startswith("vale.toml")


def test_a_procedures_calendar_written_as_a_file_reads_back_the_same() -> None:
    """A procedure's calendar can be kept as an expedition's own (carried to the next
    expedition of a campaign): written as a calendar file, it reads back unchanged."""
    calendar = vale().calendar
    assert calendar is not None
    text = calendar_text(calendar)
    assert text.startswith("[calendar]\n")
    again = calendar_file.load_text(text)
    assert again == calendar
    assert date_words(again, 124) == date_words(calendar, 124)


def test_a_date_stays_on_one_line() -> None:
    """The header shows a date on one line: no name and no ``reads`` may break it."""
    with pytest.raises(ProcedureError) as refused:
        calendar_file.load_text(
            '[calendar]\nmonths = ["Thaw\\nGreen"]\nreads = "{month}\\t{day}"\n'
        )
    assert [(p.path, p.line) for p in refused.value.problems] == [
        ("calendar.months[0]", 2),
        ("calendar.reads", 3),
    ]


def test_a_calendar_file_holds_one_calendar_table() -> None:
    with pytest.raises(ProcedureError) as other:
        calendar_file.load_text(VALE, source="vale.toml")
    said = {(p.path, p.message) for p in other.value.problems}
    assert ("id", "'id' is not for a calendar file, which holds [calendar].") in said
    with pytest.raises(ProcedureError) as none:
        calendar_file.load_text("# nothing here\n", source="empty.toml")
    [problem] = none.value.problems
    assert problem.message == "has no [calendar] table; write [calendar] and its months."


def test_an_expeditions_own_calendar_stands_in_place_of_its_procedures(home: Path) -> None:
    """The calendar named for the expedition (batch 1's CalendarSet) is the one in force;
    the file keeps its text, so a replay reads no other file."""
    with Expedition.create(home / "marches.delve", vale(), seed=1, calendar=MARCHES) as made:
        [first] = made.batches()
        assert ev.CalendarSet(text=MARCHES) in first.events
        assert status_data(made, odds=False)["date"] == "90th of Reaping, day 1"
        made.execute("turn")
        assert status_data(made, odds=False)["date"] == "91st of Reaping, day 2"
        replays_the_same(made)
    with Expedition.open(home / "marches.delve") as again:
        assert status_data(again, odds=False)["date"] == "91st of Reaping, day 2"
        said = event_line(ev.CalendarSet(text=MARCHES), again.procedure, again.state)
    assert said == (
        "info",
        "The expedition keeps a calendar of its own: 4 months (Sowing to Sleeping).",
    )


def test_an_expedition_is_never_made_with_a_bad_calendar(home: Path) -> None:
    """Bad input changes nothing: a calendar with problems is refused, with every one of
    them, before the file is made."""
    with pytest.raises(ProcedureError) as refused:
        Expedition.create(home / "bad.delve", find("delving"), seed=1, calendar=BAD)
    assert len(refused.value.problems) == len(BAD_PROBLEMS)
    assert not (home / "bad.delve").exists()


def test_an_import_refuses_a_calendar_no_command_could_have_written() -> None:
    """Import accepts only what a command could have written: a calendar's text that does
    not load, or a calendar named after the expedition began."""
    procedure = find("delving")
    bad = ev.CalendarSet(text="[calendar]\nmonths = []\n")
    said = event_checks.problem(State(), procedure, bad)
    assert said is not None and "its calendar does not load" in said
    assert "calendar.months" in said
    assert event_checks.problem(State(), procedure, ev.CalendarSet(text=MARCHES)) is None
    audit = Audit(procedure)
    audit.take(Batch(1, "new", tuple(start_events("crypt", procedure, seed=1, calendar=MARCHES))))
    with pytest.raises(Impossible, match="a calendar is named as the expedition starts"):
        audit.take(Batch(2, "turn", (ev.CalendarSet(text=MARCHES),)))


def test_the_story_and_the_players_screen_give_the_date(home: Path) -> None:
    """The exports (through the story every text format shares) and the players' screen
    date the play in the expedition's calendar."""
    with Expedition.create(
        home / "marches.delve", find("delving"), seed=2, start="23:40", calendar=MARCHES
    ) as made:
        for _ in range(3):
            made.execute("turn")
        told = export(made, "md")
        assert "90th of Reaping, day 1, 23:40 → 91st of Reaping, day 2, 00:10" in told
        assert "90th of Reaping, day 1, 23:40 → 91st of Reaping, day 2, 00:10" in export(
            made, "html"
        )
        shown = view(made.state, made.procedure)
        assert shown.date == "91st of Reaping, day 2"
        assert "91st of Reaping, day 2, 00:10 (pre-dawn)" in shown.lines()


def test_an_exported_expedition_imports_with_its_calendar(home: Path, tmp_path: Path) -> None:
    """The JSON export carries the CalendarSet event, and the import accepts it: the file
    it writes dates the play as the original did, reading no other file."""
    with Expedition.create(home / "marches.delve", find("delving"), seed=2, calendar=MARCHES) as x:
        x.execute("turn")
        (tmp_path / "marches.json").write_text(export(x, "json"), encoding="utf-8")
    imported = import_file(tmp_path / "marches.json", name="marches-again")
    with Expedition.open(imported) as again:
        assert again.state.calendar == MARCHES
        assert status_data(again, odds=False)["date"] == "90th of Reaping, day 1"


def test_the_players_screen_of_a_game_without_a_calendar_says_day_n(home: Path) -> None:
    with Expedition.create(home / "crypt.delve", find("delving"), seed=2) as made:
        shown = view(made.state, made.procedure)
    assert shown.date == "Day 1"
    assert shown.clock == "Day 1, 08:00 (morning)"


async def test_the_header_and_the_time_dice_show_the_date_at_80_by_24(home: Path) -> None:
    """The table's header and the time dice pane name the date in the calendar; a header
    too narrow for the whole date keeps the day count."""
    path = home / "vale.delve"
    Expedition.create(path, find("delving"), seed=2, start="23:40", calendar=VALE_CALENDAR).close()
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        header = str(table.query_one(StatusBar).render())
        assert "Fireday 30th of Greenmist 1042, day 1 23:40" in header
        assert "Fireday 30th of Greenmist 1042, day 1" in table.query_one(TimeDice).clock_parts()[0]
        assert "Fireday 30th of Greenmist 1042, day 1 23:40" in screen_text(app)
        await sized(pilot, (60, 24))
        await settled(pilot, lambda: "day 1 23:40" in str(table.query_one(StatusBar).render()))
        narrow = str(table.query_one(StatusBar).render())
        assert "Greenmist" not in narrow and "DARK" in narrow


def test_new_with_a_calendar_dates_the_expedition_on_the_command_line(
    home: Path, tmp_path: Path
) -> None:
    """``delvetui new NAME --calendar FILE`` keeps the calendar; turns played past midnight
    with ``act NAME -`` reach the next date, which ``status --json`` names under ``date``.
    A bad calendar file is refused with every problem and no expedition is made."""
    good = tmp_path / "vale-calendar.toml"
    good.write_text(VALE_CALENDAR, encoding="utf-8")
    made = delvetui(
        home, "new", "vale", "--procedure", "delving", "--seed", "3", "--start", "23:30",
        "--calendar", str(good),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    played = delvetui(home, "act", "vale", "-", stdin="turn\nturn\nturn\nturn\n")
    assert played.returncode == 0, played.stderr
    status = json.loads(delvetui(home, "status", "vale", "--json").stdout)
    assert (status["day"], status["clock"]) == (2, "00:10")
    assert status["date"] == "Restday 1st of Highsun 1042, day 2"
    text = delvetui(home, "status", "vale").stdout
    assert "Turn 4, Restday 1st of Highsun 1042, day 2 00:10" in text
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD, encoding="utf-8")
    refused = delvetui(home, "new", "other", "--procedure", "delving", "--calendar", str(bad))
    assert refused.returncode == 2
    assert f"{bad} has 7 problems" in refused.stderr
    assert "line 5: calendar.start_month: 'Greenmst' is not one of the months." in refused.stderr
    assert not (home / "other.delve").exists()
