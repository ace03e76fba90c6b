"""The words of the fights' events: who the encounter surprised, the foes joining, hurt,
falling and fleeing, each round and who acts first, the morale checks, the fight's end and
what it left, and the party's flight."""

from __future__ import annotations

from collections.abc import Sequence

from delvetui.core import events as ev
from delvetui.core.fights import lasted, tally
from delvetui.core.log.words import Said, capital, sentence, words
from delvetui.core.morale import retainer_score
from delvetui.core.morale import score as score_of
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import counted, plural


@words.register
def _(event: ev.SideSurprised, procedure: Procedure, state: State) -> Said:
    if event.side == "party":
        return "fight", "The party is surprised: it loses the first round of a fight."
    return "fight", "The foes are surprised: they lose the first round of a fight."


@words.register
def _(event: ev.FoeJoined, procedure: Procedure, state: State) -> Said:
    said = [f"{event.hp} HP"]
    if event.morale is not None:
        said.append(f"morale {event.morale}")
    note = f" — {sentence(event.note)}" if event.note else "."
    return "fight", f"{event.name} joins the encounter ({', '.join(said)}){note}"


@words.register
def _(event: ev.FoeHitPointsChanged, procedure: Procedure, state: State) -> Said:
    foe = state.foe(event.name)
    most = f"/{foe.max_hp}" if foe is not None else ""
    if event.change < 0:
        return "fight", f"{event.name} takes {-event.change} damage ({event.hp}{most} HP)."
    return "fight", f"{event.name} heals {event.change} ({event.hp}{most} HP)."


@words.register
def _(event: ev.FoeStateChanged, procedure: Procedure, state: State) -> Said:
    name = event.name
    if event.state == "down":
        why = " at 0 HP" if event.reason == "0 HP" else ""
        return "fight", f"{name} is down{why}."
    if event.state == "fled":
        why = ": its morale breaks" if event.reason == "morale" else ""
        return "fight", f"{name} flees{why}."
    if event.state == "surrendered":
        return "fight", f"{name} surrenders."
    return "fight", f"{name} is back in the fight."


@words.register
def _(event: ev.FoeRemoved, procedure: Procedure, state: State) -> Said:
    return "fight", f"{event.name} is taken out of the encounter."


@words.register
def _(event: ev.FightBegan, procedure: Procedure, state: State) -> Said:
    fighting = [foe for foe in state.foes if foe.fighting]
    return "fight", f"The fight begins: the party against {tally(fighting)}."


@words.register
def _(event: ev.RoundBegan, procedure: Procedure, state: State) -> Said:
    label = capital(procedure.encounter.round_label)
    if event.before or event.after:
        order = [", ".join(event.before), "the foes", ", ".join(event.after)]
        acts = f"{' then '.join(part for part in order if part)} in that order"
    else:
        acts = "the party acts first" if event.first == "party" else "the foes act first"
    idle = ""
    if event.idle:
        idle = f"; {_names(event.idle)} {'loses' if len(event.idle) == 1 else 'lose'} the round"
    how = f" ({event.how})" if event.how else ""
    return "fight", f"{label} {event.number}: {acts}{idle}{how}."


@words.register
def _(event: ev.MoraleChecked, procedure: Procedure, state: State) -> Said:
    rules = procedure.encounter
    if event.member:
        member = state.member(event.member)
        own = retainer_score(member, procedure) if member is not None else None
        score = f" {own}" if own is not None else ""
        result = "breaks: they flee or desert" if event.failed else "holds"
        return (
            "check",
            f"→ {event.member}'s morale {result} ({event.total}; {event.against}{score}).",
        )
    foes = [foe for foe in state.foes if foe.name in event.names]
    scores = {score_of(foe, rules) for foe in foes}
    score = f" {scores.pop()}" if len(scores) == 1 else ""
    held = [name for name in event.names if name not in event.failed]
    said = []
    if event.failed:
        said.append(f"{_names(event.failed)} {'breaks' if len(event.failed) == 1 else 'break'}")
    if held:
        said.append(f"{_names(held)} {'holds' if len(held) == 1 else 'hold'}")
    return "check", f"→ {'; '.join(said)} ({event.total}; to hold: {event.against}{score})."


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@words.register
def _(event: ev.FightEnded, procedure: Procedure, state: State) -> Said:
    rules = procedure.encounter
    rounds = counted(event.rounds, rules.round_label)
    took = lasted(event.rounds, rules.round_seconds)
    words_said = f": {sentence(event.words)}" if event.words else "."
    left = f" The foes: {tally(state.foes)}." if state.foes else ""
    return "fight", f"The fight ends after {rounds} ({took}){words_said}{left}"


@words.register
def _(event: ev.PartyFled, procedure: Procedure, state: State) -> Said:
    rules = procedure.encounter
    after = ""
    if event.rounds:
        after = f" after {counted(event.rounds, rules.round_label)}"
    how = f" ({event.how})" if event.how else ""
    words_said = f": {sentence(event.words)}" if event.words else "."
    if event.away:
        return "fight", f"The party flees{after} and gets away{how}{words_said}"
    who = ""
    if event.caught:
        who = f" {_names(event.caught)} {'is' if len(event.caught) == 1 else 'are'} caught."
    chase = f" {sentence(rules.flight_text)}" if rules.flight_text else ""
    return (
        "fight",
        f"The party flees{after} but is caught{how}{words_said}{who} A pursuit: play it in "
        f"{plural(rules.round_label)} (fight, round), flee again, or stand.{chase}",
    )
