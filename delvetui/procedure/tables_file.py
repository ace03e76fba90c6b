"""Reading an adventure's tables file from disk, as hostile input.

Only a regular file, and never more than the limit and one byte: a FIFO, a device or a
huge file is refused without waiting or filling memory. A TOML file is then checked by
``procedure.adventure`` (every problem with its key and line) and returned as it was
written; a table as printed (plain text, Markdown, CSV) is converted by
``procedure.pasted`` (every problem with its line) and returned as the TOML it makes. The
text returned is kept in the expedition by an event.
"""

from __future__ import annotations

from pathlib import Path

from delvetui.procedure import pasted
from delvetui.procedure.adventure import LIMIT, load_text
from delvetui.procedure.reading import decode, read_bounded


def read(path: Path) -> str:
    """The checked TOML text of an adventure's tables file (a table as printed converted);
    ProcedureError listing every problem."""
    text = _text(path)
    if pasted.detect(path.name, text) == pasted.TOML:
        load_text(text, source=str(path))
        return text
    return convert(path, text).toml


def convert(path: Path, text: str | None = None) -> pasted.Converted:
    """A table as printed in a file, converted (``delvetui tables convert``); ProcedureError
    listing every problem, or saying the file is TOML already."""
    text = _text(path) if text is None else text
    kind = pasted.detect(path.name, text)
    if kind == pasted.TOML:
        load_text(text, source=str(path))
        raise pasted.already_toml(str(path))
    return pasted.convert(text, name=path.name, source=str(path), kind=kind)


def _text(path: Path) -> str:
    return decode(read_bounded(path, LIMIT), LIMIT, source=str(path))
