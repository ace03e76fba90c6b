"""The loader's checks of what a procedure marks as dangerous: a counter's ``danger_at``, a
track's ``danger_at`` and the party's ``danger_conditions``.

Each names something the table then shows in its attention strip (``core.danger`` says
when); a name that cannot come about is reported with the names that can.
"""

from __future__ import annotations

from delvetui.procedure.effect_kinds import Checks
from delvetui.procedure.tree import walk_effects
from delvetui.text import suggest

#: A track's ``danger_at`` that means "past the member's own limit".
OVER = "over"


def check_danger(checks: Checks) -> None:
    """Every danger mark of the procedure, each problem by its key path."""
    p = checks.procedure
    for name, counter in p.counters.items():
        at = counter.danger_at
        path = f"counters.{name}.danger_at"
        if isinstance(at, str):
            if counter.value_of(at) is None:
                known = ", ".join(counter.levels) or "it names no levels"
                checks.problem(
                    path,
                    f"'{at}' is not a level of the counter ({known}); give a level or a "
                    "whole number." + suggest(at, counter.levels),
                )
        elif at is not None:
            top = counter.top()
            if at <= counter.min or (top is not None and at > top):
                bound = f" and at most {top}" if top is not None else ""
                checks.problem(path, f"is {at}; it should be over min ({counter.min}){bound}.")
    for name, track in p.tracks.items():
        at = track.danger_at
        path = f"tracks.{name}.danger_at"
        if isinstance(at, str):
            if at != OVER:
                checks.problem(path, f"'{at}' should be a whole number or \"{OVER}\".")
            elif track.limit is None:
                checks.problem(path, f'is "{OVER}", but the track has no limit to be over.')
    possible = possible_conditions(checks)
    for index, condition in enumerate(p.party.danger_conditions):
        if condition not in possible:
            checks.problem(
                f"party.danger_conditions[{index}]",
                f"'{condition}' is not a condition or fatigue step the procedure knows "
                f"({', '.join(sorted(possible))})." + suggest(condition, sorted(possible)),
            )


def possible_conditions(checks: Checks) -> set[str]:
    """The conditions and fatigue steps a member of the procedure can come to have."""
    p = checks.procedure
    found = set(p.party.fatigue) | set(p.conditions) | set(p.party.condition_modes)
    for _ref, effect in walk_effects(p):
        if effect.do == "condition" and effect.condition:
            found.add(effect.condition)
    return found
