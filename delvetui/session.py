"""The app service: the one way an expedition is opened, changed and read.

It opens the file, loads the procedure stored inside it, replays the batches, and takes
commands: parse, decide, append (committed), then apply and tell listeners. The table, the
CLI and the exports all go through it; none of them builds events or touches the store
(``tests/test_layers.py`` holds them to it).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from delvetui import __version__, lazy, paths
from delvetui.core import snapshot
from delvetui.core.state import State
from delvetui.core.timeline import Batch, Timeline, procedure_at
from delvetui.errors import (
    CommandError,
    DamagedFile,
    DelveError,
    ReadOnlyExpedition,
    ReplayError,
    StorageFailed,
)
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.store import NewEvent, Store, StoredBatch

if TYPE_CHECKING:
    from delvetui.core import commands as cmd
    from delvetui.core import events as ev
else:
    ev = lazy.module("delvetui.core.events")

# The command language, ``decide``, the audit and the adventure tables' reader are imported
# where they are first used: opening an expedition and painting the table needs none of
# them, and importing them was about a twentieth of the table's start-up
# (docs/performance.md). So are ``secrets`` and ``hashlib`` (hmac, OpenSSL's hashes): only
# creating an expedition and changing its procedure use them. So are the events: reading
# the state from a snapshot (status, list) needs none, and their classes were a sixth of
# such a command (docs/performance.md).

Listener = Callable[[Batch, State], None]

#: A snapshot of the state is kept every this many batches (and when an expedition that
#: was played is closed), so resuming replays fewer than this many batches however long
#: the expedition is, even after a crash.
SNAPSHOT_EVERY = 25

#: The table draws the newest turns at once from a snapshot at least this many batches
#: before the last (older ones are read in the background), so one such snapshot is kept
#: besides the newest: a few screens of the log, replayed in milliseconds.
TAIL_BATCHES = 40

#: The history reader gives the older batches in chunks of this many: the table draws each
#: and lets keys and paint through between them (25 are read and drawn in about 12 ms).
HISTORY_CHUNK = 25


class Step(NamedTuple):
    """One batch read back from the log, with the state before it and the state after it."""

    batch: Batch
    before: State
    after: State


@dataclass(frozen=True)
class Newest:
    """The newest batches, from ``first`` to the last, read from a snapshot kept for them."""

    first: int
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Older:
    """A chunk of the batches before the newest ones, in order from the first batch."""

    steps: tuple[Step, ...]
    #: How much of the log is read, this chunk included, in percent.
    percent: int


@dataclass(frozen=True)
class Verdict:
    """The snapshot check: '' when the whole log replays to the state the expedition opened
    with, else what is wrong (a damaged or unreplayable batch, or snapshots that disagree)."""

    problem: str


def check_snapshot(path: Path, replayed: State, expected: State) -> None:
    """The snapshot check: a replay of the log must come to the state the snapshots gave.

    Raises DamagedFile, in the one sentence every reader of the log says, when it does not.
    """
    if replayed != expected:
        raise DamagedFile(
            f"The snapshots inside {path} do not match its log; open the expedition again "
            "to replay it in full. The file was not modified."
        )


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


def _replay(timeline: Timeline, stored: StoredBatch) -> Batch:
    """Apply a batch read from the file; one that cannot apply means the file is damaged."""
    batch = to_batch(stored)
    try:
        timeline.apply(batch)
        return batch
    except ReplayError as error:
        # Only a file made or changed by hand gets here: evolve refuses what cannot happen
        # (undoing a batch that is not the last one, lighting a light that does not exist).
        raise DamagedFile(f"{error}; the file was not modified.") from None


def encode(events: Sequence[ev.Event]) -> list[NewEvent]:
    """Events as the store keeps them: type name, schema version, payload."""
    return [
        NewEvent(type=e.type, version=ev.SCHEMA_VERSIONS[e.type], payload=e.to_payload())
        for e in events
    ]


class Expedition:
    """An open expedition: its file, its procedure and its timeline."""

    def __init__(
        self,
        store: Store,
        procedure: Procedure,
        timeline: Timeline,
        counts: tuple[int, int] | None = None,
    ) -> None:
        self.store = store
        self.original_procedure = procedure
        #: Every procedure the expedition has followed, by digest ("" is the original).
        self.procedures: dict[str, Procedure] = {"": procedure}
        self.timeline = timeline
        self.listeners: list[Listener] = []
        # (batches, events) in the file; a salvaged expedition counts what it could read.
        self.batch_count, self.event_count = counts or store.counts()
        self.snapshot_batch = 0
        #: The last batch the timeline took in (behind ``batch_count`` only after a failure).
        self.applied_batch = self.batch_count
        self._played = False
        # SQLite's data_version when a reader last looked for another process's commits.
        self._seen_version: int | None = None

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
        calendar: str = "",
        first: Sequence[ev.Event] = (),
        expedition_id: str | None = None,
    ) -> Expedition:
        """Create the expedition file with the procedure's text inside and open it.

        ``calendar`` is the text of a calendar file named for it (refused when it is bad).
        ``first`` is batch 1 when it is made elsewhere (an expedition that continues
        another, ``core.campaign.carry``): it starts with its ``ExpeditionStarted``, whose
        name and seed the file takes; else batch 1 is the procedure's start.
        ``expedition_id`` is the file's id (32 hex digits; a new random one by default).
        """
        import secrets

        from delvetui.core.decide import new_seed, start_events

        if first:
            started = first[0]
            assert isinstance(started, ev.ExpeditionStarted)
            seed, title = started.seed, started.name
        else:
            seed = new_seed() if seed is None else seed
            title = name or path.stem
            first = start_events(title, procedure, seed=seed, start=start, calendar=calendar)
        _within_bounds(first)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {
            "name": title,
            "procedure": procedure.id,
            "seed": str(seed),
            "created": (now or _now()).isoformat(timespec="seconds"),
            "id": expedition_id or secrets.token_hex(16),
        }
        store = Store.create(path, meta=meta, procedure_text=procedure.text)
        try:
            store.append("new", (now or _now()).isoformat(timespec="seconds"), encode(first))
        finally:
            store.close()
        return cls.open(path)

    @classmethod
    def open(cls, path: Path, *, write: bool = True, snapshot: bool = False) -> Expedition:
        """Open a saved expedition and replay it.

        With ``snapshot`` the replay starts from the file's latest snapshot, which is fast
        for a long expedition but reads only the batches after it: call ``verify()`` (the
        table screen does, in the background) to check every row and the snapshot itself.
        """
        store = Store.open(path, write=write, quick_check=not snapshot)
        try:
            procedure = load_text(
                store.procedure_text(), source=f"the procedure inside {path}", stored=True
            )
            timeline, after = _resume(store, snapshot)
            changes = _procedure_changes(store)
            # Counted first, and replayed up to that count: a reader's counts then match its
            # state even while another process appends.
            counts = store.counts()
            for stored in store.batches(after=after):
                if stored.seq > counts[0]:
                    break
                _replay(timeline, stored)
        except BaseException:
            store.close()
            raise
        expedition = cls(store, procedure, timeline, counts)
        expedition.procedures.update(changes)
        expedition.snapshot_batch = after
        return expedition

    @classmethod
    def open_for_command(cls, path: Path) -> Expedition:
        """Open for writing as quickly as the file allows, for commands from the command line.

        Resumes from the latest snapshot, which is the verified mark: a snapshot is written
        only by a delvetui that had checked every row before it (replayed it, or written it
        itself). The batches after the snapshot are replayed, every row checked as it is
        read, so nothing this open reads goes unchecked before a write. What it does not
        read (the rows before the snapshot, SQLite's pages away from the end of the log)
        is left to the table's background check and ``delvetui verify``; the argument is in
        docs/reliability.md.
        """
        return cls.open(path, snapshot=True)

    @classmethod
    def open_salvage(cls, path: Path) -> Expedition:
        """Open a damaged expedition read-only with every batch before its damage.

        For a file ``open`` refuses as damaged (cut off, a damaged page, a checksum that does
        not match): the batches that read back whole are replayed in order up to the first
        damaged one, and nothing after it is guessed at. The result is read-only and its
        ``store.readonly_reason`` says how much was saved; the file is never modified. Raises
        what ``open`` raises when not even the procedure can be read.
        """
        store = Store.open(path, write=False, salvage=True)
        try:
            procedure = load_text(
                store.procedure_text(), source=f"the procedure inside {path}", stored=True
            )
            timeline, _ = _resume(store, False)
            saved: list[StoredBatch] = []
            damage: DamagedFile | None = None
            try:
                # One batch at a time, so damage anywhere loses only what comes after it.
                for stored in store.batches(chunk=1):
                    _replay(timeline, stored)
                    saved.append(stored)
            except DamagedFile as error:
                damage = error
            changes: dict[str, Procedure] = {}
            with contextlib.suppress(DamagedFile):
                changes = _procedure_changes(store)
        except BaseException:
            store.close()
            raise
        store.salvaged = tuple(saved)  # what reads the log (exports too) gets these
        batches, events = len(saved), sum(len(b.events) for b in saved)
        one = batches == 1
        if damage:
            saved_text = (
                "The batch before the damage is"
                if one
                else f"The {batches} batches before the damage are"
            )
            store.readonly_reason = f"{damage} {saved_text} shown, read-only."
        else:
            read = (
                "its one batch could be read; it is"
                if one
                else f"all {batches} of its batches could be read; they are"
            )
            store.readonly_reason = (
                f"The expedition file {path} is damaged, but {read} shown read-only. The "
                "file was not modified."
            )
        expedition = cls(store, procedure, timeline, counts=(batches, events))
        expedition.procedures.update(changes)
        return expedition

    def newest(self, count: int | None = None) -> tuple[int, list[tuple[Batch, State]]] | None:
        """The last batches, each with the state before it, without reading the whole log.

        Returns the first batch the list holds and the list: every batch when there are no
        more than ``count`` (default ``TAIL_BATCHES``), else the batches after the newest
        kept snapshot at least ``count`` batches back, replayed from it. None when there is
        no such snapshot (a file saved by an older delvetui): then only a full read gives
        the turn log.

        The replay must arrive at the state the expedition opened with; DamagedFile when
        it does not, or when a batch it reads is damaged.
        """
        count = TAIL_BATCHES if count is None else count
        total = self.batch_count
        timeline: Timeline
        if total <= count:
            timeline, after = Timeline(load=self.load), 0
        else:
            found = self.store.latest_snapshot(upto=total - count)
            restored = (
                snapshot.loads(found[1], program=__version__, batch=found[0]) if found else None
            )
            if found is None or restored is None:
                return None
            state, active, redo, base = restored
            timeline = Timeline.restore(state, active=active, redo=redo, base=base, load=self.load)
            after = found[0]
        pairs: list[tuple[Batch, State]] = []
        for stored in self.store.batches(after=after):
            if stored.seq > total:
                break
            before = timeline.state
            pairs.append((_replay(timeline, stored), before))
        check_snapshot(self.path, timeline.state, self.state)
        return after + 1, pairs

    def history(self, chunk: int = HISTORY_CHUNK) -> Iterator[Newest | Older | Verdict]:
        """The log read back for the table: the newest batches, the older ones, the verdict.

        Yields ``Newest`` first: the newest batches, when a snapshot far enough back lets
        them be read without the rest (see ``newest``), else none. Then the batches before
        them as ``Older`` chunks of ``chunk`` from the first batch, then one ``Verdict``:
        the whole log must replay to the state the expedition has now (``check_snapshot``).
        When the newest batches cannot be read the verdict comes first instead, and the
        chunks after it read the log up to its damage. Each part is read when it is asked
        for (the first before the table's first paint, the rest after it); batches
        committed meanwhile are not part of the history.
        """
        return self._history(self.batch_count, self.state, chunk)

    def _history(
        self, total: int, expected: State, chunk: int
    ) -> Iterator[Newest | Older | Verdict]:
        said = False  # the one verdict was given
        first = total + 1  # the first batch of the newest (past the end: none)
        try:
            found = self.newest()
        except DelveError as error:
            found, said = None, True
            yield Verdict(error.message)
        if found is not None:
            first, pairs = found
            afters = [before for _, before in pairs[1:]] + [self.state]
            newest = (
                Step(b, before, after) for (b, before), after in zip(pairs, afters, strict=True)
            )
            yield Newest(first, tuple(newest))
            if first == 1:
                yield Verdict("")  # every batch was replayed, and checked, for the newest
                return
        elif not said:
            yield Newest(first, ())  # no snapshot far enough back: none are read alone
        timeline = Timeline(load=self.load)
        steps: list[Step] = []
        problem = ""
        try:
            for batch in self.batches():
                if batch.seq > total or batch.seq == first:
                    break
                before = timeline.state
                timeline.apply(batch)  # a batch that cannot apply is named (ReplayError)
                steps.append(Step(batch, before, timeline.state))
                if len(steps) == chunk:
                    yield Older(tuple(steps), batch.seq * 100 // total)
                    steps = []
            # The newest batches were drawn from their snapshot: the replay goes on through
            # them to the state the expedition opened with.
            for batch in self.batches(after=first - 1):
                if batch.seq > total:
                    break
                timeline.apply(batch)
            check_snapshot(self.path, timeline.state, expected)
        except DelveError as error:  # ReplayError, DamagedFile
            problem = error.message
        if steps:
            yield Older(tuple(steps), steps[-1].batch.seq * 100 // total)
        if not said:
            yield Verdict(problem)

    def load(self, seqs: Sequence[int]) -> Iterator[Batch]:
        """The batches numbered ``seqs``, read back from the file (for a timeline's loader).

        Raises ReplayError when one is not in the log, DamagedFile when one is damaged.
        """
        return load_batches(self.store, seqs)

    def batch(self, seq: int) -> Batch:
        """The batch numbered ``seq``, read back from the file."""
        return next(self.load([seq]))

    def verify(self) -> None:
        """Read every row of the file again and check a full replay gives the live state.

        The replay goes through the checks an import does (``core.audit``): every event must
        be one a command could have written where it stands. Raises DamagedFile when a row
        is damaged or holds what no command could have written (nothing is skipped). Uses its own
        read-only connection, so it can run in a worker while the table is in use.
        """
        from delvetui.core.audit import Audit, Impossible

        with Store.open(self.path, write=False) as reader:

            def load(seqs: Sequence[int]) -> Iterator[Batch]:
                return load_batches(reader, seqs)

            audit = Audit(self.original_procedure, self.procedures, load=load)
            in_file = 0
            for stored in reader.batches():
                if stored.seq > self.batch_count:
                    break
                try:
                    audit.take(to_batch(stored))
                except Impossible as error:
                    raise DamagedFile(
                        f"{self.path} holds what no command could have written, at {error}. "
                        "It was made or changed outside delvetui; the file was not modified."
                    ) from None
                in_file = stored.seq
        if in_file == self.batch_count:
            check_snapshot(self.path, audit.state, self.state)

    @classmethod
    def open_named(cls, name: str, *, write: bool = True) -> Expedition:
        """Open a saved expedition by name or path."""
        return cls.open(paths.find_expedition(name), write=write)

    def found_damaged(self, problem: str) -> None:
        """Damage was found after opening (a page, a row, a snapshot that disagrees).

        From now on the expedition is read-only: nothing more is written to the file.
        """
        if self.store.readonly_reason is None:
            self.store.readonly_reason = problem

    def close(self, *, snapshot: bool = True) -> None:
        """Close the file (and give up the writer lock).

        With ``snapshot``, when commands were played since it was opened and since the last
        snapshot, the state is saved as a snapshot first, so the next resume replays
        nothing. Opening and closing without playing writes nothing, and neither does an
        expedition found damaged (it is read-only by then).
        """
        if (
            snapshot
            and self._played
            and not self.readonly
            and self.snapshot_batch < self.applied_batch == self.batch_count
        ):
            with contextlib.suppress(DelveError):
                self._save_snapshot()
        self.store.close()

    def __enter__(self) -> Expedition:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(snapshot=exc[0] is None)

    # Reading --------------------------------------------------------------------------------

    @property
    def procedure(self) -> Procedure:
        """The procedure the expedition follows now (undoing a change goes back)."""
        return self.procedure_at(self.state)

    def procedure_at(self, state: State) -> Procedure:
        """The procedure the expedition followed in a state (the state before a batch)."""
        return procedure_at(state, self.procedures, self.original_procedure)

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

    @property
    def readonly_reason(self) -> str | None:
        """Why the expedition cannot be changed, in a sentence; None when it can."""
        return self.store.readonly_reason

    def meta(self) -> dict[str, str]:
        """The expedition's metadata as saved at creation (name, procedure, seed, created)."""
        return self.store.meta()

    @property
    def expedition_id(self) -> str:
        """The expedition's id: 32 hex digits written at creation (meta ``id``); a file made
        before ids has the first 32 hex digits of sha256 of ``name|created|seed``."""
        meta = self.meta()
        if "id" in meta:
            return meta["id"]
        import hashlib

        key = f"{meta.get('name', '')}|{meta.get('created', '')}|{meta.get('seed', '')}"
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def digest(self) -> str:
        """The checksum of the whole log: sha256 (hex) over every batch row's CRC, then every
        event row's CRC, in order, each written in decimal and a comma. A later expedition
        names its predecessor's log by it."""
        import hashlib

        summed = hashlib.sha256()
        for table in ("batches", "events"):
            for crc in self.store.checksums(table):
                summed.update(b"%d," % crc)
        return summed.hexdigest()

    def procedure_text(self) -> str:
        """The text of the procedure the expedition was started with, verbatim."""
        return self.store.procedure_text()

    def batches(self, after: int = 0) -> Iterator[Batch]:
        """Every batch in the file, in order (undone ones included)."""
        for stored in self.store.batches(after=after):
            yield to_batch(stored)

    def saved(self, after: int = 0) -> Iterator[StoredBatch]:
        """Every batch as saved, in order: with its time, its events as rows (for exports)."""
        return self.store.batches(after=after)

    def last_saved_at(self) -> str | None:
        """When the last command was saved (reads the last batch only); None before any."""
        if self.batch_count < 1:
            return None
        last = next(self.store.batches(after=self.batch_count - 1), None)
        return None if last is None else last.at

    def follow(self) -> list[Batch]:
        """Take in the batches another process committed since this reader last looked.

        For an expedition open read-only while another delvetui writes it (the players'
        view, a second table): each new batch is applied and told to the listeners, as if
        it had been committed here. Cheap when nothing changed: SQLite's ``data_version``
        says whether anyone committed. A salvaged file is never followed, nor one this reader
        has closed (the table's follow timer may fire once more as the table goes).
        """
        if not self.readonly or self.store.salvaged is not None or self.store.closed:
            return []
        version = self.store.data_version()
        if version == self._seen_version:
            return []
        self._seen_version = version
        batches, events = self.store.counts()
        if batches <= self.batch_count:
            return []
        taken: list[Batch] = []
        for stored in self.store.batches(after=self.batch_count):
            if stored.seq > batches:
                break
            batch = _replay(self.timeline, stored)
            if any(isinstance(event, ev.ProcedureChanged) for event in batch.events):
                self.procedures.update(_procedure_changes(self.store))
            self.batch_count = self.applied_batch = batch.seq
            self.event_count += len(batch.events)
            taken.append(batch)
            for listener in list(self.listeners):
                listener(batch, self.timeline.state)
        self.event_count = events
        return taken

    # Changing -------------------------------------------------------------------------------

    def execute(
        self,
        text: str,
        *,
        ask: bool = False,
        ask_inputs: bool = False,
        now: dt.datetime | None = None,
    ) -> Batch:
        """Parse, decide, commit and apply one command; nothing is written on an error.

        ``ask`` and ``ask_inputs`` are ``decide``'s: raise RollNeeded or InputNeeded for
        what the caller can ask the game master for, instead of rolling or refusing.
        """
        from delvetui.core.commands import parse

        self._writable()
        command = parse(text)
        return self.run(command, ask=ask, ask_inputs=ask_inputs, now=now)

    def _writable(self) -> None:
        if self.readonly:
            raise ReadOnlyExpedition(
                self.store.readonly_reason or f"{self.path} is open read-only."
            )

    def run(
        self,
        command: cmd.Command,
        *,
        ask: bool = False,
        ask_inputs: bool = False,
        now: dt.datetime | None = None,
    ) -> Batch:
        """Decide, commit and apply a parsed command."""
        from delvetui.core import commands as cmd
        from delvetui.core.decide import batch_dice, decide

        self._writable()
        if isinstance(command, cmd.AddTables) and not command.contents:
            # The core reads no file: the tables' text is read here, once, and kept in the
            # expedition by the event (the file is never read again).
            from delvetui.procedure import tables_file

            contents = tables_file.read(Path(command.path))
            command = cmd.AddTables(path=command.path, contents=contents, text=command.text)
        moment = now or _now()
        rng = batch_dice(self.state.seed, self.batch_count + 1)
        events = decide(
            self.state,
            self.procedure,
            command,
            rng=rng,
            ask=ask,
            ask_inputs=ask_inputs,
            history=self.timeline.history(),
            today=moment.date().isoformat(),
        )
        text = command.text or type(command).__name__.lower()
        return self._commit(text, events, moment)

    def change_procedure(self, procedure: Procedure, *, now: dt.datetime | None = None) -> Batch:
        """Move the expedition to another procedure (a newer version of its own, usually).

        An explicit, undoable event that carries the new procedure's text, so a replay
        never depends on the procedure files on disk.
        """
        if self.readonly:
            raise ReadOnlyExpedition(
                self.store.readonly_reason or f"{self.path} is open read-only."
            )
        if self.state.ended:
            from delvetui.core.campaign import ended_refusal

            raise CommandError(ended_refusal(self.state))
        digest = ev.digest_of(procedure.text)
        if digest == self.state.procedure_digest or (
            not self.state.procedure_digest and procedure.text == self.original_procedure.text
        ):
            raise CommandError(f"The expedition already follows this {procedure.name}.")
        from delvetui.core.decide import procedure_change

        events = procedure_change(self.state, procedure, digest)
        self.procedures[digest] = procedure
        return self._commit(f"procedure {procedure.id}", events, now or _now())

    def _commit(self, text: str, events: Sequence[ev.Event], moment: dt.datetime) -> Batch:
        _within_bounds(events)
        seq = self.store.append(text, moment.isoformat(timespec="seconds"), encode(events))
        self.batch_count = seq
        self.event_count += len(events)
        batch = Batch(seq=seq, command=text, events=tuple(events))
        state = self.timeline.apply(batch)
        self.applied_batch = seq
        self._played = True
        if seq - self.snapshot_batch >= SNAPSHOT_EVERY:
            self._save_snapshot()
        for listener in list(self.listeners):
            listener(batch, state)
        return batch

    def _save_snapshot(self) -> None:
        timeline = self.timeline
        text = snapshot.dumps(
            timeline.state,
            active=timeline.active,
            redo=timeline.redo,
            base=timeline.base,
            program=__version__,
        )
        # Keep the newest snapshot far enough back for the table's first screen, and every
        # one after it (all of them, until one is far enough back).
        try:
            kept = self.store.snapshot_batches()
        except DelveError:
            kept = []
        older = [seq for seq in kept if seq <= self.batch_count - TAIL_BATCHES]
        try:
            self.store.save_snapshot(self.batch_count, text, keep_from=max(older, default=1))
        except StorageFailed:
            return  # derived data: the log is intact, the next resume just replays more
        self.snapshot_batch = self.batch_count


def _resume(store: Store, use_snapshot: bool) -> tuple[Timeline, int]:
    """A timeline from the latest sound snapshot (and the batch it is after), or a fresh one."""

    def load(seqs: Sequence[int]) -> Iterator[Batch]:
        return load_batches(store, seqs)

    if use_snapshot:
        found = store.latest_snapshot()
        restored = snapshot.loads(found[1], program=__version__, batch=found[0]) if found else None
        if found is not None and restored is not None:
            state, active, redo, base = restored
            timeline = Timeline.restore(state, active=active, redo=redo, base=base, load=load)
            return timeline, found[0]
    return Timeline(load=load), 0


def _procedure_changes(store: Store) -> dict[str, Procedure]:
    """Every procedure the expedition moved to, by digest, read from its events."""
    found: dict[str, Procedure] = {}
    for stored in store.events_of_type("ProcedureChanged"):
        try:
            change = ev.Event.from_payload(stored.type, stored.version, stored.payload)
        except (ValueError, TypeError) as error:
            raise DamagedFile(
                f"Event {stored.seq} of {store.path} cannot be read ({error}); "
                "the file was not modified."
            ) from None
        assert isinstance(change, ev.ProcedureChanged)
        where = f"the procedure {change.procedure_id} inside {store.path}"
        found[change.digest] = load_text(change.text, source=where, stored=True)
    return found


def load_batches(store: Store, seqs: Sequence[int]) -> Iterator[Batch]:
    """The batches numbered ``seqs`` read back from a store; ReplayError for a missing one."""
    for seq in seqs:
        stored = next(store.batches(after=seq - 1), None)
        if stored is None or stored.seq != seq:
            raise ReplayError(f"batch {seq} is not in the log", batch=seq)
        yield to_batch(stored)


def _within_bounds(events: Sequence[ev.Event]) -> None:
    """Refuse a command whose events hold a number past the bound every reader of the
    file holds it to (``core.event_bounds``): such a file would be called made outside
    delvetui by ``verify``, the import and ``new --after``. The procedure's numbers are
    bounded so that no game comes near (docs/procedures.md, "Limits"); this is the last
    word, whatever a procedure and a long game make of them."""
    from delvetui.core.event_bounds import every_number

    for event in events:
        wrong = every_number(event)
        if wrong:
            raise CommandError(
                f"This command would save a {event.type} whose {wrong}: more than an "
                "expedition file holds. Nothing was saved; the procedure's numbers are too "
                "large for this game (set the counter or the track back, or change them)."
            )


def check_pages(path: Path) -> None:
    """SQLite's check of every page of an expedition file, on a connection of its own.

    Safe in a worker thread while the expedition is open elsewhere in the program; raises
    DamagedFile when a page is damaged. The file is only read.
    """
    with Store.open(path, write=False) as reader:
        reader.check_pages()
