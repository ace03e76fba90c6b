"""A table as it is printed, read line by line: plain text, Markdown and CSV.

The forms a wandering-monster table takes in a book, a PDF or a blog (docs/procedures.md,
"Tables as printed"), read into tables of rows as printed: each table's die and name as
written (or the title above it), and each row's faces and words, with the line it stands
on. Nothing is checked against a die here (``procedure.pasted`` does that); a line that
holds a control character is refused by its number, and the reading is one pass over the
lines, its searches over words a single space apart.

- Plain text: a line naming the die and the table ("d6 Level 1", "1d6 Roll Encounter",
  "Level 2 (roll 2d6)"), then a row a line, faces first ("4-6: 1d3 skeletons"); a row's
  words a PDF broke onto the next line (indented, or not a sentence's start) join it; a
  short line of its own (not a sentence) is a title, the name of the table under it.
- Markdown: a table with a die column under a heading that names it; its number column
  and its other columns ("CR: 2") where it has them.
- CSV: a header row, then the die's column, the creature's, a number appearing's and an
  area's (level's) column that splits the rows into a table an area.
"""

from __future__ import annotations

import csv
import io
import re

import attrs

from delvetui.errors import Problem
from delvetui.procedure import table_text
from delvetui.procedure.reading import MAX_PROBLEMS
from delvetui.text import UNSEEN, unseen_words, visible

#: The longest name a table takes from a heading (an area's label).
MAX_LABEL = 80
#: A line of more words than this, or one ending as a sentence does, is prose: never a
#: table's name, and the dice it mentions are not a table's.
_PROSE_WORDS = 12

#: Column headings (and the words beside a die on a plain header) that name no table.
_COLUMN_WORDS = frozenset(
    {"roll", "rolls", "die", "dice", "result", "results", "encounter", "encounters", "entry"}
    | {"monster", "monsters", "creature", "creatures", "wandering", "random", "number", "no"}
    | {"no.", "appearing", "name", "names", "description", "notes", "note", "stats", "entries"}
    | {"what", "type", "qty", "count", "#", "table", "chart"}
)
DIE_HEADINGS = frozenset({"roll", "rolls", "die", "dice", "d", "#", "", "no.", "face", "faces"})
_CREATURE_HEADINGS = frozenset(
    {"creature", "creatures", "monster", "monsters", "encounter", "encounters", "result"}
    | {"results", "name", "foe", "foes", "enemy", "enemies", "entry", "what"}
    | {"wandering monster", "wandering monsters", "random encounter", "random encounters"}
)
_NUMBER_HEADINGS = frozenset(
    {"number", "no.", "no", "number appearing", "no. appearing", "appearing", "#", "count"}
) | {"qty", "quantity", "how many", "num", "amount", "# appearing", "num. appearing"}
_AREA_HEADINGS = frozenset({"area", "level", "table", "dungeon level", "depth", "zone"})

_HEADING = re.compile(r"(#{1,6}) (.*?)(?: #+)?")
_BOLD = re.compile(r"(\*\*|__)(.+)\1:?")
_BULLET = re.compile(r"\A[-*•+] ")
_SEPARATOR = re.compile(r"[|:\- ]+")
_PIPE = re.compile(r"(?<!\\)\|")


@attrs.define
class Row:
    """A row as read, before its entry is: its line, its faces, and its cells' words."""

    line: int
    faces: str
    #: The creature's words (with the number appearing before it, where no column has it).
    words: str
    #: The number appearing's own cell (Markdown, CSV), or None when it is in ``words``.
    number: str | None = None
    #: Words of the other columns ("CR: 2").
    more: str = ""
    #: Its words a PDF broke onto the lines after it, in order.
    wrapped: list[str] = attrs.Factory(list)

    @property
    def said(self) -> str:
        """All its words: the row's line's and those wrapped onto the next lines."""
        return " ".join([self.words, *self.wrapped]) if self.wrapped else self.words


@attrs.define
class Table:
    """A table as read: where it begins, its die and name as printed, its rows."""

    line: int
    die: str = ""
    die_line: int = 0
    name: str = ""
    #: The line of the title above it (0 for none): its name when it names none itself.
    title: int = 0
    rows: list[Row] = attrs.Factory(list)
    #: A line of it was refused: the faces it would have covered are not told as gaps.
    broken: bool = False


