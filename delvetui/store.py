"""The expedition file: one SQLite file per expedition holding an append-only log of event batches.

The store knows nothing about event classes. Events arrive as a type name, a schema version and a
JSON-able payload, and every row carries a CRC32 so that a flipped byte is reported, never replayed.
A file that is damaged or not ours is only ever opened read-only, so it is never modified.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import attrs

from delvetui import fileio, lock
from delvetui.errors import (
    DamagedFile,
    ExpeditionExists,
    ExpeditionLocked,
    ExpeditionNotFound,
    FileRefused,
    ForeignFile,
    NotAFile,
    ReadOnlyExpedition,
    StorageFailed,
    StoreError,
)

APPLICATION_ID = 0x44454C56  # "DELV"
SCHEMA_VERSION = 1  # PRAGMA user_version

_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100
_TABLES = frozenset({"meta", "procedure", "batches", "events"})
# The columns every reader relies on; a damaged table definition can rename one.
_COLUMNS = {
    "meta": ("key", "value"),
    "procedure": ("text",),
    "batches": ("seq", "command", "at", "crc"),
    "events": ("seq", "batch", "type", "version", "payload", "crc"),
}
# The procedure text's CRC32 is kept in meta under this key (files from before it have none),
# so a flipped byte in the procedure is reported, never followed. meta() leaves it out.
_PROCEDURE_CRC = "procedure_crc"
# Batches are read this many at a time so that no read transaction stays open while the caller
# consumes them: a lingering SHARED lock would make another process's commit time out.
_CHUNK = 256
#: Higher than any batch number.
_MAX_SEQ = 2**63 - 1
_BUSY_TIMEOUT = 10.0

# Primary SQLite result codes (the low byte of an extended code).
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
_SQLITE_READONLY_ROLLBACK = 776

# POSIX only: 0 elsewhere. O_BINARY (Windows only) keeps os.read from translating newlines.
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE procedure (text TEXT NOT NULL);
CREATE TABLE batches (
    seq INTEGER PRIMARY KEY,
    command TEXT NOT NULL,
    at TEXT NOT NULL,
    crc INTEGER NOT NULL
);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    batch INTEGER NOT NULL REFERENCES batches(seq),
    type TEXT NOT NULL,
    version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL
);
CREATE INDEX events_batch ON events(batch);
CREATE INDEX events_type ON events(type);
CREATE TABLE snapshots (batch INTEGER PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL);
"""


@attrs.frozen
class StoredEvent:
    """One event as read back from the log, numbered across the whole expedition."""

    seq: int
    type: str
    version: int
    payload: dict[str, Any]


@attrs.frozen
class StoredBatch:
    """The events one command produced, committed together, with the command text and time."""

    seq: int
    command: str
    at: str
    events: tuple[StoredEvent, ...]


@attrs.frozen
class NewEvent:
    """An event to append: its type name, its schema version and a JSON-able payload."""

    type: str
    version: int
    payload: dict[str, Any]


