"""The session offer: whether an evening at the table seems to begin, and what to offer.

When the table opens an expedition with no session running, it offers to start the next
one; when a session is running but nothing was done for longer than a break, it offers to
end that one and start the next. Pure: the state, when the last command was saved and the
time now in, an offer (or none) out; the table's session bar (``ui/panes/session_bar.py``)
shows it, and ``ui/table/session_offer.py`` keeps it.
"""

from __future__ import annotations

import datetime as dt

import attrs

from delvetui.core import commands
from delvetui.core.state import State

#: A session still running after this long without a command was left open by mistake.
BREAK = dt.timedelta(hours=6)


@attrs.frozen
class Offer:
    """The session to start, and the running one to end first (after a break)."""

    start: int
    end: int | None = None
    idle: dt.timedelta = dt.timedelta(0)

    @property
    def orders(self) -> tuple[commands.Session, ...]:
        """What taking up the offer runs, in order."""
        if self.end is None:
            return (commands.Session(start=True),)
        return (commands.Session(start=False), commands.Session(start=True))

    @property
    def commands(self) -> tuple[str, ...]:
        """The same as the lines of the command language."""
        return tuple(commands.spoken(order) for order in self.orders)

    def words(self) -> list[tuple[str, str]]:
        """What is the case and what the key does, longest first (the first that fits)."""
        if self.end is None:
            return [("No session is running.", f"start session {self.start}")]
        span = _span(self.idle)
        does = f"end it and start session {self.start}"
        return [
            (f"Session {self.end} is still running; the last command was {span} ago.", does),
            (f"Session {self.end} idle for {span}.", does),
            (f"Session {self.end} idle.", f"end it, start {self.start}"),
        ]


def session_offer(state: State, last_at: str | None, now: dt.datetime) -> Offer | None:
    """The offer to make on opening, or None.

    ``last_at`` is when the last command was saved (the batch's ISO time); ``now`` is aware.
    """
    if state.ended:
        return None  # an ended expedition takes no session until it is reopened
    if not state.in_session:
        return Offer(start=state.session + 1)
    if last_at is None:
        return None
    try:
        at = dt.datetime.fromisoformat(last_at)
    except ValueError:
        return None
    idle = now - (at if at.tzinfo is not None else at.astimezone())
    if idle < BREAK:
        return None
    return Offer(start=state.session + 1, end=state.session, idle=idle)


def _span(idle: dt.timedelta) -> str:
    hours = int(idle.total_seconds() // 3600)
    if hours < 48:
        return f"{hours} hours"
    return f"{hours // 24} days"
