"""What the list dialogs share: one option list, Enter to choose, Escape to close.

:class:`ListDialog` is the base of the chooser, the action dialog and the lights and party
dialogs; :class:`ItemDialog` adds what the lights and party dialogs share on top (a list
of the expedition's lights or members with "+ Add…" last, and keys for the highlighted one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.visual import VisualType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from delvetui.core.commands import Command
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import visible

_Answer = TypeVar("_Answer")
_Value = TypeVar("_Value")

#: The id of the "+ Add…" option at the end of an item dialog's list.
ADD = "+add"
#: The keys that choose the first ten options of a quick list, in order.
DIGITS = "1234567890"


class Choices(OptionList):
    """An option list whose cursor stops at the ends instead of wrapping around."""

    def _step(self, direction: int) -> None:
        index = self.highlighted
        if index is None:
            index = -1 if direction > 0 else self.option_count
        index += direction
        while 0 <= index < self.option_count:
            if not self.get_option_at_index(index).disabled:
                self.highlighted = index
                return
            index += direction

    def action_cursor_up(self) -> None:
        """Up to the previous option; the first one stays put."""
        self._step(-1)

    def action_cursor_down(self) -> None:
        """Down to the next option; the last one stays put."""
        self._step(1)


def numbered(index: int, prompt: RenderableType) -> RenderableType:
    """The option's prompt with its digit in front (the first ten options have one)."""
    if not isinstance(prompt, Text):
        return prompt
    key = DIGITS[index] if index < len(DIGITS) else " "
    return Text.assemble((f"{key} ", "bold"), prompt)


def plain_label(option: Option) -> str:
    """The words of an option, without its digit or marker, for matching typed letters."""
    prompt = option.prompt
    text = prompt.plain if isinstance(prompt, Text) else str(prompt)
    return text.lstrip("0123456789 ▶●◐○+").strip()


