"""The compact log: one line per turn (the title, what it met, what the rolls gave, what
changed), each drawn on one row.

For a game master who wants to scan an hour of play at a glance. It is made from the full
log's lines, a command at a time, so it costs nothing while the full log is shown and is
rebuilt in one pass when switched on. A turn's line puts the loudest first (an encounter,
a sign), then each roll's result with its total ("No encounter 4"), then what changed, in
short; a step that crosses no threshold (a track counted on) is left out, and a row too
narrow cuts the line at its end, where the least is lost. Lines outside turns (notes, a
member added) stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from delvetui.core.log import Kind, Line

#: Kinds that colour a compact turn, the loudest first.
LOUD: tuple[Kind, ...] = ("encounter", "sign", "check", "alarm")
#: The reason in brackets at the end of a line ("(a turn's exploring)"), left out.
_REASON = re.compile(r"\s*[(—][^()]*\)?\.?$")


#: A turn's heading: "Turn 7 · day 1, 09:00 · Explore, 120 feet".
_HEADING = re.compile(r"^.+? (\d+) · day (\d+), (\d\d:\d\d) · ([^,]+)")


def _title(heading: str) -> str:
    """A turn's heading in short, what a narrow row keeps: "#7 d1 09:00 Explore" (the
    distance is the action's, in the full log)."""
    found = _HEADING.match(heading)
    if found is None:
        return heading
    number, day, clock, action = found.groups()
    return f"#{number} d{day} {clock} {action}"


def _total(roll: Line) -> str:
    """A roll's total: "Wandering monsters: d6 [4] = 4 (table dice)" gives "4"."""
    said = roll.text.split(" = ", 1)[-1]
    return said.split(" ", 1)[0].rstrip(".")


def _result(roll: Line | None, result: Line) -> str:
    """A result with its roll's total: "No encounter 4"."""
    label = result.text.strip().removeprefix("→ ").split(" — ", 1)[0].rstrip(".")
    return f"{label} {_total(roll)}" if roll is not None else label


def _short(line: Line) -> str:
    """What changed, in short: the line without its reason and its full stop."""
    text = line.text.strip()
    shorter = _REASON.sub("", text)
    return (shorter or text).rstrip(".")


def _turn_line(header: Line, body: Sequence[Line]) -> Line:
    title = _title(header.text)
    loud = [line.text.rstrip(".") for line in body if line.kind in ("encounter", "sign")]
    results: list[str] = []
    changed: list[str] = []
    roll: Line | None = None
    for line in body:
        if line.kind == "roll":
            roll = line
        elif line.kind == "result":
            results.append(_result(roll, line))
            roll = None
        elif line.kind not in ("encounter", "sign") and not line.minor:
            changed.append(_short(line))
    kinds = {line.kind for line in body}
    kind: Kind = next((loud for loud in LOUD if loud in kinds), "info")
    text = " · ".join([title, *loud, *results, *changed])
    return Line(
        kind=kind,
        text=text,
        batch=header.batch,
        voided=header.voided,
        turn=header.turn,
        session=header.session,
        one_row=True,
    )


def _batch(lines: Sequence[Line]) -> Iterator[Line]:
    header: Line | None = None
    body: list[Line] = []
    for line in lines:
        if line.kind == "turn":
            if header is not None:
                yield _turn_line(header, body)
            header, body = line, []
        elif header is None:
            yield line
        else:
            body.append(line)
    if header is not None:
        yield _turn_line(header, body)


def compact_lines(lines: Iterable[Line]) -> list[Line]:
    """The log with each turn on one line (other lines as they are)."""
    shown: list[Line] = []
    batch: list[Line] = []
    for line in lines:
        if batch and line.batch != batch[0].batch:
            shown.extend(_batch(batch))
            batch = []
        batch.append(line)
    shown.extend(_batch(batch))
    return shown
