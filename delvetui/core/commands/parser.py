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

import attrs

from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd
from delvetui.core.commands.grammar import USAGE, VERBS, Form, Verb, forms
from delvetui.core.commands.light_forms import AddLight, LightOn
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

    Written by the form that says it (``Form.write``): the first of the command's forms
    whose constants and keys fit it.
    """
    said = _forms_by_class().get(type(command), [])
    fitting = [(verb, form) for verb, form in said if form.fits(command)]
    for verb, form in (fitting or said)[:1]:
        return [verb.name, *form.write(command)]
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
    if isinstance(command, cmd.Note | cmd.EndExpedition):
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

    Checked as the parser checks a typed one: a key the command takes, a value in bounds,
    a line within the limits.
    """
    text = f"{spoken(command)} {shlex.quote(f'{key}={value}')}"
    _checked_line(text)
    try:
        _, pairs = read.split_pairs([f"{key}={value}"])
        match command:
            case cmd.TakeTurn() | cmd.DoActivity():
                verb = "turn" if isinstance(command, cmd.TakeTurn) else "do"
                values = command.values + read.read_values(verb, pairs)
                return attrs.evolve(command, values=values, text=text)
            case LightOn() | AddLight() if key.lower() == "burn":
                values = command.values + read.read_values("light", pairs)
                return attrs.evolve(command, values=values, text=text)
            case cmd.RollDice() if key == "result":
                return attrs.evolve(command, value=value, text=text)
            case cmd.RollTime() if key == "time":
                return attrs.evolve(command, value=value, text=text)
        verb = text.split(maxsplit=1)[0].lower()
        read.no_more(verb if verb in USAGE else "turn", dict(pairs))
    except read.UsageProblem as error:
        raise _with_usage(error) from None
    raise CommandError(f"'{quoted(key)}=' does not belong here.")


def without_keys(command: cmd.Command, keys: set[str]) -> cmd.Command:
    """The command with the typed values of these keys (casefolded) taken out again.

    Its text becomes the canonical line of what is left.
    """
    match command:
        case cmd.TakeTurn() | cmd.DoActivity():
            values = tuple((k, v) for k, v in command.values if k.casefold() not in keys)
            return said(attrs.evolve(command, values=values, text=""))
        case cmd.RollDice() if "result" in keys:
            return said(attrs.evolve(command, value=None, text=""))
        case cmd.RollTime() if "time" in keys:
            return said(attrs.evolve(command, value=None, text=""))
    return said(attrs.evolve(command, text=""))
