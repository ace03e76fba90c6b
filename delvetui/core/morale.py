"""The foes' morale, as the procedure's ``[encounter]`` says: a check when what sets it off
happens (the first of them down, half of them gone, a lone foe hurt), one the game master
calls (``morale``), and a retainer's.

A check is one roll (typed as ``morale=N`` on the command that sets it off, asked for, or
rolled), read against each foe's own morale: a foe that fails flees. A foe that held its
morale as often as the game's ``morale_settles`` fights on without more checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core import commands as cmd
from delvetui.core.state import Foe, Member, State
from delvetui.dice import under
from delvetui.errors import CommandError
from delvetui.text import quote

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Work
    from delvetui.procedure.model import EncounterRules, Procedure
else:
    ev = lazy.module("delvetui.core.events")

#: The key a morale roll is typed under.
KEY = "morale"

#: What sets a check off, in the log's words ({name}: the foe that checks alone).
TRIGGERS = {
    "first-down": "the first of them is down",
    "half-down": "half of them are down or gone",
    "most-down": "more than half of them are down or gone",
    "each-down": "one of them fell or fled",
    "half-hp": "{name} is below half its hit points",
    "lone-half-hp": "the lone foe is down to half its hit points",
    "lone-zero-hp": "the lone foe is at 0 HP",
}


def trigger_words(trigger: str) -> str:
    """What set a check off ("first-down,half-down"), in words; '' when the game master
    called it."""
    said = []
    for key in trigger.split(","):
        rule, _, name = key.partition(":")
        if rule in TRIGGERS:
            said.append(TRIGGERS[rule].format(name=name or "a foe"))
    return " and ".join(said)


def score(foe: Foe, rules: EncounterRules) -> int:
    """A foe's morale: its own, else the game's default."""
    return foe.morale if foe.morale is not None else rules.morale_default


def settled(foe: Foe, rules: EncounterRules) -> bool:
    """True when a foe held its morale often enough to fight on without more checks."""
    return bool(rules.morale_settles) and foe.held >= rules.morale_settles


def fails(total: int, morale: int, rules: EncounterRules, natural: bool = False) -> bool:
    """True when a morale roll's total breaks a morale of ``morale`` (``natural``: a d20
    save's 1 always holds and its 20 always breaks)."""
    if rules.morale_pass == "at_least":
        return total + morale < rules.morale_dc
    return not under(total, morale, rules.morale_dice, natural)


def against(rules: EncounterRules) -> str:
    """What a morale roll has to do to hold, in words."""
    if rules.morale_pass == "at_least":
        return f"{rules.morale_dc} or more with their morale added"
    return "at most their morale"


# Checks set off by what happened -----------------------------------------------------------


def after_change(work: Work, before: State, typed: str | None) -> None:
    """Make the morale check a foe's change set off, if the game's rules call for one; a
    roll typed (``morale=N``) where none is due is refused with why."""
    rules = work.procedure.encounter
    keys, alone, why_not = _due(work, before)
    side = [key for key in keys if ":" not in key and not key.startswith("lone")]
    if side:  # the side checks: every foe still fighting that has not settled
        checking = [foe for foe in work.state.foes if foe.fighting]
    else:  # one foe checks alone: one hurt below half, the lone foe
        checking = [foe for foe in work.state.foes if foe.name == alone]
    names = [foe.name for foe in checking if not settled(foe, rules)]
    if keys and not names:
        why_not = (
            f"every foe still fighting has held its morale {rules.morale_settles} times and "
            "fights on"
        )
    if not names:
        if typed is not None:
            raise CommandError(
                f"No morale check is due: {why_not}. Leave out morale={typed}; nothing was saved."
            )
        return
    _check(work, names, ",".join(keys), typed)


def _due(work: Work, before: State) -> tuple[list[str], str | None, str]:
    """The triggers this change set off, the foe that checks alone (a lone foe hurt, one
    below half its hit points), and why no check is due when none is."""
    rules = work.procedure.encounter
    state = work.state
    fight = state.fight
    if not rules.has_morale:
        return [], None, f"{work.procedure.name} has no morale roll"
    if fight is None:
        return [], None, "no fight is under way (fight begins one)"
    if not rules.morale_when:
        return [], None, f"{work.procedure.name} checks morale when the game master calls it"
    foes = state.foes
    total = len(foes)
    out_now = sum(1 for foe in foes if not foe.fighting)
    out_before = sum(1 for foe in before.foes if not foe.fighting)
    went_out = [
        foe
        for foe in foes
        if not foe.fighting and (old := before.foe(foe.name)) is not None and old.fighting
    ]
    lone = foes[0] if total == 1 and foes[0].fighting else None
    lone_before = before.foe(lone.name) if lone is not None else None
    happened = {
        "first-down": any(foe.state == "down" for foe in went_out),
        "half-down": out_before * 2 < total <= out_now * 2,
        "most-down": out_before * 2 <= total < out_now * 2,
        "each-down": bool(went_out),
        "lone-half-hp": lone is not None
        and lone_before is not None
        and lone_before.hp * 2 > lone.max_hp >= lone.hp * 2,
        "lone-zero-hp": lone is not None
        and lone_before is not None
        and lone_before.hp > 0 == lone.hp,
    }
    keys: list[str] = []
    alone: str | None = None
    for rule in rules.morale_when:
        if rule in fight.fired and rule != "each-down":
            continue
        if rule == "half-hp":
            for foe in foes:
                old = before.foe(foe.name)
                key = f"half-hp:{foe.name}"
                hurt = old is not None and old.hp * 2 >= old.max_hp > foe.hp * 2
                if foe.fighting and hurt and key not in fight.fired:
                    keys.append(key)
                    alone = foe.name
        elif happened[rule]:
            keys.append(rule)
            if rule.startswith("lone") and lone is not None:
                alone = lone.name
    said = ", ".join(rules.morale_when)
    return keys, alone, f"nothing that sets one off happened ({said})"