class Store:
    """An open expedition file: read its log and, when opened for writing, append to it.

    ``readonly`` is true exactly when ``readonly_reason`` says why (opened for reading, written by
    a newer delvetui, not writable, or found damaged). Not thread-safe: use from one thread.
    """

    path: Path
    readonly_reason: str | None

    def __init__(
        self,
        path: Path,
        conn: sqlite3.Connection,
        lock_fd: int | None,
        readonly_reason: str | None,
    ) -> None:
        self.path = path
        self.readonly_reason = readonly_reason
        #: A salvaged file's batches from before its damage, read once: batches() serves
        #: these instead of reading the damaged file again.
        self.salvaged: tuple[StoredBatch, ...] | None = None
        self._conn: sqlite3.Connection | None = conn
        self._lock_fd = lock_fd
        #: The file's format version (its ``user_version``), read when it was opened.
        self.file_version = SCHEMA_VERSION

    @property
    def readonly(self) -> bool:
        """Whether changes are refused; ``readonly_reason`` says why."""
        return self.readonly_reason is not None

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, *, meta: Mapping[str, str], procedure_text: str) -> Store:
        """Create a new expedition file and open it for writing.

        The file is built under a temporary name in the same folder and then linked into place,
        so a half-made file never appears under the real name and no existing file is replaced.
        """
        if os.path.lexists(path):
            raise ExpeditionExists(f"{path} already exists; choose another name or open it.")
        journal = Path(f"{path}-journal")
        if os.path.lexists(journal):
            # SQLite would take a journal left by a deleted file of this name as belonging to the
            # new file and "roll back" old pages into it.
            raise StoreError(
                f"{journal} is left over from an earlier file of that name; move it away first."
            )
        folder = path.parent
        if not os.path.isdir(folder):
            raise StoreError(f"Cannot create {path}: the folder {folder} does not exist.")
        crc = str(_crc((procedure_text.encode(),)))
        try:
            fileio.create_new(
                path, lambda temp: _build(temp, {**meta, _PROCEDURE_CRC: crc}, procedure_text)
            )
        except FileExistsError:
            raise ExpeditionExists(
                f"{path} already exists; choose another name or open it."
            ) from None
        except (sqlite3.Error, OSError) as exc:
            raise StorageFailed(
                f"Creating {path} failed ({_reason(exc)}); nothing was saved."
            ) from exc
        return cls.open(path, write=True)

    @classmethod
    def open(
        cls, path: Path, *, write: bool = True, quick_check: bool = True, salvage: bool = False
    ) -> Store:
        """Open an existing expedition file, checking it read-only before anything can write to it.

        With ``write`` the writer lock is taken; without it nothing is locked or modified.
        ``quick_check=False`` leaves out SQLite's page check, which grows with the file: the
        caller then runs ``check_pages`` before it writes (the table screen does, in the
        background, while the game master reads the screen). ``salvage`` opens a file that is
        cut off or fails the page check anyway, read-only, so that what comes before the damage
        can be read; reading the damage itself still raises DamagedFile.
        """
        write = write and not salvage
        fd = _open_regular_file(path)
        lock_fd: int | None = None
        try:
            version = _check_header(path, _read_header(fd))
            reason: str | None = None
            if version > SCHEMA_VERSION:
                reason = (
                    f"{path} was written by a newer delvetui (file version {version}, this "
                    f"program reads up to {SCHEMA_VERSION}); it is open read-only."
                )
            elif not write:
                reason = f"{path} was opened for reading only; it cannot be changed."
            elif not _writable(path):
                # SQLite creates its journal beside the file, so the folder must be writable too.
                reason = (
                    f"{path} cannot be written (no permission for it or its folder); "
                    "it is open read-only."
                )
            if reason is None:
                _take_writer_lock(fd, path)
                lock_fd = fd
            # A save cut off by a crash is rolled back by whoever opens the file next,
            # reader or writer, as SQLite itself does (it changes no committed data); only a
            # salvage, which reads a damaged file, leaves the file exactly as it is.
            conn = _inspect(
                path,
                recover=not salvage and _writable(path),
                quick_check=quick_check and not salvage,
                salvage=salvage,
            )
            if lock_fd is not None:
                # The file passed every read-only check, so a read-write connection is now safe.
                conn.close()
                conn = _connect(path, "rw")
        except BaseException:
            os.close(fd)
            raise
        if lock_fd is None:
            os.close(fd)
        store = cls(path, conn, lock_fd, reason)
        store.file_version = version
        return store

    def close(self) -> None:
        """Close the file and release the writer lock; closing twice is harmless."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        # Only after SQLite has closed: closing any descriptor of the file drops this process's
        # POSIX locks on it, which would include SQLite's own.
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- reading -------------------------------------------------------------------------------

    def meta(self) -> dict[str, str]:
        """All metadata of the expedition, key to value."""
        rows = self._read("SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM meta ORDER BY key")
        result: dict[str, str] = {}
        for key, value in rows:
            result[self._text(key, "its metadata")] = self._text(value, "its metadata")
        result.pop(_PROCEDURE_CRC, None)
        return result

    def procedure_text(self) -> str:
        """The text of the procedure file the expedition was started with, kept verbatim."""
        rows = self._read("SELECT CAST(text AS BLOB) FROM procedure LIMIT 2")
        if len(rows) != 1:
            raise self._damaged("its procedure text", "it is missing or doubled")
        check = self._read("SELECT CAST(value AS BLOB) FROM meta WHERE key = ?", (_PROCEDURE_CRC,))
        raw = rows[0][0]
        if check and not (isinstance(raw, bytes) and check[0][0] == str(_crc((raw,))).encode()):
            raise self._damaged("its procedure text", "its checksum does not match")
        return self._text(raw, "its procedure text")

    def batch_count(self) -> int:
        """How many batches the log holds."""
        return int(self._read("SELECT COUNT(*) FROM batches")[0][0])

    def event_count(self) -> int:
        """How many events the log holds."""
        return int(self._read("SELECT COUNT(*) FROM events")[0][0])

    def data_version(self) -> int:
        """SQLite's ``data_version``: it changes when another connection commits to the file."""
        return int(self._read("PRAGMA data_version")[0][0])

    def counts(self) -> tuple[int, int]:
        """(batches, events) in the log, read together: another process may be appending.

        Both are numbered from 1 without gaps (reading the log checks that), so the highest
        number is the count; unlike COUNT(*) it is found without reading the whole table.
        """
        row = self._read(
            "SELECT (SELECT COALESCE(MAX(seq), 0) FROM batches),"
            " (SELECT COALESCE(MAX(seq), 0) FROM events)"
        )
        return int(row[0][0]), int(row[0][1])

    def batches(self, after: int = 0, *, chunk: int = _CHUNK) -> Iterator[StoredBatch]:
        """Yield the batches numbered above ``after`` in order, checking every row as it is read.

        Streams ``chunk`` batches at a time; any damage raises DamagedFile, nothing is skipped.
        """
        if self.salvaged is not None:
            yield from (batch for batch in self.salvaged if batch.seq > after)
            return
        next_batch = after + 1
        next_event = self._first_event_after(after)
        while True:
            heads = self._read(
                "SELECT seq, CAST(command AS BLOB), CAST(at AS BLOB), crc FROM batches"
                " WHERE seq > ? ORDER BY seq LIMIT ?",
                (next_batch - 1, chunk),
            )
            if not heads:
                break
            rows = self._read(
                "SELECT seq, batch, CAST(type AS BLOB), version, CAST(payload AS BLOB), crc"
                " FROM events WHERE batch >= ? AND batch <= ? ORDER BY batch, seq",
                (heads[0][0], heads[-1][0]),
            )
            events = iter(rows)
            pending = next(events, None)
            for seq, command, at, crc in heads:
                if seq != next_batch:
                    raise self._damaged(f"batch {next_batch}", "the batch is missing")
                collected: list[StoredEvent] = []
                while pending is not None and pending[1] == seq:
                    if pending[0] != next_event:
                        raise self._damaged(f"event {next_event}", "the event is missing")
                    collected.append(self._event(pending))
                    next_event += 1
                    pending = next(events, None)
                yield self._batch(seq, command, at, crc, collected)
                next_batch += 1
            if pending is not None:
                raise self._damaged(f"event {pending[0]}", "it belongs to no batch")
        # Events past the last batch read belong to no batch, unless their batch is there by
        # now: another process may have committed one since (one statement, one snapshot).
        orphans = self._read(
            "SELECT seq FROM events WHERE batch >= ? AND NOT EXISTS"
            " (SELECT 1 FROM batches WHERE batches.seq = events.batch)"
            " ORDER BY batch, seq LIMIT 1",
            (next_batch,),
        )
        if orphans:
            raise self._damaged(f"event {orphans[0][0]}", "it belongs to no batch")

    # -- writing -------------------------------------------------------------------------------

    def set_meta(self, key: str, value: str) -> None:
        """Set one metadata value, in its own transaction."""
        with self._writing("the setting was not saved") as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def append_many(self, batches: Iterable[tuple[str, str, Sequence[NewEvent]]]) -> int:
        """Append many batches (command, time, events) in one transaction; for imports.

        Returns the last batch number. On a storage failure, or when taking the next batch
        from ``batches`` raises, none of them is saved.
        """
        last = 0
        with self._writing("nothing of the import was saved") as conn:
            # Encoded one at a time as they come, so a long import holds one batch in memory.
            for command, at, events in batches:
                last = self._insert(conn, _encode_batch(command, at, events))
        return last

    def append(self, command: str, at: str, events: Sequence[NewEvent]) -> int:
        """Append one batch and its events as one transaction, committed before returning.

        Returns the new batch number. On a storage failure nothing of the batch is saved.
        """
        # Encode first so that a payload that is not JSON fails before the file is touched.
        encoded = _encode_batch(command, at, events)
        with self._writing("nothing of this command was saved") as conn:
            return self._insert(conn, encoded)

    def _insert(self, conn: sqlite3.Connection, encoded: _Encoded) -> int:
        command, at, rows_in = encoded
        batch = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM batches").fetchone()[0]) + 1
        first = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]) + 1
        batch_crc = _crc(
            (str(batch).encode(), command.encode(), at.encode(), str(len(rows_in)).encode())
        )
        conn.execute(
            "INSERT INTO batches (seq, command, at, crc) VALUES (?, ?, ?, ?)",
            (batch, command, at, batch_crc),
        )
        rows = [
            (first + i, batch, type_, version, text, _event_crc(batch, type_b, version, raw))
            for i, (type_, type_b, version, (text, raw)) in enumerate(rows_in)
        ]
        conn.executemany(
            "INSERT INTO events (seq, batch, type, version, payload, crc)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
        return batch

    def check_pages(self) -> None:
        """SQLite's check of every page of the file; DamagedFile when it fails."""
        try:
            _quick_check(self._connection(), self.path)
        except sqlite3.DatabaseError as exc:
            raise self._damaged(None, str(exc)) from exc

    def events_of_type(self, type_name: str) -> list[StoredEvent]:
        """Every event of one type, checked like any other read (for rare, small types)."""
        rows = self._read(
            "SELECT seq, batch, CAST(type AS BLOB), version, CAST(payload AS BLOB), crc"
            " FROM events WHERE type = ? ORDER BY seq",
            (type_name,),
        )
        return [self._event(row) for row in rows]

    def save_snapshot(self, batch: int, data: str, *, keep_from: int = 0) -> None:
        """Keep the replayed state after ``batch`` so a long expedition resumes quickly.

        A snapshot is derived data beside the log, never a replacement for it: a missing or
        damaged snapshot only means a full replay. The new one replaces every older one
        except those from ``keep_from`` on (the table draws the newest turns from an older
        snapshot); with ``keep_from`` 0 it replaces them all.
        """
        crc = _crc((str(batch).encode(), data.encode()))
        with self._writing("the snapshot was not saved (the log is intact)") as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS snapshots"
                " (batch INTEGER PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL)"
            )
            if keep_from > 0:
                conn.execute(
                    "DELETE FROM snapshots WHERE batch < ? OR batch >= ?", (keep_from, batch)
                )
            else:
                conn.execute("DELETE FROM snapshots")
            conn.execute(
                "INSERT INTO snapshots (batch, data, crc) VALUES (?, ?, ?)", (batch, data, crc)
            )

    def latest_snapshot(self, upto: int | None = None) -> tuple[int, str] | None:
        """The newest snapshot (after batch ``upto`` at most) as (batch, data).

        None when there is none, or when the newest one is unsound.
        """
        exists = self._read(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'snapshots'"
        )
        if not exists:
            return None
        rows = self._read(
            "SELECT batch, CAST(data AS BLOB), crc FROM snapshots WHERE batch <= ?"
            " ORDER BY batch DESC LIMIT 1",
            (_MAX_SEQ if upto is None else upto,),
        )
        if not rows:
            return None
        batch, raw, crc = rows[0]
        if not isinstance(batch, int) or not isinstance(raw, bytes):
            return None
        if _crc((str(batch).encode(), raw)) != crc:
            return None
        try:
            return batch, raw.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def snapshot_batches(self) -> list[int]:
        """The batches the kept snapshots follow, oldest first."""
        exists = self._read(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'snapshots'"
        )
        if not exists:
            return []
        rows = self._read("SELECT batch FROM snapshots ORDER BY batch")
        return [row[0] for row in rows if isinstance(row[0], int)]

    # -- helpers -------------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"{self.path} is closed.")
        return self._conn

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        """Run one query to completion, so no read lock outlives the call."""
        conn = self._connection()
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            if _is_damage(exc):
                raise self._damaged(None, str(exc)) from exc
            raise StoreError(f"Reading {self.path} failed ({_reason(exc)}).") from exc

    @contextlib.contextmanager
    def _writing(self, lost: str) -> Iterator[sqlite3.Connection]:
        """One write transaction; on a storage failure roll back and raise StorageFailed."""
        if self.readonly_reason is not None:
            raise ReadOnlyExpedition(self.readonly_reason)
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error | OSError):
                raise StorageFailed(
                    f"Saving to {self.path} failed ({_reason(exc)}); {lost}."
                ) from exc
            raise

    def _first_event_after(self, after: int) -> int:
        if after <= 0:
            return 1
        rows = self._read(
            "SELECT seq FROM events WHERE batch <= ? ORDER BY batch DESC, seq DESC LIMIT 1",
            (after,),
        )
        return int(rows[0][0]) + 1 if rows else 1

    def _event(self, row: tuple[Any, ...]) -> StoredEvent:
        seq, batch, type_b, version, payload_b, crc = row
        where = f"event {seq}"
        if not (
            isinstance(type_b, bytes) and isinstance(payload_b, bytes) and isinstance(version, int)
        ) or crc != _event_crc(batch, type_b, version, payload_b):
            raise self._damaged(where, "its checksum does not match")
        try:
            payload = json.loads(payload_b.decode())
        except ValueError:
            raise self._damaged(where, "its payload is not valid JSON") from None
        if not isinstance(payload, dict):
            raise self._damaged(where, "its payload is not a JSON object")
        return StoredEvent(
            seq=seq, type=self._text(type_b, where), version=version, payload=payload
        )

    def _batch(
        self, seq: int, command: Any, at: Any, crc: Any, events: list[StoredEvent]
    ) -> StoredBatch:
        where = f"batch {seq}"
        if not (isinstance(command, bytes) and isinstance(at, bytes)) or crc != _crc(
            (str(seq).encode(), command, at, str(len(events)).encode())
        ):
            raise self._damaged(where, "its checksum does not match")
        return StoredBatch(
            seq=seq,
            command=self._text(command, where),
            at=self._text(at, where),
            events=tuple(events),
        )

    def _text(self, raw: object, where: str) -> str:
        if isinstance(raw, bytes):
            with contextlib.suppress(UnicodeDecodeError):
                return raw.decode()
        raise self._damaged(where, "it holds unreadable text")

    def _damaged(self, where: str | None, why: str) -> DamagedFile:
        """Build the error, and refuse further writes: appending to a damaged log would bury it."""
        at = f" at {where}" if where else ""
        self.readonly_reason = f"The expedition file {self.path} is damaged; it is open read-only."
        return DamagedFile(
            f"The expedition file {self.path} is damaged{at} ({why}); it was not modified."
        )


