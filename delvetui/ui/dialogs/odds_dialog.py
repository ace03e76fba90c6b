"""The odds: the chance of an encounter and of each light going out, in words and bars."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.ui.bars import bar

if TYPE_CHECKING:
    # The odds are worked out when the dialog opens; the table's start does not load them.
    from delvetui.core import odds

#: Cells in each figure's bar.
BAR_WIDTH = 10


def odds_text(found: odds.Odds) -> Text:
    """Each figure on a line: its bar (when it is a chance), then the words."""
    from delvetui.core import odds

    text = Text()
    for index, line in enumerate(odds.lines(found)):
        if index:
            text.append("\n")
        if line.chance is not None:
            per_mille = round(float(line.chance) * 1000)
            text.append(bar(per_mille, 1000, BAR_WIDTH), "bold")
            text.append("  ")
        else:
            text.append(" " * (BAR_WIDTH + 2))
        text.append(line.text)
    return text


class OddsDialog(ModalScreen[None]):
    """The odds of the next turn and the next hour, worked out exactly from the procedure.

    The count can take a moment for a procedure that throws many dice a turn, so it runs
    in a thread and the dialog says it is counting until then.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,o", "close", "Close")]
    """Keys that close the odds."""

    def __init__(self, state: State, procedure: Procedure) -> None:
        super().__init__()
        self.state = state
        self.procedure = procedure
        self.odds: odds.Odds | None = None

    def compose(self) -> ComposeResult:
        """The title, the figures and the hint."""
        from delvetui.core import odds

        action = self.procedure.actions.get(odds.action_name(self.state, self.procedure))
        doing = action.label.lower() if action is not None else "the current action"
        with Vertical(classes="dialog"):
            yield Static(Text("The odds"), classes="dialog-title")
            yield Static(Text("Counting every way the dice can fall…"), id="odds-figures")
            yield Static(
                Text(f"If the party goes on: {doing}, every turn. esc close"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        """Start counting."""
        self.count()

    @work(thread=True, exclusive=True)
    def count(self) -> None:
        """Work the odds out away from the screen, then show them."""
        from delvetui.core import odds

        found = odds.compute(self.state, self.procedure)
        self.app.call_from_thread(self.show, found)

    def show(self, found: odds.Odds) -> None:
        """Put the figures on screen (unless the dialog was closed while counting)."""
        if not self.is_attached:
            return
        self.odds = found
        self.query_one("#odds-figures", Static).update(odds_text(found))

    def action_close(self) -> None:
        """Close the odds."""
        self.dismiss(None)
