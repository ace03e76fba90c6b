"""What the new- and the next-expedition forms share, written once: the name's check,
Create and Cancel, a row for one more member or light, a problem shown beside its
section, and the buttons.

A form says what it is made of: the procedure its rows follow, its messages (``Create``,
``Cancelled``, each named for its screen), how it is read into a ``Create`` and what it
works out again before it is read (the next expedition's plan).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static

from delvetui import paths
from delvetui.errors import StoreError
from delvetui.procedure.model import Procedure
from delvetui.ui.forms.form_rows import (
    FormProblem,
    light_rows,
    member_rows,
    number_problem,
    supply_rows,
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

    def __init__(self, *, members: int, lights: int, supplies: int = 0) -> None:
        super().__init__()
        #: The rows of members (joining), of lights and of supplies the form has.
        self.member_rows = members
        self.light_rows = lights
        self.supply_rows = supplies
        #: Every field's value as the form opened (Escape asks once one differs).
        self.opened: dict[str, object] | None = None

    def values(self) -> dict[str, object]:
        """Every field's value, by its id: what was typed, chosen or ticked."""
        found: dict[str, object] = {}
        for field in self.query("Input, Select, Checkbox, OptionList"):
            if field.id is None:
                continue
            if isinstance(field, Input | Select | Checkbox):
                found[field.id] = field.value
            elif isinstance(field, OptionList):
                found[field.id] = field.highlighted
        return found

    def remember(self) -> None:
        """Note every field's value as the form opened: Escape leaves at once while none
        has changed."""
        self.opened = self.values()

    def changed(self) -> bool:
        """True when something was typed, chosen or ticked since the form opened (or a row
        added)."""
        return self.opened is not None and self.values() != self.opened

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
        for message in self.query(".form-message").results(Static):
            if message.id != self.KEEP:
                message.update("")
            message.remove_class("-error")

    def failed(self, section: str, message: str, field: str | None = None) -> None:
        """Show a problem beside its section (the others cleared), focus the field it is
        about, and scroll the form (``#form``) to it."""
        self.clear()
        shown = self.query_one(f"#{section}-message", Static)
        shown.update(Text(message))
        shown.add_class("-error")
        if field is not None:
            for widget in self.query(f"#{field}"):
                widget.focus()
        self.query_one("#form", VerticalScroll).scroll_to_widget(shown)

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
        """Leave the form (nothing is created); asked first once something was typed."""
        if not self.changed():
            self.post_message(self.Cancelled())
            return
        from delvetui.ui.dialogs.choose import ChooseScreen

        def answered(answer: str | None) -> None:
            if answer == "leave":
                self.post_message(self.Cancelled())

        self.app.push_screen(
            ChooseScreen(
                "Leave the form? What you typed is not kept.",
                [
                    ("stay", Text("No, go on with the form")),
                    ("leave", Text("Yes, leave it: nothing is created")),
                ],
                hint="esc: go on with the form",
                selected="stay",
            ),
            answered,
        )

    def on_input_changed(self, event: Input.Changed) -> None:
        """A number field is checked as it is typed: what is wrong shows at once beside its
        section, and goes when it is right."""
        found = number_problem(event.input.id or "", event.value.strip())
        if found is None:
            return
        section, problem = found
        for shown in self.query(f"#{section}-message").results(Static):
            if problem is not None:
                shown.update(Text(problem))
                shown.add_class("-error", "-typed")
                # In view with the field: the sentence is under the section's rows.
                self.call_after_refresh(
                    self.query_one("#form", VerticalScroll).scroll_to_widget, shown, animate=False
                )
            elif shown.has_class("-typed"):
                shown.update("")
                shown.remove_class("-error", "-typed")

    async def action_add_member(self) -> None:
        """One more member row, below the others (which keep their widgets and text)."""
        self.member_rows += 1
        count = self.member_rows
        box = self.query_one("#form-members", Vertical)
        await box.mount_all(member_rows(self.procedure, count, first=count - 1))
        self.focus_new(self.query_one(f"#m{count - 1}-name", Input))

    async def action_add_supply(self) -> None:
        """One more row of supplies bought, below the others."""
        self.supply_rows += 1
        count = self.supply_rows
        box = self.query_one("#form-supplies", Vertical)
        await box.mount_all(supply_rows(self.procedure, count, first=count - 1))
        self.focus_new(self.query_one(f"#s{count - 1}-resource", Select))

    async def action_add_light(self) -> None:
        """One more light row, below the others (which keep their widgets and choices)."""
        self.light_rows += 1
        count = self.light_rows
        box = self.query_one("#form-lights", Vertical)
        await box.mount_all(light_rows(self.procedure, count, first=count - 1))
        self.focus_new(self.query_one(f"#l{count - 1}-kind", Select))

    def focus_new(self, widget: Widget) -> None:
        """Focus a row just added and scroll the form to it once it has been laid out."""
        widget.focus(scroll_visible=False)
        scroll = self.query_one("#form", VerticalScroll)
        self.call_after_refresh(scroll.scroll_to_widget, widget, animate=False)

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
        elif button == "form-add-supply":
            await self.action_add_supply()
