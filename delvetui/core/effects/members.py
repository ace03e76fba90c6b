"""Effects on party members: hit points, checks and saves, fatigue, conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from delvetui import dice, lazy
from delvetui.core import conditions
from delvetui.core.amounts import amount
from delvetui.core.effects.registry import kind
from delvetui.core.level_rules import check_modifier
from delvetui.core.modes import check_mode
from delvetui.errors import CommandError, InputNeeded
from delvetui.procedure.model import Effect
from delvetui.text import check_label, number_problem

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.state import Member
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


def _amount(work: Work, effect: Effect, key: str, purpose: str, ctx: Ctx, scale: int) -> int:
    """The hit points an effect takes or gives: its dice (times `scale`) or its amount."""
    if effect.dice:
        expression = dice.scaled(effect.dice, scale)
        if effect.ability:
            member = work.state.member(ctx.member or "")
            bonus = (
                member.modifier(effect.ability, work.procedure.party.modifier_of) if member else 0
            )
            expression = dice.with_modifier(expression, bonus)
        return max(0, work.roll(key, expression, purpose).total)
    return amount(work, effect, 0) * scale


@kind("damage")
def damage(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `damage` kind says (``procedure.effect_kinds``)."""
    scale = ctx.margin if effect.per_point else 1
    if scale <= 0:
        return
    for member in work.members(effect.target, ctx):
        here = attrs.evolve(ctx, member=member.name)
        hurt = _amount(
            work, effect, f"damage.{member.name}", f"damage to {member.name}", here, scale
        )
        current = work.member(member.name)
        hp = max(0, current.hp - hurt)
        if hurt:
            reason = work.text(effect.text, here) if effect.text else ctx.source
            work.emit(ev.HpChanged(name=member.name, hp=hp, change=hp - current.hp, reason=reason))


