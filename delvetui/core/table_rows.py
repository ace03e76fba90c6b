"""The adventure's tables changed at the table: a row added, changed or taken out.

A carried table's die never changes, so every face stays on exactly one row:

- ``tables row AREA ROW`` sets a row as printed ("4-6 1d3 skeletons"): it replaces the row
  of exactly those faces, or takes its faces from the rows that had them (a row left with
  none goes, a row cut in two keeps both parts);
- ``tables change AREA FACES ROW`` makes the row of exactly FACES the row given: the faces
  it takes come from the rows that had them, and the faces it gives up go to the row next
  to them, the row below first, else the row above (a face only the changed row is next
  to is refused: a row must be set on it first);
- ``tables remove AREA FACES`` takes the row of exactly FACES out: its faces go to the row
  below it, else the row above.

Each is an event (``TableRowSet``, ``TableRowRemoved``) whose rule writes the tables' text
in the state again (``table_text.adventure_toml``), so a replay, the exports and ``status
--json`` read the table as it is now; undo takes it back as any batch. A row keeps what it
had that the command does not say (its reaction table). What is changed is said by
``said``, for the log.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs

from delvetui import dice, lazy
from delvetui.errors import CommandError
from delvetui.text import quote

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.state import State
    from delvetui.core.work import Work
    from delvetui.procedure.adventure import Adventure, Area, Encounter
    from delvetui.procedure.table_text import Faces
else:
    ev = lazy.module("delvetui.core.events")

# The tables' reader and writer are imported where a row is changed: most expeditions carry
# no tables, and opening one never needs them.

#: A row's faces as a closed range, and the row.
Span = tuple[int, int, "Encounter"]


@attrs.frozen
class Found:
    """The area a row change is about: its tables' id, the tables and the area."""

    tables: str
    adventure: Adventure
    area: Area


def find(state: State, area: str) -> Found:
    """The carried area of that id; CommandError naming the areas there are."""
    from delvetui.core.areas import areas, carried

    for tables_id, adventure in carried(state).items():
        if area in adventure.areas:
            return Found(tables_id, adventure, adventure.areas[area])
    known = areas(state)
    if not known:
        raise CommandError(
            "The expedition carries no tables of its own; add them with tables add FILE."
        )
    raise CommandError(
        f"{quote(area)} is not an area of the adventure's tables ({', '.join(known)})."
    )


def faces_of(area: Area) -> tuple[int, int]:
    """The lowest and highest face of an area's die."""
    expr = dice.parse(area.dice)
    return expr.minimum, expr.maximum


def closed(area: Area, faces: Faces) -> tuple[int, int]:
    """Faces as a closed range on the area's die (11+ runs to its highest), checked."""
    from delvetui.procedure.table_text import range_text

    lowest, highest = faces_of(area)
    low, high = faces.within(highest)
    if low < lowest or high > highest:
        raise CommandError(
            f"{range_text(low, high)} is outside what {area.dice} rolls ({lowest}-{highest})."
        )
    return low, high


def spans(area: Area) -> list[Span]:
    """The area's rows with their faces, lowest first."""
    from delvetui.procedure.tree import parse_range

    found: list[Span] = []
    for row in area.rows:
        span = parse_range(row.roll)
        assert span is not None  # the tables were checked as they were carried
        found.append((span[0], span[1], row))
    return sorted(found, key=lambda span: span[0])


def _exact(area: Area, rows: list[Span], faces: str) -> int:
    """The index of the row of exactly these faces; CommandError listing the rows."""
    from delvetui.procedure.table_text import Unread, range_text, read_faces

    try:
        low, high = closed(area, read_faces(faces))
    except Unread as unread:
        raise CommandError(unread.sentence) from None
    for index, (row_low, row_high, _) in enumerate(rows):
        if (row_low, row_high) == (low, high):
            return index
    shown = ", ".join(range_text(lo, hi) for lo, hi, _ in rows)
    raise CommandError(
        f"No row of {area.label} covers exactly {range_text(low, high)} (its rows: {shown})."
    )


