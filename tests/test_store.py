"""Tests of the expedition file: round trips, atomic appends, and refusing bad files unmodified."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

import delvetui
from delvetui.errors import (
    DamagedFile,
    ExpeditionExists,
    ExpeditionLocked,
    ExpeditionNotFound,
    ForeignFile,
    ReadOnlyExpedition,
    StorageFailed,
    StoreError,
)
from delvetui.store import APPLICATION_ID, SCHEMA_VERSION, NewEvent, Store, StoredBatch, reading

PROJECT_ROOT = Path(delvetui.__file__).resolve().parent.parent
META = {"name": "Die Gruft des Schädelkönigs", "procedure": "b/x 1", "referee": "Zoë"}
PROCEDURE = "# Procedure\nturn = 10 minutes\nwandering: 1-in-6 ⚔\n"


def make(path: Path, batches: int = 3, events_per_batch: int = 2) -> Path:
    """Create an expedition at ``path`` with a few small batches and close it."""
    with Store.create(path, meta=META, procedure_text=PROCEDURE) as store:
        for b in range(batches):
            store.append(
                f"turn {b}",
                f"2024-05-01T10:{b:02d}:00+00:00",
                [NewEvent("Tick", 1, {"batch": b, "i": i}) for i in range(events_per_batch)],
            )
    return path


def fingerprint(path: Path) -> tuple[str, list[str]]:
    """The file's hash and its folder's listing: both must be unchanged after a refused open."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(path.parent))


def read_everything(path: Path, *, write: bool = False) -> None:
    with Store.open(path, write=write) as store:
        store.meta()
        store.procedure_text()
        list(store.batches())


def run_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=30
    )


# -- round trips -----------------------------------------------------------------------------------


def test_round_trip_of_meta_procedure_batches_and_events(tmp_path: Path) -> None:
    path = tmp_path / "gruft.delve"
    nested: dict[str, Any] = {
        "who": "Ælfrida the Ünbowed 🗡",
        "hp": {"now": 3, "max": 7, "history": [7, 5, 3]},
        "tags": ["cursed", None, True, 1.5],
        "note": 'line\nbreak "quoted" \x1f unit separator',
    }
    with Store.create(path, meta=META, procedure_text=PROCEDURE) as store:
        assert not store.readonly and store.readonly_reason is None
        assert store.append("camp", "2024-05-01T10:00:00+00:00", [NewEvent("Camp", 1, {})]) == 1
        assert (
            store.append(
                "hit Ælfrida 4",
                "2024-05-01T10:10:00+00:00",
                [NewEvent("Damage", 2, nested), NewEvent("Tick", 1, {"n": 1})],
            )
            == 2
        )
        assert store.append("note", "2024-05-01T10:20:00+00:00", []) == 3
        store.set_meta("referee", "Zoë Ø")
        store.set_meta("turn", "4")

    with Store.open(path, write=False) as store:
        assert store.readonly
        assert store.meta() == {**META, "referee": "Zoë Ø", "turn": "4"}
        assert store.procedure_text() == PROCEDURE
        assert store.batch_count() == 3
        assert store.event_count() == 3
        batches = list(store.batches())
    assert [b.seq for b in batches] == [1, 2, 3]
    assert batches[1] == StoredBatch(
        seq=2,
        command="hit Ælfrida 4",
        at="2024-05-01T10:10:00+00:00",
        events=batches[1].events,
    )
    assert [(e.seq, e.type, e.version) for b in batches for e in b.events] == [
        (1, "Camp", 1),
        (2, "Damage", 2),
        (3, "Tick", 1),
    ]
    assert batches[1].events[0].payload == nested
    assert batches[2].events == ()


def test_batches_after_and_across_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "CHUNK", 2)  # Small chunks: exercise the chunk seams.
    path = make(tmp_path / "x.delve", batches=7, events_per_batch=3)
    with Store.open(path) as store:
        assert store.batch_count() == 7 and store.event_count() == 21
        everything = list(store.batches())
        assert [b.seq for b in everything] == list(range(1, 8))
        assert [e.seq for b in everything for e in b.events] == list(range(1, 22))
        assert list(store.batches(after=4)) == everything[4:]
        assert list(store.batches(after=7)) == []
        assert list(store.batches(after=99)) == []


