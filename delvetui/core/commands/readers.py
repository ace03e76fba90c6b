"""Reading the words of each command into a command value, one reader a verb.

A reader checks the shape only (how many words, numbers in range, lengths). It raises
``UsageProblem`` with the sentence of what is wrong; ``parse`` adds the verb's usage line
from the grammar. Words are split like a shell's before they get here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from delvetui.core.commands import types as cmd
from delvetui.errors import CommandError
from delvetui.text import (
    MAX_NOTE,
    MAX_PURPOSE,
    MAX_WORD,
    number_problem,
    unseen_in,
)
from delvetui.text import clock as read_clock
from delvetui.text import duration as read_duration
from delvetui.text import quoted as _short

#: A reader: the words after the verb, and the whole line (a note keeps it as typed).
Reader = Callable[[list[str], str], cmd.Command]

# KEY=VALUE; after a dot the key may name a member with spaces ('save.Old Tom=12').
_KEY = re.compile(r"^([A-Za-z][\w\-]*(?:\.[^=]+)?)=(.*)$", re.DOTALL)


class UsageProblem(CommandError):
    """A command of the wrong shape; ``parse`` adds the verb's usage to the sentence."""

    def __init__(self, problem: str, verb: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.verb = verb


def _usage(verb: str, problem: str) -> UsageProblem:
    return UsageProblem(problem, verb)


def _int(
    verb: str, key: str, value: str, *, minimum: int | None = 0, maximum: int = cmd.MAX_NUMBER
) -> int:
    least = -cmd.MAX_NUMBER if minimum is None else minimum
    problem = number_problem(key, value, least, maximum)
    if problem is not None:
        raise _usage(verb, problem)
    return int(value)


def read_amount(verb: str, key: str, value: str) -> cmd.Amount:
    number = _int(verb, key, value, minimum=None)
    relative = value.startswith(("+", "-"))
    if not relative and number < 0:
        raise _usage(verb, f"{key} cannot be negative.")
    return cmd.Amount(number, relative)


def _name(verb: str, name: str) -> str:
    name = name.strip()
    if not name:
        raise _usage(verb, "A name cannot be empty.")
    if len(name) > cmd.MAX_NAME_LENGTH:
        raise _usage(verb, f"'{_short(name)}' is longer than {cmd.MAX_NAME_LENGTH} characters.")
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
    return _bounded(verb, what, text, MAX_WORD)


def split_pairs(words: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    plain: list[str] = []
    pairs: list[tuple[str, str]] = []
    for word in words:
        found = _KEY.match(word)
        if found is not None:
            key = found.group(1)
            if len(key) > MAX_WORD:
                raise CommandError(
                    f"'{_short(key)}=' is {len(key)} characters long; "
                    f"a key may be up to {MAX_WORD}."
                )
            pairs.append((key, found.group(2)))
        else:
            plain.append(word)
    return plain, pairs


def read_pc(words: list[str], text: str) -> cmd.Command:
    if not words:
        raise _usage("pc", "Name a party member.")
    if words[0].lower() == "add":
        plain, pairs = split_pairs(words[1:])
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
        return cmd.AddMember(name=name, hp=start_hp, max_hp=top, abilities=abilities)
    if words[0].lower() == "remove":
        if len(words) != 2:
            raise _usage("pc", "pc remove takes one name.")
        return cmd.RemoveMember(name=_name("pc", words[1]))
    plain, pairs = split_pairs(words)
    if not plain:
        raise _usage("pc", "Name a party member before what changes, e.g. pc Ash hp=-2.")
    name = _name("pc", plain[0])
    gain: list[str] = []
    lose: list[str] = []
    durations: list[tuple[str, str]] = []
    changes, rest = _resource_changes("pc", plain[1:])
    for word in rest:
        if word.startswith("+") and len(word) > 1:
            condition, _, lasts = word[1:].partition(":")
            if not condition:
                raise _usage("pc", "Name the condition before its duration, e.g. +poisoned:6.")
            gain.append(_bounded("pc", "a condition", condition, cmd.MAX_NAME_LENGTH))
            if lasts or word.endswith(":"):
                durations.append((condition, _duration(condition, lasts)))
        elif word.startswith("-") and len(word) > 1:
            lose.append(_bounded("pc", "a condition", word[1:], cmd.MAX_NAME_LENGTH))
        else:
            raise _usage(
                "pc", f"'{_short(word)}' is not a change; write hp=N, +CONDITION or -CONDITION."
            )
    values = dict(pairs)
    hp = read_amount("pc", "hp", values.pop("hp")) if "hp" in values else None
    max_hp = _int("pc", "max", values.pop("max"), minimum=1) if "max" in values else None
    fatigue = read_amount("pc", "fatigue", values.pop("fatigue")) if "fatigue" in values else None
    # A NAME=N the procedure knows as a resource is one (rations=3, rations=+2): decide
    # tells them from abilities, which the words alone cannot.
    resources = [(key.lower(), read_amount("pc", key, value)) for key, value in values.items()]
    abilities = tuple(
        sorted((key.upper(), _int("pc", key, value, minimum=-99)) for key, value in values.items())
    )
    if (
        not changes
        and hp is None
        and max_hp is None
        and fatigue is None
        and not abilities
        and not gain
        and not lose
    ):
        raise _usage("pc", f"Say what changes for {name}, e.g. pc {name} hp=-2.")
    return cmd.EditMember(
        name=name,
        hp=hp,
        max_hp=max_hp,
        abilities=abilities,
        fatigue=fatigue,
        gain=tuple(gain),
        lose=tuple(lose),
        durations=tuple(durations),
        resources=(*changes, *resources),
    )


def _duration(condition: str, text: str) -> str:
    """How long a condition given with ``+NAME:N`` or ``+NAME:rest`` lasts: "N" or "rest"."""
    if text.casefold() == "rest":
        return "rest"
    if text.isdigit() and 1 <= int(text) <= MAX_CONDITION_TURNS:
        return str(int(text))
    raise _usage(
        "pc",
        f"'+{_short(condition)}:{_short(text)}' is not a duration; write "
        f"+{_short(condition)}:N for N turns (1 to {MAX_CONDITION_TURNS}) or "
        f"+{_short(condition)}:rest until the next rest.",
    )


#: The most turns the game master can give a condition from the command line.
MAX_CONDITION_TURNS = 9999


_SIGNED = re.compile(r"^[+-][0-9]+$")


def _resource_changes(
    verb: str, words: list[str]
) -> tuple[list[tuple[str, cmd.Amount]], list[str]]:
    """``+2 rations`` and ``-1 oil`` among the words, and the words left over."""
    changes: list[tuple[str, cmd.Amount]] = []
    rest: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if _SIGNED.match(word):
            if index + 1 >= len(words) or words[index + 1].startswith(("+", "-")):
                raise _usage(verb, f"Say what {word} counts, e.g. {word} rations.")
            amount = _int(verb, "a change", word, minimum=None)
            resource = _word(verb, "a resource", words[index + 1]).lower()
            changes.append((resource, cmd.Amount(amount, True)))
            index += 2
            continue
        rest.append(word)
        index += 1
    return changes, rest


def read_party(words: list[str], text: str) -> cmd.Command:
    if words and words[0].lower() == "order":
        return _marching_order(words[1:])
    plain, pairs = split_pairs(words)
    changes, rest = _resource_changes("party", plain)
    if rest:
        raise _usage(
            "party", f"'{_short(rest[0])}' is not a change; write +N RESOURCE or RESOURCE=N."
        )
    changes += [(key.lower(), read_amount("party", key, value)) for key, value in pairs]
    if not changes:
        raise _usage("party", "Say what changes, e.g. party +5 rations.")
    return cmd.EditParty(resources=tuple(changes))


def _marching_order(words: list[str]) -> cmd.Command:
    """``party order Ash Bo Cy``: the names, front first."""
    if not words:
        raise _usage("party", "Name the members front first, e.g. party order Ash Bo.")
    names = [_name("party", word) for word in words]
    twice = next((n for n in names if [m.casefold() for m in names].count(n.casefold()) > 1), None)
    if twice is not None:
        raise _usage("party", f"{twice} is named twice; name each member once.")
    return cmd.SetMarchingOrder(names=tuple(names))


def read_light(words: list[str], text: str) -> cmd.Command:
    if not words:
        raise _usage("light", "Say what to do with a light.")
    sub, rest = words[0].lower(), words[1:]
    plain, pairs = split_pairs(rest)
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
        typed = _burn(pairs)
        no_more("light", {key: value for key, value in values.items() if key.lower() != "burn"})
        kind = _word("light", "a light kind", plain[0]).lower()
        return cmd.AddLight(kind=kind, carrier=carrier, count=count, lit=lit, values=typed)
    if sub == "realtime" and len(plain) == 2:
        no_more("light", values)
        _word("light", "a light id or kind", plain[0])
        if plain[1].lower() == "off":
            return cmd.SetRealTime(target=plain[0], seconds=None)
        return cmd.SetRealTime(target=plain[0], seconds=_real_seconds("light", plain[1]))
    if len(plain) != 1 and sub != "give":
        raise _usage("light", f"light {sub} takes one light id or kind.")
    if plain:
        _word("light", "a light id or kind", plain[0])
    if sub == "on":
        typed = _burn(pairs)
        no_more("light", {key: value for key, value in values.items() if key.lower() != "burn"})
        return cmd.LightOn(target=plain[0], carrier=carrier, values=typed)
    if sub == "off":
        no_more("light", values)
        return cmd.LightOff(target=plain[0])
    if sub == "give":
        if len(plain) != 2:
            raise _usage("light", "light give takes a light id and a name (or nobody).")
        to = None if plain[1].lower() in ("nobody", "none", "-") else _name("light", plain[1])
        return cmd.HandLight(target=plain[0], carrier=to)
    if sub == "set":
        turns = _int("light", "turns", values.pop("turns")) if "turns" in values else None
        minutes = _int("light", "minutes", values.pop("minutes")) if "minutes" in values else None
        die = _usage_die(values.pop("die")) if "die" in values else None
        if [turns, minutes, die].count(None) != 2:
            raise _usage("light", "Give one of turns=N, minutes=N or die=dN (a usage die).")
        no_more("light", values)
        return cmd.SetLight(target=plain[0], minutes=minutes, turns=turns, die=die)
    if sub == "refuel":
        no_more("light", values)
        return cmd.RefuelLight(target=plain[0])
    if sub == "realtime":
        raise _usage("light", "light realtime takes a light id and a time (60m, 1h30m) or off.")
    raise _usage("light", f"'{_short(sub)}' is not something to do with a light.")


def _burn(pairs: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The dice typed for a light whose time is rolled when lit (``burn=N``), in order."""
    return read_values("light", [(key, value) for key, value in pairs if key.lower() == "burn"])


#: The sizes a usage die can have, largest first (it steps down d20 → d12 → ... → d4).
USAGE_DICE = (20, 12, 10, 8, 6, 4)


def _usage_die(value: str) -> int:
    """The size of a usage die typed as dN (d6) or N (6)."""
    size = value.lower().removeprefix("d")
    if not size.isdigit() or int(size) not in USAGE_DICE:
        sizes = ", ".join(f"d{n}" for n in reversed(USAGE_DICE))
        raise _usage("light", f"die={_short(value)} is not a usage die; give one of {sizes}.")
    return int(size)


def no_more(verb: str, values: dict[str, str]) -> None:
    if values:
        key = next(iter(values))
        raise _usage(verb, f"'{_short(key)}=' does not belong here.")


def read_values(verb: str, pairs: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    for key, value in pairs:
        if not value:
            raise _usage(verb, f"{key}= needs a value.")
        _bounded(verb, f"the value of {key}=", value, MAX_PURPOSE)
    return tuple(pairs)


def read_turn(words: list[str], text: str) -> cmd.Command:
    plain, pairs = split_pairs(words)
    if len(plain) > 1:
        raise _usage("turn", f"A turn takes one action, not '{_short(' '.join(plain))}'.")
    action = _word("turn", "an action", plain[0]).lower() if plain else None
    return cmd.TakeTurn(action=action, values=read_values("turn", pairs))


def read_do(words: list[str], text: str) -> cmd.Command:
    plain, pairs = split_pairs(words)
    if len(plain) != 1:
        raise _usage("do", "Name one activity.")
    activity = _word("do", "an activity", plain[0]).lower()
    return cmd.DoActivity(activity=activity, values=read_values("do", pairs))


def read_roll(words: list[str], text: str) -> cmd.Command:
    plain, pairs = split_pairs(words)
    if not plain:
        raise _usage("roll", "Give the dice to roll, e.g. roll 2d6 reaction.")
    values = dict(pairs)
    value = values.pop("result", None)
    no_more("roll", values)
    purpose = _bounded("roll", "what a roll is for", " ".join(plain[1:]), MAX_PURPOSE)
    return cmd.RollDice(expression=plain[0], purpose=purpose, value=value)


def read_note(words: list[str], text: str) -> cmd.Command:
    body = text.strip()[len("note") :].strip()
    if not body:
        raise _usage("note", "A note needs some text.")
    return cmd.Note(note=_bounded("note", "a note", body, MAX_NOTE))


def read_end(words: list[str], text: str) -> cmd.Command:
    body = text.strip()[len("end") :].strip()
    return cmd.EndExpedition(words=_bounded("end", "the words", body, MAX_NOTE))


def read_bare(verb: str, cls: type[cmd.Command]) -> Reader:
    def parse_bare(words: list[str], text: str) -> cmd.Command:
        if words:
            raise _usage(verb, f"{verb} takes nothing more.")
        return cls()

    return parse_bare


def read_session(words: list[str], text: str) -> cmd.Command:
    if len(words) != 1 or words[0].lower() not in ("start", "end"):
        raise _usage("session", "Say session start or session end.")
    return cmd.Session(start=words[0].lower() == "start")


def read_time(words: list[str], text: str) -> cmd.Command:
    if not words:
        raise _usage("time", "Say time set HH:MM or time roll N.")
    sub = words[0].lower()
    if sub == "set" and len(words) == 2:
        found = read_clock(words[1])
        if found is None:
            raise _usage("time", f"'{_short(words[1])}' is not a time of day; write HH:MM.")
        return cmd.SetTime(hour=found[0], minute=found[1])
    if sub == "roll":
        plain, pairs = split_pairs(words[1:])
        values = dict(pairs)
        value = values.pop("time", None)
        no_more("time", values)
        count = None
        if plain:
            count = _int("time", "N", plain[0], minimum=1)
            if count > 4:
                raise _usage("time", "Roll 1 to 4 time dice.")
        return cmd.RollTime(count=count, value=value)
    raise _usage("time", "Say time set HH:MM or time roll N.")


def read_encounter(words: list[str], text: str) -> cmd.Command:
    plain, pairs = split_pairs(words)
    if plain:
        raise _usage("encounter", f"'{_short(plain[0])}' needs a key: creature= or distance=.")
    values = dict(pairs)
    creature = values.pop("creature", None)
    distance = values.pop("distance", None)
    no_more("encounter", values)
    if not creature and not distance:
        raise _usage(
            "encounter", "Say what it is (creature=NAME), how far (distance=TEXT), or both."
        )
    said = (
        None if given is None else _bounded("encounter", what, given.strip(), MAX_PURPOSE)
        for given, what in ((creature, "a creature"), (distance, "a distance"))
    )
    return cmd.DescribeEncounter(creature=next(said), distance=next(said))


def read_show(verb: str) -> Reader:
    def parse_show(words: list[str], text: str) -> cmd.Command:
        if len(words) != 1 or words[0].lower() not in cmd.PLAYERS_SHOW:
            raise _usage("reveal", f"Say {verb} sign, {verb} encounter or {verb} hp.")
        return cmd.ShowPlayers(what=words[0].lower(), shown=verb == "reveal")

    return parse_show


def read_counter(words: list[str], text: str) -> cmd.Command:
    if len(words) != 3 or words[0].lower() != "set":
        raise _usage("counter", "Say counter set COUNTER VALUE, e.g. counter set alarm 3.")
    counter = _word("counter", "a counter", words[1]).lower()
    return cmd.SetCounter(counter=counter, value=_word("counter", "a value", words[2]))


def read_enter(words: list[str], text: str) -> cmd.Command:
    if len(words) != 1:
        raise _usage("enter", "Name one turn type.")
    return cmd.EnterTurnType(turn_type=_word("enter", "a turn type", words[0]).lower())


def _real_seconds(verb: str, text: str, *, least: int = 1) -> int:
    seconds = read_duration(text)
    if seconds is None:
        raise _usage(verb, f"'{_short(text)}' is not a span of time; write 60m, 1h30m or 90s.")
    if not least <= seconds <= cmd.MAX_REAL_SECONDS:
        raise _usage(verb, f"Give {least} second{'s' if least != 1 else ''} to 24 hours.")
    return seconds


def read_realtime(words: list[str], text: str) -> cmd.Command:
    sub = words[0].lower() if words else ""
    rest = words[1:]
    if sub == "resume" and not rest:
        return cmd.RealTime(verb="resume")
    if sub == "pause":
        seconds = 0
        if rest and read_duration(rest[0]) is not None:
            seconds = _real_seconds("realtime", rest[0], least=0)
            rest = rest[1:]
        reason = _bounded("realtime", "why the clock pauses", " ".join(rest), MAX_PURPOSE)
        return cmd.RealTime(verb="pause", seconds=seconds, reason=reason)
    if sub == "pass" and rest:
        ids = tuple(_word("realtime", "a light id", word) for word in rest[1:])
        return cmd.RealTime(verb="pass", seconds=_real_seconds("realtime", rest[0]), ids=ids)
    raise _usage("realtime", "Say realtime pause, realtime resume or realtime pass DURATION.")


def read_tables(words: list[str], text: str) -> cmd.Command:
    if len(words) != 2 or words[0].lower() != "add":
        raise _usage("tables", "Say tables add FILE (quote a path with spaces).")
    path = _bounded("tables", "a file's path", words[1], MAX_PURPOSE)
    if unseen_in(path) is not None:
        raise _usage("tables", "A file's path cannot hold control characters.")
    return cmd.AddTables(path=path)


def read_area(words: list[str], text: str) -> cmd.Command:
    if len(words) != 1:
        raise _usage("area", "Name one area of the adventure's tables, e.g. area level-2.")
    return cmd.EnterArea(area=_word("area", "an area", words[0]).lower())


_SPAN = re.compile(r"^([0-9]+)\s*([a-z]+)$")
#: The words a timer's unit may be typed as, beside its letter.
_UNIT_WORDS = {
    **cmd.TIMER_UNITS,
    **{word: unit for unit in ("turns", "minutes", "hours") for word in (unit, unit[:-1])},
    "min": "minutes",
}
_REAL = "real minutes"


def read_timer(words: list[str], text: str) -> cmd.Command:
    sub = words[0].lower() if words else ""
    if sub not in ("add", "set", "cancel") or len(words) < 2:
        raise _usage("timer", "Say timer add NAME 6t, timer set NAME 3t or timer cancel NAME.")
    name = _name("timer", words[1])
    rest = words[2:]
    if sub == "cancel":
        if rest:
            raise _usage("timer", "timer cancel takes a timer's name only.")
        return cmd.SetTimer(verb="cancel", name=name)
    if len(rest) > 1:
        raise _usage("timer", f"timer {sub} takes a name and one length, e.g. 6t or 30m.")
    if not rest:
        if sub == "set":
            raise _usage("timer", f"Say how long: timer set {name} 3t (turns), 30m or 2h.")
        return cmd.SetTimer(verb="add", name=name)
    amount, unit = _span(rest[0])
    return cmd.SetTimer(verb=sub, name=name, amount=amount, unit=unit)


def _span(word: str) -> tuple[int, str]:
    """A timer's length: 6t (turns), 30m (minutes), 2h (hours)."""
    found = _SPAN.match(word.strip().lower())
    unit = _UNIT_WORDS.get(found.group(2)) if found else None
    if found is None or unit is None:
        raise _usage(
            "timer",
            f"'{_short(word)}' is not a timer's length; write 6t (turns), 30m (minutes), "
            "2h (hours) or 10rm (real minutes at the table).",
        )
    digits = found.group(1).lstrip("0")
    most = cmd.MAX_REAL_MINUTES if unit == "real" else cmd.MAX_NUMBER
    if not digits or len(digits) > len(str(most)) or int(digits) > most:
        said = _REAL if unit == "real" else unit
        raise _usage("timer", f"A timer runs from 1 to {most} {said}; '{_short(word)}' is not.")
    return int(digits), unit
