"""Checks of the encounters' events and the adventure's: an encounter met or described, a
sign found, the adventure's own tables carried and an area entered (``core.areas`` says
what is sound of the tables)."""

from __future__ import annotations

from delvetui.core import areas
from delvetui.core import events as ev
from delvetui.core.event_checks.base import At, check, nothing, number
from delvetui.text import MAX_PURPOSE, MAX_TYPED

check.register(ev.TablesAdded)(lambda e, at: areas.tables_problem(at.state, e.id, e.name, e.text))
check.register(ev.AreaEntered)(lambda e, at: areas.area_problem(at.state, e.area))
check.register(ev.EncounterBegan)(
    lambda e, at: (
        areas.met_problem(at.state, e.area) or number("appearing", e.appearing, 0, MAX_TYPED)
    )
)
# A sign is free words, checked for its bounds alone.
check.register(ev.SignFound)(nothing)


@check.register(ev.EncounterDescribed)
def _encounter_described(e: ev.EncounterDescribed, at: At) -> str | None:
    if at.state.encounter is None:
        return "there is no encounter this turn to describe"
    if not e.creature and not e.distance:
        return "it says neither what the encounter is nor how far away"
    if max(len(e.creature), len(e.distance)) > MAX_PURPOSE:
        return f"it is longer than {MAX_PURPOSE} characters"
    return None
