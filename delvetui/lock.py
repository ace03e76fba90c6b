"""The writer lock: one delvetui at a time writes an expedition, on every system.

Two functions make the whole interface: ``acquire(fd)`` takes the lock on an open expedition
file without waiting, or says it is held elsewhere; ``holder(fd)`` names the process that
holds it, where the system can tell. Closing the descriptor gives the lock back.

POSIX (Linux, macOS, the BSDs) uses ``fcntl.flock``, which is separate from the POSIX record
locks SQLite takes on the same file. Windows has no flock: ``msvcrt.locking`` locks one byte
of the file, chosen inside the page SQLite keeps for its own lock bytes at 1 GiB and never
reads or writes, so the lock cannot get in the way of SQLite's reads even though Windows
locks are mandatory. Neither module is imported unless this system has it.
"""

from __future__ import annotations

import errno
import os
from types import ModuleType

#: Where Windows' lock byte sits: past SQLite's pending, reserved and shared lock bytes
#: (0x40000000 to 0x40000201), still in the page SQLite leaves unused for them.
WINDOWS_LOCK_OFFSET = 0x40000000 + 0x400

#: Which way this system locks: "flock" (POSIX) or "msvcrt" (Windows).
KIND: str


class Held(Exception):
    """The lock is held by another open of the file (this process's or another's)."""


def _load() -> tuple[str, ModuleType]:
    try:
        import fcntl
    except ImportError:
        import msvcrt  # Windows: the only other system Python runs delvetui on

        return "msvcrt", msvcrt
    return "flock", fcntl


KIND, _module = _load()


def acquire(fd: int) -> None:
    """Take the writer lock on the open file ``fd`` without waiting.

    Raises Held when another open of the file holds it, OSError when the system refuses
    to lock at all (a file system without locks).
    """
    if KIND == "flock":
        try:
            _module.flock(fd, _module.LOCK_EX | _module.LOCK_NB)
        except BlockingIOError:
            raise Held from None
        return
    acquire_windows(fd, _module.locking, _module.LK_NBLCK)


def acquire_windows(fd: int, locking: object, mode: int) -> None:
    """Windows' way: lock the one byte at WINDOWS_LOCK_OFFSET with ``msvcrt.locking``.

    ``msvcrt.locking`` locks from the file's current position and raises OSError (EACCES,
    or EDEADLOCK after its retries) when another handle holds the byte.
    """
    assert callable(locking)
    os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
    try:
        locking(fd, mode, 1)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EDEADLOCK, errno.EAGAIN):
            raise Held from None
        raise
    finally:
        os.lseek(fd, 0, os.SEEK_SET)


def holder(fd: int) -> int | None:
    """The process id holding the lock on ``fd``'s file; None when the system cannot say.

    Linux lists flocks in /proc/locks; elsewhere the message simply names no process.
    """
    if KIND != "flock" or not hasattr(os, "major"):
        return None
    st = os.fstat(fd)
    device = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                fields = line.split()
                # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; "->" marks a waiter.
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == device:
                    pid = int(fields[4])
                    return pid if pid > 0 else None
    except (OSError, ValueError):
        pass
    return None
