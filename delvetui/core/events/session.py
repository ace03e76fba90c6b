"""The table: sessions begun and ended, the game master's notes, undo and redo, and what the
players' screen shows.
"""

from typing import Any

import attrs

from delvetui.core.events.base import Event, event, upcaster

__all__ = [
    "BatchRestored",
    "BatchVoided",
    "Noted",
    "SessionEnded",
    "SessionStarted",
    "ShownToPlayers",
]


@event()
@attrs.frozen(repr=False, eq=False)
class SessionStarted(Event):
    """A session at the table began."""

    number: int
    date: str


@event()
@attrs.frozen(repr=False, eq=False)
class SessionEnded(Event):
    """A session at the table ended."""

    number: int
    date: str


@event()
@attrs.frozen(repr=False, eq=False)
class Noted(Event):
    """The game master wrote a note."""

    text: str


@event(2)
@attrs.frozen(repr=False, eq=False)
class BatchVoided(Event):
    """A command was undone: its batch no longer counts."""

    batch: int
    command: str
    #: The turns the batch took ('turn 5', 'turns 5-6'; '' when none). Added in version 2.
    turns: str = ""


@event(2)
@attrs.frozen(repr=False, eq=False)
class BatchRestored(Event):
    """An undone command was redone: its batch counts again."""

    batch: int
    command: str
    #: The turns the batch took ('turn 5', 'turns 5-6'; '' when none). Added in version 2.
    turns: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class ShownToPlayers(Event):
    """The game master showed (or hid) something on the players' screen: sign, encounter, hp."""

    what: str
    shown: bool


# Upcasters: older payloads as the next version writes them (see ``base.upcaster``).


@upcaster("BatchVoided", 1)
@upcaster("BatchRestored", 1)
def _batch_turns_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 did not name the turns the batch took: the log names the command alone.
    return {"turns": "", **payload}
