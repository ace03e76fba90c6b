"""Encounters and the adventure: an encounter met or described, a sign found, the
adventure's own tables carried and an area of it entered.
"""

from typing import Any

import attrs

from delvetui.core.events.base import Event, event, upcaster

__all__ = [
    "AreaEntered",
    "EncounterBegan",
    "EncounterDescribed",
    "SignFound",
    "TablesAdded",
]


@event(5)
@attrs.frozen(repr=False, eq=False)
class EncounterBegan(Event):
    """An encounter: the party meets a creature (the one a sign promised, if any).

    Version 2 added ``foretold``: whether the creature is the one a sign foretold (true)
    or one the game master named (false). Version 1 named a creature only from a sign.
    Version 3 added ``distance``: how far away the encounter begins, in words ("far",
    "70 feet"), or empty when nobody said.
    Version 4 added ``area``, ``appearing`` and ``reaction``: what the adventure's own
    table for the area gave (how many appear, 0 when not rolled; their reaction).
    Version 5 added ``players``: what the players' screen says of it, in the players'
    words ('' for nothing more than that there is an encounter); ``text`` is the game
    master's.
    """

    text: str
    creature: str = ""
    foretold: bool = True
    distance: str = ""
    area: str = ""
    appearing: int = 0
    reaction: str = ""
    players: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class EncounterDescribed(Event):
    """The game master named this turn's encounter, or said how far away it is, after the
    dice showed it (``encounter creature=ghouls distance=40ft``); empty means unchanged."""

    creature: str = ""
    distance: str = ""


@event(2)
@attrs.frozen(repr=False, eq=False)
class SignFound(Event):
    """The party found a sign; when it ``foretells``, the next encounter is its creature.

    Version 2 added ``creature`` and ``foretells``: only a procedure that carries a sign
    forward names the next encounter by it.
    """

    text: str
    creature: str = ""
    foretells: bool = False


@event()
@attrs.frozen(repr=False, eq=False)
class TablesAdded(Event):
    """The game master's own tables for the adventure joined the expedition.

    Carries the file's full text, so the expedition never reads the file again; tables with
    the id of tables already carried replace them (the file was edited).
    """

    id: str
    name: str
    text: str


@event()
@attrs.frozen(repr=False, eq=False)
class AreaEntered(Event):
    """The party moved to another area (level) of the adventure: its table is in use."""

    area: str


# Upcasters: older payloads as the next version writes them (see ``base.upcaster``).


@upcaster("EncounterBegan", 1)
def _encounter_began_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 named a creature only from a sign: a named creature was the one foretold.
    return {"foretold": True, **payload}


@upcaster("EncounterBegan", 2)
def _encounter_began_2(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 2 never said how far away an encounter began.
    return {"distance": "", **payload}


@upcaster("EncounterBegan", 3)
def _encounter_began_3(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 3 knew no adventure's own tables: no area, no number appearing, no reaction.
    return {"area": "", "appearing": 0, "reaction": "", **payload}


@upcaster("EncounterBegan", 4)
def _encounter_began_4(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 4 kept only the game master's words: nothing was said for the players.
    return {"players": "", **payload}


@upcaster("SignFound", 1)
def _sign_found_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 signs foretold nothing: no procedure carried a sign forward yet.
    return {"creature": "", "foretells": False, **payload}
