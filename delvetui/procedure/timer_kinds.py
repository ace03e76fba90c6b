"""The loader's check of the timers a procedure declares (``[timers.light]``)."""

from __future__ import annotations

from delvetui.procedure.effect_kinds import Checks
from delvetui.procedure.reading import ID

#: The longest a declared timer may run, in its unit (as ``timer add`` takes).
MOST = 999_999


def timer_kinds(checks: Checks) -> None:
    """Each declared timer has an id, and one length: turns, minutes or hours, 1 or more."""
    for name, timer in checks.procedure.timers.items():
        path = f"timers.{name}"
        if not ID.match(name):
            checks.problem(path, f"'{name}' should be lower-case letters, digits and dashes.")
        given: dict[str, int] = {
            unit: amount
            for unit in ("turns", "minutes", "hours")
            if (amount := getattr(timer, unit)) is not None
        }
        if len(given) != 1:
            checks.problem(path, "give one of turns, minutes or hours (one, not more).")
        for unit, amount in given.items():
            if not 1 <= amount <= MOST:
                checks.problem(f"{path}.{unit}", f"should be 1 to {MOST}.")
