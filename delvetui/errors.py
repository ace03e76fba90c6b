"""One error hierarchy for delvetui.

Every error carries a sentence a game master can act on: what was wrong and what would be
right. Nothing in here imports Textual or Rich.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from delvetui.text import visible


class DelveError(Exception):
    """Base of every error delvetui reports to a person.

    The message is made visible (``delvetui.text.visible``) as it is made: an error quotes
    what it refused, and what was refused may hold a terminal's escape sequences.
    """

    def __init__(self, message: str) -> None:
        message = visible(message, lines=True)
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ReplayError(DelveError):
    """A batch read back from a file cannot be applied to the state before it.

    Only a file made or changed by hand gets here: the program never writes an event that
    cannot apply. ``evolve`` raises it for any event it cannot apply and the timeline names
    the batch; every place that replays a log (opening, the table's history, import,
    verify, salvage) catches this one type and treats the file as damaged.
    """

    def __init__(self, message: str, batch: int | None = None) -> None:
        super().__init__(message)
        self.batch = batch


class CommandError(DelveError):
    """A command of the command language is malformed or cannot apply to the state."""


class DiceError(CommandError):
    """A dice expression is malformed, too large, or a typed result is out of range."""


class RollNeeded(DelveError):
    """A roll the game master wants to make at the table has no typed result yet.

    Raised by a table-dice roller; the caller asks for the number and tries again with
    ``key=value`` added to the command.
    """

    def __init__(self, key: str, expression: str, purpose: str, *, spoken: str = "") -> None:
        # ``spoken``: the dice in words ("2d20, keep the higher (advantage)") for the message.
        super().__init__(f"Roll {spoken or expression} for {purpose} and give it as {key}=N.")
        self.key = key
        self.expression = expression
        self.purpose = purpose


class InputNeeded(RollNeeded):
    """A result the procedure needs from the table (a check the players made) is missing.

    Raised instead of a CommandError when the caller can ask for it (the table does); the
    expression lists the choices as ``a|b``, or ``N`` for a whole number. ``choices`` holds
    them as given (a member's name may hold any character), and ``default`` is the value an
    optional input takes when none is given.
    """

    def __init__(
        self,
        key: str,
        expression: str,
        purpose: str,
        message: str,
        *,
        choices: Sequence[str] = (),
        default: str | None = None,
    ) -> None:
        super().__init__(key, expression, purpose)
        self.message = visible(message, lines=True)
        self.args = (self.message,)
        self.choices = tuple(choices)
        self.default = default


@attrs.frozen
class Problem:
    """One problem found in a procedure file: where it is and what is wrong."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        key = f"{self.path}: " if self.path else ""
        return f"{where}{key}{self.message}"


class ProcedureError(DelveError):
    """A procedure file has one or more problems; all of them are listed."""

    def __init__(self, source: str, problems: Sequence[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in self.problems)
        count = len(self.problems)
        noun = "problem" if count == 1 else "problems"
        super().__init__(f"{source} has {count} {noun}:\n{lines}")


class StoreError(DelveError):
    """The expedition file cannot be used as asked."""


class ExpeditionNotFound(StoreError):
    """No saved expedition has that name or path."""


class ExpeditionExists(StoreError):
    """An expedition with that name or path already exists."""


class ExpeditionLocked(StoreError):
    """Another delvetui process has the expedition open for writing."""


class DamagedFile(StoreError):
    """The file is an expedition file but it is damaged; it was not modified."""


class ForeignFile(StoreError):
    """The file is not a delvetui expedition; it was not modified."""


class ReadOnlyExpedition(StoreError):
    """The expedition was opened read-only (newer version or damage) and cannot be changed."""


class StorageFailed(StoreError):
    """Writing to the expedition file failed; nothing of the command was saved."""


class FileRefused(DelveError):
    """A file or folder cannot be used as asked (not a regular file, an expedition file...)."""


class NotAFile(FileRefused):
    """A path names a folder, a device, a FIFO, a socket or a link to nothing, not a file."""


class TargetExists(FileRefused):
    """A file to write already exists and replacing it was not asked for."""
