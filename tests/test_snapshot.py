"""Resuming from a snapshot gives exactly what a full replay gives."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from delvetui import session
from delvetui.procedure.registry import find
from delvetui.session import Expedition

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)
SCRIPT = [
    "pc add Ash hp=6",
    "pc add Bryn hp=5",
    "light add torch count=4 lit carrier=Ash",
    "turn",
    "turn walk hazard=2",
    "undo",
    "turn rest",
    "note a note",
    "turn run",
    "undo",
    "redo",
    "undo",
    "turn",
    "turn",
    "session start",
    "turn crawl hazard=5",
    "turn crawl hazard=1",
]


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(session, "SNAPSHOT_EVERY", 3)
    path = tmp_path / "x.delve"
    with Expedition.create(path, find("delving"), seed=9, now=MOMENT) as x:
        for text in SCRIPT:
            x.execute(text, now=MOMENT)
    return path


def test_snapshot_resume_equals_full_replay(played: Path) -> None:
    with Expedition.open(played, write=False) as full:
        expected = full.state
        history = full.timeline.history()
    with Expedition.open(played, snapshot=True) as fast:
        assert fast.snapshot_batch > 0
        assert fast.state == expected
        assert fast.timeline.history() == history
        fast.verify()


def test_undo_after_a_snapshot_resume_reaches_back_past_it(played: Path) -> None:
    with Expedition.open(played, write=False) as full:
        states = []
        for batch in full.batches():
            del batch
        states.append(full.state)
    with Expedition.open(played, snapshot=True) as fast:
        for _ in range(6):
            fast.execute("undo", now=MOMENT)
        after_undo = fast.state
    with Expedition.open(played) as replayed:
        assert replayed.state == after_undo


def test_a_damaged_snapshot_only_means_a_full_replay(played: Path) -> None:
    with Expedition.open(played, write=False) as full:
        expected = full.state
    with sqlite3.connect(played) as conn:
        conn.execute("UPDATE snapshots SET data = replace(data, '\"turn\":', '\"turn\": ')")
    with Expedition.open(played, snapshot=True) as fast:
        assert fast.snapshot_batch == 0
        assert fast.state == expected


def test_a_snapshot_from_another_version_is_ignored(
    played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "__version__", "99.0")
    with Expedition.open(played, snapshot=True) as fast:
        assert fast.snapshot_batch == 0
