"""Where expeditions and user procedures live, and which names and paths are accepted.

``DELVETUI_HOME`` names one folder for both (expeditions in it, procedures in its
``procedures`` folder); otherwise the platform's user data and config folders are used.

A name is a saved expedition's name: one plain file name inside the data folder, never a
path. A path is accepted only when the game master clearly asks for one (``--file PATH``,
or a name ending in ``.delve``); its folder must exist and its file name passes the same
checks as a plain name. A name inside a file handed to the game master (an export's
``meta.name``) is data: it never chooses where anything is written.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from delvetui.errors import ExpeditionExists, ExpeditionNotFound, StoreError
from delvetui.fileio import dangling_link, reason
from delvetui.text import MAX_EXPEDITION_NAME, UNSEEN, quote, unseen_words

SUFFIX = ".delve"
#: Characters a name may have.
MAX_NAME_CHARS = MAX_EXPEDITION_NAME
#: Bytes of UTF-8 a name may take, so that its file (and the journal SQLite writes beside
#: it, ``NAME.delve-journal``) stays within the 255 bytes a file name may have.
MAX_NAME_BYTES = 240
#: Folder separators, and the characters ``delvetui.text`` never lets act on a terminal
#: (controls, line and paragraph separators, bidirectional controls, lone surrogates).
_FORBIDDEN = re.compile(r"[/\\]|" + UNSEEN.pattern)
_HINT = "Use up to 80 letters, digits, spaces and dashes, or a path ending in .delve."


def data_dir() -> Path:
    """The folder saved expeditions live in."""
    home = os.environ.get("DELVETUI_HOME")
    if home:
        return Path(home)
    # Imported here: platformdirs (with tempfile and shutil) is a good part of a command's
    # start, and DELVETUI_HOME, as scripts and the tests set it, needs none of it.
    import platformdirs

    return platformdirs.user_data_path("delvetui")


def user_procedures_dir() -> Path:
    """The folder the game master's own procedures live in."""
    home = os.environ.get("DELVETUI_HOME")
    if home:
        return Path(home) / "procedures"
    import platformdirs

    return platformdirs.user_config_path("delvetui") / "procedures"


def ensure_data_dir() -> Path:
    """The data folder, made when it is missing; StoreError saying why when it cannot be."""
    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(folder_problem(folder, "is not a folder")) from None
    except OSError as error:
        raise StoreError(folder_problem(folder, f"cannot be created ({reason(error)})")) from None
    return folder


def folder_problem(folder: Path, what: str) -> str:
    """The sentence for a data folder that cannot be used."""
    return (
        f"The data folder {folder} {what}; set DELVETUI_HOME to a folder you can read and "
        "write, or fix that one."
    )


def quoted(text: str) -> str:
    """A name to quote in a message: cut short, with control characters made visible."""
    return quote(text)


def name_problem(name: str) -> str | None:
    """Why NAME cannot be an expedition's name (a plain file name), or None when it can."""
    if not name.strip():
        return "it is empty"
    if name.strip() != name:
        return "it starts or ends with a space"
    found = _FORBIDDEN.search(name)
    if found:
        what = "a /" if found.group() == "/" else "a \\" if found.group() == "\\" else None
        if what:
            return f"it holds {what}, and a name is not a path"
        return f"it holds {unseen_words(found.group())}"
    if name.startswith("."):
        return "it starts with a dot, which would hide its file"
    if len(name) > MAX_NAME_CHARS:
        return f"it is {len(name)} characters long, more than {MAX_NAME_CHARS}"
    size = len(name.encode("utf-8"))
    if size > MAX_NAME_BYTES:
        return (
            f"it takes {size} bytes as a file name, more than the {MAX_NAME_BYTES} that fit "
            "(letters outside the Latin alphabets and emoji take 2 to 4 bytes each)"
        )
    return None


def is_path(name: str) -> bool:
    """True when the text names an expedition file rather than a saved expedition."""
    return name.endswith(SUFFIX)


def new_expedition_path(name: str, *, file: str | None = None) -> Path:
    """Where a new expedition called NAME (or at the path NAME.delve, or FILE) is created.

    A plain name goes in the data folder (made when missing). A path must end in .delve,
    its folder must exist and its file name must pass the checks of a plain name.
    """
    if file is None and not is_path(name):
        return plain_expedition_path(name, hint=f" {_HINT}")
    path = _chosen_path(file if file is not None else name)
    dangling = dangling_link(path)
    if dangling:
        raise ExpeditionExists(f"{dangling}; remove the link or choose another name.")
    return path