def _check(work: Work, names: list[str], trigger: str, typed: str | None) -> None:
    """One roll read against each foe's morale; those who fail flee."""
    rules = work.procedure.encounter
    why = trigger_words(trigger) or "the game master calls it"
    rolled = work.settle(KEY, rules.morale_dice, f"morale ({why})", typed)
    failed = tuple(
        name
        for name in names
        if (foe := work.state.foe(name)) is not None
        and fails(rolled.total, score(foe, rules), rules, work.procedure.party.natural_saves)
    )
    work.emit(
        ev.MoraleChecked(
            names=tuple(names),
            trigger=trigger,
            total=rolled.total,
            failed=failed,
            against=against(rules),
        )
    )
    for name in failed:
        work.emit(ev.FoeStateChanged(name=name, state="fled", reason="morale"))


def retainer_score(member: Member, procedure: Procedure) -> int | None:
    """A retainer's morale: their score in ``retainer_morale`` (its modifier where the roll
    adds it, ``at_least``); None when they have none."""
    rules = procedure.encounter
    score = member.ability(rules.retainer_morale)
    if score is None or rules.morale_pass == "at_most":
        return score
    return member.modifier(rules.retainer_morale, procedure.party.modifier_of)


# A check the game master calls -------------------------------------------------------------


def check_morale(work: Work, command: cmd.CheckMorale) -> None:
    """A morale check the game master calls (``morale [NAME] [morale=N]``)."""
    rules = work.procedure.encounter
    state = work.state
    if not rules.has_morale:
        raise CommandError(
            f"{work.procedure.name} has no morale roll: whether foes break is the game "
            "master's call (foe NAME +fled). Nothing was saved."
        )
    if command.name is None:
        fighting = [foe for foe in state.foes if foe.fighting]
        if not fighting:
            raise CommandError("No foe is fighting, so none checks its morale. Nothing was saved.")
        names = [foe.name for foe in fighting if not settled(foe, rules)]
        if not names:
            raise CommandError(
                f"Every foe still fighting has held its morale {rules.morale_settles} times and "
                "fights on: no check is made. Nothing was saved."
            )
        _check(work, names, "", command.value)
        return
    foe = state.foe(command.name)
    if foe is not None:
        if not foe.fighting:
            raise CommandError(
                f"{foe.name} is {foe.state}: only a foe still fighting checks its morale."
            )
        if settled(foe, rules):
            raise CommandError(
                f"{foe.name} has held its morale {rules.morale_settles} times and fights on: "
                "no check is made. Nothing was saved."
            )
        _check(work, [foe.name], "", command.value)
        return
    member = state.member(command.name)
    if member is None:
        known = [f.name for f in state.foes] + [m.name for m in state.party]
        raise CommandError(
            f"{quote(command.name)} is neither a foe nor a member of the party "
            f"({', '.join(known) or 'there are none'})."
        )
    _retainer(work, member.name, command.value)


def _retainer(work: Work, name: str, typed: str | None) -> None:
    """A retainer's morale check, against the member's score the game names."""
    rules = work.procedure.encounter
    ability = rules.retainer_morale.upper()
    if not ability:
        raise CommandError(
            f"{work.procedure.name} gives retainers no morale check; a foe's is morale NAME "
            "for a foe. Nothing was saved."
        )
    member = work.member(name)
    morale = retainer_score(member, work.procedure)
    if morale is None:
        raise CommandError(
            f"{name} has no {ability} score to check: give one with pc {name} {ability}=N. "
            "Nothing was saved."
        )
    rolled = work.settle(KEY, rules.morale_dice, f"{name}'s morale", typed)
    broke = fails(rolled.total, morale, rules, work.procedure.party.natural_saves)
    work.emit(
        ev.MoraleChecked(
            names=(name,),
            trigger="",
            total=rolled.total,
            failed=(name,) if broke else (),
            member=name,
            against=against(rules),
        )
    )
