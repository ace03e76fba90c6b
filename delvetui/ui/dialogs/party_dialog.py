"""The party dialog: add a member, correct one, change hit points, or remove one.

It answers with the ``pc`` command to run (``EditMember``, ``AddMember``...); the app runs it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets.option_list import Option

from delvetui.core import commands as cmd
from delvetui.core import conditions
from delvetui.core.state import Member
from delvetui.text import visible
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.list_dialog import ADD, ItemDialog
from delvetui.ui.dialogs.member_form import AMOUNT, MemberForm


def check_hp(text: str) -> str | None:
    """None for N, +N or -N; else what is wrong."""
    return None if AMOUNT.match(text) else "Type N, +N or -N (e.g. -2 for two damage)."


class PartyDialog(ItemDialog):
    """Choose a member and what to change; answers with a command."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hp", "Hit points"),
        Binding("e", "edit", "Correct"),
        Binding("a", "add", "Add"),
        Binding("x", "remove", "Remove"),
        Binding("u", "forward", "Forward"),
    ]
    """Keys for what to do with the highlighted member."""

    LIST_ID = "party-list"

    def compose(self) -> ComposeResult:
        """The party and the keys."""
        options: list[Option] = []
        for member in self.state.party:
            row = Text()
            row.append(visible(member.name))
            row.append(f"  {member.hp}/{member.max_hp} HP")
            if member.conditions:
                described = conditions.shown(member, self.state, self.procedure)
                row.append(visible(f"  {', '.join(described)}"))
            options.append(Option(row, id=member.name))
        options.append(Option(Text("+ Add a party member…"), id=ADD))
        yield from self.framed(
            "Party",
            options,
            "enter correct · h hit points · a add · x remove · u forward · esc close",
        )

    def on_mount(self) -> None:
        """Focus the list (on the chosen member; on "+ Add" when there is no one)."""
        names = [member.name for member in self.state.party]
        self.focus_list(names, self.selected)
        if self.selected is None and not names:
            self.options.highlighted = 0

    def _current(self) -> Member | None:
        found = self.current_id()
        return None if found is None else self.state.member(found)

    def action_enter(self) -> None:
        """Enter: correct the member."""
        self.action_edit()

    def action_add(self) -> None:
        """Open the form for a new member."""
        self.answer_after(MemberForm(self.state, self.procedure), lambda command: (command,))

    def action_edit(self) -> None:
        """Open the form for the highlighted member."""
        member = self._current()
        if member is not None:
            self.answer_after(
                MemberForm(self.state, self.procedure, member), lambda command: (command,)
            )

    def action_hp(self) -> None:
        """Change the highlighted member's hit points."""
        member = self._current()
        if member is None:
            return
        self.answer_after(
            AskScreen(
                f"Hit points of {member.name}",
                f"Now {member.hp}/{member.max_hp}. Type -N for damage, +N for healing, N to set.",
                check=check_hp,
            ),
            lambda amount: (cmd.EditMember(name=member.name, hp=cmd.amount("hp", amount)),),
        )

    def action_forward(self) -> None:
        """Move the highlighted member one place forward in the marching order."""
        member = self._current()
        names = [m.name for m in self.state.party]
        if member is None or names.index(member.name) == 0:
            return
        place = names.index(member.name)
        names[place - 1], names[place] = names[place], names[place - 1]
        self.dismiss((cmd.SetMarchingOrder(names=tuple(names)),))

    def action_remove(self) -> None:
        """Take the highlighted member out of the party (after asking)."""
        member = self._current()
        if member is None:
            return

        def confirmed(answer: str | None) -> None:
            if answer == "yes":
                self.dismiss((cmd.RemoveMember(name=member.name),))

        self.app.push_screen(
            ChooseScreen(
                f"Remove {member.name} from the party?",
                [("no", Text("No, keep them")), ("yes", Text("Yes, remove them"))],
            ),
            confirmed,
        )