# -- module helpers ------------------------------------------------------------------------------


def _crc(parts: Iterable[bytes]) -> int:
    return zlib.crc32(b"\x1f".join(parts))


def _event_crc(batch: object, type_: bytes, version: object, payload: bytes) -> int:
    return _crc((str(batch).encode(), type_, str(version).encode(), payload))


_Encoded = tuple[str, str, list[tuple[str, bytes, int, tuple[str, bytes]]]]


def _encode_batch(command: str, at: str, events: Sequence[NewEvent]) -> _Encoded:
    return (
        command,
        at,
        [(e.type, e.type.encode(), e.version, _encode_payload(e.payload)) for e in events],
    )


def _encode_payload(payload: dict[str, Any]) -> tuple[str, bytes]:
    if not isinstance(payload, dict):
        raise TypeError(f"An event payload must be a dict, not {type(payload).__name__}.")
    # allow_nan=False: NaN is not JSON and would read back as damage.
    text = json.dumps(
        payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text, text.encode()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _is_damage(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def _connect(path: Path, mode: str, *, salvage: bool = False) -> sqlite3.Connection:
    """Connect with a URI so that ``mode=ro`` guarantees SQLite cannot write to the file."""
    uri = f"{path.absolute().as_uri()}?mode={mode}"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=_BUSY_TIMEOUT)
    try:
        if salvage and mode == "ro":
            # A file cut off short of the page count in its header is otherwise refused
            # whole; this makes SQLite read the pages that are there (read-only, so safe).
            conn.execute("PRAGMA writable_schema = ON")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        # Check each page's cells as it is read, so damage shows up as an error, not garbage.
        conn.execute("PRAGMA cell_size_check = ON")
        conn.execute("PRAGMA trusted_schema = OFF")
        if mode == "ro":
            conn.execute("PRAGMA query_only = ON")
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    return conn


def _build(temp: Path, meta: Mapping[str, str], procedure_text: str) -> None:
    """Write a complete new expedition file at ``temp``, which must not exist yet."""
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC | _O_BINARY, 0o666))
    conn = _connect(temp, "rw")
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
        conn.execute("INSERT INTO procedure (text) VALUES (?)", (procedure_text,))
        conn.execute("COMMIT")
    finally:
        conn.close()


