"""The fight at the table: foes brought in, the fight begun and its rounds, a foe hurt,
healed or taken out of the fight, a morale check, the fight ended.

The screen holds a ``Fights`` part and hands it the fight's keys (``F``, ``h``, ``M``,
``y``, ``e``) and a click on a foe in the encounter pane. What it asks is typed as the command
language's words ("goblin count=3 hd=1-1", "-4", "down"), checked before the question
closes, and run as the command a game master would type (``foe``, ``fight``, ``round``,
``morale``), so the table and ``delvetui act`` do the same.
"""

from __future__ import annotations

import shlex

from rich.text import Text

from delvetui.ui.table.dialogs import check_command
from delvetui.ui.table.part import Acts

#: What a foe's change is typed as, besides a number: the state it goes to.
STATES = {
    "down": "+down",
    "fled": "+fled",
    "flee": "+fled",
    "surrendered": "+surrendered",
    "surrender": "+surrendered",
    "back": "",
    "up": "-down",
}


def foe_change(name: str, text: str, state: str) -> str:
    """The command for a change typed about a foe: "-4" hurts it, "+2" heals it, "5" sets
    its hit points, "down", "fled" or "surrendered" take it out, "back" brings it back."""
    said = text.strip().lower()
    quoted = shlex.quote(name)
    if said in STATES:
        flag = STATES[said] or {"down": "-down", "fled": "-fled"}.get(state, "-surrendered")
        return f"foe {quoted} {flag}"
    return f"foe {quoted} hp={said}"


class Fights:
    """Opens the fight's questions and runs what they answer."""

    def __init__(self, table: Acts) -> None:
        self.table = table

    def add_foes(self) -> None:
        """Bring foes into the encounter: what they are, how many, their hit points."""
        from delvetui.ui.dialogs.ask import AskScreen

        def answered(text: str | None) -> None:
            if text:
                self.table.run(f"foe add {text}")

        self.table.app.push_screen(
            AskScreen(
                "Foes join the encounter",
                "What they are, then count=N, hp=N (or hd=N to roll them) and morale=N.",
                placeholder="goblin count=3 hd=1-1 morale=7",
                check=lambda text: check_command(f"foe add {text}"),
            ),
            answered,
        )

    def begin(self) -> None:
        """Begin the fight (initiative as the game says; table dice ask for it)."""
        self.table.run("fight")

    def next_round(self) -> None:
        """The fight's next round."""
        self.table.run("round")

    def morale(self) -> None:
        """A morale check of the foes still fighting, called by the game master."""
        self.table.run("morale")

    def end(self) -> None:
        """End the fight; the clock is charged as the game says."""
        self.table.run("fight end")

    def flee(self) -> None:
        """The party flees: what the game's rule needs is asked (the pursuers' speed, the
        chance), or the game master says away or caught where the rule is theirs."""
        from delvetui.core.flight import party_speed, rule_words
        from delvetui.ui.dialogs.ask import AskScreen
        from delvetui.ui.dialogs.choose import ChooseScreen

        procedure = self.table.procedure
        rule = procedure.encounter.flight
        if rule == "save":
            self.table.run("flee")
            return
        if rule == "gm":
            choices = [
                ("away", Text("Away: the party gets away")),
                ("caught", Text("Caught: a pursuit, in rounds")),
            ]

            def chosen(outcome: str | None) -> None:
                if outcome is not None:
                    self.table.run(f"flee {outcome}")

            self.table.app.push_screen(
                ChooseScreen("The party flees", choices, hint="esc: stay"), chosen
            )
            return
        key = "speed" if rule == "faster" else "chance"
        pace = party_speed(self.table.state, procedure)
        said = rule_words(procedure)
        if key == "speed" and pace is not None:
            said = (
                f"the pursuers' speed in {procedure.movement.unit} (the party runs at "
                f"{pace[1]:g}, {pace[0]}'s pace)"
            )
        hint = f"{said[:1].upper()}{said[1:]}; or away, or caught."

        def command(text: str) -> str:
            said = text.strip().lower()
            return f"flee {said}" if said in ("away", "caught") else f"flee {key}={said}"

        def answered(text: str | None) -> None:
            if text:
                self.table.run(command(text))

        self.table.app.push_screen(
            AskScreen(
                "The party flees",
                hint,
                placeholder="90" if key == "speed" else "35",
                check=lambda text: check_command(command(text)),
            ),
            answered,
        )

    def hurt(self, selected: str | None = None) -> None:
        """Choose a foe (the one clicked), then say what happens to it."""
        from delvetui.ui.dialogs.choose import ChooseScreen

        foes = self.table.state.foes
        if not foes:
            self.table.notify("No foe is in the encounter; F brings foes in.")
            return
        if selected is not None or len(foes) == 1:
            self._change(selected or foes[0].name)
            return
        choices = [
            (foe.name, Text(f"{foe.name}  {foe.hp}/{foe.max_hp} HP  {foe.state}")) for foe in foes
        ]
        first = next((foe.name for foe in foes if foe.fighting), None)

        def chosen(name: str | None) -> None:
            if name is not None:
                self._change(name)

        self.table.app.push_screen(
            ChooseScreen("Which foe?", choices, hint="esc: none", selected=first), chosen
        )

    def _change(self, name: str) -> None:
        from delvetui.ui.dialogs.ask import AskScreen

        foe = self.table.state.foe(name)
        if foe is None:
            return

        def answered(text: str | None) -> None:
            if text:
                self.table.run(foe_change(foe.name, text, foe.state))

        self.table.app.push_screen(
            AskScreen(
                f"{foe.name}: {foe.hp}/{foe.max_hp} HP, {foe.state}",
                "-N damage, +N healing, N hit points; or down, fled, surrendered, back.",
                placeholder="-4",
                check=lambda text: check_command(foe_change(foe.name, text, foe.state)),
            ),
            answered,
        )
