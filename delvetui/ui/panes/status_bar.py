"""The header line: expedition, procedure, turn, date and clock, light, session, table dice,
read-only."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from delvetui.core.areas import areas
from delvetui.core.calendar import date_for
from delvetui.core.member_light import party_level
from delvetui.text import visible
from delvetui.ui.panes.light_inventory import standing_still
from delvetui.ui.panes.pane import Pane
from delvetui.ui.panes.time_dice import FACES, clock_parts


class StatusBar(Pane):
    """One line the game master can read from across the table."""

    PREFIX = "status-bar"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "status-bar--name",
        "status-bar--bright",
        "status-bar--dim",
        "status-bar--dark",
        "status-bar--badge",
        "status-bar--readonly",
        "status-bar--muted",
    }

    table_dice: reactive[bool] = reactive(False)
    """True when the program asks for every roll instead of rolling."""

    readonly: reactive[str] = reactive("")
    """Why the expedition cannot be changed ('' when it can)."""

    with_time: reactive[bool] = reactive(False)
    """True where the table is too short for the time pane: the header says the time
    dice, the part of the day and the turn within the hour after the clock."""

    def render(self) -> RenderableType:
        """The line; what gives way first when the line is too long: the procedure's
        name, then the time dice and the part of the day (where the header says them),
        then PAUSED for ⏸, then the turn within the hour, then the calendar's date (the day
        count stays)."""
        width = self.content_size.width
        # (the procedure's name, the date, the time's detail, PAUSED in full), by turns.
        tries = [(True, True, 3, True), (False, True, 3, True), (False, True, 2, True)]
        tries += [(False, True, 1, True), (False, True, 1, False), (False, True, 0, False)]
        tries += [(False, False, 0, False)]
        for with_procedure, with_date, detail, paused in tries:
            text = self._line(
                with_procedure=with_procedure, with_date=with_date, detail=detail, paused=paused
            )
            if text.cell_len <= width:
                break
        return text

    def _line(
        self,
        *,
        with_procedure: bool,
        with_date: bool = True,
        detail: int = 0,
        paused: bool = True,
    ) -> Text:
        state = self.state
        procedure = self.procedure
        muted = self._style("muted")
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" {visible(state.name)} ", self._style("name"))
        if with_procedure:
            text.append(f" {procedure.name}", muted)
        turn_name = procedure.turn_name(state.turn_type).capitalize()
        text.append(" │ ", muted)
        text.append(f"{turn_name} {state.turn}", Style(bold=True))
        text.append(" │ ", muted)
        date = date_for(state, procedure) if with_date else f"day {state.day}"
        text.append(f"{date} {state.clock_text}", Style(bold=True))
        if self.with_time and detail:
            _, quarter, within = clock_parts(state, procedure)
            faces = "".join(FACES[face] for face in state.time_dice)
            said = " · ".join(part for part in (quarter if detail >= 2 else "", within) if part)
            text.append(f" {faces}" if detail >= 3 and faces else "", self._style("muted"))
            text.append(f" {said}" if said else "", muted)
        level = party_level(state, procedure)
        text.append(" │ ", muted)
        text.append(f" {level.upper()} ", self._style(level))
        if state.area:
            # The adventure's own tables: the area whose encounter table is in use.
            text.append(" │ ", muted)
            text.append(visible(areas(state).get(state.area, state.area)), Style(bold=True))
        if state.in_session:
            text.append(" │ ", muted)
            text.append(f"Session {state.session}", Style(bold=True))
        if standing_still(state) and (state.real_time_lights or state.real_timers):
            # The real-time lights stand still (b, the table closed, or no session running):
            # said in the header.
            text.append("  ")
            text.append(" PAUSED " if paused else " ⏸ ", self._style("badge"))
        if state.ended:
            text.append("  ")
            text.append(" ENDED ", self._style("readonly"))
        if self.table_dice:
            text.append("  ")
            text.append(" TABLE DICE ", self._style("badge"))
        if self.readonly:
            text.append("  ")
            text.append(" READ-ONLY ", self._style("readonly"))
        return text
