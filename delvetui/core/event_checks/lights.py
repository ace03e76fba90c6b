"""Checks of the lights' events: a light added, lit, put out, dimmed, burning by the clock or
in real time, handed over, struck, its usage die, its time set and its refuelling."""

from __future__ import annotations

import typing

from delvetui.core import events as ev
from delvetui.core.commands.light_forms import MAX_STACK
from delvetui.core.event_bounds import MAX_NUMBER
from delvetui.core.event_checks.base import (
    At,
    check,
    no_carrier,
    no_light,
    not_usage_die,
    number,
)
from delvetui.procedure.model import Brightness
from delvetui.text import MAX_REAL_SECONDS, MAX_TYPED, quote

_BRIGHTNESS = typing.get_args(Brightness)

# Whole in one line: what they name is there, their numbers are in bounds.
check.register(ev.LightPutOut)(lambda e, at: no_light(at.state, e.id))
check.register(ev.LightDimmed)(lambda e, at: no_light(at.state, e.id))
check.register(ev.LightHandedOver)(
    lambda e, at: no_light(at.state, e.id) or no_carrier(at.state, e.carrier)
)
check.register(ev.LightTimerSet)(
    lambda e, at: no_light(at.state, e.id) or number("minutes", e.minutes, 0, MAX_TYPED * 60)
)
check.register(ev.LightStruck)(
    lambda e, at: no_light(at.state, e.id) or number("strikes", e.strikes, 0, MAX_NUMBER)
)
check.register(ev.UsageDieStepped)(lambda e, at: not_usage_die(e.die) or no_light(at.state, e.id))
check.register(ev.UsageDieSet)(lambda e, at: not_usage_die(e.die) or no_light(at.state, e.id))
# A light flickers as it is lit: it must be there.
check.register(ev.LightFlickered)(lambda e, at: no_light(at.state, e.id))


@check.register(ev.LightAdded)
def _light_added(e: ev.LightAdded, at: At) -> str | None:
    kinds = ", ".join(at.procedure.lights) or "none"
    if e.kind not in at.procedure.lights:
        return f"{quote(e.kind)} is not a light of {at.procedure.name} ({kinds})"
    if at.state.light(e.id) is not None or not e.id.strip():
        return f"the light id {quote(e.id)} is empty or already taken"
    if e.brightness not in _BRIGHTNESS:
        return f"brightness {quote(e.brightness)} is neither bright nor dim"
    return (
        not_usage_die(e.usage_die)
        or number("count", e.count, 1, MAX_STACK)
        or no_carrier(at.state, e.carrier)
        or (number("minutes", e.minutes, 0, MAX_TYPED * 60) if e.minutes is not None else None)
    )


@check.register(ev.LightKindDeclared)
def _light_kind_declared(e: ev.LightKindDeclared, at: At) -> str | None:
    if e.id in at.procedure.lights:
        return f"{quote(e.id)} is already a light of {at.procedure.name}"
    if e.brightness not in _BRIGHTNESS:
        return f"brightness {quote(e.brightness)} is neither bright nor dim"
    given = [n for n in (e.turns, e.minutes, e.usage_die, e.real_minutes) if n is not None]
    if len(given) > 1:
        return "a kind of light burns for one length or by its usage die, not several"
    return (
        not_usage_die(e.usage_die)
        or (number("turns", e.turns, 1, MAX_TYPED) if e.turns is not None else None)
        or (number("minutes", e.minutes, 1, MAX_TYPED * 60) if e.minutes is not None else None)
        or (
            number("real minutes", e.real_minutes, 1, MAX_REAL_SECONDS // 60)
            if e.real_minutes is not None
            else None
        )
    )


@check.register(ev.LightLit)
def _light_lit(e: ev.LightLit, at: At) -> str | None:
    source = next((light for light in at.state.lights if light.id == e.source), None)
    if source is None:
        return no_light(at.state, e.source)
    if source.lit or source.spent:
        return f"{quote(source.id)} is {'already lit' if source.lit else 'used up'}"
    if e.id != e.source and (at.state.light(e.id) is not None or not e.id.strip()):
        return f"the light id {quote(e.id)} is empty or already taken"
    if e.id == e.source and source.count != 1:
        return f"{quote(source.id)} is a stack of {source.count}; one is taken from it to light"
    return no_carrier(at.state, e.carrier)


@check.register(ev.LightsBurned)
def _burned(e: ev.LightsBurned, at: At) -> str | None:
    wrong = number("minutes", e.minutes, 0, MAX_TYPED * 60)
    if wrong:
        return wrong
    for light_id in e.ids:
        missing = no_light(at.state, light_id)
        if missing:
            return missing
    return None


@check.register(ev.LightRealTimeSet)
def _real_time_set(e: ev.LightRealTimeSet, at: At) -> str | None:
    light = next((light for light in at.state.lights if light.id == e.id), None)
    if light is None:
        return no_light(at.state, e.id)
    if light.spent:
        return f"{quote(light.id)} is used up"
    if e.seconds is None:
        return None if light.real_time else f"{quote(light.id)} does not burn in real time"
    return number("seconds", e.seconds, 0, MAX_REAL_SECONDS)


@check.register(ev.RealTimePassed)
def _real_time_passed(e: ev.RealTimePassed, at: At) -> str | None:
    if at.state.realtime_paused:
        return "the real-time clock is paused, so no real time passes"
    burning = {light.id for light in at.state.burning_in_real_time}
    if not e.ids or len(set(e.ids)) != len(e.ids):
        return "it names no light, or one light twice"
    for light_id in e.ids:
        if light_id not in burning:
            return f"{quote(light_id)} is not a lit light burning in real time at this point"
    return number("seconds", e.seconds, 1, MAX_REAL_SECONDS)


@check.register(ev.LightRenewed)
def _renewed(e: ev.LightRenewed, at: At) -> str | None:
    return (
        not_usage_die(e.usage_die) or no_light(at.state, e.id) or number("strikes", e.strikes, 0, 0)
    )
