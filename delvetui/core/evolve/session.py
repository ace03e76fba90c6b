"""The table: sessions begun and ended, and what the players' screen shows."""

from __future__ import annotations

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import rule, unchanged
from delvetui.core.state import State

# What these change shows elsewhere (the log, the table), not in the state.
rule.register(ev.Noted)(unchanged)
rule.register(ev.BatchVoided)(unchanged)
rule.register(ev.BatchRestored)(unchanged)


@rule.register
def _(event: ev.SessionStarted, state: State) -> State:
    return attrs.evolve(state, session=event.number, in_session=True)


@rule.register
def _(event: ev.SessionEnded, state: State) -> State:
    return attrs.evolve(state, in_session=False)


@rule.register
def _(event: ev.ShownToPlayers, state: State) -> State:
    shown = [what for what in state.shown if what != event.what]
    if event.shown:
        shown.append(event.what)
    return attrs.evolve(state, shown=tuple(sorted(shown)))