def _open_regular_file(path: Path) -> int:
    # Checked before it is opened: opening a FIFO named x.delve would wait forever.
    try:
        return fileio.open_regular(path)
    except FileNotFoundError:
        raise ExpeditionNotFound(f"There is no expedition file at {path}.") from None
    except NotAFile as refused:
        raise ForeignFile(refused.message) from None
    except FileRefused as refused:  # no permission, say
        raise StoreError(refused.message) from None


def _read_header(fd: int) -> bytes:
    """The file's first bytes (os.pread is POSIX only; the descriptor is fresh, at 0)."""
    os.lseek(fd, 0, os.SEEK_SET)
    header = b""
    while len(header) < _HEADER_SIZE:
        chunk = os.read(fd, _HEADER_SIZE - len(header))
        if not chunk:
            break
        header += chunk
    return header


def _check_header(path: Path, header: bytes) -> int:
    """Reject what is not ours from the raw header bytes, before SQLite sees it; return version."""
    unchanged = "it was not modified"
    if not header:
        raise ForeignFile(f"{path} is empty, so it is not a delvetui expedition file; {unchanged}.")
    if not header.startswith(_MAGIC):
        raise ForeignFile(f"{path} is not a delvetui expedition file; {unchanged}.")
    if len(header) < _HEADER_SIZE:
        raise ForeignFile(
            f"{path} is not a delvetui expedition file (it is too short to be one); {unchanged}."
        )
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise ForeignFile(
            f"{path} is a database of another program, not a delvetui expedition file; {unchanged}."
        )
    version = int.from_bytes(header[60:64], "big", signed=True)
    if version < 1:
        raise DamagedFile(
            f"The expedition file {path} is damaged (it has no file version); {unchanged}."
        )
    return version


