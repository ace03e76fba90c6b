"""The table dialog (W): a carried table's rows, to add one, change one or take one out.

A list first: the rows of the area in use, as printed ("4-6 1d3 skeletons, in rusted
mail"), then "+ New row…" and, where the tables have other areas, "Another area…". A row
chosen offers "Change it…" (its line, to edit) and "Take it out" (its faces go to the row
below it, else above). What the game master types is a row as printed, the same words a pasted table
has, checked against the table before it is taken (``core.table_rows``). The dialog answers
with a line of the command language; the table runs it like any other, as an event that
undo takes back.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import App

from delvetui.core import areas, commands, table_rows
from delvetui.core.state import State
from delvetui.errors import CommandError
from delvetui.text import visible

#: The ids of the choices that are not a row: a new row, another area.
NEW, OTHER = "+new", "+area"
#: What the id of a row's choice starts with (its faces follow).
ROW = "row:"
#: The two things to do with a row.
CHANGE, REMOVE = "change", "remove"

_ROW_HELP = (
    "The row as printed: its faces, how many appear and the creature, e.g. 4-6 1d3 "
    "skeletons (words after a comma are the row's own)."
)


def choices(state: State, area: str) -> list[tuple[str, Text]]:
    """The area's rows as printed, then a new row and, with more areas, another area."""
    found = table_rows.find(state, area)
    rows = [
        (f"{ROW}{row.roll}", Text(visible(table_rows.printed(row, colon=True))))
        for row in found.area.rows
    ]
    rows.append((NEW, Text("+ New row…")))
    if len(areas.areas(state)) > 1:
        rows.append((OTHER, Text("Another area…")))
    return rows


def problem(state: State, area: str, line: str, was: str = "") -> str | None:
    """None when the table takes the row, else what is wrong (the core's own sentence)."""
    try:
        table_rows.preview(state, area, line, was)
    except CommandError as error:
        return error.message
    return None


def open_dialog(
    app: App[object], state: State, run: Callable[[str], None], area: str | None = None
) -> None:
    """Push the area's rows (the area in use, unless another is named); what the game
    master chooses goes to ``run`` as a line of the command language. CommandError when
    the expedition carries no tables."""
    from delvetui.ui.dialogs.ask import AskScreen
    from delvetui.ui.dialogs.choose import ChooseScreen

    area = area or state.area
    found = table_rows.find(state, area)
    label = f"{found.area.label} ({found.area.dice})"

    def ask(title: str, value: str, was: str) -> None:
        def answered(text: str | None) -> None:
            if not text:
                return
            if was:
                command: commands.Command = commands.ChangeTableRow(
                    area=area, faces=was, row=text.strip()
                )
            else:
                command = commands.SetTableRow(area=area, row=text.strip())
            run(commands.spoken(command))

        app.push_screen(
            AskScreen(
                title,
                _ROW_HELP,
                value=value,
                placeholder="4-6 1d3 skeletons",
                check=lambda text: problem(state, area, text, was),
            ),
            answered,
        )

    def row(faces: str) -> None:
        shown = next(r for r in found.area.rows if r.roll == faces)

        def done(answer: str | None) -> None:
            if answer == CHANGE:
                ask(f"{label}: row {faces}", table_rows.printed(shown), faces)
            elif answer == REMOVE:
                run(commands.spoken(commands.RemoveTableRow(area=area, faces=faces)))

        app.push_screen(
            ChooseScreen(
                f"{label}: {table_rows.printed(shown)}",
                [
                    (CHANGE, Text("Change it…")),
                    (REMOVE, Text("Take it out (the row below it takes its faces)")),
                ],
            ),
            done,
        )

    def chosen(answer: str | None) -> None:
        if answer is None:
            return
        if answer == NEW:
            ask(f"{label}: a new row", "", "")
        elif answer == OTHER:
            other_area(app, state, run)
        elif answer.startswith(ROW):
            row(answer.removeprefix(ROW))

    app.push_screen(
        ChooseScreen(label, choices(state, area), hint="enter chooses · esc closes"),
        chosen,
    )


def other_area(app: App[object], state: State, run: Callable[[str], None]) -> None:
    """Choose another area of the tables carried, then its rows."""
    from delvetui.ui.dialogs.choose import ChooseScreen

    carried = areas.areas(state)
    options = [
        (name, Text(visible(f"{label}{' (in use)' if name == state.area else ''}")))
        for name, label in carried.items()
    ]

    def chosen(answer: str | None) -> None:
        if answer is not None:
            open_dialog(app, state, run, answer)

    app.push_screen(ChooseScreen("Encounter tables", options, selected=state.area), chosen)
