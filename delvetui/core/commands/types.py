"""The commands: frozen values, one class for each thing the game master can do.

The table builds them directly (a dialog, a picker, a key); typed text becomes one through
``parse``. Whether a command makes sense for the expedition (does that action exist, is
that light lit) is for ``decide``. The light verb's commands sit beside its forms in
``light_forms.py``, and a new command may sit beside its forms in its verb's module; the
package gives every one by its name.
"""

from __future__ import annotations

import attrs

from delvetui.text import MAX_COMMAND, MAX_NAME, MAX_TYPED
from delvetui.text import MAX_REAL_SECONDS as MAX_REAL_SECONDS
from delvetui.values import Value

# The limits of a command, by the names the command language gives them (the numbers are
# the text rules', in delvetui/text.py, where every limit of what is typed is kept).
#: Longest command accepted, so a runaway paste is refused at once.
MAX_COMMAND_LENGTH = MAX_COMMAND
MAX_NAME_LENGTH = MAX_NAME
#: The largest number a command takes (hit points, counts, minutes...).
MAX_NUMBER = MAX_TYPED


@attrs.frozen(repr=False, eq=False)
class Command(Value):
    """Base of every command; ``text`` is the line it was parsed from."""

    text: str = attrs.field(kw_only=True, default="", eq=False)


@attrs.frozen(repr=False, eq=False)
class AddMember(Command):
    """Add a party member."""

    name: str
    hp: int
    max_hp: int
    abilities: tuple[tuple[str, int], ...] = ()


@attrs.frozen(repr=False, eq=False)
class Amount(Value):
    """A number given as a value (``hp=5``) or a change (``hp=+2``, ``hp=-3``)."""

    value: int
    relative: bool

    def apply(self, current: int) -> int:
        """The new value for the current one."""
        return current + self.value if self.relative else self.value


@attrs.frozen(repr=False, eq=False)
class EditMember(Command):
    """Change a party member: hit points, maximum, abilities, fatigue, conditions."""

    name: str
    hp: Amount | None = None
    max_hp: int | None = None
    abilities: tuple[tuple[str, int], ...] = ()
    fatigue: Amount | None = None
    gain: tuple[str, ...] = ()
    lose: tuple[str, ...] = ()
    #: How long gained conditions last: (condition, "N" turns or "rest").
    durations: tuple[tuple[str, str], ...] = ()
    #: Resources changed: ``+2 rations`` (a change) or ``rations=3`` (a value).
    resources: tuple[tuple[str, Amount], ...] = ()


@attrs.frozen(repr=False, eq=False)
class EditParty(Command):
    """Change the resources the party keeps as one stock (``party +5 rations``)."""

    resources: tuple[tuple[str, Amount], ...] = ()


@attrs.frozen(repr=False, eq=False)
class SetMarchingOrder(Command):
    """Set the party's marching order (``party order Ash Bo``): these first, in this order."""

    names: tuple[str, ...]


@attrs.frozen(repr=False, eq=False)
class RemoveMember(Command):
    """Take a member out of the party."""

    name: str


@attrs.frozen(repr=False, eq=False)
class RealTime(Command):
    """The table's real-time clock: pause it, resume it, or record real time that passed.

    ``seconds`` is the real time that passed since the last record (with ``pause``, before
    pausing); ``ids`` limits it to those lights (the ones that were burning then).
    """

    verb: str
    seconds: int = 0
    ids: tuple[str, ...] = ()
    reason: str = ""


@attrs.frozen(repr=False, eq=False)
class TakeTurn(Command):
    """Take a turn with an action (the last one when none is named)."""

    action: str | None = None
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen(repr=False, eq=False)
class DoActivity(Command):
    """Do an activity within the turn (battering a door, a moment's rest)."""

    activity: str
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen(repr=False, eq=False)
class RollDice(Command):
    """Roll any dice for the log."""

    expression: str
    purpose: str = ""
    value: str | None = None