class Reading:
    """One reading of a pasted text: its tables and every problem, each with its line."""

    def __init__(self) -> None:
        self.tables: list[Table] = []
        self.problems: list[Problem] = []
        self.more = 0
        self.markdown = False
        #: The words of the file's first Markdown heading of the first level (``# The
        #: Sunken Mill``): the adventure's name.
        self.name = ""
        #: Every line that could name a table, in order, by its number: the first that no
        #: table takes names the adventure when no heading does.
        self.titles: dict[int, str] = {}
        self.taken: set[int] = set()

    @property
    def told(self) -> int:
        return len(self.problems) + self.more

    def problem(self, line: int | None, message: str) -> None:
        if len(self.problems) >= MAX_PROBLEMS:
            self.more += 1
        else:
            self.problems.append(Problem("", message, line))

    def listed(self) -> list[Problem]:
        """The problems in the order of their lines (the file's own first)."""
        told = sorted(self.problems, key=lambda problem: problem.line or 0)
        if not self.more:
            return told
        return [*told, Problem("", f"… and {self.more:,} more problems.")]

    def table(self, line: int, title: int, die: str = "", name: str = "") -> Table:
        made = Table(line=line, title=title, die=die, die_line=line if die else 0, name=name)
        self.tables.append(made)
        return made

    def plain(self, number: int, line: str) -> str | None:
        """The line's words a single space apart, or None (and a problem) when it holds a
        control character."""
        control = next(
            (found.group() for found in UNSEEN.finditer(line) if found.group() != "\t"), ""
        )
        if control:
            self.problem(number, f"holds {unseen_words(control)}; paste plain text.")
            return None
        return " ".join(line.split())

    # Plain text and Markdown --------------------------------------------------------------

    def text(self, text: str) -> None:
        lines = [line.removesuffix("\r") for line in text.split("\n")]
        table: Table | None = None
        title = 0
        continues = False
        index = 0
        while index < len(lines):
            number = index + 1
            words = self.plain(number, lines[index])
            index += 1
            if not words:
                continues = False  # a blank line (or one refused) ends a row's words
                if words is None and table is not None:
                    table.broken = True
                continue
            following = lines[index].strip() if index < len(lines) else ""
            if "|" in words and "-" in following and _SEPARATOR.fullmatch(following):
                fill = table if table is not None and not table.rows else None
                index = self.markdown_table(lines, number, fill, title)
                table, title, continues = None, 0, False
                continue
            heading = _heading(words)
            if heading is not None and words.startswith("# ") and not self.name:
                self.name = label(heading)
            row = None if heading is not None else table_text.row_match(_BULLET.sub("", words, 1))
            if row is not None:
                if table is None:
                    table, title = self.table(number, title), 0
                table.rows.append(Row(number, row.group("faces"), row.group("rest") or ""))
                continues = True
                continue
            header = _header(heading if heading is not None else words, heading is not None)
            if header is not None:
                table, title = self.table(number, title, *header), 0
                continues = False
                continue
            wrapped = lines[number - 1][:1].isspace() or words[0].islower()
            if continues and heading is None and wrapped and table is not None:
                # A row's words a PDF broke over two lines: indented, or not a sentence's start.
                table.rows[-1].wrapped.append(words)
                continue
            table, continues = None, False
            if heading is not None or _titled(words):
                self.titles[number] = label(heading if heading is not None else words)
                title = number

    def markdown_table(self, lines: list[str], start: int, table: Table | None, title: int) -> int:
        """A Markdown table whose header is line ``start``: its rows into ``table`` (the one
        a heading with a die just began) or a new one; the index of the line after it."""
        self.markdown = True
        heading = _cells(" ".join(lines[start - 1].split()))
        columns = _Columns.of(heading)
        if table is None:
            table = self.table(start, title)
        die = heading[columns.die] if columns.die < len(heading) else ""
        if table_text.dice_like(die):
            table.die, table.die_line = die, start
        named = heading[columns.creature] if columns.creature < len(heading) else ""
        if not table.name and _key(named) not in _COLUMN_WORDS | _CREATURE_HEADINGS:
            table.name = label(named)
        index = start + 1  # the separator's index is ``start``: the rows follow it
        while index < len(lines) and "|" in lines[index]:
            words = self.plain(index + 1, lines[index])
            index += 1
            if words:
                table.rows.append(columns.row(index, _cells(words)))
        return index

    # CSV ------------------------------------------------------------------------------------

    def csv(self, text: str) -> None:
        lines = text.split("\n")
        clean = True
        for number, line in enumerate(lines, start=1):
            if self.plain(number, line.removesuffix("\r")) is None:
                clean = False
        if not clean:
            return
        first = next((line for line in lines if line.strip()), "")
        reader = csv.reader(io.StringIO(text), delimiter=delimiter(first), strict=True)
        columns: _Columns | None = None
        header = 0
        tables: dict[str, Table] = {}
        try:
            for cells in reader:
                number = reader.line_num
                if columns is not None and any("\n" in cell for cell in cells):
                    self.problem(number, "has a cell that runs over two lines; keep a row on one.")
                    area = "" if columns.area is None else _cell(cells, columns.area)
                    refused = tables.get(" ".join(area.split()))
                    if refused is not None:
                        refused.broken = True
                    continue
                cells = [" ".join(cell.split()) for cell in cells]
                if not any(cells):
                    continue
                if columns is None:
                    columns, header = _Columns.of(cells, area=True), number
                    continue
                area = _cell(cells, columns.area) if columns.area is not None else ""
                table = tables.get(area)
                if table is None:
                    name = columns.area_name(area)
                    die = columns.die_heading
                    table = self.table(number, 0, die, name)
                    table.die_line = header if die else 0
                    tables[area] = table
                table.rows.append(columns.row(number, cells))
        except csv.Error as error:
            self.problem(reader.line_num, f"cannot be read as CSV ({visible(str(error))}).")
        if columns is not None and not tables:
            self.problem(None, "has a header row but no rows under it.")

    # The tables -------------------------------------------------------------------------------

    def untaken(self) -> str:
        """The first title no table took for its name, or ""."""
        return next((t for line, t in self.titles.items() if line not in self.taken), "")