@kind("heal")
def heal(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `heal` kind says (``procedure.effect_kinds``)."""
    for member in work.members(effect.target, ctx):
        here = attrs.evolve(ctx, member=member.name)
        gain = _amount(work, effect, f"heal.{member.name}", f"healing for {member.name}", here, 1)
        current = work.member(member.name)
        hp = min(current.max_hp, current.hp + gain)
        if hp != current.hp:
            reason = work.text(effect.text, here) if effect.text else ctx.source
            work.emit(ev.HpChanged(name=member.name, hp=hp, change=hp - current.hp, reason=reason))


@kind("check")
def check(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `check` kind says (``procedure.effect_kinds``)."""
    dc = effect.dc if effect.above is None else effect.above
    for input_name in effect.dc_inputs:
        given = work.inputs.get(input_name)
        problem = None if given is None else number_problem(input_name, given, 0, 999)
        if given is None or problem is not None:
            message = (
                f"{effect.label or effect.id} needs {input_name}=N (a whole number "
                "from 0 to 999), which is added to its DC."
            )
            if problem is not None:
                message = f"{problem} {message}"
            if given is None and work.ask_inputs:
                wanted = work.wanted.get(input_name)
                what = wanted.label if wanted and wanted.label else input_name
                purpose = f"{effect.label or effect.id}: {what}, added to the DC"
                if wanted is not None and wanted.given_by == "gm":
                    purpose += " (the game master's choice)"
                raise InputNeeded(input_name, "N", purpose, message)
            raise CommandError(message)
        dc += int(given)
    if effect.dc_turns:
        dc += work.state.turn
    if effect.dc_counter:
        dc += work.state.counter(effect.dc_counter)
    if effect.dc_over:
        dc += ctx.excess
    if effect.dc_max is not None:
        dc = min(dc, effect.dc_max)
    label = check_label(effect.label or effect.id)
    dice_text = effect.dice or "d20"
    if effect.target == "party":
        who: list[str | None] = [None]
    else:
        who = [m.name for m in work.members(effect.target, ctx)]
    if effect.above is not None:
        for name in who:
            _under(work, effect, ref, ctx, name, dc, alone=len(who) == 1)
        return
    base = dc
    for name in who:
        member = work.state.member(name) if name else None
        dc = (
            base - effect.dc + _target(member, effect, label)
            if member and effect.dc_ability
            else base
        )
        bonus = (
            member.modifier(effect.ability, work.procedure.party.modifier_of)
            if member and effect.ability
            else 0
        )
        mode = check_mode(work.procedure, work.state, member, effect.check_kind)
        # A flat modifier of the member's levels (fatigue, conditions, the light, a
        # counter's level) is added with the ability's; the roll's words say whence.
        flat, whence = check_modifier(work.procedure, work.state, member, effect.check_kind)
        expression = dice.with_modifier(dice.with_mode(dice_text, mode), bonus + flat)
        key = f"{effect.id}.{name}" if name else effect.id
        if name and not work.inputs.has(key) and len(who) == 1 and work.inputs.has(effect.id):
            key = effect.id
        purpose = f"{label} for {name}" if name else label
        said = f"DC {dc}; {whence}" if whence else f"DC {dc}"
        result = work.roll(key, expression, f"{purpose} ({said})")
        success = result.total >= dc
        work.emit(
            ev.CheckMade(
                id=effect.id,
                name=name or "party",
                label=label,
                dc=dc,
                total=result.total,
                success=success,
            )
        )
        here = attrs.evolve(
            ctx,
            member=name,
            scope=name,
            margin=max(0, dc - result.total),
            total=result.total,
            dc=dc,
            source=f"{label} failed" if not success else label,
        )
        follow = effect.on_success if success else effect.on_failure
        branch = "on_success" if success else "on_failure"
        work.apply_all(follow, f"{ref}.{branch}", here)


def _target(member: Member, effect: Effect, label: str) -> int:
    """The member's score a check's DC is (``dc_ability``): a save's target number."""
    return _score(member, effect.dc_ability.upper(), f"{label} is made against")


def _score(member: Member, ability: str, what: str) -> int:
    """The member's score a check is bounded by, or a sentence naming how to give it."""
    score = member.ability(ability)
    if score is None:
        raise CommandError(
            f"{what} {member.name}'s {ability}, and {member.name} has none: give it with "
            f"`pc {member.name} {ability}=N`."
        )
    return score


def _under(
    work: Work, effect: Effect, ref: str, ctx: Ctx, name: str | None, above: int, *, alone: bool
) -> None:
    """One member's check rolled under their score: a success above ``above``, at most it.

    ``alone``: the check is made for this member only, who may be typed as plain ID=N.
    """
    label = check_label(effect.label or effect.id)
    ability = effect.ability.upper()
    member = work.state.member(name) if name else None
    if member is None:
        raise CommandError(f"{label} is rolled under a member's {ability}: say who with by=NAME.")
    score = _score(member, ability, f"{label} is rolled under")
    key = f"{effect.id}.{member.name}"
    if alone and not work.inputs.has(key) and work.inputs.has(effect.id):
        key = effect.id
    bounds = f"above {above}, at most" if above else "at most"
    purpose = f"{label} for {member.name} ({bounds} {ability} {score})"
    expression = effect.dice or "d20"
    total = work.roll(key, expression, purpose).total
    natural = work.procedure.party.natural_saves and not above
    success = above < total and dice.under(total, score, expression, natural)
    work.emit(
        ev.CheckMadeUnder(
            id=effect.id,
            name=member.name,
            label=label,
            ability=ability,
            score=score,
            above=above,
            total=total,
            success=success,
        )
    )
    here = attrs.evolve(
        ctx,
        member=member.name,
        scope=member.name,
        margin=0 if success else max(total - score, above - total + 1),
        total=total,
        dc=above,
        source=f"{label} failed" if not success else label,
    )
    follow = effect.on_success if success else effect.on_failure
    branch = "on_success" if success else "on_failure"
    work.apply_all(follow, f"{ref}.{branch}", here)


@kind("fatigue")
def fatigue(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `fatigue` kind says (``procedure.effect_kinds``)."""
    ladder = work.procedure.party.fatigue
    for member in work.members(effect.target, ctx):
        level = max(0, min(len(ladder) - 1, member.fatigue + effect.step))
        if level != member.fatigue:
            work.emit(
                ev.FatigueChanged(
                    name=member.name, level=level, label=ladder[level], reason=ctx.source
                )
            )


@kind("condition")
def condition(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `condition` kind says (``procedure.effect_kinds``)."""
    for member in work.members(effect.target, ctx):
        if effect.remove_kind:
            conditions.end_kind(work, member.name, effect.remove_kind, ctx.source)
        if effect.condition:
            conditions.give(
                work,
                member.name,
                effect.condition,
                ctx.source,
                turns=effect.turns,
                until=effect.until,
            )
        for name in effect.remove:
            if name in work.member(member.name).conditions:
                work.emit(ev.ConditionLost(name=member.name, condition=name, reason=ctx.source))
