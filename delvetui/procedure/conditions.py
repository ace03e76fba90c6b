"""The loader's checks of a ``when`` condition, one entry per key.

``CHECKS`` names every key of ``Condition`` (``procedure/model.py``), in the order the
loader reports problems, with its check beyond the key's type, or None where the type is
the whole check (a number, a yes or no, free words). Its test and its words at play are
the same key's entry in ``delvetui.core.when.KEYS``; ``tests/test_when_keys.py`` keeps the
two tables and the fields of ``Condition`` one set of names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from delvetui.procedure.effect_kinds import Checks
from delvetui.procedure.model import Condition
from delvetui.procedure.tree import FREE_INPUTS
from delvetui.text import suggest

#: A key's check: the checker, the key path of the condition, the condition.
Check = Callable[[Checks, str, Condition], None]

LIGHT_LEVELS = ("bright", "dim", "dark")


def check_condition(checks: Checks, path: str, condition: Condition) -> None:
    """Every check of the keys the condition gives, each problem at its key path."""
    for key, check in CHECKS.items():
        value: Any = getattr(condition, key)
        if check is not None and value is not None and value != () and value != {}:
            check(checks, path, condition)


def declared_inputs(checks: Checks) -> frozenset[str]:
    """Every input some action or activity declares, and those any turn may be given."""
    p = checks.procedure
    declared = {
        key
        for group in (p.actions, p.activities)
        for action in group.values()
        for key in action.inputs
    }
    return frozenset(declared | FREE_INPUTS)


def _inputs(checks: Checks, path: str, condition: Condition) -> None:
    declared = declared_inputs(checks)
    for key in condition.inputs:
        if key not in declared:
            known = ", ".join(sorted(declared - FREE_INPUTS)) or "none are declared"
            checks.advice(
                f"{path}.inputs.{key}",
                f"names the input '{key}', which no action or activity declares "
                f"({known}); declare it under [actions.ID.inputs.{key}]."
                + suggest(key, sorted(declared)),
            )


def _streak(checks: Checks, path: str, condition: Condition) -> None:
    if condition.streak is not None and condition.streak < 1:
        checks.problem(f"{path}.streak", "should be at least 1.")


def _counters(key: str) -> Check:
    def check(checks: Checks, path: str, condition: Condition) -> None:
        for name in getattr(condition, key):
            checks.ref(path, name, checks.procedure.counters, "counter")

    return check


def _counter_levels(checks: Checks, path: str, condition: Condition) -> None:
    for name, levels in condition.counter_levels.items():
        found = checks.procedure.counters.get(name)
        if found is None:
            checks.ref(f"{path}.counter_levels", name, checks.procedure.counters, "counter")
            continue
        for level in levels:
            if found.value_of(level) is None:
                known = ", ".join(found.levels) or "it names no levels"
                checks.problem(
                    f"{path}.counter_levels.{name}",
                    f"'{level}' is not a level of {found.label} ({known})."
                    + suggest(level, found.levels),
                )


def _light_levels(key: str) -> Check:
    def check(checks: Checks, path: str, condition: Condition) -> None:
        for level in getattr(condition, key):
            if level not in LIGHT_LEVELS:
                checks.problem(f"{path}.{key}", f"'{level}' is not bright, dim or dark.")

    return check


def _time_of_day(checks: Checks, path: str, condition: Condition) -> None:
    quarters = checks.procedure.time.quarters
    for part in condition.time_of_day:
        if part not in quarters:
            known = ", ".join(dict.fromkeys(quarters))
            checks.problem(
                f"{path}.time_of_day",
                f"'{part}' is not a part of the day; use one of the [time] quarters "
                f"({known})." + suggest(part, list(quarters)),
            )


def _tracks(key: str) -> Check:
    def check(checks: Checks, path: str, condition: Condition) -> None:
        for name in getattr(condition, key):
            checks.ref(f"{path}.{key}", name, checks.procedure.tracks, "track")

    return check


def _abilities(key: str) -> Check:
    def check(checks: Checks, path: str, condition: Condition) -> None:
        abilities = {name.upper(): name for name in checks.procedure.party.abilities}
        for name in getattr(condition, key):
            best = key.startswith("member_modifier") and name.lower() == "best"
            if abilities and not best and name.upper() not in abilities:
                checks.problem(
                    f"{path}.{key}",
                    f"'{name}' is not one of party.abilities ({', '.join(abilities)})."
                    + suggest(name.upper(), list(abilities)),
                )

    return check


def _resources(key: str, per: str, hint: str) -> Check:
    """A resource test's names: resources kept ``per`` member or party; the other kind is
    pointed at the key that tests it (``hint``)."""

    def check(checks: Checks, path: str, condition: Condition) -> None:
        p = checks.procedure
        wanted = {name: r for name, r in p.resources.items() if r.per == per}
        other = {name: r for name, r in p.resources.items() if r.per != per}
        for name in getattr(condition, key):
            if name in other:
                whose = "each member's own" if per == "party" else "the party's stock"
                checks.problem(
                    f"{path}.{key}", f"'{name}' is {whose}; test it with {hint} instead."
                )
            else:
                what = "member resource" if per == "member" else "party resource"
                checks.ref(f"{path}.{key}", name, wanted, what)

    return check


#: Every key of a ``when`` condition, in the order problems are reported, and its check.
CHECKS: dict[str, Check | None] = {
    "inputs": _inputs,
    "streak": _streak,
    "counter_at_least": _counters("counter_at_least"),
    "counter_at_most": _counters("counter_at_most"),
    "counter_levels": _counter_levels,
    "light_levels": _light_levels("light_levels"),
    "member_light_levels": _light_levels("member_light_levels"),
    "time_of_day": _time_of_day,
    "member_track_at_least": _tracks("member_track_at_least"),
    "member_track_at_most": _tracks("member_track_at_most"),
    "member_ability_at_least": _abilities("member_ability_at_least"),
    "member_ability_at_most": _abilities("member_ability_at_most"),
    "member_modifier_at_least": _abilities("member_modifier_at_least"),
    "member_modifier_at_most": _abilities("member_modifier_at_most"),
    "member_resource_at_least": _resources(
        "member_resource_at_least", "member", "resource_at_least"
    ),
    "member_resource_at_most": _resources("member_resource_at_most", "member", "resource_at_most"),
    "resource_at_least": _resources("resource_at_least", "party", "member_resource_at_least"),
    "resource_at_most": _resources("resource_at_most", "party", "member_resource_at_most"),
    # Their type is their whole check.
    "first_turns": None,
    "after_turns": None,
    "resting": None,
    "day_ends": None,
    "first_turn_of_day": None,
    "flags": None,
    "not_flags": None,
    "by": None,
    "hp_at_least": None,
    "hp_at_most": None,
    "member_conditions": None,
    "member_not_conditions": None,
    "member_carries_light": None,
}
