"""Ending an expedition from the table, taking it up again, and the keys while it has ended.

``E`` asks before ending (the game master may type how it ends, for the log) and runs
``end WORDS`` through the expedition like every command; on an ended expedition it offers
to reopen it. While the expedition has ended, a key that would change it says so at once
(``refusal``) instead of opening a dialog whose answer would be refused.
"""

from __future__ import annotations

from rich.text import Text
from textual.screen import Screen

from delvetui.core import commands
from delvetui.errors import CommandError
from delvetui.ui.table.screen import TableScreen

#: What the log says when the game master keeps the default words.
DEFAULT_WORDS = "the party is back in town"
#: The actions an ended expedition still takes (the core takes reopen, undo and redo).
STILL_TAKEN = frozenset({"undo", "redo", "end_expedition"})


def _key(screen: TableScreen) -> str:
    for active in screen.active_bindings.values():
        if active.binding.action == "end_expedition":
            return screen.app.get_key_display(active.binding)
    return "E"


def ended_sentence(screen: TableScreen) -> str:
    """What a key says on an ended expedition: why nothing happens, and what to do."""
    words = screen.state.end_words
    said = f" ({words})" if words else ""
    return (
        f"The expedition has ended{said}: press {_key(screen)} to reopen it, "
        "or type :reopen (the palette has Reopen the expedition)."
    )


def refusal(screen: object, action: str, changing: frozenset[str]) -> str | None:
    """The sentence a key gets instead of acting, when the expedition on ``screen`` has
    ended and ``action`` (one of ``changing``) would change it; else None."""
    if not isinstance(screen, TableScreen) or not screen.state.ended:
        return None
    if action not in changing or action in STILL_TAKEN:
        return None
    return ended_sentence(screen)


def _check_words(text: str) -> str | None:
    try:
        commands.parse(f"end {text}" if text else "end")
    except CommandError as error:
        return error.message
    return None


def end_or_reopen(screen: Screen[None]) -> None:
    """``E``: end the expedition (asked first, with the words for the log), or offer to
    take an ended one up again (on the table screen; elsewhere nothing)."""
    if not isinstance(screen, TableScreen):
        return
    if screen.readonly:
        screen.notify("The expedition is read-only: nothing can be changed.", severity="warning")
        return
    if screen.state.ended:
        ask_reopen(screen)
        return
    from delvetui.ui.dialogs.ask import AskScreen

    def answered(text: str | None) -> None:
        if text is not None:
            screen.run(f"end {text or DEFAULT_WORDS}")

    screen.app.push_screen(
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


def ask_reopen(screen: TableScreen) -> None:
    """Offer to take the ended expedition up again (``reopen``, undoable)."""
    from delvetui.ui.dialogs.choose import ChooseScreen

    if not screen.state.ended:
        screen.notify("The expedition has not ended; there is nothing to reopen.", markup=False)
        return

    def chosen(answer: str | None) -> None:
        if answer == "yes":
            screen.run(commands.Reopen())

    words = screen.state.end_words
    said = f" ({words})" if words else ""
    screen.app.push_screen(
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
