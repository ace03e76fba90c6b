"""Checks of the fights' events: a side surprised, a foe joined, hurt, down or fled and
taken off, a fight begun, its rounds, a morale check, the fight's end and the party's
flight."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.event_checks.base import At, check, name_problem, no_member, number
from delvetui.core.fights import MAX_FOES, SIDES
from delvetui.core.state import FOE_STATES
from delvetui.text import MAX_PURPOSE, MAX_TYPED, quote

#: The longest kind of foe: the longest creature an adventure's table may name.
MAX_KIND = 80


def _no_foe(at: At, name: str) -> str | None:
    if not any(foe.name == name for foe in at.state.foes):
        return f"there is no foe {quote(name)} at this point"
    return None


def _no_fight(at: At) -> str | None:
    return "no fight is under way at this point" if at.state.fight is None else None


@check.register(ev.SideSurprised)
def _surprised(e: ev.SideSurprised, at: At) -> str | None:
    return None if e.side in SIDES else f"{quote(e.side)} is not a side (party, foes)"


@check.register(ev.FoeJoined)
def _joined(e: ev.FoeJoined, at: At) -> str | None:
    if at.state.foe(e.name) is not None:
        return f"{quote(e.name)} is already a foe; two foes cannot share a name"
    if len(at.state.foes) >= MAX_FOES:
        return f"the encounter already has {MAX_FOES} foes, the most it may have"
    if len(e.note) > MAX_PURPOSE:
        return f"the note is longer than {MAX_PURPOSE} characters"
    if not e.kind.strip() or len(e.kind) > MAX_KIND:
        return f"what the foe is ({quote(e.kind)}) is empty or longer than {MAX_KIND} characters"
    return (
        name_problem("foe", e.name)
        or number("max_hp", e.max_hp, 1, MAX_TYPED)
        or number("hp", e.hp, 0, e.max_hp)
        or (None if e.morale is None else number("morale", e.morale, -MAX_TYPED, MAX_TYPED))
    )


@check.register(ev.FoeHitPointsChanged)
def _hurt(e: ev.FoeHitPointsChanged, at: At) -> str | None:
    missing = _no_foe(at, e.name)
    if missing is not None:
        return missing
    foe = at.state.foe(e.name)
    assert foe is not None
    if e.hp - e.change != foe.hp:
        return f"{quote(e.name)} had {foe.hp} HP, not {e.hp - e.change}"
    return number("hp", e.hp, 0, foe.max_hp)


@check.register(ev.FoeStateChanged)
def _state(e: ev.FoeStateChanged, at: At) -> str | None:
    missing = _no_foe(at, e.name)
    if missing is not None:
        return missing
    if e.state not in FOE_STATES:
        return f"{quote(e.state)} is not a foe's state ({', '.join(FOE_STATES)})"
    foe = at.state.foe(e.name)
    assert foe is not None
    if foe.state == e.state:
        return f"{quote(e.name)} is already {e.state}"
    if e.state == "surrendered" and not at.procedure.encounter.surrender:
        return f"foes do not surrender in {at.procedure.name}"
    if len(e.reason) > MAX_PURPOSE:
        return f"the reason is longer than {MAX_PURPOSE} characters"
    return None


check.register(ev.FoeRemoved)(lambda e, at: _no_foe(at, e.name))


@check.register(ev.FightBegan)
def _began(e: ev.FightBegan, at: At) -> str | None:
    if at.state.fight is not None:
        return "a fight is already under way"
    if not any(foe.fighting for foe in at.state.foes):
        return "no foe is there to fight"
    wrong = [side for side in e.surprised if side not in SIDES]
    return f"{quote(wrong[0])} is not a side (party, foes)" if wrong else None


@check.register(ev.RoundBegan)
def _round(e: ev.RoundBegan, at: At) -> str | None:
    if at.state.fight is None:
        return _no_fight(at)
    if e.number != at.state.fight.round + 1:
        return f"round {e.number} does not follow round {at.state.fight.round}"
    if e.first not in SIDES:
        return f"{quote(e.first)} is not a side (party, foes)"
    if e.lost and e.lost not in SIDES:
        return f"{quote(e.lost)} is not a side (party, foes)"
    for name in (*e.before, *e.after, *e.idle):
        missing = no_member(at.state, name)
        if missing is not None:
            return missing
    return None


@check.register(ev.MoraleChecked)
def _morale(e: ev.MoraleChecked, at: At) -> str | None:
    if e.member:
        return no_member(at.state, e.member)
    if not e.names:
        return "no foe made the check"
    for name in e.names:
        missing = _no_foe(at, name)
        if missing is not None:
            return missing
    stray = [name for name in e.failed if name not in e.names]
    if stray:
        return f"{quote(stray[0])} failed a check it did not make"
    return None


@check.register(ev.FightEnded)
def _ended(e: ev.FightEnded, at: At) -> str | None:
    if at.state.fight is None:
        return _no_fight(at)
    if e.rounds != at.state.fight.round:
        return f"the fight had {at.state.fight.round} rounds, not {e.rounds}"
    return None


@check.register(ev.PartyFled)
def _fled(e: ev.PartyFled, at: At) -> str | None:
    if not any(foe.fighting for foe in at.state.foes):
        return "no foe is in the fight to flee from at this point"
    fight = at.state.fight
    if e.rounds != (fight.round if fight is not None else 0):
        return f"the fight had {fight.round if fight else 0} rounds, not {e.rounds}"
    for name in e.caught:
        missing = no_member(at.state, name)
        if missing is not None:
            return missing
    if e.away and e.caught:
        return "the party got away, yet some of it was caught"
    return None
