"""The campaign in the core: ending an expedition, and the next one continuing it.

Pure: ``problem`` says whether the campaign's events could stand where they do (for the
import's audit), ``carry`` builds the first batch of an expedition that continues another,
from the predecessor's final state and procedure, the new procedure, the downtime and a
seeded ``random.Random``. No file is read here: the application layer opens the
predecessor and hands over what it found.
"""

from __future__ import annotations

import string

from delvetui.core import events as ev
from delvetui.core.state import State
from delvetui.text import MAX_NOTE, quote

#: The longest name of an expedition or a campaign (as ``paths`` takes an expedition's).
MAX_NAME_CHARS = 80

#: The campaign's events (their checks are ``problem``).
EVENTS: tuple[type[ev.Event], ...] = (
    ev.ExpeditionEnded,
    ev.ExpeditionReopened,
    ev.ExpeditionContinued,
    ev.CampaignNamed,
)
#: What a continued expedition's first batch may hold after its link (as ``carry`` writes).
CARRIED: tuple[type[ev.Event], ...] = (
    ev.MemberJoined,
    ev.HpChanged,
    ev.FatigueChanged,
    ev.ConditionGained,
    ev.ConditionTimed,
    ev.TrackChanged,
    ev.ResourceChanged,
    ev.MarchingOrderSet,
    ev.LightAdded,
    ev.LightRealTimeSet,
    ev.DiceRolled,
)
#: Length of an expedition's id (hex digits) and of its log's digest.
ID_LENGTH = 32
DIGEST_LENGTH = 64


def ended_refusal(state: State) -> str:
    """The sentence every command but reopen, undo and redo gets while the expedition ended."""
    words = f" ({state.end_words})" if state.end_words else ""
    return f"The expedition has ended{words}. Type `reopen` to take it up again."


def problem(state: State, event: ev.Event) -> str | None:
    """Why no command could have written one of the campaign's events here, or None."""
    match event:
        case ev.ExpeditionEnded():
            if state.ended:
                return "the expedition has ended already"
            return _long("the words", event.words, MAX_NOTE)
        case ev.ExpeditionReopened():
            return (
                None if state.ended else "the expedition has not ended; there is nothing to reopen"
            )
        case ev.ExpeditionContinued():
            return _first_batch(state) or _continued(state, event)
        case ev.CampaignNamed():
            return _first_batch(state) or _name("campaign", event.campaign)
    return None


def _first_batch(state: State) -> str | None:
    if state.turn or state.party or state.lights or state.campaign or state.predecessor:
        return "a campaign or a predecessor is named only at the start, once"
    return None


def _continued(state: State, event: ev.ExpeditionContinued) -> str | None:
    if not _hex(event.predecessor_id, ID_LENGTH):
        return f"the predecessor's id {quote(event.predecessor_id)} is not {ID_LENGTH} hex digits"
    if not _hex(event.predecessor_digest, DIGEST_LENGTH):
        return f"the predecessor's digest is not {DIGEST_LENGTH} hex digits"
    if event.downtime_minutes < 0 or event.ended_clock < 0:
        return "the downtime and the predecessor's end cannot be negative"
    if event.ended_clock + event.downtime_minutes != state.clock:
        return (
            f"the predecessor ended at minute {event.ended_clock} and the downtime was "
            f"{event.downtime_minutes} minutes, but the expedition starts at {state.clock}"
        )
    for note in event.notes:
        wrong = _long("a note", note, MAX_NOTE)
        if wrong:
            return wrong
    return _name("predecessor", event.predecessor) or _name("campaign", event.campaign)


def _hex(text: str, length: int) -> bool:
    return len(text) == length and all(char in string.hexdigits for char in text)


def _name(kind: str, name: str) -> str | None:
    if not name.strip() or name != name.strip():
        return f"the {kind} name {quote(name)} is empty or has spaces around it"
    return _long(f"the {kind} name", name, MAX_NAME_CHARS)


def _long(what: str, text: str, most: int) -> str | None:
    return f"{what}: longer than {most} characters" if len(text) > most else None
