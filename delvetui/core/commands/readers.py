"""The checks every reading of a command's words shares, and the few forms read by hand.

The grammar (``grammar.py``) reads and writes nearly every form from its declaration; its
value types (``kinds.py``) check words with the functions here: a name, a whole number, a
bounded text, a span of time. What is left by hand is what a declaration cannot say, each
form saying why: a member's change and the party's stock (``+2 rations`` is two words
making one value, and a member's line mixes the words of two forms) and a note (free text,
kept as typed). A problem is a ``UsageProblem``: its sentence, to which ``parse`` adds the
verb's usage line. Words are split like a shell's before they get here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from delvetui.core.commands import types as cmd
from delvetui.errors import CommandError
from delvetui.procedure.model import USAGE_DICE
from delvetui.text import (
    MAX_NOTE,
    MAX_PURPOSE,
    MAX_WORD,
    number_problem,
)
from delvetui.text import duration as read_duration
from delvetui.text import quoted as _short

#: A reader: the words after the verb, and the whole line (a note keeps it as typed).
Reader = Callable[[list[str], str], cmd.Command]
#: A writer: the words after the verb that a game master would type for the command.
Writer = Callable[[cmd.Command], list[str]]

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


def whole(
    verb: str, key: str, value: str, *, minimum: int | None = 0, maximum: int = cmd.MAX_NUMBER
) -> int:
    least = -cmd.MAX_NUMBER if minimum is None else minimum
    problem = number_problem(key, value, least, maximum)
    if problem is not None:
        raise _usage(verb, problem)
    return int(value)


def read_amount(verb: str, key: str, value: str) -> cmd.Amount:
    number = whole(verb, key, value, minimum=None)
    relative = value.startswith(("+", "-"))
    if not relative and number < 0:
        raise _usage(verb, f"{key} cannot be negative.")
    return cmd.Amount(number, relative)


def name(verb: str, text: str) -> str:
    name = text.strip()
    if not name:
        raise _usage(verb, "A name cannot be empty.")
    if len(name) > cmd.MAX_NAME_LENGTH:
        raise _usage(verb, f"'{_short(name)}' is longer than {cmd.MAX_NAME_LENGTH} characters.")
    if "=" in name:
        raise _usage(verb, f"'{_short(name)}' looks like KEY=VALUE, not a name.")
    return name


def bounded(verb: str, what: str, text: str, limit: int) -> str:
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
    return bounded(verb, what, text, MAX_WORD)


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
            amount = whole(verb, "a change", word, minimum=None)
            resource = _word(verb, "a resource", words[index + 1]).lower()
            changes.append((resource, cmd.Amount(amount, True)))
            index += 2
            continue
        rest.append(word)
        index += 1
    return changes, rest


def usage_die(value: str) -> int:
    """The size of a usage die typed as dN (d6) or N (6)."""
    size = value.lower().removeprefix("d")
    if not size.isdigit() or int(size) not in USAGE_DICE:
        sizes = ", ".join(f"d{n}" for n in reversed(USAGE_DICE))
        raise _usage("", f"die={_short(value)} is not a usage die; give one of {sizes}.")
    return int(size)


def no_more(verb: str, values: dict[str, str]) -> None:
    if values:
        key = next(iter(values))
        raise _usage(verb, f"'{_short(key)}=' does not belong here.")


def read_values(verb: str, pairs: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    for key, value in pairs:
        if not value:
            raise _usage(verb, f"{key}= needs a value.")
        bounded(verb, f"the value of {key}=", value, MAX_PURPOSE)
    return tuple(pairs)


def read_note(words: list[str], text: str) -> cmd.Command:
    """``note TEXT``: by hand, because a note is free text, kept exactly as typed (its
    apostrophes and quotes are the game master's, not the shell's)."""
    body = text.strip()[len("note") :].strip()
    if not body:
        raise _usage("note", "A note needs some text.")
    return cmd.Note(note=bounded("note", "a note", body, MAX_NOTE))


def read_end(words: list[str], text: str) -> cmd.Command:
    """``end [WORDS]``: by hand, because the words are free text, kept as typed (a note's)."""
    body = text.strip()[len("end") :].strip()
    return cmd.EndExpedition(words=bounded("end", "the words", body, MAX_NOTE))


def real_seconds(verb: str, text: str, *, least: int = 1) -> int:
    seconds = read_duration(text)
    if seconds is None:
        raise _usage(verb, f"'{_short(text)}' is not a span of time; write 60m, 1h30m or 90s.")
    if not least <= seconds <= cmd.MAX_REAL_SECONDS:
        raise _usage(verb, f"Give {least} second{'s' if least != 1 else ''} to 24 hours.")
    return seconds


_SPAN = re.compile(r"^([0-9]+)\s*([a-z]+)$")
#: The words a timer's unit may be typed as, beside its letter.
_UNIT_WORDS = {
    **cmd.TIMER_UNITS,
    **{word: unit for unit in ("turns", "minutes", "hours") for word in (unit, unit[:-1])},
    "min": "minutes",
}
_REAL = "real minutes"


def span(word: str) -> tuple[int, str]:
    """A timer's length: 6t (turns), 30m (minutes), 2h (hours)."""
    found = _SPAN.match(word.strip().lower())
    unit = _UNIT_WORDS.get(found.group(2)) if found else None
    if found is None or unit is None:
        raise _usage(
            "",
            f"'{_short(word)}' is not a timer's length; write 6t (turns), 30m (minutes), "
            "2h (hours) or 10rm (real minutes at the table).",
        )
    digits = found.group(1).lstrip("0")
    most = cmd.MAX_REAL_MINUTES if unit == "real" else cmd.MAX_NUMBER
    if not digits or len(digits) > len(str(most)) or int(digits) > most:
        said = _REAL if unit == "real" else unit
        raise _usage("", f"A timer runs from 1 to {most} {said}; '{_short(word)}' is not.")
    return int(digits), unit


# The forms read by hand -------------------------------------------------------------------


def read_member_change(words: list[str], text: str) -> cmd.Command:
    """``pc NAME hp=-2 +poisoned:6 +2 rations``: by hand, because one line mixes the words
    of two forms (a member's state, a member's resources), ``+2 rations`` is two words making
    one value, and ``rations=3`` is a resource or an ability only the procedure can tell."""
    plain, pairs = split_pairs(words)
    if not plain:
        if not words:
            raise _usage("pc", "Name a party member.")
        raise _usage("pc", "Name a party member before what changes, e.g. pc Ash hp=-2.")
    name_ = name("pc", plain[0])
    gain: list[str] = []
    lose: list[str] = []
    durations: list[tuple[str, str]] = []
    changes, rest = _resource_changes("pc", plain[1:])
    for word in rest:
        if word.startswith("+") and len(word) > 1:
            condition, _, lasts = word[1:].partition(":")
            if not condition:
                raise _usage("pc", "Name the condition before its duration, e.g. +poisoned:6.")
            gain.append(bounded("pc", "a condition", condition, cmd.MAX_NAME_LENGTH))
            if lasts or word.endswith(":"):
                durations.append((condition, _duration(condition, lasts)))
        elif word.startswith("-") and len(word) > 1:
            lose.append(bounded("pc", "a condition", word[1:], cmd.MAX_NAME_LENGTH))
        else:
            raise _usage(
                "pc", f"'{_short(word)}' is not a change; write hp=N, +CONDITION or -CONDITION."
            )
    values = dict(pairs)
    hp = read_amount("pc", "hp", values.pop("hp")) if "hp" in values else None
    max_hp = whole("pc", "max", values.pop("max"), minimum=1) if "max" in values else None
    fatigue = read_amount("pc", "fatigue", values.pop("fatigue")) if "fatigue" in values else None
    # A NAME=N the procedure knows as a resource is one (rations=3, rations=+2): decide
    # tells them from abilities, which the words alone cannot.
    resources = [(key.lower(), read_amount("pc", key, value)) for key, value in values.items()]
    abilities = tuple(
        sorted((key.upper(), whole("pc", key, value, minimum=-99)) for key, value in values.items())
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
        raise _usage("pc", f"Say what changes for {name_}, e.g. pc {name_} hp=-2.")
    return cmd.EditMember(
        name=name_,
        hp=hp,
        max_hp=max_hp,
        abilities=abilities,
        fatigue=fatigue,
        gain=tuple(gain),
        lose=tuple(lose),
        durations=tuple(durations),
        resources=(*changes, *resources),
    )


def member_change_words(command: cmd.Command) -> list[str]:
    """The words of a member's change, in the order ``read_member_change`` reads them."""
    assert isinstance(command, cmd.EditMember)
    durations = dict(command.durations)
    return [
        command.name,
        *_pair("hp", _amount(command.hp)),
        *_pair("max", command.max_hp),
        *_pair("fatigue", _amount(command.fatigue)),
        *(f"+{c}:{durations[c]}" if durations.get(c) else f"+{c}" for c in command.gain),
        *(f"-{c}" for c in command.lose),
        *(f"{k.lower()}={v}" for k, v in command.abilities),
        *_resource_words(command.resources, {k for k, _ in command.abilities}),
    ]


def read_party_change(words: list[str], text: str) -> cmd.Command:
    """``party +5 rations oil=3``: by hand, because ``+5 rations`` is two words making one
    value, and a change and a value of the same stock are written two ways."""
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


def party_change_words(command: cmd.Command) -> list[str]:
    """The words of a change to the party's stock."""
    assert isinstance(command, cmd.EditParty)
    return _resource_words(command.resources, set())


def note_words(command: cmd.Command) -> list[str]:
    """A note's text, one word: a note is kept as typed (``spoken`` never quotes it)."""
    assert isinstance(command, cmd.Note)
    return [command.note]


def end_words(command: cmd.Command) -> list[str]:
    """The words an expedition was ended with, one word (kept as typed), or none."""
    assert isinstance(command, cmd.EndExpedition)
    return [command.words] if command.words else []


def _pair(key: str, value: str | int | None) -> list[str]:
    return [] if value is None else [f"{key}={value}"]


def _amount(amount: cmd.Amount | None) -> str | None:
    if amount is None:
        return None
    return f"{amount.value:+d}" if amount.relative else str(amount.value)


def _resource_words(
    changes: tuple[tuple[str, cmd.Amount], ...], spoken_already: set[str]
) -> list[str]:
    """``+2 rations`` for a change, ``rations=3`` for a value (unless already an ability)."""
    words: list[str] = []
    for key, amount in changes:
        if amount.relative:
            words.extend((f"{amount.value:+d}", key))
        elif key.upper() not in spoken_already:
            words.append(f"{key}={amount.value}")
    return words


# The names a reader written the old way (one ``Verb.reader`` for all its forms) checks
# its words with; kept while such verbs move to declared forms.
_int, _name, _bounded = whole, name, bounded
