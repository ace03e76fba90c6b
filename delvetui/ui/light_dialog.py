"""The lights dialog: light, put out, hand over, correct or add a light source.

It answers with one command of the command language (``light on torch2``); the app runs it.
"""

from __future__ import annotations

import shlex
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from delvetui.core.state import Light, State
from delvetui.procedure.model import Procedure
from delvetui.ui.ask import AskScreen
from delvetui.ui.choose import ChooseScreen

ADD = "+add"


def whole_number(text: str) -> str | None:
    """None for a whole number 0-9999, else what is wrong."""
    if not text.isdigit() or int(text) > 9999:
        return "Type a whole number (0 or more)."
    return None


class LightDialog(ModalScreen[str | None]):
    """Choose a light and what to do with it; answers with a command."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"),
        Binding("o", "switch", "Light / put out"),
        Binding("g", "give", "Hand over"),
        Binding("t", "set_time", "Set turns left"),
        Binding("f", "refuel", "Refuel"),
        Binding("a", "add", "Add a light"),
    ]
    """Keys for what to do with the highlighted light."""

    def __init__(self, state: State, procedure: Procedure, *, selected: str | None = None) -> None:
        super().__init__()
        self.state = state
        self.procedure = procedure
        self.selected = selected

    @property
    def lights(self) -> list[Light]:
        """The lights that can still be used."""
        return [light for light in self.state.lights if not light.spent]

    def compose(self) -> ComposeResult:
        """The list of lights and the keys."""
        per_turn = self.procedure.turn_minutes(self.state.turn_type)
        options: list[Option] = []
        for light in self.lights:
            kind = self.procedure.lights.get(light.kind)
            row = Text()
            row.append("● " if light.lit else "○ ")
            row.append(f"{light.id}")
            if light.count > 1:
                row.append(f" ×{light.count}")
            row.append(f"  {kind.label if kind else light.kind}")
            row.append(f"  {light.carrier or 'nobody'}")
            row.append(f"  {light.state if light.lit else 'unlit'}")
            if light.minutes is not None:
                row.append(f"  {-(-light.minutes // per_turn)} turns left")
            options.append(Option(row, id=light.id))
        options.append(Option(Text("+ Add a light…"), id=ADD))
        with Vertical(classes="dialog"):
            yield Static(Text("Lights"), classes="dialog-title")
            yield OptionList(*options, id="light-list")
            yield Static(
                Text(
                    "enter light or put out · g hand over · t set turns left · "
                    "f refuel · a add · esc close"
                ),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        """Focus the list on the chosen light."""
        options = self.query_one("#light-list", OptionList)
        options.focus()
        ids = [light.id for light in self.lights]
        if self.selected in ids:
            options.highlighted = ids.index(self.selected)

    def _current(self) -> Light | None:
        options = self.query_one("#light-list", OptionList)
        if options.highlighted is None:
            return None
        option = options.get_option_at_index(options.highlighted)
        return self.state.light(option.id) if option.id and option.id != ADD else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter: light an unlit light, put out a lit one, or add one."""
        event.stop()
        if event.option.id == ADD:
            self.action_add()
        else:
            self.action_switch()

    def action_switch(self) -> None:
        """Light the highlighted light, or put it out."""
        light = self._current()
        if light is not None:
            verb = "off" if light.lit else "on"
            self.dismiss(shlex.join(["light", verb, light.id]))

    def action_give(self) -> None:
        """Hand the highlighted light to another member."""
        light = self._current()
        if light is None:
            return
        choices = [(m.name, Text(m.name)) for m in self.state.party]
        choices.append(("nobody", Text("nobody (set it down)")))

        def chosen(name: str | None) -> None:
            if name is not None:
                self.dismiss(shlex.join(["light", "give", light.id, name]))

        self.app.push_screen(
            ChooseScreen(f"Hand {light.id} to", choices, selected=light.carrier), chosen
        )

    def action_set_time(self) -> None:
        """Correct the turns the highlighted light has left."""
        light = self._current()
        if light is None:
            return
        per_turn = self.procedure.turn_minutes(self.state.turn_type)
        now = "" if light.minutes is None else str(-(-light.minutes // per_turn))

        def answered(turns: str | None) -> None:
            if turns is not None:
                self.dismiss(shlex.join(["light", "set", light.id, f"turns={turns}"]))

        self.app.push_screen(
            AskScreen(
                f"Turns left for {light.id}",
                "How many turns does it have left? The change shows in the log.",
                value=now,
                check=whole_number,
            ),
            answered,
        )

    def action_refuel(self) -> None:
        """Refuel the highlighted light (a lantern's flask of oil)."""
        light = self._current()
        if light is None:
            return
        kind = self.procedure.lights.get(light.kind)
        if kind is None or kind.refuel_hours is None:
            self.notify(f"A {light.kind} cannot be refuelled.", severity="warning", markup=False)
            return
        self.dismiss(shlex.join(["light", "refuel", light.id]))

    def action_add(self) -> None:
        """Add light sources: kind, how many, who carries them."""
        kinds = [
            (kind_id, Text(f"{kind.label}  ({kind.brightness})  {kind.text}"))
            for kind_id, kind in self.procedure.lights.items()
        ]
        if not kinds:
            self.notify("This procedure has no light sources.", severity="warning")
            return

        def kind_chosen(kind: str | None) -> None:
            if kind is None:
                return

            def counted(count: str | None) -> None:
                if count is None:
                    return
                words = ["light", "add", kind, f"count={count}"]
                if not self.state.party:
                    self.dismiss(shlex.join(words))
                    return
                carriers = [(m.name, Text(m.name)) for m in self.state.party]
                carriers.append(("", Text("nobody")))

                def carried(name: str | None) -> None:
                    if name is None:
                        return
                    self.dismiss(shlex.join([*words, f"carrier={name}"] if name else words))

                self.app.push_screen(ChooseScreen("Who carries them?", carriers), carried)

            self.app.push_screen(
                AskScreen("How many?", f"How many {kind}s?", value="1", check=_count), counted
            )

        self.app.push_screen(ChooseScreen("Add which light?", kinds), kind_chosen)

    def action_cancel(self) -> None:
        """Close without doing anything."""
        self.dismiss(None)


def _count(text: str) -> str | None:
    if not text.isdigit() or not 1 <= int(text) <= 999:
        return "Type a number from 1 to 999."
    return None
