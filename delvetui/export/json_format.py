"""The JSON interchange format: a whole expedition in one file, and back.

An export holds every batch of the expedition file (undone ones too) with every event's
type, schema version and payload exactly as stored, the full text of the procedure, and
the file's metadata; ``docs/export.md`` documents every field. Both ways run in constant
memory, one batch at a time: ``chunks`` writes the file in pieces, and ``Reading`` reads
it a value at a time, checking its structure and every event's types as it goes (what the
events mean is checked by :mod:`delvetui.export.importing`, which builds the expedition).
"""

from __future__ import annotations

import array
import codecs
import datetime as dt
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import attrs

from delvetui import __version__
from delvetui.core import events as ev
from delvetui.core.commands import MAX_COMMAND_LENGTH
from delvetui.core.timeline import Batch
from delvetui.errors import DelveError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.store import NewEvent
from delvetui.text import json_safe, unseen_in

FORMAT = "delvetui-expedition"
FORMAT_VERSION = 1


class ImportRefused(DelveError):
    """A file to import is damaged, cut off, not a delvetui export, or from a newer one."""


#: Builds the refusal for one file from a sentence saying what is wrong with it.
Refuse = Callable[[str], ImportRefused]


# Export ----------------------------------------------------------------------------------


def render(expedition: Expedition, *, now: dt.datetime | None = None) -> str:
    """The whole expedition as the JSON interchange format."""
    return "".join(chunks(expedition, now=now))


def chunks(expedition: Expedition, *, now: dt.datetime | None = None) -> Iterator[str]:
    """The JSON interchange format piece by piece: the head, then one batch at a time.

    Written in pieces so that a long expedition is exported in constant memory; the text
    is the same as ``json.dumps(document, indent=1)`` of the whole would give.
    """
    moment = now or dt.datetime.now(dt.UTC).astimezone()
    batches, events = expedition.batch_count, expedition.event_count
    head = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "program": f"delvetui {__version__}",
        "exported": moment.isoformat(timespec="seconds"),
        "meta": expedition.meta(),
        "procedure": {
            "id": expedition.original_procedure.id,
            "text": expedition.procedure_text(),
        },
        "counts": {"batches": batches, "events": events},
    }
    text = _dumps(head)
    yield text[: -len("\n}")] + ',\n "batches": [\n'
    for stored in expedition.saved():
        if stored.seq > batches:
            break  # appended by the table since the counts were read: the next export's
        batch = {
            "seq": stored.seq,
            "command": stored.command,
            "at": stored.at,
            "events": [
                {"type": e.type, "version": e.version, "payload": e.payload} for e in stored.events
            ],
        }
        comma = ",\n" if stored.seq > 1 else ""
        yield comma + "  " + _dumps(batch).replace("\n", "\n  ")
    yield "\n ]\n}\n"


def _dumps(value: object) -> str:
    text = json.dumps(value, indent=1, ensure_ascii=False, allow_nan=False)
    return json_safe(text)


# Import ----------------------------------------------------------------------------------


@attrs.frozen
class Head:
    """The parts of an export before its batches: what the expedition file is created with."""

    meta: dict[str, str]
    procedure_text: str

    @property
    def name(self) -> str:
        """The expedition's name as it was exported."""
        return self.meta.get("name", "")


@attrs.frozen
class Checked:
    """One batch whose structure and types are checked: for the store, and as events."""

    command: str
    at: str
    stored: tuple[NewEvent, ...]
    batch: Batch