def test_checksums_follow_the_documented_format(tmp_path: Path) -> None:
    path = make(tmp_path / "x.delve", batches=1, events_per_batch=1)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        batch, type_, version, payload, crc = raw.execute(
            "SELECT batch, type, version, payload, crc FROM events"
        ).fetchone()
        seq, command, at, batch_crc = raw.execute("SELECT * FROM batches").fetchone()
    raw.close()
    assert payload == '{"batch":0,"i":0}'
    assert crc == zlib.crc32(f"{batch}\x1f{type_}\x1f{version}\x1f{payload}".encode())
    assert batch_crc == zlib.crc32(f"{seq}\x1f{command}\x1f{at}\x1f1".encode())


def test_create_refuses_an_existing_path(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    path.write_text("precious")
    with pytest.raises(ExpeditionExists):
        Store.create(path, meta={}, procedure_text="")
    assert path.read_text() == "precious"
    assert sorted(os.listdir(tmp_path)) == ["x.delve"]  # No temporary file left behind.


def test_create_refuses_a_leftover_journal(tmp_path: Path) -> None:
    (tmp_path / "x.delve-journal").write_bytes(b"old")
    with pytest.raises(StoreError, match="left over"):
        Store.create(tmp_path / "x.delve", meta={}, procedure_text="")
    assert sorted(os.listdir(tmp_path)) == ["x.delve-journal"]


def test_open_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ExpeditionNotFound, match="no expedition file"):
        Store.open(tmp_path / "nothing.delve")
    assert os.listdir(tmp_path) == []


def test_closed_store_refuses_use(tmp_path: Path) -> None:
    store = Store.open(make(tmp_path / "x.delve"))
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.batch_count()


# -- atomic appends --------------------------------------------------------------------------------


def test_failure_mid_append_saves_nothing_of_the_batch(tmp_path: Path) -> None:
    path = make(tmp_path / "x.delve", batches=1, events_per_batch=2)
    with Store.open(path) as store:
        assert store._conn is not None
        # A TEMP trigger lives only in this connection: it fails the third insert of the batch,
        # after the batch row and two event rows are already written inside the transaction.
        store._conn.execute(
            "CREATE TEMP TRIGGER fail BEFORE INSERT ON events WHEN NEW.seq = 5"
            " BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
        )
        events = [NewEvent("Tick", 1, {"i": i}) for i in range(4)]
        with pytest.raises(StorageFailed, match=r"disk I/O error\); nothing of this command"):
            store.append("doomed", "t", events)
        assert store.batch_count() == 1 and store.event_count() == 2
        store._conn.execute("DROP TRIGGER temp.fail")
        assert store.append("again", "t", events) == 2  # Still usable, numbering unbroken.
    with Store.open(path, write=False) as store:
        assert [b.command for b in store.batches()] == ["turn 0", "again"]
        assert [e.seq for b in store.batches() for e in b.events] == list(range(1, 7))


def test_payload_that_is_not_json_is_refused_before_writing(tmp_path: Path) -> None:
    path = make(tmp_path / "x.delve", batches=1)
    before = fingerprint(path)
    with Store.open(path) as store:
        good = NewEvent("Tick", 1, {"i": 1})
        with pytest.raises(ValueError):
            store.append("nan", "t", [good, NewEvent("Bad", 1, {"x": float("nan")})])
        with pytest.raises(TypeError):
            store.append("set", "t", [good, NewEvent("Bad", 1, {"x": {1, 2}})])
        assert store.batch_count() == 1
    assert fingerprint(path) == before


#: A process that dies in the middle of a big append, its journal hot in the folder.
CRASH = (
    "import os, sys\n"
    "from pathlib import Path\n"
    "from delvetui.store import NewEvent, Store\n"
    "store = Store.open(Path(sys.argv[1]))\n"
    "conn = store._conn\n"
    "conn.execute('PRAGMA cache_size = 1')  # spill pages into the file before commit\n"
    "conn.create_function('crash', 0, lambda: os._exit(9))\n"
    "conn.execute('CREATE TEMP TRIGGER t BEFORE INSERT ON events WHEN NEW.seq = 150'\n"
    "             ' BEGIN SELECT crash(); END')\n"
    "store.append('big', 't', [NewEvent('E', 1, {'x': 'y' * 1000}) for _ in range(200)])\n"
)


