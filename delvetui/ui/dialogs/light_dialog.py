"""The lights dialog: light, put out, hand over, correct or add a light source.

It answers with the commands to run (``LightOn("torch2")``, or a refuel and then a light);
the app runs them.
"""

from __future__ import annotations

import shlex
from typing import ClassVar

import attrs
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from delvetui.application.dry_run import refusal
from delvetui.core import commands as cmd
from delvetui.core.light_order import in_order, numbered
from delvetui.core.state import Light
from delvetui.errors import CommandError
from delvetui.procedure.model import USAGE_DICE
from delvetui.text import countdown, plural, time_left, visible
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.list_dialog import ADD, ItemDialog


def whole_number(text: str) -> str | None:
    """None for a whole number 0-9999, else what is wrong."""
    if not text.isdigit() or int(text) > 9999:
        return "Type a whole number (0 or more)."
    return None


class LightDialog(ItemDialog):
    """Choose a light and what to do with it; answers with a command."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "switch", "Light / put out"),
        Binding("g", "give", "Hand over"),
        Binding("t", "set_time", "Set turns left"),
        Binding("d", "set_die", "Set the usage die"),
        Binding("f", "refuel", "Refuel"),
        Binding("r", "real_time", "Real time"),
        Binding("a", "add", "Add a light"),
    ]
    """Keys for what to do with the highlighted light."""

    LIST_ID = "light-list"

    @property
    def lights(self) -> list[Light]:
        """The lights in the order they were added, as the lights pane numbers them, then
        the spent ones (a lantern can be refuelled)."""
        return [*in_order(self.state), *(light for light in self.state.lights if light.spent)]

    def compose(self) -> ComposeResult:
        """The list of lights and the keys."""
        per_turn = self.procedure.turn_minutes(self.state.turn_type)
        numbers = numbered(self.state)
        width = len(str(len(numbers)))
        options: list[Option] = []
        for light in self.lights:
            kind = self.procedure.lights.get(light.kind)
            row = Text()
            number = numbers.get(light.id)
            row.append(f"{number if number else '':>{width}} ", "bold")
            row.append("○ " if not light.lit else "◐ " if light.state == "dim" else "● ")
            row.append(visible(light.id))
            if light.count > 1:
                row.append(f" ×{light.count}")
            row.append(f"  {kind.label if kind else light.kind}")
            row.append(f"  {visible(light.carrier or 'nobody')}")
            if light.spent:
                row.append("  spent", "dim")
                if kind is not None and kind.refuels:
                    row.append(" (f refuels)", "dim")
            else:
                row.append(f"  {light.state if light.lit else 'unlit'}")
            if light.real_seconds is not None and not light.spent:
                row.append(f"  {countdown(light.real_seconds)} real time left")
            elif light.minutes is not None and not light.spent:
                unit = self.procedure.turn_name(self.state.turn_type)
                row.append(f"  {time_left(light.minutes, per_turn, unit)} left")
            elif light.usage_die is not None and not light.spent:
                row.append(f"  usage die d{light.usage_die}")
            options.append(Option(row, id=light.id))
        options.append(Option(Text("+ Add a light…"), id=ADD))
        yield from self.framed("Lights", options, self.hint(self._first()))

    def _first(self) -> Light | None:
        """The light highlighted when the dialog opens."""
        lights = self.lights
        chosen = self.state.light(self.selected) if self.selected else None
        return chosen if chosen in lights else (lights[0] if lights else None)

    def counts_die(self, light: Light) -> bool:
        """True when the light burns down on a usage die (its die is what is corrected)."""
        kind = self.procedure.lights.get(light.kind)
        die = light.usage_die is not None or (kind is not None and kind.usage_die is not None)
        return die and light.minutes is None

    def hint(self, light: Light | None) -> str:
        """The keys for the highlighted light: t for a light that counts turns, d for one
        that burns down on a usage die."""
        correct = "d set the usage die" if light and self.counts_die(light) else "t set turns left"
        return (
            f"enter light or put out · g hand over · {correct} · f refuel (a spent one too) · "
            "r real time · a add · a digit picks that light · esc close"
        )

    def on_key(self, event: events.Key) -> None:
        """A digit picks the light of that number (the lights pane's), as in every light
        picker; what to do with it is the next key."""
        character = event.character or ""
        if len(character) != 1 or not character.isdigit():
            return
        event.stop()
        event.prevent_default()  # the digit is this dialog's: the list's own keys wait
        found = [light.id for light in in_order(self.state)]
        number = int(character)
        if not 1 <= number <= len(found):
            self.say(f"There is no light {number}: the lights are numbered 1 to {len(found)}.")
            return
        self.options.highlighted = number - 1

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Offer the keys that fit the light now highlighted."""
        hint = self.query_one(".dialog-hint", Static)
        hint.update(Text(self.hint(self._current())))
        hint.remove_class("-error")

    def on_mount(self) -> None:
        """Focus the list on the chosen light."""
        self.focus_list([light.id for light in self.lights], self.selected)

    def _current(self) -> Light | None:
        found = self.current_id()
        return None if found is None else self.state.light(found)

    def action_enter(self) -> None:
        """Enter: light an unlit light, put out a lit one."""
        self.action_switch()

    def action_switch(self) -> None:
        """Light the highlighted light (asking who carries it), or put it out."""
        light = self._current()
        if light is None:
            return
        if light.spent:
            self.action_refuel()
            return
        if light.lit:
            self.dismiss((cmd.LightOff(target=light.id),))
            return
        if light.carrier or len(self.state.party) < 2:
            self.dismiss((cmd.LightOn(target=light.id),))
            return
        self.answer_after(
            ChooseScreen(f"Who carries {light.id}?", self._carriers()),
            lambda name: (cmd.LightOn(target=light.id, carrier=name or None),),
        )

    def _carriers(self) -> list[tuple[str, RenderableType]]:
        """The members to choose from as a carrier, and nobody."""
        choices: list[tuple[str, RenderableType]] = [
            (m.name, Text(f"{visible(m.name)}  {m.hp}/{m.max_hp} HP")) for m in self.state.party
        ]
        choices.append(("", Text("nobody")))
        return choices

    def action_give(self) -> None:
        """Hand the highlighted light to another member."""
        light = self._current()
        if light is None:
            return
        choices = [(m.name, Text(visible(m.name))) for m in self.state.party]
        choices.append(("nobody", Text("nobody (set it down)")))
        self.answer_after(
            ChooseScreen(f"Hand {light.id} to", choices, selected=light.carrier),
            lambda name: (
                cmd.HandLight(target=light.id, carrier=None if name == "nobody" else name),
            ),
        )

    def action_set_time(self) -> None:
        """Correct the turns the highlighted light has left (a light that counts turns)."""
        light = self._current()
        if light is None:
            return
        if self.counts_die(light):
            self.say(f"{light.id} burns down on its usage die, not by turns: d sets its die.")
            return
        per_turn = self.procedure.turn_minutes(self.state.turn_type)
        now = "" if light.minutes is None else str(-(-light.minutes // per_turn))
        self.answer_after(
            AskScreen(
                f"Turns left for {light.id}",
                "How many turns does it have left? The change shows in the log.",
                value=now,
                check=whole_number,
            ),
            lambda turns: (cmd.SetLight(target=light.id, turns=int(turns)),),
        )

    def action_set_die(self) -> None:
        """Correct the usage die of the highlighted light (a light that burns down on one)."""
        light = self._current()
        if light is None:
            return
        if not self.counts_die(light):
            self.say(f"{light.id} has no usage die: it counts its time left; t sets that.")
            return
        sizes = [(str(size), Text(f"d{size}")) for size in reversed(USAGE_DICE)]
        now = None if light.usage_die is None else str(light.usage_die)
        self.answer_after(
            ChooseScreen(f"Usage die of {light.id}", sizes, selected=now),
            lambda size: (cmd.SetLight(target=light.id, die=int(size)),),
        )

    def action_real_time(self) -> None:
        """Let the highlighted light burn in real time (60m, 1h30m), or by turns again (off)."""
        light = self._current()
        if light is None or light.spent:
            return
        now = "" if light.real_seconds is None else countdown_words(light.real_seconds)
        self.answer_after(
            AskScreen(
                f"Real time for {light.id}",
                "How long it burns in real time while the table is open (60m, 1h30m, 90s), "
                "or off to burn by turns again. b on the table pauses every real-time light.",
                value=now or "60m",
                check=lambda text: check_real_time(light.id, text),
            ),
            lambda text: (cmd.parse(real_time_line(light.id, text)),),
        )

    def action_refuel(self) -> None:
        """Refuel the highlighted light (a lantern's flask of oil), and offer to light it."""
        light = self._current()
        if light is None:
            return
        kind = self.procedure.lights.get(light.kind)
        if kind is None or not kind.refuels:
            spent = " A spent one is gone." if light.spent else ""
            self.say(f"A {light.kind} cannot be refuelled.{spent}")
            return
        refuel = cmd.RefuelLight(target=light.id)
        # Refused for want of oil (or the like): said at once, before anything is asked.
        problem = refusal(self.state, self.procedure, refuel)
        if problem is not None:
            self.say(problem)
            return
        if light.lit:
            self.dismiss((refuel,))
            return
        label = kind.refuel_label or "refuel"
        self.answer_after(
            ChooseScreen(
                f"Refuel {light.id} ({label})",
                [
                    ("relight", Text(f"Refuel and light it ({light.carrier or 'nobody'})")),
                    ("refuel", Text("Refuel, leave it unlit")),
                ],
                hint="esc: neither",
            ),
            lambda answer: (
                (refuel, cmd.LightOn(target=light.id)) if answer == "relight" else (refuel,)
            ),
        )

    def action_add(self) -> None:
        """Add light sources: kind, how many, who carries them."""
        kinds = [
            (kind_id, Text(f"{kind.label}  ({kind.brightness})  {kind.text}"))
            for kind_id, kind in self.procedure.lights.items()
        ]
        if not kinds:
            self.say("This procedure has no light sources.")
            return

        def kind_chosen(kind: str | None) -> None:
            if kind is None:
                return

            # "How many torches?": the kind's own name, made plural.
            label = plural(self.procedure.lights[kind].label.lower())

            def counted(count: str | None) -> None:
                if count is None:
                    return
                add = cmd.AddLight(kind=kind, count=int(count))
                if not self.state.party:
                    self.dismiss((add,))
                    return
                carriers = self._carriers()

                def carried(name: str | None) -> None:
                    if name is None:
                        return
                    self.dismiss((attrs.evolve(add, carrier=name or None),))

                self.app.push_screen(ChooseScreen("Who carries them?", carriers), carried)

            self.app.push_screen(
                AskScreen("How many?", f"How many {label}?", value="1", check=_count), counted
            )

        self.app.push_screen(ChooseScreen("Add which light?", kinds), kind_chosen)


def countdown_words(seconds: int) -> str:
    """Seconds as the command language writes a span of time: 42m17s, 1h5m."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{hours}h" if hours else "",
        f"{minutes}m" if minutes else "",
        f"{secs}s" if secs else "",
    ]
    return "".join(parts) or "0s"


def real_time_line(light_id: str, text: str) -> str:
    """The line ``light realtime ID TEXT`` with what the game master typed for the time."""
    return shlex.join(["light", "realtime", light_id, text.strip()])


def check_real_time(light_id: str, text: str) -> str | None:
    """None when ``light realtime ID TEXT`` is a command of the language, else what is wrong."""
    try:
        cmd.parse(real_time_line(light_id, text))
    except CommandError as error:
        return error.message
    return None


def _count(text: str) -> str | None:
    if not text.isdigit() or not 1 <= int(text) <= 999:
        return "Type a number from 1 to 999."
    return None
