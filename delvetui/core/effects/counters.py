"""Effects on the procedure's counters (the alarm) and members' tracks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.effects.registry import Checks, kind
from delvetui.errors import CommandError
from delvetui.procedure.model import Effect
from delvetui.text import number_problem, suggest

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


def _changes(checks: Checks, effect: Effect, path: str) -> None:
    if not (effect.add is not None or effect.set is not None or effect.per_input or effect.level):
        checks.problem(path, "a 'counter' effect needs 'add', 'set', 'level' or 'per_input'.")
    found = checks.procedure.counters.get(effect.counter)
    if effect.level and found is not None and found.value_of(effect.level) is None:
        known = ", ".join(found.levels) or "it names no levels"
        checks.problem(
            f"{path}.level",
            f"'{effect.level}' is not a level of {found.label} ({known})."
            + suggest(effect.level, found.levels),
        )


@kind(
    "counter",
    fields=("counter", "add", "set", "level", "per_input"),
    required=("counter",),
    check=_changes,
)
def counter(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Changes a `counter` (required): `set` it to a value, or to a named `level`, or
    `add` to it, plus `per_input` (a whole number per unit of a typed input, or of its
    default). The result stays between the counter's `min` and `max` (or its last level).
    At least one of `add`, `set`, `level` and `per_input` is required.
    """
    rules = work.procedure.counters[effect.counter]
    current = work.state.counter(effect.counter)
    value = effect.set if effect.set is not None else current + (effect.add or 0)
    if effect.level:
        value = rules.value_of(effect.level) or 0  # the loader made sure it is a level
    for name, per in effect.per_input.items():
        given = work.inputs.get(name) or work.input_default(name) or "0"
        problem = number_problem(name, given, 0, 999)
        if problem is not None:
            raise CommandError(problem)
        value += per * int(given)
    value = max(rules.min, value)
    top = rules.top()
    if top is not None:
        value = min(top, value)
    if value != current:
        reason = work.text(effect.text, ctx) if effect.text else ctx.source
        work.emit(
            ev.CounterChanged(
                counter=effect.counter, value=value, change=value - current, reason=reason
            )
        )


@kind("track", fields=("track", "add", "set", "target"), required=("track",))
def track(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Changes a member `track` (required) for the `target`: `add` to it or `set` it. When
    this takes the track over its `limit`, the track's `over` happens for that member at
    once.
    """
    for member in work.members(effect.target, ctx):
        current = member.track(effect.track)
        value = effect.set if effect.set is not None else current + (effect.add or 0)
        if value != current:
            reason = work.text(effect.text, ctx) if effect.text else ctx.source
            work.emit(
                ev.TrackChanged(name=member.name, track=effect.track, value=value, reason=reason)
            )
            # Imported here: the working copy imports the effect registry.
            from delvetui.core.work import track_over

            track_over(work, effect.track, member.name, current)
