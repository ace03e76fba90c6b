"""The map of the rooms the party knows: each area's rooms on a grid, and their exits.

Pure: the state in, a drawing out. The party knows a room it has explored, the room it is
in, and every room an explored room leads to (drawn as not explored yet). The tables file
gives rooms and exits, not where they lie, so each area is laid out here: from its first
known room, each room it leads to is put beside it (right, below, left, above, then a
corner), or in the nearest free place; so most exits join neighbours on the grid. An exit
to a room that did not land beside it, and one to another area (a stair), is said under
the drawing.

``sketches`` gives the layout (the table's map and the HTML export's drawing read it);
``drawing`` gives it as lines of text, each a run of (text, what it is) so the table can
style a room by its marks and a text export can join the runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from delvetui.core.state import Room, State

#: The places tried around a room for a room it leads to, nearest first.
_AROUND = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
#: The longest room id a room's box shows whole (a longer one ends in "…").
MAX_SHOWN_ID = 6
#: What a room's box says of it, by the mark that matters most first.
LEGEND = (
    ("here", "@", "the party is here"),
    ("restocked", "!", "restocked"),
    ("cleared", "×", "cleared"),
    ("unexplored", "?", "not explored yet"),
)


@attrs.frozen
class Placed:
    """A room on its area's grid."""

    room: Room
    column: int
    row: int


@attrs.frozen
class Sketch:
    """One area's map: its rooms on the grid, the exits between them, and the rest."""

    area: str
    label: str
    rooms: tuple[Placed, ...]
    #: Exits between two rooms of this map, each pair once (ids, in the map's order).
    links: tuple[tuple[str, str], ...]
    #: Exits to rooms of another area: (this room, the other room, the other's area label).
    stairs: tuple[tuple[str, str, str], ...]

    @property
    def columns(self) -> int:
        return 1 + max((p.column for p in self.rooms), default=-1)

    @property
    def rows(self) -> int:
        return 1 + max((p.row for p in self.rooms), default=-1)


def known(state: State) -> list[Room]:
    """The rooms the party knows, in the dungeon's order: explored ones, the one it is in,
    and those an explored room leads to."""
    seen: set[str] = set()
    for room in state.rooms:
        if "explored" in room.marks or room.id == state.room:
            seen.add(room.id)
            seen.update(room.exits)
    return [room for room in state.rooms if room.id in seen]


def sketches(state: State, labels: dict[str, str] | None = None) -> list[Sketch]:
    """Each area's map of the known rooms, the area the party is in first, then the others
    in the order their first room came (rooms of no area make one map of their own).
    ``labels`` names the areas (id to label)."""
    rooms = known(state)
    labels = labels or {}
    by_area: dict[str, list[Room]] = {}
    for room in rooms:
        by_area.setdefault(room.area, []).append(room)
    here = state.current_room
    order = sorted(by_area, key=lambda area: 0 if here is not None and here.area == area else 1)
    area_of = {room.id: room.area for room in state.rooms}
    return [_sketch(area, labels, by_area[area], area_of) for area in order]


def _sketch(
    area: str, labels: dict[str, str], rooms: list[Room], area_of: dict[str, str]
) -> Sketch:
    places = _lay_out(rooms)
    ids = {room.id for room in rooms}
    links: list[tuple[str, str]] = []
    stairs: list[tuple[str, str, str]] = []
    done: set[frozenset[str]] = set()
    for room in rooms:
        for other in room.exits:
            pair = frozenset((room.id, other))
            if other in ids and pair not in done:
                done.add(pair)
                links.append((room.id, other))
            elif other not in ids and other in area_of and area_of[other] != area:
                other_area = area_of[other]
                stairs.append((room.id, other, labels.get(other_area, other_area or "no area")))
    placed = tuple(Placed(room, *places[room.id]) for room in rooms)
    return Sketch(area, labels.get(area, area or "Rooms"), placed, tuple(links), tuple(stairs))


