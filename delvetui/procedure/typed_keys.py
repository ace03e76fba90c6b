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
    others = {**dict.fromkeys(p.tables, "table"), **dict.fromkeys(p.rolls, "roll")}
    for ref, effect in walk_effects(p):
        if effect.do in ("check", "choose") and effect.id:
            _own_key(checks, f"{ref}.id", effect.id, "check" if effect.do == "check" else "choice")
            others.setdefault(effect.id, effect.do)
        if effect.do == "counter" and effect.dice:
            _own_key(checks, f"{ref}.dice", effect.counter, "counter rolled")
            what = f"the counter '{effect.counter}'"
            _shared(checks, f"{ref}.dice", what, effect.counter, others)
    for name, action in p.actions.items():
        if action.turns_dice:
            path = f"actions.{name}.turns_dice"
            _own_key(checks, path, name, "action's turns")
            _shared(checks, path, f"the turns of '{name}'", name, others)


def _shared(checks: Checks, path: str, what: str, key: str, others: dict[str, str]) -> None:
    """A roll typed as KEY=N whose key another roll, table or check is typed with too."""
    if key in others:
        checks.advice(
            path,
            f"{what}: rolled as {key}=N, the key the {others[key]} '{key}' is typed with "
            "too; one value would feed both. Name one of them otherwise.",
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
