"""The table's keys: each key's binding, and which of them can be used now.

The screen holds a ``KeyMap`` and answers Textual's ``check_action`` through it; what a key
does is an ``action_*`` method of the screen (Textual looks for it there), most of them one
line handing the key to the part that does it (``turns``, ``dialogs``, ``ending``). Which
keys a procedure has no use for is ``application.key_use``'s rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from textual.binding import Binding, BindingType

from delvetui.application.key_use import unused_keys
from delvetui.core.fight_view import FIGHT_KEYS, fight_keys
from delvetui.ui.table.command_line import CommandLine
from delvetui.ui.table.part import Draws, Shown

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import ActiveBinding

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
        "g",
        "go_room",
        "Go",
        id="go-room",
        tooltip="Go to an exit of the room the party is in (or into the dungeon)",
    ),
    Binding(
        "R",
        "room",
        "Room",
        id="room",
        show=False,
        tooltip="Mark the room the party is in (cleared, looted...), note on it, add a room",
    ),
    Binding(
        "M",
        "room_map",
        "Map",
        id="room-map",
        show=False,
        tooltip="The map of the rooms the party knows",
    ),
    Binding(
        "T",
        "timers",
        "Timers",
        id="timers",
        show=False,
        tooltip="Start a timer (a spell, a fuse), change or cancel a running one",
    ),
    Binding(
        "F",
        "add_foes",
        "Foes",
        id="add-foes",
        show=False,
        tooltip="Bring foes into the encounter (foe add NAME count=N hp=N or hd=N)",
    ),
    Binding("F", "begin_fight", "Fight", id="begin-fight", tooltip="Begin the fight's rounds"),
    Binding("F", "next_round", "Round", id="next-round", tooltip="The fight's next round"),
    Binding(
        "h",
        "hurt_foe",
        "Foe HP",
        id="hurt-foe",
        tooltip="Hurt or heal a foe, or take it out of the fight (down, fled)",
    ),
    Binding("M", "check_morale", "Morale", id="check-morale", tooltip="Check the foes' morale"),
    Binding(
        "y",
        "flee",
        "Flee",
        id="flee",
        tooltip="The party flees the encounter: away, or caught and pursued",
    ),
    Binding(
        "e",
        "end_fight",
        "End fight",
        id="end-fight",
        tooltip="End the fight: the clock is charged the time it took",
    ),
    Binding(
        "W",
        "tables",
        "Tables",
        id="tables",
        show=False,
        tooltip="The adventure's encounter tables: add, change or take out a row",
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
        "H",
        "app.home",
        "Home",
        id="home",
        show=False,
        tooltip="The start screen: another expedition, a new one, the campaigns",
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
        "go_room",
        "room",
        "roll",
        "note",
        "timers",
        "tables",
        "undo",
        "redo",
        "fix_roll",
        "clock",
        "session",
        "pause_realtime",
        "resume_realtime",
        "end_expedition",
        *FIGHT_KEYS,
    }
)


#: The keys that take a turn, left out of the footer while a fight goes on.
TURN_KEYS = frozenset({"next_turn", "choose_action", "search", "rest"})


def bindings_of(items: Sequence[BindingType]) -> Iterator[Binding]:
    """The bindings among a screen's ``BINDINGS`` (which may also hold tuples)."""
    for item in items:
        if isinstance(item, Binding):
            yield item


class KeyTable(Shown, Draws, Protocol):
    """What the key map reads of the table: the state shown, whether it is read-only, the
    keys Textual has bound on it now, and whether the command line is open."""

    @property
    def readonly(self) -> bool: ...

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]: ...

    @property
    def app(self) -> App[object]: ...


class Offering(Protocol):
    """Whether a session is offered on the table (Escape puts it away): ``SessionOffer``."""

    @property
    def shown(self) -> bool: ...


class KeyMap:
    """Which of the table's keys can be used now, and how each is shown (footer, help)."""

    def __init__(self, table: KeyTable, offer: Offering) -> None:
        self.table = table
        self.offer = offer

    def unused(self) -> frozenset[str]:
        """The table's keys the procedure has no use for in this kind of turn: the footer
        and the help leave them out; pressed, they say why."""
        unused = unused_keys(self.table.procedure, self.table.state.turn_type)
        if self.table.state.fight is not None:
            # A fight's time is its rounds: a turn is refused until fight end, which says so.
            unused |= TURN_KEYS
        return unused

    def check(self, action: str) -> bool | None:
        """Hide keys that cannot be used now (False); grey out changes when read-only (None).

        The keys the procedure has no use for (``unused``) stay live, hidden by the footer
        only: pressed, they say why they do nothing.
        """
        table = self.table
        if action == "command_line" and table.query_one(CommandLine).has_class("-open"):
            return False  # a ":" typed in the command line is text
        if action == "dismiss_offer":
            return self.offer.shown
        if action in ("go_room", "room_map") and not table.state.rooms:
            return False  # no dungeon of rooms: nothing to go to or to draw
        if action in ("pause_realtime", "resume_realtime"):
            # One key: Pause while the real-time clock runs, Resume while it is paused, and
            # neither shown where no light burns in real time.
            state = table.state
            paused = state.realtime_paused
            if not (state.real_time_lights or state.real_timers or paused):
                return False
            if paused != (action == "resume_realtime"):
                return False
        if action in FIGHT_KEYS and action not in fight_keys(table.state, table.procedure):
            return False  # no foe to hurt, no fight to end: the key is not shown
        if action in CHANGING and table.readonly:
            return None
        return True

    def usable(self) -> list[Binding]:
        """Every key of the footer that can be used now (for the palette)."""
        unused = self.unused()
        return [
            binding
            for binding in bindings_of(KEYS)
            if binding.show and binding.action not in unused and self.check(binding.action)
        ]

    def key_of(self, action: str) -> str:
        """The key of an action as shown (the keymap may have moved it)."""
        for active in self.table.active_bindings.values():
            if active.binding.action == action:
                return self.table.app.get_key_display(active.binding)
        return action

    def footer_width(self) -> int:
        """The cells every key of the footer takes side by side (with the palette's key)."""
        cells = 0
        unused = self.unused()
        for binding in bindings_of(KEYS):
            if binding.action in unused:
                continue
            if binding.show and self.check(binding.action) is not False:
                key = binding.key_display or binding.key.split(",")[0]
                cells += len(key) + len(binding.description) + 2
        return cells + len("^p palette") + 2

    def help_keys(self) -> list[tuple[str, str]]:
        """Every key the help lists, as shown, with what it does."""
        app = self.table.app
        keys: list[tuple[str, str]] = []
        unused = self.unused()
        fighting = fight_keys(self.table.state, self.table.procedure)
        for binding in bindings_of(KEYS):
            if binding.action in unused:
                continue  # the procedure has no use for it here (pressed, it says why)
            if binding.action in FIGHT_KEYS and binding.action not in fighting:
                continue  # F is one key of three turns; h, M and e only in a fight
            shown = " or ".join(
                app.get_key_display(Binding(key, binding.action)) for key in binding.key.split(",")
            )
            keys.append((shown, binding.tooltip or binding.description))
        keys.append(("ctrl+p", "Command palette: every command and action"))
        keys.append(("ctrl+t", "Dark or light theme"))
        keys.append(("ctrl+q", "Quit (everything is already saved)"))
        keys.append(("↑ ↓ pgup pgdn", "Scroll the log (home and end: its ends)"))
        keys.append(("click", "A member, a light or the action pane to change it"))
        return keys