def _lay_out(rooms: list[Room]) -> dict[str, tuple[int, int]]:
    """Where each room goes: each one a room leads to beside it where there is room."""
    by_id = {room.id: room for room in rooms}
    places: dict[str, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    for start in rooms:
        if start.id in places:
            continue
        # Another part of the area the party knows: to the right of what is drawn.
        right = max((column for column, _ in taken), default=-2) + 2
        places[start.id] = (right, 0)
        taken.add((right, 0))
        queue = [start.id]
        while queue:
            room_id = queue.pop(0)
            column, row = places[room_id]
            for other in by_id[room_id].exits:
                if other in by_id and other not in places:
                    spot = _free_near(column, row, taken)
                    places[other] = spot
                    taken.add(spot)
                    queue.append(other)
    low_column = min(column for column, _ in places.values())
    low_row = min(row for _, row in places.values())
    return {rid: (column - low_column, row - low_row) for rid, (column, row) in places.items()}


def _free_near(column: int, row: int, taken: set[tuple[int, int]]) -> tuple[int, int]:
    """The nearest free place to a room: around it first, then ring by ring."""
    for dc, dr in _AROUND:
        if (column + dc, row + dr) not in taken:
            return column + dc, row + dr
    ring = 2
    while True:
        for dc in range(-ring, ring + 1):
            for dr in range(-ring, ring + 1):
                if max(abs(dc), abs(dr)) == ring and (column + dc, row + dr) not in taken:
                    return column + dc, row + dr
        ring += 1


# The drawing ---------------------------------------------------------------------------------

#: A run of a line of the drawing: its text, and what it is ("room", "here", "cleared",
#: "restocked", "unexplored", "link", "title", "" for space).
Run = tuple[str, str]


def state_of(room: Room, here: str) -> str:
    """What a room's box shows of it: here, restocked, cleared, unexplored, or room."""
    if room.id == here:
        return "here"
    if "restocked" in room.marks:
        return "restocked"
    if "cleared" in room.marks:
        return "cleared"
    if "explored" not in room.marks:
        return "unexplored"
    return "room"


_SIGN = {name: sign for name, sign, _ in LEGEND}


def box(room: Room, here: str, width: int) -> str:
    """A room's box: its id (cut to ``MAX_SHOWN_ID``) and the sign of its state."""
    shown = room.id if len(room.id) <= MAX_SHOWN_ID else room.id[: MAX_SHOWN_ID - 1] + "…"
    sign = _SIGN.get(state_of(room, here), " ")
    return f"[{shown.ljust(width)}{sign}]"


def drawing(state: State, labels: dict[str, str] | None = None) -> list[list[Run]]:
    """The map as lines of runs: each area's title, its grid, and the exits the grid could
    not show; a legend at the end. No line when the party knows no room."""
    found = sketches(state, labels)
    lines: list[list[Run]] = []
    for sketch in found:
        if lines:
            lines.append([])
        lines.append([(sketch.label, "title")])
        lines.extend(_grid(sketch, state.room))
        lines.extend(_elsewhere(sketch))
    if lines:
        lines.append([])
        lines.append([("  ".join(f"{sign} {words}" for _, sign, words in LEGEND), "legend")])
    return lines


def _grid(sketch: Sketch, here: str) -> Iterator[list[Run]]:
    """The rooms on the grid: a line of boxes and the exits between them side by side, then
    a line of the exits down to the next row (│, and ╲ ╱ ╳ for the corners)."""
    width = max((min(len(p.room.id), MAX_SHOWN_ID) for p in sketch.rooms), default=1)
    cell = width + 3  # "[" id sign "]"
    at = {(p.column, p.row): p.room for p in sketch.rooms}
    links = {frozenset(pair) for pair in sketch.links}

    def joined(a: tuple[int, int], b: tuple[int, int]) -> bool:
        first, second = at.get(a), at.get(b)
        return (
            first is not None and second is not None and frozenset((first.id, second.id)) in links
        )

    for row in range(sketch.rows):
        boxes: list[Run] = []
        for column in range(sketch.columns):
            room = at.get((column, row))
            boxes.append(
                (box(room, here, width), state_of(room, here)) if room else (" " * cell, "")
            )
            if column < sketch.columns - 1:
                near = joined((column, row), (column + 1, row))
                boxes.append(("──" if near else "  ", "link" if near else ""))
        yield _merged(boxes)
        if row == sketch.rows - 1:
            break
        down: list[Run] = []
        for column in range(sketch.columns):
            straight = joined((column, row), (column, row + 1))
            half = (cell - 1) // 2
            down.append((" " * half, ""))
            down.append(("│" if straight else " ", "link" if straight else ""))
            down.append((" " * (cell - half - 1), ""))
            if column < sketch.columns - 1:
                falling = joined((column, row), (column + 1, row + 1))
                rising = joined((column + 1, row), (column, row + 1))
                corner = "╳" if falling and rising else "╲" if falling else "╱" if rising else " "
                down.append((corner + " ", "link" if corner != " " else ""))
        yield _merged(down)


def _elsewhere(sketch: Sketch) -> Iterator[list[Run]]:
    """The exits the grid does not show: between rooms not beside each other, and stairs."""
    where = {p.room.id: (p.column, p.row) for p in sketch.rooms}
    far = [
        f"{a}–{b}"
        for a, b in sketch.links
        if max(abs(where[a][0] - where[b][0]), abs(where[a][1] - where[b][1])) > 1
    ]
    if far:
        yield [("  also: " + ", ".join(far), "link")]
    for room_id, other, area in sketch.stairs:
        yield [(f"  {room_id} leads to {other} ({area})", "link")]


def _merged(runs: Iterable[Run]) -> list[Run]:
    """Runs side by side of the same kind joined, the line's end trimmed."""
    out: list[Run] = []
    for text, kind in runs:
        if out and out[-1][1] == kind:
            out[-1] = (out[-1][0] + text, kind)
        else:
            out.append((text, kind))
    while out and not out[-1][0].strip():
        out.pop()
    if out:
        out[-1] = (out[-1][0].rstrip(), out[-1][1])
    return out


def plain(lines: list[list[Run]]) -> list[str]:
    """The drawing as plain lines of text."""
    return ["".join(text for text, _ in line) for line in lines]
