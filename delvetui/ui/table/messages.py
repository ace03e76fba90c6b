"""The messages the table screen posts to the app: run a command, fix a roll, export,
settings changed, the newest turns shown, damage found, the next expedition's form.

They keep the table screen's name (``on_table_screen_run``), whichever of the screen's parts
posts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

from textual.message import Message

if TYPE_CHECKING:
    from delvetui.core import commands

Source = Literal["key", "line"]
#: What the table runs: a command it built, or a line the game master typed. (Written as
#: text, so the command language is imported only when the first command is run.)
Order: TypeAlias = "commands.Command | str"


class Run(Message, namespace="table_screen"):
    """Run a command on the expedition (and ``then`` more): built, or a typed line."""

    def __init__(self, command: Order, source: Source = "key", then: Sequence[Order] = ()) -> None:
        super().__init__()
        self.command = command
        self.source = source
        self.then = tuple(then)


class FixRoll(Message, namespace="table_screen"):
    """Undo the last command and make it again with a roll corrected."""


class Export(Message, namespace="table_screen"):
    """Export the expedition's log in a format (txt, md, html or json)."""

    def __init__(self, fmt: str) -> None:
        super().__init__()
        self.fmt = fmt


class Settings(Message, namespace="table_screen"):
    """Table dice, the speed or asking before trouble changed; the app remembers them."""


class NewestShown(Message, namespace="table_screen"):
    """The log shows the newest turns (older ones may still be read in)."""


class Damaged(Message, namespace="table_screen"):
    """The page check or reading the whole log found damage, or a replay that disagrees.

    The table is read-only from then on.
    """

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message


class NextExpedition(Message, namespace="table_screen"):
    """Open the form of the next expedition after this ended one (the app's campaign)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
