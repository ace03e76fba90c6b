"""The form for adding a party member or correcting one; answers with a ``pc`` command."""

from __future__ import annotations

import re
import shlex
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from delvetui.core import commands, conditions
from delvetui.core.state import Member, State
from delvetui.errors import CommandError
from delvetui.procedure.model import Procedure
from delvetui.text import visible
from delvetui.ui.key_footer import KeyFooter

#: A hit point amount as typed: N, +N or -N, up to six digits (the dialogs share it).
AMOUNT = re.compile(r"^[+-]?[0-9]{1,6}$")


def _field_id(ability: str) -> str:
    return "ability-" + re.sub(r"[^A-Za-z0-9_-]", "_", ability)


def _row(label: str, field: Input) -> ComposeResult:
    """A field with its label before it, on one line."""
    with Horizontal(classes="member-row"):
        yield Label(Text(label), classes="member-label")
        yield field


class ConditionList(OptionList):
    """A member's conditions, one an item: Enter or Delete marks the highlighted one to be
    removed on save (and again keeps it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("delete,backspace", "mark", "Remove", show=False),
    ]
    """Delete (or backspace) marks the condition, as Enter does."""

    def __init__(self, shown: list[tuple[str, str]], *, id: str) -> None:
        self.shown = dict(shown)
        """Each condition's name and how it is shown (with what is left of it)."""
        self.removed: set[str] = set()
        """The conditions marked to be removed on save."""
        super().__init__(*(self._option(name) for name in self.shown), id=id, compact=True)

    def _option(self, name: str) -> Option:
        if name in self.removed:
            text = Text(f"✗ {visible(self.shown[name])}  (removed on save)", "strike dim")
        else:
            text = Text(f"● {visible(self.shown[name])}")
        return Option(text, id=name)

    def action_mark(self) -> None:
        """Mark the highlighted condition to be removed (or keep it again)."""
        index = self.highlighted
        if index is None:
            return
        name = self.get_option_at_index(index).id
        if name is None:
            return
        self.removed ^= {name}
        self.replace_option_prompt_at_index(index, self._option(name).prompt)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) marks the condition, as Delete does."""
        event.stop()
        self.action_mark()


#: What the number fields let be typed (anything else does not go in): digits, and a sign
#: in front where a change (+2, -3) or a modifier may be typed.
WHOLE, SIGNED = r"[0-9]*", r"[+-]?[0-9]*"


class MemberForm(ModalScreen[commands.Command | None]):
    """Name, hit points, conditions and the abilities the procedure uses; every problem
    shown inline.

    The fields scroll in the dialog, so every one can be reached by Tab at 80×24; Save and
    Cancel stay in view below them, and the footer shows the keys (ctrl+s saves, as does
    Enter in the last field).
    """

    _opened: list[str] | None = None
    """The fields as the form opened (Escape asks once one has changed)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save"),
    ]
    """Escape cancels, ctrl+s saves (as does Enter in the last field)."""

    def __init__(self, state: State, procedure: Procedure, member: Member | None = None) -> None:
        super().__init__()
        self.state = state
        self.procedure = procedure
        self.member = member

    def compose(self) -> ComposeResult:
        """One labelled field per value, in a scrolling column; the buttons below it."""
        member = self.member
        title = f"Correct {member.name}" if member else "Add a party member"
        abilities = list(self.procedure.party.abilities)
        if member is not None:
            abilities += [name for name, _ in member.abilities if name not in abilities]
        with Vertical(classes="dialog member-form"):
            yield Static(Text(visible(title)), classes="dialog-title")
            with VerticalScroll(id="member-fields", can_focus=False):
                if member is None:
                    yield from _row(
                        "Name",
                        Input(
                            placeholder="e.g. Ash", id="member-name", max_length=40, compact=True
                        ),
                    )
                    yield from _row(
                        "Hit points",
                        Input(
                            str(self.procedure.party.default_hp),
                            id="member-hp",
                            compact=True,
                            restrict=WHOLE,
                            max_length=4,
                        ),
                    )
                else:
                    yield from _row(
                        f"Hit points (now {member.hp}/{member.max_hp}): N, +N or -N",
                        Input(
                            placeholder=f"{member.hp}",
                            id="member-hp",
                            compact=True,
                            restrict=SIGNED,
                            max_length=5,
                        ),
                    )
                    yield from _row(
                        "Maximum hit points",
                        Input(
                            str(member.max_hp),
                            id="member-max",
                            compact=True,
                            restrict=WHOLE,
                            max_length=4,
                        ),
                    )
                    ladder = self.procedure.party.fatigue
                    if len(ladder) > 1:
                        steps = ", ".join(f"{n} {label}" for n, label in enumerate(ladder))
                        yield from _row(
                            f"Fatigue ({steps})",
                            Input(
                                str(member.fatigue),
                                id="member-fatigue",
                                compact=True,
                                restrict=SIGNED,
                                max_length=3,
                            ),
                        )
                    yield Label(
                        "Conditions: enter or delete removes the one highlighted"
                        if member.conditions
                        else "Conditions: none",
                        classes="member-label",
                    )
                    if member.conditions:
                        described = conditions.shown(member, self.state, self.procedure)
                        yield ConditionList(
                            list(zip(member.conditions, described, strict=True)),
                            id="member-conditions",
                        )
                    yield from _row(
                        "Add (poisoned:6 for 6 turns, shaken:rest)",
                        Input(placeholder="a condition", id="member-condition-add", compact=True),
                    )
                if abilities:
                    with Horizontal(classes="abilities"):
                        for ability in abilities:
                            value = member.ability(ability) if member else None
                            with Vertical(classes="ability"):
                                yield Label(Text(ability.upper()))
                                yield Input(
                                    "" if value is None else str(value),
                                    id=_field_id(ability),
                                    compact=True,
                                    restrict=SIGNED,
                                    max_length=4,
                                )
            yield Static("", classes="dialog-hint", id="member-message")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (ctrl+s)", id="member-save", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="member-cancel", compact=True)
        yield KeyFooter(fit=True)

    def on_mount(self) -> None:
        """Focus the first field, and note the fields as they opened (Escape asks once one
        has changed)."""
        self.query(Input).first().focus()
        self._opened = self._typed()

    def _typed(self) -> list[str]:
        return [field.value for field in self.query(Input)]

    def _value(self, field: str) -> str:
        for widget in self.query(f"#{field}").results(Input):
            return widget.value.strip()
        return ""

    def command(self) -> commands.Command | None:
        """The pc command the form adds up to (None: nothing changes).

        What the game master typed in the fields is read by the command language's parser,
        as on the command line; raises CommandError with what is wrong.
        """
        member = self.member
        abilities = list(self.procedure.party.abilities)
        if member is not None:
            abilities += [name for name, _ in member.abilities if name not in abilities]
        pairs: list[str] = []
        for ability in abilities:
            value = self._value(_field_id(ability))
            if not value:
                if member is None:
                    raise CommandError(f"Give {ability.upper()} (a whole number).")
                continue
            if not AMOUNT.match(value):
                raise CommandError(f"{ability.upper()} must be a whole number, not '{value}'.")
            if member is None or member.ability(ability) != int(value):
                pairs.append(f"{ability.lower()}={value}")
        if member is None:
            name = self._value("member-name")
            if not name:
                raise CommandError("Give the member a name.")
            if self.state.member(name) is not None:
                raise CommandError(f"{name} is already in the party; pick another name.")
            hp = self._value("member-hp")
            text = shlex.join(["pc", "add", name, f"hp={hp}", *pairs])
        else:
            words = ["pc", member.name]
            hp = self._value("member-hp")
            if hp:
                words.append(f"hp={hp}")
            top = self._value("member-max")
            if top and top != str(member.max_hp):
                words.append(f"max={top}")
            fatigue = self._value("member-fatigue")
            if fatigue and fatigue != str(member.fatigue):
                words.append(f"fatigue={fatigue}")
            for listed in self.query(ConditionList):
                words += [f"-{name}" for name in member.conditions if name in listed.removed]
            for word in self._value("member-condition-add").split():
                word = word if word[:1] in "+-" else f"+{word}"
                if len(word) < 2:
                    raise CommandError(
                        f"'{word}': type a condition (poisoned, or poisoned:6 for 6 turns)."
                    )
                words.append(word)
            words += pairs
            if len(words) == 2:
                return None
            text = shlex.join(words)
        return commands.parse(text)

    def action_save(self) -> None:
        """Check the form; answer with the command, or show what is wrong."""
        try:
            command = self.command()
        except CommandError as error:
            message = self.query_one("#member-message", Static)
            message.update(Text(error.message))
            message.add_class("-error")
            return
        self.dismiss(command)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves to the next field, and saves from the last."""
        event.stop()
        fields = list(self.query(Input))
        if event.input is fields[-1]:
            self.action_save()
        else:
            fields[fields.index(event.input) + 1].focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Save or Cancel."""
        event.stop()
        if event.button.id == "member-save":
            self.action_save()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        """Close without changing anything; asked first once something was typed."""
        if self._opened is None or self._typed() == self._opened:
            self.dismiss(None)
            return
        from delvetui.ui.dialogs.choose import ChooseScreen

        def answered(answer: str | None) -> None:
            if answer == "leave":
                self.dismiss(None)

        self.app.push_screen(
            ChooseScreen(
                "Leave without saving? What you typed is not kept.",
                [("stay", Text("No, go on with the form")), ("leave", Text("Yes, leave it"))],
                hint="esc: go on with the form",
                selected="stay",
            ),
            answered,
        )
