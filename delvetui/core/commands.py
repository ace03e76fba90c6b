"""The command language shared by ``delvetui act`` and the table screen's command line.

``parse`` turns one line of text into a frozen command; it checks the shape only. Whether
the command makes sense for the expedition (does that action exist, is that light lit) is
for ``decide``. Words are split like a shell's, so names with spaces are quoted:
``pc add "Old Tom" hp=5``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

import attrs

from delvetui import text as rules
from delvetui.errors import CommandError

#: Longest command accepted, so a runaway paste is refused at once.
MAX_COMMAND_LENGTH = rules.MAX_COMMAND
MAX_NAME_LENGTH = rules.MAX_NAME
#: The largest number a command takes (hit points, counts, minutes...).
MAX_NUMBER = 999_999

USAGE: dict[str, str] = {
    "pc": "pc add NAME hp=N [ABILITY=N ...] | pc NAME [hp=N|+N|-N] [max=N] [fatigue=N] "
    "[+CONDITION] [-CONDITION] | pc remove NAME",
    "light": "light add KIND [carrier=NAME] [count=N] [lit] | light on ID|KIND [carrier=NAME] "
    "| light off ID|KIND | light give ID NAME|nobody | light set ID turns=N|minutes=N "
    "| light refuel ID | light realtime ID DURATION|off",
    "turn": "turn [ACTION] [ROLL=N ...] [INPUT=VALUE ...]",
    "do": "do ACTIVITY [by=NAME] [ROLL=N ...]",
    "roll": "roll EXPR [WHAT FOR]",
    "note": "note TEXT",
    "undo": "undo",
    "redo": "redo",
    "session": "session start | session end",
    "time": "time set HH:MM | time roll [N]",
    "enter": "enter TURN-TYPE",
    "reveal": "reveal sign|encounter|hp (on the players' screen)",
    "hide": "hide sign|encounter|hp (from the players' screen)",
    "realtime": "realtime pause [DURATION] [WHY] | realtime resume "
    "| realtime pass DURATION [ID ...]",
}
#: The longest span of real time a command takes (a day).
MAX_REAL_SECONDS = 24 * 3600


@attrs.frozen
class Command:
    """Base of every command; ``text`` is the line it was parsed from."""

    text: str = attrs.field(kw_only=True, default="", eq=False)


@attrs.frozen
class AddMember(Command):
    """Add a party member."""

    name: str
    hp: int
    max_hp: int
    abilities: tuple[tuple[str, int], ...] = ()


@attrs.frozen
class Amount:
    """A number given as a value (``hp=5``) or a change (``hp=+2``, ``hp=-3``)."""

    value: int
    relative: bool

    def apply(self, current: int) -> int:
        """The new value for the current one."""
        return current + self.value if self.relative else self.value


@attrs.frozen
class EditMember(Command):
    """Change a party member: hit points, maximum, abilities, fatigue, conditions."""

    name: str
    hp: Amount | None = None
    max_hp: int | None = None
    abilities: tuple[tuple[str, int], ...] = ()
    fatigue: Amount | None = None
    gain: tuple[str, ...] = ()
    lose: tuple[str, ...] = ()


@attrs.frozen
class RemoveMember(Command):
    """Take a member out of the party."""

    name: str


@attrs.frozen
class AddLight(Command):
    """Add light sources to the inventory."""

    kind: str
    carrier: str | None = None
    count: int = 1
    lit: bool = False


@attrs.frozen
class LightOn(Command):
    """Light a source (by id, or one of a kind)."""

    target: str
    carrier: str | None = None


@attrs.frozen
class LightOff(Command):
    """Put out a lit source (by id, or one of a kind); it can be lit again."""

    target: str


@attrs.frozen
class HandLight(Command):
    """Hand a light to another member (or to nobody)."""

    target: str
    carrier: str | None


@attrs.frozen
class SetLight(Command):
    """Set a light's time left, correcting the record."""

    target: str
    minutes: int | None = None
    turns: int | None = None


@attrs.frozen
class RefuelLight(Command):
    """Refuel a light (a lantern's flask of oil)."""

    target: str