def _filled(area: Area, rows: list[Span], new: Encounter | None = None) -> list[Span]:
    """The rows with every face no row covers given to the row next to it: the row below
    first, else the row above, never ``new`` (its faces are the ones the game master gave);
    CommandError when only ``new`` is next to a face."""
    lowest, highest = faces_of(area)
    filled: list[Span] = []
    face = lowest
    for low, high, row in sorted(rows, key=lambda span: span[0]):
        if low > face:
            if filled and filled[-1][2] is not new:
                filled[-1] = (filled[-1][0], low - 1, filled[-1][2])
            elif row is not new:
                low = face
            else:
                raise _left_out(face, low - 1)
        filled.append((low, high, row))
        face = high + 1
    if face <= highest:
        if not filled or filled[-1][2] is new:
            raise _left_out(face, highest)
        filled[-1] = (filled[-1][0], highest, filled[-1][2])
    return filled


def _left_out(low: int, high: int) -> CommandError:
    from delvetui.procedure.table_text import range_text

    faces = range_text(low, high)
    return CommandError(
        f"{faces} would be left without a row: the only row next to it is the one you "
        f"change. Set a row on {faces} first (tables row), or let the row you change keep it."
    )


def set_rows(
    area: Area, low: int, high: int, row: Encounter, was: str = ""
) -> tuple[Encounter, ...]:
    """The area's rows with ``row`` on faces low to high: it replaces the row of exactly
    those faces (``was``: of the faces ``was``), takes the faces it covers from the rows
    that had them (cutting one in two where it falls inside), and gives the faces it leaves
    to the row next to them (``_filled``)."""
    from delvetui.procedure.adventure import MAX_ROWS

    rows = spans(area)
    faces = (low, high)
    if was:
        index = _exact(area, rows, was)
        faces = rows[index][:2]
    old = next((i for i, (lo, hi, _) in enumerate(rows) if (lo, hi) == faces), None)
    if old is not None:
        kept = rows.pop(old)[2]
        row = attrs.evolve(kept, creature=row.creature, number=row.number, text=row.text)
    cut: list[Span] = []
    for row_low, row_high, other in rows:
        if row_high < low or row_low > high:
            cut.append((row_low, row_high, other))
            continue
        if row_low < low:
            cut.append((row_low, low - 1, other))
        if row_high > high:
            cut.append((high + 1, row_high, other))
    cut.append((low, high, row))
    if len(cut) > MAX_ROWS:
        raise CommandError(f"{area.label}'s table would have more than {MAX_ROWS} rows.")
    return _written(_filled(area, cut, row))


def removed_rows(area: Area, faces: str) -> tuple[Encounter, ...]:
    """The area's rows with the row of exactly these faces taken out: its faces go to the
    row below it, else the row above (``_filled``)."""
    rows = spans(area)
    index = _exact(area, rows, faces)
    if len(rows) == 1:
        raise CommandError(f"{area.label}'s table has only this row; change it instead.")
    del rows[index]
    return _written(_filled(area, rows))


def _written(rows: list[Span]) -> tuple[Encounter, ...]:
    from delvetui.procedure.table_text import range_text

    ordered = sorted(rows, key=lambda span: span[0])
    return tuple(attrs.evolve(row, roll=range_text(low, high)) for low, high, row in ordered)


def area_with(area: Area, rows: tuple[Encounter, ...]) -> Area:
    """The area with these rows."""
    # mypy's attrs plugin cannot solve the rows' generic converter (``as_tuple``).
    return attrs.evolve(area, rows=rows)  # type: ignore[arg-type]


