"""The alert strip: one line under the header for what needs the game master now.

Darkness first and loudest (the whole strip turns to the error colour), then a member
down, the encounter in play and what the procedure marks as dangerous (``core.danger``: the
alarm high, a member exhausted or past their resilience), then a light about to go, a
pending save or fatigue, a rest that is due and the sign in play. Everything is read from
the state, so an undo takes its alert with it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs
from rich.console import RenderableType
from rich.text import Text

from delvetui.core import timers
from delvetui.core.danger import dangers
from delvetui.core.member_light import party_level
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import minutes_words, visible
from delvetui.ui.panes.pane import Pane

#: The smallest usage die: one more step down and the light is spent.
LAST_USAGE_DIE = 4

Level = Literal["dark", "danger", "warning"]


@attrs.frozen
class Alert:
    """One thing that needs attention, and how loud it is."""

    level: Level
    text: str
    #: Fewer words for the same alert, used when the strip is too narrow for ``text``.
    short: str = ""


def alerts(state: State, procedure: Procedure) -> list[Alert]:
    """What needs the game master's attention now, the most dangerous first.

    An ended expedition needs nothing but the word that it has ended: the party is home.
    """
    if state.ended:
        words = f" ({visible(state.end_words)})" if state.end_words else ""
        return [
            Alert(
                "warning",
                f"The expedition has ended{words}: press E to reopen it, or type :reopen.",
                short=f"The expedition has ended{words}: E reopens it.",
            )
        ]
    found: list[Alert] = []
    if party_level(state, procedure) == "dark":
        rules = procedure.light_level("dark")
        meaning = f": {rules.text.rstrip('.')}" if rules.text else ""
        # Narrow, the level's flags and what it forbids say it in fewer words.
        forbidden = [
            procedure.actions[name].label.lower()
            for name in rules.forbid
            if name in procedure.actions
        ]
        brief = "; ".join(
            part
            for part in (", ".join(rules.flags), ", ".join(f"no {a}" for a in forbidden))
            if part
        )
        short = f"DARKNESS, no light: {brief}" if brief else "DARKNESS, no light"
        found.append(Alert("dark", f"DARKNESS, no light{meaning}", short=short))
    for member in state.party:
        if member.hp <= 0:
            found.append(Alert("danger", f"{member.name} at 0 HP"))
    if state.encounter:
        at = f", {state.encounter_distance}" if state.encounter_distance else ""
        found.append(Alert("danger", f"Encounter: {state.encounter}{at}"))
    found.extend(Alert("danger", danger.text) for danger in dangers(state, procedure))
    per_turn = procedure.turn_minutes(state.turn_type)
    for light in state.lit_lights:
        if light.minutes is not None and light.minutes <= per_turn:
            # In a watch or a day, the time itself says more than "the last watch".
            last = (
                "last turn of light"
                if per_turn <= 60
                else f"{minutes_words(light.minutes)} of light left"
            )
            found.append(Alert("warning", f"{light.id}: {last}"))
        elif light.usage_die is not None and light.usage_die <= LAST_USAGE_DIE:
            found.append(Alert("warning", f"{light.id}: last usage die (d{light.usage_die})"))
    for name in state.ran_out:
        found.append(Alert("warning", f"Timer {name} has run out"))
    for timer in timers.ending(state, procedure):
        found.append(Alert("warning", f"Timer {timer.name}: runs out {timers.soon_text(timer)}"))
    for pending in state.pending:
        who = f" ({pending.member})" if pending.member else ""
        found.append(Alert("warning", f"Pending: {pending.label}{who}"))
    rest = procedure.rest
    if rest is not None and not state.resting and state.turns_since_rest >= rest.every:
        found.append(Alert("warning", f"Rest due ({state.turns_since_rest} turns without)"))
    if state.sign:
        found.append(Alert("warning", f"Sign: {state.sign}"))
    return found


class AlertStrip(Pane):
    """Always one line: the alerts, or that nothing needs attention."""

    PREFIX = "alert-strip"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "alert-strip--dark",
        "alert-strip--danger",
        "alert-strip--warning",
        "alert-strip--muted",
    }

    def current(self) -> list[Alert]:
        """The alerts shown now."""
        return alerts(self.state, self.procedure)

    def watch_state(self, state: State) -> None:
        """In the dark the whole strip takes the error colour."""
        self.set_class(party_level(state, self.procedure) == "dark", "-dark")

    def render(self) -> RenderableType:
        """The alerts side by side, the loudest first; in fewer words when they would not
        fit the strip's width (80 columns hold the darkness's flags, not its whole text)."""
        found = self.current()
        text = Text(no_wrap=True, overflow="ellipsis")
        if not found:
            text.append(" Nothing needs attention.", self._style("muted"))
            return text
        words = [alert.text for alert in found]
        if self.size.width and _width(words) > self.size.width:
            words = [
                alert.short if alert.short and len(alert.short) < len(alert.text) else alert.text
                for alert in found
            ]
        for index, (alert, said) in enumerate(zip(found, words, strict=True)):
            if index:
                text.append("  ")
            text.append(f" {visible(said)} ", self._style(alert.level))
        return text

    def shown(self) -> str:
        """The strip's words as they are drawn now (for tests and a reader)."""
        rendered = self.render()
        return rendered.plain if isinstance(rendered, Text) else str(rendered)


def _width(words: list[str]) -> int:
    """The columns the alerts take side by side: each padded by a space, two between."""
    return sum(len(visible(said)) + 2 for said in words) + 2 * (len(words) - 1)
