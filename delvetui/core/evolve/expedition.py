"""The expedition as a whole: its start, the procedure it follows, its calendar, its end and
reopening, and the campaign and predecessor it names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import rule
from delvetui.core.state import State

#: Events that set a few fields of the state to their own: the calendar and the campaign.
_SETS: dict[type[ev.Event], Callable[[Any], dict[str, Any]]] = {
    ev.CalendarSet: lambda e: {"calendar": e.text},
    ev.ExpeditionEnded: lambda e: {"ended": True, "end_words": e.words},
    ev.ExpeditionReopened: lambda e: {"ended": False, "end_words": ""},
    ev.ExpeditionContinued: lambda e: {"campaign": e.campaign, "predecessor": e.predecessor},
    ev.CampaignNamed: lambda e: {"campaign": e.campaign},
}
for _set, _fields in _SETS.items():
    rule.register(_set)(lambda event, state, f=_fields: attrs.evolve(state, **f(event)))


@rule.register
def _(event: ev.ExpeditionStarted, state: State) -> State:
    return attrs.evolve(
        state,
        name=event.name,
        procedure_id=event.procedure_id,
        seed=event.seed,
        start_clock=event.clock,
        clock=event.clock,
        turn_type=event.turn_type,
    )


@rule.register
def _(event: ev.ProcedureChanged, state: State) -> State:
    return attrs.evolve(state, procedure_id=event.procedure_id, procedure_digest=event.digest)