@attrs.frozen
class SetRealTime(Command):
    """Make a light burn in real time with this many seconds left (None: by turns again)."""

    target: str
    seconds: int | None


@attrs.frozen
class RealTime(Command):
    """The table's real-time clock: pause it, resume it, or record real time that passed.

    ``seconds`` is the real time that passed since the last record (with ``pause``, before
    pausing); ``ids`` limits it to those lights (the ones that were burning then).
    """

    verb: str
    seconds: int = 0
    ids: tuple[str, ...] = ()
    reason: str = ""


@attrs.frozen
class TakeTurn(Command):
    """Take a turn with an action (the last one when none is named)."""

    action: str | None = None
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class DoActivity(Command):
    """Do an activity within the turn (battering a door, a moment's rest)."""

    activity: str
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class RollDice(Command):
    """Roll any dice for the log."""

    expression: str
    purpose: str = ""
    value: str | None = None


@attrs.frozen
class Note(Command):
    """Write a note in the log."""

    note: str


@attrs.frozen
class Undo(Command):
    """Undo the last command still standing."""


@attrs.frozen
class Redo(Command):
    """Redo the last undone command."""


@attrs.frozen
class Session(Command):
    """Start or end a session at the table."""

    start: bool


@attrs.frozen
class SetTime(Command):
    """Set the clock to a time of day."""

    hour: int
    minute: int


@attrs.frozen
class RollTime(Command):
    """Roll 1-4 time dice to set the hour of day."""

    count: int | None = None
    value: str | None = None


@attrs.frozen
class EnterTurnType(Command):
    """Move to another kind of turn (dungeon, wilderness, haven)."""

    turn_type: str


@attrs.frozen
class ShowPlayers(Command):
    """Show something on the players' screen, or hide it again."""

    what: str
    shown: bool


#: What the game master can show on the players' screen, or hide again.
PLAYERS_SHOW = ("sign", "encounter", "hp")

_Parser = Callable[[list[str], str], Command]


def parse(text: str) -> Command:
    """Parse one line of the command language; raise CommandError with a clear sentence."""
    if len(text) > MAX_COMMAND_LENGTH:
        raise CommandError(
            f"The command is {len(text)} characters long; the limit is {MAX_COMMAND_LENGTH}."
        )
    control = rules.unseen_in(text)
    if control is not None:
        raise CommandError(
            f"The command contains a control character ({control}, such as a terminal's escape "
            "sequence, a line break or a right-to-left override); type plain text."
        )
    first = text.strip().split(maxsplit=1)
    if first and first[0].lower() == "note":
        # A note is free text: apostrophes and quotes are the game master's, not syntax.
        return attrs.evolve(_note([], text), text=text.strip())
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise CommandError(f"Cannot read the command: {error}; close the quotes.") from None
    if not words:
        raise CommandError("The command is empty; try 'turn', 'note TEXT' or 'help'.")
    verb, rest = words[0].lower(), words[1:]
    parser = _PARSERS.get(verb)
    if parser is None:
        raise CommandError(
            f"'{_short(words[0])}' is not a command; use one of: {', '.join(USAGE)}."
            + _suggest(verb, USAGE)
        )
    command = parser(rest, text)
    return attrs.evolve(command, text=text.strip())


# KEY=VALUE; after a dot the key may name a member with spaces ('save.Old Tom=12').
_KEY = re.compile(r"^([A-Za-z][\w\-]*(?:\.[^=]+)?)=(.*)$", re.DOTALL)
_short = rules.quoted
_suggest = rules.suggest


def _usage(verb: str, problem: str) -> CommandError:
    return CommandError(f"{problem} Usage: {USAGE[verb]}")


def _int(
    verb: str, key: str, value: str, *, minimum: int | None = 0, maximum: int = MAX_NUMBER
) -> int:
    least = -MAX_NUMBER if minimum is None else minimum
    problem = rules.number_problem(key, value, least, maximum)
    if problem is not None:
        raise _usage(verb, problem)
    return int(value)


