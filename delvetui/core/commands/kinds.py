"""Each kind of value a command's word holds: how it is read from text and written back, and
what completes it.

A ``Type`` reads one word (``read``), several (``gather``, for a word that may repeat), or
the ``KEY=VALUE`` pairs a family of keys collects (``collect``), and writes its value back
as the words a game master would type (``write``). Problems are ``UsageProblem`` sentences;
the verb's usage line is added by ``parse``. ``KINDS`` declares every kind of word the
grammar names, once: what it holds, its usual type (a word of the grammar names another
when it needs other limits) and the words that complete it from the state and the
procedure (``completion`` walks the grammar and asks each word's kind).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd
from delvetui.procedure.model import USAGE_DICE
from delvetui.text import MAX_COMMAND, MAX_PURPOSE, MAX_WORD, unseen_in
from delvetui.text import clock as read_clock
from delvetui.text import duration as read_duration
from delvetui.text import quoted as _short

if TYPE_CHECKING:
    from delvetui.core.state import State
    from delvetui.procedure.model import Action, Procedure

#: The dice expressions the command line offers for ``roll``.
DICE = ("d6", "d20", "2d6", "d10", "d8", "d4", "d12", "d100")


class Misfit(Exception):
    """The words do not fit the form (too many, one missing): its sentence says how to."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


@attrs.frozen
class Type:
    """A value typed as one word, kept as typed (a light's id, a counter's value)."""

    #: How a problem names the value ("a light kind").
    what: str = "a word"
    limit: int = MAX_WORD
    lower: bool = False
    #: Whether the word takes the rest of the plain words (free text).
    rest: bool = False

    def read(self, label: str, text: str) -> Any:
        """The value of one typed word; ``label`` is its key or its place in the usage."""
        text = read.bounded("", self.what, text, self.limit)
        return text.lower() if self.lower else text

    def looks(self, text: str) -> bool:
        """Whether an optional word is this one (else it is left for the words after it)."""
        return True

    def gather(self, label: str, texts: list[str]) -> Any:
        """The value of a word that may repeat: each word read, in order."""
        return tuple(self.read(label, text) for text in texts)

    def write(self, value: Any) -> list[str]:
        """The words that say the value."""
        if isinstance(value, tuple):
            return [str(item) for item in value]
        return [] if value is None else [str(value)]


@attrs.frozen
class Name(Type):
    """A member's or a timer's name: not empty, not too long, not KEY=VALUE."""

    what: str = "a name"

    def read(self, label: str, text: str) -> Any:
        return read.name("", text)

    def gather(self, label: str, texts: list[str]) -> Any:
        names = tuple(self.read(label, text) for text in texts)
        folded = [name.casefold() for name in names]
        twice = next((name for name in names if folded.count(name.casefold()) > 1), None)
        if twice is not None:
            raise read.UsageProblem(f"{twice} is named twice; name each member once.", "")
        return names


@attrs.frozen
class Carrier(Name):
    """A member's name, or nobody (``nobody``, ``none`` or ``-``)."""

    def read(self, label: str, text: str) -> Any:
        return None if text.lower() in ("nobody", "none", "-") else read.name("", text)

    def write(self, value: Any) -> list[str]:
        return [value or "nobody"]


@attrs.frozen
class Number(Type):
    """A whole number from ``least`` to ``most``; ``beyond`` says a number past ``most``."""

    least: int = 0
    most: int = cmd.MAX_NUMBER
    beyond: str = ""

    def read(self, label: str, text: str) -> Any:
        if not self.beyond:
            return read.whole("", label, text, minimum=self.least, maximum=self.most)
        number = read.whole("", label, text, minimum=self.least)
        if number > self.most:
            raise read.UsageProblem(self.beyond, "")
        return number


@attrs.frozen
class Amount(Type):
    """A number typed as a value (5) or a change (+2, -3)."""

    def read(self, label: str, text: str) -> Any:
        return read.read_amount("", label, text)

    def write(self, value: Any) -> list[str]:
        if value is None:
            return []
        return [f"{value.value:+d}" if value.relative else str(value.value)]


@attrs.frozen
class UsageDie(Type):
    """A usage die typed as dN (d6) or N (6), kept as its size."""

    def read(self, label: str, text: str) -> Any:
        return read.usage_die(text)

    def write(self, value: Any) -> list[str]:
        return [] if value is None else [f"d{value}"]


@attrs.frozen
class Clock(Type):
    """A time of day, HH:MM, as (hour, minute)."""

    def read(self, label: str, text: str) -> Any:
        found = read_clock(text)
        if found is None:
            raise read.UsageProblem(f"'{_short(text)}' is not a time of day; write HH:MM.", "")
        return found

    def write(self, value: Any) -> list[str]:
        hour, minute = value
        return [f"{hour:02d}:{minute:02d}"]


