"""The words of the encounters' events and the adventure's: an encounter (on the
adventure's own table: how many, where, their reaction), one described, a sign, the
tables carried, an area entered."""

from __future__ import annotations

from delvetui.core import areas
from delvetui.core import events as ev
from delvetui.core.evolve import UNNAMED_CREATURE
from delvetui.core.log.words import Said, sentence, words
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import away


@words.register
def _(event: ev.EncounterBegan, procedure: Procedure, state: State) -> Said:
    if event.area:
        return "encounter", _met(event, procedure, state)
    text = sentence(event.text)
    if event.distance:
        text += f" Distance: {sentence(event.distance)}"
    if event.creature == UNNAMED_CREATURE:
        return "encounter", f"Encounter with {event.creature}! {text}"
    if event.creature and event.foretold:
        return "encounter", (f"Encounter with {event.creature}, as the sign foretold! {text}")
    if event.creature:
        return "encounter", f"Encounter with {event.creature}! {text}"
    return "encounter", f"Encounter! {text}"


@words.register
def _(event: ev.EncounterDescribed, procedure: Procedure, state: State) -> Said:
    said = [f"it is {event.creature}"] if event.creature else []
    said += [f"it is {away(event.distance)}"] if event.distance else []
    return "encounter", f"The encounter: {sentence(' and '.join(said))}"


@words.register
def _(event: ev.SignFound, procedure: Procedure, state: State) -> Said:
    if not event.foretells:
        return "sign", f"Sign: {event.text}"
    if event.creature:
        return "sign", (
            f"Sign: {sentence(event.text)} It is a sign of {event.creature}: "
            "the next encounter is that creature."
        )
    return "sign", (
        f"Sign: {sentence(event.text)} The next encounter is the creature it foretells."
    )


@words.register
def _(event: ev.TablesAdded, procedure: Procedure, state: State) -> Said:
    return "info", f"The expedition carries the adventure's tables: {event.name}."


@words.register
def _(event: ev.AreaEntered, procedure: Procedure, state: State) -> Said:
    label = areas.areas(state).get(event.area, event.area)
    return "time", f"The party enters {label} (its encounter table is in use)."


def _met(event: ev.EncounterBegan, procedure: Procedure, state: State) -> str:
    """An encounter on the adventure's own table: who, how many, where, their reaction."""
    how_many = f"{event.appearing} × " if event.appearing else ""
    foretold = ", as the sign foretold" if event.foretold else ""
    where = areas.areas(state).get(event.area, event.area)
    reaction = f" Reaction: {sentence(event.reaction)}" if event.reaction else ""
    distance = f" Distance: {sentence(event.distance)}" if event.distance else ""
    return (
        f"Encounter with {how_many}{event.creature}{foretold} ({where})! "
        f"{sentence(event.text)}{distance}{reaction}"
    )
