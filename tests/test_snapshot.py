"""Resuming from a snapshot gives exactly what a full replay gives."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from delvetui import __version__, cli, session
from delvetui.core import log, snapshot
from delvetui.core.timeline import Batch
from delvetui.errors import DamagedFile, ReadOnlyExpedition
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.store import StoredBatch

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


def test_closing_a_played_expedition_saves_a_snapshot_so_resume_replays_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.delve"
    with Expedition.create(path, find("delving"), seed=9, now=MOMENT) as x:
        for text in SCRIPT[:5]:
            x.execute(text, now=MOMENT)
        played = x.batch_count
    assert played < session.SNAPSHOT_EVERY  # only the close can have saved it
    with Expedition.open(path, write=False) as full:
        expected = full.state
    with Expedition.open(path, snapshot=True) as fast:
        assert fast.snapshot_batch == played
        assert fast.state == expected
        fast.verify()


def test_opening_and_closing_without_playing_writes_nothing(played: Path) -> None:
    with sqlite3.connect(played) as conn:
        conn.execute("DELETE FROM snapshots")  # a tail to replay: still nothing is written
    before = played.read_bytes()
    with Expedition.open(played, snapshot=True) as fast:
        assert fast.snapshot_batch == 0
    with Expedition.open(played):
        pass
    assert played.read_bytes() == before


def test_an_expedition_found_damaged_is_closed_without_writing(played: Path) -> None:
    with Expedition.open(played, snapshot=True) as x:
        x.execute("turn", now=MOMENT)
        x.found_damaged("A page of the file is damaged.")
        after_turn = played.read_bytes()
        with pytest.raises(ReadOnlyExpedition, match="damaged"):
            x.execute("turn", now=MOMENT)
    assert played.read_bytes() == after_turn


def test_a_crash_leaves_fewer_than_snapshot_every_batches_to_replay(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    x = Expedition.create(path, find("delving"), seed=9, now=MOMENT)
    for _ in range(session.SNAPSHOT_EVERY * 2 + 3):
        x.execute("turn", now=MOMENT)
    total = x.batch_count
    x.close(snapshot=False)  # as a crash leaves it: no snapshot at closing
    with Expedition.open(path, snapshot=True) as fast:
        assert 0 < total - fast.snapshot_batch < session.SNAPSHOT_EVERY
        assert fast.batch_count == total


@given(st.lists(st.integers(min_value=1, max_value=60), max_size=40))
def test_batch_numbers_survive_their_runs(seqs: list[int]) -> None:
    runs = snapshot.runs(seqs)
    assert snapshot.unruns(runs, upto=60) == seqs
    assert len(runs) <= len(seqs)


def test_a_snapshot_naming_batches_it_cannot_know_is_ignored(played: Path) -> None:
    with Expedition.open(played, write=False) as full:
        expected = full.state
    with sqlite3.connect(played) as conn:
        batch, data = conn.execute("SELECT batch, data FROM snapshots").fetchone()
    # Runs past the snapshot's own batch (and a huge one) are refused, not expanded.
    for bad in ([[1, batch + 1]], [[1, 10**12]], [[0, 1]], [["1", 1]], [[1]]):
        forged = json.loads(data)
        forged["active"] = bad
        assert snapshot.loads(json.dumps(forged), program=__version__, batch=batch) is None
    with Expedition.open(played, snapshot=True) as fast:
        assert fast.state == expected


def act(path: Path, *words: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[int]]:
    """``delvetui act PATH WORDS`` through the real command line; the batches it replayed."""
    replayed: list[int] = []
    real = session.to_batch

    def counting(stored: StoredBatch) -> Batch:
        replayed.append(stored.seq)
        return real(stored)

    monkeypatch.setattr(session, "to_batch", counting)
    code = cli.main(["act", str(path), *words])
    monkeypatch.setattr(session, "to_batch", real)
    return code, replayed


def test_act_replays_only_what_comes_after_the_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`act` on a long expedition costs what its tail costs, not what its length costs."""
    path = tmp_path / "long.delve"
    with Expedition.create(path, find("delving"), seed=3, now=MOMENT) as x:
        for n in range(session.SNAPSHOT_EVERY * 3):
            x.execute(f"note {n}", now=MOMENT)
        total = x.batch_count
    x = Expedition.open(path, snapshot=True)  # a crash after two more: no snapshot of them
    x.execute("turn", now=MOMENT)
    x.execute("note after", now=MOMENT)
    x.close(snapshot=False)
    code, replayed = act(path, "note", "hi", monkeypatch=monkeypatch)
    assert code == 0
    assert replayed == [total + 1, total + 2]  # the tail, read and checked; nothing before
    with Expedition.open(path, write=False) as again:  # a full replay agrees
        assert [b.command for b in again.batches()][-3:] == ["turn", "note after", "note hi"]
        assert again.state.turn == 1


