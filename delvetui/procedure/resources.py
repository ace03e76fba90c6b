"""The loader's checks of resources and of the member tests in a condition.

Kept beside the loader (which calls them from its whole-procedure checks) so the names a
resource or a member test gives are checked in one place: the procedure's resources,
tracks and abilities, each problem with its key path.
"""

from __future__ import annotations

from delvetui.procedure.effect_kinds import KINDS, Checks
from delvetui.procedure.model import Condition, Effect
from delvetui.procedure.reading import ID
from delvetui.text import suggest


def resources(checks: Checks) -> None:
    """Each resource's id and numbers, and the resource each light kind refuels with."""
    p = checks.procedure
    for name, resource in p.resources.items():
        path = f"resources.{name}"
        if not ID.match(name):
            checks.problem(path, f"'{name}' should be lower-case letters, digits and dashes.")
        if resource.start < 0:
            checks.problem(f"{path}.start", "cannot be negative.")
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


def member_tests(checks: Checks, path: str, condition: Condition) -> None:
    """The names member tests give must be the procedure's tracks, abilities, resources."""
    p = checks.procedure
    for key in ("member_track_at_least", "member_track_at_most"):
        for name in getattr(condition, key):
            checks.ref(f"{path}.{key}", name, p.tracks, "track")
    abilities = {name.upper(): name for name in p.party.abilities}
    for key in (
        "member_ability_at_least",
        "member_ability_at_most",
        "member_modifier_at_least",
        "member_modifier_at_most",
    ):
        for name in getattr(condition, key):
            best = key.startswith("member_modifier") and name.lower() == "best"
            if abilities and not best and name.upper() not in abilities:
                checks.problem(
                    f"{path}.{key}",
                    f"'{name}' is not one of party.abilities ({', '.join(abilities)})."
                    + suggest(name.upper(), list(abilities)),
                )
    mine = {name: r for name, r in p.resources.items() if r.per == "member"}
    ours = {name: r for name, r in p.resources.items() if r.per == "party"}
    for key, wanted, other, hint in (
        ("member_resource_at_least", mine, ours, "resource_at_least"),
        ("member_resource_at_most", mine, ours, "resource_at_most"),
        ("resource_at_least", ours, mine, "member_resource_at_least"),
        ("resource_at_most", ours, mine, "member_resource_at_most"),
    ):
        for name in getattr(condition, key):
            if name in other:
                whose = "the party's stock" if name in ours else "each member's own"
                checks.problem(
                    f"{path}.{key}", f"'{name}' is {whose}; test it with {hint} instead."
                )
            else:
                what = "member resource" if key.startswith("member") else "party resource"
                checks.ref(f"{path}.{key}", name, wanted, what)


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
