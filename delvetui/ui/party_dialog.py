"""The party dialog: add a member, correct one, change hit points, or remove one.

It answers with one ``pc`` command of the command language; the app runs it.
"""

from __future__ import annotations

import re
import shlex
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from delvetui.core.state import Member, State
from delvetui.procedure.model import Procedure
from delvetui.ui.ask import AskScreen
from delvetui.ui.choose import ChooseScreen
from delvetui.ui.member_form import MemberForm

ADD = "+add"
_AMOUNT = re.compile(r"^[+-]?[0-9]{1,6}$")


def check_hp(text: str) -> str | None:
    """None for N, +N or -N; else what is wrong."""
    return None if _AMOUNT.match(text) else "Type N, +N or -N (e.g. -2 for two damage)."


class PartyDialog(ModalScreen[str | None]):
    """Choose a member and what to change; answers with a command."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"),
        Binding("h", "hp", "Hit points"),
        Binding("e", "edit", "Correct"),
        Binding("a", "add", "Add"),
        Binding("x", "remove", "Remove"),
    ]
    """Keys for what to do with the highlighted member."""

    def __init__(self, state: State, procedure: Procedure, *, selected: str | None = None) -> None:
        super().__init__()
        self.state = state
        self.procedure = procedure
        self.selected = selected

    def compose(self) -> ComposeResult:
        """The party and the keys."""
        options: list[Option] = []
        for member in self.state.party:
            row = Text()
            row.append(member.name)
            row.append(f"  {member.hp}/{member.max_hp} HP")
            if member.conditions:
                row.append(f"  {', '.join(member.conditions)}")
            options.append(Option(row, id=member.name))
        options.append(Option(Text("+ Add a party member…"), id=ADD))
        with Vertical(classes="dialog"):
            yield Static(Text("Party"), classes="dialog-title")
            yield OptionList(*options, id="party-list")
            yield Static(
                Text("enter correct · h hit points · a add · x remove · esc close"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        """Focus the list (on the chosen member)."""
        options = self.query_one("#party-list", OptionList)
        options.focus()
        names = [member.name for member in self.state.party]
        if self.selected in names:
            options.highlighted = names.index(self.selected)
        elif self.selected is None and not names:
            options.highlighted = 0

    def _current(self) -> Member | None:
        options = self.query_one("#party-list", OptionList)
        if options.highlighted is None:
            return None
        option = options.get_option_at_index(options.highlighted)
        return self.state.member(option.id) if option.id and option.id != ADD else None

    def _answer(self, command: str | None) -> None:
        if command is not None:
            self.dismiss(command)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter: correct the member, or add one."""
        event.stop()
        if event.option.id == ADD:
            self.action_add()
        else:
            self.action_edit()

    def action_add(self) -> None:
        """Open the form for a new member."""
        self.app.push_screen(MemberForm(self.state, self.procedure), self._answer)

    def action_edit(self) -> None:
        """Open the form for the highlighted member."""
        member = self._current()
        if member is not None:
            self.app.push_screen(MemberForm(self.state, self.procedure, member), self._answer)

    def action_hp(self) -> None:
        """Change the highlighted member's hit points."""
        member = self._current()
        if member is None:
            return

        def answered(amount: str | None) -> None:
            if amount is not None:
                self.dismiss(shlex.join(["pc", member.name, f"hp={amount}"]))

        self.app.push_screen(
            AskScreen(
                f"Hit points of {member.name}",
                f"Now {member.hp}/{member.max_hp}. Type -N for damage, +N for healing, N to set.",
                check=check_hp,
            ),
            answered,
        )

    def action_remove(self) -> None:
        """Take the highlighted member out of the party (after asking)."""
        member = self._current()
        if member is None:
            return

        def confirmed(answer: str | None) -> None:
            if answer == "yes":
                self.dismiss(shlex.join(["pc", "remove", member.name]))

        self.app.push_screen(
            ChooseScreen(
                f"Remove {member.name} from the party?",
                [("no", Text("No, keep them")), ("yes", Text("Yes, remove them"))],
            ),
            confirmed,
        )

    def action_cancel(self) -> None:
        """Close without changing anything."""
        self.dismiss(None)