class ListDialog(ModalScreen[_Answer | None]):
    """A modal around one option list; Enter answers with the option's id, Escape with None."""

    LIST_ID: ClassVar[str] = "choose-list"
    """The id of the dialog's option list."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Close")]
    """Escape closes without an answer (subclasses add their own keys)."""

    QUICK_KEYS: ClassVar[bool] = True
    """A digit chooses that option; letters choose the one option whose name starts so."""

    _typed = ""
    _keys_said: VisualType = ""

    def framed(
        self, title: str, options: Sequence[Option], hint: str = "", *, wide: bool = False
    ) -> ComposeResult:
        """The dialog's frame: the title, the option list and a line of keys (for compose)."""
        with Vertical(classes="dialog -wide" if wide else "dialog"):
            yield Static(Text(visible(title)), classes="dialog-title")
            yield Choices(*options, id=self.LIST_ID)
            if hint:
                yield Static(Text(hint), classes="dialog-hint")

    def say(self, message: str) -> None:
        """Tell the game master something in the dialog itself, where the keys' line is
        (a notice would sit over the dialog); the next key puts the keys back."""
        found = self.query(".dialog-hint")
        if found:
            hint = found.first(Static)
        else:
            hint = Static(classes="dialog-hint")
            self.query_one(".dialog").mount(hint)
        if not hint.has_class("-error"):
            self._keys_said = hint.content
        hint.update(Text(message))
        hint.add_class("-error")

    def unsay(self) -> None:
        """Put the keys' line back where ``say`` said something."""
        for hint in self.query(".dialog-hint.-error").results(Static):
            hint.update(self._keys_said)
            hint.remove_class("-error")

    @property
    def options(self) -> OptionList:
        """The dialog's option list."""
        return self.query_one(f"#{self.LIST_ID}", OptionList)

    def focus_list(self, ids: Sequence[str], selected: str | None) -> None:
        """Focus the list, highlighting ``selected`` when it is one of ``ids``."""
        options = self.options
        options.focus()
        if selected is not None and selected in ids:
            options.highlighted = list(ids).index(selected)

    def highlighted_id(self) -> str | None:
        """The id of the highlighted option (None when nothing is highlighted)."""
        options = self.options
        if options.highlighted is None:
            return None
        return options.get_option_at_index(options.highlighted).id

    def on_key(self, event: events.Key) -> None:
        """A digit or the first letters of an option's name choose it (quick lists only)."""
        if not self.is_mounted:
            return
        self.unsay()
        if not self.QUICK_KEYS:
            return
        character = event.character or ""
        options = self.options
        if len(character) != 1 or not character.isprintable() or character == " ":
            return
        if character in DIGITS:
            index = DIGITS.index(character)
            if index < options.option_count and options.get_option_at_index(index).disabled:
                event.stop()
                self._greyed(options.get_option_at_index(index))
            elif index < options.option_count:
                event.stop()
                options.highlighted = index
                self.chosen(options.get_option_at_index(index).id)
            return
        if not character.isalpha():
            return
        event.stop()
        typed = f"{self._typed}{character}".casefold()
        matches = self._starting(typed)
        if not matches:
            typed = character.casefold()
            matches = self._starting(typed)
        self._typed = typed if matches else ""
        if not matches:
            greyed = self._starting(character.casefold(), disabled=True)
            if greyed:
                self._greyed(options.get_option_at_index(greyed[0]))
            else:
                self.say(f"No choice starts with '{visible(character)}'.")
            return
        options.highlighted = matches[0]
        if len(matches) == 1:
            self.chosen(options.get_option_at_index(matches[0]).id)

    def _starting(self, typed: str, *, disabled: bool = False) -> list[int]:
        options = self.options
        return [
            index
            for index in range(options.option_count)
            if options.get_option_at_index(index).disabled == disabled
            and plain_label(options.get_option_at_index(index)).casefold().startswith(typed)
        ]

    def _greyed(self, option: Option) -> None:
        """A greyed choice was typed: say so (its reason is written under it)."""
        name = plain_label(option).splitlines()[0].strip().split("  ")[0]
        self.say(f"{name} cannot be chosen now (the reason is under it).")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click chooses the option."""
        event.stop()
        self.chosen(event.option.id)

    def chosen(self, option_id: str | None) -> None:
        """An option was chosen (each dialog says what it answers)."""
        raise NotImplementedError

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.dismiss(None)


class PickDialog(ListDialog[str]):
    """A list dialog that answers with the id of the option chosen."""

    def chosen(self, option_id: str | None) -> None:
        """An option was chosen: answer with its id (a subclass may do more)."""
        self.dismiss(option_id)


#: What a dialog on the expedition's items answers: the commands to run, in order.
Commands = tuple[Command, ...]


class ItemDialog(ListDialog[Commands]):
    """Choose one of the expedition's lights or members (or add one); answers with commands."""

    QUICK_KEYS = False  # its letters are keys for what to do with the highlighted item

    def __init__(self, state: State, procedure: Procedure, *, selected: str | None = None) -> None:
        super().__init__()
        self.state = state
        self.procedure = procedure
        self.selected = selected

    def current_id(self) -> str | None:
        """The id of the highlighted item (None for "+ Add…" or nothing)."""
        found = self.highlighted_id()
        return found if found and found != ADD else None

    def answer_after(
        self, question: ModalScreen[_Value | None], command: Callable[[_Value], Commands]
    ) -> None:
        """Ask a further question; answer with the commands made of its answer (if any)."""

        def answered(value: _Value | None) -> None:
            if value is not None:
                self.dismiss(command(value))

        self.app.push_screen(question, answered)

    def chosen(self, option_id: str | None) -> None:
        """Enter: add on "+ Add…", else the dialog's main change of the highlighted item."""
        if option_id == ADD:
            self.action_add()
        else:
            self.action_enter()

    def action_add(self) -> None:
        """Add an item (each dialog says how)."""
        raise NotImplementedError

    def action_enter(self) -> None:
        """What Enter does with the highlighted item (each dialog says what)."""
        raise NotImplementedError
