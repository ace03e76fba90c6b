"""The party commands: a member joins, or the game master changes one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from delvetui import lazy
from delvetui.core import commands as cmd
from delvetui.core import conditions
from delvetui.core.state import Member, State, track_limit
from delvetui.errors import CommandError
from delvetui.procedure.model import Procedure, Resource
from delvetui.text import closest, suggest

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Work
else:
    ev = lazy.module("delvetui.core.events")

# The turn's rules (``turn``, ``work``) are imported by the commands that use them:
# ``status`` reads the party's stocks from here and needs neither.

#: The most members a party may have.
MAX_PARTY = 50


def add_member(work: Work, command: cmd.AddMember) -> None:
    """A member joins the party (``pc add NAME hp=N ...``)."""
    from delvetui.core.turn import track_start

    if work.state.member(command.name) is not None:
        raise CommandError(f"{command.name} is already in the party; pick another name.")
    if len(work.state.party) >= MAX_PARTY:
        raise CommandError(f"The party already has {MAX_PARTY} members, the most delvetui keeps.")
    # A NAME=N the procedure counts as a member's resource sets that stock (rations=2), one
    # it counts as a track sets where the track starts (awake=0); any other is an ability
    # score, which must be one of the procedure's abilities. A score the procedure lists that
    # also names a track (Trespasser's ENDURANCE) is both: the member keeps it, so the track
    # starts from it again when it is set back (a rest, the next expedition).
    listed = {ability.upper() for ability in work.procedure.party.abilities}
    marks = {k.lower(): v for k, v in command.abilities if k.lower() in work.procedure.tracks}
    given = tuple(
        (k, v) for k, v in command.abilities if k.lower() not in marks or k.upper() in listed
    )
    abilities, stocks = _scores(work.procedure, command.name, given)
    tracks: dict[str, int] = {}
    member = Member(name=command.name, hp=command.hp, max_hp=command.max_hp)
    member = attrs.evolve(member, abilities=tuple(sorted(abilities.items())))
    for name, track in work.procedure.tracks.items():
        tracks[name] = marks.get(name, track_start(track.start, member))
    work.emit(
        ev.MemberJoined(
            name=command.name,
            hp=min(command.hp, command.max_hp),
            max_hp=command.max_hp,
            abilities=abilities,
            tracks=tracks,
        )
    )
    for resource_id, resource in work.procedure.resources.items():
        value = stocks.get(resource_id, resource.start)
        if resource.per == "member" and value:
            work.emit(
                ev.ResourceChanged(
                    name=command.name,
                    resource=resource_id,
                    value=value,
                    change=value,
                    reason="start" if resource_id not in stocks else ev.GAME_MASTER,
                )
            )


#: Scores every procedure takes besides its own abilities: the best modifier outright
#: (MOD) and the proficiency added to it (PROF).
BUILT_IN_SCORES = ("MOD", "PROF")


def _scores(
    procedure: Procedure, name: str, given: tuple[tuple[str, int], ...]
) -> tuple[dict[str, int], dict[str, int]]:
    """The ability scores and the starting resources of ``pc add NAME hp=N KEY=N ...``.

    A key that names a member's resource is its starting stock (0 to the resource's max);
    one that names the party's stock is refused (``party rations=N`` sets it); any other is
    an ability score, refused unless the procedure lists it (when it lists any).
    """
    scores: dict[str, int] = {}
    stocks: dict[str, int] = {}
    for key, value in given:
        resource_id = key.lower()
        rules = procedure.resources.get(resource_id)
        if rules is None:
            _known_ability(procedure, name, key)
            scores[key] = value
            continue
        if rules.per == "party":
            raise CommandError(
                f"{rules.label} are kept by the party as one stock, not by {name}; "
                f"write party {resource_id}={value} after adding {name}."
            )
        top = rules.max if rules.max is not None else value
        if not 0 <= value <= top:
            raise CommandError(
                f"{name} cannot start with {value} {rules.label.lower()}; "
                f"give 0 to {top if rules.max is not None else 'any number'}."
            )
        stocks[resource_id] = value
    return scores, stocks


def _known_ability(procedure: Procedure, name: str, key: str) -> None:
    """Refuse a score the procedure does not give characters, naming those it does (a
    procedure that lists no abilities takes any)."""
    listed = [ability.upper() for ability in procedure.party.abilities]
    if not listed or key.upper() in listed or key.upper() in BUILT_IN_SCORES:
        return
    if key.upper() == procedure.encounter.retainer_morale.upper():
        return  # a retainer's morale score (``[encounter] retainer_morale``), any member's
    mine = [r for r, rules in procedure.resources.items() if rules.per == "member"]
    options = {word.upper(): word for word in [*listed, *mine]}
    close = closest(key.upper(), options)
    also = f"; {name}'s own resources: {', '.join(mine)}" if mine else ""
    hint = f" Did you mean {options[close]}=?" if close else ""
    raise CommandError(
        f"{key}= is not one of {procedure.name}'s abilities ({', '.join(listed)}{also}).{hint}"
    )


def edit_member(work: Work, command: cmd.EditMember) -> None:
    """The game master changes a member: hit points, fatigue, conditions, numbers."""
    member = work.member(command.name)
    unchanged: list[str] = []  # what the command asked for that is so already
    resources = work.procedure.resources
    tracks = work.procedure.tracks
    # rations=3 (and a track, awake=0) reads as an ability until the procedure says it is a
    # resource (or a track); an ability must be one the procedure lists.
    given = {
        key: value
        for key, value in command.abilities
        if key.lower() not in resources and key.lower() not in tracks
    }
    for key in given:
        _known_ability(work.procedure, member.name, key)
    if command.max_hp is not None or given:
        abilities = dict(member.abilities)
        abilities.update(given)
        max_hp = command.max_hp if command.max_hp is not None else member.max_hp
        if max_hp != member.max_hp or abilities != dict(member.abilities):
            work.emit(ev.MemberEdited(name=member.name, max_hp=max_hp, abilities=abilities))
        else:
            unchanged.append(f"{member.name} already has those numbers")
        member = work.member(member.name)
    if command.hp is not None:
        asked = command.hp.apply(member.hp)
        hp = max(0, min(member.max_hp, asked))
        if hp != member.hp:
            work.emit(
                ev.HpChanged(name=member.name, hp=hp, change=hp - member.hp, reason=ev.GAME_MASTER)
            )
        else:
            bound = " (the most is their maximum)" if asked > hp else ""
            bound = " (the least is 0)" if asked < hp else bound
            unchanged.append(f"{member.name} has {hp}/{member.max_hp} hit points already{bound}")
    fatigue = command.fatigue
    counted = work.procedure.fatigue_track
    if fatigue is not None and counted is not None:
        _change_track(work, member.name, counted, fatigue, unchanged)
        fatigue = None
    if fatigue is not None:
        ladder = work.procedure.party.fatigue
        asked = fatigue.apply(member.fatigue)
        level = max(0, min(len(ladder) - 1, asked))
        if level != member.fatigue:
            work.emit(
                ev.FatigueChanged(
                    name=member.name, level=level, label=ladder[level], reason=ev.GAME_MASTER
                )
            )
        else:
            steps = f"fatigue goes from 0 ({ladder[0]}) to {len(ladder) - 1} ({ladder[-1]})"
            if len(ladder) == 1:
                steps = f"{work.procedure.name} keeps no fatigue levels but {ladder[0]}"
            unchanged.append(f"{member.name} is {ladder[level]} (fatigue {level}) already; {steps}")
    durations = dict(command.durations)
    for condition in command.gain:
        lasts = durations.get(condition, "")
        turns = int(lasts) if lasts.isdigit() else None
        until = "rest" if lasts == "rest" else ""
        if not conditions.give(
            work, member.name, condition, ev.GAME_MASTER, turns=turns, until=until
        ):
            unchanged.append(f"{member.name} is {condition} already")
    for condition in command.lose:
        if condition not in work.member(member.name).conditions:
            raise CommandError(f"{member.name} is not {condition}.")
        work.emit(ev.ConditionLost(name=member.name, condition=condition, reason=ev.GAME_MASTER))
    for resource_id, amount in command.resources:
        if resource_id not in resources and resource_id.upper() in given:
            continue  # an ability after all (STR=14)
        if resource_id not in resources and resource_id in tracks:
            _change_track(work, member.name, resource_id, amount, unchanged)
            continue
        rules = _resource(work, resource_id, "member")
        _change_resource(work, member.name, resource_id, rules, amount, unchanged)
    if unchanged and not work.events:
        raise CommandError(f"Nothing changed: {'; '.join(unchanged)}. Nothing was saved.")


def _change_track(
    work: Work, name: str, track_id: str, amount: cmd.Amount, unchanged: list[str]
) -> None:
    """The game master sets a member's track (``pc Ash fatigue=+1``, ``pc Ash awake=0``)."""
    before = work.member(name).track(track_id)
    value = max(0, amount.apply(before))
    if value == before:
        label = work.procedure.tracks[track_id].label
        unchanged.append(f"{name}: {label} is {value} already")
        return
    work.emit(ev.TrackChanged(name=name, track=track_id, value=value, reason=ev.GAME_MASTER))


