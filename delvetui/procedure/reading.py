"""Reading TOML a game master is handed: where each key is, and problems in words.

Shared by the procedure loader and the adventure's tables (``procedure.adventure``): the
one bounded reading of a TOML text (``parse_toml``: its size, its encoding, then its shape
scanned before ``tomllib`` sees it), a syntax error as a problem with its line, the line of
every key path (``LineMap``), and the sentences that say what a value is and should be.
"""

from __future__ import annotations

import contextlib
import re
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal

import attrs

from delvetui.errors import DelveError, Problem, ProcedureError
from delvetui.fileio import read_regular
from delvetui.procedure import bounds
from delvetui.text import suggest as _suggest

#: An id a procedure or a tables file gives a thing (an action, a light, a resource, an
#: area): lower-case letters, digits, "_" and "-", starting with a letter or digit, at most 40.
ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def read_bounded(path: Path, limit: Limit) -> bytes:
    """A file's bytes, read as hostile input: only a regular file, refused before it is
    opened when it is anything else, and never more than the limit and one byte (a FIFO, a
    device such as /dev/zero or a huge file is refused without waiting or filling memory);
    ProcedureError when it cannot be read or is larger than the limit (saying its size).
    The reading is ``fileio.read_regular``'s."""
    try:
        data = read_regular(path, limit.size + 1, exact=False)
    except FileNotFoundError as error:
        said = f"cannot be read: {error.strerror}"
    except DelveError as error:
        # What the file reader says ("… is not a file but a folder; it was not opened.",
        # "… cannot be read (reason)."), without the path: the problem list names it.
        said = error.message.removeprefix(f"{path} ")
    else:
        if len(data) > limit.size:
            # Only the limit and a byte were read: the file's own size says how far past.
            with contextlib.suppress(OSError):
                _within(max(len(data), path.stat().st_size), limit, str(path))
            _within(len(data), limit, str(path))
        return data
    raise ProcedureError(str(path), [Problem("", said)])


def read_text(path: Path, limit: Limit) -> str:
    """A file's text (``read_bounded``, then ``decode``), named by its path in a problem."""
    return decode(read_bounded(path, limit), limit, source=str(path))


#: What one TOML text may hold, checked by a scan of the text before ``tomllib`` sees it:
#: ``tomllib`` spends memory growing with the square of the dotted parts of one key (a key
#: of 30,000 parts, 62 KB, took 5.7 GB), so a text is bounded before it is parsed. Each is
#: far above what a procedure needs (docs/procedures.md, "Limits", gives the margins).
MAX_KEY_PARTS = 16
MAX_KEYS = 10_000
MAX_VALUES = 20_000
MAX_NESTING = 32
MAX_ITEMS = 5_000
MAX_STRING = 20_000
#: The longest bare value (a number, a date, true or false): ``tomllib`` refuses a whole
#: number of more than 4,300 digits with an error of its own, and no key needs more than a
#: few digits (docs/procedures.md gives each key's range).
MAX_BARE = 64
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
    except ValueError:  # a whole number of thousands of digits, kept from by the scan too
        problem = Problem("", f"holds a number of more than {MAX_BARE} characters.")
        raise ProcedureError(source, [problem]) from None


def _within(size: int, limit: Limit, source: str) -> None:
    if size > limit.size:
        shown = f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{size:,} bytes"
        raise ProcedureError(source, [Problem("", f"is {shown}; {limit.said}.")])


_STRING = (
    r'"""(?:[^"\\]++|\\[\s\S]|"(?!""))*+"""' + r'"{0,2}'
    r"|'''(?:[^']++|'(?!''))*+'''" + r"'{0,2}"
    r'|"(?:[^"\\\n]++|\\.)*+"'
    r"|'[^'\n]*+'"
)
#: One part of a key: bare, "basic" or 'literal'.
_PART = re.compile(r"""[A-Za-z0-9_-]++|"(?:[^"\\\n]++|\\.)*+"|'[^'\n]*+'""")
#: A whole key, dotted or not, in one match however many parts it has.
_KEY = re.compile(rf"(?:{_PART.pattern})(?:[ \t]*+\.[ \t]*+(?:{_PART.pattern}))*+")
#: Spaces, line ends and comments between tokens.
_GAP = re.compile(r"(?:[ \t]++|\r?\n|#[^\n]*+)++")
#: A value's first token (or the rest of one: a date's time), or a bracket, brace or comma.
_TOKEN = re.compile(rf"(?P<string>{_STRING})|(?P<bare>[A-Za-z0-9_+\-:.]++)|(?P<punct>[\[\]{{}},])")
#: A run of plain items of a list and their commas (numbers, words, short texts without a
#: comma), counted in one match: a long list costs no step per item.
_ITEMS = re.compile(
    r"""(?:[ \t\r\n]*+(?:[A-Za-z0-9_+\-:.]{1,64}+(?![A-Za-z0-9_+\-:.])"""
    r"""|"[^"\\\n,]{0,200}+"|'[^'\n,]{0,200}+')"""
    r"[ \t\r\n]*+,)++"
)


