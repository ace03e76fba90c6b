"""The party: members joining, changed and leaving, the marching order, hit points, fatigue,
conditions and their durations, tracks and resources.
"""

from __future__ import annotations

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve.base import member_of, rule
from delvetui.core.state import DEAD, Member, State, pairs


@rule.register
def _(event: ev.MemberJoined, state: State) -> State:
    member = Member(
        name=event.name,
        hp=event.hp,
        max_hp=event.max_hp,
        abilities=pairs(event.abilities),
        tracks=pairs(event.tracks),
    )
    return attrs.evolve(state, party=(*state.party, member))


@rule.register
def _(event: ev.MemberEdited, state: State) -> State:
    member = member_of(state, event.name)
    return state.with_member(
        attrs.evolve(member, max_hp=event.max_hp, abilities=pairs(event.abilities))
    )


@rule.register
def _(event: ev.MemberLeft, state: State) -> State:
    party = tuple(m for m in state.party if m.name != event.name)
    lights = tuple(
        attrs.evolve(light, carrier=None) if light.carrier == event.name else light
        for light in state.lights
    )
    return attrs.evolve(state, party=party, lights=lights)


@rule.register
def _(event: ev.MarchingOrderSet, state: State) -> State:
    place = {name: index for index, name in enumerate(event.names)}
    party = sorted(state.party, key=lambda m: place.get(m.name, len(place)))
    return attrs.evolve(state, party=tuple(party))


@rule.register
def _(event: ev.HpChanged, state: State) -> State:
    return state.with_member(attrs.evolve(member_of(state, event.name), hp=event.hp))


@rule.register
def _(event: ev.FatigueChanged, state: State) -> State:
    return state.with_member(attrs.evolve(member_of(state, event.name), fatigue=event.level))


@rule.register
def _(event: ev.ConditionGained, state: State) -> State:
    member = member_of(state, event.name)
    if event.condition in member.conditions:
        return state
    # A death is dated at the turn it was marked: the log, the campaign and the chronicle
    # tell it then, not at the expedition's end.
    died = (state.turn_now, state.clock) if event.condition == DEAD else member.died_at
    conditions = (*member.conditions, event.condition)
    return state.with_member(attrs.evolve(member, conditions=conditions, died_at=died))


@rule.register
def _(event: ev.ConditionLost, state: State) -> State:
    member = member_of(state, event.name)
    kept = tuple(c for c in member.conditions if c != event.condition)
    died = None if event.condition == DEAD else member.died_at
    changed = attrs.evolve(member, conditions=kept, died_at=died)
    return state.with_member(_untimed(changed, event.condition))


def _untimed(member: Member, condition: str) -> Member:
    """The member with no duration kept for the condition."""
    if not member.timers and not member.until_rest:
        return member
    return attrs.evolve(
        member,
        timers=tuple(item for item in member.timers if item[0] != condition),
        until_rest=tuple(item for item in member.until_rest if item[0] != condition),
    )


@rule.register
def _(event: ev.ConditionTimed, state: State) -> State:
    member = _untimed(member_of(state, event.name), event.condition)
    if event.turns:
        timers = pairs((*member.timers, (event.condition, event.turn + event.turns)))
        member = attrs.evolve(member, timers=timers)
    if event.until:
        until = pairs((*member.until_rest, (event.condition, event.turn)))
        member = attrs.evolve(member, until_rest=until)
    return state.with_member(member)


@rule.register
def _(event: ev.TrackChanged, state: State) -> State:
    member = member_of(state, event.name)
    tracks = dict(member.tracks)
    tracks[event.track] = event.value
    return state.with_member(attrs.evolve(member, tracks=pairs(tracks)))


@rule.register
def _(event: ev.ResourceChanged, state: State) -> State:
    if not event.name:
        resources = dict(state.resources)
        resources[event.resource] = event.value
        return attrs.evolve(state, resources=pairs(resources))
    member = member_of(state, event.name)
    held = dict(member.resources)
    held[event.resource] = event.value
    return state.with_member(attrs.evolve(member, resources=pairs(held)))


@rule.register
def _(event: ev.ResourceShort, state: State) -> State:
    if event.name:
        member_of(state, event.name)
    return state
