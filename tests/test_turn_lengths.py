"""Longer and shorter turns (watches, days, weeks) and the party's pace where members have
their own speeds: the clock, the day, the time pane, the log and the distance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from delvetui.core import events as ev
from delvetui.core.log import lines
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.action_pane import ActionPane
from delvetui.ui.panes.time_dice import TimeDice
from tests import cli_support
from tests.cli_support import delvetui
from tests.test_docs_procedures import complete
from tests.ui_support import SIZES, ready, settled
from tests.ui_support import expedition as expedition_of

ROAD = complete("long-road")


def _party(expedition: Expedition) -> None:
    expedition.execute("pc add Ash hp=8 SPEED=120")
    expedition.execute("pc add Bo hp=6 SPEED=90")


def test_a_turn_of_a_day_moves_the_day_on_and_keeps_the_hour(home: Path) -> None:
    procedure = load_text(ROAD)
    with Expedition.create(home / "road.delve", procedure, seed=1) as expedition:
        _party(expedition)
        expedition.execute("turn")
        expedition.execute("turn")
        state = expedition.state
        assert (state.day, state.clock_text, state.minutes) == (3, "07:00", 2 * 1440)
        expedition.execute("enter camp")
        expedition.execute("turn")
        assert (expedition.state.day, expedition.state.clock_text) == (3, "11:00")
        expedition.execute("enter town")
        expedition.execute("turn")
        assert (expedition.state.day, expedition.state.clock_text) == (10, "11:00")
        told = [line.text for line in lines(expedition.batches(), procedure)]
    assert "Day 2 · day 2, 07:00 · Travel, 18 miles at Bo's pace" in told
    assert "Watch 3 · day 3, 07:00 · Travel, 18 miles at Bo's pace" in told
    assert "Week 4 · day 3, 11:00 · Travel, 18 miles at Bo's pace" in told


@pytest.mark.parametrize(
    ("speeds", "distance"),
    [
        (("SPEED=120", "SPEED=90"), "18 miles at Bo's pace"),
        (("SPEED=120", "SPEED=120"), "24 miles"),
        (("SPEED=150", "SPEED=180"), "30 miles at Ash's pace"),
        (("SPEED=150", ""), "24 miles"),  # Bo has no speed of their own: the base
        (("SPEED=60", ""), "12 miles at Ash's pace"),
    ],
)
def test_the_party_moves_at_its_slowest_members_speed(
    home: Path, speeds: tuple[str, str], distance: str
) -> None:
    with Expedition.create(home / "road.delve", load_text(ROAD), seed=1) as expedition:
        expedition.execute(f"pc add Ash hp=8 {speeds[0]}".strip())
        expedition.execute(f"pc add Bo hp=6 {speeds[1]}".strip())
        batch = expedition.execute("turn")
        started = next(e for e in batch.events if isinstance(e, ev.TurnStarted))
        assert started.distance == distance


def test_a_slower_member_joining_slows_the_next_turn(home: Path) -> None:
    with Expedition.create(home / "road.delve", load_text(ROAD), seed=1) as expedition:
        expedition.execute("pc add Ash hp=8 SPEED=120")
        first = expedition.execute("turn")
        expedition.execute("pc add Cy hp=4 SPEED=60")
        second = expedition.execute("turn")
        expedition.execute("pc remove Cy")
        third = expedition.execute("turn")
    told = [
        next(e for e in batch.events if isinstance(e, ev.TurnStarted)).distance
        for batch in (first, second, third)
    ]
    assert told == ["24 miles", "12 miles at Cy's pace", "24 miles"]


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (
            ("days = 1", "days = 1\nhours = 24"),
            "line 11: turn_types.road: give only one of minutes, hours, days or weeks, "
            "not hours and days.",
        ),
        (("days = 1", ""), "turn_types.road: is missing its length: give one of minutes, "),
        (
            ("hours = 4", "hours = 0.51"),
            "turn_types.camp.hours: hours = 0.51 is 30.6 minutes; a turn lasts whole minutes.",
        ),
        (("weeks = 1", "weeks = 0"), "turn_types.town.weeks: should be at least 1 minute."),
        (
            ('start = "07:00"', 'start = "07:00"\nturn_days = 1\nturn_minutes = 10'),
            "time: give only one of turn_minutes, turn_hours, turn_days or turn_weeks, not "
            "turn_minutes and turn_days.",
        ),
        (
            ('member_speed = "SPEED"', 'member_speed = "SPEEED"'),
            "movement.member_speed: 'SPEEED' is not one of party.abilities (STR, SPEED); list "
            "it there, so the game master gives each member a speed. Did you mean 'SPEED'?",
        ),
        (
            ("base_speed = 120", ""),
            "movement: member_speed needs base_speed: the speed the actions' distances are for.",
        ),
        (
            ("base_speed = 120", "base_speed = 0"),
            "movement.base_speed: is 0; it should be more than 0, at most 1,000,000.",
        ),
        (
            ("hours = 4", "hours = nan"),
            "turn_types.camp.hours: is nan, which is not a number; give a number from 0 to "
            "8,760 hours.",
        ),
        (
            ("weeks = 1", "weeks = 1e308"),
            "turn_types.town.weeks: is 1e+308; it should be 0 to 52 weeks.",
        ),
    ],
)
def test_a_bad_length_or_speed_is_reported_with_its_key(
    change: tuple[str, str], found: str
) -> None:
    text = ROAD.replace(*change, 1)
    assert text != ROAD
    with pytest.raises(ProcedureError) as error:
        load_text(text)
    shown = [str(p) for p in error.value.problems]
    assert any(found in line and line.startswith("line ") for line in shown), shown


def test_time_given_in_hours_in_the_time_section(home: Path) -> None:
    text = ROAD.replace('start = "07:00"', 'start = "07:00"\nturn_name = "watch"\nturn_hours = 6')
    text = text.replace('[turn_types.road]\nlabel = "day"\ndays = 1\n', "")
    text = text.replace('[turn_types.camp]\nlabel = "watch"\nhours = 4\n', "")
    text = text.replace('[turn_types.town]\nlabel = "week"\nweeks = 1\n', "")
    procedure = load_text(text)
    assert not procedure.turn_types and procedure.turn_minutes("turn") == 360
    with Expedition.create(home / "six.delve", procedure, seed=1) as expedition:
        expedition.execute("turn")
        assert expedition.state.clock_text == "13:00"


def test_status_json_reads_right_when_a_turn_is_a_week(home: Path) -> None:
    path = home / "road.toml"
    path.write_text(ROAD, encoding="utf-8")
    commands = ["pc add Ash hp=8 SPEED=90", "enter town", "turn", "turn"]
    cli_support.made(home, "trip", str(path), commands)
    data = json.loads(delvetui(home, "status", "trip", "--json").stdout)
    assert (data["day"], data["clock"], data["minutes"]) == (15, "07:00", 2 * 7 * 1440)
    text = delvetui(home, "status", "trip").stdout
    assert "Week 2, day 15 07:00" in text


async def test_the_time_pane_and_action_pane_read_right_for_watches_and_weeks(
    home: Path,
) -> None:
    with Expedition.create(home / "road.delve", load_text(ROAD), seed=1) as expedition:
        _party(expedition)
    app = DelveApp(home / "road.delve")
    async with app.run_test(size=SIZES[1]) as pilot:
        await ready(pilot)
        action = app.screen.query_one(ActionPane)
        assert "18 miles a day at Bo's pace" in str(action.render())
        time = app.screen.query_one(TimeDice)
        assert time.clock_parts() == ("07:00  day 1", "morning", "week 1")
        await _type(pilot, app, "enter camp")
        await _type(pilot, app, "turn")
        assert time.clock_parts() == ("11:00  day 1", "morning", "watch 3 of 6")
        await _type(pilot, app, "enter town")
        await _type(pilot, app, "turn")
        assert time.clock_parts() == ("11:00  day 8", "morning", "week 2")
        assert "11:00  day 8" in str(time.render())


async def _type(pilot: Pilot[None], app: DelveApp, command: str) -> None:
    """Type a command on the command line and wait until it is saved."""
    before = expedition_of(app).event_count
    await pilot.press("colon")
    await pilot.press(*command, "enter")
    await settled(pilot, lambda: expedition_of(app).event_count > before)
