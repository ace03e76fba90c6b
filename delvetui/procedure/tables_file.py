"""Reading an adventure's tables file from disk, as hostile input.

Only a regular file, and never more than the limit and one byte: a FIFO, a device or a
huge file is refused without waiting or filling memory. The text is then checked by
``procedure.adventure`` (every problem with its key and line) and returned as it was
written, to be kept in the expedition by an event.
"""

from __future__ import annotations

from pathlib import Path

from delvetui.procedure.adventure import LIMIT, load_bytes
from delvetui.procedure.reading import read_bounded


def read(path: Path) -> str:
    """The checked text of an adventure's tables file; ProcedureError listing every problem."""
    data = read_bounded(path, LIMIT)
    load_bytes(data, source=str(path))
    return data.decode("utf-8").removeprefix("\ufeff")