def with_rows(state: State, area: str, rows: tuple[Encounter, ...]) -> State:
    """The state with an area's rows replaced: its tables' text written again."""
    from delvetui.procedure.table_text import adventure_toml

    found = find(state, area)
    changed = area_with(found.area, rows)
    adventure = attrs.evolve(found.adventure, areas={**found.adventure.areas, area: changed})
    text = adventure_toml(adventure)
    carried = tuple(
        (tables_id, text if tables_id == found.tables else kept)
        for tables_id, kept in state.adventures
    )
    return attrs.evolve(state, adventures=carried)


def rows_after(state: State, event: ev.TableRowSet | ev.TableRowRemoved) -> tuple[Encounter, ...]:
    """An area's rows after a row event (CommandError when it cannot apply)."""
    from delvetui.procedure.adventure import Encounter
    from delvetui.procedure.tree import parse_range

    area = find(state, event.area).area
    if isinstance(event, ev.TableRowRemoved):
        return removed_rows(area, event.roll)
    span = parse_range(event.roll)
    if span is None:
        raise CommandError(f"{quote(event.roll)} is not a range of the die's faces.")
    low, high = span
    lowest, highest = faces_of(area)
    if low < lowest or high > highest:
        raise CommandError(f"{event.roll} is outside what {area.dice} rolls.")
    row = Encounter(event.roll, event.creature, event.number, text=event.text)
    return set_rows(area, low, high, row, event.was)


# The commands -------------------------------------------------------------------------------


def _typed_faces(area: Area, faces: str) -> str:
    """Faces typed at the table (4 to 5, 11+) as a row's roll is written (4-5, 11-12)."""
    from delvetui.procedure.table_text import Unread, range_text, read_faces

    try:
        return range_text(*closed(area, read_faces(faces)))
    except Unread as unread:
        raise CommandError(unread.sentence) from None


def row_set(state: State, area: str, line: str, was: str = "") -> ev.TableRowSet:
    """The event of ``tables row AREA ROW`` (``was`` empty) or ``tables change AREA FACES
    ROW``, checked: CommandError saying why the table cannot take it."""
    from delvetui.procedure.table_text import Unread, range_text, read_row

    found = find(state, area)
    try:
        printed = read_row(line)
    except Unread as unread:
        raise CommandError(unread.sentence) from None
    was = _typed_faces(found.area, was) if was else ""
    low, high = closed(found.area, printed.faces)
    entry = printed.entry
    event = ev.TableRowSet(
        area=area,
        roll=range_text(low, high),
        creature=entry.creature,
        number=entry.number,
        text=entry.text,
        was=was,
    )
    rows = rows_after(state, event)
    if rows == found.area.rows:
        raise CommandError(f"{found.area.label}'s table already has that row; nothing changed.")
    _fits(state, area, rows)
    return event


def row_removed(state: State, area: str, faces: str) -> ev.TableRowRemoved:
    """The event of ``tables remove AREA FACES``, checked."""
    event = ev.TableRowRemoved(area=area, roll=_typed_faces(find(state, area).area, faces))
    _fits(state, area, rows_after(state, event))
    return event


def set_row(work: Work, area: str, line: str, was: str = "") -> None:
    """``tables row AREA ROW`` (``was`` empty) and ``tables change AREA FACES ROW``."""
    work.emit(row_set(work.state, area, line, was))


def remove_row(work: Work, area: str, faces: str) -> None:
    """``tables remove AREA FACES``."""
    work.emit(row_removed(work.state, area, faces))


def preview(state: State, area: str, line: str, was: str = "") -> str:
    """What setting this row would do, as the log would say it (the table's dialog shows
    it before the row is taken); CommandError when the table cannot take it."""
    return said(state, row_set(state, area, line, was))


def _fits(state: State, area: str, rows: tuple[Encounter, ...]) -> None:
    """The tables with these rows still load (within the tables file's size)."""
    from delvetui.errors import ProcedureError
    from delvetui.procedure.adventure import load_text

    changed = with_rows(state, area, rows)
    found = find(state, area)
    text = dict(changed.adventures)[found.tables]
    try:
        load_text(text)
    except ProcedureError as error:
        raise CommandError(f"The tables would not load with that row: {error}") from None


