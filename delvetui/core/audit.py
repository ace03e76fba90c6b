"""What a command could have written: the checks a log from outside must pass.

A command is checked before it becomes events: the party member must exist, the die shows
a face it has, the light is of a kind the procedure names. A file handed to the game master
(an export, a copied expedition) skips all of that, so ``Audit`` replays such a log the way
opening it would and asks of every event whether a command could have written it, in the
state it applies to, under the procedure followed then. The first that could not is refused
with a sentence naming its batch and event. One rule: if ``act`` could not have written it,
the log is refused. The check of each event is in ``core.event_checks``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from delvetui.core import events as ev
from delvetui.core.campaign import CARRIED
from delvetui.core.event_checks import problem
from delvetui.core.events import digest_of
from delvetui.core.evolve import evolve
from delvetui.core.state import State
from delvetui.core.timeline import Batch, Loader, Timeline, procedure_at, real_time_batch
from delvetui.errors import DelveError, ReplayError
from delvetui.procedure.model import Procedure
from delvetui.text import quote

__all__ = ["Audit", "Impossible", "digest_of", "problem"]


class Impossible(DelveError):
    """An event no command could have written where it stands in the log."""

    def __init__(self, batch: int, event: int | None, what: str, why: str) -> None:
        where = f"batch {batch}" + (f", event {event} ({what})" if event is not None else "")
        super().__init__(f"{where}: {why}")
        self.batch = batch
        self.event = event
        self.what = what
        self.why = why


class Audit:
    """Replays a log batch by batch, refusing the first event no command could have written.

    ``procedures`` maps each digest a ProcedureChanged names to its loaded procedure (the
    caller loads them, so a broken procedure text is reported as such, not here).
    """

    def __init__(
        self,
        original: Procedure,
        procedures: Mapping[str, Procedure] | None = None,
        *,
        load: Loader | None = None,
    ) -> None:
        self.original = original
        self.procedures = dict(procedures or {})
        self.timeline = Timeline(load)

    @property
    def state(self) -> State:
        """The state of the batches taken so far."""
        return self.timeline.state

    def procedure(self, state: State) -> Procedure:
        """The procedure followed in a state (with the kinds of light declared at the table)."""
        return procedure_at(state, self.procedures, self.original)

    def take(self, batch: Batch) -> State:
        """Check one batch against the state so far, then apply it; raise Impossible."""
        self._check_batch(batch)
        state = self.timeline.state
        if not _is_undo_or_redo(batch):
            for number, event in enumerate(batch.events, start=1):
                why = problem(state, self.procedure(state), event, self.procedures)
                if why is not None:
                    raise Impossible(batch.seq, number, event.type, why)
                try:
                    state = evolve(state, event)
                except (ReplayError, ValueError, LookupError, TypeError, ArithmeticError) as e:
                    raise Impossible(batch.seq, number, event.type, f"it cannot apply ({e})") from e
        try:
            return self.timeline.apply(batch)
        except (ReplayError, ValueError, LookupError, TypeError, ArithmeticError) as error:
            raise Impossible(batch.seq, None, "", f"it cannot be replayed ({error})") from error

    def take_all(self, batches: Iterable[Batch]) -> State:
        """Check and apply every batch in order."""
        for batch in batches:
            self.take(batch)
        return self.timeline.state

    def _check_batch(self, batch: Batch) -> None:
        events = batch.events
        for number, event in enumerate(events, start=1):
            if isinstance(event, ev.ExpeditionStarted) and (batch.seq != 1 or number != 1):
                raise Impossible(
                    batch.seq,
                    number,
                    event.type,
                    "an expedition starts once, with the first event of batch 1",
                )
            if isinstance(event, ev.ExpeditionContinued | ev.CampaignNamed) and (
                batch.seq != 1 or number != 2
            ):
                raise Impossible(
                    batch.seq, number, event.type, "it comes right after the expedition's start"
                )
            if isinstance(event, ev.CalendarSet) and batch.seq != 1:
                raise Impossible(
                    batch.seq, number, event.type, "a calendar is named as the expedition starts"
                )
            if isinstance(event, ev.BatchVoided | ev.BatchRestored) and len(events) != 1:
                raise Impossible(
                    batch.seq, number, event.type, "an undo or redo is a batch of its own"
                )
        _check_real_time_batch(batch)
        if batch.seq == 1:
            if not events or not isinstance(events[0], ev.ExpeditionStarted):
                raise Impossible(1, None, "", "the first batch does not start the expedition")
            started = events[0]
            assert isinstance(started, ev.ExpeditionStarted)
            if started.procedure_id != self.original.id:
                raise Impossible(
                    1,
                    1,
                    started.type,
                    f"it starts with the procedure {quote(started.procedure_id)} but the "
                    f"file holds {quote(self.original.id)}",
                )
            # A continued expedition's first batch also holds what it carried (core.campaign).
            carried = len(events) > 1 and isinstance(events[1], ev.ExpeditionContinued)
            for number, event in enumerate(events[1:], start=2):
                party_stock = isinstance(event, ev.ResourceChanged) and not event.name
                if carried and isinstance(event, CARRIED):
                    continue
                opening = (
                    ev.CounterChanged | ev.CalendarSet | ev.CampaignNamed | ev.ExpeditionContinued
                )
                if not isinstance(event, opening) and not party_stock:
                    raise Impossible(
                        1,
                        number,
                        event.type,
                        "the first batch holds only the start, counters, the party's stock "
                        "and the calendar, and what a continued expedition carried",
                    )


def _check_real_time_batch(batch: Batch) -> None:
    """Real time passing, and the clock pausing, come in batches of the clock's own.

    Such a batch is never undone, so it may hold only what real time does: the time that
    passed, the lights it put out, and at most one pause or resume, last.
    """
    events = batch.events
    real = real_time_batch(batch)
    for number, event in enumerate(events, start=1):
        if isinstance(event, ev.RealTimePassed | ev.RealTimePaused) and not real:
            raise Impossible(
                batch.seq, number, event.type, "real time passes in a batch of its own"
            )
        if not real:
            continue
        if isinstance(event, ev.RealTimePaused) and number != len(events):
            raise Impossible(batch.seq, number, event.type, "the clock pauses or resumes last")
        if not isinstance(event, ev.RealTimePassed | ev.RealTimePaused | ev.LightPutOut):
            raise Impossible(
                batch.seq, number, event.type, "a batch of real time holds only what time does"
            )


def _is_undo_or_redo(batch: Batch) -> bool:
    return bool(batch.events) and isinstance(batch.events[0], ev.BatchVoided | ev.BatchRestored)
