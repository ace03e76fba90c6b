"""The JSON interchange format: a whole expedition in one file, and back.

An export holds every batch of the expedition file (undone ones too) with every event's
type, schema version and payload exactly as stored, the full text of the procedure, and
the file's metadata; ``docs/export.md`` documents every field. Importing checks all of it
before anything is created: the structure, every event, the procedure, and a replay of the
whole log. Then it builds an expedition that is the same, event for event.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import attrs

from delvetui import __version__, fileio, paths
from delvetui.core import events as ev
from delvetui.core.timeline import Batch, Timeline
from delvetui.errors import DelveError, ExpeditionExists, FileRefused, ReplayError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.store import NewEvent
from delvetui.text import json_safe

FORMAT = "delvetui-expedition"
FORMAT_VERSION = 1
#: A file larger than this is refused before it is read.
MAX_BYTES = 200 * 1024 * 1024


class ImportRefused(DelveError):
    """A file to import is damaged, cut off, not a delvetui export, or from a newer one."""


#: Builds the refusal for one file from a sentence saying what is wrong with it.
_Refuse = Callable[[str], ImportRefused]


# Export ----------------------------------------------------------------------------------


def render(expedition: Expedition, *, now: dt.datetime | None = None) -> str:
    """The whole expedition as the JSON interchange format."""
    moment = now or dt.datetime.now(dt.UTC).astimezone()
    batches = []
    events = 0
    for stored in expedition.store.batches():
        batches.append(
            {
                "seq": stored.seq,
                "command": stored.command,
                "at": stored.at,
                "events": [
                    {"type": e.type, "version": e.version, "payload": e.payload}
                    for e in stored.events
                ],
            }
        )
        events += len(stored.events)
    document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "program": f"delvetui {__version__}",
        "exported": moment.isoformat(timespec="seconds"),
        "meta": expedition.store.meta(),
        "procedure": {
            "id": expedition.original_procedure.id,
            "text": expedition.store.procedure_text(),
        },
        "counts": {"batches": len(batches), "events": events},
        "batches": batches,
    }
    text = json.dumps(document, indent=1, ensure_ascii=False, allow_nan=False)
    return json_safe(text) + "\n"


# Import ----------------------------------------------------------------------------------


@attrs.frozen
class Imported:
    """A checked export: everything needed to build the same expedition again."""

    meta: dict[str, str]
    procedure_text: str
    batches: tuple[tuple[str, str, tuple[NewEvent, ...]], ...]

    @property
    def name(self) -> str:
        """The expedition's name as it was exported."""
        return self.meta.get("name", "")


def read(path: Path) -> Imported:
    """Read and check an exported file completely; raise ImportRefused saying what is wrong."""
    refuse = _refuser(path)
    try:
        # Only a regular file: a FIFO would block, and /dev/zero has no size to check.
        fd = fileio.open_regular(path)
    except FileNotFoundError:
        raise DelveError(f"There is no file {path} to import.") from None
    except FileRefused as refused:
        raise ImportRefused(f"{refused.message} Nothing was created.") from None
    with open(fd, "rb") as file:
        size = os.fstat(fd).st_size
        if size > MAX_BYTES:
            raise refuse(
                f"it is {size / 1024 / 1024:.1f} MB, more than the "
                f"{MAX_BYTES / 1024 / 1024:g} MB an export may be"
            )
        try:
            raw = file.read(MAX_BYTES + 1)  # bounded, should it grow while it is read
        except OSError as error:
            raise DelveError(f"{path} cannot be read ({error.strerror}).") from None
    if len(raw) > MAX_BYTES:
        raise refuse(f"it is more than the {MAX_BYTES / 1024 / 1024:g} MB an export may be")
    return check(raw, refuse)


