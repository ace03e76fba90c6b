"""The loader's checks of the rules about members: declared conditions and check kinds.

A ``[conditions.ID]`` section must give a duration the engine knows and a movement factor
that slows (0 to 1). A kind of check named in a light level's or a condition's
``check_modes`` may be one no check of the procedure names (a reminder for checks rolled
at the table, such as attacks), but one that is a near miss of a kind a check does name
is a typing mistake and is reported.
"""

from __future__ import annotations

from collections.abc import Mapping

from delvetui.procedure.effect_kinds import Checks, duration_problem
from delvetui.procedure.model import LightKind, Procedure
from delvetui.procedure.tree import walk_effects
from delvetui.text import closest


def check_member_rules(checks: Checks, procedure: Procedure) -> None:
    """Report every problem of the declared conditions and of the check kinds' modes."""
    named = sorted({effect.check_kind for _, effect in walk_effects(procedure)} - {""})
    for name, level in procedure.light_levels.items():
        _kinds(checks, f"light_levels.{name}.check_modes", level.check_modes, named)
        _kinds(checks, f"light_levels.{name}.check_modifiers", level.check_modifiers, named)
    for name, condition in procedure.conditions.items():
        path = f"conditions.{name}"
        if not name.strip() or ":" in name or " " in name:
            checks.problem(path, f"'{name}' should be one word without ':', e.g. 'poisoned'.")
        key, problem = duration_problem(condition.turns, condition.until)
        if problem:
            checks.problem(f"{path}.{key}" if key else path, problem)
        _kinds(checks, f"{path}.check_modes", condition.check_modes, named)
        _kinds(checks, f"{path}.check_modifiers", condition.check_modifiers, named)
        _sight(checks, f"{path}.sight", condition.sight)


def _sight(checks: Checks, path: str, sight: Mapping[str, str]) -> None:
    """A condition's sight lifts a light level to a brighter one, each a level's name."""
    levels = ("dark", "dim", "bright")
    for given, seen in sight.items():
        if given not in levels or seen not in levels:
            checks.problem(f"{path}.{given}", "names a light level: use bright, dim or dark.")
        elif levels.index(seen) <= levels.index(given):
            checks.problem(
                f"{path}.{given}",
                f"sees {given} as {seen}, which is no brighter; sight only lifts the light.",
            )


def _kinds(checks: Checks, path: str, modes: Mapping[str, object], named: list[str]) -> None:
    for kind in modes:
        if kind in named:
            continue
        # Only a near miss of a named kind is a mistake; any other kind may be named later.
        close = closest(kind, named, cutoff=0.75)
        if close:
            checks.problem(
                f"{path}.{kind}",
                f"no check names the kind '{kind}' (check_kind); did you mean '{close}'?",
            )


def light_reach(checks: Checks, path: str, light: LightKind) -> None:
    """A light that lights only some members lights at least one; ``dim_for`` counts the
    members beyond those, so it needs ``lights``."""
    if light.dim_for and light.lights is None:
        checks.problem(
            f"{path}.dim_for",
            "counts the members beyond those the light lights: give lights = N too.",
        )
