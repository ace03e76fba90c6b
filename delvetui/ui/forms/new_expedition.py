"""The new-expedition form: name, procedure, start time, party and lights.

Every problem is shown beside the field it concerns; nothing is created until the game
master confirms with Create, and then everything is created at once (see
:mod:`delvetui.application.creation`). The form answers with :class:`NewExpeditionScreen.Create`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from delvetui.core import commands
from delvetui.procedure import registry
from delvetui.procedure.model import Procedure
from delvetui.text import clock, visible
from delvetui.ui.forms.expedition_form import ExpeditionForm, name_problem
from delvetui.ui.forms.form_rows import (
    DIGITS,
    FormProblem,
    TickBox,
    light_rows,
    light_values,
    member_heading,
    member_rows,
    member_values,
    party_commands,
    remake_rows,
    typed,
)
from delvetui.ui.forms.picker import Picker
from delvetui.ui.key_footer import KeyFooter

#: Member and light rows the form starts with.
START_MEMBERS = 3
START_LIGHTS = 2


__all__ = ["FormProblem", "NewExpeditionScreen", "TickBox"]


class NewExpeditionScreen(ExpeditionForm):
    """A short form for a new expedition; nothing is written until Create."""

    AUTO_FOCUS = "#form-name"
    """Keys typed while the form opens go into the name."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="form-cancel"),
        Binding("ctrl+s", "create", "Create", id="form-create"),
        Binding("ctrl+n", "add_member", "Add member", id="form-add-member"),
        Binding("ctrl+l", "add_light", "Add light", id="form-add-light"),
    ]
    """Keys of the form (Tab moves between fields)."""

    class Create(Message):
        """The form is complete: create this expedition."""

        def __init__(
            self,
            name: str,
            procedure: Procedure,
            start: str | None,
            commands: list[commands.Command],
        ) -> None:
            super().__init__()
            self.name = name
            self.procedure = procedure
            self.start = start
            self.commands = commands

    class Cancelled(Message):
        """The game master left the form; nothing was created."""

    def __init__(self) -> None:
        super().__init__(members=START_MEMBERS, lights=START_LIGHTS)
        self.entries = [entry for entry in registry.entries()]
        usable = [entry for entry in self.entries if entry.procedure is not None]
        default = next((e for e in usable if e.id == "delving"), usable[0] if usable else None)
        self._procedure: Procedure | None = default.procedure if default else None

    @property
    def procedure(self) -> Procedure | None:
        """The procedure chosen (its abilities and lights make the rows)."""
        return self._procedure

    @property
    def members(self) -> int:
        """The member rows of the form."""
        return self.member_rows

    @property
    def lights(self) -> int:
        """The light rows of the form."""
        return self.light_rows

    # Layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The form's sections."""
        with VerticalScroll(id="form"):
            yield Static(Text("New expedition"), id="form-title")
            yield Label("Name")
            yield Input(
                placeholder="e.g. crypt-of-the-ash-king",
                id="form-name",
                max_length=80,
                compact=True,
            )
            yield Static("", classes="form-message", id="name-message")
            yield Label("Procedure (type its first letters to go to it)")
            options = []
            for entry in self.entries:
                # One line each, so a dozen fit at 80×24; the highlighted one is told
                # in full under the list.
                row = Text(no_wrap=True, overflow="ellipsis")
                if entry.procedure is None:
                    row.append(f"{entry.id}", "bold")
                    row.append(f"  cannot be used: {visible(entry.problem)}", "italic")
                else:
                    proc = entry.procedure
                    row.append(proc.name, "bold")
                    if entry.user:
                        row.append("  (yours)", "italic")
                    row.append(f"  {proc.summary}", "dim")
                options.append(Option(row, id=entry.id, disabled=entry.procedure is None))
            procedures = Picker(*options, id="form-procedure")
            if self.procedure is not None:
                # Highlighted before it mounts: the form is built once, for this procedure,
                # not first for the top of the list and then again.
                ids = [entry.id for entry in self.entries]
                procedures.highlighted = ids.index(self.procedure.id)
            yield procedures
            yield Static(self._about(), id="procedure-about")
            yield Static("", classes="form-message", id="procedure-message")
            yield Label("Start time (HH:MM), or roll the hour with time dice")
            with Horizontal(classes="form-row"):
                yield Input(
                    self._default_start(),
                    id="form-start",
                    classes="short",
                    compact=True,
                    restrict=r"[0-9:]*",
                    max_length=5,
                )
                yield TickBox("Roll with", id="form-roll")
                yield Input(
                    "2", id="form-dice", classes="tiny", compact=True, restrict=DIGITS, max_length=1
                )
                yield Label("time dice (1-4)", classes="form-after")
            yield Static("", classes="form-message", id="start-message")
            yield Label("Party", classes="form-section")
            yield Vertical(*member_heading(self.procedure), id="form-heading")
            yield Vertical(*member_rows(self.procedure, self.member_rows), id="form-members")
            yield Button("Add member (ctrl+n)", id="form-add-member", compact=True)
            yield Static("", classes="form-message", id="party-message")
            yield Label("Lights", classes="form-section")
            yield Vertical(*light_rows(self.procedure, self.light_rows), id="form-lights")
            yield Button("Add light (ctrl+l)", id="form-add-light", compact=True)
            yield Static("", classes="form-message", id="lights-message")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create (ctrl+s)", id="form-create", variant="primary")
                yield Button("Cancel (esc)", id="form-cancel")
        yield KeyFooter(fit=True)

    def _default_start(self) -> str:
        return self.procedure.time.start if self.procedure else "08:00"

    def _about(self) -> Text:
        """The procedure highlighted, in full: its name, its source and its summary."""
        proc = self.procedure
        if proc is None:
            return Text("")
        about = Text(proc.name, "bold")
        if proc.source and proc.source != proc.name:
            about.append(f", from {proc.source}", "dim")
        about.append(f"\n{proc.summary}")
        return about

    def on_mount(self) -> None:
        """Focus the name (the default procedure is highlighted as the list is made), and
        note the form as it opened (Escape asks once something changed)."""
        self.query_one("#form-name", Input).focus()
        self.call_after_refresh(self.remember)

    # Reading the form --------------------------------------------------------------------

    def read(self) -> NewExpeditionScreen.Create:
        """The expedition the form describes; raises FormProblem for the first problem."""
        name = typed(self, "form-name")
        wrong = name_problem(name, "form-name")
        if wrong is not None:
            raise wrong
        procedure = self.procedure
        if procedure is None:
            raise FormProblem("procedure", "Choose a procedure.", "form-procedure")
        start: str | None = typed(self, "form-start")
        rolled = self.query_one("#form-roll", Checkbox).value
        extra: list[commands.Command] = []
        if rolled:
            dice = typed(self, "form-dice")
            if not dice.isdigit() or not 1 <= int(dice) <= 4:
                raise FormProblem("start", "Roll 1 to 4 time dice.", "form-dice")
            start = None
            extra.append(commands.said(commands.RollTime(count=int(dice))))
        elif clock(start or "") is None:
            raise FormProblem("start", "Write the start time as HH:MM, e.g. 08:00.", "form-start")
        made = party_commands(
            procedure,
            member_values(self, procedure, self.member_rows),
            light_values(self, self.light_rows),
        )
        return self.Create(name, procedure, start, [*extra, *made])

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """A different procedure: its abilities, lights and start time."""
        event.stop()
        if event.option_index != event.option_list.highlighted:
            return  # the list has moved on since (as the form opens): only the last counts
        entry = next((e for e in self.entries if e.id == event.option.id), None)
        if entry is None or entry.procedure is None or entry.procedure is self.procedure:
            return
        members = member_values(self, self.procedure, self.member_rows)
        lights = light_values(self, self.light_rows)
        old_start = self._default_start()
        old_hp = str(self.procedure.party.default_hp) if self.procedure else ""
        for member in members:
            if member["hp"] == old_hp:  # untouched: the new procedure's default
                member["hp"] = str(entry.procedure.party.default_hp)
        self._procedure = entry.procedure
        self.query_one("#procedure-about", Static).update(self._about())
        await remake_rows(self, self._procedure, members, lights)
        start = self.query_one("#form-start", Input)
        if start.value.strip() == old_start:
            start.value = self._default_start()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a procedure moves on to the start time."""
        event.stop()
        self.query_one("#form-start", Input).focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves to the next field, and creates the expedition from the last."""
        event.stop()
        if event.input is list(self.query(Input))[-1]:
            await self.action_create()
        else:
            self.focus_next()
