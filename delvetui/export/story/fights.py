"""What the fights add to a part's summary: each fight that ended, its rounds and what
became of the foes, how many foes the party defeated, and the encounters it fled."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.fights import tally as foes_told
from delvetui.core.state import State
from delvetui.export.story.tally import Tally, take
from delvetui.text import counted


def _told(tally: Tally, state: State, said: str, words: str) -> None:
    """A fight (or a flight) ended: its line, and the foes it defeated where one was fought."""
    if state.fight is not None:
        tally.defeated += sum(1 for foe in state.foes if not foe.fighting)
    after = f" — {words}" if words else ""
    tally.fights.append(f"{said}: {foes_told(state.foes)}{after}")


@take.register
def _(event: ev.FightEnded, tally: Tally, state: State) -> None:
    _told(tally, state, counted(event.rounds, "round"), event.words)


@take.register
def _(event: ev.PartyFled, tally: Tally, state: State) -> None:
    if event.away:
        rounds = f" after {counted(event.rounds, 'round')}" if event.rounds else ""
        _told(tally, state, f"fled{rounds}", event.words)
