"""The encounter: the foes with their hit points and states, the round, who acts first,
and whether the party, having fled, is pursued.

Shown while the encounter has foes (or a fight goes on); hidden otherwise, so the column
looks as it always did between fights. A click on a foe asks what happens to it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message

from delvetui.core.fight_view import first_words, round_words
from delvetui.core.state import Foe
from delvetui.text import visible
from delvetui.ui.bars import bar
from delvetui.ui.panes.pane import RowPane

#: The widest a foe's hit point bar is drawn.
BAR_WIDTH = 10


class EncounterPane(RowPane):
    """The foes, each with a hit point bar and their state; the round and who acts first."""

    PREFIX = "encounter"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "encounter--round",
        "encounter--bar",
        "encounter--low",
        "encounter--out",
        "encounter--muted",
    }

    class FoeClicked(Message):
        """The game master clicked a foe: ask what happens to it."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def render(self) -> RenderableType:
        """The round's line, then a line per foe (those still fighting first when short)."""
        return self._drawn(self.size.width, self.budget)

    def wanted(self, width: int) -> tuple[int, int]:
        """The round and each foe still fighting say what matters; every foe fills it."""
        fighting = sum(1 for foe in self.state.foes if foe.fighting)
        head = 1 if self.state.fight is not None or self.state.pursued else 0
        return max(1, head + fighting), max(1, head + len(self.state.foes))

    def drawn_lines(self, width: int, budget: int) -> int:
        return min(budget, self.wanted(width)[1])

    def _drawn(self, width: int, budget: int | None) -> Text:
        state = self.state
        lines: list[Text] = []
        rows: list[str | None] = []
        if state.fight is not None or state.pursued:
            # "Round 2 · pursued · The party acts first": the chase before who acts first,
            # which a narrow pane cuts.
            said = round_words(state, self.procedure)
            line = Text(said or "Pursued", self._style("round"))
            if said and state.pursued:
                line.append(" · pursued", self._style("round"))
            if said:
                line.append(f" · {visible(first_words(state))}")
            lines.append(line)
            rows.append(None)
        foes = list(state.foes)
        room = None if budget is None else max(0, budget - len(lines))
        left: list[Foe] = []
        if room is not None and room < len(foes):
            # Short of lines: the foes still fighting first, then those out of it, as many
            # as fit with a line to count the rest; when exactly the fighters fit, they
            # alone (the foes out of the fight go unsaid).
            fighting = [foe for foe in foes if foe.fighting]
            gone = [foe for foe in foes if not foe.fighting]
            shown = fighting if room == len(fighting) else (fighting + gone)[: max(0, room - 1)]
            left = [] if room == len(fighting) else [foe for foe in foes if foe not in shown]
            foes = [foe for foe in foes if foe in shown]
        name_width = max((len(visible(foe.name)) for foe in foes), default=0)
        name_width = min(name_width, max(6, width - BAR_WIDTH - 10))
        for foe in foes:
            lines.append(self._foe_line(foe, name_width, width))
            rows.append(foe.name)
        if left:
            out = sum(1 for foe in left if not foe.fighting)
            words = f"+{len(left)} more" + (f" ({out} out of the fight)" if out else "")
            lines.append(Text(words, self._style("muted")))
            rows.append(None)
        self._rows = rows
        if budget is not None:
            lines = lines[: max(1, budget)]
        return Text("\n", no_wrap=True, overflow="ellipsis").join(lines) if lines else Text()

    def _foe_line(self, foe: Foe, name_width: int, width: int) -> Text:
        """'goblin2  ▓▓▓▓░░░░░░ 3/7' or 'goblin1  down'."""
        name = visible(foe.name)
        line = Text(name[:name_width].ljust(name_width) + " ")
        if not foe.fighting:
            line.append(foe.state, self._style("out"))
            line.append(f" {foe.hp}/{foe.max_hp}", self._style("muted"))
            return line
        room = max(3, min(BAR_WIDTH, width - name_width - 9))
        low = foe.hp * 2 <= foe.max_hp
        line.append(bar(foe.hp, foe.max_hp, room), self._style("low" if low else "bar"))
        line.append(f" {foe.hp}/{foe.max_hp}")
        return line

    def on_click(self, event: events.Click) -> None:
        """A click on a foe asks what happens to it."""
        name = self.row_at(event)
        if name is not None:
            self.post_message(self.FoeClicked(name))
