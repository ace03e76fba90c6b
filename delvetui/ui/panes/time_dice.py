"""Time dice: the hour drawn as d6 faces (one die per quarter of the day), and the clock."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from delvetui.core.calendar import date_for
from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.procedure.model import Procedure
from delvetui.ui.panes.pane import Pane

#: Where the pips of each face sit on a 3×3 grid (row, column).
PIPS: dict[int, frozenset[tuple[int, int]]] = {
    1: frozenset({(1, 1)}),
    2: frozenset({(0, 2), (2, 0)}),
    3: frozenset({(0, 2), (1, 1), (2, 0)}),
    4: frozenset({(0, 0), (0, 2), (2, 0), (2, 2)}),
    5: frozenset({(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)}),
    6: frozenset({(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)}),
}
#: One-cell die faces for the compact layout.
FACES = " ⚀⚁⚂⚃⚄⚅"


def face_rows(face: int) -> list[str]:
    """A die face as three rows of seven cells."""
    pips = PIPS.get(face, frozenset())
    return [
        " " + " ".join("●" if (row, col) in pips else " " for col in range(3)) + " "
        for row in range(3)
    ]


def clock_parts(state: State, procedure: Procedure) -> tuple[str, str, str]:
    """The clock and date, the quarter's name, and the turn within the hour (the watch
    within the day, the week within the expedition): what the time pane says, and the
    header where the table is too short for the pane."""
    quarters = procedure.time.quarters
    quarter = quarters[min(state.hour // 6, len(quarters) - 1)] if quarters else ""
    clock = f"{state.clock_text}  {date_for(state, procedure)}"
    per_turn = procedure.turn_minutes(state.turn_type)
    name = procedure.turn_name(state.turn_type).split()[-1]
    within = ""
    if per_turn < 60 and 60 % per_turn == 0:
        minute = state.clock % 60
        within = f"{name} {minute // per_turn + 1} of {60 // per_turn}"
    elif 60 < per_turn < MINUTES_PER_DAY and MINUTES_PER_DAY % per_turn == 0:
        # Watches: which of the day's watches this is.
        minute = state.clock % MINUTES_PER_DAY
        within = f"{name} {minute // per_turn + 1} of {MINUTES_PER_DAY // per_turn}"
    elif per_turn >= MINUTES_PER_DAY:
        # Turns of a day or more: the week the expedition is in.
        within = f"week {(state.day - 1) // 7 + 1}"
    return clock, quarter, within


class TimeDice(Pane):
    """The time of day as time dice, the clock, the day, the quarter and the turn in the hour."""

    PREFIX = "time-dice"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "time-dice--die",
        "time-dice--empty",
        "time-dice--clock",
        "time-dice--muted",
    }

    compact: reactive[bool] = reactive(False, layout=True)
    """Draw one line instead of die tiles (small terminals)."""

    def clock_parts(self) -> tuple[str, str, str]:
        """The clock and date, the quarter's name, and the turn within the hour."""
        return clock_parts(self.state, self.procedure)

    def wanted(self, width: int) -> tuple[int, int]:
        """One line (the faces, the clock, the quarter); three for the dice as tiles."""
        return 1, 1 if self.compact else 3

    def render(self) -> RenderableType:
        """The dice and the clock."""
        state = self.state
        faces = state.time_dice
        clock, quarter, within = self.clock_parts()
        text = Text(no_wrap=True, overflow="ellipsis")
        die = self._style("die")
        muted = self._style("muted")
        if self.compact or (self.budget is not None and self.budget < 3):
            shown = " ".join(FACES[face] for face in faces) or "·"
            text.append(f"{shown} ", die)
            text.append(f" {clock}", self._style("clock"))
            text.append(f" {quarter}", muted)
            if within:  # on the same line: the compact pane is one line high
                text.append(f" · {within}", muted)
            return text
        slots = max(4, len(faces))
        side = [(clock, self._style("clock")), (quarter, Style()), (within, muted)]
        for row in range(3):
            if row:
                text.append("\n")
            for slot in range(slots):
                if slot < len(faces):
                    text.append(face_rows(faces[slot])[row], die)
                else:
                    blank = "   " + ("·" if row == 1 else " ") + "   "
                    text.append(blank, self._style("empty"))
                text.append(" ")
            words, style = side[row]
            text.append(f" {words}", style)
        return text
