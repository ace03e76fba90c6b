"""The core's own bound on what one command may do, whatever its procedure says.

The loader refuses a procedure whose tables roll themselves or fan out past a bound
(``procedure.fanout``); this is the second guard, for what gets past it (a check for each
member of a large party that rolls a long chain of tables, a procedure built in memory): a
command that would roll a table inside its own roll, go more than ``MAX_ROLL_DEPTH`` tables
deep or write more than ``MAX_COMMAND_EVENTS`` events is refused with a sentence, before
memory or the file fills, and nothing is saved. Tables roll tables only through the ``roll``
effect, which rolls inside ``rolling``; ``decide`` checks the whole command's count.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from delvetui.errors import CommandError
from delvetui.procedure.tree import MAX_ROLL_DEPTH

if TYPE_CHECKING:
    from delvetui.core.work import Work

#: The most events one command may write. A command of the shipped procedures writes a
#: few dozen; about 160 at most with a party of fifty.
MAX_COMMAND_EVENTS = 5_000

#: The tables each command being carried out is rolling, one inside the other (by its
#: working copy, and gone with it).
_ROLLING: weakref.WeakKeyDictionary[Work, list[str]] = weakref.WeakKeyDictionary()


@contextlib.contextmanager
def rolling(work: Work, table: str) -> Iterator[None]:
    """Roll ``table`` from a row of the tables being rolled (the ``roll`` effect), unless
    it is one of them, goes too deep, or the command has already written too much."""
    chain = _ROLLING.setdefault(work, [])
    check_roll(chain, table)
    check_events(len(work.events))
    chain.append(table)
    try:
        yield
    finally:
        chain.pop()


def check_events(count: int) -> None:
    """Refuse a command of ``count`` events, past ``MAX_COMMAND_EVENTS``."""
    if count > MAX_COMMAND_EVENTS:
        raise CommandError(
            f"This command would write more than {MAX_COMMAND_EVENTS:,} events: the "
            "procedure's tables roll one another too often. Nothing was saved; fix the "
            "procedure's tables."
        )


def check_roll(rolling: Sequence[str], table: str) -> None:
    """Refuse a roll on ``table`` made inside the rolls of ``rolling`` (each table rolled
    by a row of the one before it) when it would never end or goes too deep."""
    chain = " → ".join([*rolling, table])
    if table in rolling:
        raise CommandError(
            f"Table '{table}' rolls itself ({chain}), so it would roll for ever. Nothing was "
            "saved; fix the procedure's tables."
        )
    if len(rolling) >= MAX_ROLL_DEPTH:
        raise CommandError(
            f"The rolls go more than {MAX_ROLL_DEPTH} tables deep ({chain}). Nothing was "
            "saved; fix the procedure's tables."
        )
