"""A wandering-monster table as a game master pastes it, converted to the adventure's tables.

Tables are printed in books, PDFs and blogs in a few forms, and a game master copies them
as they are: plain text ("d6 Level 1", then "1 2d4 goblins", "4-6: 1d3 skeletons"),
Markdown tables with a die column, and CSV with a header row (``procedure.printed`` reads
each, line by line; docs/procedures.md, "Tables as printed").

Which one a file is comes from its name (``.toml``, ``.csv`` or ``.tsv``; ``.txt``, ``.md``
and ``.markdown`` are read as plain text with Markdown tables), else from its first line
(``detect``). Here the tables read are checked, every face of each die on exactly one row,
and converted to the TOML of docs/procedures.md 3.23 (``convert``), which
``procedure.adventure`` then checks as any tables file. The text is treated as hostile:
every problem is named by its line, every number is read from at most four digits and
checked against the die, no text names a file, and the work is bounded by the tables
file's limits (64 KB, 60 tables, 100 rows a table, the first 100 problems told).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import PurePath

import attrs

from delvetui.errors import Problem, ProcedureError
from delvetui.procedure import table_text
from delvetui.procedure.adventure import (
    LIMIT,
    MAX_AREAS,
    MAX_ROWS,
    MAX_SPAN,
    Adventure,
    Area,
    Encounter,
    load_text,
)
from delvetui.procedure.printed import DIE_HEADINGS, Reading, Row, Table, delimiter, label
from delvetui.procedure.table_text import Entry, Faces, Unread
from delvetui.text import quote

#: The kinds of file a tables file may be: the format itself, a table as printed, a CSV.
TOML, TEXT, CSV = "toml", "text", "csv"
#: What a converted file was read as, in words (a text with a Markdown table is Markdown).
KIND_WORDS = {TEXT: "plain text", "markdown": "Markdown", CSV: "CSV"}

_SUFFIXES = {".toml": TOML, ".csv": CSV, ".tsv": CSV, ".txt": TEXT, ".md": TEXT}
_SUFFIXES[".markdown"] = _SUFFIXES[".text"] = TEXT
#: A number appearing's cell that gives none.
_NO_NUMBER = frozenset({"", "-", "–", "—", "n/a", "none"})
_SLUG = re.compile(r"[^a-z0-9]+")


@attrs.frozen
class Converted:
    """A pasted table converted: what it was read as, the tables, and their TOML text."""

    kind: str
    adventure: Adventure
    toml: str

    @property
    def said(self) -> str:
        """What the file was read as, in words ("plain text", "Markdown", "CSV")."""
        return KIND_WORDS[self.kind]


def already_toml(source: str) -> ProcedureError:
    """The sentence for a tables file that needs no converting."""
    problem = Problem("", "is a tables file in TOML already; tables add takes it as it is.")
    return ProcedureError(source, [problem])


def detect(name: str, text: str) -> str:
    """What a tables file is: ``TOML``, ``CSV`` or ``TEXT`` (plain text and Markdown).

    Its name's suffix says it when it is one of the known ones; else its text: TOML when a
    line sets an ``id`` or opens ``[areas.…]``, CSV when its first line is a header row
    whose first cell names a die (``d6,creature,number``; ``roll;monster``), else text.
    """
    known = _SUFFIXES.get(PurePath(name).suffix.lower())
    if known is not None:
        return known
    first = ""
    for line in text.split("\n"):
        stripped = line.strip()
        if re.match(r"id *=|\[areas\.", stripped):
            return TOML
        if stripped and not first:
            first = stripped
    separator = delimiter(first)
    if separator in first:
        cell = first.split(separator, 1)[0].strip().strip('"').lower()
        if table_text.dice_like(cell) or cell in DIE_HEADINGS - {""}:
            return CSV
    return TEXT


def convert(text: str, *, name: str, source: str = "", kind: str | None = None) -> Converted:
    """The tables a pasted text holds, as the adventure's tables and their TOML.

    ``name`` is the file's name: its stem gives the tables' id (and the name of a lone
    table that names none); ``source`` is how a problem names the file (its path; by
    default ``name``). ``kind`` is ``TEXT`` or ``CSV`` (by default, ``detect``'s). Raises
    ProcedureError naming the file, listing every problem with its line.
    """
    kind = kind or detect(name, text)
    source = source or name
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > LIMIT.size:
        raise ProcedureError(source, [Problem("", f"is {size:,} bytes; {LIMIT.said}.")])
    reading = Tables()
    if kind == CSV:
        reading.csv(text)
    else:
        reading.text(text)
    stem = PurePath(name).stem
    adventure = reading.finish(stem)
    if reading.told or adventure is None:
        raise ProcedureError(source, reading.listed())
    toml = table_text.adventure_toml(adventure)
    size = len(toml.encode("utf-8", "surrogatepass"))
    if size > LIMIT.size:
        said = f"comes to {size:,} bytes as TOML; {LIMIT.said}: paste its tables in two files."
        raise ProcedureError(source, [Problem("", said)])
    load_text(toml, source=source)  # the tables were checked: this is the format's own word
    read_as = "markdown" if kind == TEXT and reading.markdown else kind
    return Converted(read_as, adventure, toml)


class Tables(Reading):
    """A reading whose tables are checked: every face of each die on exactly one row."""

    def finish(self, stem: str) -> Adventure | None:
        """The tables read, checked: every face of each die on exactly one row."""
        if not self.tables:
            if self.told:
                return None
            self.problem(
                None,
                "holds no table: write the die and the table's name (d6 Level 1), then a row "
                "a line (1 2d4 goblins, 4-6 1d3 skeletons); or paste a Markdown table with a "
                "die column, or a CSV file with a header row.",
            )
            return None
        if len(self.tables) > MAX_AREAS:
            self.problem(
                self.tables[MAX_AREAS].line,
                f"begins table {MAX_AREAS + 1}; a file may hold at most {MAX_AREAS}.",
            )
        areas: dict[str, Area] = {}
        named: dict[str, int] = {}
        for index, table in enumerate(self.tables[:MAX_AREAS], start=1):
            only = stem if len(self.tables) == 1 else ""
            named_as = table.name or self.titles.get(table.title, "")
            if named_as and not table.name:
                self.taken.add(table.title)
            named_as = named_as or label(only) or f"Table {index}"
            area = _slug(named_as) or f"table-{index}"
            if area in named:
                self.problem(
                    table.line,
                    f"begins a second table named {quote(named_as)} (the first is at line "
                    f"{named[area]}); give each table a name of its own.",
                )
                continue
            named[area] = table.line
            checked = self.check(table, named_as)
            if checked is not None:
                areas[area] = checked
        if self.told:
            return None
        return Adventure(
            id=_slug(stem) or "tables",
            name=self.name or self.untaken() or label(stem) or "Tables",
            areas=areas,
            start=next(iter(areas)),
        )

    def check(self, table: Table, name: str) -> Area | None:
        """A table's rows read and checked against its die; its area, or None."""
        if not table.rows:
            if not table.broken:  # a row refused says what is wrong
                self.problem(table.line, f"begins the table {quote(name)}, which has no rows.")
            return None
        if len(table.rows) > MAX_ROWS:
            self.problem(
                table.rows[MAX_ROWS].line,
                f"is row {MAX_ROWS + 1} of {quote(name)}; a table may have at most {MAX_ROWS}.",
            )
            return None
        rows = list(self.rows(table.rows))
        table.broken = table.broken or len(rows) < len(table.rows)
        if table.broken and not table.die:
            return None  # its rows say what is wrong; the die they would say is not known
        die = self.die(table, name, [faces for _, faces, _ in rows])
        if die is None:
            return None
        written, lowest, highest = die
        covered: list[tuple[int, int, int]] = []
        claimed: list[tuple[int, int, int]] = []  # every row's faces: a gap is no row's
        encounters: list[Encounter] = []
        for line, faces, entry in rows:
            low, high = faces.within(highest)
            claimed.append((low, high, line))
            shown = table_text.range_text(low, high)
            if low < lowest or high > highest:
                self.problem(line, f"{shown} is outside what {written} rolls ({lowest}-{highest}).")
                continue
            clash = next((c for c in covered if c[0] <= high and low <= c[1]), None)
            if clash is not None:
                self.problem(
                    line,
                    f"{shown} overlaps the row of line {clash[2]} "
                    f"({table_text.range_text(clash[0], clash[1])}); each face of the die "
                    "belongs to one row.",
                )
                continue
            covered.append((low, high, line))
            encounters.append(Encounter(shown, entry.creature, entry.number, text=entry.text))
        missing = [] if table.broken else _gaps(claimed, lowest, highest)
        if missing:
            shown = ", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")
            self.problem(
                table.line,
                f"the {written} table {quote(name)} has no row for {shown}; give every face "
                "of the die a row.",
            )
        encounters.sort(key=lambda row: int(re.split("-", row.roll)[0]))
        # mypy's attrs plugin cannot solve the rows' generic converter (``as_tuple``).
        return Area(label=name, dice=written, rows=encounters)  # type: ignore[arg-type]

    def rows(self, rows: list[Row]) -> Iterator[tuple[int, Faces, Entry]]:
        """Each row's faces and entry, read; a row that cannot be read is a problem."""
        for row in rows:
            try:
                faces = table_text.read_faces(row.faces)
                entry = table_text.read_entry(row.said, table_text.range_text(*_shown(faces)))
                if row.number is not None and row.number.lower() not in _NO_NUMBER:
                    entry = attrs.evolve(entry, number=table_text.read_count(row.number))
            except Unread as unread:
                self.problem(row.line, unread.sentence)
                continue
            if row.more:
                entry = attrs.evolve(entry, text="; ".join(w for w in (entry.text, row.more) if w))
            yield row.line, faces, entry

    def die(self, table: Table, name: str, faces: list[Faces]) -> tuple[str, int, int] | None:
        """The table's die as written, its lowest and highest face; None and a problem when
        it is not a die, or names none and its rows do not say one."""
        written = table.die
        if not written:
            if not faces:
                return None
            low = min(face.low for face in faces)
            high = max(face.high or face.low for face in faces)
            if any(face.high is None for face in faces):
                self.problem(
                    table.line,
                    f"the table {quote(name)} has a row running to the die's highest face "
                    f"(as {low}+) but names no die; write it before the rows, as d6 {name}.",
                )
                return None
            written = f"d{high}" if low == 1 else table_text.dice_for(low, high)
            if not written:
                self.problem(
                    table.line,
                    f"the table {quote(name)} names no die, and its rows "
                    f"({table_text.range_text(low, high)}) do not say one; write it before the "
                    f"rows, as d6 {name}.",
                )
                return None
        try:
            expr = table_text.table_dice(written)
        except Unread as unread:
            self.problem(table.die_line or table.line, unread.sentence)
            return None
        if expr.maximum - expr.minimum > MAX_SPAN:
            self.problem(
                table.die_line or table.line,
                f"{written} rolls more than {MAX_SPAN} totals; a table's die rolls fewer.",
            )
            return None
        return written.lower().replace("d%", "d100"), expr.minimum, expr.maximum


def _slug(text: str) -> str:
    """An id of lower-case letters, digits and dashes ("Level 1" is level-1), at most 40."""
    plain = "".join(
        char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char)
    )
    return _SLUG.sub("-", plain.lower()).strip("-")[:40].strip("-")


def _shown(faces: Faces) -> tuple[int, int]:
    return faces.low, faces.low if faces.high is None else faces.high


def _gaps(covered: list[tuple[int, int, int]], lowest: int, highest: int) -> list[str]:
    """The faces no row covers, as ranges ("4-5", "9")."""
    missing: list[str] = []
    face = lowest
    for low, high, _ in sorted(covered):
        if low > face:
            missing.append(table_text.range_text(face, low - 1))
        face = max(face, high + 1)
    if face <= highest:
        missing.append(table_text.range_text(face, highest))
    return missing
