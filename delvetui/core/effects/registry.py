"""The registry of effect kinds: each kind's keys, checks, handler and documentation.

An effect kind is registered once, with ``@kind(...)`` on its handler in one of the family
modules of this package. Everything else reads the entry: the loader takes the keys an
effect may have and the checks it must pass from it, ``decide`` runs its handler, and the
documentation test holds ``docs/procedures.md`` to its paragraph.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from delvetui.procedure.model import Effect, Procedure

if TYPE_CHECKING:
    from delvetui.core.work import Ctx, Work

#: The keys every effect may have, whatever its kind.
SHARED_FIELDS = frozenset({"do", "text", "when", "unless_rest_next", "label"})

#: What an effect does when it happens: (working copy, the effect, its reference, context).
Handler = Callable[["Work", Effect, str, "Ctx"], None]


class Checks(Protocol):
    """What a kind's check may call: the loader's checker, reporting each problem by path."""

    @property
    def procedure(self) -> Procedure:
        """The procedure being checked (converted, not yet whole)."""

    def problem(self, path: str, message: str) -> None:
        """Report a problem at a key path."""

    def advice(self, path: str, message: str) -> None:
        """Report a rule that runs but is half written (not for a text already stored)."""

    def ref(self, path: str, name: str, options: Mapping[str, Any], what: str) -> None:
        """Report a name that is not one of the options (a table, a counter, a light kind)."""

    def dice(self, path: str, text: str) -> None:
        """Report dice that do not parse."""


#: A kind's own check of one effect at a key path, beyond its keys' checks.
Check = Callable[[Checks, Effect, str], None]


@attrs.frozen
class EffectKind:
    """One kind of effect (``do = "..."``), everything about it in one entry."""

    #: The name written as ``do``.
    name: str
    #: The keys it may have besides the shared ones (the loader refuses the others).
    fields: frozenset[str]
    #: The keys it must have.
    required: tuple[str, ...]
    #: What it does, as the first paragraph of its section in ``docs/procedures.md``.
    doc: str
    handler: Handler
    #: Its own check of an effect (beyond each key's, in KEY_CHECKS), if any.
    check: Check | None = None
    #: True when it changes nothing an encounter or a light depends on, whatever it does,
    #: so the odds need not follow each way its rolls fall (a log line, a sign).
    inert: bool = False

    @property
    def allowed(self) -> frozenset[str]:
        """Every key an effect of this kind may have."""
        return SHARED_FIELDS | self.fields


#: Every effect kind by name, in the order the docs list them (filled by the family modules).
KINDS: dict[str, EffectKind] = {}


def kind(
    name: str,
    *,
    fields: tuple[str, ...] = (),
    required: tuple[str, ...] = (),
    check: Check | None = None,
    inert: bool = False,
) -> Callable[[Handler], Handler]:
    """Register the decorated handler as the effect kind ``name``; its docstring is its doc."""

    def register(handler: Handler) -> Handler:
        assert name not in KINDS, f"the effect kind {name!r} is registered twice"
        unknown = set(fields) - {field.name for field in attrs.fields(Effect)}
        assert not unknown, f"{name}: {sorted(unknown)} are not fields of Effect"
        doc = " ".join(inspect.cleandoc(handler.__doc__ or "").split())
        KINDS[name] = EffectKind(
            name=name,
            fields=frozenset(fields),
            required=required,
            doc=doc,
            handler=handler,
            check=check,
            inert=inert,
        )
        return handler

    return register


def _table(checks: Checks, effect: Effect, path: str) -> None:
    if effect.table:
        checks.ref(f"{path}.table", effect.table, checks.procedure.tables, "table")


def _dice(checks: Checks, effect: Effect, path: str) -> None:
    if effect.dice:
        checks.dice(f"{path}.dice", effect.dice)


def _counter(checks: Checks, effect: Effect, path: str) -> None:
    if effect.counter:
        checks.ref(f"{path}.counter", effect.counter, checks.procedure.counters, "counter")


def _dc_counter(checks: Checks, effect: Effect, path: str) -> None:
    if effect.dc_counter:
        checks.ref(f"{path}.dc_counter", effect.dc_counter, checks.procedure.counters, "counter")


def _track(checks: Checks, effect: Effect, path: str) -> None:
    if effect.track:
        checks.ref(f"{path}.track", effect.track, checks.procedure.tracks, "track")


def _kinds(checks: Checks, effect: Effect, path: str) -> None:
    for light in effect.kinds:
        checks.ref(f"{path}.kinds", light, checks.procedure.lights, "light kind")


def _low_kinds(checks: Checks, effect: Effect, path: str) -> None:
    for light in effect.low_kinds:
        checks.ref(f"{path}.low_kinds", light, checks.procedure.lights, "light kind")


def _low_turns(checks: Checks, effect: Effect, path: str) -> None:
    if effect.low_turns < 0:
        checks.problem(f"{path}.low_turns", "cannot be negative.")


def _resource(checks: Checks, effect: Effect, path: str) -> None:
    if effect.resource:
        checks.ref(f"{path}.resource", effect.resource, checks.procedure.resources, "resource")


def _distance_dice(checks: Checks, effect: Effect, path: str) -> None:
    if effect.distance_dice:
        checks.dice(f"{path}.distance_dice", effect.distance_dice)


def _distance_times(checks: Checks, effect: Effect, path: str) -> None:
    if effect.distance_times < 1:
        checks.problem(f"{path}.distance_times", "must be 1 or more (10 for '2d6 × 10 feet').")


#: The check of each key that names something or must parse, in the order they are made;
#: an effect's keys are checked before its kind's own check.
KEY_CHECKS: dict[str, Check] = {
    "table": _table,
    "dice": _dice,
    "counter": _counter,
    "dc_counter": _dc_counter,
    "track": _track,
    "kinds": _kinds,
    "low_kinds": _low_kinds,
    "low_turns": _low_turns,
    "resource": _resource,
    "distance_dice": _distance_dice,
    "distance_times": _distance_times,
}


def check_effect(checks: Checks, effect: Effect, path: str) -> None:
    """Every check of one effect of a registered kind: its keys', then its kind's own."""
    found = KINDS[effect.do]
    for key, check in KEY_CHECKS.items():
        if key in found.fields:
            check(checks, effect, path)
    if found.check is not None:
        found.check(checks, effect, path)
