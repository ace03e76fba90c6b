"""The current action or movement mode: what the next turn does when n is pressed."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from delvetui.core.member_light import party_level
from delvetui.core.next_turn import next_action
from delvetui.core.turn import preview
from delvetui.ui.panes.pane import Pane


class ActionPane(Pane):
    """The action the next turn takes, its movement and what the light does to it."""

    PREFIX = "action-pane"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "action-pane--action",
        "action-pane--muted",
        "action-pane--warning",
    }

    speed: reactive[str] = reactive("", layout=True)
    """The movement speed chosen for moving actions ('' for the procedure's default)."""

    class Clicked(Message):
        """The game master clicked the pane to choose another action."""

    def render(self) -> RenderableType:
        """The action, its distance and flags, and what the light level changes, in the
        lines the table gives it (short of them: the light's warning before the flags,
        and what does not fit cut at the line's end)."""
        head, flags, warning = self._parts()
        if self.budget is None:
            text = Text(overflow="fold")
            text.append_text(head)
            for part in (flags, warning):
                if part is not None:
                    text.append("\n")
                    text.append_text(part)
            return text
        parts = [part for part in (head, warning, flags) if part is not None]
        lines = parts[: max(1, self.budget)]
        for part in parts[len(lines) :]:
            lines[-1].append(" · ", self._style("muted"))
            lines[-1].append_text(part)
        return Text("\n", no_wrap=True, overflow="ellipsis").join(lines)

    def wanted(self, width: int) -> tuple[int, int]:
        """The next action on one line; every part on its own, wrapped to the width."""
        parts = [part for part in self._parts() if part is not None]
        full = sum(len(part.wrap(self.app.console, max(1, width))) for part in parts)
        return 1, max(1, full)

    def _parts(self) -> tuple[Text, Text | None, Text | None]:
        """The lines of the pane: the next action and its distance; the action's flags;
        what the light level changes (None: the action has none, the light changes nothing).

        Everything comes from the core's preview of the turn, so the pane shows what the
        turn will really do in this light (halved movement in darkness, two turns of search).
        """
        procedure = self.procedure
        state = self.state
        name, why = next_action(state, procedure)
        action = procedure.actions.get(name)
        text = Text()
        label = action.label if action else name
        text.append("Next: ", self._style("muted"))
        text.append(label, self._style("action"))
        if why:
            text.append(f" ({why})", self._style("muted"))
        if action is None:
            return text, None, None
        speed = self.speed or procedure.movement.default_speed
        shown = preview(state, procedure, name, speed)
        if shown.distance:
            pace = f" at {speed}" if len(procedure.movement.speeds) > 1 else ""
            pace += f" {shown.pace}" if shown.pace else ""
            text.append(f"  {shown.distance} a {procedure.turn_name(state.turn_type)}{pace}")
        flags = Text(", ".join(shown.flags), self._style("muted")) if shown.flags else None
        level = procedure.light_level(party_level(state, procedure)).label.lower()
        warning = None
        if shown.forbidden:
            warning = Text(f"Not possible in {level}.", self._style("warning"))
        elif shown.light_note:
            note = shown.light_note
            warning = Text(f"{note[:1].upper()}{note[1:]}.", self._style("warning"))
        return text, flags, warning

    def on_click(self, event: events.Click) -> None:
        """Clicking the pane opens the action chooser."""
        self.post_message(self.Clicked())