def crashed(tmp_path: Path) -> Path:
    """A file left mid-save: one committed batch, and a hot journal of the second."""
    path = make(tmp_path / "x.delve", batches=1, events_per_batch=2)
    assert run_python(CRASH, str(path)).returncode == 9
    assert (tmp_path / "x.delve-journal").exists()
    return path


def test_crash_mid_append_is_rolled_back_by_the_next_writer(tmp_path: Path) -> None:
    path = crashed(tmp_path)
    with Store.open(path) as store:
        assert store.batch_count() == 1 and store.event_count() == 2
        assert len(list(store.batches())) == 1
    assert not (tmp_path / "x.delve-journal").exists()


def test_crash_mid_append_is_rolled_back_by_the_next_reader(tmp_path: Path) -> None:
    """A reader finishes SQLite's recovery too: the last committed state, nothing lost."""
    path = crashed(tmp_path)
    with Store.open(path, write=False) as store:
        assert store.readonly
        assert store.batch_count() == 1 and store.event_count() == 2
        assert [b.seq for b in store.batches()] == [1]
    assert not (tmp_path / "x.delve-journal").exists()
    with Store.open(path) as store:  # and the file is whole for the next writer
        store.check_pages()
        assert store.batch_count() == 1


def test_a_half_saved_file_that_cannot_be_written_is_left_alone_with_advice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = crashed(tmp_path)
    before = fingerprint(path)
    journal = (tmp_path / "x.delve-journal").read_bytes()
    real_access = os.access
    # As on a read-only share or a folder without write permission (root ignores chmod).
    monkeypatch.setattr(
        os,
        "access",
        lambda target, mode, **kw: mode != os.W_OK and real_access(target, mode, **kw),
    )
    with pytest.raises(StoreError) as refused:
        Store.open(path, write=False)
    message = str(refused.value)
    assert "half-saved" in message and "cannot be recovered here" in message
    assert "Make the folder writable" in message and "x.delve-journal" in message
    assert "It was not modified." in message
    assert fingerprint(path) == before
    assert (tmp_path / "x.delve-journal").read_bytes() == journal


# -- files that are not ours or are damaged --------------------------------------------------------


@pytest.mark.parametrize("write", [True, False])
def test_zero_byte_file_is_foreign_and_unchanged(tmp_path: Path, write: bool) -> None:
    path = tmp_path / "empty.delve"
    path.touch()
    before = fingerprint(path)
    with pytest.raises(ForeignFile, match="empty"):
        Store.open(path, write=write)
    assert fingerprint(path) == before


@pytest.mark.parametrize("write", [True, False])
def test_random_bytes_are_foreign_and_unchanged(tmp_path: Path, write: bool) -> None:
    path = tmp_path / "noise.delve"
    path.write_bytes(os.urandom(5000))
    before = fingerprint(path)
    with pytest.raises(ForeignFile, match="not a delvetui expedition file"):
        Store.open(path, write=write)
    assert fingerprint(path) == before


def test_another_programs_database_is_foreign_and_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "users.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO users (name) VALUES ('alice')")
    db.close()
    before = fingerprint(path)
    with pytest.raises(ForeignFile, match="another program"):
        Store.open(path)
    assert fingerprint(path) == before


def test_our_application_id_without_our_tables_is_foreign(tmp_path: Path) -> None:
    path = tmp_path / "hollow.delve"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("PRAGMA user_version = 1")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.close()
    before = fingerprint(path)
    with pytest.raises(ForeignFile, match="no batches, events, procedure table"):
        Store.open(path)
    assert fingerprint(path) == before


def test_flipped_byte_in_a_payload_is_reported_and_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    with Store.create(path, meta=META, procedure_text=PROCEDURE) as store:
        store.append("a", "t", [NewEvent("Tick", 1, {"i": i}) for i in range(3)])
        store.append("b", "t", [NewEvent("Note", 1, {"text": "goblin-marker-XYZ"})])
        store.append("c", "t", [NewEvent("Tick", 1, {"i": 9})])
    data = path.read_bytes()
    assert data.count(b"goblin-marker-XYZ") == 1
    path.write_bytes(data.replace(b"goblin-marker-XYZ", b"goblin-marker-XYW"))
    before = fingerprint(path)

    with Store.open(path) as store:
        seen: list[int] = []
        with pytest.raises(
            DamagedFile, match=r"damaged at event 4 \(its checksum does not match\)"
        ):
            seen.extend(b.seq for b in store.batches())
        assert seen == [1]  # Everything before the damage was delivered, nothing after it.
        assert store.readonly
        with pytest.raises(ReadOnlyExpedition, match="damaged"):
            store.append("d", "t", [])
    assert fingerprint(path) == before