def _take_writer_lock(fd: int, path: Path) -> None:
    """Take the exclusive writer lock (see delvetui.lock), or say who holds it."""
    try:
        lock.acquire(fd)
    except lock.Held:
        holder = lock.holder(fd)
        if holder == os.getpid():
            where = "already open for writing in this delvetui"
        elif holder is not None:
            where = f"open in another delvetui (process {holder})"
        else:
            where = "open in another delvetui"
        raise ExpeditionLocked(f"{path} is {where}; close it there first.") from None
    except OSError as exc:
        raise StoreError(f"{path} cannot be locked for writing ({_reason(exc)}).") from exc


def _writable(path: Path) -> bool:
    """Whether SQLite can write the file: the file, and its folder (for the journal)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _quick_check(conn: sqlite3.Connection, path: Path) -> None:
    problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(3)").fetchall()]
    if problems != ["ok"]:
        raise DamagedFile(
            f"The expedition file {path} is damaged ({'; '.join(problems)}); it was not modified."
        )


def _inspect(
    path: Path, *, recover: bool, quick_check: bool = True, salvage: bool = False
) -> sqlite3.Connection:
    """Check through a read-only connection that the file is a healthy expedition; return it.

    With ``recover`` (the file and its folder are writable) a hot journal left by a crash
    mid-save is rolled back, which is SQLite's normal recovery: it puts back the pages of
    the last committed state and changes no committed data. SQLite only does so holding its
    exclusive lock, and a journal is only "hot" when no live connection is writing, so a
    reader cannot disturb a writer. Without ``recover`` the journal is reported and left.
    """
    conn: sqlite3.Connection | None = None
    try:
        try:
            conn = _connect(path, "ro", salvage=salvage)
            page_count = int(conn.execute("PRAGMA page_count").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", None) != _SQLITE_READONLY_ROLLBACK:
                raise
            if conn is not None:
                conn.close()
                conn = None
            if not recover:
                raise StoreError(
                    f"{path} was left half-saved when a delvetui stopped, and it cannot be "
                    "recovered here: SQLite needs to write the file and its folder to roll the "
                    "unfinished save back, and they are read-only. Make the folder writable, or "
                    f"copy {path.name} together with {path.name}-journal into a folder you "
                    "can write to, and open it again. It was not modified."
                ) from exc
            # The first read through a read-write connection rolls the journal back.
            rw = _connect(path, "rw")
            try:
                rw.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()
            finally:
                rw.close()
            conn = _connect(path, "ro", salvage=salvage)
            page_count = int(conn.execute("PRAGMA page_count").fetchone()[0])
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        if not salvage and os.path.getsize(path) < page_count * page_size:
            raise DamagedFile(
                f"The expedition file {path} is damaged (it is cut off); it was not modified."
            )
        if quick_check:
            _quick_check(conn, path)
        if int(conn.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
            raise ForeignFile(
                f"{path} is a database of another program, not a delvetui expedition file; "
                "it was not modified."
            )
        tables = {
            str(row[0])
            for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
        }
        missing = sorted(_TABLES - tables)
        if missing:
            raise ForeignFile(
                f"{path} is not a delvetui expedition file (it has no {', '.join(missing)} "
                "table); it was not modified."
            )
        for table, expected in _COLUMNS.items():
            columns = {
                row[0]
                for row in conn.execute(
                    "SELECT CAST(name AS BLOB) FROM pragma_table_info(?)", (table,)
                )
            }
            if not columns.issuperset(name.encode() for name in expected):
                raise DamagedFile(
                    f"The expedition file {path} is damaged (the {table} table lacks a column); "
                    "it was not modified."
                )
    except UnicodeDecodeError as exc:
        # SQLite's message about a damaged table definition quotes its bytes, which may not
        # be text at all; the message itself then cannot be read.
        if conn is not None:
            conn.close()
        raise DamagedFile(
            f"The expedition file {path} is damaged (its table definitions cannot be read); "
            "it was not modified."
        ) from exc
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        if _is_damage(exc):
            raise DamagedFile(
                f"The expedition file {path} is damaged ({exc}); it was not modified."
            ) from exc
        raise StoreError(f"Reading {path} failed ({_reason(exc)}).") from exc
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    return conn