def check(raw: bytes, refuse: _Refuse) -> Imported:
    """Check the bytes of an export; every problem raises ``refuse(sentence)``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise refuse(f"it is not UTF-8 text (byte {error.start})") from None
    if not text.strip():
        raise refuse("it is empty")
    try:
        document = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        cut = "" if text.rstrip().endswith("}") else "; it looks cut off"
        raise refuse(
            f"it is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}){cut}"
        ) from None
    except (ValueError, RecursionError) as error:
        raise refuse(f"it is not valid JSON ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        what = f' (its "format" is {_short(found)})' if found is not None else ""
        raise refuse(f"it is not a delvetui expedition export{what}")
    version = document.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise refuse('its "format_version" is missing or not a whole number')
    if version > FORMAT_VERSION:
        program = _short(document.get("program", "a newer delvetui"))
        raise refuse(
            f"it was written by {program} in format version {version}; this delvetui "
            f"{__version__} reads up to version {FORMAT_VERSION} — update delvetui to import it"
        )
    meta = _meta(document.get("meta"), refuse)
    procedure_text = _procedure(document.get("procedure"), refuse)
    batches = _batches(document.get("batches"), refuse)
    counts = document.get("counts")
    if isinstance(counts, dict):
        events = sum(len(b[2]) for b in batches)
        if counts.get("batches") != len(batches) or counts.get("events") != events:
            raise refuse(
                f"it says it holds {_short(counts.get('batches'))} batches and "
                f"{_short(counts.get('events'))} events but holds {len(batches)} and {events}"
                " — it was cut short or changed"
            )
    _replay(batches, refuse)
    return Imported(meta=meta, procedure_text=procedure_text, batches=batches)


def import_file(path: Path, name: str | None = None) -> Path:
    """Create the expedition an export holds, under NAME or its own; return its path.

    Everything is checked before anything is created; an existing expedition is never
    replaced.
    """
    imported = read(path)
    chosen = name or imported.name
    target = paths.imported_expedition_path(name, imported.name, path)
    if target.exists():
        raise ExpeditionExists(
            f"An expedition {chosen!r} already exists ({target}); give the import another "
            f"name: delvetui import {path} NAME. Nothing was imported."
        )
    with Expedition.create_from(
        target,
        meta=imported.meta,
        procedure_text=imported.procedure_text,
        batches=imported.batches,
    ):
        pass
    return target


# Checking, part by part ------------------------------------------------------------------


def _refuser(path: Path) -> _Refuse:
    def refuse(why: str) -> ImportRefused:
        end = "\n" if "\n" in why else ". "
        return ImportRefused(f"{path} cannot be imported: {why}{end}Nothing was created.")

    return refuse


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]} is too large a number")
    return number


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def _meta(meta: object, refuse: _Refuse) -> dict[str, str]:
    if not isinstance(meta, dict):
        raise refuse('its "meta" is missing or not an object')
    for key, value in meta.items():
        if not isinstance(value, str):
            raise refuse(f'its "meta" value for {_short(key)} is not text')
    if not meta.get("name"):
        raise refuse('its "meta" has no "name"')
    return dict(meta)


def _procedure(procedure: object, refuse: _Refuse) -> str:
    if not isinstance(procedure, dict) or not isinstance(procedure.get("text"), str):
        raise refuse('its "procedure" is missing or has no "text"')
    try:
        loaded = load_text(procedure["text"], source="its procedure")
    except DelveError as error:
        raise refuse(f"its procedure text is broken — {error.message}") from None
    expected = procedure.get("id")
    if expected is not None and expected != loaded.id:
        raise refuse(
            f'its procedure says its id is {_short(expected)} but the text is "{loaded.id}"'
        )
    return str(procedure["text"])


def _batches(batches: object, refuse: _Refuse) -> tuple[tuple[str, str, tuple[NewEvent, ...]], ...]:
    if not isinstance(batches, list) or not batches:
        raise refuse('its "batches" are missing or empty')
    checked = []
    for index, batch in enumerate(batches, start=1):
        where = f"batch {index}"
        if not isinstance(batch, dict):
            raise refuse(f"{where} is not an object")
        seq = batch.get("seq")
        if seq != index or isinstance(seq, bool):
            raise refuse(
                f"{where} is numbered {_short(seq)}; batches must be numbered 1, 2, 3... "
                "with none missing"
            )
        command, at, events = batch.get("command"), batch.get("at"), batch.get("events")
        if not isinstance(command, str):
            raise refuse(f'{where} has no "command" text')
        if not isinstance(at, str) or not _is_time(at):
            raise refuse(f'{where} has no "at" time (an ISO date and time)')
        if not isinstance(events, list):
            raise refuse(f'{where} has no "events" list')
        read = tuple(_event(event, where, n, refuse) for n, event in enumerate(events, start=1))
        checked.append((command, at, read))
    first = checked[0][2]
    if not first or first[0].type != "ExpeditionStarted":
        raise refuse("batch 1 does not start the expedition (ExpeditionStarted)")
    return tuple(checked)


def _event(event: object, batch: str, number: int, refuse: _Refuse) -> NewEvent:
    where = f"{batch}, event {number}"
    if not isinstance(event, dict):
        raise refuse(f"{where} is not an object")
    type_, version, payload = event.get("type"), event.get("version"), event.get("payload")
    if not isinstance(type_, str) or type_ not in ev.EVENT_TYPES:
        raise refuse(f"{where} has the unknown event type {_short(type_)}")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise refuse(f"{where} ({type_}) has no valid schema version")
    if version > ev.SCHEMA_VERSIONS[type_]:
        raise refuse(
            f"{where} is a {type_} of schema version {version}, newer than this delvetui "
            f"reads ({ev.SCHEMA_VERSIONS[type_]}) — update delvetui to import it"
        )
    if not isinstance(payload, dict):
        raise refuse(f"{where} ({type_}) has no payload object")
    wrong = ev.wrong_field(type_, payload)
    if wrong is not None:
        raise refuse(f"{where} ({type_}) has a wrong value for {wrong!r}: {_short(payload[wrong])}")
    try:
        ev.Event.from_payload(type_, version, payload)
    except (TypeError, ValueError) as error:
        raise refuse(f"{where} ({type_}) cannot be read: {error}") from None
    return NewEvent(type=type_, version=version, payload=payload)


def _is_time(text: str) -> bool:
    try:
        dt.datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _replay(batches: Sequence[tuple[str, str, tuple[NewEvent, ...]]], refuse: _Refuse) -> None:
    """Replay the whole log as opening the expedition would; any failure means damage."""
    rebuilt = [
        Batch(
            seq=seq,
            command=command,
            events=tuple(ev.Event.from_payload(e.type, e.version, e.payload) for e in events),
        )
        for seq, (command, _, events) in enumerate(batches, start=1)
    ]

    def load(seqs: Sequence[int]) -> Iterator[Batch]:
        return (rebuilt[seq - 1] for seq in seqs)

    for batch in rebuilt:
        for event in batch.events:
            if isinstance(event, ev.ProcedureChanged):
                # Opening the expedition loads every procedure it moved to, so check them now.
                try:
                    load_text(event.text, source=f"the procedure {event.procedure_id}")
                except DelveError as error:
                    raise refuse(
                        f"the procedure it moved to in batch {batch.seq} is broken — "
                        f"{error.message}"
                    ) from None
    timeline = Timeline(load=load)
    for batch in rebuilt:
        try:
            timeline.apply(batch)
        except ReplayError as error:  # evolve and the timeline raise nothing else
            raise refuse(
                f"its log does not replay at batch {batch.seq} ({batch.command!r}: {error})"
            ) from None
