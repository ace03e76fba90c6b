"""The loader's checks of the rules that follow the state: a roll rule's modes, what a
counter's change sets off, bright light held to the strikes left per member, a track
whose ``over`` comes at its limit.

Each takes the loader's checker (the ``Checks`` an effect kind's check gets: the procedure,
and ``problem`` and ``ref`` to report by key path) and reports every problem it finds.
"""

from __future__ import annotations

from delvetui.procedure.conditions import check_condition
from delvetui.procedure.effect_kinds import Checks
from delvetui.procedure.tree import nested_effects
from delvetui.text import suggest

#: The modes a roll can be made with.
MODES = ("advantage", "disadvantage")


def check_state_rules(checks: Checks) -> None:
    """Every key of these rules the procedure gives, each problem at its key path."""
    for name, rule in checks.procedure.rolls.items():
        for mode, held in rule.modes.items():
            path = f"rolls.{name}.modes.{mode}"
            if mode not in MODES:
                checks.problem(
                    path,
                    f"'{mode}' is not a mode; use advantage or disadvantage."
                    + suggest(mode, MODES),
                )
            check_condition(checks, path, held)
            if held.about_member:
                checks.problem(
                    path,
                    "tests a member, but a roll is made for the whole party, so it would never "
                    "hold; test the party's state (a counter, the light level).",
                )
    for name, counter in checks.procedure.counters.items():
        path = f"counters.{name}.on_change"
        for ref, effect in nested_effects(path, counter.on_change):
            if effect.do == "roll":
                checks.problem(
                    ref,
                    "a counter may change many times in one command, so its on_change rolls "
                    "no table; roll it from the action or the result that changes the counter.",
                )
    for name, level in checks.procedure.light_levels.items():
        share = level.strikes_per_member
        if share is None:
            continue
        path = f"light_levels.{name}.strikes_per_member"
        if name != "bright":
            checks.problem(path, "says when the party's light is bright: give it under bright.")
        lit_some = sorted(k for k, kind in checks.procedure.lights.items() if kind.lights)
        if lit_some:
            checks.problem(
                path,
                "counts the strikes of lights that light the whole party, but "
                f"{', '.join(lit_some)} light only some members (lights): give one or the other.",
            )
    for name, track in checks.procedure.tracks.items():
        if track.at_limit and track.limit is None:
            checks.problem(f"tracks.{name}.at_limit", "needs the track's limit.")
    # The days clear_after waits are in their key's range, checked as the file is read.
