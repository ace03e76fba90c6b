"""What the players see of a fight: its round and who acts first while it goes on, and the
foes once the game master reveals them (``reveal foes``): "three goblins, one fled".

The foes are told by kind and number, never by their hit points or names: what the
characters see across the room. Pure: state in, words out.
"""

from __future__ import annotations

import attrs

from delvetui.core.fights import tally
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import visible


@attrs.frozen
class FightView:
    """The fight on the players' screen, in plain words."""

    #: "Round 2", while a fight goes on ('' when none does).
    round: str
    #: "The party acts first", "The foes act first", "Ash, then the foes, then Bo".
    first: str
    #: The foes, once revealed: "three goblins, one fled" (None: not revealed).
    foes: str | None

    def lines(self) -> list[str]:
        """The fight, one line each (for a test or a plain terminal)."""
        found = [f"{self.round}: {self.first}"] if self.round else []
        return found + ([f"Foes: {self.foes}"] if self.foes else [])


def fight_view(state: State, procedure: Procedure, *, foes_shown: bool) -> FightView | None:
    """What the players see of the fight and the foes, or None when there is nothing:
    no fight, and no foes revealed (``foes_shown``)."""
    fight = state.fight
    foes = visible(tally(state.foes, spelt=True)) if foes_shown and state.foes else None
    if fight is None and foes is None and not state.pursued:
        return None
    if fight is None:
        if state.pursued:
            return FightView(round="Chase", first="The party flees, pursued", foes=foes)
        return FightView(round="", first="", foes=foes)
    first = first_words(state) + ("; the party flees, pursued" if state.pursued else "")
    return FightView(round=round_words(state, procedure), first=first, foes=foes)


def round_words(state: State, procedure: Procedure) -> str:
    """The fight's round as the game calls it: "Round 2" ('' when no fight goes on)."""
    if state.fight is None:
        return ""
    label = procedure.encounter.round_label
    return f"{label[:1].upper()}{label[1:]} {state.fight.round}"


def first_words(state: State) -> str:
    """Who acts first this round, as the players hear it."""
    fight = state.fight
    if fight is None:
        return ""
    if fight.before or fight.after:
        order = [
            ", ".join(map(visible, fight.before)),
            "the foes",
            ", ".join(map(visible, fight.after)),
        ]
        said = ", then ".join(part for part in order if part)
        return said[:1].upper() + said[1:]
    return "The party acts first" if fight.first == "party" else "The foes act first"


#: The table's fight keys, by their action's name.
FIGHT_KEYS = (
    "add_foes",
    "begin_fight",
    "next_round",
    "hurt_foe",
    "check_morale",
    "flee",
    "end_fight",
)


def fight_keys(state: State, procedure: Procedure) -> frozenset[str]:
    """Which of the table's fight keys have a use now: foes to bring in where there are
    none; the fight to begin where foes fight; its next round, a morale check (where the
    game rolls morale) and its end while it goes on; a foe to hurt or heal while any is there;
    a flight while any foe fights.
    """
    found: set[str] = set()
    fighting = any(foe.fighting for foe in state.foes)
    if state.fight is None:
        found.add("begin_fight" if fighting else "add_foes")
    else:
        found |= {"next_round", "end_fight"}
        if procedure.encounter.has_morale and fighting:
            found.add("check_morale")
    if state.foes:
        found.add("hurt_foe")
    if fighting:
        found.add("flee")
    return frozenset(found)
