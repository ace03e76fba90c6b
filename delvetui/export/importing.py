"""Importing an expedition from a JSON export or a copied ``.delve`` file, checked as act would.

Both kinds of file go the same way, one batch at a time, so a file of any length is
imported in constant memory. The file is read (a JSON export value by value, a ``.delve``
file row by row through a read-only connection, so it is never modified), each batch's
structure and field types checked as it comes, into a new expedition file under a hidden
temporary name beside where it will live. That file is then replayed through
:mod:`delvetui.core.audit`: every event must be one a command could have written, in the
state it applies to, under the procedure followed then. Only then is the file given its
name, never replacing another; on any refusal or failure the temporary file is removed and
nothing was created. Nothing of a foreign ``.delve`` file but its rows is taken: not its
snapshots, not its tables' definitions.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol

from delvetui import fileio, paths
from delvetui.core import events as ev
from delvetui.core.audit import Audit, Impossible
from delvetui.core.timeline import Batch
from delvetui.errors import (
    DelveError,
    ExpeditionExists,
    FileRefused,
    StoreError,
)
from delvetui.export import json_format
from delvetui.export.json_format import Checked, Head, ImportRefused, Refuse
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.session import load_batches
from delvetui.store import SCHEMA_VERSION, NewEvent, Store


class _Source(Protocol):
    head: Head

    def batches(self) -> Iterator[Checked]: ...

    def line(self, seq: int) -> int | None: ...


def import_file(path: Path, name: str | None = None) -> Path:
    """Create the expedition a file holds, under NAME or its own; return its path.

    The file is a JSON export or an expedition file (``.delve``) copied from elsewhere.
    Everything is checked before the expedition appears; an existing one is never replaced.
    """
    refuse = json_format.refuser(path)
    with _open_source(path, refuse) as source:
        chosen = name or source.head.name
        target = paths.imported_expedition_path(name, source.head.name, path)
        if os.path.lexists(target):
            raise ExpeditionExists(
                f"An expedition {chosen!r} already exists ({target}); give the import another "
                f"name: delvetui import {path} NAME. Nothing was imported."
            )
        paths.ensure_data_dir()

        def fill(temp: Path) -> None:
            with Store.create(
                temp, meta=source.head.meta, procedure_text=source.head.procedure_text
            ) as store:
                store.append_many(_audited(store, source, refuse))

        taken = f"{target} already exists; choose another name or open it. Nothing was imported."
        fileio.create_expedition(target, fill, taken=taken)
    return target


@contextlib.contextmanager
def _open_source(path: Path, refuse: Refuse) -> Iterator[_Source]:
    try:
        # Only a regular file: a FIFO would block, and /dev/zero would never end.
        fd = fileio.open_regular(path)
    except FileNotFoundError:
        raise DelveError(f"There is no file {path} to import.") from None
    except FileRefused as refused:
        raise ImportRefused(f"{refused.message} Nothing was created.") from None
    binary = open(fd, "rb")  # noqa: SIM115 - closed below, after the import
    with binary:
        try:
            start = binary.read(len(fileio.SQLITE_MAGIC))
            binary.seek(0)
        except OSError as error:
            raise DelveError(f"{path} cannot be read ({error.strerror}).") from None
        if start == fileio.SQLITE_MAGIC:
            with _DelveSource.open(path, refuse) as delve:
                yield delve
            return
        yield json_format.open_export(path, binary)


class _DelveSource:
    """An expedition file from elsewhere, read row by row through a read-only connection."""

    def __init__(self, store: Store, head: Head, refuse: Refuse) -> None:
        self.store = store
        self.head = head
        self.refuse = refuse

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: Path, refuse: Refuse) -> Iterator[_DelveSource]:
        try:
            store = Store.open(path, write=False)
        except StoreError as error:
            raise refuse(f"it is not a sound expedition file — {_sentence(error)}") from None
        with store:
            if store.file_version > SCHEMA_VERSION:
                raise refuse(
                    f"it was written by a newer delvetui (file version {store.file_version}; "
                    f"this delvetui reads up to {SCHEMA_VERSION}) — update delvetui to import it"
                )
            try:
                meta = json_format.check_meta(store.meta(), refuse)
                text = json_format.check_procedure({"text": store.procedure_text()}, refuse)
            except StoreError as error:
                raise refuse(f"it is not a sound expedition file — {_sentence(error)}") from None
            yield cls(store, Head(meta=meta, procedure_text=text), refuse)

    def line(self, seq: int) -> int | None:
        return None  # rows have no lines; the batch and event numbers say where

    def batches(self) -> Iterator[Checked]:
        try:
            for stored in self.store.batches():
                events = [
                    {"type": e.type, "version": e.version, "payload": e.payload}
                    for e in stored.events
                ]
                where = f"batch {stored.seq}"
                wrong = json_format.text_problem([stored.command, stored.at, events])
                if wrong:
                    raise self.refuse(f"{where}: {wrong}")
                batch = {"seq": stored.seq, "command": stored.command, "at": stored.at}
                yield json_format.check_batch(
                    {**batch, "events": events}, stored.seq, where, self.refuse
                )
        except StoreError as error:
            raise self.refuse(f"it is not a sound expedition file — {_sentence(error)}") from None


def _sentence(error: DelveError) -> str:
    return error.message.rstrip(". ")


def _audited(
    store: Store, source: _Source, refuse: Refuse
) -> Iterator[tuple[str, str, Sequence[NewEvent]]]:
    """Each batch of the source, once the checks a command goes through pass for it.

    The batches are replayed through ``core.audit`` as they are written to the new file;
    an undo reaching further back than the audit keeps reads them back from that file
    (the writing connection sees what it wrote).
    """

    def load(seqs: Sequence[int]) -> Iterator[Batch]:
        return load_batches(store, seqs)

    original = load_text(source.head.procedure_text, source="its procedure", stored=True)
    audit = Audit(original, load=load)
    for checked in source.batches():
        _load_procedures(checked.batch, audit.procedures, refuse)
        try:
            audit.take(checked.batch)
        except Impossible as error:
            raise refuse(_where(error, source.line(checked.batch.seq))) from None
        yield checked.command, checked.at, checked.stored


def _where(error: Impossible, line: int | None) -> str:
    where = f"batch {error.batch}"
    if error.event is not None:
        where += f", event {error.event} ({error.what})"
    if line is not None:
        where += f", on line {line}"
    return f"{where}: {error.why} — no command could have written it"


def _load_procedures(batch: Batch, procedures: dict[str, Procedure], refuse: Refuse) -> None:
    """Load each procedure the batch moves to, so the audit follows it.

    A text under a digest that is not its own is loaded too: the audit then refuses it.
    """
    for event in batch.events:
        if isinstance(event, ev.ProcedureChanged) and event.digest not in procedures:
            try:
                procedures[event.digest] = load_text(
                    event.text, source=f"the procedure {event.procedure_id}", stored=True
                )
            except DelveError as error:
                raise refuse(
                    f"the procedure it moved to in batch {batch.seq} is broken — {error.message}"
                ) from None


__all__ = ["ImportRefused", "import_file"]
