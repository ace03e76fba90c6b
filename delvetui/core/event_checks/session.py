"""Checks of the table's events: sessions begun and ended, the game master's notes, undo and
redo, what the players' screen shows."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.commands.types import PLAYERS_SHOW
from delvetui.core.event_checks.base import At, check, nothing, one_of
from delvetui.text import MAX_NOTE

check.register(ev.ShownToPlayers)(lambda e, at: one_of("the players' screen", e.what, PLAYERS_SHOW))
# Undo and redo never come here: the timeline checks them (core.audit).
check.register(ev.BatchVoided)(nothing)
check.register(ev.BatchRestored)(nothing)


@check.register(ev.Noted)
def _noted(e: ev.Noted, at: At) -> str | None:
    if len(e.text) > MAX_NOTE:
        return f"the note is {len(e.text):,} characters long; a note holds at most {MAX_NOTE:,}"
    return None


@check.register(ev.SessionStarted)
def _session_started(e: ev.SessionStarted, at: At) -> str | None:
    if at.state.in_session:
        return f"session {at.state.session} is still running"
    if e.number != at.state.session + 1:
        return (
            f"session {e.number} follows session {at.state.session}; sessions go up one at a time"
        )
    return None


@check.register(ev.SessionEnded)
def _session_ended(e: ev.SessionEnded, at: At) -> str | None:
    if not at.state.in_session or e.number != at.state.session:
        return f"session {e.number} is not running"
    return None
