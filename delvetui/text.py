"""The text rules: how supplied text is shown, checked, bounded, suggested and wrapped.

Everything a file or a person supplied (an expedition's name, a member's name, a light's
id, a counter's name, a note, a name quoted in an error) may hold characters that act on a
terminal instead of showing: an ESC that starts ``ESC [2J`` (clear the screen) or an OSC
title or clipboard write, a C1 control such as U+009B (a one-character CSI), and the
bidirectional overrides, isolates and line separators that make a text display as another.
``visible`` shows each of them as a harmless symbol, and every output goes through it: the
command line's standard output and standard error, ``status --json`` (through ``dumps``),
the table and the exports. Commands refuse them at the door (``unseen_in``).

The visible form, one character for one:

- a C0 control becomes its Unicode control picture: ESC ``␛``, NUL ``␀``, a line feed
  ``␊``, a tab ``␉`` (U+2400 + its code);
- DEL becomes ``␡``;
- a C1 control becomes ``\\x9b`` (its code in hex), and a bidirectional control, a line
  or paragraph separator or a lone surrogate ``\\u202e``.

So ``ESC [2J`` reads ``␛[2J`` and never clears a screen. Nothing here imports Textual or
Rich, so the core may use it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

#: C0 and C1 controls, DEL, line and paragraph separators, the bidirectional embeddings,
#: overrides and isolates (U+202A-U+202E, U+2066-U+2069), and lone surrogates (what Python
#: makes of a file name's undecodable bytes, which no terminal can be sent).
UNSEEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

# What JSON leaves raw of UNSEEN (it escapes C0 itself). In a JSON document these can only
# be inside strings, where a \u escape means the same character.
_JSON_RAW = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

_WHOLE = re.compile(r"[+-]?[0-9]+")
_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])")

# The longest texts a command may carry. A note is a line or two of the game master's
# words, a name is what fits a roster row; docs/commands.md lists them.
#: Characters in a whole command, so a runaway paste is refused at once.
MAX_COMMAND = 2000
#: Characters in a note (``note TEXT``): all of a command but its verb.
MAX_NOTE = MAX_COMMAND - len("note ")
#: Characters in a party member's name, a carrier's name or a condition.
MAX_NAME = 40
#: Characters in what a roll is for (``roll 2d6 reaction``).
MAX_PURPOSE = 200
#: Characters in a word the procedure must know (an action, a light kind, a light id).
MAX_WORD = 60
#: Characters in an expedition's or a campaign's name (a file name is made of it).
MAX_EXPEDITION_NAME = 80
#: The largest number a command takes: hit points, a count, minutes, a timer's length.
MAX_TYPED = 999_999
#: The longest span of real time a command takes or the table records at once (a day).
MAX_REAL_SECONDS = 24 * 3600


def _show(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str, *, lines: bool = False) -> str:
    """The text with every control character shown as a symbol instead of acting on a screen.

    ``\\x1b[31m`` reads ``␛[31m`` and never turns red. With ``lines`` the line feeds of a
    text of several lines are kept (the output's own line breaks); every other control is
    still made visible.
    """
    if lines:
        return "\n".join(UNSEEN.sub(_show, line) for line in text.split("\n"))
    return UNSEEN.sub(_show, text)


def unseen_in(text: str, allow: str = "") -> str | None:
    """The first control character in the text (made visible), or None when there is none.

    ``allow`` names characters that are not counted (a procedure's text may hold line feeds
    and tabs).
    """
    for found in UNSEEN.finditer(text):
        if found.group() not in allow:
            return _show(found)
    return None


def unseen_words(char: str) -> str:
    """What one character of ``UNSEEN`` is, in words: 'the control character '␛''; a byte
    that was not UTF-8 (a file name's, kept by Python as a lone surrogate) as that byte."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"the byte 0x{code - 0xDC00:02X}, which is not UTF-8 text"
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate ({visible(char)}), half of a character"
    return f"the control character '{visible(char)}'"


def quoted(text: str, limit: int = 30) -> str:
    """Text to quote in a message: made visible and cut to ``limit`` characters (then …)."""
    shown = text if len(text) <= limit else text[:limit] + "…"
    return visible(shown)


def quote(text: str, limit: int = 40) -> str:
    """Text in quotes for a message ('like this'): made visible, at most ``limit`` characters.

    A longer text is cut and ends in an ellipsis inside the quotes. Every message that
    quotes what a person or a file supplied goes through here (or ``quoted``).
    """
    shown = visible(text)
    if len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return f"'{shown}'"


def dumps(document: Any, *, indent: int | None = 2) -> str:
    """The document as JSON that is exact and safe to print on a terminal.

    ``json.dumps`` escapes C0 controls but leaves C1 controls (U+009B is a CSI to many
    terminals), the bidirectional overrides and the line separators raw; they are written
    as ``\\u`` escapes here, which JSON reads back as the same characters.
    """
    text = json.dumps(document, indent=indent, ensure_ascii=False)
    return json_safe(text)


def json_safe(text: str) -> str:
    """A JSON document's text with the characters JSON leaves raw written as ``\\u`` escapes."""
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def number_problem(key: str, given: str, least: int, most: int) -> str | None:
    """What is wrong with ``key=given`` as a whole number from ``least`` to ``most``, or None.

    The sentence says the real limit: a number too large is a whole number all the same.
    """
    shown = f"{key}={quoted(given)}"
    if not _WHOLE.fullmatch(given):
        return f"{shown} is not a whole number; write digits, e.g. {key}={max(least, 1)}."
    # Compared as text first: int() of a huge string of digits is slow.
    digits = given.lstrip("+-").lstrip("0")
    negative = given.startswith("-")
    if len(digits) > len(str(max(abs(least), abs(most)))) + 1:
        return _out_of_range(shown, least, most, low=negative)
    number = int(given)
    if number > most:
        return _out_of_range(shown, least, most, low=False)
    if number < least:
        return _out_of_range(shown, least, most, low=True)
    return None


def _out_of_range(shown: str, least: int, most: int, *, low: bool) -> str:
    if low:
        if least >= 0:
            return f"{shown} must be {least} or more."
        return f"{shown} is too small; the least is {least}."
    return f"{shown} is too large; the most is {most}."


def clock(text: str) -> tuple[int, int] | None:
    """The hour and minute of a time of day written ``HH:MM`` or ``H:MM``; None if not one."""
    found = _CLOCK.fullmatch(text)
    if found is None:
        return None
    return int(found.group(1)), int(found.group(2))


_DURATION = re.compile(r"(?:([0-9]{1,3})h)?(?:([0-9]{1,5})m)?(?:([0-9]{1,6})s)?")


def duration(text: str) -> int | None:
    """Seconds in a span of real time: ``60m``, ``1h30m``, ``90s``, ``2m30s``, or a bare
    number of minutes (``45``); None when the text is not one."""
    text = text.strip().lower()
    if text.isdigit() and len(text) <= 5:
        return int(text) * 60
    found = _DURATION.fullmatch(text)
    if not text or found is None:
        return None
    hours, minutes, seconds = (int(part or 0) for part in found.groups())
    return hours * 3600 + minutes * 60 + seconds


def countdown(seconds: int) -> str:
    """Seconds left as a countdown: ``42:17``, or ``1:05:09`` from an hour up."""
    seconds = max(0, seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def away(distance: str) -> str:
    """A distance as a sentence says it: "40 ft away", but "near" or "close by" as typed
    (a distance without a number is not so far away)."""
    return f"{distance} away" if any(c.isdigit() for c in distance) else distance


def plural(word: str) -> str:
    """The plural of a unit a procedure names: turns, rounds, watches, days, sorties; in
    a unit of several words, its head noun's ("hours of rest")."""
    head, of, rest = word.partition(" of ")
    if of and head:
        return f"{plural(head)}{of}{rest}"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return f"{word}es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return f"{word[:-1]}ies"
    return f"{word}s"


def minutes_words(minutes: int) -> str:
    """Minutes as a game master says them: '40 min', '1 h 10 min', '2 days 3 h'."""
    if minutes <= 0:
        return "no time"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} h")
    if mins:
        parts.append(f"{mins} min")
    return " ".join(parts)


def time_left(minutes: int, per_turn: int, unit: str, *, short: bool = False) -> str:
    """A light's time left in the unit that says it: turns of an hour or less ('19
    turns', '3 dungeon cycles'), else hours and minutes ('3 h 10 min'; short, '3h10m'),
    since "1 watch" would hide that 19 turns of oil is three hours, not eight."""
    if minutes <= 0 and not short:
        return "no time"
    if per_turn <= 60:
        turns = -(-minutes // per_turn)
        return f"{turns}t" if short else counted(turns, unit)
    if not short:
        return minutes_words(minutes)
    hours, mins = divmod(max(0, minutes), 60)
    return f"{hours}h{mins:02d}m" if hours else f"{mins}m"


def check_label(label: str) -> str:
    """A check's label as the table says it: "(Might | Athletics)" reads "(Might or
    Athletics)", either ability."""
    return label.replace(" | ", " or ")


def a(noun: str) -> str:
    """The noun with its indefinite article, by its sound: "an hour", "a watch", "an oil
    flask", "a usage die"."""
    first = noun.split(" ", 1)[0].lower()
    vowel = first[:1] in set("aeiou") and not first.startswith(("use", "usa", "one", "eu"))
    return f"{'an' if vowel or first in _SILENT_H else 'a'} {noun}"


#: Words that begin with an h that is not said.
_SILENT_H = frozenset({"hour", "hours", "honest", "honour", "honor", "heir"})


def counted(count: int, word: str) -> str:
    """A count and its unit: '1 watch', '3 watches', '0 turns'."""
    return f"{count} {word if count == 1 else plural(word)}"


def suggest(word: str, options: Iterable[str]) -> str:
    """`` Did you mean 'x'?`` for the option closest to a misspelt word, or ''."""
    close = closest(word, options)
    return f" Did you mean '{visible(close)}'?" if close else ""


def closest(word: str, options: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The option a misspelt word most likely meant, or None when none is close enough."""
    import difflib  # only a mistake needs it

    close = difflib.get_close_matches(word, list(options), n=1, cutoff=cutoff)
    return close[0] if close else None


def _one(char: str) -> int:
    return 1


def wrap(text: str, first: int, rest: int, width_of: Callable[[str], int] = _one) -> list[str]:
    """Greedy word wrap in one pass: the first row ``first`` cells wide, the others ``rest``.

    A word longer than a row is cut where the row ends. Every character is measured once
    (``width_of`` gives its cells: 2 for a wide one), so a megabyte without a space takes as
    long as a megabyte of words, where cutting the remainder again and again took minutes.
    """
    first, rest = max(1, first), max(1, rest)
    if len(text) <= first and sum(map(width_of, text)) <= first:
        return [text]
    rows: list[str] = []
    width = first
    row: list[str] = []  # the row so far, in pieces
    used = 0  # its width in cells
    chars = 0  # its length in characters
    for word in text.split(" "):
        # Printable ASCII is one cell a character: no need to measure it.
        plain = word.isascii() and word.isprintable()
        cells = [1] * len(word) if plain else [width_of(char) for char in word]
        size = len(word) if plain else sum(cells)
        gap = 1 if chars else 0
        if used + gap + size <= width:
            row += [" ", word] if gap else [word]
            used += gap + size
            chars += gap + len(word)
            continue
        if chars:
            rows.append("".join(row))
            width = rest
        start = used = 0
        while plain and len(word) - start > width:
            rows.append(word[start : start + width])
            start += width
            width = rest
        for index, cell in enumerate(cells[start:], start):
            if used and used + cell > width:
                rows.append(word[start:index])
                width = rest
                start, used = index, 0
            used += cell
        row, chars = [word[start:]], len(word) - start
    if chars or not rows:
        rows.append("".join(row))
    return rows
