"""The checks of two effect kinds' own keys: a check's bounds from scores (``above``,
``dc_ability``) and a choice among consequences (``choose``). Kept apart from
``effect_kinds``, which declares every kind and attaches these by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
