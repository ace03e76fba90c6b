"""Lights: added (numbered by kind), lit (one taken from a stack), put out, dimmed, burning
by the clock or in real time, handed over, struck, their usage dice and their refuelling.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import light_of, rule, unchanged
from delvetui.core.state import KEEP_SPENT, Light, State, TableLight, pairs
from delvetui.procedure.model import USAGE_DICE

# What these change shows elsewhere (the log, the table), not in the state.
rule.register(ev.LightFlickered)(unchanged)


def _numbered(state: State, light_id: str, kind: str) -> State:
    """Remember the light's number so the next light of its kind gets a new one."""
    suffix = light_id[len(kind) :]
    if not light_id.startswith(kind) or not suffix.isdigit():
        return state
    numbers = dict(state.light_numbers)
    numbers[kind] = max(numbers.get(kind, 0), int(suffix))
    return attrs.evolve(state, light_numbers=pairs(numbers))


def _prune_spent(state: State) -> State:
    spent = [light.id for light in state.lights if light.spent and not light.lit]
    if len(spent) <= KEEP_SPENT:
        return state
    gone = set(spent[: len(spent) - KEEP_SPENT])
    return attrs.evolve(state, lights=tuple(x for x in state.lights if x.id not in gone))


@rule.register
def _(event: ev.LightAdded, state: State) -> State:
    light = Light(
        id=event.id,
        kind=event.kind,
        carrier=event.carrier,
        brightness=event.brightness,
        minutes=event.minutes,
        count=event.count,
        usage_die=event.usage_die,
    )
    return _numbered(attrs.evolve(state, lights=(*state.lights, light)), event.id, event.kind)


@rule.register
def _(event: ev.LightKindDeclared, state: State) -> State:
    kind = TableLight(
        id=event.id,
        label=event.label,
        brightness=event.brightness,
        turns=event.turns,
        minutes=event.minutes,
        usage_die=event.usage_die,
        real_minutes=event.real_minutes,
    )
    kept = tuple(found for found in state.table_lights if found.id != event.id)
    return attrs.evolve(state, table_lights=(*kept, kind))


@rule.register
def _(event: ev.LightLit, state: State) -> State:
    source = light_of(state, event.source)
    carrier = event.carrier if event.carrier is not None else source.carrier
    if event.id == event.source:
        return state.with_light(
            attrs.evolve(source, lit=True, carrier=carrier, lit_turn=state.turn)
        )
    lit = attrs.evolve(source, id=event.id, lit=True, count=1, carrier=carrier, lit_turn=state.turn)
    state = state.with_light(attrs.evolve(source, count=source.count - 1))
    lights = tuple(light for light in state.lights if light.count > 0)
    return _numbered(attrs.evolve(state, lights=(*lights, lit)), event.id, source.kind)


@rule.register
def _(event: ev.LightPutOut, state: State) -> State:
    light = light_of(state, event.id)
    state = state.with_light(attrs.evolve(light, lit=False, spent=event.spent or light.spent))
    return _prune_spent(state) if event.spent else state


@rule.register
def _(event: ev.LightDimmed, state: State) -> State:
    return state.with_light(attrs.evolve(light_of(state, event.id), dimmed=True))


@rule.register
def _(event: ev.LightsBurned, state: State) -> State:
    return _count_down(state, event.ids, "minutes", event.minutes)


@rule.register
def _(event: ev.LightTimerSet, state: State) -> State:
    light = light_of(state, event.id)
    return state.with_light(attrs.evolve(light, minutes=event.minutes, spent=False))


@rule.register
def _(event: ev.LightRealTimeSet, state: State) -> State:
    light = light_of(state, event.id)
    return state.with_light(attrs.evolve(light, real_seconds=event.seconds))


@rule.register
def _(event: ev.RealTimePassed, state: State) -> State:
    return _count_down(state, event.ids, "real_seconds", event.seconds)


@rule.register
def _(event: ev.LightHandedOver, state: State) -> State:
    return state.with_light(attrs.evolve(light_of(state, event.id), carrier=event.carrier))


@rule.register
def _(event: ev.LightStruck, state: State) -> State:
    return state.with_light(attrs.evolve(light_of(state, event.id), strikes=event.strikes))


@rule.register
def _(event: ev.UsageDieStepped, state: State) -> State:
    return state.with_light(attrs.evolve(light_of(state, event.id), usage_die=event.die))


@rule.register
def _(event: ev.UsageDieSet, state: State) -> State:
    light = light_of(state, event.id)
    return state.with_light(attrs.evolve(light, usage_die=event.die, spent=False))


def step_usage_die(die: int) -> int | None:
    """The next smaller usage die down the ladder (``USAGE_DICE``), or None when spent."""
    smaller = [size for size in USAGE_DICE if size < die]
    return smaller[0] if smaller else None


def _count_down(state: State, ids: Sequence[str], field: str, amount: int) -> State:
    """These lights' clock (turn minutes or real seconds) less an amount, never below 0."""
    counted = set(ids)
    lights = tuple(
        attrs.evolve(light, **{field: max(0, left - amount)})
        if light.id in counted and (left := getattr(light, field)) is not None
        else light
        for light in state.lights
    )
    return attrs.evolve(state, lights=lights)


@rule.register
def _(event: ev.LightRenewed, state: State) -> State:
    light = light_of(state, event.id)
    renewed = attrs.evolve(light, usage_die=event.usage_die, strikes=event.strikes, spent=False)
    return state.with_light(renewed)
