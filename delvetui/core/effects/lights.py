"""Effects on the lit lights: out, blown out, dimmed, shortened, usage dice, strikes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.effects.registry import kind
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core import evolve
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")
    evolve = lazy.module("delvetui.core.evolve")


@kind("lights-out")
def lights_out(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `lights-out` kind says (``procedure.effect_kinds``)."""
    chosen = work.lit(effect.kinds)
    if effect.count is not None:
        chosen = chosen[: effect.count]
    turn_minutes = work.procedure.turn_minutes(work.state.turn_type)
    for light in chosen:
        fresh = light.lit_turn >= work.state.turn
        if effect.spare_fresh and fresh and light.kind not in effect.low_kinds:
            work.emit(ev.LightFlickered(id=light.id, reason=ctx.source))
            continue
        # "Runs low: 1 turn left" is the turn after this one: a light burns at the end of
        # the turn (after every rule), so one that runs low during a turn keeps this turn's
        # minutes besides.
        burns_now = work.state.in_turn and light.real_seconds is None
        low = (effect.low_turns + burns_now) * turn_minutes
        if light.kind in effect.low_kinds and light.minutes is not None and light.minutes > low:
            work.emit(ev.LightTimerSet(id=light.id, minutes=low, reason="runs low"))
            continue
        kind = work.procedure.lights.get(light.kind)
        refuels = kind is not None and kind.refuels
        if light.kind in effect.low_kinds and refuels:
            # Run dry: out until refuelled, and then it can be lit again.
            work.emit(ev.LightTimerSet(id=light.id, minutes=0, reason="runs dry"))
            work.emit(ev.LightPutOut(id=light.id, reason="out of fuel", spent=False))
            continue
        work.emit(ev.LightPutOut(id=light.id, reason=ctx.source, spent=effect.spent))


@kind("blow-out")
def blow_out(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `blow-out` kind says (``procedure.effect_kinds``)."""
    how = work.text(effect.text, ctx) if effect.text else ctx.source.lower()
    for light in work.lit(effect.kinds):
        kind = work.procedure.lights.get(light.kind)
        if kind is not None and kind.can_blow_out:
            work.emit(ev.LightPutOut(id=light.id, reason=f"blown out by {how}", spent=False))


@kind("lights-dim")
def lights_dim(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `lights-dim` kind says (``procedure.effect_kinds``)."""
    for light in work.lit(effect.kinds):
        if light.state == "bright":
            work.emit(ev.LightDimmed(id=light.id, reason=ctx.source))
        else:
            work.emit(ev.LightPutOut(id=light.id, reason=ctx.source, spent=True))


@kind("lights-shorten")
def lights_shorten(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `lights-shorten` kind says (``procedure.effect_kinds``)."""
    cut = effect.minutes or 0
    if effect.turns is not None:
        cut = effect.turns * work.procedure.turn_minutes(work.state.turn_type)
    chosen = [light for light in work.lit(effect.kinds) if light.minutes is not None]
    if effect.count is not None:
        chosen = chosen[: effect.count]
    for light in chosen:
        left = max(0, (light.minutes or 0) - cut)
        work.emit(ev.LightTimerSet(id=light.id, minutes=left, reason=ctx.source))
        if left == 0:
            work.emit(ev.LightPutOut(id=light.id, reason="burnt out", spent=True))


@kind("usage-die")
def usage_die(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `usage-die` kind says (``procedure.effect_kinds``)."""
    for light in work.lit(effect.kinds):
        if light.usage_die is None:
            continue
        result = work.roll(
            f"usage.{light.id}", f"d{light.usage_die}", f"the usage die of {light.id}"
        )
        if result.total > 2:
            continue
        smaller = evolve.step_usage_die(light.usage_die)
        work.emit(ev.UsageDieStepped(id=light.id, die=smaller))
        if smaller is None:
            work.emit(ev.LightPutOut(id=light.id, reason="used up", spent=True))


@kind("strike")
def strike(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `strike` kind says (``procedure.effect_kinds``)."""
    for light in work.lit(effect.kinds):
        strikes = light.strikes + 1
        work.emit(ev.LightStruck(id=light.id, strikes=strikes))
        kind = work.procedure.lights.get(light.kind)
        if kind is not None and kind.strikes is not None and strikes >= kind.strikes:
            work.emit(ev.LightPutOut(id=light.id, reason=f"strike {strikes}", spent=True))
