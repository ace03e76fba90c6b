"""From typed text to a command, and from a command to the text that stands for it.

``parse`` turns one line of text into a frozen command; it checks the shape only. Words
are split like a shell's, so names with spaces are quoted: ``pc add "Old Tom" hp=5``.
``spoken`` is the other way: the line a command built by the table is logged as, the same
line a game master would type for it. ``with_value`` gives a command one more ``KEY=VALUE``
(a die the game master rolled at the table), checked as the parser checks it.
"""

from __future__ import annotations

import shlex
from functools import cache
from typing import Any

import attrs

from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd
from delvetui.core.commands.grammar import USAGE, VERBS, Form, Verb, forms
from delvetui.core.commands.room_forms import ROOM_NOTE, MarkRoom
from delvetui.errors import CommandError
from delvetui.text import quoted, suggest, unseen_in


def _checked_line(text: str) -> None:
    """Refuse a line too long or holding a control character."""
    if len(text) > cmd.MAX_COMMAND_LENGTH:
        raise CommandError(
            f"The command is {len(text)} characters long; the limit is {cmd.MAX_COMMAND_LENGTH}."
        )
    control = unseen_in(text)
    if control is not None:
        raise CommandError(
            f"The command contains a control character ({control}, such as a terminal's escape "
            "sequence, a line break or a right-to-left override); type plain text."
        )


def _with_usage(error: read.UsageProblem) -> CommandError:
    return CommandError(f"{error.problem} Usage: {USAGE[error.verb]}")


def parse(text: str, *, usage: bool = True) -> cmd.Command:
    """Parse one line of the command language; raise CommandError with a clear sentence.

    The sentence ends with the verb's usage line, unless ``usage`` is False (a form that
    shows the problem beside the field it is about).
    """
    try:
        return _parse(text)
    except read.UsageProblem as error:
        raise (_with_usage(error) if usage else CommandError(error.problem)) from None


def _parse(text: str) -> cmd.Command:
    _checked_line(text)
    first = text.strip().split(maxsplit=1)
    if first and first[0].lower() == "note":
        # A note is free text: apostrophes and quotes are the game master's, not syntax.
        return attrs.evolve(VERBS["note"].read([], text), text=text.strip())
    room_note = ROOM_NOTE.match(text)
    if room_note is not None:
        # So is a note on a room (``room 12 note Ash's map``).
        words = [room_note.group(1), "note"]
        return attrs.evolve(VERBS["room"].read(words, text), text=text.strip())
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise CommandError(f"Cannot read the command: {error}; close the quotes.") from None
    if not words:
        raise CommandError("The command is empty; try 'turn', 'note TEXT' or 'help'.")
    verb = VERBS.get(words[0].lower())
    if verb is None:
        raise CommandError(
            f"'{quoted(words[0])}' is not a command; use one of: {', '.join(USAGE)}."
            + suggest(words[0].lower(), USAGE)
        )
    command = verb.read(words[1:], text)
    return attrs.evolve(command, text=text.strip())


def _words(command: cmd.Command) -> list[str]:
    """The words a game master would type for the command (before any quoting).

    Written by the form that says it (``Form.write``).
    """
    verb, form = _form_of(command)
    return [verb.name, *form.write(command)]


def _form_of(command: cmd.Command) -> tuple[Verb, Form]:
    """The verb and form that say the command: the first of its class's forms whose
    constants and keys fit it."""
    said = _forms_by_class().get(type(command), [])
    fitting = [(verb, form) for verb, form in said if form.fits(command)]
    for verb, form in (fitting or said)[:1]:
        return verb, form
    raise CommandError(f"{type(command).__name__} has no words in the command language.")


@cache
def _forms_by_class() -> dict[type[cmd.Command], list[tuple[Verb, Form]]]:
    found: dict[type[cmd.Command], list[tuple[Verb, Form]]] = {}
    for verb, form in forms():
        found.setdefault(form.command, []).append((verb, form))
    return found


def spoken(command: cmd.Command) -> str:
    """The line the command stands for: its text when it was typed, else the canonical line."""
    if command.text:
        return command.text
    words = _words(command)
    if isinstance(command, cmd.Note | cmd.EndExpedition) or (
        isinstance(command, MarkRoom) and command.note
    ):
        return " ".join(words)  # a note (and an end's words) is kept as typed, never quoted
    return shlex.join(words)


def said(command: cmd.Command) -> cmd.Command:
    """The command with its text set to the line it stands for (as the log keeps it)."""
    return attrs.evolve(command, text=spoken(command))


def amount(key: str, text: str) -> cmd.Amount:
    """A number typed as a value (5) or a change (+2, -3), checked as ``pc`` checks it."""
    try:
        return read.read_amount("pc", key, text)
    except read.UsageProblem as error:
        raise CommandError(error.problem) from None


def with_value(command: cmd.Command, key: str, value: str) -> cmd.Command:
    """The command with ``KEY=VALUE`` added, as if typed at the end of its line.

    Only a value its form lets the table type (``Word.at_table``: a die rolled at the
    table, a result the players give) is taken, checked as the parser checks a typed one:
    a key the command takes, a value in bounds, a line within the limits.
    """
    text = f"{spoken(command)} {shlex.quote(f'{key}={value}')}"
    _checked_line(text)
    verb, form = _form_of(command)
    word = form.at_table(key)
    try:
        _, pairs = read.split_pairs([f"{key}={value}"])
        if word is not None and word.collects:
            field = word.fields[0]
            values = getattr(command, field) + read.read_values(verb.name, pairs)
            return attrs.evolve(command, **{field: values}, text=text)
        if word is not None:
            field = word.fields[word.keys.index(key)]
            return attrs.evolve(command, **{field: value}, text=text)
        read.no_more(verb.name, dict(pairs))
    except read.UsageProblem as error:
        raise _with_usage(error) from None
    raise CommandError(f"'{quoted(key)}=' does not belong here.")


def without_keys(command: cmd.Command, keys: set[str]) -> cmd.Command:
    """The command with the values typed at the table under these keys (casefolded) taken
    out again. Its text becomes the canonical line of what is left."""
    _, form = _form_of(command)
    changes: dict[str, Any] = {"text": ""}
    for field in form.table_fields():
        kept = tuple((k, v) for k, v in getattr(command, field) if k.casefold() not in keys)
        changes[field] = kept
    for word in form.words:
        if word.at_table and word.is_key and not word.collects:
            for key, field in zip(word.keys, word.fields, strict=True):
                if key in keys:
                    changes[field] = None
    return said(attrs.evolve(command, **changes))


def table_values(command: cmd.Command) -> tuple[tuple[str, str], ...]:
    """The ``KEY=VALUE`` pairs typed at the table that the command holds (its dice and the
    players' results), which ``decide`` reads as the command's inputs."""
    _, form = _form_of(command)
    return tuple(pair for field in form.table_fields() for pair in getattr(command, field))