def edit_party(work: Work, command: cmd.EditParty) -> None:
    """The game master changes the party's own stock of a resource (``party +5 rations``)."""
    unchanged: list[str] = []
    for resource_id, amount in command.resources:
        rules = _resource(work, resource_id, "party")
        _change_resource(work, "", resource_id, rules, amount, unchanged)
    if unchanged and not work.events:
        raise CommandError(f"Nothing changed: {'; '.join(unchanged)}. Nothing was saved.")


def _resource(work: Work, resource_id: str, per: str) -> Resource:
    """The procedure's resource of that id, kept as ``per`` says, or a clear refusal."""
    resources = work.procedure.resources
    if resource_id not in resources:
        known = ", ".join(resources) or "this procedure counts none"
        raise CommandError(
            f"'{resource_id}' is not a resource ({known}).{suggest(resource_id, resources)}"
        )
    rules = resources[resource_id]
    if rules.per != per:
        if per == "party":
            raise CommandError(
                f"{rules.label} are kept by each member; write pc NAME +1 {resource_id}."
            )
        raise CommandError(
            f"{rules.label} are kept by the party as one stock; write party +1 {resource_id}."
        )
    return rules


def _change_resource(
    work: Work,
    name: str,
    resource_id: str,
    rules: Resource,
    amount: cmd.Amount,
    unchanged: list[str],
) -> None:
    """Set or change one stock, between 0 and the resource's max."""
    current = work.member(name).resource(resource_id) if name else work.state.resource(resource_id)
    asked = amount.apply(current)
    value = max(0, asked)
    if rules.max is not None:
        value = min(rules.max, value)
    who = name or "The party"
    if value == current:
        bound = f" (the most is {rules.max})" if asked > value else ""
        bound = " (the least is 0)" if asked < value else bound
        unchanged.append(f"{who} has {current} {rules.label.lower()} already{bound}")
        return
    work.emit(
        ev.ResourceChanged(
            name=name,
            resource=resource_id,
            value=value,
            change=value - current,
            reason=ev.GAME_MASTER,
        )
    )


