"""The table's name for :mod:`delvetui.application.runner`, where the ask-and-retry loop lives.

``corrected`` here takes and gives the line of a command, for callers that hold the line
(the log keeps it); the runner itself works on command values.
"""

from __future__ import annotations

from delvetui.application import runner
from delvetui.application.runner import Cancelled, MadeRoll, execute, fix_roll, last_rolls
from delvetui.core import commands as cmd

__all__ = ["Cancelled", "MadeRoll", "corrected", "execute", "fix_roll", "last_rolls"]


def corrected(command: str, rolls: list[MadeRoll], index: int, value: str) -> str:
    """The line of the command made again with one roll fixed (see ``runner.corrected``)."""
    return runner.corrected(cmd.parse(command), rolls, index, value).text
