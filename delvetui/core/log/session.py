"""The words of the table's events: sessions, notes, undo and redo, the players' screen."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.log.words import Said, words
from delvetui.core.state import State
from delvetui.procedure.model import Procedure


@words.register
def _(event: ev.Noted, procedure: Procedure, state: State) -> Said:
    return "note", f"Note: {event.text}"


@words.register
def _(event: ev.BatchVoided, procedure: Procedure, state: State) -> Said:
    if event.turns:
        return "undo", f"Undone: {event.turns} (the command {event.command})."
    return "undo", f"Undone: the command {event.command}."


@words.register
def _(event: ev.BatchRestored, procedure: Procedure, state: State) -> Said:
    if event.turns:
        return "undo", f"Redone: {event.turns} (the command {event.command})."
    return "undo", f"Redone: the command {event.command}."


@words.register
def _(event: ev.SessionStarted, procedure: Procedure, state: State) -> Said:
    return "session", f"Session {event.number} begins ({event.date})."


@words.register
def _(event: ev.SessionEnded, procedure: Procedure, state: State) -> Said:
    return "session", f"Session {event.number} ends ({event.date})."


@words.register
def _(event: ev.ShownToPlayers, procedure: Procedure, state: State) -> Said:
    what = {"hp": "the party's hit points"}.get(event.what, f"the {event.what}")
    if event.shown:
        return "info", f"The players' screen now shows {what}."
    return "info", f"The players' screen no longer shows {what}."
