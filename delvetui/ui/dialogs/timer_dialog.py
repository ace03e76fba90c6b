"""The timers dialog (T): start a timer, change a running one's length or cancel it.

A list first: the running timers, the timers the procedure declares (started at their
usual length at once) and "+ New timer…"; then, where a length is wanted, one line typed
as the command language has it (``bless 6t``), checked before it is taken. The dialog
answers with the line to run; the table runs it like any other command.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from rich.text import Text
from textual.app import App

from delvetui.core import commands, timers
from delvetui.core.state import State, Timer
from delvetui.procedure.model import Procedure
from delvetui.text import visible
from delvetui.ui.dialogs.ask import check_line

#: The id of the "+ New timer…" choice.
NEW = "+new"
#: What the ids of the other choices start with: a running timer, a declared one.
RUNNING, DECLARED = "running:", "declared:"
#: The two things to do with a running timer.
CHANGE, CANCEL = "change", "cancel"

_LENGTHS = "6t (turns), 30m (in-world minutes) or 2h (hours)"


def choices(state: State, procedure: Procedure) -> list[tuple[str, Text]]:
    """The running timers with what is left, the declared ones not running, and New."""
    turn_name = procedure.turn_name(state.turn_type)
    found: list[tuple[str, Text]] = []
    for timer in state.timers:
        soon = " · runs out next turn" if timers.ends_next_turn(timer, state, procedure) else ""
        left = timers.left_text(timer, turn_name)
        found.append(
            (f"{RUNNING}{timer.name}", Text(f"{visible(timers.shown_name(timer))}: {left}{soon}"))
        )
    for name, declared in procedure.timers.items():
        if state.timer(name) is None:
            unit, amount = declared.length
            usual = timers.left_text(
                Timer(name=name, unit=unit, left=timers.length(unit, amount)), turn_name
            )
            found.append((f"{DECLARED}{name}", Text(f"+ {declared.label} ({name}, {usual})")))
    found.append((NEW, Text("+ New timer…")))
    return found


def new_timer_line(text: str) -> str:
    """The ``timer add`` line of what was typed for a new timer: a name of any words, then
    its length ("hold portal 2h" is the timer "hold portal" of 2 hours), quoted as the
    command language reads it; typed quotes are kept as typed."""
    words = text.split()
    if not words or any(quote in text for quote in "'\""):
        return f"timer add {text.strip()}"
    *name, last = words
    if name and check_line(shlex.join(["timer", "add", "x", last])) is None:
        return shlex.join(["timer", "add", " ".join(name), last])
    return shlex.join(["timer", "add", " ".join(words)])


def open_dialog(
    app: App[object], state: State, procedure: Procedure, run: Callable[[str], None]
) -> None:
    """Push the timers list; what the game master chooses goes to ``run`` as a line of the
    command language (the table runs it like any other)."""
    from delvetui.ui.dialogs.ask import AskScreen
    from delvetui.ui.dialogs.choose import ChooseScreen

    def asked(prefix: str) -> Callable[[str | None], None]:
        def answered(text: str | None) -> None:
            if text:
                run(f"{prefix} {text.strip()}")

        return answered

    def ask_new() -> None:
        def answered(text: str | None) -> None:
            if text:
                run(new_timer_line(text))

        app.push_screen(
            AskScreen(
                "New timer",
                f"A name (words may have spaces) and how long it runs: {_LENGTHS}.",
                placeholder="hold portal 6t",
                check=lambda text: check_line(new_timer_line(text)),
            ),
            answered,
        )

    def running(name: str) -> None:
        def done(answer: str | None) -> None:
            if answer == CANCEL:
                run(commands.spoken(commands.SetTimer(verb="cancel", name=name)))
            elif answer == CHANGE:
                app.push_screen(
                    AskScreen(
                        f"Timer {name}",
                        f"How long from now: {_LENGTHS}.",
                        placeholder="3t",
                        check=lambda text: check_line(f"timer set {name} {text}"),
                    ),
                    asked(commands.spoken(commands.SetTimer(verb="set", name=name))),
                )

        app.push_screen(
            ChooseScreen(
                f"Timer {name}",
                [(CHANGE, Text("Change its length…")), (CANCEL, Text("Cancel it"))],
            ),
            done,
        )

    def chosen(answer: str | None) -> None:
        if answer is None:
            return
        if answer == NEW:
            ask_new()
        elif answer.startswith(RUNNING):
            running(answer.removeprefix(RUNNING))
        elif answer.startswith(DECLARED):
            name = answer.removeprefix(DECLARED)
            run(commands.spoken(commands.SetTimer(verb="add", name=name)))

    app.push_screen(
        ChooseScreen("Timers", choices(state, procedure), hint="enter chooses · esc closes"),
        chosen,
    )
