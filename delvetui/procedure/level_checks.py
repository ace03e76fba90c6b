"""The loader's checks of levels with teeth: what a fatigue step or a counter's level adds
to checks and does to movement, and an action's turns rolled when it is taken.

A key of ``[party] fatigue_modifiers`` or ``fatigue_movement`` names a step of the fatigue
ladder, and a key of a counter's ``level_modifiers`` or ``level_movement`` one of its
levels (a misspelt one gets the nearest suggested). An action's ``turns_dice`` rolls at
least one turn and at most an action's most, so a haven of 1d4+1 days is a number of turns
the engine can take.
"""

from __future__ import annotations

from collections.abc import Iterable

from delvetui import dice
from delvetui.errors import DiceError
from delvetui.procedure.bounds import ACTION_TURNS
from delvetui.procedure.effect_kinds import Checks
from delvetui.procedure.model import Action, Procedure
from delvetui.text import suggest


def check_levels(checks: Checks, procedure: Procedure) -> None:
    """Report every level named that the fatigue ladder or a counter does not have, and
    every action's rolled turns that cannot be taken."""
    ladder = procedure.party.fatigue
    for key in ("fatigue_modifiers", "fatigue_movement"):
        _named(checks, f"party.{key}", getattr(procedure.party, key), ladder, "party.fatigue")
    for name, counter in procedure.counters.items():
        for key in ("level_modifiers", "level_movement"):
            given = getattr(counter, key)
            path = f"counters.{name}.{key}"
            if given and not counter.levels:
                checks.problem(
                    path,
                    f"names levels of {counter.label}, which has none: give it levels = "
                    '["low", "high", ...], from min up.',
                )
                continue
            _named(checks, path, given, counter.levels, f"the levels of {counter.label}")
    for name, action in procedure.actions.items():
        if action.turns_dice:
            _rolled_turns(checks, f"actions.{name}.turns_dice", action)
    for name, activity in procedure.activities.items():
        if activity.turns_dice:
            checks.problem(
                f"activities.{name}.turns_dice",
                "an activity takes no time; give turns_dice to an action.",
            )


def _named(
    checks: Checks, path: str, given: Iterable[str], levels: tuple[str, ...], where: str
) -> None:
    for level in given:
        if level not in levels:
            known = ", ".join(levels) or "none"
            checks.problem(
                f"{path}.{level}",
                f"'{level}' is not one of {where} ({known})." + suggest(level, levels),
            )


def _rolled_turns(checks: Checks, path: str, action: Action) -> None:
    """Dice for an action's turns roll 1 to ``ACTION_TURNS`` turns, and never a chance."""
    try:
        rolled = dice.parse(action.turns_dice)
    except DiceError as error:
        checks.problem(path, error.message)
        return
    if rolled.chance is not None:
        checks.problem(path, f"'{action.turns_dice}' is a chance; give dice such as 1d4+1.")
    elif rolled.minimum < 1 or rolled.maximum > ACTION_TURNS:
        checks.problem(
            path,
            f"{rolled.text} rolls {rolled.minimum} to {rolled.maximum} turns; an action takes "
            f"1 to {ACTION_TURNS} turns.",
        )
