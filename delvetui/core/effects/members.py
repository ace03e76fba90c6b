"""Effects on party members: hit points, checks and saves, fatigue, conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from delvetui import lazy
from delvetui.core import conditions, dice
from delvetui.core.effects.registry import Checks, kind
from delvetui.core.modes import check_mode
from delvetui.errors import CommandError, InputNeeded
from delvetui.procedure.model import Effect
from delvetui.text import check_label, number_problem

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


def _has_amount(checks: Checks, effect: Effect, path: str) -> None:
    if effect.amount is None and not effect.dice:
        checks.problem(path, f"a '{effect.do}' effect needs 'amount' or 'dice'.")


def _gains_or_loses(checks: Checks, effect: Effect, path: str) -> None:
    if not (effect.condition or effect.remove or effect.remove_kind):
        checks.problem(path, "a 'condition' effect needs 'condition', 'remove' or 'remove_kind'.")
    key, lasts = duration_problem(effect.turns, effect.until)
    if lasts:
        checks.problem(f"{path}.{key}" if key else path, lasts)
    elif (effect.turns is not None or effect.until) and not effect.condition:
        checks.problem(path, "'turns' and 'until' say how long a 'condition' gained lasts.")
    if effect.remove_kind:
        kinds = {c.kind: c for c in checks.procedure.conditions.values() if c.kind}
        checks.ref(f"{path}.remove_kind", effect.remove_kind, kinds, "kind of condition")


def duration_problem(turns: int | None, until: str) -> tuple[str, str]:
    """What is wrong with a condition's duration: the key ('' for both) and the sentence
    ('' when nothing is)."""
    if turns is not None and turns < 1:
        return "turns", "'turns' should be at least 1."
    if until and until not in conditions.UNTIL:
        return "until", f"until = '{until}' is not allowed; use until = 'rest' (the next rest)."
    if turns is not None and until:
        return "", "give 'turns' or 'until', not both."
    return "", ""


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
    return (effect.amount or 0) * scale


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
        "dc_counter",
        "dc_max",
        "dc_over",
        "on_success",
        "on_failure",
        "check_kind",
    ),
    required=("id",),
)
def check(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """A roll against a difficulty: the game's saves and ability checks. Required: `id`. It
    rolls `dice` (default `d20`) plus the member's `ability` modifier, for each member of
    the `target`, and succeeds when the total is at least the DC. The DC is `dc` (default
    10), plus the numbers typed for `dc_inputs`, plus the turns taken so far with `dc_turns
    = true`, plus the value of the counter named by `dc_counter`, plus how far a track is
    over its limit with `dc_over = true`, and at most `dc_max`. Then the check's
    `on_success` or `on_failure` effects happen for that member (`target = "by"` in them
    means that member; `{margin}` is how far the roll missed). A light level's
    `check_mode`, the member's `fatigue_modes` and conditions add advantage or
    disadvantage, and so do the light level's `check_modes` for the check's
    `check_kind` ("sight", "attack"). Checks can hold checks, up to 6 levels deep.
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
    for name in who:
        member = work.state.member(name) if name else None
        bonus = (
            member.modifier(effect.ability, work.procedure.party.modifier_of)
            if member and effect.ability
            else 0
        )
        mode = check_mode(work.procedure, work.state, member, effect.check_kind)
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


@kind(
    "condition",
    fields=("condition", "remove", "target", "turns", "until", "remove_kind"),
    check=_gains_or_loses,
    inert=True,
)
def condition(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Gives the `target` a `condition` (any word: "exhausted", "poisoned") and/or takes
    away those named in `remove` (one, or a list), and with `remove_kind` every condition
    of that declared kind ("transient"); at least one of the three is required. A
    condition gained lasts until taken away, or `turns` turns, or `until = "rest"` (the
    next rest), or as its `[conditions.ID]` says; then it ends by itself. The game master
    does the same with `pc Ash +poisoned`, `pc Ash +poisoned:6`, `pc Ash +shaken:rest`
    and `pc Ash -poisoned`.
    """
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