def stocks(state: State, procedure: Procedure) -> dict[str, Any]:
    """``status --json``'s ``resources``: the party's stock and each member's own, by id.

    Empty (no key at all) when the procedure counts no resources, so every other
    expedition's JSON is as it was.
    """
    if not procedure.resources:
        return {}
    party = {key: state.resource(key) for key, r in procedure.resources.items() if r.per == "party"}
    mine = [key for key, r in procedure.resources.items() if r.per == "member"]
    members = {m.name: {key: m.resource(key) for key in mine} for m in state.party}
    return {"resources": {"party": party, "members": members}}


def track_figure(procedure: Procedure, member: Member, track_id: str) -> tuple[str, str]:
    """A member's track as the roster and ``status`` show it: its label, and its value over
    the member's limit where it has one ("Hours since Make Camp", "8/23")."""
    track = procedure.tracks[track_id]
    limit = track_limit(track.limit, member)
    value = member.track(track_id)
    return track.label, f"{value}" + (f"/{limit}" if limit is not None else "")


def resource_words(data: dict[str, Any], name: str) -> list[str]:
    """A member's own resources in ``status --json`` data, as ``status`` says them."""
    held = data.get("resources", {}).get("members", {}).get(name, {})
    return [f"{key} {value}" for key, value in held.items()]


def party_stock(data: dict[str, Any]) -> dict[str, int]:
    """The party's stock in ``status --json`` data (``status`` lists it with the counters)."""
    stock: dict[str, int] = data.get("resources", {}).get("party", {})
    return stock


def set_marching_order(work: Work, command: cmd.SetMarchingOrder) -> None:
    """The game master sets the marching order (``party order Ash Bo``): the members named
    first, in that order, then the others in the order they had."""
    named = [work.member(name).name for name in command.names]
    order = (*named, *(m.name for m in work.state.party if m.name not in named))
    if order == tuple(m.name for m in work.state.party):
        raise CommandError(f"The marching order is already {', '.join(order)}. Nothing was saved.")
    work.emit(ev.MarchingOrderSet(names=order))
