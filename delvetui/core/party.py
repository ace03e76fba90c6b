"""The party commands: a member joins, or the game master changes one."""

from __future__ import annotations

import attrs

from delvetui.core import commands as cmd
from delvetui.core import conditions
from delvetui.core import events as ev
from delvetui.core.state import Member
from delvetui.core.turn import track_start
from delvetui.core.work import Work
from delvetui.errors import CommandError


def add_member(work: Work, command: cmd.AddMember) -> None:
    """A member joins the party (``pc add NAME hp=N ...``)."""
    if work.state.member(command.name) is not None:
        raise CommandError(f"{command.name} is already in the party; pick another name.")
    if len(work.state.party) >= 50:
        raise CommandError("The party already has 50 members, the most delvetui keeps.")
    abilities = dict(command.abilities)
    tracks: dict[str, int] = {}
    member = Member(name=command.name, hp=command.hp, max_hp=command.max_hp)
    member = attrs.evolve(member, abilities=tuple(sorted(abilities.items())))
    for name, track in work.procedure.tracks.items():
        tracks[name] = track_start(track.start, member)
    work.emit(
        ev.MemberJoined(
            name=command.name,
            hp=min(command.hp, command.max_hp),
            max_hp=command.max_hp,
            abilities=abilities,
            tracks=tracks,
        )
    )


def edit_member(work: Work, command: cmd.EditMember) -> None:
    """The game master changes a member: hit points, fatigue, conditions, numbers."""
    member = work.member(command.name)
    unchanged: list[str] = []  # what the command asked for that is so already
    if command.max_hp is not None or command.abilities:
        abilities = dict(member.abilities)
        abilities.update(dict(command.abilities))
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
                ev.HpChanged(name=member.name, hp=hp, change=hp - member.hp, reason="game master")
            )
        else:
            bound = " (the most is their maximum)" if asked > hp else ""
            bound = " (the least is 0)" if asked < hp else bound
            unchanged.append(f"{member.name} has {hp}/{member.max_hp} hit points already{bound}")
    if command.fatigue is not None:
        ladder = work.procedure.party.fatigue
        asked = command.fatigue.apply(member.fatigue)
        level = max(0, min(len(ladder) - 1, asked))
        if level != member.fatigue:
            work.emit(
                ev.FatigueChanged(
                    name=member.name, level=level, label=ladder[level], reason="game master"
                )
            )
        else:
            steps = f"fatigue goes from 0 ({ladder[0]}) to {len(ladder) - 1} ({ladder[-1]})"
            unchanged.append(f"{member.name} is {ladder[level]} (fatigue {level}) already; {steps}")
    durations = dict(command.durations)
    for condition in command.gain:
        lasts = durations.get(condition, "")
        turns = int(lasts) if lasts.isdigit() else None
        until = "rest" if lasts == "rest" else ""
        if not conditions.give(
            work, member.name, condition, "game master", turns=turns, until=until
        ):
            unchanged.append(f"{member.name} is {condition} already")
    for condition in command.lose:
        if condition not in work.member(member.name).conditions:
            raise CommandError(f"{member.name} is not {condition}.")
        work.emit(ev.ConditionLost(name=member.name, condition=condition, reason="game master"))
    if unchanged and not work.events:
        raise CommandError(f"Nothing changed: {'; '.join(unchanged)}. Nothing was saved.")
