"""Reading and writing whole files safely: the one place delvetui does either.

Writing: the bytes go to a temporary file beside the real one, reach the disk, and only
then take the real name, so a reader or a crash sees the old file or the whole new one.
A new file gets the permissions the umask allows (given to ``open``, never by changing the
process's umask, which a thread exporting at the same moment would race); a replaced file
keeps its own. A folder, a device, a FIFO, a socket or an expedition file is never
replaced, and a symbolic link is written through, never replaced by a file. Errors name
the file asked for, never the temporary one.

Cleaning up: a temporary file is removed when its write fails, and one left by a write
that was killed (``kill -9``, a power cut) is removed by the next write into that folder.
A temporary file is locked while it is written, so the next write removes only one whose
writer is gone: unlocked, and older than ``STALE_SECONDS`` (which covers the instant
between its making and its locking).

Reading: only a regular file, checked before it is opened and again once it is open, and
never more than a limit, so ``/dev/zero``, a FIFO or a huge file can neither hang the
program nor fill its memory.

Nothing here imports Textual or Rich.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from delvetui import lock
from delvetui.errors import (
    DelveError,
    ExpeditionExists,
    FileRefused,
    NotAFile,
    StorageFailed,
    TargetExists,
)

#: The first bytes of every SQLite database, expedition files among them.
SQLITE_MAGIC = b"SQLite format 3\x00"
EXPEDITION_SUFFIX = ".delve"

# POSIX-only open flags are 0 where the system has none (Windows); O_BINARY is Windows' own,
# so that reading and writing bytes never translates line endings.
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def reason(error: OSError) -> str:
    """The system's words for an error, without the file name it may carry."""
    return error.strerror or type(error).__name__


#: A temporary file of delvetui's, as ``temporary_beside`` names it, and an SQLite journal
#: of one (a file being made as an expedition).
_TEMPORARY = re.compile(r"\.delvetui-[0-9a-f]{12}\.(?:tmp|creating)(?:-journal)?")
#: How old an unlocked temporary file must be before another write takes it for one left
#: by a writer that was killed: far longer than making and locking one takes.
STALE_SECONDS = 10.0


def temporary_beside(path: Path, purpose: str = "tmp") -> Path:
    """A fresh hidden name in the folder of path, short whatever path's own name is."""
    # os.urandom is what secrets.token_hex reads, without importing hmac and OpenSSL's
    # hashes (3 ms) on the way to the first picture the table saves.
    return path.parent / f".delvetui-{os.urandom(6).hex()}.{purpose}"


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is, in words ('a folder', 'a FIFO'...)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def dangling_link(path: Path) -> str | None:
    """A sentence when path is a symbolic link to nothing, else None."""
    if not os.path.islink(path) or os.path.exists(path):
        return None
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return f"{path} is a symbolic link to {target!r}, which does not exist"


# Writing ---------------------------------------------------------------------------------


def write_file(path: Path, data: str | bytes | Iterable[str], *, replace: bool = False) -> Path:
    """Write a whole file: a new one, or with ``replace`` over an existing regular file.

    ``data`` may come in pieces (an iterable of strings), written as they come, so a long
    export is never whole in memory.

    Returns the file written (a symbolic link's target when path is a link). Raises
    TargetExists when the file exists and ``replace`` is not given, FileRefused for what
    is never replaced, StorageFailed when the disk refuses; in every case nothing changed.
    """
    pieces: Iterable[str | bytes] = (data,) if isinstance(data, str | bytes) else data
    target = _through_links(path)
    existing = _existing(path, target)
    if existing is not None and not replace:
        raise TargetExists(f"{path} already exists; nothing was written.")
    folder = target.parent
    sweep(folder)
    temp = temporary_beside(target)
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _BINARY, 0o666)
        try:
            with contextlib.suppress(OSError, lock.Held):
                lock.acquire(fd)  # held while it is written: a sweep leaves it alone
            if existing is not None:
                os.fchmod(fd, stat.S_IMODE(existing.st_mode))
            for piece in pieces:
                _write_all(fd, piece.encode("utf-8") if isinstance(piece, str) else piece)
            os.fsync(fd)
        finally:
            os.close(fd)
        if existing is not None:
            os.replace(temp, target)
        else:
            link_into_place(temp, target)
    except FileExistsError:
        raise TargetExists(f"{path} appeared while it was written; nothing was written.") from None
    except OSError as error:
        raise StorageFailed(
            f"Cannot write {path} ({reason(error)}); nothing was written."
        ) from None
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    fsync_folder(folder)
    return target


