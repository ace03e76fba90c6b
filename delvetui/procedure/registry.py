"""Finding procedures: the shipped ones and the game master's own, by id or path."""

from __future__ import annotations

import os
import re
from pathlib import Path

import attrs

from delvetui import fileio
from delvetui.errors import DelveError, Problem, ProcedureError
from delvetui.fileio import reason
from delvetui.paths import user_procedures_dir
from delvetui.procedure.loader import load_file, load_text
from delvetui.procedure.model import Procedure
from delvetui.procedure.reading import ID, LineMap


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
    #: The shipped id a game master's file was refused for carrying ('' for any other).
    shadows: str = ""

    @property
    def id(self) -> str:
        """The procedure's id; a file that cannot be used goes by its file name, which no
        id can be (ids have no dot), so it never stands for a procedure that works."""
        return self.procedure.id if self.procedure else self.path.name

    @property
    def problem(self) -> str:
        """The first problem of a file that cannot be used, as a line ('' when it works)."""
        if self.error is None:
            return ""
        return str(self.error.problems[0]) if self.error.problems else self.error.message


_CACHE: dict[tuple[Path, bool], tuple[tuple[int, int], Entry]] = {}


def _entry(path: Path, user: bool) -> Entry:
    """A procedure file loaded once, and again only when it changes on disk.

    A game master's file that cannot be read for any reason is an entry with its problem:
    one bad file never stops the listing, the table or the use of any other procedure.
    """
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
    except (DelveError, ValueError, ArithmeticError, RecursionError, MemoryError) as error:
        if not user:
            raise
        said = f"could not be read ({type(error).__name__}: {error})."
        entry = Entry(path, user, None, ProcedureError(str(path), [Problem("", said)]))
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


def shipped_ids() -> frozenset[str]:
    """The ids of the shipped procedures (each shipped file is named by its id: a test
    checks it), known without reading a file."""
    return frozenset(path.stem for path in _files(shipped_dir()))


def copy_hint(shipped: str) -> str:
    """How to keep a changed copy of a shipped procedure, in one sentence's end."""
    return (
        f"to keep a changed copy, run 'delvetui procedures copy {shipped} my-{shipped}' and "
        f"edit the file it makes (an id of your own)"
    )


def _refused(entry: Entry, why: str, shadows: str = "") -> Entry:
    """A game master's file that loads but cannot be used, with the sentence why."""
    assert entry.procedure is not None
    line = LineMap(entry.procedure.text).line("id")
    problem = Problem("id", why, line)
    return Entry(entry.path, True, None, ProcedureError(str(entry.path), [problem]), shadows)


def user_entries() -> list[Entry]:
    """The game master's procedure files, in the order of their names.

    A file whose id is a shipped procedure's is refused: a file someone hands a game master
    never changes the rules of a game they already trust without a word. So is a file whose
    id an earlier file already has: one id names one procedure.
    """
    shipped = shipped_ids()
    taken: dict[str, Path] = {}
    found = []
    for path in _files(user_procedures_dir()):
        entry = _entry(path, True)
        procedure = entry.procedure
        if procedure is not None and procedure.id in shipped:
            entry = _refused(
                entry,
                f"is '{procedure.id}', a shipped procedure's id, which a file of yours cannot "
                f"change; {copy_hint(procedure.id)}.",
                procedure.id,
            )
        elif procedure is not None and procedure.id in taken:
            entry = _refused(
                entry,
                f"is '{procedure.id}', the id of {taken[procedure.id].name} already; give this "
                "one an id of its own.",
            )
        elif procedure is not None:
            taken[procedure.id] = path
        found.append(entry)
    return found


def user_entry(path: Path) -> Entry | None:
    """The entry of a file when it is one of the game master's procedures, else None."""
    try:
        if path.resolve().parent != user_procedures_dir().resolve():
            return None
    except OSError:
        return None
    return next((entry for entry in user_entries() if entry.path.name == path.name), None)


def entries() -> list[Entry]:
    """Every shipped and user procedure, those that cannot be used among them (each with
    its problem), by origin and id."""
    shipped = [_entry(path, False) for path in _files(shipped_dir())]
    return sorted([*shipped, *user_entries()], key=lambda e: (e.user, e.id))


def shadowing(name: str) -> list[Entry]:
    """The game master's files refused for carrying the shipped id ``name``."""
    if not name:
        return []
    return [entry for entry in user_entries() if entry.shadows == name]


def _entry_for(name: str) -> Entry | None:
    """The procedure ``entries`` gives for this id, reading as few files as it can.

    A shipped id is the shipped file named after it (each shipped procedure's file is named
    by its id: a test checks this), whatever the game master's folder holds, since no file
    of theirs may carry that id. Any other id is looked for in their files, all read (any
    may carry it); one of theirs that cannot be used is found by its file's name, so its
    problems are told. Starting a new expedition from the command line read every shipped
    procedure to use one.
    """
    if Path(name).name == name and name in shipped_ids():  # a plain id, never a path
        entry = _entry(shipped_dir() / f"{name}.toml", False)
        if entry.id == name:
            return entry
    for entry in user_entries():
        if entry.id == name or (entry.procedure is None and entry.path.stem == name):
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


#: The procedure's own ``id = "..."`` line: the top-level key, before any [table].
_ID_LINE = re.compile(r"""^([ \t]*id[ \t]*=[ \t]*)(?:"[^"\n]*"|'[^'\n]*')""", re.MULTILINE)


def copy(source: str, new_id: str) -> Path:
    """Copy a procedure (by id, or a file's path) into the game master's procedures folder
    as ``NEW_ID.toml`` under the id ``new_id``, every other line as it is, and return the
    file made. Refused with a sentence when the id is not one a procedure may have, is
    taken, or the file exists; nothing is written then."""
    if not ID.match(new_id):
        raise DelveError(
            f"'{new_id}' cannot be a procedure's id: use lower-case letters, digits and "
            "dashes, e.g. my-delving."
        )
    taken = {entry.id for entry in entries()} | shipped_ids()
    if new_id in taken:
        raise DelveError(
            f"There is a procedure '{new_id}' already; give the copy another id, e.g. {new_id}-2."
        )
    procedure = find(source)
    head = procedure.text[: _first_table(procedure.text)]
    found = _ID_LINE.search(head)
    if found is None:
        raise DelveError(
            f'The id of {procedure.id} is not written as id = "{procedure.id}" at its top; '
            "copy the file by hand and change its id."
        )
    text = (
        f"# A copy of {procedure.id}, made by `delvetui procedures copy`: change what you "
        "like.\n"
        + procedure.text[: found.start()]
        + f'{found.group(1)}"{new_id}"'
        + procedure.text[found.end() :]
    )
    load_text(text, source=f"{new_id}.toml")  # the copy loads, as its source did
    folder = user_procedures_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DelveError(
            f"The procedures folder {folder} cannot be made ({reason(error)}); nothing was written."
        ) from None
    return fileio.write_file(folder / f"{new_id}.toml", text)


def _first_table(text: str) -> int:
    """Where the text's first [table] header begins (its end when it has none)."""
    found = re.search(r"^[ \t]*\[", text, re.MULTILINE)
    return found.start() if found else len(text)
