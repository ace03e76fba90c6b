"""The words of the party's events: members joining, changed and leaving, the marching
order, hit points, fatigue, conditions, tracks and resources; what the game master
changed by hand is said as his."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.log.words import Said, clock_text, why, words
from delvetui.core.state import DEAD, State
from delvetui.procedure.model import Procedure
from delvetui.text import counted


@words.register
def _(event: ev.MemberJoined, procedure: Procedure, state: State) -> Said:
    scores = "".join(f", {name} {value}" for name, value in event.abilities)
    return "party", f"{event.name} joins the party ({event.hp}/{event.max_hp} HP{scores})."


@words.register
def _(event: ev.MemberEdited, procedure: Procedure, state: State) -> Said:
    return "party", f"{event.name}: max HP {event.max_hp}, abilities corrected."


@words.register
def _(event: ev.MemberLeft, procedure: Procedure, state: State) -> Said:
    return "party", f"{event.name} leaves the party."


@words.register
def _(event: ev.MarchingOrderSet, procedure: Procedure, state: State) -> Said:
    return "party", f"Marching order: {', '.join(event.names)}."


@words.register
def _(event: ev.HpChanged, procedure: Procedure, state: State) -> Said:
    amount = abs(event.change)
    if event.reason == ev.GAME_MASTER:
        if event.change < 0:
            return "party", (
                f"The game master takes {amount} HP from {event.name}; now {event.hp} HP."
            )
        return (
            "party",
            f"The game master gives {event.name} {amount} HP; now {event.hp} HP.",
        )
    verb = "loses" if event.change < 0 else "regains"
    return (
        "party",
        f"{event.name} {verb} {amount} HP{why(event.reason)}; now {event.hp} HP.",
    )


@words.register
def _(event: ev.FatigueChanged, procedure: Procedure, state: State) -> Said:
    if event.reason == ev.GAME_MASTER:
        return "party", f"The game master sets {event.name}'s fatigue to {event.label}."
    return "party", f"{event.name} is now {event.label}{why(event.reason)}."


@words.register
def _(event: ev.ConditionGained, procedure: Procedure, state: State) -> Said:
    if event.condition == DEAD:
        member = state.member(event.name)
        if member is not None and member.dead:
            return None  # dead already: nothing happened
        # Dated where it was marked, so the log, the campaign and the chronicle agree.
        told = "the game master's word" if event.reason == ev.GAME_MASTER else event.reason
        when = f"{procedure.turn_name(state.turn_type)} {state.turn_now}"
        return "party", f"{event.name} dies{why(told)}: {when}, {clock_text(state.clock)}."
    if event.reason == ev.GAME_MASTER:
        return (
            "party",
            f"The game master gives {event.name} a condition: {event.condition}.",
        )
    return "party", (f"{event.name} gains a condition: {event.condition}{why(event.reason)}.")


@words.register
def _(event: ev.ConditionLost, procedure: Procedure, state: State) -> Said:
    if event.reason == ev.GAME_MASTER:
        return "party", (f"The game master takes a condition from {event.name}: {event.condition}.")
    return "party", (f"{event.name} loses a condition: {event.condition}{why(event.reason)}.")


@words.register
def _(event: ev.ConditionTimed, procedure: Procedure, state: State) -> Said:
    if event.turns:
        unit = procedure.turn_name(state.turn_type)
        last = event.turn + event.turns
        return "party", (
            f"{event.name} is {event.condition} for {counted(event.turns, unit)} "
            f"(to the end of {unit} {last})."
        )
    return "party", f"{event.name} is {event.condition} until the next rest."


@words.register
def _(event: ev.TrackChanged, procedure: Procedure, state: State) -> Said:
    if event.reason == "time passed":
        return None
    track = procedure.tracks.get(event.track)
    label = track.label if track else event.track
    return "party", f"{event.name}: {label} {event.value} ({event.reason})."


@words.register
def _(event: ev.ResourceChanged, procedure: Procedure, state: State) -> Said:
    resource = procedure.resources.get(event.resource)
    label = resource.label if resource else event.resource
    who = event.name or "The party"
    if event.reason == ev.GAME_MASTER:
        whose = f"{event.name}'s" if event.name else "the party's"
        return "party", (
            f"The game master sets {whose} {label.lower()} to {event.value} ({event.change:+d})."
        )
    return "party", f"{who}: {label} {event.change:+d} → {event.value}{why(event.reason)}."


@words.register
def _(event: ev.ResourceShort, procedure: Procedure, state: State) -> Said:
    resource = procedure.resources.get(event.resource)
    label = (resource.label if resource else event.resource).lower()
    who = event.name or "The party"
    return "party", f"{who} has no {label} left{why(event.reason)}."
