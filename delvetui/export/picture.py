"""A picture of the expedition: its turns as a timeline, drawn as one SVG.

Turns run along the bottom. Above them: the sessions, the rests and the rooms as spans, the
light level as a band (bright, dim, dark), each light's life as a bar, and the encounters
and signs as marks. The SVG is self-contained (no script, no outside resource, no font to
fetch), prints legibly (dark ink on white, every colour also told by a word in the
legend), and every text that comes from the file is made visible and escaped, as a file
handed over may have been written to do harm.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve import evolve
from delvetui.core.state import State
from delvetui.core.timeline import Batch, counting
from delvetui.text import visible

#: Characters XML 1.0 cannot hold at all (a lone surrogate, U+FFFE); shown as U+FFFD.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: Longest text drawn (a light's id, a mark's title); longer is cut with an ellipsis.
MAX_TEXT = 120


@attrs.frozen
class Span:
    """Turns ``first`` to ``last`` (1-based, inclusive) with a label."""

    first: int
    last: int
    label: str


@attrs.frozen
class Mark:
    """Something that happened on one turn: an encounter or a sign."""

    turn: int
    kind: str
    text: str


@attrs.frozen
class LightLife:
    """One light and the runs of turns it burned."""

    id: str
    kind: str
    spans: tuple[Span, ...]


@attrs.frozen
class Picture:
    """What the timeline shows, read from the counting batches."""

    title: str
    turns: int
    #: The light level of each turn, as it was when the turn began.
    levels: tuple[str, ...]
    lights: tuple[LightLife, ...]
    marks: tuple[Mark, ...]
    rests: tuple[Span, ...]
    sessions: tuple[Span, ...]
    #: Where the party was: each run of turns in one room (none where there are no rooms).
    rooms: tuple[Span, ...] = ()


def build(batches: Iterable[Batch], title: str) -> Picture:
    """The picture of these batches (every batch of the file, undo and redo included)."""
    state = State()
    levels: list[str] = []
    burning: dict[str, list[int]] = {}
    kinds: dict[str, str] = {}
    marks: list[Mark] = []
    resting: list[int] = []
    session_starts: dict[int, int] = {}
    session_ends: dict[int, int] = {}
    rooms: list[Span] = []
    turn = 0
    for batch in counting(batches):
        for event in batch.events:
            state = evolve(state, event)
            if isinstance(event, ev.TurnStarted):
                turn = event.number
                levels.append(state.light_level)
                for light in state.lit_lights:
                    burning.setdefault(light.id, []).append(turn)
                    kinds[light.id] = light.kind
                if event.resting:
                    resting.append(turn)
                here = state.current_room
                if (
                    here is not None
                    and rooms
                    and rooms[-1].label == here.name
                    and (rooms[-1].last == turn - 1)
                ):
                    rooms[-1] = attrs.evolve(rooms[-1], last=turn)
                elif here is not None:
                    rooms.append(Span(turn, turn, here.name))
            elif isinstance(event, ev.EncounterBegan):
                marks.append(Mark(max(1, turn), "encounter", event.text))
            elif isinstance(event, ev.SignFound):
                marks.append(Mark(max(1, turn), "sign", event.text))
            elif isinstance(event, ev.SessionStarted):
                session_starts[event.number] = state.turn + 1
            elif isinstance(event, ev.SessionEnded):
                session_ends[event.number] = state.turn
    turns = len(levels)
    sessions = []
    for number, first in sorted(session_starts.items()):
        last = session_ends.get(number, turns)
        if last >= first:
            sessions.append(Span(first, last, f"Session {number}"))
    return Picture(
        title=title,
        turns=turns,
        levels=tuple(levels),
        lights=tuple(
            LightLife(light_id, kinds[light_id], tuple(_runs(on, "")))
            for light_id, on in burning.items()
        ),
        marks=tuple(marks),
        rests=tuple(_runs(resting, "rest")),
        sessions=tuple(sessions),
        rooms=tuple(rooms),
    )


def _runs(turns: Sequence[int], label: str) -> list[Span]:
    """Consecutive turns as spans: 1, 2, 3, 7 is 1-3 and 7."""
    spans: list[Span] = []
    for turn in turns:
        if spans and spans[-1].last + 1 == turn:
            spans[-1] = attrs.evolve(spans[-1], last=turn)
        elif not spans or spans[-1].last < turn:
            spans.append(Span(turn, turn, label))
    return spans


# Drawing -----------------------------------------------------------------------------------

_LEFT = 130  # room for the row labels
_RIGHT = 20
_ROW = 22
_FONT = "font-family:Helvetica,Arial,sans-serif"
_LEVEL_FILL = {"bright": "#f4c542", "dim": "#a07a2c", "dark": "#262626"}
_LEVEL_INK = {"bright": "#000", "dim": "#fff", "dark": "#fff"}


def text(value: str) -> str:
    """A text from the file, safe inside SVG: controls shown, cut short, escaped."""
    shown = _NOT_XML.sub("\ufffd", visible(value))
    if len(shown) > MAX_TEXT:
        shown = shown[: MAX_TEXT - 1] + "…"
    return escape(shown, quote=True)


def render(picture: Picture) -> str:
    """The picture as a standalone SVG document."""
    turns = max(1, picture.turns)
    step = max(3.0, min(28.0, 900 / turns))
    width = _LEFT + turns * step + _RIGHT
    rows: list[str] = []
    y = 46

    def x(turn: int) -> float:
        return _LEFT + (turn - 1) * step

    def label(row_y: float, words: str) -> None:
        rows.append(
            f'<text x="{_LEFT - 8}" y="{row_y + 15}" text-anchor="end" '
            f'font-size="12" fill="#000">{words}</text>'
        )

    def span_row(spans: Sequence[Span], name: str, fill: str) -> None:
        nonlocal y
        label(y, name)
        for span in spans:
            left, right = x(span.first), x(span.last) + step
            rows.append(
                f'<rect x="{left:.1f}" y="{y + 2}" width="{right - left:.1f}" height="{_ROW - 4}" '
                f'fill="{fill}" stroke="#000" stroke-width="0.6"><title>{text(span.label)}, '
                f"turns {span.first}–{span.last}</title></rect>"
            )
            if right - left > 60 and span.label:
                rows.append(
                    f'<text x="{left + 4:.1f}" y="{y + 15}" font-size="11" fill="#000">'
                    f"{text(span.label)}</text>"
                )
        y += _ROW

    span_row(picture.sessions, "Sessions", "#dbe7f5")
    span_row(picture.rests, "Rests", "#d6efd8")
    if picture.rooms:
        span_row(picture.rooms, "Rooms", "#efe6d2")

    label(y, "Light")
    for index, level in enumerate(picture.levels, start=1):
        rows.append(
            f'<rect x="{x(index):.1f}" y="{y + 2}" width="{step:.1f}" height="{_ROW - 4}" '
            f'fill="{_LEVEL_FILL.get(level, "#888")}"><title>Turn {index}: '
            f"{text(level)}</title></rect>"
        )
    y += _ROW

    for light in picture.lights:
        label(y, text(light.id))
        for span in light.spans:
            left, right = x(span.first), x(span.last) + step
            rows.append(
                f'<rect x="{left:.1f}" y="{y + 6}" width="{right - left:.1f}" height="{_ROW - 12}" '
                f'rx="3" fill="#e07b00" stroke="#000" stroke-width="0.6"><title>{text(light.id)} '
                f"({text(light.kind)}) lit, turns {span.first}–{span.last}</title></rect>"
            )
        y += _ROW

    label(y, "Encounters, signs")
    for mark in picture.marks:
        middle = x(mark.turn) + step / 2
        if mark.kind == "encounter":
            shape = (
                f'<polygon points="{middle - 6:.1f},{y + 18} {middle + 6:.1f},{y + 18} '
                f'{middle:.1f},{y + 4}" fill="#c62828" stroke="#000" stroke-width="0.6">'
            )
            closing = "</polygon>"
        else:
            shape = (
                f'<circle cx="{middle:.1f}" cy="{y + 11}" r="5" fill="#fff" '
                f'stroke="#7a4f00" stroke-width="2">'
            )
            closing = "</circle>"
        title = f"Turn {mark.turn}: {mark.kind}. {mark.text}"
        rows.append(f"{shape}<title>{text(title)}</title>{closing}")
    y += _ROW + 4

    # The turns along the bottom, with a number every so often.
    rows.append(f'<line x1="{_LEFT}" y1="{y}" x2="{x(turns) + step:.1f}" y2="{y}" stroke="#000"/>')
    every = next(n for n in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if n * step >= 24)
    for turn in range(1, turns + 1):
        if turn == 1 or turn % every == 0:
            middle = x(turn) + step / 2
            rows.append(
                f'<line x1="{middle:.1f}" y1="{y}" x2="{middle:.1f}" y2="{y + 4}" stroke="#000"/>'
                f'<text x="{middle:.1f}" y="{y + 16}" text-anchor="middle" font-size="11" '
                f'fill="#000">{turn}</text>'
            )
    y += 22
    label(y - 22, "Turn")
    legend = (
        f'<g font-size="11" fill="#000">'
        f'<rect x="{_LEFT}" y="{y}" width="12" height="12" fill="{_LEVEL_FILL["bright"]}"/>'
        f'<text x="{_LEFT + 16}" y="{y + 10}">bright</text>'
        f'<rect x="{_LEFT + 62}" y="{y}" width="12" height="12" fill="{_LEVEL_FILL["dim"]}"/>'
        f'<text x="{_LEFT + 78}" y="{y + 10}">dim</text>'
        f'<rect x="{_LEFT + 110}" y="{y}" width="12" height="12" fill="{_LEVEL_FILL["dark"]}"/>'
        f'<text x="{_LEFT + 126}" y="{y + 10}">dark</text>'
        f'<rect x="{_LEFT + 164}" y="{y + 2}" width="18" height="8" rx="3" fill="#e07b00" '
        f'stroke="#000" stroke-width="0.6"/><text x="{_LEFT + 186}" y="{y + 10}">a light burning'
        f"</text>"
        f'<polygon points="{_LEFT + 280},{y + 12} {_LEFT + 292},{y + 12} {_LEFT + 286},{y}" '
        f'fill="#c62828"/><text x="{_LEFT + 298}" y="{y + 10}">encounter</text>'
        f'<circle cx="{_LEFT + 370}" cy="{y + 6}" r="5" fill="#fff" stroke="#7a4f00" '
        f'stroke-width="2"/><text x="{_LEFT + 380}" y="{y + 10}">sign</text></g>'
    )
    y += 24
    width = max(width, _LEFT + 440)
    heading = f"{picture.title} — {picture.turns} turns"
    return "\n".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="0 0 {width:.0f} {y}" width="{width:.0f}" height="{y}" '
            f'style="{_FONT};background:#fff">',
            f"<title>{text('Timeline of ' + picture.title)}</title>",
            f'<rect x="0" y="0" width="{width:.0f}" height="{y}" fill="#fff"/>',
            f'<text x="10" y="24" font-size="16" font-weight="bold" fill="#000">'
            f"{text(heading)}</text>",
            *rows,
            legend,
            "</svg>",
            "",
        ]
    )