@attrs.frozen
class Duration(Type):
    """A span of real time (60m, 1h30m, 90s) in seconds; with ``off``, the word off is None."""

    least: int = 1
    off: bool = False

    def read(self, label: str, text: str) -> Any:
        if self.off and text.lower() == "off":
            return None
        return read.real_seconds("", text, least=self.least)

    def looks(self, text: str) -> bool:
        return read_duration(text) is not None

    def write(self, value: Any) -> list[str]:
        return ["off" if value is None else f"{value}s"]


@attrs.frozen
class Span(Type):
    """A timer's length (6t, 30m, 2h, 10rm) as (amount, unit)."""

    def read(self, label: str, text: str) -> Any:
        return read.span(text)

    def write(self, value: Any) -> list[str]:
        amount, unit = value
        letters = {unit: letter for letter, unit in cmd.TIMER_UNITS.items()}
        return [] if amount is None else [f"{amount}{letters[unit]}"]


@attrs.frozen
class Choice(Type):
    """One of a few words; anything else does not fit the form."""

    choices: tuple[str, ...] = ()

    def read(self, label: str, text: str) -> Any:
        if text.lower() not in self.choices:
            raise Misfit("")
        return text.lower()


@attrs.frozen
class Path(Type):
    """A file's path: not too long, no control characters."""

    what: str = "a file's path"
    limit: int = MAX_PURPOSE

    def read(self, label: str, text: str) -> Any:
        path = read.bounded("", self.what, text, self.limit)
        if unseen_in(path) is not None:
            raise read.UsageProblem("A file's path cannot hold control characters.", "")
        return path


@attrs.frozen
class Text(Type):
    """Free words, the rest of the line's plain words joined by one space."""

    what: str = "the text"
    limit: int = MAX_PURPOSE
    rest: bool = True

    def read(self, label: str, text: str) -> Any:
        return read.bounded("", self.what, text.strip(), self.limit)

    def gather(self, label: str, texts: list[str]) -> Any:
        return read.bounded("", self.what, " ".join(texts), self.limit)

    def write(self, value: Any) -> list[str]:
        return value.split(" ") if value else []


@attrs.frozen
class Typed(Type):
    """``KEY=VALUE`` pairs kept as typed, in order (a die rolled at the table, an input)."""

    def collect(self, pairs: list[tuple[str, str]]) -> Any:
        """The value of the pairs this family of keys took."""
        return read.read_values("", pairs)

    def write(self, value: Any) -> list[str]:
        return [f"{key}={given}" for key, given in value]


@attrs.frozen
class Abilities(Typed):
    """ABILITY=N pairs: the procedure's abilities, by their names in capitals, sorted."""

    def collect(self, pairs: list[tuple[str, str]]) -> Any:
        return tuple(
            sorted((key.upper(), read.whole("", key, given, minimum=-99)) for key, given in pairs)
        )

    def write(self, value: Any) -> list[str]:
        return [f"{key.lower()}={given}" for key, given in value]


@attrs.frozen
class RoomIds(Type):
    """Room ids joined by commas (``exits=2,3,4a``), kept in the order typed."""

    what: str = "a room's exits"

    def read(self, label: str, text: str) -> Any:
        ids = tuple(part.strip() for part in text.split(",") if part.strip())
        if not ids:
            raise read.UsageProblem(f"Name the rooms after {label}=, e.g. {label}=2,3.", "")
        for room_id in ids:
            read.bounded("", "a room's id", room_id, MAX_ROOM_ID)
        return ids

    def write(self, value: Any) -> list[str]:
        return [",".join(value)] if value else []


#: The longest room id a command reads (the tables file's ``ROOM_ID`` says the rest).
MAX_ROOM_ID = 20


def _word(what: str) -> Type:
    return Type(what, lower=True)


# The kinds of word: each declared once, with its type and what completes it ---------------


@attrs.frozen
class Asked:
    """What completing a word knows: the state and the procedure, the verb, the values of
    the form's words typed before it (by their kind) and, for a value after ``KEY=``, the key.
    """

    state: State
    procedure: Procedure
    verb: str
    typed: Mapping[str, str] = attrs.field(factory=dict)
    key: str = ""

    @property
    def names(self) -> list[str]:
        """The party's names as they are typed (quoted when they hold a space); a name that
        cannot be typed (a file's, with control characters) is not offered."""
        return [_quote(m.name) for m in self.state.party if unseen_in(m.name) is None]

    @property
    def action(self) -> Action | None:
        """The action (for ``turn``) or the activity typed before, if any."""
        doing = self.procedure.actions if self.verb == "turn" else self.procedure.activities
        return doing.get(self.typed.get("action", self.typed.get("activity", "")).lower())


