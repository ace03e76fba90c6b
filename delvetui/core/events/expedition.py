"""The expedition as a whole: its start, the procedure and the calendar it follows, its end
and its reopening, and the campaign it belongs to (the expedition it continues).
"""

import attrs

from delvetui.core.events.base import Event, event, strings

__all__ = [
    "CalendarSet",
    "CampaignNamed",
    "ExpeditionContinued",
    "ExpeditionEnded",
    "ExpeditionReopened",
    "ExpeditionStarted",
    "ProcedureChanged",
    "digest_of",
]


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionStarted(Event):
    """A new expedition began with this procedure, seed and start time."""

    name: str
    procedure_id: str
    procedure_name: str
    seed: int
    clock: int
    turn_type: str


@event()
@attrs.frozen(repr=False, eq=False)
class ProcedureChanged(Event):
    """The expedition moved to another version of its procedure (or another procedure).

    Carries the new procedure's full text, so the file alone replays it; ``digest``
    names that text.
    """

    procedure_id: str
    procedure_name: str
    digest: str
    text: str


@event()
@attrs.frozen(repr=False, eq=False)
class CalendarSet(Event):
    """A calendar was named for this expedition (``new --calendar FILE``, or carried from
    the one before): the whole text of its ``[calendar]`` table, so the file is never read
    again. It stands in place of the procedure's own calendar; it comes in batch 1."""

    text: str


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionEnded(Event):
    """The game master ended the expedition ("the party is back in town"): from now on it
    takes no command but ``reopen``, ``undo`` and ``redo``."""

    words: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionReopened(Event):
    """The game master took an ended expedition up again."""


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionContinued(Event):
    """This expedition continues another (its predecessor): in batch 1, right after the start.

    ``predecessor_id`` and ``predecessor_digest`` name the predecessor's file and its log
    when this one was started from it; ``ended_clock`` is its clock at its end (minutes
    since day 1 began) and ``downtime_minutes`` the time from then to this start.
    ``notes`` say what did not carry over. The carried party, lights and supplies follow
    as events of their own, so a replay never reads the predecessor.
    """

    predecessor: str
    predecessor_id: str
    predecessor_digest: str
    campaign: str
    ended_clock: int
    downtime_minutes: int
    notes: tuple[str, ...] = attrs.field(default=(), converter=strings)


@event()
@attrs.frozen(repr=False, eq=False)
class CampaignNamed(Event):
    """The first expedition of a chain was started in a named campaign (batch 1)."""

    campaign: str


def digest_of(text: str) -> str:
    """The short digest a ProcedureChanged event names its procedure's text by."""
    import hashlib  # OpenSSL's hashes: only moving to another procedure needs them

    return hashlib.sha256(text.encode()).hexdigest()[:12]
