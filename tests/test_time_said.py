"""Time the table says (an action's `minutes_input`, `real_time`, `expires_turns`) and one
timer for the party (a light kind's `rides_along`): docs/procedures.md, "Time the table
says" and "One timer for the party". Each doc example is loaded and played as it says.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of, replays_the_same, run
from tests.test_docs_procedures import complete

MOMENT = dt.datetime(2026, 11, 26, 20, 0, tzinfo=dt.UTC)


@pytest.fixture
def passing(home: Path) -> Expedition:
    procedure = load_text(complete("time-passes"))
    expedition = Expedition.create(home / "pass.delve", procedure, seed=2)
    run(expedition, "pc add Ash hp=6", "light add torch lit", "timer add web 3t")
    return expedition


def test_the_doc_example_passes_the_time_said(passing: Expedition) -> None:
    batch = passing.execute("turn pass-time minutes=20")
    state = passing.state
    assert state.clock_text == "08:20" and state.turn == 1
    torch = state.light("torch1")
    assert torch is not None and torch.real_seconds == 40 * 60
    assert state.timer("web") is None
    assert [e.minutes for e in of(batch, ev.TurnEnded)] == [20]
    passing.execute("turn crawl")
    assert passing.state.clock_text == "08:26"
    replays_the_same(passing)


def test_without_the_minutes_the_turn_is_refused(passing: Expedition) -> None:
    before = (passing.state, passing.event_count)
    for typed in ("turn pass-time", "turn pass-time minutes=0"):
        with pytest.raises(CommandError, match="minutes="):
            passing.execute(typed)
        assert (passing.state, passing.event_count) == before


def test_more_time_than_a_real_hour_puts_the_light_out(passing: Expedition) -> None:
    passing.execute("timer add sand 30rm")
    batch = passing.execute("turn pass-time minutes=90")
    out = of(batch, ev.LightPutOut)
    assert [e.id for e in out] == ["torch1"] and passing.state.light_level == "dark"
    assert "sand" in [e.name for e in of(batch, ev.TimerEnded)]
    replays_the_same(passing)


def test_an_action_whose_minutes_name_no_number_input_is_refused() -> None:
    text = complete("time-passes").replace("number = true\n", "")
    text = text.replace('minutes_input = "minutes"', 'minutes_input = "minutes"\nturns = 2')
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    said = [p.message for p in raised.value.problems]
    assert any("which is not a number" in line for line in said)
    assert any("leave turns out" in line for line in said)


@pytest.fixture
def shared(home: Path) -> Expedition:
    procedure = load_text(complete("one-timer"))
    expedition = Expedition.create(home / "one.delve", procedure, seed=2)
    run(expedition, "pc add Ash hp=6", "light add torch lit")
    return expedition


def test_the_doc_example_rides_the_lantern_on_the_torchs_timer(shared: Expedition) -> None:
    shared.execute("realtime pass 25m", now=MOMENT)
    batch = shared.execute("light add lantern lit")
    lantern = shared.state.light("lantern1")
    assert lantern is not None and lantern.real_seconds == 35 * 60
    assert any("rides along on torch1's timer" in e.reason for e in of(batch, ev.LightRealTimeSet))
    shared.execute("realtime pass 35m", now=MOMENT)
    assert shared.state.light_level == "dark"
    replays_the_same(shared)


def test_with_the_old_light_out_the_new_one_starts_its_own_timer(shared: Expedition) -> None:
    shared.execute("realtime pass 50m", now=MOMENT)
    run(shared, "light off torch1", "light add lantern lit")
    lantern = shared.state.light("lantern1")
    assert lantern is not None and lantern.real_seconds == 3600


def test_a_light_rides_along_on_a_timer_by_turns_too(shared: Expedition) -> None:
    run(shared, "light realtime torch1 off", "turn crawl", "light add lantern lit")
    lantern, torch = shared.state.light("lantern1"), shared.state.light("torch1")
    assert lantern is not None and torch is not None
    assert lantern.real_seconds is None and lantern.minutes == torch.minutes == 50


def test_a_kind_with_no_time_cannot_ride_along() -> None:
    text = complete("one-timer").replace("hours = 1\nreal_minutes = 60\nrides_along", "rides_along")
    with pytest.raises(ProcedureError, match="burns no time of its own"):
        load_text(text)


def test_a_kind_of_turn_counts_its_distances_in_its_own_unit(home: Path) -> None:
    """docs/procedures.md, "Distances in another unit": feet below ground, miles a day on
    the road at the slowest member's pace, half as far again on a forced march, and an
    encounter's distance in yards."""
    procedure = load_text(complete("feet-and-miles"))
    with Expedition.create(home / "miles.delve", procedure, seed=4) as road:
        run(road, "pc add Ash hp=6 MV=120", "pc add Bo hp=5 MV=90")
        explored = of(road.execute("turn explore"), ev.TurnStarted)[0]
        assert explored.distance == "90 feet at Bo's pace"
        road.execute("enter wilderness")
        travelled = of(road.execute("turn travel wandering=6"), ev.TurnStarted)[0]
        assert travelled.distance == "18 miles at Bo's pace"
        forced = of(road.execute("turn travel speed=forced wandering=6"), ev.TurnStarted)[0]
        assert forced.distance == "27 miles at Bo's pace"
        met = of(road.execute("turn travel wandering=1 distance=12"), ev.EncounterBegan)[0]
        assert met.distance == "120 yards"


def test_an_action_is_refused_while_its_rule_holds(home: Path) -> None:
    """docs/procedures.md, "An action refused while a rule holds": a forced march owes a
    day's rest; the travel before it is refused, naming who marched, and saves nothing."""
    procedure = load_text(complete("must-rest"))
    with Expedition.create(home / "rest.delve", procedure, seed=4) as road:
        run(road, "pc add Ash hp=6", "pc add Bo hp=5", "turn travel march=forced")
        before = (road.state, road.event_count)
        with pytest.raises(CommandError) as refused:
            road.execute("turn travel")
        assert str(refused.value) == (
            "Travel is refused: after a forced march the party must rest a whole day first "
            "(turn rest) (Ash, Bo). Nothing was saved."
        )
        assert (road.state, road.event_count) == before
        run(road, "turn rest", "turn travel")
        assert road.state.turn == 3
