"""Effects on party members: hit points, checks and saves, fatigue, conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from delvetui.core import dice
from delvetui.core import events as ev
from delvetui.core.effects.registry import Checks, kind
from delvetui.core.state import Member, State
from delvetui.errors import CommandError, InputNeeded
from delvetui.procedure.model import Effect, Procedure
from delvetui.text import number_problem

if TYPE_CHECKING:
    from delvetui.core.work import Ctx, Work


def _has_amount(checks: Checks, effect: Effect, path: str) -> None:
    if effect.amount is None and not effect.dice:
        checks.problem(path, f"a '{effect.do}' effect needs 'amount' or 'dice'.")


def _gains_or_loses(checks: Checks, effect: Effect, path: str) -> None:
    if not (effect.condition or effect.remove):
        checks.problem(path, "a 'condition' effect needs 'condition' or 'remove'.")


def _amount(work: Work, effect: Effect, key: str, purpose: str, ctx: Ctx, scale: int) -> int:
    """The hit points an effect takes or gives: its dice (times `scale`) or its amount."""
    if effect.dice:
        expression = dice.scaled(effect.dice, scale)
        if effect.ability:
            member = work.state.member(ctx.member or "")
            bonus = member.modifier(effect.ability) if member else 0
            expression = dice.with_modifier(expression, bonus)
        return max(0, work.roll(key, expression, purpose).total)
    return (effect.amount or 0) * scale


def _check_mode(procedure: Procedure, state: State, member: Member | None) -> str:
    """Advantage or disadvantage on a check from the light level, fatigue and conditions.

    Advantage and disadvantage together cancel out, as do two sources of one: one is kept.
    """
    modes: set[str] = set()
    level = procedure.light_level(state.light_level).check_mode
    if level:
        modes.add(level)
    if member is not None and procedure.party.fatigue_modes:
        ladder = procedure.party.fatigue
        step = ladder[max(0, min(member.fatigue, len(ladder) - 1))]
        tired = procedure.party.fatigue_modes.get(step)
        if tired:
            modes.add(tired)
    if member is not None:
        for condition in member.conditions:
            mode = procedure.party.condition_modes.get(condition)
            if mode:
                modes.add(mode)
    return modes.pop() if len(modes) == 1 else ""


@kind("damage", fields=("amount", "dice", "target", "per_point", "ability"), check=_has_amount)
def damage(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Takes hit points from the `target` (default `each`): a fixed `amount`, or `dice`
    (plus the member's `ability` modifier). `per_point = true` multiplies by the points a
    check missed by (use it inside `on_failure`). Hit points stop at 0. Typed results:
    `damage.NAME=N`.
    """
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


@kind("heal", fields=("amount", "dice", "target", "ability"), check=_has_amount)
def heal(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Gives back hit points, up to each member's maximum: `amount` or `dice` (plus
    `ability`), to the `target`. Typed results: `heal.NAME=N`.
    """
    for member in work.members(effect.target, ctx):
        here = attrs.evolve(ctx, member=member.name)
        gain = _amount(work, effect, f"heal.{member.name}", f"healing for {member.name}", here, 1)
        current = work.member(member.name)
        hp = min(current.max_hp, current.hp + gain)
        if hp != current.hp:
            reason = work.text(effect.text, here) if effect.text else ctx.source
            work.emit(ev.HpChanged(name=member.name, hp=hp, change=hp - current.hp, reason=reason))


@kind(
    "check",
    fields=(
        "id",
        "dice",
        "target",
        "ability",
        "dc",
        "dc_inputs",
        "dc_turns",
        "dc_max",
        "dc_over",
        "on_success",
        "on_failure",
    ),
    required=("id",),
)
def check(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """A roll against a difficulty: the game's saves and ability checks. Required: `id`. It
    rolls `dice` (default `d20`) plus the member's `ability` modifier, for each member of
    the `target`, and succeeds when the total is at least the DC. The DC is `dc` (default
    10), plus the numbers typed for `dc_inputs`, plus the turns taken so far with `dc_turns
    = true`, plus how far a track is over its limit with `dc_over = true`, and at most
    `dc_max`. Then the check's `on_success` or `on_failure` effects happen for that member
    (`target = "by"` in them means that member; `{margin}` is how far the roll missed). A
    light level's `check_mode` and the member's `fatigue_modes` add advantage or
    disadvantage. Checks can hold checks, up to 6 levels deep.
    """
    dc = effect.dc
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
    if effect.dc_over:
        dc += ctx.excess
    if effect.dc_max is not None:
        dc = min(dc, effect.dc_max)
    label = effect.label or effect.id
    dice_text = effect.dice or "d20"
    if effect.target == "party":
        who: list[str | None] = [None]
    else:
        who = [m.name for m in work.members(effect.target, ctx)]
    for name in who:
        member = work.state.member(name) if name else None
        bonus = member.modifier(effect.ability) if member and effect.ability else 0
        mode = _check_mode(work.procedure, work.state, member)
        expression = dice.with_modifier(dice.with_mode(dice_text, mode), bonus)
        key = f"{effect.id}.{name}" if name else effect.id
        if name and not work.inputs.has(key) and len(who) == 1 and work.inputs.has(effect.id):
            key = effect.id
        purpose = f"{label} for {name}" if name else label
        result = work.roll(key, expression, f"{purpose} (DC {dc})")
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


@kind("fatigue", fields=("step", "target"))
def fatigue(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Moves the `target` `step` steps up the party's fatigue ladder (fresh → tired →
    exhausted); a negative `step` moves down. It stops at the ends of the ladder.
    """
    ladder = work.procedure.party.fatigue
    for member in work.members(effect.target, ctx):
        level = max(0, min(len(ladder) - 1, member.fatigue + effect.step))
        if level != member.fatigue:
            work.emit(
                ev.FatigueChanged(
                    name=member.name, level=level, label=ladder[level], reason=ctx.source
                )
            )


@kind("condition", fields=("condition", "remove", "target"), check=_gains_or_loses, inert=True)
def condition(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Gives the `target` a `condition` (any word: "exhausted", "poisoned") and/or takes
    one away with `remove`; at least one of the two is required. The game master does the
    same with `pc Ash +poisoned` and `pc Ash -poisoned`.
    """
    for member in work.members(effect.target, ctx):
        if effect.condition and effect.condition not in member.conditions:
            work.emit(
                ev.ConditionGained(name=member.name, condition=effect.condition, reason=ctx.source)
            )
        if effect.remove and effect.remove in member.conditions:
            work.emit(
                ev.ConditionLost(name=member.name, condition=effect.remove, reason=ctx.source)
            )
