"""Choose the action (or movement mode) for the next turn, or the movement speed."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets.option_list import Option

from delvetui.core.member_light import party_level
from delvetui.core.next_turn import distance_text, next_action
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.ui.dialogs.list_dialog import PickDialog, numbered

SPEED = "speed:"


class ActionDialog(PickDialog):
    """The procedure's actions with what each does; Enter takes a turn with the one chosen.

    Answers with the action id, or ``speed:NAME`` when a movement speed was chosen.
    """

    LIST_ID = "action-list"

    def __init__(self, state: State, procedure: Procedure, *, speed: str = "") -> None:
        super().__init__()
        self.state = state
        self.procedure = procedure
        self.speed = speed or procedure.movement.default_speed
        #: The action ``n`` would take: the cursor starts there.
        self.current = next_action(state, procedure)[0]

    def compose(self) -> ComposeResult:
        """One option per action (and per speed when there are several)."""
        procedure = self.procedure
        rules = procedure.light_level(party_level(self.state, procedure))
        current = self.current
        options: list[Option] = []
        # Only this kind of turn's actions: another's waits for `enter ID`.
        here = procedure.actions_in(self.state.turn_type)
        width = max((len(action.label) for action in here.values()), default=0)
        for action_id, action in here.items():
            row = Text()
            row.append("▶ " if action_id == current else "  ")
            row.append(action.label.ljust(width), "bold")
            distance = distance_text(self.state, procedure, action_id, self.speed)
            if distance:
                row.append(f"  {distance}")
            if action.turns != 1:
                row.append(f"  {action.turns} turns")
            if action_id in rules.turns:
                row.append(f"  {rules.turns[action_id]} turns in {rules.label.lower()}")
            if action.text:
                row.append(f"\n    {action.text}", "dim")
            disabled = action_id in rules.forbid
            if disabled:
                row.append(f"\n    not possible in {rules.label.lower()}", "italic")
            options.append(Option(numbered(len(options), row), id=action_id, disabled=disabled))
        speeds = procedure.movement.speeds
        if len(speeds) > 1:
            for speed in speeds:
                mark = "▶ " if speed == self.speed else "  "
                row = Text(f"{mark}Speed: {speed}")
                options.append(Option(numbered(len(options), row), id=f"{SPEED}{speed}"))
        yield from self.framed(
            "Action for the next turn",
            options,
            "a digit, the first letters, or enter takes a turn with it · esc close",
            wide=True,
        )

    def on_mount(self) -> None:
        """Focus the list on the current action."""
        self.focus_list(list(self.procedure.actions_in(self.state.turn_type)), self.current)
