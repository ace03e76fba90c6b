"""What the new- and the next-expedition forms share, written once: the name's check,
Create and Cancel, a row for one more member or light, a problem shown beside its
section, and the buttons.

A form says what it is made of: the procedure its rows follow, its messages (``Create``,
``Cancelled``, each named for its screen), how it is read into a ``Create`` and what it
works out again before it is read (the next expedition's plan).
"""

from __future__ import annotations

from typing import ClassVar

from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Select

from delvetui import paths
from delvetui.errors import StoreError
from delvetui.procedure.model import Procedure
from delvetui.ui.forms.form_rows import (
    FormProblem,
    clear_messages,
    focus_new,
    light_rows,
    member_rows,
    show_problem,
)


def name_problem(name: str, field: str) -> FormProblem | None:
    """What is wrong with a new expedition's name typed in ``field`` (None when it will do)."""
    if not name:
        return FormProblem("name", "Give the expedition a name.", field)
    if "/" in name or "\\" in name or name.endswith(paths.SUFFIX):
        return FormProblem("name", "Use a plain name, not a path.", field)
    try:
        path = paths.new_expedition_path(name)
    except StoreError as error:
        return FormProblem("name", error.message, field)
    if path.exists():
        return FormProblem("name", f"An expedition called '{name}' already exists.", field)
    return None


class ExpeditionForm(Screen[None]):
    """A form that makes an expedition; nothing is written until Create."""

    #: The message clearing leaves as it is ('': none), by its id.
    KEEP: ClassVar[str] = ""
    #: The form's message when the game master leaves it (one named for each form).
    Cancelled: ClassVar[type[Message]]

    def __init__(self, *, members: int, lights: int) -> None:
        super().__init__()
        #: The rows of members (joining) and of lights the form has.
        self.member_rows = members
        self.light_rows = lights

    @property
    def procedure(self) -> Procedure | None:
        """The procedure the expedition follows (its rows' abilities and lights)."""
        raise NotImplementedError

    def read(self) -> Message:
        """The expedition the form describes; raises FormProblem for the first problem."""
        raise NotImplementedError

    async def replan(self) -> None:
        """Work out again what the form shows from its fields, before it is read (a form
        that shows nothing worked out has nothing to do)."""

    def clear(self) -> None:
        """Empty the form's messages (but the one it keeps) and their error look."""
        clear_messages(self, keep=self.KEEP)

    def failed(self, section: str, message: str, field: str | None = None) -> None:
        """Show a problem beside its section and focus the field."""
        show_problem(self, section, message, field, keep=self.KEEP)

    async def action_create(self) -> None:
        """Check everything; create the expedition only when all is well."""
        await self.replan()
        try:
            request = self.read()
        except FormProblem as problem:
            self.failed(problem.section, problem.message, problem.field)
            return
        self.clear()
        self.post_message(request)

    def action_cancel(self) -> None:
        """Leave the form; nothing is created."""
        self.post_message(self.Cancelled())

    async def action_add_member(self) -> None:
        """One more member row, below the others (which keep their widgets and text)."""
        self.member_rows += 1
        count = self.member_rows
        box = self.query_one("#form-members", Vertical)
        await box.mount_all(member_rows(self.procedure, count, first=count - 1))
        self.focus_new(self.query_one(f"#m{count - 1}-name", Input))

    async def action_add_light(self) -> None:
        """One more light row, below the others (which keep their widgets and choices)."""
        self.light_rows += 1
        count = self.light_rows
        box = self.query_one("#form-lights", Vertical)
        await box.mount_all(light_rows(self.procedure, count, first=count - 1))
        self.focus_new(self.query_one(f"#l{count - 1}-kind", Select))

    def focus_new(self, widget: Widget) -> None:
        """Focus a row just added and scroll the form to it."""
        focus_new(self, widget)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """The form's buttons."""
        event.stop()
        button = event.button.id
        if button == "form-create":
            await self.action_create()
        elif button == "form-cancel":
            self.action_cancel()
        elif button == "form-add-member":
            await self.action_add_member()
        elif button == "form-add-light":
            await self.action_add_light()
