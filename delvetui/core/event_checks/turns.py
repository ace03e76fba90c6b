"""Checks of the turns' events: a turn begun and ended, another kind of turn, dice rolled and
the results read from them, checks, counters, intervals, deferred effects, rests, the
procedure's own lines and the activities done within a turn."""

from __future__ import annotations

import functools

from delvetui import dice
from delvetui.core import events as ev
from delvetui.core.event_bounds import MAX_NUMBER, shown
from delvetui.core.event_checks.base import At, check, no_member, nothing, number
from delvetui.errors import DelveError
from delvetui.procedure.tree import row_range
from delvetui.text import MAX_TYPED, quote

_parse = functools.lru_cache(maxsize=256)(dice.parse)

# A check rolled under a score says its own verdict's sums (``CheckMadeUnder.problem``).
check.register(ev.CheckMadeUnder)(lambda e, at: e.problem())
check.register(ev.RestSkipped)(lambda e, at: number("turns", e.turns, 0, MAX_NUMBER))
# An effect waits for its member, when it names one.
check.register(ev.EffectDeferred)(lambda e, at: no_member(at.state, e.member) if e.member else None)
# Free words, checked for their bounds alone: a line the procedure logged.
check.register(ev.Logged)(nothing)


@check.register(ev.RestBroken)
def _rest_broken(e: ev.RestBroken, at: At) -> str | None:
    # What broke the rest is free words; the count it leaves is at most the turns so far.
    if e.since_rest is not None and not 0 <= e.since_rest <= at.state.turn + 1:
        return (
            f"a broken rest leaves {e.since_rest} turns without rest, more than the "
            f"{at.state.turn + 1} turns taken"
        )
    return None


@check.register(ev.TurnStarted)
def _turn_started(e: ev.TurnStarted, at: At) -> str | None:
    if e.number != at.state.turn + 1:
        return f"turn {e.number} starts after turn {at.state.turn}; turns go up one at a time"
    if e.action not in at.procedure.actions:
        known = ", ".join(at.procedure.actions)
        return f"{quote(e.action)} is not an action of {at.procedure.name} ({known})"
    if e.turn_type != at.state.turn_type:
        here = quote(at.state.turn_type)
        return f"the turn is of type {quote(e.turn_type)} but the party is in {here}"
    return None


@check.register(ev.TurnEnded)
def _turn_ended(e: ev.TurnEnded, at: At) -> str | None:
    if e.number != at.state.turn + 1:
        return f"turn {e.number} ends after turn {at.state.turn}; turns go up one at a time"
    return number("minutes", e.minutes, 0, MAX_TYPED)


@check.register(ev.DiceRolled)
def _rolled(e: ev.DiceRolled, at: At) -> str | None:
    try:
        parsed = _parse(e.expression)
    except DelveError as error:
        return f"its dice: {error}"
    if parsed.text != e.expression:
        return f"the dice {quote(e.expression)} are not written as a roll writes them"
    if e.entered and len(e.faces) == 1 and parsed.dice > 1:
        # A total typed in for several dice is kept as one face of the total less the modifier.
        if not parsed.minimum <= e.total <= parsed.maximum:
            return f"{parsed.text} totals {parsed.minimum} to {parsed.maximum}, not {e.total}"
        same = (
            e.faces == (e.total - parsed.modifier,)
            and e.kept == e.faces
            and e.modifier == parsed.modifier
            and e.hit is None
        )
        return None if same else f"the typed total {e.total} does not match its faces"
    grouped = dice.groups(parsed, list(e.faces))
    if grouped is None:
        return f"{parsed.text} rolls {parsed.dice} dice but {len(e.faces)} faces are kept"
    for term, faces in zip(parsed.terms, grouped, strict=True):
        for face in faces:
            if not 1 <= face <= term.sides:
                return f"a d{term.sides} shows 1 to {term.sides}, not {shown(face)}"
    result = dice.from_faces(parsed, list(e.faces), entered=e.entered)
    if (result.kept, result.modifier, result.total, result.hit) != (
        e.kept,
        e.modifier,
        e.total,
        e.hit,
    ):
        return f"the faces {list(e.faces)} of {parsed.text} do not give the total {e.total}"
    return None


@check.register(ev.ResultRead)
@check.register(ev.HazardRead)
def _result_read(e: ev.ResultRead, at: At) -> str | None:
    if isinstance(e, ev.HazardRead) and not at.procedure.is_hazard(e.key):
        return f"{quote(e.key)} is not a hazard roll of {at.procedure.name}"
    if not e.table:
        return None
    table = at.procedure.tables.get(e.table)
    if table is None:
        return f"{quote(e.table)} is not a table of {at.procedure.name}"
    if not 0 <= e.row < len(table.rows):
        return f"{table.label} has rows 0 to {len(table.rows) - 1}, not row {shown(e.row)}"
    low, high = row_range(table.rows[e.row])
    if not low <= e.total <= high:
        return f"row {e.row} of {table.label} is read on {low} to {high}, not on {e.total}"
    return None


@check.register(ev.CheckMade)
def _check(e: ev.CheckMade, at: At) -> str | None:
    if e.success != (e.total >= e.dc):
        said = "success" if e.success else "failure"
        return f"a total of {e.total} against DC {e.dc} is not a {said}"
    return None


@check.register(ev.CounterChanged)
def _counter(e: ev.CounterChanged, at: At) -> str | None:
    rules = at.procedure.counters.get(e.counter)
    if rules is None:
        known = ", ".join(at.procedure.counters) or "none"
        return f"{quote(e.counter)} is not a counter of {at.procedure.name} ({known})"
    top = rules.top()
    high = top if top is not None else MAX_NUMBER
    return number(e.counter, e.value, min(rules.min, rules.first), max(high, rules.first))


@check.register(ev.IntervalChanged)
def _interval(e: ev.IntervalChanged, at: At) -> str | None:
    rule = at.procedure.rolls.get(e.roll)
    if rule is None or not rule.intervals:
        return f"{quote(e.roll)} is not a roll of {at.procedure.name} whose interval can change"
    if not -1 <= e.choice < len(rule.intervals):
        return f"{quote(e.roll)} has intervals 0 to {len(rule.intervals) - 1}, not {e.choice}"
    every = rule.intervals[e.choice].every if e.choice >= 0 else rule.every
    if e.every != every:
        return f"interval {e.choice} of {quote(e.roll)} is every {every} turns, not {e.every}"
    if not 0 <= e.since <= at.state.turn:
        return f"an interval cannot start after {e.since} turns when {at.state.turn} are done"
    return None


@check.register(ev.ActivityDone)
def _activity_done(e: ev.ActivityDone, at: At) -> str | None:
    if e.activity not in at.procedure.activities:
        return f"{quote(e.activity)} is not an activity of {at.procedure.name}"
    return no_member(at.state, e.by) if e.by else None


@check.register(ev.DeferredResolved)
def _resolved(e: ev.DeferredResolved, at: At) -> str | None:
    if not any(p.ref == e.ref for p in at.state.pending):
        return f"no effect {quote(e.ref)} is waiting to be resolved"
    return None


@check.register(ev.TurnTypeChanged)
def _turn_type(e: ev.TurnTypeChanged, at: At) -> str | None:
    if e.turn_type not in at.procedure.turn_types:
        known = ", ".join(at.procedure.turn_types) or "it has one kind"
        return f"{quote(e.turn_type)} is not a kind of turn of {at.procedure.name} ({known})"
    return None
