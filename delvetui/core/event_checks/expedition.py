"""Checks of the expedition's events: its start, the procedure it moves to, its calendar, its
end and reopening, and the campaign it belongs to (the predecessor it continues)."""

from __future__ import annotations

import string

from delvetui.core import calendar
from delvetui.core import events as ev
from delvetui.core.decide import MAX_SEED
from delvetui.core.event_bounds import MAX_NUMBER
from delvetui.core.event_checks.base import At, check, number
from delvetui.core.state import State
from delvetui.text import MAX_EXPEDITION_NAME, MAX_NOTE, quote

#: Length of an expedition's id (hex digits) and of its log's digest.
ID_LENGTH = 32
DIGEST_LENGTH = 64

check.register(ev.CalendarSet)(lambda e, at: calendar.text_problem(e.text))


@check.register(ev.ExpeditionStarted)
def _started(e: ev.ExpeditionStarted, at: At) -> str | None:
    if not e.name.strip():
        return "the expedition has no name"
    if e.procedure_id != at.procedure.id:
        return f"the procedure {quote(e.procedure_id)} is not the one the file holds"
    if e.turn_type != at.procedure.default_turn_type:
        return f"{quote(e.turn_type)} is not the turn type {at.procedure.name} starts in"
    # A campaign's day numbers on: an expedition may start on any day (``--day``, ``--after``).
    return number("seed", e.seed, 0, MAX_SEED) or number("clock", e.clock, 0, MAX_NUMBER)


@check.register(ev.ProcedureChanged)
def _procedure_changed(e: ev.ProcedureChanged, at: At) -> str | None:
    digest = ev.digest_of(e.text)
    if digest != e.digest:
        return f"its digest {quote(e.digest)} does not name its procedure text ({digest})"
    moved_to = at.procedures.get(e.digest)
    if moved_to is None:
        return "its procedure text was not checked"
    if moved_to.id != e.procedure_id or moved_to.name != e.procedure_name:
        return (
            f"it names the procedure {quote(e.procedure_id)} but its text is "
            f"{quote(moved_to.id)} ({quote(moved_to.name)})"
        )
    for kind in sorted({light.kind for light in at.state.lights} - set(moved_to.lights)):
        return f"{moved_to.name} has no light kind {quote(kind)}, which the inventory holds"
    if moved_to.turn_types and at.state.turn_type not in moved_to.turn_types:
        return f"{moved_to.name} has no turn type {quote(at.state.turn_type)}, the party's"
    return None


@check.register(ev.ExpeditionEnded)
def _ended(e: ev.ExpeditionEnded, at: At) -> str | None:
    if at.state.ended:
        return "the expedition has ended already"
    return _long("the words", e.words, MAX_NOTE)


@check.register(ev.ExpeditionReopened)
def _reopened(e: ev.ExpeditionReopened, at: At) -> str | None:
    return None if at.state.ended else "the expedition has not ended; there is nothing to reopen"


@check.register(ev.ExpeditionContinued)
def _continued(e: ev.ExpeditionContinued, at: At) -> str | None:
    state = at.state
    first = _first_batch(state)
    if first is not None:
        return first
    if not _hex(e.predecessor_id, ID_LENGTH):
        return f"the predecessor's id {quote(e.predecessor_id)} is not {ID_LENGTH} hex digits"
    if not _hex(e.predecessor_digest, DIGEST_LENGTH):
        return f"the predecessor's digest is not {DIGEST_LENGTH} hex digits"
    if e.downtime_minutes < 0 or e.ended_clock < 0:
        return "the downtime and the predecessor's end cannot be negative"
    if e.ended_clock + e.downtime_minutes != state.clock:
        return (
            f"the predecessor ended at minute {e.ended_clock} and the downtime was "
            f"{e.downtime_minutes} minutes, but the expedition starts at {state.clock}"
        )
    for note in e.notes:
        wrong = _long("a note", note, MAX_NOTE)
        if wrong:
            return wrong
    return _name("predecessor", e.predecessor) or _name("campaign", e.campaign)


@check.register(ev.CampaignNamed)
def _campaign_named(e: ev.CampaignNamed, at: At) -> str | None:
    return _first_batch(at.state) or _name("campaign", e.campaign)


def _first_batch(state: State) -> str | None:
    if state.turn or state.party or state.lights or state.campaign or state.predecessor:
        return "a campaign or a predecessor is named only at the start, once"
    return None


def _hex(text: str, length: int) -> bool:
    return len(text) == length and all(char in string.hexdigits for char in text)


def _name(kind: str, name: str) -> str | None:
    if not name.strip() or name != name.strip():
        return f"the {kind} name {quote(name)} is empty or has spaces around it"
    return _long(f"the {kind} name", name, MAX_EXPEDITION_NAME)


def _long(what: str, text: str, most: int) -> str | None:
    return f"{what}: longer than {most} characters" if len(text) > most else None