class _Frame:
    """An array or inline table open at this point of the scan."""

    __slots__ = ("array", "items", "path")

    def __init__(self, array: bool, path: str) -> None:
        self.array = array
        self.path = path
        self.items = 0


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
    #: The values of the text: each key's, and each item of a list.
    values: int = 0
    #: The deepest nesting of arrays and inline tables.
    nesting: int = 0
    #: The longest array.
    items: int = 0
    #: The longest text, in the characters written between its quotes.
    string: int = 0
    #: The longest bare value read one at a time (a list's short items are not measured).
    bare: int = 0


def scan_shape(text: str) -> list[Problem]:
    """Every bound of ``MAX_KEY_PARTS`` .. ``MAX_STRING`` the text breaks, each with its key
    path and line (``shape``)."""
    return shape(text).problems


def shape(text: str) -> Shape:
    """The shape of a TOML text, found by one pass over its tokens (linear time, no parse).

    The scan follows TOML as far as the text is valid; where it stops being valid the scan
    stops too, and ``tomllib`` reports the syntax error there (it parses nothing beyond it).
    It also stops at a bound of the whole text broken (keys, a list's items, nesting) and
    after a few problems, so a hostile text costs at most a few thousand steps.
    """
    return _Scan(text).run()


class _Stop(Exception):
    """The scan ends here: the text stops being TOML, or it has said enough."""


