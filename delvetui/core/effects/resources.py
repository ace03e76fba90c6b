"""Effects on the resources the party counts: rations eaten, oil used, arrows found."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from delvetui import lazy
from delvetui.core.amounts import amount
from delvetui.core.effects.registry import kind
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


def _holders(work: Work, effect: Effect, ctx: Ctx) -> list[str | None]:
    """Who the effect acts for: each member it names, or None once for the whole party."""
    if effect.target == "party" and work.procedure.resources[effect.resource].per == "party":
        return [None]
    return [member.name for member in work.members(effect.target, ctx)]


def held(work: Work, resource: str, name: str | None) -> tuple[str, int]:
    """Whose stock a resource is taken from (a member's name, or "" for the party's) and
    how many it holds: a party resource is always the party's stock."""
    if work.procedure.resources[resource].per == "party" or name is None:
        return "", work.state.resource(resource)
    return name, work.member(name).resource(resource)


@kind("consume")
def consume(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `consume` kind says (``procedure.effect_kinds``)."""
    rules = work.procedure.resources[effect.resource]
    wanted = amount(work, effect, 1)
    reason = work.text(effect.text, ctx) if effect.text else ctx.source
    for name in _holders(work, effect, ctx):
        owner, have = held(work, effect.resource, name)
        used = min(have, wanted)
        if used:
            work.emit(
                ev.ResourceChanged(
                    name=owner,
                    resource=effect.resource,
                    value=have - used,
                    change=-used,
                    reason=reason,
                )
            )
        if used < wanted:
            work.emit(
                ev.ResourceShort(
                    name=name or "", resource=effect.resource, wanted=wanted - used, reason=reason
                )
            )
            here = attrs.evolve(ctx, member=name, scope=name, source=f"no {rules.label.lower()}")
            work.apply_all(effect.on_short, f"{ref}.on_short", here)


@kind("supply")
def supply(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `supply` kind says (``procedure.effect_kinds``)."""
    rules = work.procedure.resources[effect.resource]
    reason = work.text(effect.text, ctx) if effect.text else ctx.source
    if effect.share:
        _share(work, effect, ctx, reason)
        return
    for name in _holders(work, effect, ctx):
        gained = amount(work, effect, 1)
        if effect.dice:
            key = f"supply.{name}" if name else "supply"
            whose = f" for {name}" if name else ""
            gained = max(0, work.roll(key, effect.dice, f"{rules.label}{whose}").total)
        owner, have = held(work, effect.resource, name)
        value = have + gained
        if rules.max is not None:
            value = min(rules.max, value)
        if value != have:
            work.emit(
                ev.ResourceChanged(
                    name=owner,
                    resource=effect.resource,
                    value=value,
                    change=value - have,
                    reason=reason,
                )
            )


def _share(work: Work, effect: Effect, ctx: Ctx, reason: str) -> None:
    """One find for the whole party, shared out one at a time: each to the member who
    holds fewest (the first in the marching order on a tie), none past the resource's
    ``max``. What nobody can carry is left behind, and the log says so."""
    rules = work.procedure.resources[effect.resource]
    found = amount(work, effect, 1)
    if effect.dice:
        found = max(0, work.roll("supply", effect.dice, f"{rules.label} for the party").total)
    members = work.members("each", ctx)
    holding = {member.name: member.resource(effect.resource) for member in members}
    gained = dict.fromkeys(holding, 0)
    for _ in range(found):
        room = [name for name in holding if rules.max is None or holding[name] < rules.max]
        if not room:
            break
        taker = min(room, key=lambda name: holding[name])  # the first of the fewest
        holding[taker] += 1
        gained[taker] += 1
    for name, change in gained.items():
        if change:
            work.emit(
                ev.ResourceChanged(
                    name=name,
                    resource=effect.resource,
                    value=holding[name],
                    change=change,
                    reason=reason,
                )
            )
    left = found - sum(gained.values())
    if left:
        what = rules.label.lower()
        work.emit(ev.Logged(text=f"{left} {what} left behind: nobody can carry more."))
