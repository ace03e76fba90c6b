"""Planning the next expedition (issue #32): ``application.campaign``.

The rules (docs/commands.md, "Ending an expedition, and the next one"): the predecessor is
read once, read-only, and checked as ``import`` checks a file from outside, so a damaged or
impossible one is refused; the plan shown is the expedition made; a name taken is refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.application.campaign import (
    MAX_DOWNTIME_DAYS,
    create_next,
    downtime_minutes,
    next_plan,
    read_predecessor,
)
from delvetui.core import events as ev
from delvetui.core.decide import start_events
from delvetui.errors import CommandError, DelveError, ExpeditionExists
from delvetui.procedure.registry import find
from delvetui.session import Expedition, encode
from delvetui.store import Store
from tests.conftest import Factory, run


def test_one_reading_plans_many_downtimes_and_the_plan_is_what_is_made(
    expedition: Factory, home: Path
) -> None:
    x = expedition("delving", name="barrow")
    run(x, "pc add Ash hp=8", "pc Ash hp=-6", "light add candle count=2 carrier=Ash", "end")
    x.close()
    found = read_predecessor(home / "barrow.delve")
    week = next_plan(found, "barrow-2", downtime="7d", seed=4)
    night = next_plan(found, "barrow-2", downtime="10h", seed=4)
    assert week.state.day == 8 and night.state.day == 1
    assert [(m.name, m.hp) for m in week.state.party] == [("Ash", 8)]
    assert [(m.name, m.hp) for m in night.state.party] == [("Ash", 2)]  # no whole day
    path = create_next(week)
    with Expedition.open(path) as made:
        assert made.state == week.state
    with pytest.raises(ExpeditionExists, match="already exists"):
        create_next(week)


def test_a_predecessor_no_command_could_have_written_is_refused(home: Path) -> None:
    """A file made outside delvetui (a member with more HP than their maximum) is refused as
    an import refuses it, and nothing is made."""
    delving = find("delving")
    path = home / "forged.delve"
    meta = {"name": "forged", "procedure": "delving", "seed": "1", "created": "2026-01-01"}
    store = Store.create(path, meta=meta, procedure_text=delving.text)
    try:
        store.append("new", "2026-01-01T10:00:00", encode(start_events("forged", delving, seed=1)))
        forged = ev.MemberJoined(name="Ash", hp=50, max_hp=3)
        store.append("pc add Ash hp=50", "2026-01-01T10:00:01", encode([forged]))
        store.append("end", "2026-01-01T10:00:02", encode([ev.ExpeditionEnded()]))
    finally:
        store.close()
    with pytest.raises(DelveError, match=r"forged cannot be continued: .*no command could"):
        next_plan(path, "after-forged", downtime="1d")
    assert not (home / "after-forged.delve").exists()


def test_the_first_expedition_on_a_later_day_sets_its_hour_on_that_day(home: Path) -> None:
    """`time set` before the first turn sets the hour the expedition starts at, on its first
    day, also when that is day 5 of the campaign; a continued expedition never goes back
    before its predecessor's end (it is the next day)."""
    from delvetui.application.campaign import first_in_campaign

    path = first_in_campaign("watch", find("delving"), campaign="marches", day=5, start="10:00")
    with Expedition.open(path) as x:
        assert (x.state.campaign, x.state.day, x.state.clock_text) == ("marches", 5, "10:00")
        x.execute("time set 06:00")
        assert (x.state.day, x.state.clock_text) == (5, "06:00")
        x.execute("end")
    after = create_next(next_plan(path, "watch-2", downtime="2h"))
    with Expedition.open(after) as y:
        assert (y.state.day, y.state.clock_text) == (5, "08:00")
        y.execute("time set 07:00")
        assert (y.state.day, y.state.clock_text) == (6, "07:00")


SEASONS = '[calendar]\nmonths = ["Sowing", "Growing", "Reaping", "Sleeping"]\ndays = 91\n'


def test_the_calendar_carries_to_the_next_expedition_unless_another_is_named(
    home: Path,
) -> None:
    """The calendar named for the first expedition is the next one's too (its CalendarSet is
    in the new file's batch 1); a calendar named with the next one takes its place."""
    from delvetui.application.campaign import first_in_campaign
    from delvetui.core.calendar import date_for

    path = first_in_campaign("watch", find("delving"), calendar=SEASONS)
    with Expedition.open(path) as x:
        x.execute("end")
    carried = create_next(next_plan(path, "watch-2", downtime="91d"))
    with Expedition.open(carried) as y:
        assert y.state.calendar == SEASONS and y.state.day == 92
        assert "Growing" in date_for(y.state, y.procedure)
        y.execute("end")
    other = SEASONS.replace("Sowing", "Thaw")
    named = create_next(next_plan(carried, "watch-3", downtime="1d", calendar=other))
    with Expedition.open(named) as z:
        assert z.state.calendar == other
        z.verify()


def test_a_start_hour_after_the_downtime_keeps_every_day_of_rest(
    expedition: Factory, home: Path
) -> None:
    """`--downtime 2d --start 06:00` sets out at the first 06:00 once the two days have
    passed, so both are days of rest; `--day N`
    names the date instead, and a date before the end is refused with it."""
    x = expedition("ose", name="barrow")
    run(x, "time set 09:10", "pc add Ash hp=8", "pc Ash hp=-6", "end")
    x.close()
    found = read_predecessor(home / "barrow.delve")
    plan = next_plan(found, "barrow-2", downtime="2d", start="06:00", seed=1)
    assert (plan.state.day, plan.state.clock_text) == (4, "06:00")
    healed = [e for e in plan.first if isinstance(e, ev.HpChanged)]
    assert [e.reason for e in healed] == ["2 days of rest"]
    dated = next_plan(found, "barrow-2", day=3, seed=1)
    assert (dated.state.day, dated.state.clock_text) == (3, "09:10")
    with pytest.raises(DelveError, match="it would start on day 1 at 08:00"):
        next_plan(found, "barrow-2", day=1, start="08:00")
    with pytest.raises(DelveError, match="not both"):
        next_plan(found, "barrow-2", day=3, downtime="1d")


@pytest.mark.parametrize("typed", ["100000d", "2400000h", "999999999m"])
def test_a_downtime_too_long_is_told_its_limit_not_its_spelling(typed: str) -> None:
    """`new --after PRED --downtime 7d|36h|2d6h` (docs/commands.md): a downtime written
    right but longer than the limit is told the limit, not that it is misspelt."""
    with pytest.raises(CommandError) as told:
        downtime_minutes(typed)
    assert str(told.value) == f"A downtime may be up to {MAX_DOWNTIME_DAYS} days."
