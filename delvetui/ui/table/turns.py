"""The table's turns: the next turn, a search or a rest, an action chosen, an activity.

A turn into trouble (total darkness, a member at 0 HP) is asked about once; a turn the core
would refuse is refused at once, before anything is asked.
"""

from __future__ import annotations

from typing import Protocol

from rich.text import Text

from delvetui.application.key_use import rest_action, unused_keys
from delvetui.core import commands
from delvetui.core.member_light import party_level
from delvetui.core.state import State
from delvetui.text import a
from delvetui.ui.panes.action_pane import ActionPane
from delvetui.ui.table import messages
from delvetui.ui.table.part import Acts, Draws, KeyNames


class TurnsTable(Acts, Draws, Protocol):
    """What the turns need of the table: the state shown, running a turn, asking first,
    and the switches a turn reads (the speed, whether to ask before trouble)."""

    speed: str
    confirm_trouble: bool


class Turns:
    """Taking turns from the table's keys (``n`` goes on as the core's bare turn does)."""

    def __init__(self, table: TurnsTable, keys: KeyNames) -> None:
        self.table = table
        self.keys = keys
        #: The trouble the game master already said to go on into (asked once).
        self.accepted: frozenset[str] = frozenset()
        #: The turns completed in the state last followed (None before the first).
        self._turns_seen: int | None = None

    def follow(self, state: State) -> None:
        """A turn taken (or undone) takes the notices of the one before with it."""
        if self._turns_seen is not None and state.turn != self._turns_seen:
            self.table.app.clear_notifications()
        self._turns_seen = state.turn

    def trouble(self) -> dict[str, str]:
        """What makes the next turn dangerous: total darkness, a member at 0 HP."""
        state = self.table.state
        found: dict[str, str] = {}
        if party_level(state, self.table.procedure) == "dark":
            found["dark"] = "The party is in total darkness."
        for member in state.living:
            if member.hp <= 0:
                found[f"down:{member.name}"] = f"{member.name} is at 0 HP."
        return found

    def refused(self, command: commands.Command) -> bool:
        """Say at once, in a notice, why the core would refuse the command (True then).

        Checked before anything is asked (the danger, who does it, a choice): nothing is
        asked for a command that cannot be made.
        """
        from delvetui.application.dry_run import refusal

        problem = refusal(self.table.state, self.table.procedure, command)
        if problem is None:
            return False
        self.table.notify(problem, severity="error", markup=False)
        return True

    def _turn(self, action: str | None = None) -> commands.TakeTurn:
        speed = self.table.speed
        values: tuple[tuple[str, str], ...] = ()
        if speed and speed != self.table.procedure.movement.default_speed:
            values = (("speed", speed),)
        return commands.TakeTurn(action=action, values=values)

    def _checked(self, command: commands.TakeTurn) -> None:
        """Run a turn; a refused one is said at once; into trouble not yet accepted, ask
        once first."""
        table = self.table
        if self.refused(command):
            return
        trouble = self.trouble()
        fresh = set(trouble) - self.accepted
        if not table.confirm_trouble or not fresh:
            self.accepted = frozenset(trouble)
            table.run(command)
            return

        def chosen(answer: str | None) -> None:
            if answer is None or answer == "no":
                return
            if answer == "never":
                table.confirm_trouble = False
                table.post_message(messages.Settings())
            self.accepted = frozenset(trouble)
            table.run(command)

        from delvetui.ui.dialogs.choose import ChooseScreen

        table.app.push_screen(
            ChooseScreen(
                " ".join(trouble.values()) + " Take the turn?",
                [
                    ("yes", Text("Yes, take the turn")),
                    ("no", Text("No, not yet")),
                    ("never", Text("Go on, and never ask this again (table preferences)")),
                ],
                hint="asked once for each danger · esc is no",
                selected="yes",
            ),
            chosen,
        )

    def next_turn(self) -> None:
        """Take the next turn: a bare turn, the action the core goes on with (the last one
        when it persists, else the movement mode after a one-off action)."""
        self._checked(self._turn(None))

    def take(self, action: str) -> None:
        """Take a turn with this action (it becomes the current one)."""
        self._checked(self._turn(action))

    def search(self) -> None:
        """Take a turn searching (or say why there is no search here)."""
        if "search" in unused_keys(self.table.procedure, self.table.state.turn_type):
            self._unused("search")
            return
        self.take("search")

    def rest(self) -> None:
        """Take a turn resting (or say why there is no rest here)."""
        action = rest_action(self.table.procedure, self.table.state.turn_type)
        if action is None:
            self._unused("rest")
            return
        self.take(action)

    def _unused(self, word: str) -> None:
        """Say why the search or rest key does nothing here, and what to use instead: the
        kind of turn that has one, or the characters' activity of that name."""
        procedure = self.table.procedure
        turn_type = self.table.state.turn_type
        sentence = f"{procedure.name} has no {word} action in {a(procedure.turn_name(turn_type))}"
        elsewhere = [
            kind
            for name, action in procedure.actions.items()
            if (name == word or action.kind == word) and not action.taken_in(turn_type)
            for kind in action.turn_types
        ]
        if elsewhere:
            sentence += f"; type `enter {elsewhere[0]}` for one"
        sentence += "."
        similar = [
            activity.label
            for name, activity in procedure.activities_in(turn_type).items()
            if word in name or word in activity.label.lower()
        ]
        if similar:
            key = self.keys.key_of("activity")
            sentence += f" A character's {' or '.join(similar)} is an activity: press {key}."
        self.table.notify(sentence, severity="warning", markup=False)

    def activity(self) -> None:
        """A character's activity within the turn: who does it, then what (or what first,
        where members take no share of the turn each); refused at once when none can be
        done now."""
        from delvetui.ui.dialogs.activity_dialog import ActivityFlow

        table = self.table
        procedure = table.procedure
        if "activity" in unused_keys(procedure, table.state.turn_type):
            turn = procedure.turn_name(table.state.turn_type)
            table.notify(
                f"{procedure.name} has no characters' activities in {a(turn)}.",
                severity="warning",
                markup=False,
            )
            return
        flow = ActivityFlow(table.state, procedure)
        problem = flow.refusal()
        if problem is not None:
            table.notify(problem, severity="error", markup=False)
            return
        flow.start(table.app, table.run)

    def choose_action(self) -> None:
        """Choose the action (or the movement speed) and take a turn with it."""
        from delvetui.ui.dialogs.action_dialog import SPEED, ActionDialog

        table = self.table

        def chosen(answer: str | None) -> None:
            if answer is None:
                return
            if answer.startswith(SPEED):
                table.speed = answer[len(SPEED) :]
                table.query_one(ActionPane).speed = table.speed
                table.post_message(messages.Settings())
                table.notify(f"Moving at {table.speed} speed.", markup=False)
                return
            self.take(answer)

        dialog = ActionDialog(table.state, table.procedure, speed=table.speed)
        table.app.push_screen(dialog, chosen)
