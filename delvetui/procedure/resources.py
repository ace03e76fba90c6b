"""The loader's checks of resources and of the member an effect is for.

Kept beside the loader (which calls them from its whole-procedure checks), each problem
with its key path. The resources a condition tests are checked with its other keys in
``procedure/conditions.py``.
"""

from __future__ import annotations

from delvetui.procedure.effect_kinds import KINDS, Checks
from delvetui.procedure.model import Effect
from delvetui.procedure.reading import ID


def resources(checks: Checks) -> None:
    """Each resource's id and numbers, and the resource each light kind refuels with."""
    p = checks.procedure
    for name, resource in p.resources.items():
        path = f"resources.{name}"
        if not ID.match(name):
            checks.problem(path, f"'{name}' should be lower-case letters, digits and dashes.")
        if resource.max is not None and resource.max < max(0, resource.start):
            checks.problem(f"{path}.max", f"is below start ({resource.start}).")
    for name, light in p.lights.items():
        if light.refuel_resource:
            checks.ref(
                f"lights.{name}.refuel_resource", light.refuel_resource, p.resources, "resource"
            )
        if light.renews_nothing:
            checks.advice(
                f"lights.{name}.refuel_resource",
                f"refuelling takes one {light.refuel_resource} but renews nothing: a "
                f"{light.label.lower()} has no time (turns, hours or minutes), usage die or "
                "strikes to renew; give refuel_hours (the time a refuel gives) or one of those.",
            )


def member_target(checks: Checks, effect: Effect, path: str) -> None:
    """A member test on an effect for the whole party (``target = "party"``) never holds."""
    when = effect.when
    if (
        when is not None
        and when.about_member
        and effect.target == "party"
        and "target" in KINDS[effect.do].fields
    ):
        checks.problem(
            f"{path}.target",
            "is 'party', but the effect's when tests a member (hp_at_most, member_…), which "
            "never holds for the whole party; use target = 'each' or 'by'.",
        )