class Reading:
    """An export being read: its head checked at once, its batches one at a time.

    ``batches()`` yields every batch after checking its structure and every event's
    types; ``line(seq)`` is the line of the file a batch starts on, for messages.
    Nothing is kept of a batch once it is handed on, so a file of any length is read in
    constant memory (but for one number per batch: its line).
    """

    def __init__(self, path: Path, binary: BinaryIO, refuse: Refuse) -> None:
        self.path = path
        self.refuse = refuse
        self._parser = _Parser(binary, refuse)
        self._lines = array.array("q")
        self._top = self._parser.top()
        self._fields: dict[str, object] = {}
        self._first_batch: object = None
        self.head = self._read_head()

    def line(self, seq: int) -> int | None:
        """The line batch ``seq`` starts on, when it was read."""
        return self._lines[seq - 1] if 0 < seq <= len(self._lines) else None

    def _read_head(self) -> Head:
        for key, item in self._top:
            if key == "batch":
                self._first_batch = item
                break
            if key == "batches":  # given, but not as a list
                self._check_format()
                raise self.refuse('its "batches" are missing or empty')
            self._fields[key] = item
        else:
            self._check_format()
            raise self.refuse('its "batches" are missing or empty')
        self._check_format()
        meta = check_meta(self._fields.get("meta"), self.refuse)
        procedure_text = check_procedure(self._fields.get("procedure"), self.refuse)
        return Head(meta=meta, procedure_text=procedure_text)

    def _check_format(self) -> None:
        fields = self._fields
        if fields.get("format") != FORMAT:
            found = fields.get("format")
            what = f' (its "format" is {_short(found)})' if found is not None else ""
            raise self.refuse(f"it is not a delvetui expedition export{what}")
        version = fields.get("format_version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise self.refuse('its "format_version" is missing or not a whole number')
        if version > FORMAT_VERSION:
            program = _short(fields.get("program", "a newer delvetui"))
            raise self.refuse(
                f"it was written by {program} in format version {version}; this delvetui "
                f"{__version__} reads up to version {FORMAT_VERSION} — update delvetui to "
                "import it"
            )
        for needed in ("meta", "procedure"):
            if needed not in fields:
                raise self.refuse(
                    f'its "{needed}" is missing or comes after its "batches" (delvetui '
                    "writes the batches last)"
                )

    def batches(self) -> Iterator[Checked]:
        """Every batch, checked; then the counts the file gives are checked against them."""
        assert self._first_batch is not None
        items = itertools.chain([("batch", self._first_batch)], self._top)
        seq = events = 0
        for key, item in items:
            if key == "batches":
                raise self.refuse('its "batches" are missing or empty')
            if key != "batch":
                self._fields[key] = item
                continue
            assert isinstance(item, tuple)
            line, batch = item
            seq += 1
            self._lines.append(line)
            checked = check_batch(batch, seq, f"batch {seq}", _on_line(self.refuse, line))
            events += len(checked.stored)
            yield checked
        if seq == 0:
            raise self.refuse('its "batches" are missing or empty')
        counts = self._fields.get("counts")
        if isinstance(counts, dict) and (
            counts.get("batches") != seq or counts.get("events") != events
        ):
            raise self.refuse(
                f"it says it holds {_short(counts.get('batches'))} batches and "
                f"{_short(counts.get('events'))} events but holds {seq} and {events}"
                " — it was cut short or changed"
            )


def _on_line(refuse: Refuse, line: int) -> Refuse:
    def refuse_on_line(why: str) -> ImportRefused:
        return refuse(f"{why} (line {line})")

    return refuse_on_line


def open_export(path: Path, binary: BinaryIO) -> Reading:
    """Start reading an export from an open file; its head is read and checked at once."""
    return Reading(path, binary, refuser(path))


def refuser(path: Path) -> Refuse:
    """The refusal for one file, built from a sentence saying what is wrong with it."""

    def refuse(why: str) -> ImportRefused:
        end = "\n" if "\n" in why else ". "
        return ImportRefused(f"{path} cannot be imported: {why}{end}Nothing was created.")

    return refuse


# Reading JSON a value at a time -----------------------------------------------------------


class _BadText(ValueError):
    """A string or key JSON allows but an expedition cannot hold."""


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """Build an object, refusing a key given twice and text that is not characters."""
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise _BadText(f"the key {_short(key)} is given twice in one object")
        _no_surrogate(key)
        if isinstance(value, str):
            _no_surrogate(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, str):
                    _no_surrogate(item)
        result[key] = value
    return result


def _no_surrogate(text: str) -> None:
    found = _SURROGATE.search(text)
    if found is not None:
        raise _BadText(
            f"the text {_short(text)} holds a lone surrogate (\\u{ord(found.group()):04x}), "
            "half of a character that cannot be stored; re-export it from delvetui"
        )


_SURROGATE = re.compile("[\ud800-\udfff]")
_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs,
    parse_constant=lambda name: _no_constant(name),
    parse_float=lambda text: _finite(text),
)
_WHITESPACE = frozenset(" \t\n\r")
#: Read this much of the file at a time.
_CHUNK = 1 << 20
#: No one value of an export (its meta, its procedure, one batch) may be larger.
MAX_VALUE = 64 * 1024 * 1024