class _Scan:
    """One scan of a text (``shape``): where it is, what is open, what it found."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found = Shape()
        self.stack: list[_Frame] = []
        # key: a key, a [header] or a closing brace next; equals: '='; header: a table's
        # name; close: ']' or ']]'; value: a value; after: what follows a value.
        self.mode = "key"
        self.double = False  # the header is [[...]]
        self.table = ""  # the table header in force: tables.hazard
        self.path = ""  # the key path of the value being read
        self.line = 1

    def run(self) -> Shape:
        pos, end = 0, len(self.text)
        try:
            while pos < end:
                self.found.stopped = pos
                pos = self.step(pos)
            self.found.stopped = pos
        except _Stop:
            pass
        return self.found

    def problem(self, where: str, message: str, *, stop: bool = False) -> None:
        self.found.problems.append(Problem(_shown(where), message, self.line))
        if stop or len(self.found.problems) >= _MAX_SHAPE_PROBLEMS:
            raise _Stop

    def step(self, pos: int) -> int:
        """Read what stands at ``pos``; the position after it."""
        text, mode, stack = self.text, self.mode, self.stack
        gap = _GAP.match(text, pos)
        if gap is not None:
            lines = text.count("\n", pos, gap.end())
            if lines:
                self.line += lines
                if not stack and mode in ("key", "after"):
                    self.mode = "key"
                elif not (stack and stack[-1].array and mode in ("value", "after")):
                    raise _Stop  # a line ends where TOML does not allow it
            return gap.end()
        char = text[pos]
        if mode == "key":
            if char == "[" and not stack:
                self.double = text.startswith("[[", pos)
                self.mode = "header"
                return pos + 1 + self.double
            if char == "}" and stack and not stack[-1].array:
                stack.pop()
                self.mode = "after"
                return pos + 1
            return self.key(pos, "key")
        if mode == "header":
            return self.key(pos, "table name")
        if mode == "close":
            if char == "]" and (not self.double or text.startswith("]]", pos)):
                self.mode = "after"
                return pos + 1 + self.double
            raise _Stop
        if mode == "equals":
            if char == "=":
                self.mode = "value"
                return pos + 1
            raise _Stop
        if mode == "value":
            return self.value(pos, char)
        if char == "," and stack:
            self.mode = "value" if stack[-1].array else "key"
            return pos + 1
        if char in "]}" and stack and stack[-1].array == (char == "]"):
            stack.pop()
            return pos + 1
        token = _TOKEN.match(text, pos)
        if token is not None and token.lastgroup == "bare":
            return token.end()  # the rest of a value: a date's time after its space
        raise _Stop

    def key(self, pos: int, kind: str) -> int:
        """A key (or a table's name) and its parts, counted in one match."""
        found = _KEY.match(self.text, pos)
        if found is None:
            raise _Stop
        start, end = found.span()
        if self.text.find("'", start, end) >= 0 or self.text.find('"', start, end) >= 0:
            parts = len(_PART.findall(self.text, start, end))
        else:
            parts = self.text.count(".", start, end) + 1
        self.found.parts = max(self.found.parts, parts)
        self.found.keys += 1
        name = self.text[start : min(end, start + 61)]
        base = self.stack[-1].path if self.stack else self.table
        where = f"{base}.{name}" if base and kind == "key" else name
        if parts > MAX_KEY_PARTS:
            self.problem(
                where,
                f"is a {kind} of {parts:,} dotted parts; a {kind} may have at most "
                f"{MAX_KEY_PARTS} (such as tables.hazard.dice).",
            )
        if self.found.keys > MAX_KEYS:
            self.problem(
                where,
                f"is key {self.found.keys:,} of the file; a file may hold at most {MAX_KEYS:,}.",
                stop=True,
            )
        if kind == "key":
            self.path = where
            self.mode = "equals"
        else:
            self.table = where  # an array of tables is bounded by MAX_KEYS, each its header
            self.mode = "close"
        return end

    def values(self, count: int) -> None:
        self.found.values += count
        if self.found.values > MAX_VALUES:
            self.problem(
                self.path,
                f"is value {self.found.values:,} of the file; a file may hold at most "
                f"{MAX_VALUES:,} (each key's value and each item of a list).",
                stop=True,
            )

    def items(self, where: str, count: int) -> None:
        self.found.items = max(self.found.items, count)
        if count > MAX_ITEMS:
            self.problem(
                where,
                f"is a list of more than {MAX_ITEMS:,} items; a list may hold at most "
                f"{MAX_ITEMS:,}.",
                stop=True,
            )

    def value(self, pos: int, char: str) -> int:
        """A value, or the end of the list it would be an item of."""
        text, stack = self.text, self.stack
        frame = stack[-1] if stack and stack[-1].array else None
        if frame is not None:
            if char == "]":
                stack.pop()
                self.mode = "after"
                return pos + 1
            run = _ITEMS.match(text, pos)
            if run is not None:
                count = text.count(",", pos, run.end())
                frame.items += count
                self.items(frame.path, frame.items)
                self.values(count)
                self.line += text.count("\n", pos, run.end())
                return run.end()
            frame.items += 1
            self.items(frame.path, frame.items)
            self.path = f"{frame.path}[{frame.items - 1}]"
        self.values(1)
        if char in "[{":
            if len(stack) >= MAX_NESTING:
                self.problem(
                    self.path,
                    f"nests arrays or tables too deeply ({MAX_NESTING + 1} levels; at most "
                    f"{MAX_NESTING}).",
                    stop=True,
                )
            stack.append(_Frame(char == "[", self.path))
            self.found.nesting = max(self.found.nesting, len(stack))
            self.mode = "value" if char == "[" else "key"
            return pos + 1
        token = _TOKEN.match(text, pos)
        if token is None or token.lastgroup == "punct":
            raise _Stop
        start, end = token.span()
        if token.lastgroup == "string":
            quotes = 6 if text.startswith(('"""', "'''"), start) else 2
            written = end - start - quotes
            self.found.string = max(self.found.string, written)
            if written > MAX_STRING:
                self.problem(
                    self.path,
                    f"is a text of {written:,} characters; a text may hold at most {MAX_STRING:,}.",
                )
            self.line += text.count("\n", start, end)
        else:
            self.found.bare = max(self.found.bare, end - start)
        if token.lastgroup != "string" and end - start > MAX_BARE:
            self.problem(
                self.path,
                f"is a value of {end - start:,} characters; a number or a date may have at "
                f"most {MAX_BARE}.",
            )
        self.mode = "after"
        return end


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


#: The most problems one text is told: a hostile file can hold thousands, and working out
#: each one's words (the nearest key) costs time; the first hundred say what is wrong.
MAX_PROBLEMS = 100


class Problems:
    """What a reader of a TOML text found wrong, each problem with its key and line (the
    first ``MAX_PROBLEMS``; ``listed`` says how many more there were)."""

    def __init__(self, lines: LineMap) -> None:
        self.lines = lines
        self.problems: list[Problem] = []
        self.more = 0

    @property
    def full(self) -> bool:
        """True once ``MAX_PROBLEMS`` are told: a caller need not work out another's words."""
        return len(self.problems) >= MAX_PROBLEMS

    @property
    def told(self) -> int:
        """How many problems were found, told or left out."""
        return len(self.problems) + self.more

    def problem(self, path: str, message: str) -> None:
        if self.full:
            self.more += 1
            return
        self.problems.append(Problem(path, message, self.lines.line(path)))

    def out_of_range(self, metadata: typing.Mapping[str, Any], value: object, path: str) -> bool:
        """Report each number of a key's value outside the range its field declares
        (``procedure.bounds``: not finite, or beyond it); True when one was. Asked before
        the value is converted, so a number never reaches a check or the game unbounded."""
        found = bounds.of(metadata)
        if found is None:
            return False
        told = False
        for where, said in bounds.problems(value, found, path):
            self.problem(where, said)
            told = True
        return told

    def listed(self) -> list[Problem]:
        """The problems told, and a last line for the ones left out."""
        if not self.more:
            return self.problems
        return [*self.problems, Problem("", f"… and {self.more:,} more problems.")]


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


def kind_of_value(value: object) -> str:
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
