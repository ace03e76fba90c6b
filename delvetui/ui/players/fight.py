"""The fight on the players' screen: the round and who acts first while a fight goes on,
and the foes once the game master reveals them ("three goblins, one fled").

One widget with one job, fed the ``FightView`` the screen reads (``core.fight_view``); it
hides itself when there is no fight and no foe revealed.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from delvetui.core.fight_view import FightView


def fight_text(fight: FightView) -> Text:
    """The fight in words: the round and who acts first, then the foes revealed."""
    text = Text()
    if fight.round:
        text.append(fight.round.upper(), "bold")
        text.append(f" · {fight.first}")
    if fight.foes:
        if fight.round:
            text.append("\n")
        text.append("Foes: ", "bold")
        text.append(fight.foes)
    return text


class FightPanel(Static):
    """The round, who acts first and the foes revealed; hidden when there is none."""

    def show(self, fight: FightView | None) -> None:
        """Put the fight on screen, or hide the panel when there is none."""
        self.display = fight is not None
        self.update(fight_text(fight) if fight is not None else "")
