"""The table's keys and what they do: turns, undo and redo, the table's switches."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding, BindingType

from delvetui.core import commands
from delvetui.core.member_light import party_level
from delvetui.procedure.model import Procedure
from delvetui.ui.action_pane import ActionPane, next_action
from delvetui.ui.command_line import CommandLine
from delvetui.ui.session_bar import SessionBar
from delvetui.ui.status_bar import StatusBar
from delvetui.ui.table_view import TableView, bindings_of

#: The table's keys; each has an id, so a keymap in the preferences can rebind it.
KEYS: list[BindingType] = [
    Binding(
        "n,space",
        "next_turn",
        "Turn",
        id="next-turn",
        key_display="n",
        tooltip="Next turn with the current action",
    ),
    Binding(
        "a",
        "choose_action",
        "Action",
        id="choose-action",
        tooltip="Choose the action or movement mode, and take the turn",
    ),
    Binding("s", "search", "Search", id="search", tooltip="A turn searching"),
    Binding("r", "rest", "Rest", id="rest", tooltip="A turn resting"),
    Binding(
        "l",
        "lights",
        "Lights",
        id="lights",
        tooltip="Light, put out, hand over, correct or add a light",
    ),
    Binding(
        "p",
        "party",
        "Party",
        id="party",
        tooltip="Hit points, correct, add or remove a party member",
    ),
    Binding(
        "T",
        "timers",
        "Timers",
        id="timers",
        show=False,
        tooltip="Start a timer (a spell, a fuse), change or cancel a running one",
    ),
    Binding("d", "roll", "Dice", id="roll", tooltip="Roll any dice into the log"),
    Binding("m", "note", "Note", id="note", tooltip="Write a note in the log"),
    Binding(
        "colon",
        "command_line",
        "Command",
        id="command-line",
        key_display=":",
        tooltip="The command line (the commands of delvetui act)",
        # Handled before the keys typed after it are passed on, so a fast ":turn" goes
        # into the command line, not to the table's own keys.
        priority=True,
    ),
    Binding("u", "undo", "Undo", id="undo", tooltip="Undo the last command (it shows in the log)"),
    Binding("ctrl+r", "redo", "Redo", id="redo", tooltip="Redo what was undone"),
    Binding(
        "f",
        "fix_roll",
        "Fix roll",
        id="fix-roll",
        tooltip="Fix a mistaken roll of the last command",
    ),
    Binding(
        "c",
        "clock",
        "Clock",
        id="clock",
        tooltip="Set the clock, or roll the hour with time dice",
    ),
    Binding(
        "S",
        "session",
        "Session",
        id="session",
        tooltip="Start a session, or end the running one",
    ),
    Binding(
        "escape",
        "dismiss_offer",
        "Not now",
        id="dismiss-offer",
        show=False,
        tooltip="Put away the offer to start a session",
    ),
    Binding(
        "t",
        "table_dice",
        "Table dice",
        id="table-dice",
        tooltip="Table dice: ask me for every roll instead of rolling",
    ),
    Binding(
        "x",
        "export",
        "Export",
        id="export",
        tooltip="Export the log (text, Markdown, HTML, JSON)",
    ),
    Binding(
        "o",
        "odds",
        "Odds",
        id="odds",
        show=False,
        tooltip="The odds: an encounter this turn and within the hour, each light going out",
    ),
    Binding(
        "P",
        "reveal",
        "Reveal",
        id="reveal",
        show=False,
        tooltip="Show the players (delvetui players) the sign, the encounter or the HP",
    ),
    Binding(
        "b",
        "pause_realtime",
        "Pause",
        id="pause-realtime",
        tooltip="Pause every light that burns in real time (for a break)",
    ),
    Binding(
        "b",
        "resume_realtime",
        "Resume",
        id="resume-realtime",
        tooltip="Let the paused real-time lights burn again",
    ),
    Binding(
        "v",
        "compact_log",
        "Compact",
        id="compact-log",
        tooltip="The log one line a turn, or in full",
    ),
    Binding(
        "question_mark",
        "help",
        "Help",
        id="help",
        key_display="?",
        tooltip="Every key, the command language, the procedure",
    ),
]

#: Actions that change the expedition (refused while it is read-only).
CHANGING = frozenset(
    {
        "next_turn",
        "choose_action",
        "search",
        "rest",
        "lights",
        "party",
        "roll",
        "note",
        "timers",
        "undo",
        "redo",
        "fix_roll",
        "clock",
        "session",
        "pause_realtime",
        "resume_realtime",
    }
)


def rest_action(procedure: Procedure, turn_type: str) -> str | None:
    """The action that rests in this kind of turn: the one the procedure's rest names, else
    the first rest action."""
    here = procedure.actions_in(turn_type)
    if procedure.rest is not None and procedure.rest.action in here:
        return procedure.rest.action
    return next((name for name, a in here.items() if a.kind == "rest"), None)


class TableKeys(TableView):
    """What the keys do: turns, undo and redo, the command line, the table's switches."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys the procedure has no use for; grey out changes when read-only."""
        if action == "search" and "search" not in self.procedure.actions_in(self.state.turn_type):
            return False
        if action == "rest" and rest_action(self.procedure, self.state.turn_type) is None:
            return False
        if action == "command_line" and self.query_one(CommandLine).has_class("-open"):
            return False  # a ":" typed in the command line is text
        if action == "dismiss_offer":
            return self.query_one(SessionBar).offer is not None
        if action in ("pause_realtime", "resume_realtime"):
            # One key: Pause while the real-time clock runs, Resume while it is paused, and
            # neither shown where no light burns in real time.
            paused = self.state.realtime_paused
            if not (self.state.real_time_lights or self.state.real_timers or paused):
                return False
            if paused != (action == "resume_realtime"):
                return False
        if action in CHANGING and self.readonly:
            return None
        return True

    def key_bindings(self) -> list[Binding]:
        """Every key of the footer that can be used now (for the palette)."""
        return [
            binding
            for binding in bindings_of(self.BINDINGS)
            if binding.show and self.check_action(binding.action, ()) is True
        ]

    def _turn(self, action: str | None = None) -> commands.TakeTurn:
        values: tuple[tuple[str, str], ...] = ()
        if self.speed and self.speed != self.procedure.movement.default_speed:
            values = (("speed", self.speed),)
        return commands.TakeTurn(action=action, values=values)

    def trouble(self) -> dict[str, str]:
        """What makes the next turn dangerous: total darkness, a member at 0 HP."""
        state = self.state
        found: dict[str, str] = {}
        if party_level(state, self.procedure) == "dark":
            found["dark"] = "The party is in total darkness."
        for member in state.party:
            if member.hp <= 0:
                found[f"down:{member.name}"] = f"{member.name} is at 0 HP."
        return found

    def _turn_checked(self, command: commands.TakeTurn) -> None:
        """Run a turn; into trouble not yet accepted, ask once first."""
        trouble = self.trouble()
        fresh = set(trouble) - self._accepted
        if not self.confirm_trouble or not fresh:
            self._accepted = frozenset(trouble)
            self.run(command)
            return

        def chosen(answer: str | None) -> None:
            if answer is None or answer == "no":
                return
            if answer == "never":
                self.confirm_trouble = False
                self.post_message(self.Settings())
            self._accepted = frozenset(trouble)
            self.run(command)

        from delvetui.ui.choose import ChooseScreen

        self.app.push_screen(
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

    def action_next_turn(self) -> None:
        """Take the next turn: the current action, or the movement mode after s or r."""
        name, _ = next_action(self.state, self.procedure, self.moving)
        current = self.procedure.bare_action(self.state.action, self.state.turn_type)
        self._turn_checked(self._turn(None if name == current else name))

    def take_turn(self, action: str) -> None:
        """Take a turn with this action (it becomes the current one)."""
        self._turn_checked(self._turn(action))

    def action_search(self) -> None:
        """Take a turn searching."""
        self.take_turn("search")

    def action_rest(self) -> None:
        """Take a turn resting."""
        action = rest_action(self.procedure, self.state.turn_type)
        if action is not None:
            self.take_turn(action)

    def action_choose_action(self) -> None:
        """Choose the action (or the movement speed) and take a turn with it."""
        from delvetui.ui.action_dialog import SPEED, ActionDialog

        def chosen(answer: str | None) -> None:
            if answer is None:
                return
            if answer.startswith(SPEED):
                self.speed = answer[len(SPEED) :]
                self.query_one(ActionPane).speed = self.speed
                self.post_message(self.Settings())
                self.notify(f"Moving at {self.speed} speed.", markup=False)
                return
            self.take_turn(answer)

        self.app.push_screen(
            ActionDialog(self.state, self.procedure, speed=self.speed, moving=self.moving), chosen
        )

    def action_dismiss_offer(self) -> None:
        """Put the session offer away (until the expedition is opened again)."""
        self.query_one(SessionBar).offer = None
        self.refresh_bindings()

    def action_command_line(self, text: str = "") -> None:
        """Open the command line."""
        self.query_one(CommandLine).open(text)

    def action_pause_realtime(self) -> None:
        """Pause every light that burns in real time."""
        self.run(commands.RealTime(verb="pause"))

    def action_resume_realtime(self) -> None:
        """Let the paused real-time lights burn again."""
        self.run(commands.RealTime(verb="resume"))

    def action_undo(self) -> None:
        """Undo the last command still standing."""
        self.run(commands.Undo())

    def action_redo(self) -> None:
        """Redo the last undone command."""
        self.run(commands.Redo())

    def action_fix_roll(self) -> None:
        """Correct a roll of the last command (undo, then the same command with the number)."""
        self.post_message(self.FixRoll())

    def action_table_dice(self) -> None:
        """Switch table dice on or off."""
        self.table_dice = not self.table_dice
        self.post_message(self.Settings())
        if self.table_dice:
            self.notify("Table dice on: you will be asked for every roll.", markup=False)
        else:
            self.notify("Table dice off: the program rolls.", markup=False)

    def watch_table_dice(self, value: bool) -> None:
        """Show the switch in the header."""
        if self.is_mounted:
            self.query_one(StatusBar).table_dice = value
