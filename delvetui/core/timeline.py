"""Which batches count, and the state they add up to: undo and redo as events.

Undo voids the last batch still counting; redo restores the last voided one; any new
command clears what could be redone. The state is always the fold of the counting batches
in order, so the live state and a replay of the file agree by construction: both go
through ``Timeline.apply``.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from delvetui import lazy
from delvetui.core.state import State, TableLight
from delvetui.errors import ReplayError
from delvetui.procedure.model import LightKind, Procedure

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core import evolve
else:
    ev = lazy.module("delvetui.core.events")
    evolve = lazy.module("delvetui.core.evolve")

#: How many recent batches keep the state before them (undo without replay) and their
#: events (redo without reading the file). Older ones are rebuilt through ``load``.
KEEP = 256

#: Reads batches back from the file by number (for deep undo, redo, and command texts).
Loader = Callable[[Sequence[int]], Iterable["Batch"]]


@attrs.frozen
class History:
    """What undo and redo would act on: (batch number, command text) or None."""

    undo: tuple[int, str] | None = None
    redo: tuple[int, str] | None = None
    #: The turns the batch undo (or redo) acts on took: 'turn 5' ('' when none or unknown).
    undo_turns: str = ""
    redo_turns: str = ""


@attrs.frozen
class Batch:
    """One committed command: its number, its text and its events."""

    seq: int
    command: str
    events: tuple[ev.Event, ...]


def undo_target(batch: Batch) -> int | None:
    """The batch an undo batch voids, else None."""
    first = batch.events[0] if batch.events else None
    return first.batch if isinstance(first, ev.BatchVoided) else None


def real_time_batch(batch: Batch) -> bool:
    """True for a batch of the table's real-time clock (real time passed, paused, resumed).

    Real time that passed is a fact like the expedition's start: undo never takes it back,
    so undo goes on acting on the game master's last command.
    """
    first = batch.events[0] if batch.events else None
    return isinstance(first, ev.RealTimePassed | ev.RealTimePaused)


def redo_target(batch: Batch) -> int | None:
    """The batch a redo batch restores, else None."""
    first = batch.events[0] if batch.events else None
    return first.batch if isinstance(first, ev.BatchRestored) else None


def is_undo_or_redo(batch: Batch) -> bool:
    """True for the batch of an undo or a redo: bookkeeping, not something played."""
    return undo_target(batch) is not None or redo_target(batch) is not None


def voiding(batch: Batch) -> Iterator[tuple[int, bool]]:
    """The batch an undo voids ``(batch, True)`` or a redo restores ``(batch, False)``, if any."""
    target = undo_target(batch)
    if target is not None:
        yield target, True
    target = redo_target(batch)
    if target is not None:
        yield target, False


def void(voided: set[int], changes: Iterable[tuple[int, bool]]) -> None:
    """Mark batches undone (True) or redone (False) in ``voided``, in order."""
    for target, undone in changes:
        if undone:
            voided.add(target)
        else:
            voided.discard(target)


def voided_batches(batches: Iterable[Batch]) -> set[int]:
    """The batches that no longer count after every undo and redo among these."""
    voided: set[int] = set()
    for batch in batches:
        void(voided, voiding(batch))
    return voided


def counting(batches: Iterable[Batch]) -> list[Batch]:
    """The batches that count, in order: neither undone nor an undo or redo themselves."""
    every = list(batches)
    voided = voided_batches(every)
    return [b for b in every if b.seq not in voided and not is_undo_or_redo(b)]


def procedure_at(
    state: State, procedures: Mapping[str, Procedure], original: Procedure
) -> Procedure:
    """The procedure followed in a state: the one it moved to by digest, else the original,
    with the kinds of light declared at the table (``light kind``) among its own.

    An expedition can move to another procedure part-way (and an undo moves it back), so
    every batch is read with the procedure of the state before it.
    """
    return with_table_lights(procedures.get(state.procedure_digest, original), state.table_lights)


#: The procedures with kinds of light of the table's, each made once: (the procedure, the
#: kinds) to the procedure that holds them too, the newest last.
_WITH_KINDS: OrderedDict[tuple[int, tuple[TableLight, ...]], tuple[Procedure, Procedure]] = (
    OrderedDict()
)


def with_table_lights(procedure: Procedure, kinds: tuple[TableLight, ...]) -> Procedure:
    """The procedure with these kinds of light declared at the table as its own; the same
    object each time for the same procedure and kinds (a screen compares them by identity),
    and the procedure itself when there are none."""
    if not kinds:
        return procedure
    key = (id(procedure), kinds)
    made = _WITH_KINDS.get(key)
    if made is not None and made[0] is procedure:
        _WITH_KINDS.move_to_end(key)
        return made[1]
    lights = dict(procedure.lights)
    for kind in kinds:
        lights.setdefault(kind.id, _light_kind(kind))
    found = attrs.evolve(procedure, lights=lights)
    _WITH_KINDS[key] = (procedure, found)
    if len(_WITH_KINDS) > 16:
        _WITH_KINDS.popitem(last=False)
    return found


def _light_kind(kind: TableLight) -> LightKind:
    return LightKind(
        label=kind.label,
        brightness="dim" if kind.brightness == "dim" else "bright",
        turns=kind.turns,
        minutes=kind.minutes,
        usage_die=kind.usage_die,
        real_minutes=kind.real_minutes,
        text="A kind of light declared at the table.",
    )


class Timeline:
    """The counting batches, the redo stack and the current state."""

    def __init__(self, load: Loader | None = None) -> None:
        self.state = State()
        self.active: list[int] = []
        self.redo: list[int] = []
        self.base: list[int] = []
        self.commands: dict[int, str] = {}
        self._before: OrderedDict[int, State] = OrderedDict()
        self._events: OrderedDict[int, tuple[ev.Event, ...]] = OrderedDict()
        self._turn_texts: OrderedDict[int, str] = OrderedDict()
        #: The real-time batches (never undone) by number, and for each batch that keeps
        #: the state before it, the last batch that state took in: undoing it takes the
        #: real time that passed since back into the state.
        self._real: OrderedDict[int, tuple[ev.Event, ...]] = OrderedDict()
        self._marks: dict[int, int] = {}
        self._load = load

    @classmethod
    def restore(
        cls,
        state: State,
        *,
        active: list[int],
        redo: list[int],
        base: list[int],
        load: Loader | None = None,
    ) -> Timeline:
        """A timeline resumed from a snapshot instead of a full replay."""
        timeline = cls(load)
        timeline.state = state
        timeline.active = list(active)
        timeline.redo = list(redo)
        timeline.base = list(base)
        return timeline

    def command(self, seq: int) -> str:
        """The command text of a batch (read from the file when not kept)."""
        if seq not in self.commands:
            self.commands[seq] = self._loaded([seq])[0].command
        return self.commands[seq]

    def history(self) -> History:
        """What undo and redo would act on now, with the turns each would take back."""
        undo = (self.active[-1], self.command(self.active[-1])) if self.active else None
        redo = (self.redo[-1], self.command(self.redo[-1])) if self.redo else None
        return History(
            undo=undo,
            redo=redo,
            undo_turns=self._turns(undo[0]) if undo else "",
            redo_turns=self._turns(redo[0]) if redo else "",
        )

    def _turns(self, seq: int) -> str:
        """'turn 5' or 'turns 5-6': the turns a batch took ('' when none)."""
        if seq not in self._turn_texts:
            events = self._events.get(seq)
            if events is None:
                events = self._loaded([seq])[0].events if self._load is not None else ()
            numbers = [e.number for e in events if isinstance(e, ev.TurnStarted)]
            self._turn_texts[seq] = turns_text(numbers)
            while len(self._turn_texts) > KEEP:
                self._turn_texts.popitem(last=False)
        return self._turn_texts[seq]

    def apply(self, batch: Batch) -> State:
        """Take a committed batch into account and return the new state.

        Raises ReplayError naming the batch when it cannot apply (an undo of a batch that is
        not the last one counting, an event that names what is not there); the timeline is
        then as it was before the batch.
        """
        saved = (self.state, list(self.active), list(self.redo), list(self.base))
        try:
            return self._apply(batch)
        except (ReplayError, ValueError, LookupError, TypeError) as error:
            self.state, self.active, self.redo, self.base = saved
            raise ReplayError(
                f"Batch {batch.seq} of the expedition cannot be replayed ({error})",
                batch=batch.seq,
            ) from None

    def _apply(self, batch: Batch) -> State:
        voided = undo_target(batch)
        restored = redo_target(batch)
        if voided is not None:
            self._undo(voided)
        elif restored is not None:
            self._redo(restored)
        elif batch.events and isinstance(batch.events[0], ev.ExpeditionStarted):
            # The expedition's own start is not a command anyone can undo.
            self.state = evolve.fold(self.state, batch.events)
            self.base.append(batch.seq)
        elif real_time_batch(batch):
            self.state = evolve.fold(self.state, batch.events)
            self.base.append(batch.seq)
            self._real[batch.seq] = batch.events
            while len(self._real) > KEEP:
                self._real.popitem(last=False)
        else:
            self._marks[batch.seq] = batch.seq - 1
            self._remember(batch.seq, batch.command, self.state, batch.events)
            self.state = evolve.fold(self.state, batch.events)
            self.active.append(batch.seq)
            for dropped in self.redo:
                self._events.pop(dropped, None)
            self.redo.clear()
        return self.state

    def _remember(self, seq: int, command: str, before: State, events: Sequence[ev.Event]) -> None:
        self.commands[seq] = command
        self._before[seq] = before
        self._events[seq] = tuple(events)
        while len(self._before) > KEEP:
            oldest, _ = self._before.popitem(last=False)
            self._marks.pop(oldest, None)
            # An older command's text is read back from the file when undo reaches it,
            # so a long replay (an import) keeps a bounded number of them.
            self.commands.pop(oldest, None)
        while len(self._events) > KEEP:
            oldest = next(iter(self._events))
            if oldest in self.redo:
                break
            self._events.popitem(last=False)

    def _undo(self, target: int) -> None:
        if not self.active or self.active[-1] != target:
            raise ValueError(f"batch {target} is not the last one counting")
        self.active.pop()
        before = self._before.pop(target, None)
        mark = self._marks.pop(target, target - 1)
        if before is None:
            before = self._rebuild(sorted(self.base + self.active))
        else:
            # Real time that passed after the state was kept still counts.
            later = self.base[bisect.bisect_right(self.base, mark) :]
            for seq in later:
                before = evolve.fold(before, self._real_events(seq))
        self.state = before
        self.redo.append(target)
        if target not in self._events:
            self._events[target] = self._loaded([target])[0].events

    def _redo(self, target: int) -> None:
        if not self.redo or self.redo[-1] != target:
            raise ValueError(f"batch {target} is not the last one undone")
        self.redo.pop()
        events = self._events.get(target)
        if events is None:
            events = self._loaded([target])[0].events
        self._before[target] = self.state
        self._marks[target] = max(self.base + self.active, default=0)
        self.state = evolve.fold(self.state, events)
        self.active.append(target)

    def _real_events(self, seq: int) -> tuple[ev.Event, ...]:
        events = self._real.get(seq)
        return events if events is not None else self._loaded([seq])[0].events

    def _loaded(self, seqs: Sequence[int]) -> list[Batch]:
        if self._load is None:
            raise ValueError("older batches are needed but there is no loader")
        found = list(self._load(seqs))
        if [batch.seq for batch in found] != list(seqs):
            raise ReplayError(f"batches {list(seqs)[:5]} are not all in the log")
        return found

    def _rebuild(self, seqs: Sequence[int]) -> State:
        state = State()
        for batch in self._loaded(seqs):
            state = evolve.fold(state, batch.events)
        return state


def turns_text(numbers: Sequence[int]) -> str:
    """Turn numbers as 'turn 5' or 'turns 5-6'."""
    if not numbers:
        return ""
    if len(numbers) == 1:
        return f"turn {numbers[0]}"
    return f"turns {numbers[0]}-{numbers[-1]}"


def replay(batches: Iterable[Batch], load: Loader | None = None) -> Timeline:
    """A timeline rebuilt from every batch of a file, in order."""
    timeline = Timeline(load)
    for batch in batches:
        timeline.apply(batch)
    return timeline