class _Parser:
    """The top-level object of a JSON file, read key by key, its "batches" item by item."""

    def __init__(self, binary: BinaryIO, refuse: Refuse) -> None:
        self.binary = binary
        self.refuse = refuse
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.buffer = ""
        self.pos = 0
        self.mark = 0  # a place in the buffer whose line is known: mark_line
        self.mark_line = 1
        self.shifted = False  # the buffer no longer begins at the start of the file
        self.read_bytes = 0
        self.eof = False
        self.seen_any = False

    def _fill(self, at_least: int = _CHUNK) -> bool:
        """Read more of the file into the buffer; False at the end of the file."""
        if self.eof:
            return False
        if self.pos:
            self._line()  # count the lines of what is dropped
            self.buffer = self.buffer[self.pos :]
            self.pos = self.mark = 0
            self.shifted = True
        raw = self.binary.read(max(at_least, _CHUNK))
        try:
            text = self.decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as error:
            byte = self.read_bytes + error.start - len(self.decoder.getstate()[0])
            raise self.refuse(f"it is not UTF-8 text (byte {max(byte, 0)})") from None
        self.read_bytes += len(raw)
        if not raw:
            self.eof = True
        self.buffer += text
        return bool(raw)

    def _skip(self) -> str:
        """Skip white space; the next character, or "" at the end of the file."""
        while True:
            buffer, pos = self.buffer, self.pos
            while pos < len(buffer) and buffer[pos] in _WHITESPACE:
                pos += 1
            self.pos = pos
            if pos < len(buffer):
                return buffer[pos]
            if not self._fill():
                return ""

    def _where(self, pos: int) -> str:
        line = self._line()
        if pos >= self.pos:
            line += self.buffer.count("\n", self.pos, pos)
        else:
            line -= self.buffer.count("\n", pos, self.pos)
        start = self.buffer.rfind("\n", 0, pos)
        column = pos - start if start >= 0 or not self.shifted else None
        return f"line {line}" + (f", column {column}" if column is not None else "")

    def _line(self) -> int:
        """The line the current place is on, counted on from the last place asked for."""
        self.mark_line += self.buffer.count("\n", self.mark, self.pos)
        self.mark = self.pos
        return self.mark_line

    def _invalid(self, what: str) -> ImportRefused:
        ends = self.buffer.rstrip().endswith("}")
        cut = "; it looks cut off" if self.eof and not ends else ""
        return self.refuse(f"it is not valid JSON ({self._where(self.pos)}: {what}){cut}")

    def _expect(self, allowed: str) -> str:
        found = self._skip()
        if not found or found not in allowed:
            said = " or ".join(f"'{c}'" for c in allowed)
            raise self._invalid(f"expecting {said}")
        self.pos += 1
        return found

    def _value(self) -> object:
        """Decode one JSON value at the current place, reading more of the file as needed."""
        self._skip()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, self.pos)
            except json.JSONDecodeError as error:
                if self.eof:
                    ends = self.buffer.rstrip().endswith("}")
                    cut = "" if ends else "; it looks cut off"
                    raise self.refuse(
                        f"it is not valid JSON ({self._where(error.pos)}: {error.msg}){cut}"
                    ) from None
                pending = len(self.buffer) - self.pos
                if pending > MAX_VALUE:
                    raise self.refuse(
                        f"one of its values, at {self._where(self.pos)}, is larger than "
                        f"{MAX_VALUE // (1024 * 1024)} MB or is not valid JSON"
                    ) from None
                self._fill(pending)
                continue
            except _BadText as error:
                raise self.refuse(f"at {self._where(self.pos)}, {error}") from None
            except (ValueError, RecursionError) as error:
                raise self.refuse(
                    f"it is not valid JSON ({self._where(self.pos)}: {error})"
                ) from None
            if end == len(self.buffer) and not self.eof:
                # A number at the end of what was read may go on in the next piece.
                self._fill()
                continue
            self.pos = end
            return value

    def top(self) -> Iterator[tuple[str, object]]:
        """(key, value) for each key of the top object; "batches" gives ("batch", (line, value))
        for each of its items instead."""
        first = self._skip()
        if not first:
            raise self.refuse("it is empty")
        if first != "{":
            if first == "[":
                raise self.refuse("it is not a delvetui expedition export")
            raise self._invalid("expecting '{'")
        self.pos += 1
        seen: set[str] = set()
        if self._skip() == "}":
            self.pos += 1
        else:
            while True:
                if self._skip() != '"':
                    raise self._invalid("expecting a key in double quotes")
                key = self._value()
                assert isinstance(key, str)
                if key in seen:
                    raise self.refuse(f"its key {_short(key)} is given twice")
                seen.add(key)
                self._expect(":")
                if key == "batches":
                    yield from self._batches()
                else:
                    yield key, self._value()
                if self._expect(",}") == "}":
                    break
        if self._skip():
            raise self._invalid("extra data after the end")

    def _batches(self) -> Iterator[tuple[str, object]]:
        if self._skip() != "[":
            yield "batches", self._value()  # not a list: the checks say so
            return
        self.pos += 1
        if self._skip() == "]":
            self.pos += 1
            return
        while True:
            self._skip()
            line = self._line()
            yield "batch", (line, self._value())
            if self._expect(",]") == "]":
                return