def test_flipped_byte_in_a_command_is_reported(tmp_path: Path) -> None:
    path = make(tmp_path / "x.delve")
    data = path.read_bytes()
    assert data.count(b"turn 1") == 1
    path.write_bytes(data.replace(b"turn 1", b"turn 7"))
    before = fingerprint(path)
    with pytest.raises(DamagedFile, match="damaged at batch 2"):
        read_everything(path)
    assert fingerprint(path) == before


def test_missing_rows_are_reported_not_skipped(tmp_path: Path) -> None:
    gap = make(tmp_path / "gap.delve")
    lost = make(tmp_path / "lost.delve")
    with sqlite3.connect(gap) as db:
        db.execute("DELETE FROM events WHERE batch = 2")
        db.execute("DELETE FROM batches WHERE seq = 2")
    db.close()
    with sqlite3.connect(lost) as db:
        db.execute("DELETE FROM events WHERE seq = 6")
    db.close()
    with pytest.raises(DamagedFile, match=r"at batch 2 \(the batch is missing\)"):
        read_everything(gap)
    with pytest.raises(DamagedFile, match=r"at batch 3 \(its checksum does not match\)"):
        read_everything(lost)


@pytest.mark.parametrize("write", [True, False])
def test_truncated_file_is_refused_and_unchanged(tmp_path: Path, write: bool) -> None:
    path = tmp_path / "x.delve"
    with Store.create(path, meta=META, procedure_text=PROCEDURE) as store:
        store.append("many", "t", [NewEvent("E", 1, {"i": i, "x": "z" * 150}) for i in range(200)])
    assert path.stat().st_size > 8 * 4096
    path.write_bytes(path.read_bytes()[:-100])
    before = fingerprint(path)
    with pytest.raises((DamagedFile, ForeignFile)):
        read_everything(path, write=write)
    assert fingerprint(path) == before


def test_newer_file_version_opens_read_only(tmp_path: Path) -> None:
    path = make(tmp_path / "x.delve")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 2")
    db.close()
    before = fingerprint(path)
    with Store.open(path) as store:
        assert store.readonly
        assert store.readonly_reason == (
            f"{path} was written by a newer delvetui (file version 2, this program reads up to 1);"
            " it is open read-only."
        )
        assert store.batch_count() == 3
        assert len(list(store.batches())) == 3
        with pytest.raises(ReadOnlyExpedition, match="newer delvetui"):
            store.append("x", "t", [])
        with pytest.raises(ReadOnlyExpedition):
            store.set_meta("k", "v")
    assert fingerprint(path) == before


def test_reading_store_refuses_changes(tmp_path: Path) -> None:
    path = make(tmp_path / "x.delve")
    before = fingerprint(path)
    with (
        Store.open(path, write=False) as store,
        pytest.raises(ReadOnlyExpedition, match="reading only"),
    ):
        store.append("x", "t", [])
    assert fingerprint(path) == before


# -- the writer lock -------------------------------------------------------------------------------

TRY_OPEN = """
import sys
from pathlib import Path
from delvetui.errors import ExpeditionLocked
from delvetui.store import Store
for write in (True, False):
    try:
        with Store.open(Path(sys.argv[1]), write=write) as store:
            print("opened", write, store.batch_count())
    except ExpeditionLocked as exc:
        print("locked", write, exc)
"""


def test_writer_lock_excludes_a_second_writer_but_not_readers(tmp_path: Path) -> None:
    path = make(tmp_path / "x.delve")
    with Store.open(path) as store:
        result = run_python(TRY_OPEN, str(path))
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0].startswith(f"locked True {path} is open in another delvetui")
        if Path("/proc/locks").exists():
            assert f"(process {os.getpid()})" in lines[0]
        assert lines[1] == "opened False 3"
        with pytest.raises(ExpeditionLocked, match="already open for writing in this delvetui"):
            Store.open(path)
        with Store.open(path, write=False) as reader:
            assert reader.batch_count() == 3
        store.append("still mine", "t", [])
    result = run_python(TRY_OPEN, str(path))
    assert result.stdout.splitlines() == ["opened True 4", "opened False 4"], result.stderr
    with Store.open(path) as store:
        assert store.batch_count() == 4
