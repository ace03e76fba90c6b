"""What the table asks while a command runs: a member, a choice, a number, a die.

The core says what a command still needs (``RollNeeded``, ``InputNeeded``); here it
becomes the right question: a picker for a choice among members or values, a field with the
default typed in for an optional number, a roll prompt with the hazard table's rows for a
die. Every question answers None on Escape, and the command then saves nothing.
"""

from __future__ import annotations

from rich.text import Text
from textual.screen import ModalScreen

from delvetui.core.state import State
from delvetui.errors import InputNeeded, RollNeeded
from delvetui.procedure.model import Procedure
from delvetui.procedure.tree import row_range
from delvetui.text import visible
from delvetui.ui.bars import roll_text
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.roll_prompt import RollPrompt, choices_of, is_dice

#: The hint under every picker.
PICK_HINT = "↑↓ and enter, a digit, or the first letters choose · esc cancels (nothing is saved)"


def choices(need: RollNeeded) -> list[str]:
    """The answers a need allows as a list (none when it asks for a number or a die)."""
    if isinstance(need, InputNeeded) and need.choices:
        return list(need.choices)
    if is_dice(need.expression):
        return []
    return choices_of(need.expression)


def table_rows(procedure: Procedure, key: str, turn_type: str) -> list[tuple[str, str]]:
    """The rows of the table a roll is read on in this kind of turn, as (the lowest number,
    the row)."""
    rule = procedure.rolls.get(key)
    table = rule.table_for(turn_type) if rule is not None else ""
    if table not in procedure.tables:
        return []
    rows: list[tuple[str, str]] = []
    for row in procedure.tables[table].rows:
        low, high = row_range(row)
        rows.append((str(low), f"{roll_text(low, high):>5}  {row.label}"))
    return rows


def question(need: RollNeeded, state: State, procedure: Procedure) -> ModalScreen[str | None]:
    """The screen that asks the game master for what the command needs."""
    default = need.default if isinstance(need, InputNeeded) else None
    found = choices(need)
    if found:
        shown: list[tuple[str, Text]] = []
        for choice in found:
            label = Text(visible(choice))
            member = state.member(choice) if need.key.casefold() == "by" else None
            if member is not None:
                label.append(f"  {member.hp}/{member.max_hp} HP", "dim")
            if choice == default:
                label.append("  (default)", "dim")
            shown.append((choice, label))
        return ChooseScreen(need.purpose, shown, hint=PICK_HINT, selected=default)
    rows = table_rows(procedure, need.key, state.turn_type) if is_dice(need.expression) else []
    return RollPrompt(need.key, need.expression, need.purpose, value=default or "", rows=rows)
