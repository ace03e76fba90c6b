"""Reading an expedition file: its metadata, its procedure and its log, every row checked.

:class:`Reader` is the read side of :class:`delvetui.store.Store`; a read-only store is
just a reader. Any damage raises DamagedFile and makes the store read-only, so that
nothing is ever appended after a damaged row.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from delvetui.errors import DamagedFile, StoreError
from delvetui.store import schema
from delvetui.store.rows import (
    StoredBatch,
    StoredEvent,
    crc,
    decode_batch,
    decode_event,
    decode_text,
)

# Batches are read this many at a time so that no read transaction stays open while the caller
# consumes them: a lingering SHARED lock would make another process's commit time out.
CHUNK = 256
#: Higher than any batch number.
_MAX_SEQ = 2**63 - 1


class Reader:
    """An open expedition file, read: its metadata, procedure, log and snapshots.

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
        self.file_version = schema.SCHEMA_VERSION

    @property
    def readonly(self) -> bool:
        """Whether changes are refused; ``readonly_reason`` says why."""
        return self.readonly_reason is not None

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

    def __enter__(self) -> Self:
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
        result.pop(schema.PROCEDURE_CRC, None)
        return result

    def procedure_text(self) -> str:
        """The text of the procedure file the expedition was started with, kept verbatim."""
        rows = self._read("SELECT CAST(text AS BLOB) FROM procedure LIMIT 2")
        if len(rows) != 1:
            raise self._damaged("its procedure text", "it is missing or doubled")
        check = self._read(
            "SELECT CAST(value AS BLOB) FROM meta WHERE key = ?", (schema.PROCEDURE_CRC,)
        )
        raw = rows[0][0]
        if check and not (isinstance(raw, bytes) and check[0][0] == str(crc((raw,))).encode()):
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

    def batches(self, after: int = 0, *, chunk: int | None = None) -> Iterator[StoredBatch]:
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
                (next_batch - 1, chunk or CHUNK),
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
            for seq, command, at, crc_ in heads:
                if seq != next_batch:
                    raise self._damaged(f"batch {next_batch}", "the batch is missing")
                collected: list[StoredEvent] = []
                while pending is not None and pending[1] == seq:
                    if pending[0] != next_event:
                        raise self._damaged(f"event {next_event}", "the event is missing")
                    collected.append(self._event(pending))
                    next_event += 1
                    pending = next(events, None)
                yield decode_batch(seq, command, at, crc_, collected, self._damaged)
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

    def checksums(self, table: str, *, chunk: int = 10_000) -> Iterator[int]:
        """Every row's stored CRC of ``batches`` or ``events``, in order, a chunk at a time."""
        assert table in ("batches", "events")
        after = 0
        while rows := self._read(
            f"SELECT seq, crc FROM {table} WHERE seq > ? ORDER BY seq LIMIT ?", (after, chunk)
        ):
            yield from (int(crc_) for _, crc_ in rows)
            after = rows[-1][0]

    def check_pages(self) -> None:
        """SQLite's check of every page of the file; DamagedFile when it fails."""
        try:
            schema.check_pages(self._connection(), self.path)
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
        batch, raw, saved_crc = rows[0]
        if not isinstance(batch, int) or not isinstance(raw, bytes):
            return None
        if crc((str(batch).encode(), raw)) != saved_crc:
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
            if schema.is_damage(exc):
                raise self._damaged(None, str(exc)) from exc
            raise StoreError(f"Reading {self.path} failed ({schema.reason(exc)}).") from exc

    def _first_event_after(self, after: int) -> int:
        if after <= 0:
            return 1
        rows = self._read(
            "SELECT seq FROM events WHERE batch <= ? ORDER BY batch DESC, seq DESC LIMIT 1",
            (after,),
        )
        return int(rows[0][0]) + 1 if rows else 1

    def _event(self, row: tuple[Any, ...]) -> StoredEvent:
        return decode_event(row, self._damaged)

    def _text(self, raw: object, where: str) -> str:
        return decode_text(raw, where, self._damaged)

    def _damaged(self, where: str | None, why: str) -> DamagedFile:
        """Build the error, and refuse further writes: appending to a damaged log would bury it."""
        at = f" at {where}" if where else ""
        self.readonly_reason = f"The expedition file {self.path} is damaged; it is open read-only."
        return DamagedFile(
            f"The expedition file {self.path} is damaged{at} ({why}); it was not modified."
        )
