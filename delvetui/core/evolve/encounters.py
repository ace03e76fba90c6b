"""Encounters and the adventure: an encounter met or described, a sign that foretells, the
adventure's own tables carried and an area entered.
"""

from __future__ import annotations

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import rule
from delvetui.core.evolve.rooms import with_tables_rooms
from delvetui.core.state import Encounter, State

#: What the state remembers of a sign that foretells a creature nobody named.
UNNAMED_CREATURE = "the creature the sign foretold"


@rule.register
def _(event: ev.EncounterBegan, state: State) -> State:
    text = event.creature or event.text
    if event.appearing:
        text = f"{event.appearing} × {text}"
    if event.reaction:
        text = f"{text}, {event.reaction}"
    met = Encounter(
        text=event.text,
        creature=event.creature,
        appearing=event.appearing,
        distance=event.distance,
        reaction=event.reaction,
        area=event.area,
        turn=state.turn + 1 if state.in_turn else state.turn,
        day=state.day,
        clock=state.clock_text,
        players=event.players,
    )
    return attrs.evolve(
        state, encounter=text, encounter_distance=event.distance, sign=None, last_encounter=met
    )


@rule.register
def _(event: ev.EncounterDescribed, state: State) -> State:
    return attrs.evolve(
        state,
        encounter=event.creature or state.encounter,
        encounter_distance=event.distance or state.encounter_distance,
        last_encounter=None
        if state.last_encounter is None
        else attrs.evolve(
            state.last_encounter,
            creature=event.creature or state.last_encounter.creature,
            distance=event.distance or state.last_encounter.distance,
        ),
    )


@rule.register
def _(event: ev.SignFound, state: State) -> State:
    if not event.foretells:
        return attrs.evolve(state, sign_found=event.text)
    return attrs.evolve(state, sign=event.creature or UNNAMED_CREATURE)


@rule.register
def _(event: ev.TablesAdded, state: State) -> State:
    from delvetui.procedure.adventure import load_text

    kept = tuple(pair for pair in state.adventures if pair[0] != event.id)
    found = load_text(event.text)
    brief = (event.id, found.name, tuple((a, area.label) for a, area in found.areas.items()))
    briefs = tuple(b for b in state.tables_brief if b[0] != event.id)
    state = attrs.evolve(
        state, adventures=(*kept, (event.id, event.text)), tables_brief=(*briefs, brief)
    )
    return with_tables_rooms(state, event.id, event.text)


@rule.register
def _(event: ev.AreaEntered, state: State) -> State:
    return attrs.evolve(state, area=event.area)
