"""Sessions at the table: the offer on opening, the session key, the header and the log."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from delvetui.application.session_offer import BREAK, Offer, session_offer
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.panes.session_bar import SessionBar
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table.palette import entries
from tests.ui_support import SIZES, expedition, make, ready, screen_text, settled

SIZE = (120, 40)
#: When the last evening at the table ended, as far as the tests are concerned.
LAST_EVENING = dt.datetime.now(dt.UTC) - dt.timedelta(hours=7)


def played(commands: list[str], at: dt.datetime | None = None) -> Path:
    """A fresh expedition with these commands made at ``at`` (now when None)."""
    path = make()
    with Expedition.open(path) as opened:
        for command in commands:
            opened.execute(command, now=at)
    return path


def offer(app: DelveApp) -> Offer | None:
    table = app.table
    assert table is not None
    return table.query_one(SessionBar).offer


def log_texts(app: DelveApp) -> list[str]:
    table = app.table
    assert table is not None
    return [line.text for line in table.query_one(TurnLog).lines]


def batches_in(path: Path) -> int:
    with Expedition.open(path, write=False) as reopened:
        return reopened.store.batch_count()


async def test_opening_with_no_session_offers_one_and_s_starts_it() -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = expedition(app).batch_count
        assert offer(app) == Offer(start=1)
        text = screen_text(app)
        assert "No session is running." in text and "start session 1" in text
        assert "Session" not in text.splitlines()[0]  # the header
        await pilot.press("S")
        await settled(pilot, lambda: expedition(app).state.in_session)
        assert expedition(app).state.session == 1
        assert expedition(app).batch_count == before + 1
        assert offer(app) is None
        await settled(pilot, lambda: any(t.startswith("Session 1 begins") for t in log_texts(app)))
        text = screen_text(app)
        assert "Session 1" in text.splitlines()[0]
        assert "No session is running." not in text
    app.close_expedition()
    assert batches_in(path) == before + 1


async def test_the_offer_does_not_block_play_and_escape_puts_it_away() -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        assert offer(app) is not None
        written = path.read_bytes()
        await pilot.press("escape")
        await settled(pilot, lambda: offer(app) is None)
        assert "No session is running." not in screen_text(app)
        await pilot.pause()
        assert not expedition(app).state.in_session
        assert path.read_bytes() == written
        played = expedition(app).batch_count
    app.close_expedition()  # saves a snapshot (derived data), but no command
    assert batches_in(path) == played


async def test_a_session_left_running_over_a_break_is_offered_to_end_and_start_again() -> None:
    path = played(["session start", "turn"], at=LAST_EVENING)
    app = DelveApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = expedition(app).batch_count
        shown = offer(app)
        assert shown is not None and (shown.end, shown.start) == (1, 2)
        assert shown.commands == ("session end", "session start")
        text = screen_text(app)
        assert "Session 1 is still running; the last command was 7 hours ago." in text
        assert "end it and start session 2" in text
        await pilot.press("S")
        await settled(pilot, lambda: expedition(app).state.session == 2)
        assert expedition(app).state.in_session
        assert expedition(app).batch_count == before + 2
        await settled(pilot, lambda: any(t.startswith("Session 2 begins") for t in log_texts(app)))
        assert any(t.startswith("Session 1 ends") for t in log_texts(app))
    app.close_expedition()
    assert batches_in(path) == before + 2


async def test_a_session_in_play_is_not_interrupted_and_s_asks_before_ending_it() -> None:
    app = DelveApp(played(["session start"]))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert offer(app) is None
        assert "Session 1" in screen_text(app).splitlines()[0]
        await pilot.press("S")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("escape")  # keep playing
        await settled(pilot, lambda: app.screen is app.table)
        assert expedition(app).state.in_session
        await pilot.press("S")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")  # "End session 1" comes first
        await settled(pilot, lambda: not expedition(app).state.in_session)
        assert expedition(app).state.session == 1
        assert "Session" not in screen_text(app).splitlines()[0]
    app.close_expedition()


async def test_the_palette_starts_and_ends_sessions() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        names = {name: run for name, _, run in entries(table)}
        assert "Start a session" in names and "End the session" not in names
        names["Start a session"]()
        await settled(pilot, lambda: expedition(app).state.in_session)
        names = {name: run for name, _, run in entries(table)}
        assert "End the session" in names and "Start a session" not in names
        names["End the session and start the next"]()
        await settled(pilot, lambda: expedition(app).state.session == 2)
        assert expedition(app).state.in_session
        names = {name: run for name, _, run in entries(table)}
        names["End the session"]()
        await settled(pilot, lambda: not expedition(app).state.in_session)
    app.close_expedition()


async def test_no_offer_on_a_read_only_expedition() -> None:
    path = make()
    with Expedition.open(path):  # another delvetui holds it
        app = DelveApp(path)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            assert offer(app) is None
        app.close_expedition()


async def test_the_offer_fits_every_supported_size() -> None:
    for size in SIZES:
        app = DelveApp(played(["session start"], at=LAST_EVENING))
        async with app.run_test(size=size) as pilot:
            await ready(pilot)
            line = screen_text(app).splitlines()[2]  # under the header and the alert strip
            assert "Session 1" in line and "S  end it" in line and "esc  not now" in line
        app.close_expedition()


def test_the_offer_follows_the_session_and_the_break() -> None:
    from delvetui.core.state import State

    now = dt.datetime(2026, 11, 21, 19, 0, tzinfo=dt.UTC)
    running = State(session=3, in_session=True)
    assert session_offer(State(), None, now) == Offer(start=1)
    assert session_offer(State(session=3), "2026-11-20T21:00:00+00:00", now) == Offer(start=4)
    assert session_offer(running, None, now) is None
    recent = (now - BREAK + dt.timedelta(minutes=1)).isoformat()
    assert session_offer(running, recent, now) is None
    old = (now - BREAK).isoformat()
    assert session_offer(running, old, now) == Offer(start=4, end=3, idle=BREAK)
    assert session_offer(running, "not a time", now) is None
    naive = (now - dt.timedelta(days=3)).astimezone().replace(tzinfo=None).isoformat()
    found = session_offer(running, naive, now)
    assert found is not None and found.words()[1][0] == "Session 3 idle for 3 days."


async def test_the_header_keeps_the_session_and_the_badges_at_80_columns() -> None:
    app = DelveApp(played(["session start"]))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        table.table_dice = True
        table.query_one(StatusBar).readonly = "read-only"
        await pilot.pause()
        header = screen_text(app).splitlines()[0]
        assert "Session 1" in header and "TABLE DICE" in header and "READ-ONLY" in header
        assert "Delving" not in header  # the procedure's name gave way
    app.close_expedition()
