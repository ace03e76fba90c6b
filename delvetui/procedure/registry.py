"""Finding procedures: the shipped ones and the game master's own, by id or path."""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from delvetui.errors import DelveError, ProcedureError
from delvetui.fileio import reason
from delvetui.paths import user_procedures_dir
from delvetui.procedure.loader import load_file
from delvetui.procedure.model import Procedure


def shipped_dir() -> Path:
    """The folder of the procedures that come with delvetui."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "_procedures"
    return installed if installed.is_dir() else package.parent / "procedures"


@attrs.frozen
class Entry:
    """A procedure file found on disk, loaded, or with the error that stops it loading."""

    path: Path
    user: bool
    procedure: Procedure | None
    error: ProcedureError | None = None

    @property
    def id(self) -> str:
        """The procedure's id (the file name when it does not load)."""
        return self.procedure.id if self.procedure else self.path.stem


_CACHE: dict[tuple[Path, bool], tuple[tuple[int, int], Entry]] = {}


def _entry(path: Path, user: bool) -> Entry:
    """A procedure file loaded once, and again only when it changes on disk."""
    try:
        stat = path.stat()
    except OSError:
        stat = None
    stamp = (stat.st_mtime_ns, stat.st_size) if stat else (0, 0)
    cached = _CACHE.get((path, user))
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        entry = Entry(path=path, user=user, procedure=load_file(path))
    except ProcedureError as error:
        entry = Entry(path=path, user=user, procedure=None, error=error)
    _CACHE[(path, user)] = (stamp, entry)
    return entry


def _files(folder: Path) -> list[Path]:
    """The procedure files in a folder, by name (none when the folder does not exist)."""
    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as error:
        raise DelveError(
            f"The procedures folder {folder} cannot be read ({reason(error)}); set "
            "DELVETUI_HOME to a folder you can read, or fix that one."
        ) from None
    return [
        folder / name for name in names if name.endswith(".toml") and os.path.isfile(folder / name)
    ]


def entries() -> list[Entry]:
    """Every shipped and user procedure; a user procedure with the same id wins."""
    found: dict[str, Entry] = {}
    for folder, user in ((shipped_dir(), False), (user_procedures_dir(), True)):
        for path in _files(folder):
            entry = _entry(path, user)
            found[entry.id] = entry
    return sorted(found.values(), key=lambda e: (e.user, e.id))


def _entry_for(name: str) -> Entry | None:
    """The procedure ``entries`` gives for this id, reading as few files as it can.

    The game master's procedures are all read (any file may carry the id, and the last
    one wins, as in ``entries``); when none has it, the shipped file named after the id,
    since each shipped procedure's file is named by its id (a test checks this). Only
    when that file does not carry the id is every shipped file read. Starting a new
    expedition from the command line read every shipped procedure to use one.
    """
    mine = [
        entry for path in _files(user_procedures_dir()) if (entry := _entry(path, True)).id == name
    ]
    if mine:
        return mine[-1]
    shipped = shipped_dir() / f"{name}.toml"
    if Path(name).name == name and os.path.isfile(shipped):  # a plain id, never a path
        entry = _entry(shipped, False)
        if entry.id == name:
            return entry
    return next((entry for entry in entries() if entry.id == name), None)


def find(name: str) -> Procedure:
    """A procedure by id (shipped or user) or by the path of a TOML file."""
    if name.endswith(".toml") or "/" in name:
        return load_file(Path(name))
    entry = _entry_for(name)
    if entry is not None:
        if entry.error is not None:
            raise entry.error
        assert entry.procedure is not None
        return entry.procedure
    known = ", ".join(e.id for e in entries() if e.procedure) or "none"
    raise DelveError(
        f"There is no procedure '{name}' (procedures: {known}); "
        "give an id from 'delvetui procedures' or a path to a .toml file."
    )
