"""The table draws what the expedition's history reader yields: a log read whole when no
snapshot lets its newest turns be read alone, and the one verdict of the snapshot check."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import attrs
import pytest

from delvetui import session
from delvetui.core import log
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.error_screen import ErrorScreen
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table import history_loader
from tests.ui_support import PARTY, expedition, make, ready, screen_text, settled

TURNS = [*PARTY, "session start", *["turn"] * 20, "turn walk", "turn search", "undo"]


@pytest.fixture
def long_expedition(monkeypatch: pytest.MonkeyPatch) -> Path:
    """An expedition of 30-odd commands, its snapshots kept as a long one keeps them."""
    monkeypatch.setattr(session, "SNAPSHOT_EVERY", 5)
    monkeypatch.setattr(session, "TAIL_BATCHES", 12)
    return make("history", TURNS)


def full_log(path: Path) -> list[log.Line]:
    with Expedition.open(path, write=False) as whole:
        return list(log.lines(whole.batches(), whole.procedure))


async def test_a_log_no_snapshot_reaches_is_said_to_be_read_then_drawn_whole(
    long_expedition: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file saved by an older delvetui (no snapshot far enough back): the table says its
    log is being read, then shows all of it, and `n` goes on walking."""
    with sqlite3.connect(long_expedition) as conn:
        conn.execute("DELETE FROM snapshots")
    monkeypatch.setattr(history_loader, "LONG_LOG", 10)  # a log this long is said to be read
    gate = threading.Event()
    monkeypatch.setattr(history_loader, "check_pages", lambda path: gate.wait(10))
    app = DelveApp(long_expedition)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = app.table
        assert table is not None and not table.newest_shown
        assert "Reading the log of" in screen_text(app)
        gate.set()
        table = await ready(pilot)
        assert table.newest_shown and not table.damage
        turn_log = table.query_one(TurnLog)
        whole = full_log(long_expedition)
        assert [line.text for line in turn_log.lines] == [line.text for line in whole]
        assert turn_log.voided == {line.batch for line in whole if line.voided}
        assert "Reading the log" not in screen_text(app)
        assert table.state.moving == "walk"  # the search was undone: the walk goes on
    app.close_expedition()


async def test_snapshots_the_log_cannot_reach_make_the_table_read_only(
    long_expedition: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of a fast resume: snapshots that agree with each other but not with the
    log are found once the whole log is read; the table turns read-only, the file stays."""
    monkeypatch.setattr(session, "SNAPSHOT_EVERY", 1)
    with Expedition.open(long_expedition, snapshot=True) as x:
        x.timeline.state = attrs.evolve(x.state, clock=x.state.clock + 1)
        for _ in range(14):
            x.execute("turn")
    written = long_expedition.read_bytes()
    app = DelveApp(long_expedition)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, ErrorScreen))
        shown = app.screen
        assert isinstance(shown, ErrorScreen)
        assert "do not match its log" in shown.message, shown.message
        await pilot.press("enter")
        table = await ready(pilot)
        assert table.damage and expedition(app).readonly
        assert table.query_one(TurnLog).lines[0].batch == 1  # the older turns are drawn
    app.close_expedition()
    assert long_expedition.read_bytes() == written
