"""The loader's check of the ids a game master types as KEY=N.

A roll, a table, a check, a choice or an action's input is typed with its id (``hazard=4``,
``disposition=7``); the program reads some keys itself, whatever the procedure says
(``distance=``, ``usage.ID=``). An id that is one of those would let one typed value feed
both, so it is refused, with its key path.
"""

from __future__ import annotations

from delvetui.procedure.effect_kinds import Checks
from delvetui.procedure.tree import BUILT_IN_KEYS, SHARED_TABLE_KEYS, walk_effects


def own_keys(checks: Checks) -> None:
    """Report each input, roll, table and check whose id is a key the program keeps."""
    p = checks.procedure
    for group in ("actions", "activities"):
        for name, action in getattr(p, group).items():
            for key in action.inputs:
                _own_key(checks, f"{group}.{name}.inputs.{key}", key, "input")
    for name in p.rolls:
        _own_key(checks, f"rolls.{name}", name, "roll")
    for name in p.tables:
        if name.lower() not in SHARED_TABLE_KEYS:
            _own_key(checks, f"tables.{name}", name, "table")
    for ref, effect in walk_effects(p):
        if effect.do in ("check", "choose") and effect.id:
            _own_key(checks, f"{ref}.id", effect.id, "check" if effect.do == "check" else "choice")
        if effect.do == "counter" and effect.dice:
            _own_key(checks, f"{ref}.dice", effect.counter, "counter rolled")
            if effect.counter in p.rolls or effect.counter in p.tables:
                other = "roll" if effect.counter in p.rolls else "table"
                checks.advice(
                    f"{ref}.dice",
                    f"the counter '{effect.counter}' is rolled as {effect.counter}=N, which "
                    f"the {other} '{effect.counter}' is typed with too; one value would feed "
                    "both. Name one of them otherwise.",
                )


def _own_key(checks: Checks, path: str, name: str, what: str) -> None:
    key = name.lower()
    if key in BUILT_IN_KEYS:
        checks.advice(
            path,
            f"the {what} '{name}' would be typed {key}=N, but {key}= already gives "
            f"{BUILT_IN_KEYS[key]}; one value would feed both. Name it otherwise "
            f"(e.g. '{name}-roll').",
        )