#: The words that can stand for a kind now (or, for a family's key, its values).
Offer = Callable[[Asked], list[str]]


def _none(asked: Asked) -> list[str]:
    return []


@attrs.frozen
class Kind:
    """A kind of word of the grammar (``member``, ``light-kind``, ``ROLL=N``'s ``roll``).

    ``type`` reads and writes a value of the kind (None for a word its form reads: a
    sub-command, a flag, a form read by hand); ``offers`` gives the words that can stand
    for it now (for a family of keys, each ``KEY=``), and ``values`` the values a family's
    key can take. The command line completes every word by its kind's offers.
    """

    name: str
    doc: str
    type: Type | None = None
    offers: Offer = _none
    values: Offer = _none


def _quote(word: str) -> str:
    return shlex.quote(word) if any(c.isspace() for c in word) else word


def _lights(asked: Asked, lit: bool | None) -> list[str]:
    lights = [light for light in asked.state.lights if not light.spent]
    return [light.id for light in lights if lit is None or light.lit == lit]


#: The longest row typed at the table: its faces and number, a creature's name and words.
_ROW_LIMIT = 600


def _faces(asked: Asked) -> list[str]:
    """The faces of each row of the area typed before (``tables change AREA FACES``)."""
    from delvetui.core.table_rows import find  # the adventure's tables, only when asked for
    from delvetui.errors import CommandError

    try:
        found = find(asked.state, asked.typed.get("area", ""))
    except CommandError:
        return []
    return [row.roll for row in found.area.rows]


def _areas(asked: Asked) -> list[str]:
    from delvetui.core.areas import areas  # the adventure's tables, only when asked for

    return list(areas(asked.state))


def _rooms(asked: Asked) -> list[str]:
    return [room.id for room in asked.state.rooms]


def _ways(asked: Asked) -> list[str]:
    """Where ``go`` can lead: the exits of the room the party is in, else every room."""
    here = asked.state.current_room
    return list(here.exits) if here is not None else _rooms(asked)


def _room_marks(asked: Asked) -> list[str]:
    """+MARK for each mark the room named has not, -MARK for each it has."""
    from delvetui.core.state import MARKS

    room = asked.state.find_room(asked.typed.get("room", ""))
    marks = room.marks if room is not None else ()
    return [f"-{mark}" if mark in marks else f"+{mark}" for mark in MARKS]


def _foes(asked: Asked) -> list[str]:
    return [_quote(foe.name) for foe in asked.state.foes if unseen_in(foe.name) is None]


def _levels(asked: Asked) -> list[str]:
    found = asked.procedure.counters.get(asked.typed.get("counter", "").lower())
    return list(found.levels) if found is not None else []


def _conditions(asked: Asked) -> list[str]:
    member = asked.state.member(asked.typed.get("member", "").strip("'\""))
    return [f"-{c}" for c in member.conditions] if member else []


def _resources(asked: Asked) -> list[str]:
    per = "party" if asked.verb == "party" else "member"
    return [f"{key}=" for key, r in asked.procedure.resources.items() if r.per == per]


def _abilities(asked: Asked) -> list[str]:
    return [f"{ability.lower()}=" for ability in asked.procedure.party.abilities]


def _rolls(asked: Asked) -> list[str]:
    action = asked.action
    rolls = asked.procedure.rolls if asked.verb == "turn" else (action.rolls if action else ())
    return [f"{rule_id}=" for rule_id in rolls]


def _inputs(asked: Asked) -> list[str]:
    action = asked.action
    keys = [f"{key}=" for key in action.inputs] if action is not None else []
    if asked.verb == "turn":
        keys.append("by=")
        if len(asked.procedure.movement.speeds) > 1:
            keys.append("speed=")
    return keys


def _input_values(asked: Asked) -> list[str]:
    """The values an input's key takes: a member (by=), a speed, or what the action lists."""
    if asked.key == "by":
        return asked.names
    if asked.key == "speed":
        return list(asked.procedure.movement.speeds)
    action = asked.action
    if action is not None and asked.key in action.inputs:
        return list(action.inputs[asked.key].values)
    return []


_LIGHT = Type("a light id or kind")
_ROOM = Type("a room's id", limit=MAX_ROOM_ID)

