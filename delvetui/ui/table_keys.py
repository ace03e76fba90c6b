"""The table's keys and what they do: turns, undo and redo, the table's switches."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding, BindingType

from delvetui.core import commands
from delvetui.core.member_light import party_level
from delvetui.text import a
from delvetui.ui.action_pane import ActionPane, next_action
from delvetui.ui.command_line import CommandLine
from delvetui.ui.key_use import rest_action, unused_keys
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
        "A",
        "activity",
        "Activity",
        id="activity",
        tooltip="A character's activity within the turn (do ACTIVITY by=NAME): who, then what",
    ),
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
        "E",
        "end_expedition",
        "End",
        id="end-expedition",
        show=False,
        tooltip="End the expedition (the party is back in town), or reopen an ended one",
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
        "activity",
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


class TableKeys(TableView):
    """What the keys do: turns, undo and redo, the command line, the table's switches."""

    def unused_keys(self) -> frozenset[str]:
        """The table's keys the procedure has no use for in this kind of turn: the footer
        and the help leave them out; pressed, they say why."""
        return unused_keys(self.procedure, self.state.turn_type)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys that cannot be used now; grey out changes when read-only.

        The keys the procedure has no use for (``unused_keys``) stay live, hidden by the
        footer only: pressed, they say why they do nothing.
        """
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
        unused = self.unused_keys()
        return [
            binding
            for binding in bindings_of(self.BINDINGS)
            if binding.show
            and binding.action not in unused
            and self.check_action(binding.action, ()) is True
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

    def refused(self, command: commands.Command) -> bool:
        """Say at once, in a notice, why the core would refuse the command (True then).

        Checked before anything is asked (the danger, who does it, a choice): nothing is
        asked for a command that cannot be made.
        """
        from delvetui.application.dry_run import refusal

        problem = refusal(self.state, self.procedure, command)
        if problem is None:
            return False
        self.notify(problem, severity="error", markup=False)
        return True

    def _turn_checked(self, command: commands.TakeTurn) -> None:
        """Run a turn; a refused one is said at once; into trouble not yet accepted, ask
        once first."""
        if self.refused(command):
            return
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
        """Take a turn searching (or say why there is no search here)."""
        if "search" in self.unused_keys():
            self._unused("search")
            return
        self.take_turn("search")

    def action_rest(self) -> None:
        """Take a turn resting (or say why there is no rest here)."""
        action = rest_action(self.procedure, self.state.turn_type)
        if action is None:
            self._unused("rest")
            return
        self.take_turn(action)

    def _unused(self, word: str) -> None:
        """Say why the search or rest key does nothing here, and what to use instead: the
        kind of turn that has one, or the characters' activity of that name."""
        procedure = self.procedure
        turn_type = self.state.turn_type
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
            key = self._key_of("activity")
            sentence += f" A character's {' or '.join(similar)} is an activity: press {key}."
        self.notify(sentence, severity="warning", markup=False)

    def action_activity(self) -> None:
        """A character's activity within the turn: who does it, then what (or what first,
        where members take no share of the turn each); refused at once when none can be
        done now."""
        from delvetui.ui.activity_dialog import ActivityFlow

        if "activity" in self.unused_keys():
            turn = self.procedure.turn_name(self.state.turn_type)
            self.notify(
                f"{self.procedure.name} has no characters' activities in {a(turn)}.",
                severity="warning",
                markup=False,
            )
            return
        flow = ActivityFlow(self.state, self.procedure)
        problem = flow.refusal()
        if problem is not None:
            self.notify(problem, severity="error", markup=False)
            return
        flow.start(self.app, self.run)

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

    def action_end_expedition(self) -> None:
        """End the expedition (asked first), or take an ended one up again."""
        from delvetui.ui.ending import end_or_reopen

        end_or_reopen(self)

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
