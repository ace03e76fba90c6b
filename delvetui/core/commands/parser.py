"""From typed text to a command, and from a command to the text that stands for it.

``parse`` turns one line of text into a frozen command; it checks the shape only. Words
are split like a shell's, so names with spaces are quoted: ``pc add "Old Tom" hp=5``.
``spoken`` is the other way: the line a command built by the table is logged as, the same
line a game master would type for it. ``with_value`` gives a command one more ``KEY=VALUE``
(a die the game master rolled at the table), checked as the parser checks it.
"""

from __future__ import annotations

import shlex

import attrs

from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd
from delvetui.core.commands.grammar import USAGE, VERBS
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
        return attrs.evolve(read.read_note([], text), text=text.strip())
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
    command = verb.reader(words[1:], text)
    return attrs.evolve(command, text=text.strip())


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


def _words(command: cmd.Command) -> list[str]:
    """The words a game master would type for the command (before any quoting)."""
    match command:
        case cmd.TakeTurn():
            action = [] if command.action is None else [command.action]
            return ["turn", *action, *(f"{k}={v}" for k, v in command.values)]
        case cmd.DoActivity():
            return ["do", command.activity, *(f"{k}={v}" for k, v in command.values)]
        case cmd.AddMember():
            top = [] if command.max_hp == command.hp else [f"max={command.max_hp}"]
            abilities = [f"{k.lower()}={v}" for k, v in command.abilities]
            return ["pc", "add", command.name, f"hp={command.hp}", *top, *abilities]
        case cmd.EditMember():
            return [
                "pc",
                command.name,
                *_pair("hp", _amount(command.hp)),
                *_pair("max", command.max_hp),
                *_pair("fatigue", _amount(command.fatigue)),
                *(_gained(c, dict(command.durations)) for c in command.gain),
                *(f"-{c}" for c in command.lose),
                *(f"{k.lower()}={v}" for k, v in command.abilities),
                *_resource_words(command.resources, {k for k, _ in command.abilities}),
            ]
        case cmd.EditParty():
            return ["party", *_resource_words(command.resources, set())]
        case cmd.SetMarchingOrder():
            return ["party", "order", *command.names]
        case cmd.RemoveMember():
            return ["pc", "remove", command.name]
        case cmd.AddLight():
            lit = ["lit"] if command.lit else []
            return [
                "light",
                "add",
                command.kind,
                f"count={command.count}",
                *_pair("carrier", command.carrier),
                *lit,
                *[f"{key}={value}" for key, value in command.values],
            ]
        case cmd.LightOn():
            typed = [f"{key}={value}" for key, value in command.values]
            return ["light", "on", command.target, *_pair("carrier", command.carrier), *typed]
        case cmd.LightOff():
            return ["light", "off", command.target]
        case cmd.HandLight():
            return ["light", "give", command.target, command.carrier or "nobody"]
        case cmd.SetLight():
            return [
                "light",
                "set",
                command.target,
                *_pair("turns", command.turns),
                *_pair("minutes", command.minutes),
                *_pair("die", None if command.die is None else f"d{command.die}"),
            ]
        case cmd.RefuelLight():
            return ["light", "refuel", command.target]
        case cmd.RollDice():
            what = command.purpose.split(" ") if command.purpose else []
            return ["roll", command.expression, *what, *_pair("result", command.value)]
        case cmd.Note():
            return ["note", command.note]
        case cmd.EndExpedition():
            return ["end", command.words] if command.words else ["end"]
        case cmd.Reopen():
            return ["reopen"]
        case cmd.Undo():
            return ["undo"]
        case cmd.Redo():
            return ["redo"]
        case cmd.Session():
            return ["session", "start" if command.start else "end"]
        case cmd.SetTime():
            return ["time", "set", f"{command.hour:02d}:{command.minute:02d}"]
        case cmd.RollTime():
            count = [] if command.count is None else [str(command.count)]
            return ["time", "roll", *count, *_pair("time", command.value)]
        case cmd.SetRealTime():
            span = "off" if command.seconds is None else f"{command.seconds}s"
            return ["light", "realtime", command.target, span]
        case cmd.RealTime():
            seconds = [f"{command.seconds}s"] if command.seconds or command.verb == "pass" else []
            why = command.reason.split(" ") if command.reason else []
            return ["realtime", command.verb, *seconds, *command.ids, *why]
        case cmd.EnterTurnType():
            return ["enter", command.turn_type]
        case cmd.SetCounter():
            return ["counter", "set", command.counter, command.value]
        case cmd.DescribeEncounter():
            return [
                "encounter",
                *_pair("creature", command.creature),
                *_pair("distance", command.distance),
            ]
        case cmd.ShowPlayers():
            return ["reveal" if command.shown else "hide", command.what]
        case cmd.AddTables():
            return ["tables", "add", command.path]
        case cmd.EnterArea():
            return ["area", command.area]
        case cmd.SetTimer():
            timed = command.amount is not None and command.verb != "cancel"
            letters = {unit: letter for letter, unit in cmd.TIMER_UNITS.items()}
            lasts = [f"{command.amount}{letters[command.unit]}"] if timed else []
            return ["timer", command.verb, command.name, *lasts]
    raise CommandError(f"{type(command).__name__} has no words in the command language.")


def _gained(condition: str, durations: dict[str, str]) -> str:
    """A condition gained as typed: +poisoned, +poisoned:6, +shaken:rest."""
    lasts = durations.get(condition)
    return f"+{condition}:{lasts}" if lasts else f"+{condition}"


def spoken(command: cmd.Command) -> str:
    """The line the command stands for: its text when it was typed, else the canonical line."""
    if command.text:
        return command.text
    words = _words(command)
    if isinstance(command, cmd.Note):
        return f"note {command.note}"  # a note is kept as typed, never quoted
    if isinstance(command, cmd.EndExpedition):
        return " ".join(words)  # the words are kept as typed, as a note's
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
            case cmd.LightOn() | cmd.AddLight() if key.lower() == "burn":
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