#: Every kind of word the grammar's forms name, in one place.
KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("word", "the word itself: a sub-command (add, on, start)"),
        Kind("flag", "a word that switches something on (lit)"),
        Kind("gain", "+CONDITION", offers=lambda asked: ["+"]),
        Kind("lose", "-CONDITION: a condition the member named has", offers=_conditions),
        Kind("member", "a party member's name", Name(), lambda asked: asked.names),
        Kind("carrier", "a member's name, or nobody", Carrier(), lambda a: [*a.names, "nobody"]),
        Kind("new-name", "a name not yet in the party", Name()),
        Kind("foe", "a foe's name", Name(what="a foe's name"), _foes),
        Kind("new-foe", "a name no foe has yet (what the foes are)", Name(what="a foe's name")),
        Kind(
            "combatant",
            "a foe's or a party member's name",
            Name(),
            lambda asked: [*_foes(asked), *asked.names],
        ),
        Kind("light", "a light's id", _LIGHT, lambda asked: _lights(asked, None)),
        Kind("unlit", "a light's id or kind, not lit", _LIGHT, lambda a: _lights(a, False)),
        Kind("lit", "a lit light's id or kind", _LIGHT, lambda asked: _lights(asked, True)),
        Kind(
            "light-kind",
            "a kind of light of the procedure",
            _word("a light kind"),
            lambda asked: list(asked.procedure.lights),
        ),
        Kind(
            "new-light-kind",
            "a kind of light the procedure lacks: one word (candle, light-spell)",
            _word("a light kind"),
        ),
        Kind(
            "action",
            "an action of the procedure",
            _word("an action"),
            lambda asked: list(asked.procedure.actions_in(asked.state.turn_type)),
        ),
        Kind(
            "activity",
            "an activity of the procedure",
            _word("an activity"),
            lambda asked: list(asked.procedure.activities_in(asked.state.turn_type)),
        ),
        Kind(
            "turn-type",
            "a kind of turn of the procedure",
            _word("a turn type"),
            lambda asked: list(asked.procedure.turn_types),
        ),
        Kind(
            "counter",
            "a counter of the procedure",
            _word("a counter"),
            lambda asked: list(asked.procedure.counters),
        ),
        Kind(
            "counter-value",
            "a number, +N, -N, or a level of the counter named before",
            Type("a value"),
            _levels,
        ),
        Kind("area", "an area of the adventure's own tables", _word("an area"), _areas),
        Kind("room", "a room of the dungeon", _ROOM, _rooms),
        Kind("way", "a room to go to: an exit of the room the party is in", _ROOM, _ways),
        Kind("new-room", "a room's id, not yet a room of the dungeon", _ROOM),
        Kind("rooms", "room ids joined by commas: 2,3,4a", RoomIds(), _rooms),
        Kind("room-mark", "+MARK or -MARK: a mark of a room", offers=_room_marks),
        Kind("file", "a file's path", Path()),
        Kind(
            "table-row",
            "a row of a table as printed: its faces, how many, the creature, its words",
            Text(what="the row", limit=_ROW_LIMIT),
        ),
        Kind("table-faces", "the faces of a row of an area's table", Type("a row's faces"), _faces),
        Kind(
            "shown",
            "what the players' screen can show",
            Choice(choices=cmd.REVEALS),
            lambda asked: list(cmd.REVEALS),
        ),
        Kind("dice", "a dice expression", Type(limit=MAX_COMMAND), lambda asked: list(DICE)),
        Kind("text", "free text", Text()),
        Kind("number", "a whole number", Number()),
        Kind("amount", "N, +N or -N", Amount()),
        Kind("clock", "HH:MM", Clock()),
        Kind("duration", "a span of real time: 60m, 1h30m, 90s", Duration()),
        Kind("faces", "a die's faces, typed: 3 or 4,3", Type(limit=MAX_COMMAND)),
        Kind(
            "usage-die",
            "a usage die: d4, d6, d8, d10, d12, d20",
            UsageDie(),
            lambda asked: [f"d{size}" for size in reversed(USAGE_DICE)],
        ),
        Kind("ability", "ABILITY=N: the procedure's abilities", Abilities(), _abilities),
        Kind("roll", "ROLL=N: the rolls the command makes", Typed(), _rolls),
        Kind(
            "input",
            "INPUT=VALUE: what the action takes from the table",
            Typed(),
            _inputs,
            _input_values,
        ),
        Kind("resource-change", "+N RESOURCE or -N RESOURCE: a resource of the procedure"),
        Kind("resource", "RESOURCE=N: the procedure's resources", offers=_resources),
        Kind(
            "timer",
            "a running timer's name",
            Name(),
            lambda asked: [_quote(timer.name) for timer in asked.state.timers],
        ),
        Kind(
            "new-timer",
            "a timer's name: one the procedure declares, or a new one",
            Name(),
            lambda a: [name for name in a.procedure.timers if a.state.timer(name) is None],
        ),
        Kind(
            "span",
            "a timer's length: 6t (turns), 30m (minutes), 2h (hours), 10rm (real minutes)",
            Span(),
            lambda asked: ["6t", "10m", "1h", "10rm"],
        ),
    )
}
