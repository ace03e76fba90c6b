"""The dungeon's dialogs: go to a room (``g``), mark the room the party is in (``R``).

Each answers with a command for the table to run (``go 12``, ``room 12 +cleared``); what
the game master types (a note, a new room) is a line of the command language, checked for
its shape before the question closes, and by the core when it runs.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import App

from delvetui.core import commands
from delvetui.core.room_map import LEGEND, state_of
from delvetui.core.rooms import exits_of
from delvetui.core.state import MARKS, Room, State
from delvetui.text import visible
from delvetui.ui.dialogs.ask import check_line

#: What the table runs: a command, or a line of the command language.
Run = Callable[[commands.Command | str], None]
_SIGN = {name: sign for name, sign, _ in LEGEND}
#: The choice of the go dialog that lists every room (to go there all the same).
ANYWHERE = "+anywhere"


def room_words(room: Room, here: str) -> Text:
    """A room as a list shows it: '12: The crypt  × cleared, looted'."""
    text = Text(visible(room.name))
    kind = state_of(room, here)
    marks = ", ".join(mark for mark in room.marks if mark != "explored")
    said = "not explored" if kind == "unexplored" else marks
    if said:
        text.append(f"  {_SIGN.get(kind, '').strip()} {said}".rstrip(), "dim")
    return text


def go_choices(state: State) -> list[tuple[str, Text]]:
    """Where ``g`` offers to go: the exits of the room the party is in, and every room all
    the same; outside, every room (the first ones the way in)."""
    here = state.current_room
    if here is None:
        return [(room.id, room_words(room, state.room)) for room in state.rooms]
    found = [(room.id, room_words(room, state.room)) for room in exits_of(state, here)]
    found.append((ANYWHERE, Text("Another room, all the same (a trapdoor, a teleport)…")))
    return found


def open_go(app: App[object], state: State, run: Run) -> None:
    """Push the rooms to go to; the one chosen is gone to (``go ROOM``)."""
    from delvetui.ui.dialogs.choose import ChooseScreen

    here = state.current_room

    def anywhere() -> None:
        rooms = [r for r in state.rooms if here is None or r.id != here.id]

        def chosen(answer: str | None) -> None:
            if answer is not None:
                run(commands.GoToRoom(room=answer, anyway=True))

        choices = [(room.id, room_words(room, state.room)) for room in rooms]
        app.push_screen(ChooseScreen("Go to any room", choices), chosen)

    def chosen(answer: str | None) -> None:
        if answer == ANYWHERE:
            anywhere()
        elif answer is not None:
            run(commands.GoToRoom(room=answer))

    title = f"Go from {visible(here.name)}" if here is not None else "Go into the dungeon"
    hint = "Its area's encounter table is in use there. esc stays."
    app.push_screen(ChooseScreen(title, go_choices(state), hint=hint), chosen)


#: The choices of the room dialog that are not a mark.
NOTE, REVEAL, ADD, GO = "+note", "+reveal", "+add", "+go"


def room_choices(state: State) -> list[tuple[str, Text]]:
    """What ``R`` offers for the room the party is in: each mark put on or taken off, a
    note, its label shown to the players or hidden, a room added; outside, go or add."""
    here = state.current_room
    if here is None:
        return [(GO, Text("Go into the dungeon…")), (ADD, Text("Add a room…"))]
    found: list[tuple[str, Text]] = []
    # Explored comes of itself with the first visit: taking it off is last.
    for mark in (*MARKS[1:], MARKS[0]):
        on = mark in here.marks
        if mark == "explored" and not on:
            continue
        found.append((f"{'-' if on else '+'}{mark}", Text(_mark_words(mark, on))))
    found.insert(len(MARKS) - 1, (NOTE, Text("Write a note on it…")))
    shown = "Hide its label from the players" if here.revealed else "Show its label to the players"
    found.insert(len(MARKS), (REVEAL, Text(shown)))
    found.insert(len(MARKS) + 1, (ADD, Text("Add a room the map did not have…")))
    return found


def _mark_words(mark: str, on: bool) -> str:
    words = {"trapped": "trapped (a trap sprung)", "forced": "forced (a door forced)"}
    said = words.get(mark, mark)
    return f"No longer {said}" if on else f"Mark it {said}"


def open_room(app: App[object], state: State, run: Run) -> None:
    """Push what can be done with the room the party is in; the choice is run."""
    from delvetui.ui.dialogs.ask import AskScreen
    from delvetui.ui.dialogs.choose import ChooseScreen

    here = state.current_room

    def add() -> None:
        def answered(text: str | None) -> None:
            if text:
                run(f"room add {text.strip()}")

        near = f" exits={here.id}" if here is not None else ""
        app.push_screen(
            AskScreen(
                "Add a room",
                "Its id (the number on the map), and its label, area and exits if you like; "
                "an exit leads both ways.",
                placeholder=f"31 label='Hidden shrine'{near}",
                check=lambda text: check_line(f"room add {text}"),
            ),
            answered,
        )

    def chosen(answer: str | None) -> None:
        if answer is None:
            return
        if answer == ADD:
            add()
        elif answer == GO:
            open_go(app, state, run)
        elif here is None:
            return
        elif answer == NOTE:
            note(here)
        elif answer == REVEAL:
            run(commands.ShowPlayers(what="room", shown=not here.revealed))
        else:
            run(commands.MarkRoom(room=here.id, marks=((answer[1:], answer[0] == "+"),)))

    def note(room: Room) -> None:
        def answered(text: str | None) -> None:
            if text:
                run(f"room {room.id} note {text.strip()}")

        app.push_screen(
            AskScreen(
                f"A note on {visible(room.name)}",
                "Kept with the room, and carried to the next expedition.",
                check=lambda text: check_line(f"room {room.id} note {text}"),
            ),
            answered,
        )

    title = f"Room {visible(here.name)}" if here is not None else "The dungeon"
    app.push_screen(ChooseScreen(title, room_choices(state), hint="esc closes"), chosen)
