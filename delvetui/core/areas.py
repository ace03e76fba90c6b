"""The adventure's own tables at work: the area the party is in, and what its table gives.

The state carries each tables file's text (``TablesAdded``) and the area in use
(``AreaEntered``); the tables are read from that text (``procedure.adventure``, which
remembers what it read), so a replay never needs the file. An encounter or a sign that
foretells rolls here on the area's table: the creature (typed ``encounter=N``), how many
appear (``appearing=N``) and their reaction (``reaction=N``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from delvetui import lazy
from delvetui.errors import CommandError, ProcedureError
from delvetui.text import quote, suggest

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.state import State
    from delvetui.core.work import Work
    from delvetui.procedure.adventure import Adventure, Area, Encounter
else:
    ev = lazy.module("delvetui.core.events")

# The tables' reader (``procedure.adventure``) is imported where tables are read: most
# expeditions carry none, and opening one or taking a turn then never needs it.

#: The keys the game master types the tables' rolls with.
ENCOUNTER_KEY = "encounter"
APPEARING_KEY = "appearing"
REACTION_KEY = "reaction"
KEYS = (ENCOUNTER_KEY, APPEARING_KEY, REACTION_KEY)


def carried(state: State) -> dict[str, Adventure]:
    """Every tables file the expedition carries, by id, in the order they were added."""
    if not state.adventures:
        return {}
    from delvetui.procedure.adventure import load_text

    return {tables_id: load_text(text) for tables_id, text in state.adventures}


def in_use(state: State) -> tuple[Adventure, Area] | None:
    """The tables and area in use, or None when the expedition carries none."""
    if not state.area:
        return None
    for adventure in carried(state).values():
        area = adventure.areas.get(state.area)
        if area is not None:
            return adventure, area
    return None


def areas(state: State) -> dict[str, str]:
    """Every area of every tables file carried: id to label (from each file's brief, so the
    file's text is not read again)."""
    return {area: label for _, _, found in state.tables_brief for area, label in found}


@attrs.frozen
class Met:
    """What an area's table gave for an encounter."""

    creature: str
    appearing: int = 0
    reaction: str = ""
    text: str = ""


def roll_creature(work: Work, area: Area, purpose: str) -> Encounter:
    """Roll the area's table (``encounter=N`` typed) and return the row it lands on."""
    from delvetui.procedure.adventure import row_for

    result = work.roll(ENCOUNTER_KEY, area.dice, f"{purpose} ({area.label})")
    return area.rows[row_for(area.rows, result.total)]


def find_row(area: Area, creature: str) -> Encounter | None:
    """The area's row for a creature named by the game master or a sign, if it has one."""
    wanted = creature.casefold()
    return next((row for row in area.rows if row.creature.casefold() == wanted), None)


def meet(work: Work, named: str) -> Met | None:
    """An encounter on the area's table: the creature named (or rolled), how many, reaction.

    None when no area is in use. A creature the game master named that the table does not
    hold is met as named, with no number or reaction rolled.
    """
    found = in_use(work.state)
    if found is None:
        return None
    from delvetui.procedure.adventure import NO_REACTION, row_for

    adventure, area = found
    row = find_row(area, named) if named else roll_creature(work, area, "the creature met")
    if row is None:
        return Met(creature=named)
    appearing = 0
    if row.number.isdigit():
        appearing = int(row.number)
    elif row.number:
        appearing = work.roll(APPEARING_KEY, row.number, f"how many {row.creature} appear").total
    reaction = ""
    chosen = row.reaction or area.reaction
    table = None if chosen == NO_REACTION else adventure.reactions.get(chosen)
    if table is not None:
        total = work.roll(REACTION_KEY, table.dice, f"{table.label}: {row.creature}").total
        shown = table.rows[row_for(table.rows, total)]
        reaction = f"{shown.label} ({shown.text})" if shown.text else shown.label
    return Met(
        creature=named or row.creature, appearing=appearing, reaction=reaction, text=row.text
    )


def add_tables(work: Work, text: str, source: str) -> None:
    """Carry the adventure's tables of this text (``tables add FILE``)."""
    from delvetui.procedure.adventure import load_text

    if not text:
        raise CommandError(f"The tables file {quote(source)} was not read; nothing was saved.")
    try:
        adventure = load_text(text, source=source)
    except ProcedureError as error:
        raise CommandError(str(error)) from None
    state = work.state
    if (adventure.id, text) in state.adventures:
        raise CommandError(f"The expedition already carries these tables ({adventure.name}).")
    for other_id, other in carried(state).items():
        if other_id == adventure.id:
            continue
        shared = sorted(set(other.areas) & set(adventure.areas))
        if shared:
            raise CommandError(
                f"{other.name} already has the area {quote(shared[0])}; give the areas of "
                f"{adventure.name} other ids. Nothing was saved."
            )
    clash = rooms_problem(state, adventure.id, adventure)
    if clash is not None:
        raise CommandError(f"{clash[:1].upper()}{clash[1:]}. Nothing was saved.")
    work.emit(ev.TablesAdded(id=adventure.id, name=adventure.name, text=text))
    if work.state.area not in areas(work.state):
        work.emit(ev.AreaEntered(area=adventure.first_area))


def enter_area(work: Work, area: str) -> None:
    """Use another area's table from now on (``area LEVEL``)."""
    known = areas(work.state)
    if not known:
        raise CommandError(
            "The expedition carries no tables of its own; add them with tables add FILE."
        )
    if area not in known:
        raise CommandError(
            f"{quote(area)} is not an area of the adventure's tables ({', '.join(known)})."
            + suggest(area, known)
        )
    if area == work.state.area:
        raise CommandError(f"The party is already in {known[area]}.")
    work.emit(ev.AreaEntered(area=area))


# What an event from outside may hold (the import's checks, ``core.event_checks``) -----------


def tables_problem(state: State, tables_id: str, name: str, text: str) -> str | None:
    """Why no command could have added these tables here, or None."""
    from delvetui.procedure.adventure import load_text

    try:
        adventure = load_text(text)
    except ProcedureError as error:
        return f"its tables do not load ({error})"
    if adventure.id != tables_id or adventure.name != name:
        return f"it names the tables {quote(tables_id)} but its text is {quote(adventure.id)}"
    for other_id, other in carried(state).items():
        if other_id != tables_id and set(other.areas) & set(adventure.areas):
            return f"its areas are already areas of {quote(other.name)}"
    return rooms_problem(state, tables_id, adventure)


def rooms_problem(state: State, tables_id: str, adventure: Adventure) -> str | None:
    """Why the rooms of these tables cannot join the dungeon here, or None: a room of
    another file (or one added at the table) has the same id, or there would be too many."""
    from delvetui.procedure.adventure import MAX_ROOMS

    if not adventure.rooms:
        return None
    mine = {room_id.casefold() for room_id in adventure.rooms}
    others = [room for room in state.rooms if room.tables != tables_id]
    for room in others:
        if room.id.casefold() in mine:
            whose = f"the tables {quote(room.tables)}" if room.tables else "the table (room add)"
            return f"room {room.id} of {adventure.name} is already a room, from {whose}"
    if len(others) + len(adventure.rooms) > MAX_ROOMS:
        return (
            f"the dungeon would have {len(others) + len(adventure.rooms)} rooms; an expedition "
            f"keeps at most {MAX_ROOMS}"
        )
    return None


def area_problem(state: State, area: str) -> str | None:
    """Why the party could not have entered this area here, or None."""
    if area not in areas(state):
        return f"{quote(area)} is not an area of the tables the expedition carries"
    return None


def met_problem(state: State, area: str) -> str | None:
    """Why an encounter could not have been met on this area's table here, or None."""
    if area and area != state.area:
        return f"the party is not in the area {quote(area)}"
    return None
