"""Effects on the lit lights: out, blown out, dimmed, shortened, usage dice, strikes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.effects.registry import Checks, kind
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core import evolve
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")
    evolve = lazy.module("delvetui.core.evolve")


@kind("lights-out", fields=("kinds", "count", "spent", "spare_fresh", "low_kinds", "low_turns"))
def lights_out(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Puts out the lit lights of `kinds` (all kinds when empty): at most `count` of them,
    those with the least time left first. With `spent = true` (the default) they are used
    up; with `spent = false` they can be lit again.
    """
    chosen = work.lit(effect.kinds)
    if effect.count is not None:
        chosen = chosen[: effect.count]
    turn_minutes = work.procedure.turn_minutes(work.state.turn_type)
    for light in chosen:
        fresh = light.lit_turn >= work.state.turn
        if effect.spare_fresh and fresh and light.kind not in effect.low_kinds:
            work.emit(ev.LightFlickered(id=light.id, reason=ctx.source))
            continue
        low = effect.low_turns * turn_minutes
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


@kind("blow-out", fields=("kinds",))
def blow_out(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Puts out the lit lights of `kinds` whose kind has `can_blow_out = true`; they can be
    lit again. The log says "candle1 is blown out by TEXT": `text` ("running"), else the
    action's name.
    """
    how = work.text(effect.text, ctx) if effect.text else ctx.source.lower()
    for light in work.lit(effect.kinds):
        kind = work.procedure.lights.get(light.kind)
        if kind is not None and kind.can_blow_out:
            work.emit(ev.LightPutOut(id=light.id, reason=f"blown out by {how}", spent=False))


@kind("lights-dim", fields=("kinds",))
def lights_dim(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Steps the lit lights of `kinds` down: a bright light becomes dim, a dim light goes
    out (used up).
    """
    for light in work.lit(effect.kinds):
        if light.state == "bright":
            work.emit(ev.LightDimmed(id=light.id, reason=ctx.source))
        else:
            work.emit(ev.LightPutOut(id=light.id, reason=ctx.source, spent=True))


@kind("lights-shorten", fields=("kinds", "turns", "minutes", "count"))
def lights_shorten(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Takes `turns` or `minutes` off the time left of the lit, timed lights of `kinds` (at
    most `count` of them); a light left with no time goes out, used up.
    """
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


@kind("usage-die", fields=("kinds",))
def usage_die(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Rolls the usage die of each lit light of `kinds` that has one; on a 1 or 2 the die
    steps down (d20 → d12 → d10 → d8 → d6 → d4), and after the d4 the light is used up.
    Typed results: `usage.LIGHT-ID=N` (e.g. `usage.torch2=1`).
    """
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


def _check_strike(checks: Checks, effect: Effect, path: str) -> None:
    """A strike only counts against a kind that goes out on the Nth (``strikes = N``)."""
    lights = checks.procedure.lights
    if effect.kinds:
        for name in effect.kinds:
            found = lights.get(name)
            if found is not None and found.strikes is None:
                checks.advice(
                    f"{path}.kinds",
                    f"strikes the light kind '{name}', which has no strikes: give "
                    f"[lights.{name}] strikes = N (it goes out on the Nth), or it never goes out.",
                )
    elif not any(light.strikes is not None for light in lights.values()):
        checks.advice(
            path,
            "strikes every light, but no light kind has strikes: give a kind strikes = N "
            "(it goes out on the Nth), or it never goes out.",
        )


@kind("strike", fields=("kinds",), check=_check_strike)
def strike(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Counts a strike against each lit light of `kinds`; a light whose kind has `strikes =
    N` goes out, used up, on the Nth.
    """
    for light in work.lit(effect.kinds):
        strikes = light.strikes + 1
        work.emit(ev.LightStruck(id=light.id, strikes=strikes))
        kind = work.procedure.lights.get(light.kind)
        if kind is not None and kind.strikes is not None and strikes >= kind.strikes:
            work.emit(ev.LightPutOut(id=light.id, reason=f"strike {strikes}", spent=True))