@attrs.frozen
class _Columns:
    """Which column of a Markdown table or a CSV file holds what."""

    headings: tuple[str, ...]
    die: int
    creature: int
    number: int | None
    area: int | None

    @classmethod
    def of(cls, headings: list[str], *, area: bool = False) -> _Columns:
        keys = [_key(heading) for heading in headings]
        die = next(
            (i for i, key in enumerate(keys) if table_text.dice_like(key) or key in DIE_HEADINGS),
            0,
        )
        later = [i for i in range(len(keys)) if i != die]
        number = next((i for i in later if keys[i] in _NUMBER_HEADINGS), None)
        zone = next((i for i in later if keys[i] in _AREA_HEADINGS), None) if area else None
        rest = [i for i in later if i not in (number, zone)]
        creature = next((i for i in rest if keys[i] in _CREATURE_HEADINGS), None)
        if creature is None:
            creature = rest[0] if rest else len(headings)
        return cls(tuple(headings), die, creature, number, zone)

    @property
    def die_heading(self) -> str:
        heading = self.headings[self.die] if self.die < len(self.headings) else ""
        return heading if table_text.dice_like(heading) else ""

    def area_name(self, value: str) -> str:
        """An area's name from its cell: "Level 1" for a 1 under "level"."""
        if self.area is None:
            return ""
        if value.isascii() and value.isdigit():
            return label(f"{self.headings[self.area].strip().capitalize()} {value}")
        return label(value)

    def row(self, line: int, cells: list[str]) -> Row:
        used = {self.die, self.creature, self.number, self.area}
        more = "; ".join(
            f"{label(self.headings[i])}: {cells[i]}"
            for i in range(min(len(cells), len(self.headings)))
            if i not in used and cells[i] and self.headings[i].strip()
        )
        number = None if self.number is None else _cell(cells, self.number)
        return Row(line, _cell(cells, self.die), _cell(cells, self.creature), number, more)


def _cell(cells: list[str], index: int) -> str:
    return _unmarked(cells[index]) if index < len(cells) else ""


def _cells(line: str) -> list[str]:
    """A Markdown table's row split into its cells (an escaped \\| kept in its cell)."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [_unmarked(cell.replace("\\|", "|")) for cell in _PIPE.split(inner)]


def _unmarked(cell: str) -> str:
    """A cell's words without Markdown's emphasis and line breaks."""
    cell = re.sub(r"<br\s*/?>", " ", cell.strip(), flags=re.IGNORECASE)
    return " ".join(cell.strip("*_` ").split())


def _key(heading: str) -> str:
    return " ".join(_unmarked(heading).lower().rstrip(":").split())


def _heading(words: str) -> str | None:
    """A Markdown heading's or a bold line's words, or None for any other line."""
    for pattern in (_HEADING, _BOLD):
        found = pattern.fullmatch(words)
        if found is not None:
            return _unmarked(found.group(2))
    return None


def _prose(words: str) -> bool:
    """A sentence, or a line that leads into what follows ("Roll d20 on the table below:")."""
    return len(words.split(" ")) > _PROSE_WORDS or words[-1] in ".!?:"


def _titled(words: str) -> bool:
    """Whether a line could name the table under it: short, not a sentence, has a letter."""
    return not _prose(words) and any(char.isalpha() for char in words)


def _header(words: str, heading: bool) -> tuple[str, str] | None:
    """A line that begins a table, as (its die, its name): the die first ("d6 Level 1",
    "1d6 Roll Encounter") or anywhere in a short line ("Level 2 (roll 2d6)"); None for any
    other line, and for a sentence (its dice are the text's, not a table's)."""
    parts = words.split(" ")
    bare = [part.strip("()[]{}:,;.*_") for part in parts]
    if not words or len(parts) > _PROSE_WORDS or words[-1] in ".!?":
        return None
    if table_text.dice_like(bare[0]):
        named = [part for part, key in zip(parts[1:], bare[1:], strict=True) if _key(key)
                 not in _COLUMN_WORDS]  # fmt: skip
        return bare[0], label(" ".join(named))
    where = next((i for i, part in enumerate(bare) if table_text.dice_like(part)), None)
    if where is None or (not heading and _prose(words)):
        return None
    kept = [part for i, part in enumerate(parts) if i != where]
    if where > 0 and bare[where - 1].lower() == "roll":
        del kept[where - 1]
    return bare[where], label(re.sub(r"\(\s*\)|\[\s*\]", "", " ".join(kept)))


def label(text: str) -> str:
    """A table's name as its area's label: no brackets or dashes left at its ends, cut to
    ``MAX_LABEL`` characters."""
    label = " ".join(text.split()).strip(" -–—:,;.(")
    return label[:MAX_LABEL].rstrip()


def delimiter(line: str) -> str:
    """The separator a CSV file's header row uses most: a comma, a semicolon or a tab."""
    return max(",;\t", key=line.count) if line else ","
