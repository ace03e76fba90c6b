"""The table screen: turn log, party, lights, time dice, hazard table, counters, keys.

The screen owns no rules. Keys and clicks become commands (``TakeTurn("search")``,
``LightOn("torch2")``), and what the game master types stays a line for the parser; either
is posted as :class:`TableScreen.Run`, the app runs it through the expedition and hands
each committed batch back to :meth:`TableScreen.show_batch`.

The screen is made of parts it holds, each in its own module of ``ui/table/``: the panes
and the state flowing down to them (``panes``), the turn log's lines (``log_lines``), the
history loader (``history_loader``), the key map (``keys``), the turns (``turns``), the
dialog runner (``dialogs``), the session offer (``session_offer``), the read-only state
(``readonly``) and the end of the expedition (``ending``). Each part sees the screen
through a small Protocol of its own module and is handed, here, the other parts it needs
(as Protocols too). Textual asks the screen for its keys, actions and messages; each
``action_*`` hands the key to the part that does it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeAlias

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.reactive import reactive
from textual.screen import Screen

from delvetui.core import commands
from delvetui.core.state import State
from delvetui.core.timeline import Batch
from delvetui.session import Expedition
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.panes.action_pane import ActionPane
from delvetui.ui.panes.encounter_pane import EncounterPane
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.party_roster import PartyRoster
from delvetui.ui.panes.rooms_pane import RoomsPane
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table import messages
from delvetui.ui.table.command_line import CommandLine
from delvetui.ui.table.dialogs import DialogRunner
from delvetui.ui.table.ending import Ending
from delvetui.ui.table.fights import Fights
from delvetui.ui.table.history_loader import HistoryLoader
from delvetui.ui.table.keys import KEYS, KeyMap
from delvetui.ui.table.log_lines import LogLines
from delvetui.ui.table.messages import Order, Source
from delvetui.ui.table.panes import TablePanes
from delvetui.ui.table.readonly import ReadOnly
from delvetui.ui.table.session_offer import SessionOffer
from delvetui.ui.table.turns import Turns

__all__ = ["Order", "Source", "TableScreen"]

#: Seconds between looks for another delvetui's commits, while the table is read-only.
FOLLOW_EVERY = 0.5


class TableScreen(Screen[None]):
    """The referee's table for one open expedition, made of the parts it holds."""

    BINDINGS: ClassVar[list[BindingType]] = KEYS
    """The table's keys; each has an id, so a keymap in the preferences can rebind it."""

    table_dice: reactive[bool] = reactive(False)
    """Ask the game master for every roll instead of rolling."""

    speed: reactive[str] = reactive("")
    """The movement speed added to turns ('' for the procedure's default)."""

    compact_log: reactive[bool] = reactive(False)
    """Show the log one line a turn (action, roll, result, changes) instead of in full."""

    # The messages the table posts, from whichever part (``ui/table/messages.py``).
    Run: TypeAlias = messages.Run
    FixRoll: TypeAlias = messages.FixRoll
    Export: TypeAlias = messages.Export
    Settings: TypeAlias = messages.Settings
    NewestShown: TypeAlias = messages.NewestShown
    Damaged: TypeAlias = messages.Damaged
    NextExpedition: TypeAlias = messages.NextExpedition

    def __init__(
        self,
        expedition: Expedition,
        *,
        table_dice: bool = False,
        speed: str = "",
        check: bool = True,
        confirm_trouble: bool = True,
    ) -> None:
        super().__init__()
        self.expedition = expedition
        #: The procedure and the state shown (the expedition's, as the panes have them).
        self.procedure = expedition.procedure
        self.state = expedition.state
        #: Ask before a turn into total darkness or with a member at 0 HP.
        self.confirm_trouble = confirm_trouble
        #: Read the older history and check the file in the background once painted; off
        #: for a screenshot, which shows the first screen and exits.
        self.check = check
        # The parts, each handed the others it needs.
        self.read_only = ReadOnly(self, expedition)
        self.offer = SessionOffer(self, expedition)
        self.key_map = KeyMap(self, self.offer)
        self.panes = TablePanes(self, self.key_map)
        self.log_lines = LogLines(self, expedition.procedure_at)
        self.turns = Turns(self, self.key_map)
        self.dialogs = DialogRunner(self, self.key_map, self.offer)
        self.fights = Fights(self)
        self.ending = Ending(self, self.key_map)
        self.history = HistoryLoader(self, expedition, lines=self.log_lines, damage=self.read_only)
        self.set_reactive(TableScreen.table_dice, table_dice)
        self.set_reactive(TableScreen.speed, speed)

    def compose(self) -> ComposeResult:
        """Header, log, the right-hand column, command line and footer."""
        self.panes.size_classes(*self.app.size)
        yield from self.panes.compose()
        # Completion in the command line reads the state and the procedure shown.
        yield CommandLine(lambda: (self.state, self.procedure), id="command")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Show the state at once, offer a session, then read the log's history."""
        self.read_only.show()
        self.panes.mounted()
        self.turns.follow(self.state)
        self.offer.make(self.key_map.key_of("session"))
        self.history.begin()
        if self.expedition.readonly:
            self.set_interval(FOLLOW_EVERY, self.history.follow_writer)

    @property
    def newest_shown(self) -> bool:
        """True once the log shows the newest turns (older ones may still be read in)."""
        return self.log_lines.shown

    @property
    def damage(self) -> str:
        """What is wrong with the file ('' while nothing is); changes are refused when set."""
        return self.read_only.damage

    @property
    def loaded(self) -> bool:
        """True once the whole log is read in (and, when ``check``, the file was checked)."""
        return self.history.loaded

    def run(self, command: Order, source: Source = "key", *, then: Sequence[Order] = ()) -> None:
        """Ask the app to run a command (and then these, while each goes through)."""
        self.post_message(self.Run(command, source, then))

    @property
    def readonly(self) -> bool:
        """True when nothing can be changed: the file is read-only, or found damaged."""
        return self.read_only.readonly

    @property
    def writable_now(self) -> bool:
        """True once the file's pages are checked and no damage was found."""
        return self.history.checked.is_set() and not self.readonly

    async def pages_checked(self) -> None:
        """Wait until the file's pages were checked (the app writes nothing before)."""
        await self.history.checked.wait()

    def command_succeeded(self, text: str) -> None:
        """A command typed on the command line went through."""
        self.query_one(CommandLine).succeeded(text)

    def command_failed(self, message: str) -> None:
        """A command typed on the command line was refused: say why, inline."""
        self.query_one(CommandLine).failed(message)

    def show_batch(self, batch: Batch, state: State) -> None:
        """A command was committed: show the new state and add its lines to the log."""
        before, self.state = self.state, state
        moved = self.expedition.procedure is not self.procedure
        self.procedure = self.expedition.procedure
        self.offer.follow(before, state)
        self.turns.follow(state)
        self.panes.show(before, moved=moved)
        self.log_lines.add(batch, before)

    # Keys: Textual asks the screen; the key map and the parts answer -------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys that cannot be used now; grey out changes when read-only."""
        return self.key_map.check(action)

    def unused_keys(self) -> frozenset[str]:
        """The keys the procedure has no use for here (the footer leaves them out)."""
        return self.key_map.unused()

    def key_bindings(self) -> list[Binding]:
        """Every key of the footer that can be used now (for the palette)."""
        return self.key_map.usable()

    def take_turn(self, action: str) -> None:
        """Take a turn with this action (it becomes the current one)."""
        self.turns.take(action)

    def action_next_turn(self) -> None:
        """Take the next turn: the current action, or the movement mode after s or r."""
        self.turns.next_turn()

    def action_search(self) -> None:
        """Take a turn searching."""
        self.turns.search()

    def action_rest(self) -> None:
        """Take a turn resting."""
        self.turns.rest()

    def action_activity(self) -> None:
        """A character's activity within the turn."""
        self.turns.activity()

    def action_choose_action(self) -> None:
        """Choose the action (or the movement speed) and take a turn with it."""
        self.turns.choose_action()

    def action_lights(self, selected: str | None = None) -> None:
        """Light, put out, hand over, correct or add a light."""
        self.dialogs.lights(selected)

    def action_party(self, selected: str | None = None) -> None:
        """Add a party member, correct one, or change hit points."""
        self.dialogs.party(selected)

    def action_go_room(self) -> None:
        """Go to an exit of the room the party is in (or into the dungeon)."""
        self.dialogs.go_room()

    def action_room(self) -> None:
        """Mark the room the party is in, note on it, show its label, add a room."""
        self.dialogs.room()

    def action_room_map(self) -> None:
        """The map of the rooms the party knows."""
        self.dialogs.room_map()

    def action_timers(self) -> None:
        """Start a timer, change a running one's length or cancel it."""
        self.dialogs.timers()

    def action_add_foes(self) -> None:
        """Bring foes into the encounter."""
        self.fights.add_foes()

    def action_begin_fight(self) -> None:
        """Begin the fight's rounds."""
        self.fights.begin()

    def action_next_round(self) -> None:
        """The fight's next round."""
        self.fights.next_round()

    def action_hurt_foe(self) -> None:
        """Hurt or heal a foe, or take it out of the fight."""
        self.fights.hurt()

    def action_check_morale(self) -> None:
        """Check the foes' morale."""
        self.fights.morale()

    def action_end_fight(self) -> None:
        """End the fight."""
        self.fights.end()

    def action_flee(self) -> None:
        """The party flees the encounter."""
        self.fights.flee()

    def action_tables(self) -> None:
        """Add, change or take out a row of a carried table."""
        self.dialogs.tables()

    def action_roll(self) -> None:
        """Roll any dice into the log."""
        self.dialogs.roll()

    def action_note(self) -> None:
        """Write a note in the log."""
        self.dialogs.note()

    def action_clock(self) -> None:
        """Set the clock, or roll the hour with time dice."""
        self.dialogs.clock()

    def action_session(self) -> None:
        """Take up the session offer; else start a session, or end the running one."""
        self.dialogs.session()

    def action_export(self) -> None:
        """Export the log: plain text, Markdown, HTML or JSON."""
        self.dialogs.export()

    def action_help(self) -> None:
        """Show every key and the command language."""
        self.dialogs.help()

    def action_reveal(self) -> None:
        """Show something on the players' screen, or hide it again."""
        self.dialogs.reveal()

    def action_odds(self) -> None:
        """Show the chance of an encounter and of each light going out."""
        self.dialogs.odds()

    def action_command_line(self, text: str = "") -> None:
        """Open the command line."""
        self.query_one(CommandLine).open(text)

    def action_dismiss_offer(self) -> None:
        """Put the session offer away (until the expedition is opened again)."""
        self.offer.withdraw()

    def action_pause_realtime(self) -> None:
        """Pause every light that burns in real time."""
        self.run(commands.RealTime(verb="pause"))

    def action_resume_realtime(self) -> None:
        """Let the paused real-time lights burn again."""
        self.run(commands.RealTime(verb="resume"))

    def action_end_expedition(self) -> None:
        """End the expedition (asked first), or take an ended one up again."""
        self.ending.end_or_reopen()

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
        said = (
            "on: you will be asked for every roll" if self.table_dice else "off: the program rolls"
        )
        self.notify(f"Table dice {said}.", markup=False)

    def action_compact_log(self) -> None:
        """Switch between the compact log (one line a turn) and the full log."""
        self.compact_log = not self.compact_log
        self.log_lines.redraw()

    def watch_table_dice(self, value: bool) -> None:
        """Show the switch in the header."""
        if self.is_mounted:
            self.query_one(StatusBar).table_dice = value

    # What happens on the table -----------------------------------------------------

    def on_table_screen_damaged(self, event: messages.Damaged) -> None:
        """Damage was found: no session is offered on a read-only table (the message goes
        on to the app, which says what is wrong)."""
        self.offer.withdraw()

    def on_resize(self, event: Resize) -> None:
        """Collapse the panes on small terminals."""
        self.panes.lay_out(event.size.width, event.size.height)

    def on_command_line_submitted(self, event: CommandLine.Submitted) -> None:
        """Run what was typed; the result comes back to the command line."""
        event.stop()
        self.run(event.text, "line")

    def on_command_line_closed(self, event: CommandLine.Closed) -> None:
        """Give the keys back to the log."""
        event.stop()
        self.query_one(TurnLog).focus()

    def on_encounter_pane_foe_clicked(self, event: EncounterPane.FoeClicked) -> None:
        """A click on a foe asks what happens to it."""
        event.stop()
        if not self.readonly:
            self.fights.hurt(event.name)

    def on_party_roster_edit_member(self, event: PartyRoster.EditMember) -> None:
        """A click on the roster opens the party dialog on that member."""
        event.stop()
        if not self.readonly:
            self.dialogs.party(event.name)

    def on_light_inventory_chosen(self, event: LightInventory.Chosen) -> None:
        """A click on a light opens the lights dialog on it."""
        event.stop()
        if not self.readonly:
            self.dialogs.lights(event.light_id)

    def on_rooms_pane_clicked(self, event: RoomsPane.Clicked) -> None:
        """A click on the rooms pane opens the exits to go to."""
        event.stop()
        if not self.readonly:
            self.dialogs.go_room()

    def on_action_pane_clicked(self, event: ActionPane.Clicked) -> None:
        """A click on the action pane opens the action chooser."""
        event.stop()
        if not self.readonly:
            self.turns.choose_action()
