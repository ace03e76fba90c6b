"""The party in a part's story: what the party's events add to the tally (damage, healing,
conditions and fatigue gained, who left), and the summary's line for each member."""

from __future__ import annotations

from delvetui.core import conditions
from delvetui.core import events as ev
from delvetui.core.state import State
from delvetui.export.story.tally import Tally, add_once, take
from delvetui.procedure.model import Procedure


@take.register
def _(event: ev.HpChanged, tally: Tally, state: State) -> None:
    if event.change < 0:
        tally.damage[event.name] = tally.damage.get(event.name, 0) - event.change
    if event.change > 0:
        tally.healed[event.name] = tally.healed.get(event.name, 0) + event.change


@take.register
def _(event: ev.ConditionGained, tally: Tally, state: State) -> None:
    add_once(tally.gained.setdefault(event.name, []), event.condition)


@take.register
def _(event: ev.FatigueChanged, tally: Tally, state: State) -> None:
    add_once(tally.gained.setdefault(event.name, []), event.label)


@take.register
def _(event: ev.MemberLeft, tally: Tally, state: State) -> None:
    tally.left.append(event.name)


def members(tally: Tally, procedure: Procedure, end: State) -> list[str]:
    ladder = procedure.party.fatigue
    items = []
    for member in end.party:
        now = [f"{member.hp}/{member.max_hp} HP"]
        if member.fatigue and ladder:
            now.append(procedure.party.fatigue_label(member.fatigue))
        now.extend(conditions.shown(member, end, procedure))
        now.extend(
            f"{resource.label.lower()} {member.resource(key)}"
            for key, resource in procedure.resources.items()
            if resource.per == "member"
        )
        changes = []
        if member.name in tally.damage:
            changes.append(f"took {tally.damage[member.name]} damage")
        if member.name in tally.healed:
            changes.append(f"regained {tally.healed[member.name]} HP")
        if tally.gained.get(member.name):
            changes.append(f"became {', '.join(tally.gained[member.name])}")
        told = f"{member.name}: {', '.join(now)}"
        items.append(f"{told} — {'; '.join(changes)}" if changes else told)
    items.extend(f"{name} left the party" for name in tally.left)
    return items