@attrs.frozen(repr=False, eq=False)
class Note(Command):
    """Write a note in the log."""

    note: str


@attrs.frozen(repr=False, eq=False)
class Undo(Command):
    """Undo the last command still standing."""


@attrs.frozen(repr=False, eq=False)
class Redo(Command):
    """Redo the last undone command."""


@attrs.frozen(repr=False, eq=False)
class EndExpedition(Command):
    """End the expedition ("the party is back in town"); only reopen, undo, redo follow."""

    words: str = ""


@attrs.frozen(repr=False, eq=False)
class Reopen(Command):
    """Take an ended expedition up again."""


@attrs.frozen(repr=False, eq=False)
class Session(Command):
    """Start or end a session at the table."""

    start: bool


@attrs.frozen(repr=False, eq=False)
class SetTime(Command):
    """Set the clock to a time of day."""

    hour: int
    minute: int


@attrs.frozen(repr=False, eq=False)
class RollTime(Command):
    """Roll 1-4 time dice to set the hour of day."""

    count: int | None = None
    value: str | None = None


@attrs.frozen(repr=False, eq=False)
class EnterTurnType(Command):
    """Move to another kind of turn (dungeon, wilderness, haven)."""

    turn_type: str


@attrs.frozen(repr=False, eq=False)
class SetCounter(Command):
    """Set one of the procedure's counters: a number, +N or -N, or a named level."""

    counter: str
    value: str


@attrs.frozen(repr=False, eq=False)
class ShowPlayers(Command):
    """Show something on the players' screen, or hide it again."""

    what: str
    shown: bool


@attrs.frozen(repr=False, eq=False)
class DescribeEncounter(Command):
    """Name this turn's encounter, or say how far away it is, after the dice showed it."""

    creature: str | None = None
    distance: str | None = None


#: What the game master can show on the players' screen, or hide again.
PLAYERS_SHOW = ("sign", "encounter", "hp")
#: What ``reveal`` and ``hide`` take: those, and the label of the room the party is in.
REVEALS = (*PLAYERS_SHOW, "room")


@attrs.frozen(repr=False, eq=False)
class AddTables(Command):
    """Carry the adventure's own tables, from a file (its text is read by the app service:
    the core reads no file)."""

    path: str
    #: The file's text, read by the app service; the core reads no file.
    contents: str = attrs.field(default="", repr=False)


@attrs.frozen(repr=False, eq=False)
class SetTableRow(Command):
    """Set a row of an area's table as printed ("4-6 1d3 skeletons"): it replaces the row of
    those faces, or takes them from the rows that had them."""

    area: str
    row: str


@attrs.frozen(repr=False, eq=False)
class ChangeTableRow(Command):
    """Make the row of exactly ``faces`` the row given (its faces may change too)."""

    area: str
    faces: str
    row: str


@attrs.frozen(repr=False, eq=False)
class RemoveTableRow(Command):
    """Take the row of exactly ``faces`` out of an area's table."""

    area: str
    faces: str


@attrs.frozen(repr=False, eq=False)
class EnterArea(Command):
    """Move to another area (level) of the adventure: its encounter table is in use."""

    area: str


#: The units a timer's length is typed in, by their letters: 6t, 30m, 2h, 10rm (real minutes).
TIMER_UNITS = {"t": "turns", "m": "minutes", "h": "hours", "rm": "real"}
#: The most real minutes a timer runs (a day, as a real-time light).
MAX_REAL_MINUTES = MAX_REAL_SECONDS // 60


@attrs.frozen(repr=False, eq=False)
class SetTimer(Command):
    """Start a named timer (``add``), change its length (``set``) or stop it (``cancel``).

    ``amount`` is in ``unit`` ("turns", "minutes", "hours", or "real": real minutes at the
    table); None when starting a timer the procedure declares, at its usual length.
    """

    verb: str
    name: str
    amount: int | None = None
    unit: str = "turns"
