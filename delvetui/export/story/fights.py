"""What the fights add to a part's summary: each fight that ended, its rounds and what
became of the foes, how many foes the party defeated, and the encounters it fled."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.fights import tally as foes_told
from delvetui.core.state import State
from delvetui.export.story.tally import Tally, take
from delvetui.text import counted


@take.register
def _(event: ev.FightEnded, tally: Tally, state: State) -> None:
    defeated = sum(1 for foe in state.foes if not foe.fighting)
    tally.defeated += defeated
    words = f" — {event.words}" if event.words else ""
    tally.fights.append(f"{counted(event.rounds, 'round')}: {foes_told(state.foes)}{words}")


@take.register
def _(event: ev.PartyFled, tally: Tally, state: State) -> None:
    if not event.away:
        return
    fought = state.fight is not None
    if fought:
        tally.defeated += sum(1 for foe in state.foes if not foe.fighting)
    rounds = f" after {counted(event.rounds, 'round')}" if event.rounds else ""
    words = f" — {event.words}" if event.words else ""
    tally.fights.append(f"fled{rounds}: {foes_told(state.foes)}{words}")
