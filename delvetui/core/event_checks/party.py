"""Checks of the party's events: a member joining, changed or leaving, the marching order,
hit points, fatigue, conditions, tracks and resources."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from delvetui.core import events as ev
from delvetui.core.event_bounds import MAX_NUMBER, shown
from delvetui.core.event_checks.base import At, check, name_problem, no_member, number
from delvetui.core.party import MAX_PARTY
from delvetui.text import MAX_NAME, MAX_TYPED, quote

# What they name must be there: a member leaving, a condition lost.
check.register(ev.MemberLeft)(lambda e, at: no_member(at.state, e.name))
check.register(ev.ConditionLost)(lambda e, at: no_member(at.state, e.name))


@check.register(ev.MarchingOrderSet)
def _marching_order(e: ev.MarchingOrderSet, at: At) -> str | None:
    """A marching order names every member of the party once, and no one else."""
    if sorted(e.names) != sorted(m.name for m in at.state.party):
        return "the marching order does not name each member of the party once"
    return None


@check.register(ev.MemberJoined)
def _joined(e: ev.MemberJoined, at: At) -> str | None:
    if at.state.member(e.name) is not None:
        return f"{quote(e.name)} is already in the party; two members cannot share a name"
    if len(at.state.party) >= MAX_PARTY:
        return f"the party already has {MAX_PARTY} members, the most a party may have"
    unknown = sorted(set(dict(e.tracks)) - set(at.procedure.tracks))
    if unknown:
        return f"{quote(unknown[0])} is not a track of {at.procedure.name}"
    return (
        name_problem("member", e.name)
        or number("max_hp", e.max_hp, 1, MAX_TYPED)
        or number("hp", e.hp, 0, e.max_hp)
        or _abilities(e.abilities)
    )


def _abilities(abilities: Mapping[str, int] | Iterable[tuple[str, int]]) -> str | None:
    pairs = abilities.items() if isinstance(abilities, Mapping) else abilities
    for name, score in pairs:
        if not name or not name.isprintable() or len(name) > MAX_NAME:
            return f"{quote(name)} is not an ability name"
        wrong = number(f"the ability {name}", score, -99, MAX_TYPED)
        if wrong:
            return wrong
    return None


@check.register(ev.MemberEdited)
def _edited(e: ev.MemberEdited, at: At) -> str | None:
    return (
        no_member(at.state, e.name)
        or number("max_hp", e.max_hp, 1, MAX_TYPED)
        or _abilities(e.abilities)
    )


@check.register(ev.HpChanged)
def _hp(e: ev.HpChanged, at: At) -> str | None:
    member = next((m for m in at.state.party if m.name == e.name), None)
    if member is None:
        return no_member(at.state, e.name)
    wrong = number("hp", e.hp, 0, max(member.hp, member.max_hp))
    if wrong:
        return wrong
    if e.change != e.hp - member.hp:
        return f"it says hp changed by {e.change} but {member.hp} to {e.hp} is {e.hp - member.hp}"
    return None


@check.register(ev.FatigueChanged)
def _fatigue(e: ev.FatigueChanged, at: At) -> str | None:
    ladder = at.procedure.party.fatigue
    steps = ", ".join(f"{n} {label}" for n, label in enumerate(ladder))
    if not 0 <= e.level < len(ladder):
        name = at.procedure.name
        return f"fatigue level {shown(e.level)} is not a step of {name}'s ladder ({steps})"
    return no_member(at.state, e.name)


@check.register(ev.ConditionGained)
def _gained(e: ev.ConditionGained, at: At) -> str | None:
    if not e.condition.strip():
        return "the condition has no name"
    return no_member(at.state, e.name)


@check.register(ev.ConditionTimed)
def _timed(e: ev.ConditionTimed, at: At) -> str | None:
    member = at.state.member(e.name)
    if member is None or e.condition not in member.conditions:
        return f"{quote(e.name)} has no condition {quote(e.condition)} at this point"
    if (e.turns > 0) == (e.until == "rest") or e.until not in ("", "rest"):
        return "a condition lasts either a number of turns or until the next rest"
    return number("turn", e.turn, at.state.turn, at.state.turn + 1) or number(
        "turns", e.turns, 0, MAX_TYPED
    )


@check.register(ev.TrackChanged)
def _track(e: ev.TrackChanged, at: At) -> str | None:
    if e.track not in at.procedure.tracks:
        return f"{quote(e.track)} is not a track of {at.procedure.name}"
    return no_member(at.state, e.name)


def _stock(at: At, name: str, resource: str) -> str | None:
    """The resource must be the procedure's, held by a member or the party as it says."""
    rules = at.procedure.resources.get(resource)
    if rules is None:
        known = ", ".join(at.procedure.resources) or "none"
        return f"{quote(resource)} is not a resource of {at.procedure.name} ({known})"
    if rules.per == "party" and name:
        return f"{quote(resource)} is the party's stock, not {quote(name)}'s"
    if rules.per == "member" and not name:
        return f"{quote(resource)} is each member's own, not the party's"
    return no_member(at.state, name) if name else None


@check.register(ev.ResourceChanged)
def _resource_changed(e: ev.ResourceChanged, at: At) -> str | None:
    wrong = _stock(at, e.name, e.resource)
    if wrong is not None:
        return wrong
    rules = at.procedure.resources[e.resource]
    high = rules.max if rules.max is not None else MAX_NUMBER
    return number(e.resource, e.value, 0, max(high, rules.start))


@check.register(ev.ResourceShort)
def _resource_short(e: ev.ResourceShort, at: At) -> str | None:
    if e.resource not in at.procedure.resources:
        return f"{quote(e.resource)} is not a resource of {at.procedure.name}"
    return (no_member(at.state, e.name) if e.name else None) or number(
        "wanted", e.wanted, 1, MAX_NUMBER
    )