def plain_expedition_path(name: str, *, hint: str = "") -> Path:
    """Where an expedition called NAME goes in the data folder; never a path elsewhere."""
    problem = name_problem(name)
    if problem:
        raise StoreError(f"{quoted(name)} cannot be an expedition name: {problem}.{hint}")
    path = ensure_data_dir() / f"{name}{SUFFIX}"
    dangling = dangling_link(path)
    if dangling:
        raise ExpeditionExists(f"{dangling}; remove the link or choose another name.")
    return path


def imported_expedition_path(given: str | None, inside: str, source: Path) -> Path:
    """Where an imported expedition goes: always in the data folder, never a path.

    Its name is the one given on the command line or, when none is, the name inside the
    file if that is a plain name. The name inside a file is data: '../../x' or '/tmp/x.delve'
    there never chooses where anything is written.
    """
    if given is not None:
        if is_path(given) or "/" in given:
            raise StoreError(
                f"{quoted(given)} cannot be the name of an imported expedition: it is made "
                "in the data folder, so give a plain name (up to 80 letters, digits, spaces "
                "and dashes). Nothing was imported."
            )
        return plain_expedition_path(given)
    problem = name_problem(inside) or ("it ends in .delve" if is_path(inside) else None)
    if problem:
        raise StoreError(
            f"The expedition's name inside {source}, {quoted(inside)}, cannot be used as a "
            f"name here: {problem}. Give the imported expedition a name: delvetui import "
            f"{source} NAME. Nothing was imported."
        )
    return plain_expedition_path(inside)


def _chosen_path(text: str) -> Path:
    path = Path(text)
    if not path.name.endswith(SUFFIX):
        raise StoreError(
            f"{quoted(text)} cannot be an expedition file: its name must end in .delve."
        )
    problem = name_problem(path.name[: -len(SUFFIX)])
    if problem:
        raise StoreError(f"The file name {quoted(path.name)} cannot be used: {problem}.")
    if not os.path.isdir(path.parent):
        raise StoreError(
            f"Cannot create {path}: the folder {path.parent} does not exist; make it first."
        )
    return path


def find_expedition(name: str) -> Path:
    """The file of a saved expedition given by name or by a path ending in .delve."""
    if is_path(name):
        path = Path(name)
    else:
        problem = name_problem(name)
        if problem:
            raise ExpeditionNotFound(
                f"There is no expedition {quoted(name)}: {problem}. A path to an expedition "
                "file ends in .delve."
            )
        path = data_dir() / f"{name}{SUFFIX}"
    dangling = dangling_link(path)
    if dangling:
        raise ExpeditionNotFound(f"{dangling}; remove the link or restore its file.")
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError as error:
        raise StoreError(f"{path} cannot be read ({reason(error)}).") from None
    else:
        return path
    if is_path(name):
        raise ExpeditionNotFound(f"There is no expedition file at {path}.")
    # A data folder that cannot be read says so here, rather than "no expedition".
    known = ", ".join(sorted(p.stem for p in saved_expeditions())[:10]) or "none yet"
    raise ExpeditionNotFound(
        f"There is no expedition {quoted(name)} (saved expeditions: {known}). "
        "Create one with: delvetui new NAME --procedure ID."
    )


def saved_expeditions() -> list[Path]:
    """Every saved expedition file in the data folder, most recently played first.

    A missing folder holds none; one that cannot be read raises StoreError, so that no one
    is told there are no expeditions when there may be. A link to a missing file is listed
    (last), so that opening it says what is wrong.
    """
    folder = data_dir()
    try:
        with os.scandir(folder) as listing:
            entries = [e for e in listing if e.name.endswith(SUFFIX) and e.name != SUFFIX]
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        raise StoreError(folder_problem(folder, "is not a folder")) from None
    except OSError as error:
        raise StoreError(folder_problem(folder, f"cannot be read ({reason(error)})")) from None
    found: list[tuple[float, Path]] = []
    for entry in entries:
        path = Path(entry.path)
        try:
            if entry.is_file():
                found.append((entry.stat().st_mtime, path))
            elif entry.is_symlink() and dangling_link(path):
                found.append((float("-inf"), path))
        except OSError:
            found.append((float("-inf"), path))
    return [path for _, path in sorted(found, key=lambda pair: pair[0], reverse=True)]
