"""The map of the rooms the party knows, drawn as one SVG for the HTML export.

The layout is the core's (``core.room_map``: each area's rooms on a grid); here each room is
a box with its id and label, each exit a line between two boxes (one that leads to another
area is said under its map), and a room's fill tells its state, which the legend also says
in words, so the drawing prints legibly. Every text from the file is made visible and
escaped (``picture.text``), as in the timeline.
"""

from __future__ import annotations

from delvetui.core.room_map import LEGEND, Sketch, sketches, state_of
from delvetui.core.state import State
from delvetui.export.picture import text

_BOX_W, _BOX_H = 96, 40
_STEP_X, _STEP_Y = 132, 70
_MARGIN = 16
_FONT = "font-family:Helvetica,Arial,sans-serif"
#: A room's fill and ink by its state (``core.room_map.state_of``).
_FILL = {
    "here": ("#1f5fa8", "#fff"),
    "restocked": ("#b3261e", "#fff"),
    "cleared": ("#cfe8cf", "#000"),
    "unexplored": ("#fff", "#555"),
    "room": ("#f3eee3", "#000"),
}
#: The longest label a box shows (the whole one is the box's title).
_LABEL = 14


def render(state: State, labels: dict[str, str] | None = None) -> str:
    """The map as a standalone SVG, or '' when the party knows no room."""
    found = sketches(state, labels)
    if not found:
        return ""
    width = max(_MARGIN * 2 + max(1, s.columns) * _STEP_X for s in found)
    parts: list[str] = []
    y = _MARGIN
    for sketch in found:
        parts.append(
            f'<text x="{_MARGIN}" y="{y + 14}" style="{_FONT};font-size:15px;'
            f'font-weight:bold">{text(sketch.label)}</text>'
        )
        y += 26
        parts += _sketch(sketch, state.room, y)
        y += sketch.rows * _STEP_Y
        for room_id, other, area in sketch.stairs:
            parts.append(
                f'<text x="{_MARGIN}" y="{y + 12}" style="{_FONT};font-size:12px">'
                f"{text(f'{room_id} leads to {other} ({area})')}</text>"
            )
            y += 18
        y += 12
    legend = "   ".join(f"{sign} {words}" for _, sign, words in LEGEND)
    x = _MARGIN
    for name, sign, words in LEGEND:
        fill, ink = _FILL[name]
        parts.append(
            f'<rect x="{x}" y="{y}" width="18" height="14" fill="{fill}" stroke="#333"/>'
            f'<text x="{x + 9}" y="{y + 11}" text-anchor="middle" style="{_FONT};'
            f'font-size:11px;fill:{ink}">{text(sign)}</text>'
            f'<text x="{x + 24}" y="{y + 11}" style="{_FONT};font-size:12px">{text(words)}</text>'
        )
        x += 30 + 7 * len(words)
    y += 24
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
        f'viewBox="0 0 {width} {y}" role="img" aria-label="{text("Map: " + legend)}">'
        f'<rect width="{width}" height="{y}" fill="#fff"/>' + "".join(parts) + "</svg>"
    )


def _centre(column: int, row: int, top: int) -> tuple[int, int]:
    return _MARGIN + column * _STEP_X + _BOX_W // 2, top + row * _STEP_Y + _BOX_H // 2


def _sketch(sketch: Sketch, here: str, top: int) -> list[str]:
    """One area's rooms: the exits first (under the boxes), then each room's box."""
    where = {p.room.id: (p.column, p.row) for p in sketch.rooms}
    out = []
    for a, b in sketch.links:
        (x1, y1), (x2, y2) = _centre(*where[a], top), _centre(*where[b], top)
        out.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555" stroke-width="3"/>'
        )
    for placed in sketch.rooms:
        room = placed.room
        x = _MARGIN + placed.column * _STEP_X
        y = top + placed.row * _STEP_Y
        fill, ink = _FILL[state_of(room, here)]
        label = room.label if len(room.label) <= _LABEL else room.label[: _LABEL - 1] + "…"
        marks = ", ".join(room.marks) or "not explored"
        title = f"{room.name} ({marks})"
        dashed = ' stroke-dasharray="4 3"' if "explored" not in room.marks else ""
        out.append(
            f"<g><title>{text(title)}</title>"
            f'<rect x="{x}" y="{y}" width="{_BOX_W}" height="{_BOX_H}" rx="5" fill="{fill}" '
            f'stroke="#333" stroke-width="1.5"{dashed}/>'
            f'<text x="{x + _BOX_W // 2}" y="{y + 16}" text-anchor="middle" '
            f'style="{_FONT};font-size:13px;font-weight:bold;fill:{ink}">{text(room.id)}</text>'
            f'<text x="{x + _BOX_W // 2}" y="{y + 32}" text-anchor="middle" '
            f'style="{_FONT};font-size:11px;fill:{ink}">{text(label)}</text></g>'
        )
    return out


def map_lines(state: State, labels: dict[str, str] | None = None) -> list[str]:
    """The map as plain text, each text from the file made visible; none when the party
    knows no room (the Markdown and text exports)."""
    from delvetui.core.room_map import drawing, plain
    from delvetui.text import visible

    return [visible(line) for line in plain(drawing(state, labels))]
