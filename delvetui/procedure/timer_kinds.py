"""The loader's check of the timers a procedure declares (``[timers.light]``)."""

from __future__ import annotations

from delvetui.procedure.effect_kinds import Checks
from delvetui.procedure.reading import ID


def timer_kinds(checks: Checks) -> None:
    """Each declared timer has an id, and one length: turns, minutes or hours (each key's
    range, 1 or more, is its field's: ``procedure.bounds``)."""
    for name, timer in checks.procedure.timers.items():
        path = f"timers.{name}"
        if not ID.match(name):
            checks.problem(path, f"'{name}' should be lower-case letters, digits and dashes.")
        given = [unit for unit in ("turns", "minutes", "hours") if getattr(timer, unit) is not None]
        if len(given) != 1:
            checks.problem(path, "give one of turns, minutes or hours (one, not more).")