def problem(state: State, event: ev.TableRowSet | ev.TableRowRemoved) -> str | None:
    """Why no command could have written this row change here, or None (``core.event_checks``)."""
    from delvetui.procedure.adventure import MAX_CREATURE, MAX_TEXT
    from delvetui.procedure.table_text import Unread, read_count, read_faces

    if isinstance(event, ev.TableRowSet):
        creature = event.creature
        if not creature or creature != " ".join(creature.split()) or len(creature) > MAX_CREATURE:
            return f"its creature {quote(creature)} is not one a row could name"
        if len(event.text) > MAX_TEXT:
            return f"its words are longer than {MAX_TEXT} characters"
        try:
            if event.number and read_count(event.number) != event.number:
                return f"its number appearing {quote(event.number)} is not written as a row's is"
            if event.was:
                read_faces(event.was)
        except Unread as unread:
            return unread.sentence.rstrip(".")
    try:
        _fits(state, event.area, rows_after(state, event))
    except CommandError as error:
        return error.message.rstrip(".")
    return None


# What the log says --------------------------------------------------------------------------


def said(state: State, event: ev.TableRowSet | ev.TableRowRemoved) -> str:
    """A row change in the log's words, from the state before it: the row set or taken
    out, and every other row whose faces it moved (only the row, for a change the state
    cannot take: the log says what the file holds)."""
    try:
        found = find(state, event.area)
        after = rows_after(state, event)
    except CommandError:
        if isinstance(event, ev.TableRowRemoved):
            return f"The table of {event.area}: its row {event.roll} taken out."
        return f"The table of {event.area}: {event.roll} {event.number} {event.creature}."
    before = found.area.rows
    where = f"{found.area.label}'s table ({found.area.dice})"
    if isinstance(event, ev.TableRowRemoved):
        gone = next(row for row in before if row.roll == event.roll)
        told = [f"{where}: {printed(gone)} taken out", *_moved(before, after, gone=gone)]
    else:
        new = next(row for row in after if row.roll == event.roll)
        was = event.was or event.roll
        old = next((row for row in before if row.roll == was), None)
        shown = printed(new) if old is None else f"{printed(new)} (was {printed(old)})"
        told = [f"{where}: {shown}", *_moved(before, after, new=new, gone=old)]
    return "; ".join(told) + "."


def printed(row: Encounter, *, colon: bool = False) -> str:
    """A row as a table prints it ("4-6 1d3 skeletons, in rusted mail"); with ``colon``, its
    faces set apart by a colon, as a list shows it beside its own numbers."""
    number = f"{row.number} " if row.number else ""
    words = f", {row.text}" if row.text else ""
    return f"{row.roll}{':' if colon else ''} {number}{row.creature}{words}"


def _moved(
    before: tuple[Encounter, ...],
    after: tuple[Encounter, ...],
    *,
    new: Encounter | None = None,
    gone: Encounter | None = None,
) -> Iterator[str]:
    """Each other row whose faces the change moved: where it is now, or that it is no
    longer on the table."""
    for old in before:
        if old is gone:
            continue
        now = [row.roll for row in after if row is not new and _same(row, old)]
        if now == [old.roll]:
            continue
        if now:
            yield f"{old.creature} now on {', '.join(now)}"
        else:
            yield f"{old.creature} ({old.roll}) is no longer on it"


def _same(one: Encounter, other: Encounter) -> bool:
    return attrs.evolve(one, roll="") == attrs.evolve(other, roll="")


def listed(adventure: Adventure) -> dict[str, list[dict[str, str]]]:
    """Each area's rows as ``status --json`` gives them: ``roll``, ``creature``, ``number``
    ("" when none is rolled) and ``text``."""
    return {
        name: [
            {"roll": row.roll, "creature": row.creature, "number": row.number, "text": row.text}
            for row in area.rows
        ]
        for name, area in adventure.areas.items()
    }