def _amount(verb: str, key: str, value: str) -> Amount:
    number = _int(verb, key, value, minimum=None)
    relative = value.startswith(("+", "-"))
    if not relative and number < 0:
        raise _usage(verb, f"{key} cannot be negative.")
    return Amount(number, relative)


def _name(verb: str, name: str) -> str:
    name = name.strip()
    if not name:
        raise _usage(verb, "A name cannot be empty.")
    if len(name) > MAX_NAME_LENGTH:
        raise _usage(verb, f"'{_short(name)}' is longer than {MAX_NAME_LENGTH} characters.")
    if "=" in name:
        raise _usage(verb, f"'{_short(name)}' looks like KEY=VALUE, not a name.")
    return name


def _bounded(verb: str, what: str, text: str, limit: int) -> str:
    """The text, refused when it is longer than ``limit`` characters."""
    if len(text) > limit:
        raise _usage(
            verb,
            f"{what.capitalize()} may be up to {limit} characters long; "
            f"'{_short(text)}' has {len(text)}.",
        )
    return text


def _word(verb: str, what: str, text: str) -> str:
    """A word the procedure must know (an action, a kind, an id), refused when too long."""
    return _bounded(verb, what, text, rules.MAX_WORD)


def _split(words: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    plain: list[str] = []
    pairs: list[tuple[str, str]] = []
    for word in words:
        found = _KEY.match(word)
        if found is not None:
            key = found.group(1)
            if len(key) > rules.MAX_WORD:
                raise CommandError(
                    f"'{_short(key)}=' is {len(key)} characters long; "
                    f"a key may be up to {rules.MAX_WORD}."
                )
            pairs.append((key, found.group(2)))
        else:
            plain.append(word)
    return plain, pairs


def _pc(words: list[str], text: str) -> Command:
    if not words:
        raise _usage("pc", "Name a party member.")
    if words[0].lower() == "add":
        plain, pairs = _split(words[1:])
        if len(plain) != 1:
            raise _usage("pc", "pc add takes one name (quote a name with spaces).")
        name = _name("pc", plain[0])
        values = dict(pairs)
        if "hp" not in values:
            raise _usage("pc", f"Give {name}'s hit points, e.g. pc add {name} hp=8.")
        start_hp = _int("pc", "hp", values.pop("hp"), minimum=1)
        top = _int("pc", "max", values.pop("max"), minimum=1) if "max" in values else start_hp
        abilities = tuple(
            sorted(
                (key.upper(), _int("pc", key, value, minimum=-99)) for key, value in values.items()
            )
        )
        return AddMember(name=name, hp=start_hp, max_hp=top, abilities=abilities)
    if words[0].lower() == "remove":
        if len(words) != 2:
            raise _usage("pc", "pc remove takes one name.")
        return RemoveMember(name=_name("pc", words[1]))
    plain, pairs = _split(words)
    if not plain:
        raise _usage("pc", "Name a party member before what changes, e.g. pc Ash hp=-2.")
    name = _name("pc", plain[0])
    gain: list[str] = []
    lose: list[str] = []
    for word in plain[1:]:
        if word.startswith("+") and len(word) > 1:
            gain.append(_bounded("pc", "a condition", word[1:], MAX_NAME_LENGTH))
        elif word.startswith("-") and len(word) > 1:
            lose.append(_bounded("pc", "a condition", word[1:], MAX_NAME_LENGTH))
        else:
            raise _usage(
                "pc", f"'{_short(word)}' is not a change; write hp=N, +CONDITION or -CONDITION."
            )
    values = dict(pairs)
    hp = _amount("pc", "hp", values.pop("hp")) if "hp" in values else None
    max_hp = _int("pc", "max", values.pop("max"), minimum=1) if "max" in values else None
    fatigue = _amount("pc", "fatigue", values.pop("fatigue")) if "fatigue" in values else None
    abilities = tuple(
        sorted((key.upper(), _int("pc", key, value, minimum=-99)) for key, value in values.items())
    )
    if (
        hp is None
        and max_hp is None
        and fatigue is None
        and not abilities
        and not gain
        and not lose
    ):
        raise _usage("pc", f"Say what changes for {name}, e.g. pc {name} hp=-2.")
    return EditMember(
        name=name,
        hp=hp,
        max_hp=max_hp,
        abilities=abilities,
        fatigue=fatigue,
        gain=tuple(gain),
        lose=tuple(lose),
    )


def _light(words: list[str], text: str) -> Command:
    if not words:
        raise _usage("light", "Say what to do with a light.")
    sub, rest = words[0].lower(), words[1:]
    plain, pairs = _split(rest)
    values = dict(pairs)
    carrier = values.pop("carrier", None)
    if carrier is not None:
        carrier = _name("light", carrier)
    if sub == "add":
        lit = any(word.lower() == "lit" for word in plain)
        plain = [word for word in plain if word.lower() != "lit"]
        if len(plain) != 1:
            raise _usage("light", "light add takes one kind, e.g. light add torch count=6.")
        count = (
            _int("light", "count", values.pop("count"), minimum=1, maximum=999)
            if "count" in values
            else 1
        )
        _no_more("light", values)
        kind = _word("light", "a light kind", plain[0]).lower()
        return AddLight(kind=kind, carrier=carrier, count=count, lit=lit)
    if sub == "realtime" and len(plain) == 2:
        _no_more("light", values)
        _word("light", "a light id or kind", plain[0])
        if plain[1].lower() == "off":
            return SetRealTime(target=plain[0], seconds=None)
        return SetRealTime(target=plain[0], seconds=_real_seconds("light", plain[1]))
    if len(plain) != 1 and sub != "give":
        raise _usage("light", f"light {sub} takes one light id or kind.")
    if plain:
        _word("light", "a light id or kind", plain[0])
    if sub == "on":
        _no_more("light", values)
        return LightOn(target=plain[0], carrier=carrier)
    if sub == "off":
        _no_more("light", values)
        return LightOff(target=plain[0])
    if sub == "give":
        if len(plain) != 2:
            raise _usage("light", "light give takes a light id and a name (or nobody).")
        to = None if plain[1].lower() in ("nobody", "none", "-") else _name("light", plain[1])
        return HandLight(target=plain[0], carrier=to)
    if sub == "set":
        turns = _int("light", "turns", values.pop("turns")) if "turns" in values else None
        minutes = _int("light", "minutes", values.pop("minutes")) if "minutes" in values else None
        if (turns is None) == (minutes is None):
            raise _usage("light", "Give turns=N or minutes=N.")
        _no_more("light", values)
        return SetLight(target=plain[0], minutes=minutes, turns=turns)
    if sub == "refuel":
        _no_more("light", values)
        return RefuelLight(target=plain[0])
    if sub == "realtime":
        raise _usage("light", "light realtime takes a light id and a time (60m, 1h30m) or off.")
    raise _usage("light", f"'{_short(sub)}' is not something to do with a light.")


def _no_more(verb: str, values: dict[str, str]) -> None:
    if values:
        key = next(iter(values))
        raise _usage(verb, f"'{_short(key)}=' does not belong here.")


def _values(verb: str, pairs: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    for key, value in pairs:
        if not value:
            raise _usage(verb, f"{key}= needs a value.")
        _bounded(verb, f"the value of {key}=", value, rules.MAX_PURPOSE)
    return tuple(pairs)


def _turn(words: list[str], text: str) -> Command:
    plain, pairs = _split(words)
    if len(plain) > 1:
        raise _usage("turn", f"A turn takes one action, not '{_short(' '.join(plain))}'.")
    action = _word("turn", "an action", plain[0]).lower() if plain else None
    return TakeTurn(action=action, values=_values("turn", pairs))


def _do(words: list[str], text: str) -> Command:
    plain, pairs = _split(words)
    if len(plain) != 1:
        raise _usage("do", "Name one activity.")
    activity = _word("do", "an activity", plain[0]).lower()
    return DoActivity(activity=activity, values=_values("do", pairs))


def _roll(words: list[str], text: str) -> Command:
    plain, pairs = _split(words)
    if not plain:
        raise _usage("roll", "Give the dice to roll, e.g. roll 2d6 reaction.")
    values = dict(pairs)
    value = values.pop("result", None)
    _no_more("roll", values)
    purpose = _bounded("roll", "what a roll is for", " ".join(plain[1:]), rules.MAX_PURPOSE)
    return RollDice(expression=plain[0], purpose=purpose, value=value)


def _note(words: list[str], text: str) -> Command:
    body = text.strip()[len("note") :].strip()
    if not body:
        raise _usage("note", "A note needs some text.")
    return Note(note=_bounded("note", "a note", body, rules.MAX_NOTE))


def _bare(verb: str, cls: type[Command]) -> _Parser:
    def parse_bare(words: list[str], text: str) -> Command:
        if words:
            raise _usage(verb, f"{verb} takes nothing more.")
        return cls()

    return parse_bare


def _session(words: list[str], text: str) -> Command:
    if len(words) != 1 or words[0].lower() not in ("start", "end"):
        raise _usage("session", "Say session start or session end.")
    return Session(start=words[0].lower() == "start")


def _time(words: list[str], text: str) -> Command:
    if not words:
        raise _usage("time", "Say time set HH:MM or time roll N.")
    sub = words[0].lower()
    if sub == "set" and len(words) == 2:
        found = rules.clock(words[1])
        if found is None:
            raise _usage("time", f"'{_short(words[1])}' is not a time of day; write HH:MM.")
        return SetTime(hour=found[0], minute=found[1])
    if sub == "roll":
        plain, pairs = _split(words[1:])
        values = dict(pairs)
        value = values.pop("time", None)
        _no_more("time", values)
        count = None
        if plain:
            count = _int("time", "N", plain[0], minimum=1)
            if count > 4:
                raise _usage("time", "Roll 1 to 4 time dice.")
        return RollTime(count=count, value=value)
    raise _usage("time", "Say time set HH:MM or time roll N.")


def _show(verb: str) -> _Parser:
    def parse_show(words: list[str], text: str) -> Command:
        if len(words) != 1 or words[0].lower() not in PLAYERS_SHOW:
            raise _usage("reveal", f"Say {verb} sign, {verb} encounter or {verb} hp.")
        return ShowPlayers(what=words[0].lower(), shown=verb == "reveal")

    return parse_show


def _real_seconds(verb: str, text: str, *, least: int = 1) -> int:
    seconds = rules.duration(text)
    if seconds is None:
        raise _usage(verb, f"'{_short(text)}' is not a span of time; write 60m, 1h30m or 90s.")
    if not least <= seconds <= MAX_REAL_SECONDS:
        raise _usage(verb, f"Give {least} second{'s' if least != 1 else ''} to 24 hours.")
    return seconds


def _realtime(words: list[str], text: str) -> Command:
    sub = words[0].lower() if words else ""
    rest = words[1:]
    if sub == "resume" and not rest:
        return RealTime(verb="resume")
    if sub == "pause":
        seconds = 0
        if rest and rules.duration(rest[0]) is not None:
            seconds = _real_seconds("realtime", rest[0], least=0)
            rest = rest[1:]
        reason = _bounded("realtime", "why the clock pauses", " ".join(rest), rules.MAX_PURPOSE)
        return RealTime(verb="pause", seconds=seconds, reason=reason)
    if sub == "pass" and rest:
        ids = tuple(_word("realtime", "a light id", word) for word in rest[1:])
        return RealTime(verb="pass", seconds=_real_seconds("realtime", rest[0]), ids=ids)
    raise _usage("realtime", "Say realtime pause, realtime resume or realtime pass DURATION.")


def _enter(words: list[str], text: str) -> Command:
    if len(words) != 1:
        raise _usage("enter", "Name one turn type.")
    return EnterTurnType(turn_type=_word("enter", "a turn type", words[0]).lower())


_PARSERS: dict[str, _Parser] = {
    "pc": _pc,
    "light": _light,
    "turn": _turn,
    "do": _do,
    "roll": _roll,
    "note": _note,
    "undo": _bare("undo", Undo),
    "redo": _bare("redo", Redo),
    "session": _session,
    "time": _time,
    "enter": _enter,
    "reveal": _show("reveal"),
    "hide": _show("hide"),
    "realtime": _realtime,
}
