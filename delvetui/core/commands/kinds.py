"""How each kind of value a command's word holds is read from text and written back.

A ``Type`` reads one word (``read``), several (``gather``, for a word that may repeat), or
the ``KEY=VALUE`` pairs a family of keys collects (``collect``), and writes its value back
as the words a game master would type (``write``). Problems are ``UsageProblem`` sentences;
the verb's usage line is added by ``parse``. ``KIND_TYPES`` gives each kind of word of the
grammar its usual type; a word of the grammar names another when it needs other limits.
"""

from __future__ import annotations

from typing import Any

import attrs

from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd
from delvetui.text import MAX_COMMAND, MAX_PURPOSE, MAX_WORD, unseen_in
from delvetui.text import clock as read_clock
from delvetui.text import duration as read_duration
from delvetui.text import quoted as _short


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


def _word(what: str) -> Type:
    return Type(what, lower=True)


#: The usual type of each kind of word (see ``forms.Kind``).
KIND_TYPES: dict[str, Type] = {
    "member": Name(),
    "new-name": Name(),
    "carrier": Carrier(),
    "timer": Name(),
    "new-timer": Name(),
    "light": Type("a light id or kind"),
    "unlit": Type("a light id or kind"),
    "lit": Type("a light id or kind"),
    "light-kind": _word("a light kind"),
    "action": _word("an action"),
    "activity": _word("an activity"),
    "turn-type": _word("a turn type"),
    "counter": _word("a counter"),
    "counter-value": Type("a value"),
    "area": _word("an area"),
    "file": Path(),
    "shown": Choice(choices=cmd.PLAYERS_SHOW),
    "text": Text(),
    "number": Number(),
    "amount": Amount(),
    "clock": Clock(),
    "duration": Duration(),
    "span": Span(),
    "faces": Type(limit=MAX_COMMAND),
    "usage-die": UsageDie(),
    "dice": Type(limit=MAX_COMMAND),
    "ability": Abilities(),
    "roll": Typed(),
    "input": Typed(),
}
