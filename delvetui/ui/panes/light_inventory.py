"""The light inventory: every source, who carries it, how long it has left, and the light level."""

from __future__ import annotations

from typing import ClassVar

import attrs
from rich.cells import cell_len
from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive

from delvetui.core import timers
from delvetui.core.light_order import in_order, numbered
from delvetui.core.member_light import party_level
from delvetui.core.modes import modes_text
from delvetui.core.realtime import TIMER_KEY
from delvetui.core.state import Light, State
from delvetui.text import countdown, time_left, visible
from delvetui.ui.bars import bar, wrapped
from delvetui.ui.panes.pane import RowPane


@attrs.frozen
class Columns:
    """The width of each part of a light's row (0: the part is left out), and whether
    the time left is said in full ("6 turns") or short ("6t")."""

    number: int
    ident: int
    count: int
    kind: int
    carrier: int
    state: int
    bar: int
    long_time: bool = False


def listed(start: str, names: list[str], width: int) -> str:
    """``start`` and as many of the names as fit the width, then how many more."""
    line = start + ", ".join(names)
    if cell_len(line) <= width:
        return line
    for shown in range(len(names) - 1, -1, -1):
        rest = f"+{len(names) - shown}"
        line = start + ", ".join([*names[:shown], rest])
        if cell_len(line) <= width or not shown:
            return line
    return line


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
        stands for. The lights keep the order they were added in, numbered. Short of
        lines, what the light level means goes first (the header says the level, the
        alert strip darkness), then the spent, then the unlit lights are counted on one
        line ("+2 more, unlit"), then the last lit ones."""
        state = self.state
        width = max(20, width)
        usable = in_order(state)
        numbers = numbered(state)
        spent = [light for light in state.lights if light.spent]
        timed = self._timer_lines()
        lights = max(1, len(usable))
        extra = self._level_lines(width)
        room = lights + len(timed) + bool(spent) + len(extra) if budget is None else budget
        # Running timers are always shown, under the lights: they run out like a light.
        room = max(1, room - len(timed))
        if room - lights - bool(spent) < len(extra):
            extra = self._level_lines(width, lines=max(0, room - lights - bool(spent)))
        show_spent = bool(spent) and room - lights - len(extra) >= 1
        fits = room - len(extra) - show_spent
        shown = self._shown(usable, fits)
        text = Text(no_wrap=True, overflow="ellipsis")
        rows: list[str | None] = []
        if not usable:
            text.append("No lights: press l to add one.", self._style("muted"))
            rows.append(None)
        columns = self._columns(shown, numbers, width)
        for light in shown:
            if rows:
                text.append("\n")
            text.append_text(self._light(light, numbers[light.id], columns))
            rows.append(light.id)
        if len(shown) < len(usable):
            if rows:
                text.append("\n")
            rest = [light for light in usable if light not in shown]
            lit = sum(light.lit for light in rest)
            how = "unlit" if not lit else f"{lit} lit"
            more = f"+{len(rest)} more" if shown else f"{len(rest)} lights"
            text.append(
                listed(f"{more}, {how}: ", [visible(light.id) for light in rest], width),
                self._style("muted"),
            )
            rows.append(None)
        if show_spent:
            names = [visible(light.id) for light in spent]
            timed.append(Text(listed("Spent: ", names, width), self._style("spent")))
        # Under the lights: the running timers, the spent lights, what the level means.
        for line in [*timed, *extra]:
            text.append("\n")
            text.append_text(line)
            rows.append(None)
        return text, rows

    @staticmethod
    def _shown(usable: list[Light], fits: int) -> list[Light]:
        """The lights given a row of their own in ``fits`` lines, in their order: every
        one where they fit, else the lit ones and as many unlit as fit beside a line
        counting the rest."""
        if fits >= len(usable):
            return usable
        room = max(0, fits - 1)
        lit = [light for light in usable if light.lit][:room]
        unlit = [light for light in usable if not light.lit][: room - len(lit)]
        return [light for light in usable if light in lit or light in unlit]

    def _level_lines(self, width: int, lines: int | None = None) -> list[Text]:
        """What the light level means, wrapped to the width, and what it does to each
        kind of check; in ``lines`` lines at most (the level's name alone where its
        meaning does not fit)."""
        level = party_level(self.state, self.procedure)
        rules = self.procedure.light_level(level)
        style = self._style("dark" if level == "dark" else level)
        label = rules.label if rules.label and rules.label != level else level.capitalize()
        meaning = Text()
        meaning.append(label, style + Style(bold=True))
        if rules.text:
            meaning.append(f": {rules.text}", self._style("muted"))
        console = self.app.console
        found = wrapped(console, meaning, width)
        by_kind = modes_text(None, rules.check_modes, short=True)
        if by_kind:
            # Its own lines: what the level does to each kind of check is read at a glance.
            found += wrapped(console, Text(f"Checks: {by_kind}", self._style("muted")), width)
        if lines is None or len(found) <= lines:
            return found
        return [Text(label, style + Style(bold=True))][:lines]

    def _columns(self, lights: list[Light], numbers: dict[str, int], width: int) -> Columns:
        """What each light's row holds at this width: every part where it fits; else the
        kind's name goes, the time in fewer letters, the bar, then the state's word (the
        marker's shape says it: ● bright, ◐ dim, ○ unlit)."""
        if not lights:
            return Columns(0, 0, 0, 0, 0, 0, 0)
        kinds = [self.procedure.lights.get(light.kind) for light in lights]
        number = len(str(max(numbers[light.id] for light in lights)))
        ident = max(cell_len(visible(light.id)) for light in lights)
        count = max((len(f" ×{light.count}") for light in lights if light.count > 1), default=0)
        kind = max((cell_len(k.label) for k in kinds if k is not None), default=0)
        carrier = max(cell_len(visible(light.carrier or "—")) for light in lights)
        for long_time, kind_width, bar_least, state in (
            (True, kind, 4, 6),
            (True, 0, 4, 6),
            (False, 0, 4, 6),
            (False, 0, 0, 6),
            (False, 0, 0, 0),
        ):
            times = max(cell_len(self._left(light, long_time)) for light in lights)
            fixed = number + 3 + ident + count + 1 + carrier + (state + 1 if state else 0)
            fixed += (kind_width + 1 if kind_width else 0) + (times + 1 if times else 0)
            room = width - fixed
            if not any(self._burnt(light)[1] for light in lights):
                bar_least = 0  # no light here burns down a bar's worth
            bar_width = min(12, room - 1) if bar_least and room - 1 >= bar_least else 0
            if room >= 0 and (bar_width or not bar_least):
                return Columns(
                    number, ident, count, kind_width, carrier, state, bar_width, long_time
                )
        carrier = max(3, carrier + room)
        return Columns(number, ident, count, 0, carrier, 0, 0, False)

    def _left(self, light: Light, long_time: bool) -> str:
        """The light's time left as its row says it: turns ("6t", "6 turns"), real time
        ("⏱ 58:12"), its usage die or its strikes."""
        kind = self.procedure.lights.get(light.kind)
        per_turn = self.procedure.turn_minutes(self.state.turn_type)
        if light.real_seconds is not None:
            seconds = self.countdown.get(light.id, light.real_seconds or 0)
            return f"{'⏸' if standing_still(self.state) else '⏱'} {countdown(seconds)}"
        if light.minutes is not None and kind is not None:
            # Turns of an hour or less are counted; a watch's worth is told in hours.
            short = not long_time or per_turn > 60
            return time_left(light.minutes, per_turn, "turn", short=short)
        if light.usage_die is not None:
            return f"usage d{light.usage_die}"
        if kind is not None and kind.strikes is not None:
            return f"strikes {light.strikes}/{kind.strikes}"
        return ""

    def _light(self, light: Light, number: int, columns: Columns) -> Text:
        kind = self.procedure.lights.get(light.kind)
        row = Text()
        row.append(f"{number:>{columns.number}} ", self._style("muted"))
        marker = "○" if not light.lit else "◐" if light.state == "dim" else "●"
        row.append(f"{marker} ", self._style(light.state if light.lit else "out"))
        row.append(visible(light.id).ljust(columns.ident))
        count = f" ×{light.count}" if light.count > 1 else ""
        row.append(count.ljust(columns.count))
        if columns.kind:
            row.append(f" {(kind.label if kind else ''):<{columns.kind}}", self._style("muted"))
        carrier = visible(light.carrier or "—")
        if cell_len(carrier) > columns.carrier:
            carrier = carrier[: columns.carrier - 1] + "…"
        row.append(f" {carrier:<{columns.carrier}}")
        style = self._style(light.state if light.lit else "out")
        if columns.state:
            state_word = light.state if light.lit else "unlit"
            row.append(f" {state_word:<{columns.state}}", style)
        left = self._left(light, columns.long_time)
        if not left:
            return row
        low = self._low(light)
        if columns.bar:
            filled, full = self._burnt(light)
            row.append(" ")
            if full:
                row.append(bar(filled, full, columns.bar), self._style("low") if low else style)
            else:
                row.append(" " * columns.bar)
        row.append(f" {left}", self._style("low") if low else Style())
        return row

    def _burnt(self, light: Light) -> tuple[int, int]:
        """What is left of the light and its whole, for its bar (0, 0: no bar)."""
        kind = self.procedure.lights.get(light.kind)
        if light.real_seconds is not None:
            seconds = self.countdown.get(light.id, light.real_seconds or 0)
            whole = 60 * (kind.real_minutes or 0) if kind else 0
            return seconds, max(seconds, light.real_seconds or 0, whole, 1)
        if light.minutes is not None and kind is not None:
            per_turn = self.procedure.turn_minutes(self.state.turn_type)
            full = kind.duration_minutes(per_turn) or light.minutes
            return light.minutes, max(full, light.minutes)
        return 0, 0

    def _low(self, light: Light) -> bool:
        """True when the light is lit and about to go: two turns, or five real minutes."""
        if not light.lit:
            return False
        if light.real_seconds is not None:
            return self.countdown.get(light.id, light.real_seconds or 0) <= 5 * 60
        if light.minutes is not None:
            per_turn = self.procedure.turn_minutes(self.state.turn_type)
            return -(-light.minutes // per_turn) <= 2
        return False

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
                paused = "⏸" if standing_still(state) else "⏱"
                left = f" {paused} {countdown(seconds)}"
            else:
                left = f" {timers.left_text(timer, turn_name)}"
            soon_text = f" · {timers.soon_text(timer)}" if soon else ""
            text.append(left + soon_text, self._style("low") if soon else "")
            if timer.label:
                text.append(f"  {visible(timer.label)}", self._style("muted"))
            lines.append(text)
        return lines


def standing_still(state: State) -> bool:
    """True when real time does not run down now: paused, or no session running (real time
    at the table is the session's)."""
    return state.realtime_paused or not state.in_session
