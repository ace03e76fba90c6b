"""The expedition file: one SQLite file per expedition holding an append-only log of event batches.

The store knows nothing about event classes. Events arrive as a type name, a schema version and a
JSON-able payload, and every row carries a CRC32 so that a flipped byte is reported, never replayed.
A file that is damaged or not ours is only ever opened read-only, so it is never modified.

The package: :mod:`~delvetui.store.schema` (the file's shape and the checks before opening),
:mod:`~delvetui.store.rows` (rows and their checksums), :mod:`~delvetui.store.reading` (the
read side) and here :class:`Store`, which opens, creates and appends.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from delvetui import fileio
from delvetui.errors import ExpeditionExists, ReadOnlyExpedition, StorageFailed, StoreError
from delvetui.store import schema
from delvetui.store.reading import Reader
from delvetui.store.rows import (
    Encoded,
    NewEvent,
    StoredBatch,
    StoredEvent,
    batch_crc,
    crc,
    encode_batch,
    event_crc,
)
from delvetui.store.schema import APPLICATION_ID, SCHEMA_VERSION

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "NewEvent",
    "Reader",
    "Store",
    "StoredBatch",
    "StoredEvent",
]


class Store(Reader):
    """An open expedition file: read its log and, when opened for writing, append to it."""

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
        if os.path.lexists(journal) and os.path.lexists(path):
            # Another creator made the file a moment ago and is writing its first batch.
            raise ExpeditionExists(f"{path} already exists; choose another name or open it.")
        if os.path.lexists(journal):
            # SQLite would take a journal left by a deleted file of this name as belonging to the
            # new file and "roll back" old pages into it.
            raise StoreError(
                f"{journal} is left over from an earlier file of that name; move it away first."
            )
        folder = path.parent
        if not os.path.isdir(folder):
            raise StoreError(f"Cannot create {path}: the folder {folder} does not exist.")
        checksum = str(crc((procedure_text.encode(),)))
        try:
            fileio.create_new(
                path,
                lambda temp: schema.build(
                    temp, {**meta, schema.PROCEDURE_CRC: checksum}, procedure_text
                ),
            )
        except FileExistsError:
            raise ExpeditionExists(
                f"{path} already exists; choose another name or open it."
            ) from None
        except (sqlite3.Error, OSError) as exc:
            raise StorageFailed(
                f"Creating {path} failed ({schema.reason(exc)}); nothing was saved."
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
        fd = schema.open_regular_file(path)
        lock_fd: int | None = None
        try:
            version = schema.check_header(path, schema.read_header(fd))
            reason: str | None = None
            if version > SCHEMA_VERSION:
                reason = (
                    f"{path} was written by a newer delvetui (file version {version}, this "
                    f"program reads up to {SCHEMA_VERSION}); it is open read-only."
                )
            elif not write:
                reason = f"{path} was opened for reading only; it cannot be changed."
            elif not schema.writable(path):
                # SQLite creates its journal beside the file, so the folder must be writable too.
                reason = (
                    f"{path} cannot be written (no permission for it or its folder); "
                    "it is open read-only."
                )
            if reason is None:
                schema.take_writer_lock(fd, path)
                lock_fd = fd
            # A save cut off by a crash is rolled back by whoever opens the file next,
            # reader or writer, as SQLite itself does (it changes no committed data); only a
            # salvage, which reads a damaged file, leaves the file exactly as it is.
            conn = schema.inspect(
                path,
                recover=not salvage and schema.writable(path),
                quick_check=quick_check and not salvage,
                salvage=salvage,
            )
            if lock_fd is not None:
                # The file passed every read-only check, so a read-write connection is now safe.
                conn.close()
                conn = schema.connect(path, "rw")
        except BaseException:
            os.close(fd)
            raise
        if lock_fd is None:
            os.close(fd)
        store = cls(path, conn, lock_fd, reason)
        store.file_version = version
        return store

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
                last = self._insert(conn, encode_batch(command, at, events))
        return last

    def append(self, command: str, at: str, events: Sequence[NewEvent]) -> int:
        """Append one batch and its events as one transaction, committed before returning.

        Returns the new batch number. On a storage failure nothing of the batch is saved.
        """
        # Encode first so that a payload that is not JSON fails before the file is touched.
        encoded = encode_batch(command, at, events)
        with self._writing("nothing of this command was saved") as conn:
            return self._insert(conn, encoded)

    def _insert(self, conn: sqlite3.Connection, encoded: Encoded) -> int:
        command, at, rows_in = encoded
        batch = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM batches").fetchone()[0]) + 1
        first = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]) + 1
        row_crc = batch_crc(batch, command.encode(), at.encode(), len(rows_in))
        conn.execute(
            "INSERT INTO batches (seq, command, at, crc) VALUES (?, ?, ?, ?)",
            (batch, command, at, row_crc),
        )
        rows = [
            (first + i, batch, type_, version, text, event_crc(batch, type_b, version, raw))
            for i, (type_, type_b, version, (text, raw)) in enumerate(rows_in)
        ]
        conn.executemany(
            "INSERT INTO events (seq, batch, type, version, payload, crc)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
        return batch

    def save_snapshot(self, batch: int, data: str, *, keep_from: int = 0) -> None:
        """Keep the replayed state after ``batch`` so a long expedition resumes quickly.

        A snapshot is derived data beside the log, never a replacement for it: a missing or
        damaged snapshot only means a full replay. The new one replaces every older one
        except those from ``keep_from`` on (the table draws the newest turns from an older
        snapshot); with ``keep_from`` 0 it replaces them all.
        """
        checksum = crc((str(batch).encode(), data.encode()))
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
                "INSERT INTO snapshots (batch, data, crc) VALUES (?, ?, ?)",
                (batch, data, checksum),
            )

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
                    f"Saving to {self.path} failed ({schema.reason(exc)}); {lost}."
                ) from exc
            raise
