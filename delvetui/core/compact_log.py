"""The compact log: one line per turn (action, roll, result, what it changed).

For a game master who wants to scan an hour of play at a glance. It is made from the full
log's lines, a command at a time, so it costs nothing while the full log is shown and is
rebuilt in one pass when switched on. Lines outside turns (notes, a member added) stay
as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from delvetui.core.log import Kind, Line

#: Kinds that colour a compact turn, the loudest first.
LOUD: tuple[Kind, ...] = ("encounter", "sign", "check", "alarm")


def _piece(line: Line) -> str:
    """A full line shortened to what the compact turn keeps of it."""
    text = line.text.strip()
    if line.kind == "roll":
        # "Dungeon Hazard Die: d6 [1] = 1" keeps "d6 [1] = 1".
        return text.split(": ", 1)[-1]
    if line.kind == "result":
        # "→ Encounter — The party has an encounter…" keeps "→ Encounter".
        return text.split(" — ", 1)[0]
    return text.rstrip(".")


def _turn_line(header: Line, body: Sequence[Line]) -> Line:
    title = header.text.replace("· day ", "· d")
    pieces = [_piece(line) for line in body if line.kind not in ("encounter", "sign")]
    kinds = {line.kind for line in body}
    kind: Kind = next((loud for loud in LOUD if loud in kinds), "info")
    loud = [line.text.rstrip(".") for line in body if line.kind in ("encounter", "sign")]
    text = " · ".join([title, *pieces, *loud])
    return Line(
        kind=kind,
        text=text,
        batch=header.batch,
        voided=header.voided,
        turn=header.turn,
        session=header.session,
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
