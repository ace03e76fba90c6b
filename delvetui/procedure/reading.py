"""Reading TOML a game master is handed: where each key is, and problems in words.

Shared by the procedure loader and the adventure's tables (``procedure.adventure``): the
one bounded reading of a TOML text (``parse_toml``: its size, its encoding, then its shape
scanned before ``tomllib`` sees it), a syntax error as a problem with its line, the line of
every key path (``LineMap``), and the sentences that say what a value is and should be.
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


#: What one TOML text may hold, checked by a scan of the text before ``tomllib`` sees it:
#: ``tomllib`` spends memory growing with the square of the dotted parts of one key (a key
#: of 30,000 parts, 62 KB, took 5.7 GB), so a text is bounded before it is parsed. Each is
#: far above what a procedure needs (docs/procedures.md, "Limits", gives the margins).
MAX_KEY_PARTS = 16
MAX_KEYS = 20_000
MAX_NESTING = 32
MAX_ITEMS = 5_000
MAX_STRING = 20_000
#: A hostile text can break a bound many times over; the first few say enough.
_MAX_SHAPE_PROBLEMS = 20


@attrs.frozen
class Limit:
    """The size a file of one kind may have, and how its problems say so."""

    #: The most bytes (of UTF-8) the file may have.
    size: int
    #: How the limit reads in a sentence ("a procedure file may be at most 1 MB").
    said: str


def decode(data: bytes, limit: Limit, *, source: str) -> str:
    """A file's bytes as its text: refused (ProcedureError naming ``source``) when larger
    than the limit or not UTF-8; a byte-order mark (Windows editors write one) dropped."""
    _within(len(data), limit, source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        problem = Problem("", "is not valid UTF-8 text; save it as UTF-8.", line)
        raise ProcedureError(source, [problem]) from None
    return text.removeprefix("\ufeff")


def parse_toml(text: str, limit: Limit, *, source: str) -> dict[str, Any]:
    """The one parse of a TOML text a game master is handed (a procedure, an adventure's
    tables, the procedure inside an export): its size, the bounds of its shape
    (``shape``), then ``tomllib``; ProcedureError naming ``source`` with every problem
    found, each with its key and line.

    Linear in the size of the text whatever it holds, so a hostile text is refused at once.
    """
    _within(len(text.encode("utf-8")), limit, source)
    problems = shape(text).problems
    if problems:
        raise ProcedureError(source, problems)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProcedureError(source, [syntax_problem(error)]) from None
    except RecursionError:  # kept from by the scan; a second guard costs nothing
        problem = Problem("", "nests arrays or tables too deeply.")
        raise ProcedureError(source, [problem]) from None


def _within(size: int, limit: Limit, source: str) -> None:
    if size > limit.size:
        shown = f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{size:,} bytes"
        raise ProcedureError(source, [Problem("", f"is {shown}; {limit.said}.")])


_TOKEN = re.compile(
    r"""
    (?P<space>[ \t]+)
    |(?P<newline>\r?\n)
    |(?P<comment>\#[^\n]*)
    |(?P<string>
        \"\"\"(?:[^"\\]++|\\[\s\S]|"(?!""))*+\"\"\"\"{0,2}
        |'''(?:[^']++|'(?!''))*+''''{0,2}
        |"(?:[^"\\\n]++|\\.)*+"
        |'[^'\n]*+'
    )
    |(?P<bare>[A-Za-z0-9_+\-:]+)
    |(?P<dot>\.)
    |(?P<punct>[\[\]{},=])
    """,
    re.VERBOSE,
)


class _Frame:
    """An array or inline table open at this point of the scan."""

    __slots__ = ("array", "items", "path", "told")

    def __init__(self, array: bool, path: str) -> None:
        self.array = array
        self.path = path
        self.items = 0
        self.told = False


def _shown(path: str) -> str:
    """A key path as a problem names it: a hostile one cut short."""
    return path if len(path) <= 60 else path[:57] + "…"


@attrs.define
class Shape:
    """What a scan of a TOML text found: the bounds it breaks and the largest of each."""

    #: Every bound the text breaks (the first few), each with its key path and line.
    problems: list[Problem] = attrs.field(factory=list)
    #: Where the scan stopped: the end of the text, or where it stops being TOML.
    stopped: int = 0
    #: The most dotted parts of one key or table name.
    parts: int = 0
    #: The keys and table headers of the text.
    keys: int = 0
    #: The deepest nesting of arrays and inline tables.
    nesting: int = 0
    #: The longest array (or array of tables).
    items: int = 0
    #: The longest text, in the characters written between its quotes.
    string: int = 0


def scan_shape(text: str) -> list[Problem]:
    """Every bound of ``MAX_KEY_PARTS`` .. ``MAX_STRING`` the text breaks, each with its key
    path and line (``shape``)."""
    return shape(text).problems


def shape(text: str) -> Shape:
    """The shape of a TOML text, found by one pass over its tokens (linear time, no parse).

    The scan follows TOML as far as the text is valid; where it stops being valid the scan
    stops too, and ``tomllib`` reports the syntax error there (it parses nothing beyond it).
    """
    found_shape = Shape()
    problems = found_shape.problems
    stack: list[_Frame] = []
    mode = "key"  # key, header, value, after (a value read, waiting for what follows)
    parts: list[str] = []
    count = 0  # the dotted parts of the key being read
    dotted = False  # the last token of the key was a dot
    key_line = 1
    table = ""  # the table header in force: [tables.hazard]
    array_tables: dict[str, int] = {}
    double = False  # the header is [[...]]
    keys = 0
    line = 1
    path = ""  # the key path of the value being read
    pos, end = 0, len(text)

    def problem(where: str, message: str, at: int) -> None:
        problems.append(Problem(_shown(where), message, at))

    def base() -> str:
        return stack[-1].path if stack else table

    def finish_key(kind: str) -> str:
        nonlocal keys
        keys += 1
        name = ".".join(parts) + ("…" if count > len(parts) else "")
        where = f"{base()}.{name}" if base() and kind == "key" else name
        found_shape.parts = max(found_shape.parts, count)
        if count > MAX_KEY_PARTS:
            problem(
                where,
                f"is a {kind} of {count:,} dotted parts; a {kind} may have at most "
                f"{MAX_KEY_PARTS} (such as tables.hazard.dice).",
                key_line,
            )
        if keys > MAX_KEYS:
            problem(
                where,
                f"is key {keys:,} of the file; a file may hold at most {MAX_KEYS:,}.",
                key_line,
            )
        return where

    def value_starts() -> None:
        """Count an item of the array the value is in, naming its path."""
        nonlocal path
        if stack and stack[-1].array:
            frame = stack[-1]
            frame.items += 1
            path = f"{frame.path}[{frame.items - 1}]"
            found_shape.items = max(found_shape.items, frame.items)
            if frame.items > MAX_ITEMS and not frame.told:
                frame.told = True
                problem(
                    frame.path,
                    f"is a list of more than {MAX_ITEMS:,} items; a list may hold at most "
                    f"{MAX_ITEMS:,}.",
                    line,
                )

    while pos < end and len(problems) < _MAX_SHAPE_PROBLEMS and keys <= MAX_KEYS:
        found_shape.stopped = pos
        found = _TOKEN.match(text, pos)
        if found is None:
            break  # not TOML: tomllib says where
        kind = found.lastgroup
        start, pos = pos, found.end()
        token = text[start] if kind in ("punct", "dot") else ""
        if kind == "space":
            continue
        if kind == "newline" or kind == "comment":
            if kind == "newline":
                line += 1
            if mode in ("key", "after") and not stack and (mode == "after" or count == 0):
                if kind == "newline":
                    mode = "key"
                continue
            if stack and stack[-1].array and mode in ("value", "after"):
                continue
            break
        if mode in ("key", "header"):
            if kind in ("bare", "string") and (count == 0 or dotted):
                if count == 0:
                    key_line = line
                count += 1
                dotted = False
                if len(parts) <= MAX_KEY_PARTS:
                    parts.append(
                        text[start:pos] if pos - start <= 60 else text[start : start + 57] + "…"
                    )
                if kind == "string":
                    line += text.count("\n", start, pos)
                continue
            if kind == "dot" and count and not dotted:
                dotted = True
                continue
            if mode == "key" and token == "=" and count and not dotted:
                path = finish_key("key")
                parts, count, mode = [], 0, "value"
                continue
            if mode == "header" and token == "]" and count and not dotted:
                if double:
                    if not text.startswith("]", pos):
                        break
                    pos += 1
                name = finish_key("table name")
                if double:
                    array_tables[name] = array_tables.get(name, 0) + 1
                    found_shape.items = max(found_shape.items, array_tables[name])
                    if array_tables[name] == MAX_ITEMS + 1:
                        problem(
                            name,
                            f"is a list of more than {MAX_ITEMS:,} tables; a list may hold at "
                            f"most {MAX_ITEMS:,}.",
                            key_line,
                        )
                table = name
                parts, count, mode = [], 0, "after"
                continue
            if mode == "key" and token == "[" and count == 0 and not stack:
                double = text.startswith("[", pos)
                pos += double
                mode = "header"
                continue
            if mode == "key" and token == "}" and count == 0 and stack and not stack[-1].array:
                stack.pop()
                mode = "after"
                continue
            break
        if mode == "value":
            if kind == "string" or kind == "bare":
                value_starts()
                if kind == "string":
                    written = pos - start - (6 if text.startswith(('"""', "'''"), start) else 2)
                    found_shape.string = max(found_shape.string, written)
                    if written > MAX_STRING:
                        problem(
                            path,
                            f"is a text of {written:,} characters; a text may hold at most "
                            f"{MAX_STRING:,}.",
                            line,
                        )
                    line += text.count("\n", start, pos)
                mode = "after"
                continue
            if token in ("[", "{"):
                value_starts()
                if len(stack) >= MAX_NESTING:
                    problem(
                        path,
                        f"nests arrays or tables too deeply ({MAX_NESTING + 1} levels; at most "
                        f"{MAX_NESTING}).",
                        line,
                    )
                    break
                stack.append(_Frame(token == "[", path))
                found_shape.nesting = max(found_shape.nesting, len(stack))
                mode = "value" if token == "[" else "key"
                continue
            if token == "]" and stack and stack[-1].array:
                stack.pop()
                mode = "after"
                continue
            break
        # after a value: more of it (1.5, a date and its time), or what follows it
        if kind in ("bare", "dot"):
            continue
        if token == "," and stack:
            mode = "value" if stack[-1].array else "key"
            continue
        if token in ("]", "}") and stack and stack[-1].array == (token == "]"):
            stack.pop()
            continue
        break
    else:
        found_shape.stopped = pos
    found_shape.keys = keys
    return found_shape


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
