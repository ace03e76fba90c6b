"""Reading an adventure's tables file from disk, as hostile input.

Only a regular file, and never more than the limit and one byte: a FIFO, a device or a
huge file is refused without waiting or filling memory. The text is then checked by
``procedure.adventure`` (every problem with its key and line) and returned as it was
written, to be kept in the expedition by an event.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from delvetui.errors import Problem, ProcedureError
from delvetui.procedure.adventure import MAX_FILE_BYTES, load_bytes


def read(path: Path) -> str:
    """The checked text of an adventure's tables file; ProcedureError listing every problem."""
    try:
        with open(path, "rb", opener=_open_nonblocking) as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise ProcedureError(str(path), [Problem("", "is not a regular file.")])
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ProcedureError(
            str(path), [Problem("", f"cannot be read: {error.strerror}")]
        ) from None
    load_bytes(data, source=str(path))
    return data.decode("utf-8").removeprefix("\ufeff")


def _open_nonblocking(name: str, flags: int) -> int:
    # O_NONBLOCK: opening a FIFO for reading does not wait for a writer.
    return os.open(name, flags | os.O_NONBLOCK)
