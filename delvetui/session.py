"""The app service: the one way an expedition is opened, changed and read.

It opens the file, loads the procedure stored inside it, replays the batches, and takes
commands: parse, decide, append (committed), then apply and tell listeners. The CLI and the
UI both go through it; neither builds events nor touches the store.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from delvetui import paths
from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.decide import decide, start_events
from delvetui.core.state import State
from delvetui.core.timeline import Batch, Timeline
from delvetui.errors import DamagedFile, ReadOnlyExpedition
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.store import NewEvent, StoredBatch, Store

Listener = Callable[[Batch, State], None]


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).astimezone()


def to_batch(stored: StoredBatch) -> Batch:
    """A stored batch with its events rebuilt; an unreadable event means a damaged file."""
    try:
        events = tuple(ev.Event.from_payload(e.type, e.version, e.payload) for e in stored.events)
    except (ValueError, TypeError) as error:
        raise DamagedFile(
            f"Batch {stored.seq} of the expedition holds an event this program cannot read "
            f"({error}); the file was not modified."
        ) from None
    return Batch(seq=stored.seq, command=stored.command, events=events)


def encode(events: Sequence[ev.Event]) -> list[NewEvent]:
    """Events as the store keeps them: type name, schema version, payload."""
    return [
        NewEvent(type=e.type, version=ev.SCHEMA_VERSIONS[e.type], payload=e.to_payload())
        for e in events
    ]


class Expedition:
    """An open expedition: its file, its procedure and its timeline."""

    def __init__(self, store: Store, procedure: Procedure, timeline: Timeline) -> None:
        self.store = store
        self.procedure = procedure
        self.timeline = timeline
        self.listeners: list[Listener] = []
        self.batch_count = store.batch_count()
        self.event_count = store.event_count()

    # Opening --------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path,
        procedure: Procedure,
        *,
        name: str | None = None,
        seed: int | None = None,
        start: str | None = None,
        now: dt.datetime | None = None,
    ) -> Expedition:
        """Create the expedition file with the procedure's text inside and open it."""
        seed = secrets.randbelow(2**31) if seed is None else seed
        title = name or path.stem
        first = start_events(title, procedure, seed=seed, start=start)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {
            "name": title,
            "procedure": procedure.id,
            "seed": str(seed),
            "created": (now or _now()).isoformat(timespec="seconds"),
        }
        store = Store.create(path, meta=meta, procedure_text=procedure.text)
        try:
            store.append("new", (now or _now()).isoformat(timespec="seconds"), encode(first))
        finally:
            store.close()
        return cls.open(path)

    @classmethod
    def open(cls, path: Path, *, write: bool = True) -> Expedition:
        """Open a saved expedition and replay it."""
        store = Store.open(path, write=write)
        try:
            procedure = load_text(store.procedure_text(), source=f"the procedure inside {path}")
            timeline = Timeline(load=lambda seqs: _load(store, seqs))
            for stored in store.batches():
                timeline.apply(to_batch(stored))
        except BaseException:
            store.close()
            raise
        return cls(store, procedure, timeline)

    @classmethod
    def open_named(cls, name: str, *, write: bool = True) -> Expedition:
        """Open a saved expedition by name or path."""
        return cls.open(paths.find_expedition(name), write=write)

    def close(self) -> None:
        """Close the file (and give up the writer lock)."""
        self.store.close()

    def __enter__(self) -> Expedition:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Reading --------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The state the counting batches add up to."""
        return self.timeline.state

    @property
    def path(self) -> Path:
        """The expedition file."""
        return self.store.path

    @property
    def readonly(self) -> bool:
        """True when the expedition cannot be changed (newer version, damage, viewer)."""
        return self.store.readonly

    def batches(self, after: int = 0) -> Iterator[Batch]:
        """Every batch in the file, in order (undone ones included)."""
        for stored in self.store.batches(after=after):
            yield to_batch(stored)

    # Changing -------------------------------------------------------------------------------

    def execute(self, text: str, *, ask: bool = False, now: dt.datetime | None = None) -> Batch:
        """Parse, decide, commit and apply one command; nothing is written on an error."""
        if self.readonly:
            raise ReadOnlyExpedition(
                self.store.readonly_reason or f"{self.path} is open read-only."
            )
        command = cmd.parse(text)
        return self.run(command, ask=ask, now=now)

    def run(
        self, command: cmd.Command, *, ask: bool = False, now: dt.datetime | None = None
    ) -> Batch:
        """Decide, commit and apply a parsed command."""
        moment = now or _now()
        seq = self.batch_count + 1
        rng = random.Random(f"{self.state.seed}:{seq}")
        events = decide(
            self.state,
            self.procedure,
            command,
            rng=rng,
            ask=ask,
            history=self.timeline.history(),
            today=moment.date().isoformat(),
        )
        text = command.text or type(command).__name__.lower()
        seq = self.store.append(text, moment.isoformat(timespec="seconds"), encode(events))
        self.batch_count = seq
        self.event_count += len(events)
        batch = Batch(seq=seq, command=text, events=tuple(events))
        state = self.timeline.apply(batch)
        for listener in list(self.listeners):
            listener(batch, state)
        return batch


def _load(store: Store, seqs: Sequence[int]) -> Iterator[Sequence[ev.Event]]:
    for seq in seqs:
        stored = next(store.batches(after=seq - 1))
        yield to_batch(stored).events
