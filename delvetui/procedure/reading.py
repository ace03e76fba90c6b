"""Reading TOML a game master is handed: where each key is, and problems in words.

Shared by the procedure loader and the adventure's tables (``procedure.adventure``): a
syntax error as a problem with its line, the line of every key path (``LineMap``), and the
sentences that say what a value is and should be.
"""

from __future__ import annotations

import re
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal

import attrs

from delvetui.errors import DelveError, Problem, ProcedureError
from delvetui.fileio import read_regular
from delvetui.text import suggest as _suggest

#: An id a procedure or a tables file gives a thing (an action, a light, a resource, an
#: area): lower-case letters, digits, "_" and "-", starting with a letter or digit, at most 40.
ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def read_bounded(path: Path, limit: int) -> bytes:
    """A file's bytes, read as hostile input: only a regular file, refused before it is
    opened when it is anything else, and never more than ``limit`` and one byte (a FIFO, a
    device such as /dev/zero or a huge file is refused without waiting or filling memory);
    ProcedureError when it cannot be read. The reading is ``fileio.read_regular``'s."""
    try:
        return read_regular(path, limit + 1, exact=False)
    except FileNotFoundError as error:
        said = f"cannot be read: {error.strerror}"
    except DelveError as error:
        # What the file reader says ("… is not a file but a folder; it was not opened.",
        # "… cannot be read (reason)."), without the path: the problem list names it.
        said = error.message.removeprefix(f"{path} ")
    raise ProcedureError(str(path), [Problem("", said)])


def syntax_problem(error: tomllib.TOMLDecodeError) -> Problem:
    message = str(error)
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    if found is None:
        return Problem("", f"is not valid TOML: {message}")
    line, column = int(found.group(1)), int(found.group(2))
    what = message[: found.start()].strip()
    return Problem("", f"is not valid TOML at column {column}: {what}.", line)


class LineMap:
    """Where each key path is defined in the text, found by a light scan of the lines."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    _KEY = re.compile(r"^\s*([A-Za-z0-9_.\"'-]+)\s*=")

    def __init__(self, text: str) -> None:
        self.lines: dict[str, int] = {}
        arrays: dict[str, int] = {}
        prefix = ""
        for number, line in enumerate(text.splitlines(), start=1):
            header = self._HEADER.match(line)
            if header is not None:
                name = unquote(header.group(2))
                if header.group(1) == "[[":
                    arrays[name] = arrays.get(name, -1) + 1
                prefix = indexed(name, arrays)
                self.lines.setdefault(prefix, number)
                continue
            key = self._KEY.match(line)
            if key is not None:
                path = f"{prefix}.{unquote(key.group(1))}" if prefix else unquote(key.group(1))
                self.lines.setdefault(path, number)

    def line(self, path: str) -> int | None:
        """The line of the key path or of its nearest enclosing key."""
        while path:
            if path in self.lines:
                return self.lines[path]
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
        return None


class Invalid:
    """A value that could not be converted; its problem is already recorded."""


INVALID = Invalid()


class Problems:
    """What a reader of a TOML text found wrong, each problem with its key and line."""

    def __init__(self, lines: LineMap) -> None:
        self.lines = lines
        self.problems: list[Problem] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message, self.lines.line(path)))


def unquote(name: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in name.split("."))


def indexed(name: str, arrays: dict[str, int]) -> str:
    """Turn ``tables.hazard.rows`` into ``tables.hazard.rows[2]`` for arrays of tables."""
    out: list[str] = []
    plain: list[str] = []
    for part in name.split("."):
        plain.append(part)
        key = ".".join(plain)
        out.append(f"{part}[{arrays[key]}]" if key in arrays else part)
    return ".".join(out)


def matches(hint: Any, value: object) -> bool:
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    origin = typing.get_origin(hint)
    if origin is Literal:
        return value in typing.get_args(hint)
    if origin is tuple:
        return isinstance(value, list)
    if origin is dict or attrs.has(hint):
        return isinstance(value, dict)
    return hint is Any


def type_name(hint: Any) -> str:
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    if hint in names:
        return names[hint]
    origin = typing.get_origin(hint)
    if origin is tuple:
        return "a list"
    if origin is dict or attrs.has(hint):
        return "a table"
    return str(hint)


def describe(value: object) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:30] + "…"
        return f"the text '{shown}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def unknown(key: str, allowed: set[str], where: str) -> str:
    return f"'{key}' is not a key of {where}.{_suggest(key, sorted(allowed))}"
