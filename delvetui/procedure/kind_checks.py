"""The checks of effect kinds' own keys: a check's bounds from scores (``above``,
``dc_ability``), a choice among consequences (``choose``) and an amount named, not written
(``amount = "harshness"``). Kept apart from ``effect_kinds``, which declares every kind and
attaches these by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui.text import suggest

if TYPE_CHECKING:
    from delvetui.procedure.effect_kinds import Checks
    from delvetui.procedure.model import Effect


def check_bounds(checks: Checks, effect: Effect, path: str) -> None:
    """A check whose bounds come from the member's scores: rolled under one (``above``),
    or against a DC that is one (``dc_ability``)."""
    rolled_under(checks, effect, path)
    if not effect.dc_ability:
        return
    abilities = {name.upper() for name in checks.procedure.party.abilities}
    if effect.dc_ability.upper() not in abilities:
        known = ", ".join(checks.procedure.party.abilities) or "none"
        checks.problem(
            f"{path}.dc_ability",
            f"'{effect.dc_ability}' is not one of the party's abilities ({known}).",
        )
    if effect.above is not None:
        checks.problem(f"{path}.dc_ability", "a check rolled under a score has no DC.")
    if effect.target == "party":
        checks.problem(f"{path}.target", "a DC from a member's score is a check by members.")


def rolled_under(checks: Checks, effect: Effect, path: str) -> None:
    """A check rolled under a score names the ability it is rolled under."""
    if effect.above is not None and not effect.ability:
        checks.problem(
            f"{path}.above",
            "a check rolled under a score needs 'ability', the score it is rolled under.",
        )
    if effect.above is not None and effect.ability.lower() == "best":
        checks.problem(f"{path}.ability", "a check rolled under a score names one ability.")
    if effect.above is not None and effect.target == "party":
        checks.problem(f"{path}.target", "a check rolled under a score is made by members.")


def choices_offered(checks: Checks, effect: Effect, path: str) -> None:
    """A choice offers two or more options, each a word typed as ID=OPTION, none twice."""
    if len(effect.options) < 2:
        checks.problem(f"{path}.options", "a choice needs at least two options.")
    folded = [option.casefold() for option in effect.options]
    for option in effect.options:
        if not option or any(char.isspace() or char in "=," for char in option):
            checks.problem(
                f"{path}.options",
                f"'{option}' cannot be typed as {effect.id}={option}: an option is one word.",
            )
        elif folded.count(option.casefold()) > 1:
            checks.problem(f"{path}.options", f"'{option}' is given twice.")


def named_amount(checks: Checks, effect: Effect, path: str) -> None:
    """An amount named, not written: a counter, or an input some action or activity
    declares as a number; never both."""
    if not isinstance(effect.amount, str):
        return
    name = effect.amount
    procedure = checks.procedure
    numbers = {
        key: given
        for group in (procedure.actions, procedure.activities)
        for action in group.values()
        for key, given in action.inputs.items()
        if given.number
    }
    if name in procedure.counters and name in numbers:
        checks.problem(
            f"{path}.amount",
            f"names both the counter '{name}' and the input '{name}'; rename one, so the "
            "amount says which it is.",
        )
    elif name not in procedure.counters and name not in numbers:
        known = sorted({*procedure.counters, *numbers})
        checks.problem(
            f"{path}.amount",
            f"names '{name}', which is neither a counter nor a number input of an action "
            f"or activity ({', '.join(known) or 'none are declared'}); give a whole number, "
            "a counter's id or such an input's name." + suggest(name, known),
        )