def test_act_refuses_damage_in_the_rows_it_reads_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.delve"
    with Expedition.create(path, find("delving"), seed=3, now=MOMENT) as x:
        for n in range(session.SNAPSHOT_EVERY + 2):
            x.execute(f"note {n}", now=MOMENT)
    x = Expedition.open(path, snapshot=True)
    x.execute("note the tail", now=MOMENT)
    x.close(snapshot=False)
    conn = sqlite3.connect(path)
    with conn:  # a flipped letter in the tail's payload; its checksum no longer matches
        conn.execute(
            "UPDATE events SET payload = replace(payload, 'the tail', 'the tall')"
            " WHERE batch = (SELECT MAX(seq) FROM batches)"
        )
    conn.close()
    written = path.read_bytes()
    code, _ = act(path, "note", "more", monkeypatch=monkeypatch)
    assert code == 2
    assert "is damaged at event" in capsys.readouterr().err
    assert path.read_bytes() == written


def test_a_snapshot_far_enough_back_is_kept_for_the_newest_turns(
    played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "TAIL_BATCHES", 5)
    with Expedition.open(played, snapshot=True) as x:
        for _ in range(12):
            x.execute("turn", now=MOMENT)
        total = x.batch_count
        kept = x.store.snapshot_batches()
    assert kept[-1] == total  # saved at closing
    assert [seq for seq in kept if seq <= total - 5]  # one far enough back for the table
    assert len(kept) <= 5 // 3 + 3  # and not every snapshot ever taken
    assert all(seq >= max(s for s in kept if s <= total - 5) for seq in kept)


def test_the_newest_turns_read_from_a_kept_snapshot_are_the_logs_last_lines(
    played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "TAIL_BATCHES", 5)
    with Expedition.open(played, snapshot=True) as x:
        for text in ["turn", "undo", "turn search", "note late", "turn", "undo", "redo"] * 2:
            x.execute(text, now=MOMENT)
    with Expedition.open(played, write=False) as full:
        everything = list(log.lines(full.batches(), full.procedure))
        voided = {line.batch for line in everything if line.voided}
    with Expedition.open(played, write=False, snapshot=True) as fast:
        found = fast.newest()
        assert found is not None
        first, pairs = found
        assert 1 < first <= fast.batch_count - 4  # from a snapshot 5 or more batches back
        assert [batch.seq for batch, _ in pairs] == list(range(first, fast.batch_count + 1))
        shown = [
            attrs.evolve(line, voided=line.batch in voided)
            for batch, before in pairs
            for line in log.batch_lines(batch, fast.procedure, before, session=before.session)
        ]
    assert shown == [line for line in everything if line.batch >= first]
    assert shown[-1].text.startswith("Redone: turn")


def test_newest_turns_that_disagree_with_the_snapshot_are_damage(
    played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "TAIL_BATCHES", 5)
    with Expedition.open(played, snapshot=True) as x:
        for _ in range(12):
            x.execute("turn", now=MOMENT)
    with sqlite3.connect(played) as conn:
        newest = conn.execute("SELECT max(batch) FROM snapshots").fetchone()[0]
        conn.execute("DELETE FROM snapshots WHERE batch = ?", (newest,))
    with Expedition.open(played, write=False) as full:
        expected = full.state
    # A state the file's log cannot reach, saved as the newest snapshot.
    with Expedition.open(played, snapshot=True) as x:
        x.timeline.state = attrs.evolve(expected, clock=expected.clock + 1)
        x._save_snapshot()
    before = played.read_bytes()
    with (
        Expedition.open(played, write=False, snapshot=True) as fast,
        pytest.raises(DamagedFile, match="do not match"),
    ):
        fast.newest()
    assert played.read_bytes() == before