def create_new(path: Path, build: Callable[[Path], None]) -> None:
    """Make a new file by ``build(temporary)``, then give it its name, never replacing one.

    A half-made file never appears under the real name, and nothing is left behind when
    ``build`` fails. Raises FileExistsError when the name is taken; an error from ``build``
    that names the temporary file is reworded to name path instead.
    """
    sweep(path.parent)
    temp = temporary_beside(path, "creating")
    try:
        build(temp)
        link_into_place(temp, path)
    except DelveError as error:
        error.message = error.message.replace(str(temp), str(path))
        error.args = (error.message,)
        raise
    finally:
        for leftover in (temp, Path(f"{temp}-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink()
    fsync_folder(path.parent)


def create_expedition(path: Path, build: Callable[[Path], None], *, taken: str) -> None:
    """``create_new`` for an expedition file, with the errors a game master reads.

    ExpeditionExists saying ``taken`` when the name is taken meanwhile; StorageFailed
    naming ``path`` when the disk refuses. Either way nothing is left behind.
    """
    try:
        create_new(path, build)
    except FileExistsError:
        raise ExpeditionExists(taken) from None
    except OSError as error:
        raise StorageFailed(
            f"Creating {path} failed ({reason(error)}); nothing was saved."
        ) from None


def sweep(folder: Path, *, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed write of delvetui's left in ``folder``; the ones
    removed. Only a regular file named as ``temporary_beside`` names them, unlocked (its
    writer is gone) and older than ``STALE_SECONDS``; a journal only once its file is gone.
    Anything that goes wrong leaves the file where it is: a sweep never stops a write."""
    moment = time.time() if now is None else now
    removed: list[Path] = []
    try:
        with os.scandir(folder) as found:
            names = sorted(entry.name for entry in found if _TEMPORARY.fullmatch(entry.name))
    except OSError:
        return removed
    # The files first, then the journals, whose files are then known to be gone.
    for name in sorted(names, key=lambda n: n.endswith("-journal")):
        path = folder / name
        if name.endswith("-journal") and os.path.lexists(path.with_name(name[: -len("-journal")])):
            continue
        with contextlib.suppress(OSError):
            if _stale(path, moment):
                path.unlink()
                removed.append(path)
    return removed


def _stale(path: Path, moment: float) -> bool:
    """True when the file at path is a regular file, old enough, and nobody holds its lock."""
    found = os.lstat(path)
    if not stat.S_ISREG(found.st_mode) or moment - found.st_mtime < STALE_SECONDS:
        return False
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOCTTY | _CLOEXEC | _BINARY | _NOFOLLOW)
    try:
        lock.acquire(fd)
    except lock.Held:
        return False
    finally:
        os.close(fd)
    return True


def link_into_place(temp: Path, path: Path) -> None:
    """Give a finished file its real name without ever replacing an existing file."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:
        # Some file systems have no hard links; rename would replace, so check first.
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.rename(temp, path)


def fsync_folder(folder: Path) -> None:
    """Make a new name durable, not only the file's contents."""
    try:
        fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # Some file systems refuse fsync on folders; the contents are synced regardless.
    finally:
        os.close(fd)


def _not_written(path: Path, error: OSError) -> str:
    return f"Cannot write {path} ({reason(error)}); nothing was written."


def _write_all(fd: int, raw: bytes) -> None:
    view = memoryview(raw)
    while view:
        view = view[os.write(fd, view) :]


def _through_links(path: Path) -> Path:
    """The file a write to path lands on: a link's target, refused when it is missing."""
    dangling = dangling_link(path)
    if dangling:
        raise FileRefused(f"{dangling}; nothing was written.")
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


def _existing(asked: Path, target: Path) -> os.stat_result | None:
    """The existing regular file at target, None when there is none; refuse the rest."""
    try:
        found = os.stat(target)
    except FileNotFoundError:
        if not os.path.isdir(target.parent or "."):
            raise FileRefused(
                f"Cannot write {asked}: the folder {target.parent} does not exist; "
                "nothing was written."
            ) from None
        return None
    except OSError as error:
        raise StorageFailed(
            f"Cannot write {asked} ({reason(error)}); nothing was written."
        ) from None
    kind = kind_of(found.st_mode)
    if kind is not None:
        raise FileRefused(f"{asked} is {kind}; it is never replaced by a file.")
    if is_expedition_file(target):
        raise FileRefused(
            f"{asked} is an expedition file (or another database); it is never replaced. "
            "Choose another file name."
        )
    return found


def is_expedition_file(path: Path) -> bool:
    """Whether path is named or made like an expedition (any SQLite database counts)."""
    if path.name.endswith(EXPEDITION_SUFFIX):
        return True
    try:
        return read_regular(path, len(SQLITE_MAGIC), exact=False) == SQLITE_MAGIC
    except DelveError:
        return False


# Reading ---------------------------------------------------------------------------------


def read_regular(path: Path, limit: int, *, exact: bool = True) -> bytes:
    """The bytes of a regular file, read only when it is one and never past ``limit``.

    With ``exact`` a file longer than ``limit`` is refused (FileRefused); without it the
    first ``limit`` bytes are returned. A missing file raises FileNotFoundError.
    """
    fd = open_regular(path)
    try:
        data = _read_up_to(fd, limit + 1 if exact else limit)
    except OSError as error:
        raise StorageFailed(f"{path} cannot be read ({reason(error)}).") from None
    finally:
        os.close(fd)
    if exact and len(data) > limit:
        raise FileRefused(f"{path} is larger than {limit:,} bytes; it was not read.")
    return data


def open_regular(path: Path, flags: int = os.O_RDONLY) -> int:
    """Open a regular file, refusing anything else before opening it (and once open).

    ``O_NONBLOCK`` keeps a FIFO swapped in between the two checks from blocking the open.
    A missing file raises FileNotFoundError; anything else that is wrong, FileRefused.
    """
    dangling = dangling_link(path)
    if dangling:
        raise NotAFile(f"{dangling}.")
    try:
        kind = kind_of(os.stat(path).st_mode)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise FileRefused(f"{path} cannot be read ({reason(error)}).") from None
    if kind is not None:
        raise NotAFile(f"{path} is not a file but {kind}; it was not opened.")
    try:
        fd = os.open(path, flags | _NONBLOCK | _NOCTTY | _CLOEXEC | _BINARY)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise FileRefused(f"{path} cannot be read ({reason(error)}).") from None
    kind = kind_of(os.fstat(fd).st_mode)
    if kind is not None:
        os.close(fd)
        raise NotAFile(f"{path} is not a file but {kind}; it was not read.")
    if _NONBLOCK:
        os.set_blocking(fd, True)
    return fd


def _read_up_to(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def modified_at(path: Path) -> str:
    """When the file was last written, in local time to the minute (ISO 8601)."""
    import datetime as dt

    moment = dt.datetime.fromtimestamp(path.stat().st_mtime).astimezone()
    return moment.isoformat(timespec="minutes")
