"""What a part of the table may ask of the screen that holds it.

Each part of the table screen types the screen as a small Protocol of its own module,
built from these: a part reads the state and the procedure shown (``Shown``), and may
run a command, say something (``Says``), open a dialog or post one of the table's messages
(``Acts``), or draw into a widget of its own (``Draws``). What a part needs of another part
it is handed when the screen makes it, as a Protocol too (``KeyNames`` here, for the parts
that name a key; ``keys.Offering``). No part names the screen's class or another part's,
or reaches another part through the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.notifications import SeverityLevel
    from textual.widget import Widget

    from delvetui.core.state import State
    from delvetui.procedure.model import Procedure
    from delvetui.ui.table.messages import Order, Source

#: A widget a part draws into, found on the screen by its class.
W = TypeVar("W", bound="Widget")


class Shown(Protocol):
    """The state and the procedure the table shows."""

    @property
    def state(self) -> State: ...

    @property
    def procedure(self) -> Procedure: ...


class Says(Protocol):
    """A notice on the table."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Say something in a notice."""


class Acts(Shown, Says, Protocol):
    """What the table does for a part: run a command, say something, open a dialog over it
    (``app.push_screen``) or post one of the table's messages."""

    @property
    def app(self) -> App[object]: ...

    def run(self, command: Order, source: Source = "key", *, then: Sequence[Order] = ()) -> None:
        """Ask the app to run a command (and then these)."""

    def post_message(self, message: Message) -> bool:
        """Post one of the table's messages (``ui/table/messages.py``)."""


class Draws(Protocol):
    """The widget of a class on the table's screen, for a part that draws into it."""

    def query_one(self, selector: type[W]) -> W: ...


class KeyNames(Protocol):
    """The key of an action as the game master sees it (a keymap may have moved it):
    ``KeyMap.key_of``."""

    def key_of(self, action: str) -> str: ...
