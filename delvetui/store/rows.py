"""Rows of the expedition file: what is appended and read back, and their checksums.

Every row carries a CRC32 over its bytes, so a flipped byte is reported, never replayed.
Reading a row checks it and decodes it here; the store says where the damage is.
"""

from __future__ import annotations

import contextlib
import json
import zlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from delvetui.errors import DamagedFile

#: Builds the error for damage found at a place ("event 12") for a reason.
Damaged = Callable[[str | None, str], DamagedFile]


@attrs.frozen
class StoredEvent:
    """One event as read back from the log, numbered across the whole expedition."""

    seq: int
    type: str
    version: int
    payload: dict[str, Any]


@attrs.frozen
class StoredBatch:
    """The events one command produced, committed together, with the command text and time."""

    seq: int
    command: str
    at: str
    events: tuple[StoredEvent, ...]


@attrs.frozen
class NewEvent:
    """An event to append: its type name, its schema version and a JSON-able payload."""

    type: str
    version: int
    payload: dict[str, Any]


def crc(parts: Iterable[bytes]) -> int:
    """The CRC32 of the parts, joined by a separator no text holds."""
    return zlib.crc32(b"\x1f".join(parts))


def event_crc(batch: object, type_: bytes, version: object, payload: bytes) -> int:
    """The CRC32 an event row carries."""
    return crc((str(batch).encode(), type_, str(version).encode(), payload))


def batch_crc(seq: object, command: bytes, at: bytes, events: int) -> int:
    """The CRC32 a batch row carries: its number, text, time and how many events it has."""
    return crc((str(seq).encode(), command, at, str(events).encode()))


#: A batch ready for the file: command, time, and per event (type, type bytes, version,
#: (payload text, payload bytes)).
Encoded = tuple[str, str, list[tuple[str, bytes, int, tuple[str, bytes]]]]


def encode_batch(command: str, at: str, events: Sequence[NewEvent]) -> Encoded:
    """A batch encoded for the file; TypeError or ValueError for a payload JSON cannot hold."""
    return (
        command,
        at,
        [(e.type, e.type.encode(), e.version, encode_payload(e.payload)) for e in events],
    )


def encode_payload(payload: dict[str, Any]) -> tuple[str, bytes]:
    """A payload as the file keeps it: compact, sorted JSON."""
    if not isinstance(payload, dict):
        raise TypeError(f"An event payload must be a dict, not {type(payload).__name__}.")
    # allow_nan=False: NaN is not JSON and would read back as damage.
    text = json.dumps(
        payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text, text.encode()


def decode_event(row: tuple[Any, ...], damaged: Damaged) -> StoredEvent:
    """An event row (seq, batch, type, version, payload, crc) checked and decoded."""
    seq, batch, type_b, version, payload_b, crc_ = row
    where = f"event {seq}"
    if not (
        isinstance(type_b, bytes) and isinstance(payload_b, bytes) and isinstance(version, int)
    ) or crc_ != event_crc(batch, type_b, version, payload_b):
        raise damaged(where, "its checksum does not match")
    try:
        payload = json.loads(payload_b.decode())
    except ValueError:
        raise damaged(where, "its payload is not valid JSON") from None
    if not isinstance(payload, dict):
        raise damaged(where, "its payload is not a JSON object")
    return StoredEvent(
        seq=seq, type=decode_text(type_b, where, damaged), version=version, payload=payload
    )


def decode_batch(
    seq: int, command: Any, at: Any, crc_: Any, events: list[StoredEvent], damaged: Damaged
) -> StoredBatch:
    """A batch row checked against its events and decoded."""
    where = f"batch {seq}"
    if not (isinstance(command, bytes) and isinstance(at, bytes)) or crc_ != batch_crc(
        seq, command, at, len(events)
    ):
        raise damaged(where, "its checksum does not match")
    return StoredBatch(
        seq=seq,
        command=decode_text(command, where, damaged),
        at=decode_text(at, where, damaged),
        events=tuple(events),
    )


def decode_text(raw: object, where: str, damaged: Damaged) -> str:
    """Text read back from the file; damage when it is not UTF-8."""
    if isinstance(raw, bytes):
        with contextlib.suppress(UnicodeDecodeError):
            return raw.decode()
    raise damaged(where, "it holds unreadable text")
