"""Effects on the procedure's counters (the alarm) and members' tracks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.effects.registry import kind
from delvetui.errors import CommandError
from delvetui.procedure.model import Effect
from delvetui.text import number_problem

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


@kind("counter")
def counter(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `counter` kind says (``procedure.effect_kinds``)."""
    rules = work.procedure.counters[effect.counter]
    current = work.state.counter(effect.counter)
    value = effect.set if effect.set is not None else current + (effect.add or 0)
    if effect.level:
        value = rules.value_of(effect.level) or 0  # the loader made sure it is a level
    if effect.dice:
        # The counter's own roll, typed as COUNTER=N: "the die is taken off the clock".
        value += work.roll(effect.counter, effect.dice, rules.label).total
    for name, per in effect.per_counter.items():
        value += per * work.state.counter(name)
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
        # Imported here: the working copy imports the effect registry.
        from delvetui.core.work import counter_changed

        counter_changed(work, effect.counter)


@kind("track")
def track(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `track` kind says (``procedure.effect_kinds``)."""
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
