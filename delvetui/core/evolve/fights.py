"""Fights: the foes joined, hurt, down or fled and taken off; a side surprised; the fight
begun, its rounds, its morale checks and its end (which the chronicle counts).
"""

from __future__ import annotations

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import rule
from delvetui.core.state import Fight, Foe, State


def _foe(state: State, name: str) -> Foe:
    found = next((foe for foe in state.foes if foe.name == name), None)
    if found is None:
        raise ValueError(f"no foe named {name!r}")
    return found


def _fight(state: State) -> Fight:
    if state.fight is None:
        raise ValueError("no fight is under way")
    return state.fight


@rule.register
def _(event: ev.SideSurprised, state: State) -> State:
    if event.side in state.surprised:
        return state
    return attrs.evolve(state, surprised=(*state.surprised, event.side))


@rule.register
def _(event: ev.FoeJoined, state: State) -> State:
    foe = Foe(
        name=event.name,
        hp=event.hp,
        max_hp=event.max_hp,
        kind=event.kind,
        morale=event.morale,
        note=event.note,
    )
    return attrs.evolve(state, foes=(*state.foes, foe))


@rule.register
def _(event: ev.FoeHitPointsChanged, state: State) -> State:
    return state.with_foe(attrs.evolve(_foe(state, event.name), hp=event.hp))


@rule.register
def _(event: ev.FoeStateChanged, state: State) -> State:
    return state.with_foe(attrs.evolve(_foe(state, event.name), state=event.state))


@rule.register
def _(event: ev.FoeRemoved, state: State) -> State:
    _foe(state, event.name)
    return attrs.evolve(state, foes=tuple(f for f in state.foes if f.name != event.name))


@rule.register
def _(event: ev.FightBegan, state: State) -> State:
    return attrs.evolve(state, fight=Fight(round=0, turn=state.turn), surprised=())


@rule.register
def _(event: ev.RoundBegan, state: State) -> State:
    fight = attrs.evolve(
        _fight(state),
        round=event.number,
        first=event.first,
        party_roll=event.party_roll,
        foes_roll=event.foes_roll,
        lost=event.lost,
        before=event.before,
        after=event.after,
        idle=event.idle,
    )
    return attrs.evolve(state, fight=fight)


@rule.register
def _(event: ev.MoraleChecked, state: State) -> State:
    if event.member:
        return state  # a retainer's check: the log tells it, the state keeps no count
    for name in event.names:
        if name not in event.failed:
            foe = _foe(state, name)
            state = state.with_foe(attrs.evolve(foe, held=foe.held + 1))
    if event.trigger and state.fight is not None:
        fight = attrs.evolve(state.fight, fired=(*state.fight.fired, event.trigger))
        state = attrs.evolve(state, fight=fight)
    return state


def _over(state: State) -> State:
    """The encounter is over: its foes gone, any fight counted with the foes it defeated."""
    fought = state.fight is not None
    defeated = sum(1 for foe in state.foes if not foe.fighting) if fought else 0
    return attrs.evolve(
        state,
        fight=None,
        foes=(),
        surprised=(),
        pursued=False,
        fights=state.fights + fought,
        foes_defeated=state.foes_defeated + defeated,
    )


@rule.register
def _(event: ev.FightEnded, state: State) -> State:
    _fight(state)
    return _over(state)


@rule.register
def _(event: ev.PartyFled, state: State) -> State:
    if not event.away:
        return attrs.evolve(state, pursued=True)
    return attrs.evolve(_over(state), escapes=state.escapes + 1)
