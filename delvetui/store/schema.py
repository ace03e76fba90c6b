"""The expedition file's shape, and the checks a file passes before anything opens it.

One SQLite file per expedition: ``application_id`` "DELV", ``user_version`` the file
version, the tables below, ``journal_mode=DELETE`` and ``synchronous=FULL``. A file is
checked read-only (header bytes, SQLite's page check, tables and columns) before a
read-write connection is ever made, so a damaged or foreign file is never modified.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from delvetui import fileio, lock
from delvetui.errors import (
    DamagedFile,
    ExpeditionLocked,
    ExpeditionNotFound,
    FileRefused,
    ForeignFile,
    NotAFile,
    StoreError,
)

APPLICATION_ID = 0x44454C56  # "DELV"
SCHEMA_VERSION = 1  # PRAGMA user_version

_HEADER_SIZE = 100
_TABLES = frozenset({"meta", "procedure", "batches", "events"})
# The columns every reader relies on; a damaged table definition can rename one.
_COLUMNS = {
    "meta": ("key", "value"),
    "procedure": ("text",),
    "batches": ("seq", "command", "at", "crc"),
    "events": ("seq", "batch", "type", "version", "payload", "crc"),
}
#: The procedure text's CRC32 is kept in meta under this key (files from before it have
#: none), so a flipped byte in the procedure is reported, never followed. meta() leaves it out.
PROCEDURE_CRC = "procedure_crc"
_BUSY_TIMEOUT = 10.0

# Primary SQLite result codes (the low byte of an extended code).
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
_SQLITE_READONLY_ROLLBACK = 776

# POSIX only: 0 elsewhere. O_BINARY (Windows only) keeps os.read from translating newlines.
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)

SCHEMA = """
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


def reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def is_damage(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def connect(path: Path, mode: str, *, salvage: bool = False) -> sqlite3.Connection:
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


def build(temp: Path, meta: Mapping[str, str], procedure_text: str) -> None:
    """Write a complete new expedition file at ``temp``, which must not exist yet."""
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC | _O_BINARY, 0o666))
    conn = connect(temp, "rw")
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
        conn.execute("INSERT INTO procedure (text) VALUES (?)", (procedure_text,))
        conn.execute("COMMIT")
    finally:
        conn.close()


def open_regular_file(path: Path) -> int:
    # Checked before it is opened: opening a FIFO named x.delve would wait forever.
    try:
        return fileio.open_regular(path)
    except FileNotFoundError:
        raise ExpeditionNotFound(f"There is no expedition file at {path}.") from None
    except NotAFile as refused:
        raise ForeignFile(refused.message) from None
    except FileRefused as refused:  # no permission, say
        raise StoreError(refused.message) from None


def read_header(fd: int) -> bytes:
    """The file's first bytes (os.pread is POSIX only; the descriptor is fresh, at 0)."""
    os.lseek(fd, 0, os.SEEK_SET)
    header = b""
    while len(header) < _HEADER_SIZE:
        chunk = os.read(fd, _HEADER_SIZE - len(header))
        if not chunk:
            break
        header += chunk
    return header


def check_header(path: Path, header: bytes) -> int:
    """Reject what is not ours from the raw header bytes, before SQLite sees it; return version."""
    unchanged = "it was not modified"
    if not header:
        raise ForeignFile(f"{path} is empty, so it is not a delvetui expedition file; {unchanged}.")
    if not header.startswith(fileio.SQLITE_MAGIC):
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


def take_writer_lock(fd: int, path: Path) -> None:
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
        raise StoreError(f"{path} cannot be locked for writing ({reason(exc)}).") from exc


def writable(path: Path) -> bool:
    """Whether SQLite can write the file: the file, and its folder (for the journal)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def check_pages(conn: sqlite3.Connection, path: Path) -> None:
    """SQLite's check of every page (``quick_check``); DamagedFile naming what it found."""
    problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(3)").fetchall()]
    if problems != ["ok"]:
        raise DamagedFile(
            f"The expedition file {path} is damaged ({'; '.join(problems)}); it was not modified."
        )


def inspect(
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
            conn = connect(path, "ro", salvage=salvage)
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
            rw = connect(path, "rw")
            try:
                rw.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()
            finally:
                rw.close()
            conn = connect(path, "ro", salvage=salvage)
            page_count = int(conn.execute("PRAGMA page_count").fetchone()[0])
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        if not salvage and os.path.getsize(path) < page_count * page_size:
            raise DamagedFile(
                f"The expedition file {path} is damaged (it is cut off); it was not modified."
            )
        if quick_check:
            check_pages(conn, path)
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
        if is_damage(exc):
            raise DamagedFile(
                f"The expedition file {path} is damaged ({exc}); it was not modified."
            ) from exc
        raise StoreError(f"Reading {path} failed ({reason(exc)}).") from exc
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    return conn
