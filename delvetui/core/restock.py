"""The dungeon carried into the next expedition, and its cleared rooms restocked.

Pure, as ``core.campaign.carry`` is (which calls ``carry_dungeon`` for its first batch): the
predecessor's final state, the procedure, the downtime and a seeded ``random.Random`` in,
events and notes out. The adventure's tables files come again (their areas and rooms with
them), then each room added at the table, then what happened in each room (``RoomCarried``:
its marks, notes, what moved in); the visits stay with the expedition that made them.

In the downtime each cleared room rolls to restock, once, by the first rule that is given:
the one on the command line (``new --after PRED --restock 1-in-6``), the room's tables
file's ``[restock]``, or the procedure's ``[downtime] restock``; without one, a cleared room
stays cleared. A room that restocks is no longer cleared but restocked, with what moved in
when the tables file has a table of it (whose row may roll the room's area's encounter
table for the creature). Every die is kept as a ``DiceRolled``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import attrs

from delvetui import dice
from delvetui.core import events as ev
from delvetui.core.state import Room, State
from delvetui.procedure.model import Procedure
from delvetui.text import counted

if TYPE_CHECKING:
    from delvetui.procedure.adventure import Adventure, Restock


@attrs.frozen
class Rule:
    """A restocking rule: the chance, where it comes from, and the table of what moves in."""

    chance: str
    source: str
    table: Restock | None = None


def carry_dungeon(
    before: State,
    new: Procedure,
    rng: random.Random,
    *,
    downtime: int,
    chance: str | None = None,
) -> tuple[list[ev.Event], list[str]]:
    """The events that carry ``before``'s dungeon into the next expedition, and the notes
    that say it: the tables, the rooms and their marks, then the restocking rolls."""
    if not before.adventures and not before.rooms:
        return [], []
    from delvetui.core.areas import carried

    tables = carried(before)
    events: list[ev.Event] = [
        ev.TablesAdded(id=tables_id, name=tables[tables_id].name, text=text)
        for tables_id, text in before.adventures
    ]
    if tables:
        events.append(ev.AreaEntered(area=next(iter(tables.values())).first_area))
    known: set[str] = {room.id for room in before.rooms if room.tables}
    for room in before.rooms:
        if not room.tables:
            exits = tuple(exit_id for exit_id in room.exits if exit_id in known)
            events.append(
                ev.RoomAdded(
                    id=room.id, label=room.label, area=room.area, exits=exits, text=room.text
                )
            )
            known.add(room.id)
    for room in before.rooms:
        if room.marks or room.notes or room.restocked or room.revealed:
            events.append(
                ev.RoomCarried(
                    room=room.id,
                    marks=room.marks,
                    notes=room.notes,
                    restocked=room.restocked,
                    revealed=room.revealed,
                )
            )
    notes = [_carried_words(before.rooms)] if before.rooms else []
    cleared = [room for room in before.rooms if "cleared" in room.marks]
    if cleared:
        rolled, said = _restocked(cleared, tables, new, rng, downtime, chance)
        events += rolled
        notes.append(said)
    return events, notes


def _carried_words(rooms: tuple[Room, ...]) -> str:
    """'The dungeon carries: 30 rooms, 12 explored, 5 cleared, 2 looted'."""
    counts = [counted(len(rooms), "room")]
    for mark in ("explored", "cleared", "looted", "restocked"):
        marked = sum(1 for room in rooms if mark in room.marks)
        if marked:
            counts.append(f"{marked} {mark}")
    return f"The dungeon carries: {', '.join(counts)}"


def rule_for(
    room: Room, tables: dict[str, Adventure], new: Procedure, chance: str | None
) -> Rule | None:
    """The rule a cleared room restocks by: the command line's chance, its tables file's
    ``[restock]`` (a room added at the table: its area's file's), or the procedure's."""
    own = tables.get(room.tables) if room.tables else None
    if own is None and room.area:
        own = next((t for t in tables.values() if room.area in t.areas), None)
    table = own.restock if own is not None else None
    if chance:
        return Rule(chance, "given with --restock", table)
    if table is not None:
        assert own is not None
        return Rule(table.chance, f"{own.name}'s [restock]", table)
    if new.downtime.restock:
        return Rule(new.downtime.restock, f"{new.name}'s downtime", None)
    return None


def _restocked(
    cleared: list[Room],
    tables: dict[str, Adventure],
    new: Procedure,
    rng: random.Random,
    downtime: int,
    chance: str | None,
) -> tuple[list[ev.Event], str]:
    """Each cleared room's roll to restock, what moved in, and the note that sums it up."""
    if downtime <= 0:
        return [], "no time passed, so no cleared room restocked"
    events: list[ev.Event] = []
    restocked: list[str] = []
    rules: list[str] = []
    stay = 0
    for room in cleared:
        found = rule_for(room, tables, new, chance)
        if found is None:
            stay += 1
            continue
        said = f"{found.chance} ({found.source})"
        if said not in rules:
            rules.append(said)
        roll = dice.roll(found.chance, rng)
        events.append(ev.DiceRolled.of("restock", f"restocking {room.called}", roll))
        if not roll.hit:
            continue
        what = _what_moved_in(room, found, tables, rng, events)
        events.append(ev.RoomRestocked(room=room.id, what=what))
        restocked.append(f"{room.id}" + (f" ({what})" if what else ""))
    parts = []
    if rules:
        rolled = len(cleared) - stay
        parts.append(
            f"{counted(rolled, 'cleared room')} rolled to restock by {', '.join(rules)}: "
            + (f"restocked {', '.join(restocked)}" if restocked else "none restocked")
        )
    if stay:
        parts.append(
            f"{counted(stay, 'cleared room')} had no rule to restock by and stayed cleared "
            "(give one with --restock 1-in-6)"
        )
    return events, "; ".join(parts)


def _what_moved_in(
    room: Room,
    rule: Rule,
    tables: dict[str, Adventure],
    rng: random.Random,
    events: list[ev.Event],
) -> str:
    """What moved in, from the rule's table (a row may roll the area's encounter table for
    the creature and how many); '' when the rule has no table."""
    table = rule.table
    if table is None or not table.rows:
        return ""
    from delvetui.procedure.adventure import row_for

    roll = dice.roll(table.dice, rng)
    events.append(ev.DiceRolled.of("restock", f"what moves into {room.called}", roll))
    row = table.rows[row_for(table.rows, roll.total)]
    area = next((t.areas[room.area] for t in tables.values() if room.area in t.areas), None)
    if not row.encounter or area is None:
        return row.what
    met = dice.roll(area.dice, rng)
    events.append(ev.DiceRolled.of("restock", f"the creature ({area.label})", met))
    creature = area.rows[row_for(area.rows, met.total)]
    number = ""
    if creature.number.isdigit():
        number = f"{creature.number} × "
    elif creature.number:
        many = dice.roll(creature.number, rng)
        events.append(ev.DiceRolled.of("restock", f"how many {creature.creature}", many))
        number = f"{many.total} × "
    return f"{row.what}: {number}{creature.creature}"