# Checking, part by part ------------------------------------------------------------------


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


def check_meta(meta: object, refuse: Refuse) -> dict[str, str]:
    """The expedition's metadata: an object of texts with a name."""
    if not isinstance(meta, dict):
        raise refuse('its "meta" is missing or not an object')
    for key, value in meta.items():
        if not isinstance(value, str):
            raise refuse(f'its "meta" value for {_short(key)} is not text')
    if not meta.get("name"):
        raise refuse('its "meta" has no "name"')
    return dict(meta)


def check_procedure(procedure: object, refuse: Refuse) -> str:
    """The procedure's text, which must load; and its id, when given, must be the text's."""
    if not isinstance(procedure, dict) or not isinstance(procedure.get("text"), str):
        raise refuse('its "procedure" is missing or has no "text"')
    try:
        loaded = load_text(procedure["text"], source="its procedure", stored=True)
    except DelveError as error:
        raise refuse(f"its procedure text is broken — {error.message}") from None
    expected = procedure.get("id")
    if expected is not None and expected != loaded.id:
        raise refuse(
            f'its procedure says its id is {_short(expected)} but the text is "{loaded.id}"'
        )
    return str(procedure["text"])


def check_batch(batch: object, seq: int, where: str, refuse: Refuse) -> Checked:
    """One batch of the file, its structure and every event's types checked."""
    if not isinstance(batch, dict):
        raise refuse(f"{where} is not an object")
    number = batch.get("seq")
    if number != seq or isinstance(number, bool):
        raise refuse(
            f"{where} is numbered {_short(number)}; batches must be numbered 1, 2, 3... "
            "with none missing"
        )
    command, at, events = batch.get("command"), batch.get("at"), batch.get("events")
    if not isinstance(command, str):
        raise refuse(f'{where} has no "command" text')
    if len(command) > MAX_COMMAND_LENGTH or unseen_in(command) is not None:
        raise refuse(
            f'{where} has a "command" no command line could have typed (control characters, '
            f"or longer than {MAX_COMMAND_LENGTH} characters)"
        )
    if not isinstance(at, str) or not _is_time(at):
        raise refuse(f'{where} has no "at" time (an ISO date and time)')
    if not isinstance(events, list):
        raise refuse(f'{where} has no "events" list')
    read = [_event(event, where, n, refuse) for n, event in enumerate(events, start=1)]
    if seq == 1 and (not read or read[0][0].type != "ExpeditionStarted"):
        raise refuse("batch 1 does not start the expedition (ExpeditionStarted)")
    return Checked(
        command=command,
        at=at,
        stored=tuple(e[0] for e in read),
        batch=Batch(seq=seq, command=command, events=tuple(e[1] for e in read)),
    )


def text_problem(value: object) -> str | None:
    """What makes a value read from elsewhere (a copied file) unstorable text, if anything."""
    if isinstance(value, str):
        try:
            _no_surrogate(value)
        except _BadText as error:
            return str(error)
    elif isinstance(value, dict):
        for key, item in value.items():
            found = text_problem(key) or text_problem(item)
            if found:
                return found
    elif isinstance(value, list | tuple):
        for item in value:
            found = text_problem(item)
            if found:
                return found
    return None


def _event(event: object, batch: str, number: int, refuse: Refuse) -> tuple[NewEvent, ev.Event]:
    """One event of a batch: a known type and schema version, and fields of their types."""
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
    try:
        read = ev.Event.from_payload(type_, version, payload)
    except (TypeError, ValueError) as error:
        wrong = ev.wrong_field(type_, payload)
        if wrong is not None:
            value = _short(payload[wrong])
            raise refuse(f"{where} ({type_}) has a wrong value for {wrong!r}: {value}") from None
        raise refuse(f"{where} ({type_}) cannot be read: {error}") from None
    return NewEvent(type=type_, version=version, payload=payload), read


def _is_time(text: str) -> bool:
    try:
        dt.datetime.fromisoformat(text)
    except ValueError:
        return False
    return True
