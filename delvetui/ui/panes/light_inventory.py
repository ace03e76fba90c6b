"""The light inventory: every source, who carries it, how long it has left, and the light level."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive

from delvetui.core import timers
from delvetui.core.level_rules import modifiers_text
from delvetui.core.member_light import party_level
from delvetui.core.modes import modes_text
from delvetui.core.realtime import TIMER_KEY
from delvetui.core.state import Light
from delvetui.text import countdown, time_left, visible
from delvetui.ui.bars import bar
from delvetui.ui.panes.pane import RowPane


class LightInventory(RowPane):
    """Lit and unlit sources with burn-down bars, stacks, and what the light level means."""

    PREFIX = "light-inventory"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "light-inventory--bright",
        "light-inventory--dim",
        "light-inventory--out",
        "light-inventory--spent",
        "light-inventory--dark",
        "light-inventory--muted",
        "light-inventory--low",
    }

    countdown: reactive[dict[str, int]] = reactive(dict)
    """Each real-time light's seconds left as the table's real-time clock counts them."""

    class Chosen(Message):
        """The game master clicked a light (None: the empty inventory)."""

        def __init__(self, light_id: str | None) -> None:
            super().__init__()
            self.light_id = light_id

    def render(self) -> RenderableType:
        """The inventory as styled text, in the lines the table gives it."""
        text, self._rows = self._drawn(self.size.width, self.budget)
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line per row drawn."""
        return len(self._drawn(width, self.budget)[1])

    def wanted(self, width: int) -> tuple[int, int]:
        """The lit lights and a line for the rest; every light, the spent and the light
        level's meaning."""
        usable = [light for light in self.state.lights if not light.spent]
        lit = sum(light.lit for light in usable)
        least = max(1, min(len(usable), lit + 1)) + len(self.state.timers)
        return least, len(self._drawn(width, None)[1])

    def drawn_lines(self, width: int, budget: int) -> int:
        """The rows drawn when given ``budget`` lines."""
        return len(self._drawn(width, budget)[1])

    def _drawn(self, width: int, budget: int | None) -> tuple[Text, list[str | None]]:
        """The inventory at this width in at most ``budget`` lines, and what each row
        stands for. Short of lines, what the light level means goes first (the header says
        the level, the alert strip darkness), then the spent, then the last lights are
        counted on one line ("+2 more, unlit")."""
        state = self.state
        width = max(20, width)
        # Lit lights first: they are the ones burning down.
        usable = sorted(
            (light for light in state.lights if not light.spent), key=lambda light: not light.lit
        )
        spent = [light for light in state.lights if light.spent]
        extra = self._level_lines()
        timed = self._timer_lines()
        lights = max(1, len(usable))
        room = lights + len(timed) + bool(spent) + len(extra) if budget is None else budget
        # Running timers are always shown, under the lights: they run out like a light.
        room = max(1, room - len(timed))
        extra = extra[: max(0, room - lights - bool(spent))]
        show_spent = bool(spent) and room - lights - len(extra) >= 1
        fits = room - len(extra) - show_spent
        shown = usable if fits >= len(usable) else usable[: max(0, fits - 1)]
        text = Text(no_wrap=True, overflow="ellipsis")
        rows: list[str | None] = []
        if not usable:
            text.append("No lights: press l to add one.", self._style("muted"))
            rows.append(None)
        id_width = max((len(visible(light.id)) for light in shown), default=0)
        for light in shown:
            if rows:
                text.append("\n")
            self._light(text, light, width, id_width)
            rows.append(light.id)
        if len(shown) < len(usable):
            if rows:
                text.append("\n")
            rest = usable[len(shown) :]
            lit = sum(light.lit for light in rest)
            how = "unlit" if not lit else f"{lit} lit"
            names = ", ".join(visible(light.id) for light in rest)
            more = f"+{len(rest)} more" if shown else f"{len(rest)} lights"
            text.append(f"{more}, {how}: {names}", self._style("muted"))
            rows.append(None)
        if show_spent:
            names = ", ".join(visible(light.id) for light in spent[-6:])
            more = f" and {len(spent) - 6} more" if len(spent) > 6 else ""
            timed.append(Text(f"Spent: {names}{more}", self._style("spent")))
        # Under the lights: the running timers, the spent lights, what the level means.
        for line in [*timed, *extra]:
            text.append("\n")
            text.append_text(line)
            rows.append(None)
        return text, rows

    def _level_lines(self) -> list[Text]:
        """What the light level means, and what it does to each kind of check."""
        level = party_level(self.state, self.procedure)
        rules = self.procedure.light_level(level)
        style = self._style("dark" if level == "dark" else level)
        # One line: darkness and what it means are spelled out in the alert strip too.
        meaning = Text()
        label = rules.label if rules.label and rules.label != level else level.capitalize()
        meaning.append(label, style + Style(bold=True))
        if rules.text:
            meaning.append(f": {rules.text}", self._style("muted"))
        by_kind = modes_text(None, rules.check_modes, short=True)
        added = modifiers_text(rules.check_modifier, rules.check_modifiers)
        by_kind = " · ".join(part for part in (by_kind, added) if part)
        if by_kind:
            # Its own line: what the level does to each kind of check is read at a glance.
            return [meaning, Text(f"Checks: {by_kind}", self._style("muted"))]
        return [meaning]

    def _light(self, text: Text, light: Light, width: int, id_width: int) -> None:
        procedure = self.procedure
        kind = procedure.lights.get(light.kind)
        row = Text()
        marker = "●" if light.lit else "○"
        row.append(f"{marker} ", self._style(light.state if light.lit else "out"))
        row.append(visible(light.id).ljust(id_width))
        row.append(f" ×{light.count}" if light.count > 1 else "   ")
        wide = width >= 46
        if wide and kind is not None:
            row.append(f" {kind.label[:9]:<9}", self._style("muted"))
        carrier = visible(light.carrier or "—")[:8]
        row.append(f" {carrier:<8}")
        state_word = light.state if light.lit else "unlit"
        row.append(f" {state_word:<6}", self._style(light.state if light.lit else "out"))
        per_turn = procedure.turn_minutes(self.state.turn_type)
        if light.real_seconds is not None:
            self._real_time(row, light, width)
        elif light.minutes is not None and kind is not None:
            full = kind.duration_minutes(per_turn) or light.minutes
            turns = -(-light.minutes // per_turn)
            low = turns <= 2 and light.lit
            # Turns of an hour or less are counted; a watch's worth is told in hours.
            short = not wide or per_turn > 60
            left = f" {time_left(light.minutes, per_turn, 'turn', short=short)}"
            bar_width = max(3, min(12, width - row.cell_len - len(left) - 1))
            row.append(" ")
            row.append(
                bar(light.minutes, max(full, light.minutes), bar_width),
                self._style("low" if low else light.state if light.lit else "out"),
            )
            row.append(left, self._style("low") if low else Style())
        elif light.usage_die is not None:
            row.append(f" usage d{light.usage_die}")
        elif kind is not None and kind.strikes is not None:
            row.append(f" strikes {light.strikes}/{kind.strikes}")
        text.append_text(row)

    def _real_time(self, row: Text, light: Light, width: int) -> None:
        """A real-time light's countdown: a bar of its real time, and minutes:seconds left."""
        kind = self.procedure.lights.get(light.kind)
        seconds = self.countdown.get(light.id, light.real_seconds or 0)
        full = max(seconds, light.real_seconds or 0, 60 * (kind.real_minutes or 0) if kind else 0)
        paused = self.state.realtime_paused
        low = seconds <= 5 * 60 and light.lit
        # ⏱ counting down, ⏸ paused (the pause key, or the table was closed).
        left = f" {'⏸' if paused else '⏱'} {countdown(seconds)}"
        bar_width = max(3, min(12, width - row.cell_len - len(left) - 1))
        row.append(" ")
        row.append(
            bar(seconds, max(full, 1), bar_width),
            self._style("low" if low else light.state if light.lit else "out"),
        )
        row.append(left, self._style("low") if low else Style())

    def on_click(self, event: events.Click) -> None:
        """Clicking a light asks for what to do with it."""
        self.post_message(self.Chosen(self.row_at(event)))

    def _timer_lines(self) -> list[Text]:
        """The running timers, one a line under the lights (nothing when none runs)."""
        state, procedure = self.state, self.procedure
        turn_name = procedure.turn_name(state.turn_type)
        name_width = max((len(visible(t.name)) for t in state.timers), default=0)
        lines: list[Text] = []
        for timer in state.timers:
            soon = timers.ends_next_turn(timer, state, procedure)
            text = Text()
            text.append("⧗ ", self._style("low" if soon else "muted"))
            text.append(visible(timer.name).ljust(name_width))
            if timer.real_time:
                seconds = self.countdown.get(TIMER_KEY + timer.name, timer.left)
                paused = "⏸" if state.realtime_paused else "⏱"
                left = f" {paused} {countdown(seconds)}"
            else:
                left = f" {timers.left_text(timer, turn_name)}"
            soon_text = f" · {timers.soon_text(timer)}" if soon else ""
            text.append(left + soon_text, self._style("low") if soon else "")
            if timer.label:
                text.append(f"  {visible(timer.label)}", self._style("muted"))
            lines.append(text)
        return lines
