"""The history reader: the newest batches first, then the older ones, then one verdict.

``Expedition.history`` is what the table draws its turn log from; the snapshot check it
ends with is the one ``newest`` and ``verify`` make, in the same words.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import attrs
import pytest

from delvetui import session
from delvetui.errors import DamagedFile
from delvetui.procedure.registry import find
from delvetui.session import Expedition, Newest, Older, Step, Verdict

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)
START = ["pc add Ash hp=6", "light add torch count=4 lit carrier=Ash"]


def play(path: Path, turns: int) -> None:
    """An expedition of a party, a torch and this many turns (an undo and a redo among)."""
    with Expedition.create(path, find("delving"), seed=4, now=MOMENT) as x:
        for text in START:
            x.execute(text, now=MOMENT)
        for number in range(turns):
            x.execute("turn" if number % 9 else "turn walk", now=MOMENT)
            if number == 3:
                x.execute("undo", now=MOMENT)
                x.execute("redo", now=MOMENT)


def steps_of(parts: list[Newest | Older | Verdict]) -> list[Step]:
    """Every batch the parts hold, older ones first (as the table draws them)."""
    older = [step for part in parts if isinstance(part, Older) for step in part.steps]
    newest = [step for part in parts if isinstance(part, Newest) for step in part.steps]
    return older + newest


@pytest.fixture
def long_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(session, "SNAPSHOT_EVERY", 4)
    monkeypatch.setattr(session, "TAIL_BATCHES", 6)
    path = tmp_path / "long.delve"
    play(path, 30)
    return path


def test_the_newest_come_first_then_the_older_in_order_then_one_verdict(long_file: Path) -> None:
    with Expedition.open(long_file, write=False) as full:
        every = list(full.batches())
        expected = full.state
    with Expedition.open(long_file, write=False, snapshot=True) as fast:
        parts = list(fast.history(chunk=5))
    newest, *older, verdict = parts
    assert isinstance(newest, Newest) and 1 < newest.first <= len(every) - 6
    assert [step.batch.seq for step in newest.steps] == list(range(newest.first, len(every) + 1))
    assert all(isinstance(part, Older) and 0 < len(part.steps) <= 5 for part in older)
    assert verdict == Verdict("")
    steps = steps_of(parts)
    assert [step.batch for step in steps] == every
    # Each batch's state after it is the next one's before, up to the state opened with.
    assert [step.after for step in steps[:-1]] == [step.before for step in steps[1:]]
    assert steps[-1].after == expected
    assert [part.percent for part in older if isinstance(part, Older)][-1] < 100


def test_a_file_without_a_snapshot_far_enough_back_is_read_whole_in_chunks(
    long_file: Path,
) -> None:
    with sqlite3.connect(long_file) as conn:
        conn.execute("DELETE FROM snapshots")
    with Expedition.open(long_file, write=False) as x:
        parts = list(x.history(chunk=8))
        every = list(x.batches())
    assert parts[0] == Newest(len(every) + 1, ())
    assert parts[-1] == Verdict("")
    assert [step.batch for step in steps_of(parts)] == every
    assert [part.percent for part in parts[1:-1] if isinstance(part, Older)][-1] == 100


def test_a_short_expedition_is_all_newest_and_needs_no_second_reading(tmp_path: Path) -> None:
    path = tmp_path / "short.delve"
    play(path, 3)
    with Expedition.open(path, write=False) as x:
        parts = list(x.history())
    assert [type(part) for part in parts] == [Newest, Verdict]
    assert isinstance(parts[0], Newest) and parts[0].first == 1
    assert parts[1] == Verdict("")


def wrong_lineage(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Snapshots, the newest ones and the one kept far enough back alike, of a state the
    log cannot reach: the clock a minute off from a point on (as a bad write would leave)."""
    monkeypatch.setattr(session, "SNAPSHOT_EVERY", 1)
    with Expedition.open(path, snapshot=True) as x:
        x.timeline.state = attrs.evolve(x.state, clock=x.state.clock + 1)
        for _ in range(9):
            x.execute("turn", now=MOMENT)


def test_snapshots_that_agree_with_each_other_but_not_the_log_are_the_last_verdict(
    long_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of a fast resume: the whole log must replay to the state opened with."""
    wrong_lineage(long_file, monkeypatch)
    before = long_file.read_bytes()
    with Expedition.open(long_file, write=False, snapshot=True) as fast:
        parts = list(fast.history(chunk=10))
        with pytest.raises(DamagedFile) as verified:
            fast.verify()
    assert isinstance(parts[0], Newest) and parts[0].steps
    verdicts = [part for part in parts if isinstance(part, Verdict)]
    assert verdicts == [parts[-1]]
    # One check, in one sentence: what verify says is what the history says.
    assert verdicts[0].problem == verified.value.message
    assert "do not match its log" in verdicts[0].problem
    assert long_file.read_bytes() == before


def test_newest_batches_that_disagree_give_the_verdict_first_then_the_whole_log(
    long_file: Path,
) -> None:
    """The table is told at once, before its first paint; the log is still read whole."""
    with sqlite3.connect(long_file) as conn:
        newest = conn.execute("SELECT max(batch) FROM snapshots").fetchone()[0]
        conn.execute("DELETE FROM snapshots WHERE batch = ?", (newest,))
    with Expedition.open(long_file, snapshot=True) as x:
        x.timeline.state = attrs.evolve(x.state, clock=x.state.clock + 1)
        x._save_snapshot()
    with Expedition.open(long_file, write=False, snapshot=True) as fast:
        parts = list(fast.history(chunk=10))
        every = list(fast.batches())
        with pytest.raises(DamagedFile) as newest_check:
            fast.newest()
    first, *rest = parts
    assert isinstance(first, Verdict) and first.problem == newest_check.value.message
    assert all(isinstance(part, Older) for part in rest)
    assert [step.batch for step in steps_of(rest)] == every
