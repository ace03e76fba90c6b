"""Ending an expedition from the table, taking it up again, and the keys while it has ended.

``E`` asks before ending (the game master may type how it ends, for the log) and runs
``end WORDS`` through the expedition like every command; on an ended expedition it offers
to reopen it. While the expedition has ended, a key that would change it says so at once
(``Ending.refusal``, which the app asks before it runs a table key) instead of opening a
dialog whose answer would be refused.
"""

from __future__ import annotations

from typing import Protocol

from rich.text import Text

from delvetui.core import commands
from delvetui.errors import CommandError
from delvetui.ui.table.keys import CHANGING
from delvetui.ui.table.part import Acts, KeyNames

#: What the log says when the game master keeps the default words.
DEFAULT_WORDS = "the party is back in town"
#: The actions an ended expedition still takes (the core takes reopen, undo and redo).
STILL_TAKEN = frozenset({"undo", "redo", "end_expedition"})


class EndingTable(Acts, Protocol):
    """What ending needs of the table: the state shown, whether it is read-only, running
    ``end`` or ``reopen``, and asking first."""

    @property
    def readonly(self) -> bool: ...


def _check_words(text: str) -> str | None:
    try:
        commands.parse(f"end {text}" if text else "end")
    except CommandError as error:
        return error.message
    return None


class Ending:
    """The end of the expedition on the table: ``E``, and the keys once it has ended."""

    def __init__(self, table: EndingTable, keys: KeyNames) -> None:
        self.table = table
        self.keys = keys

    def sentence(self) -> str:
        """What a key says on an ended expedition: why nothing happens, and what to do."""
        words = self.table.state.end_words
        said = f" ({words})" if words else ""
        return (
            f"The expedition has ended{said}: press {self.keys.key_of('end_expedition')} "
            "to reopen it, or type :reopen (the palette has Reopen the expedition); "
            f"{self.keys.key_of('app.home')} goes to the start screen for the next one."
        )

    def refusal(self, action: str) -> str | None:
        """The sentence a key gets instead of acting, when the expedition has ended and the
        key's ``action`` would change it; else None."""
        if not self.table.state.ended:
            return None
        if action not in CHANGING or action in STILL_TAKEN:
            return None
        return self.sentence()

    def end_or_reopen(self) -> None:
        """``E``: end the expedition (asked first, with the words for the log), or offer to
        take an ended one up again."""
        table = self.table
        if table.readonly:
            table.notify("The expedition is read-only: nothing can be changed.", severity="warning")
            return
        if table.state.ended:
            self.ask_reopen()
            return
        from delvetui.ui.dialogs.ask import AskScreen

        def answered(text: str | None) -> None:
            if text is not None:
                table.run(f"end {text or DEFAULT_WORDS}")

        table.app.push_screen(
            AskScreen(
                "End the expedition?",
                "How it ends, for the log. Enter ends it (the running session ends with it, "
                "lit lights go out); u undoes it, and it can be reopened. Esc: not yet.",
                value=DEFAULT_WORDS,
                check=_check_words,
                hint="enter: end the expedition · esc: not yet",
            ),
            answered,
        )

    def ask_reopen(self) -> None:
        """Offer to take the ended expedition up again (``reopen``, undoable)."""
        from delvetui.ui.dialogs.choose import ChooseScreen

        table = self.table
        if not table.state.ended:
            table.notify("The expedition has not ended; there is nothing to reopen.", markup=False)
            return

        def chosen(answer: str | None) -> None:
            if answer == "yes":
                table.run(commands.Reopen())

        words = table.state.end_words
        said = f" ({words})" if words else ""
        table.app.push_screen(
            ChooseScreen(
                f"The expedition has ended{said}. Take it up again?",
                [
                    ("yes", Text("Yes, reopen the expedition (u undoes it)")),
                    ("no", Text("No, leave it ended")),
                ],
                hint="esc is no",
                selected="yes",
            ),
            chosen,
        )
