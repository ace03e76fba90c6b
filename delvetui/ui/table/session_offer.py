"""The session offer on the table: made once on opening, taken up or put away.

The one owner of the line under the header (``ui/panes/session_bar.py``): what is offered
is ``application.session_offer``'s rule; this shows it, takes it up (``S``), puts it away
(Escape), and withdraws it once a session begins or ends, the expedition ends, or the file
is found damaged.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Protocol

from delvetui.application.session_offer import session_offer
from delvetui.errors import DelveError
from delvetui.ui.panes.session_bar import SessionBar
from delvetui.ui.table.part import Draws, Shown

if TYPE_CHECKING:
    from delvetui.core import commands
    from delvetui.core.state import State
    from delvetui.session import Expedition


class OfferTable(Shown, Draws, Protocol):
    """What the offer needs of the table: the state shown, its bar, its keys."""

    @property
    def readonly(self) -> bool: ...

    def refresh_bindings(self) -> None: ...


class SessionOffer:
    """The offer to start (or end and start) a session, shown in the session bar."""

    def __init__(self, table: OfferTable, expedition: Expedition) -> None:
        self.table = table
        self.expedition = expedition

    @property
    def _bar(self) -> SessionBar:
        return self.table.query_one(SessionBar)

    @property
    def shown(self) -> bool:
        """True while an offer is on the table."""
        return self._bar.offer is not None

    def make(self, key: str) -> None:
        """Offer a session when none is running, or the running one was left after a
        break; ``key`` is the key that takes it up, as shown."""
        bar = self._bar
        if self.table.readonly:
            bar.offer = None
            return
        state = self.table.state
        last_at = self._last_saved_at() if state.in_session else None
        bar.key = key
        bar.offer = session_offer(state, last_at, dt.datetime.now(dt.UTC))

    def _last_saved_at(self) -> str | None:
        """When the last command was saved (reads the last batch only)."""
        try:
            return self.expedition.last_saved_at()
        except DelveError:
            return None  # the history loader reads the same batch and says what is wrong

    def follow(self, was: State, state: State) -> None:
        """A command was committed: a session that began or ended, or an expedition that
        ended (however: ``E``, ``:end``, another delvetui followed), takes the offer away."""
        if state.ended or (state.session, state.in_session) != (was.session, was.in_session):
            self.withdraw()

    def withdraw(self) -> None:
        """Put the offer away (until the expedition is opened again)."""
        bar = self._bar
        if bar.offer is not None:
            bar.offer = None
            self.table.refresh_bindings()

    def take_up(self) -> tuple[commands.Session, ...]:
        """What taking up the offer runs, in order (nothing when none is shown); the offer
        is put away."""
        bar = self._bar
        offer = bar.offer
        if offer is None:
            return ()
        bar.offer = None
        return offer.orders
