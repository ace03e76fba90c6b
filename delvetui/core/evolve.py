"""evolve(state, event): how each fact changes the expedition. Pure and total.

One function per event type, dispatched on the event's class. Undo and redo are handled
by :mod:`delvetui.core.timeline`, which decides which batches count; here they change
nothing. Total means: for any event, ``evolve`` returns the next state or raises
ReplayError (an event that names a member or light that is not there, of a type with no
rule); nothing else escapes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import singledispatch
from typing import Any

import attrs

from delvetui.core import events as ev
from delvetui.core.state import (
    KEEP_SPENT,
    Encounter,
    Hazard,
    Light,
    Member,
    Pending,
    State,
    Timer,
    pairs,
)
from delvetui.errors import ReplayError

_USAGE_STEPS = (20, 12, 10, 8, 6, 4)
#: What the state remembers of a sign that foretells a creature nobody named.
UNNAMED_CREATURE = "the creature the sign foretold"


#: What a rule raises on an event that cannot apply (what it names is not there).
_CANNOT_APPLY = (ValueError, LookupError, TypeError, ArithmeticError, AttributeError)


def evolve(state: State, event: ev.Event) -> State:
    """The state after one event; ReplayError when the event cannot apply to this state."""
    try:
        return _apply(event, state)
    except ReplayError:
        raise
    except (*_CANNOT_APPLY, StopIteration, RecursionError) as error:
        raise ReplayError(f"{type(event).__name__} cannot apply ({error})") from None


@singledispatch
def _apply(event: ev.Event, state: State) -> State:
    raise ReplayError(f"{type(event).__name__} has no rule to apply it")


def fold(state: State, events: Iterable[ev.Event]) -> State:
    """The state after a sequence of events."""
    for event in events:
        state = evolve(state, event)
    return state


def _unchanged(event: ev.Event, state: State) -> State:
    return state


for _kind in (
    ev.DiceRolled,
    ev.Logged,
    ev.Noted,
    ev.CheckMade,
    ev.CheckMadeUnder,
    ev.BatchVoided,
    ev.BatchRestored,
    ev.LightFlickered,
    ev.TimerWarned,
):
    _apply.register(_kind)(_unchanged)


#: The calendar and the campaign: events that set a few fields of the state to their own.
_SETS: dict[type[ev.Event], Callable[[Any], dict[str, Any]]] = {
    ev.CalendarSet: lambda e: {"calendar": e.text},
    ev.ExpeditionEnded: lambda e: {"ended": True, "end_words": e.words},
    ev.ExpeditionReopened: lambda e: {"ended": False, "end_words": ""},
    ev.ExpeditionContinued: lambda e: {"campaign": e.campaign, "predecessor": e.predecessor},
    ev.CampaignNamed: lambda e: {"campaign": e.campaign},
}
for _set, _fields in _SETS.items():
    _apply.register(_set)(lambda event, state, f=_fields: attrs.evolve(state, **f(event)))


@_apply.register
def _(event: ev.ExpeditionStarted, state: State) -> State:
    return attrs.evolve(
        state,
        name=event.name,
        procedure_id=event.procedure_id,
        seed=event.seed,
        start_clock=event.clock,
        clock=event.clock,
        turn_type=event.turn_type,
    )


@_apply.register
def _(event: ev.MemberJoined, state: State) -> State:
    member = Member(
        name=event.name,
        hp=event.hp,
        max_hp=event.max_hp,
        abilities=pairs(event.abilities),
        tracks=pairs(event.tracks),
    )
    return attrs.evolve(state, party=(*state.party, member))


@_apply.register
def _(event: ev.MemberEdited, state: State) -> State:
    member = _member(state, event.name)
    return state.with_member(
        attrs.evolve(member, max_hp=event.max_hp, abilities=pairs(event.abilities))
    )


@_apply.register
def _(event: ev.MemberLeft, state: State) -> State:
    party = tuple(m for m in state.party if m.name != event.name)
    lights = tuple(
        attrs.evolve(light, carrier=None) if light.carrier == event.name else light
        for light in state.lights
    )
    return attrs.evolve(state, party=party, lights=lights)


@_apply.register
def _(event: ev.MarchingOrderSet, state: State) -> State:
    place = {name: index for index, name in enumerate(event.names)}
    party = sorted(state.party, key=lambda m: place.get(m.name, len(place)))
    return attrs.evolve(state, party=tuple(party))


@_apply.register
def _(event: ev.HpChanged, state: State) -> State:
    return state.with_member(attrs.evolve(_member(state, event.name), hp=event.hp))


@_apply.register
def _(event: ev.FatigueChanged, state: State) -> State:
    return state.with_member(attrs.evolve(_member(state, event.name), fatigue=event.level))


@_apply.register
def _(event: ev.ConditionGained, state: State) -> State:
    member = _member(state, event.name)
    if event.condition in member.conditions:
        return state
    return state.with_member(attrs.evolve(member, conditions=(*member.conditions, event.condition)))


@_apply.register
def _(event: ev.ConditionLost, state: State) -> State:
    member = _member(state, event.name)
    kept = tuple(c for c in member.conditions if c != event.condition)
    return state.with_member(_untimed(attrs.evolve(member, conditions=kept), event.condition))


def _untimed(member: Member, condition: str) -> Member:
    """The member with no duration kept for the condition."""
    if not member.timers and not member.until_rest:
        return member
    return attrs.evolve(
        member,
        timers=tuple(item for item in member.timers if item[0] != condition),
        until_rest=tuple(item for item in member.until_rest if item[0] != condition),
    )


@_apply.register
def _(event: ev.ConditionTimed, state: State) -> State:
    member = _untimed(_member(state, event.name), event.condition)
    if event.turns:
        timers = pairs((*member.timers, (event.condition, event.turn + event.turns)))
        member = attrs.evolve(member, timers=timers)
    if event.until:
        until = pairs((*member.until_rest, (event.condition, event.turn)))
        member = attrs.evolve(member, until_rest=until)
    return state.with_member(member)


@_apply.register
def _(event: ev.TrackChanged, state: State) -> State:
    member = _member(state, event.name)
    tracks = dict(member.tracks)
    tracks[event.track] = event.value
    return state.with_member(attrs.evolve(member, tracks=pairs(tracks)))


def _numbered(state: State, light_id: str, kind: str) -> State:
    """Remember the light's number so the next light of its kind gets a new one."""
    suffix = light_id[len(kind) :]
    if not light_id.startswith(kind) or not suffix.isdigit():
        return state
    numbers = dict(state.light_numbers)
    numbers[kind] = max(numbers.get(kind, 0), int(suffix))
    return attrs.evolve(state, light_numbers=pairs(numbers))


def _prune_spent(state: State) -> State:
    spent = [light.id for light in state.lights if light.spent and not light.lit]
    if len(spent) <= KEEP_SPENT:
        return state
    gone = set(spent[: len(spent) - KEEP_SPENT])
    return attrs.evolve(state, lights=tuple(x for x in state.lights if x.id not in gone))


@_apply.register
def _(event: ev.LightAdded, state: State) -> State:
    light = Light(
        id=event.id,
        kind=event.kind,
        carrier=event.carrier,
        brightness=event.brightness,
        minutes=event.minutes,
        count=event.count,
        usage_die=event.usage_die,
    )
    return _numbered(attrs.evolve(state, lights=(*state.lights, light)), event.id, event.kind)


@_apply.register
def _(event: ev.LightLit, state: State) -> State:
    source = _light(state, event.source)
    carrier = event.carrier if event.carrier is not None else source.carrier
    if event.id == event.source:
        return state.with_light(
            attrs.evolve(source, lit=True, carrier=carrier, lit_turn=state.turn)
        )
    lit = attrs.evolve(source, id=event.id, lit=True, count=1, carrier=carrier, lit_turn=state.turn)
    state = state.with_light(attrs.evolve(source, count=source.count - 1))
    lights = tuple(light for light in state.lights if light.count > 0)
    return _numbered(attrs.evolve(state, lights=(*lights, lit)), event.id, source.kind)


@_apply.register
def _(event: ev.LightPutOut, state: State) -> State:
    light = _light(state, event.id)
    state = state.with_light(attrs.evolve(light, lit=False, spent=event.spent or light.spent))
    return _prune_spent(state) if event.spent else state


@_apply.register
def _(event: ev.LightDimmed, state: State) -> State:
    return state.with_light(attrs.evolve(_light(state, event.id), dimmed=True))


@_apply.register
def _(event: ev.LightsBurned, state: State) -> State:
    return _count_down(state, event.ids, "minutes", event.minutes)


@_apply.register
def _(event: ev.LightTimerSet, state: State) -> State:
    light = _light(state, event.id)
    return state.with_light(attrs.evolve(light, minutes=event.minutes, spent=False))


@_apply.register
def _(event: ev.LightRealTimeSet, state: State) -> State:
    light = _light(state, event.id)
    return state.with_light(attrs.evolve(light, real_seconds=event.seconds))


@_apply.register
def _(event: ev.RealTimePassed, state: State) -> State:
    return _count_down(state, event.ids, "real_seconds", event.seconds)


@_apply.register
def _(event: ev.RealTimePaused, state: State) -> State:
    return attrs.evolve(state, realtime_paused=event.paused)


@_apply.register
def _(event: ev.LightHandedOver, state: State) -> State:
    return state.with_light(attrs.evolve(_light(state, event.id), carrier=event.carrier))


@_apply.register
def _(event: ev.LightStruck, state: State) -> State:
    return state.with_light(attrs.evolve(_light(state, event.id), strikes=event.strikes))


@_apply.register
def _(event: ev.UsageDieStepped, state: State) -> State:
    return state.with_light(attrs.evolve(_light(state, event.id), usage_die=event.die))


@_apply.register
def _(event: ev.UsageDieSet, state: State) -> State:
    light = _light(state, event.id)
    return state.with_light(attrs.evolve(light, usage_die=event.die, spent=False))


@_apply.register
def _(event: ev.TurnStarted, state: State) -> State:
    streak = state.streak + 1 if state.action == event.action else 1
    since_rest = 0 if event.resting else state.turns_since_rest + 1
    return attrs.evolve(
        state,
        action=event.action,
        resting=event.resting,
        streak=streak,
        turns_since_rest=since_rest,
        encounter=None,
        encounter_distance="",
        in_turn=True,
        acted=(),
        ran_out=(),
    )


@_apply.register
def _(event: ev.ActivityDone, state: State) -> State:
    if not event.by:
        return state
    return attrs.evolve(state, acted=(*state.acted, event.by))


@_apply.register
def _(event: ev.TurnEnded, state: State) -> State:
    return attrs.evolve(
        state,
        turn=event.number,
        minutes=state.minutes + event.minutes,
        clock=state.clock + event.minutes,
        in_turn=False,
    )


@_apply.register
def _(event: ev.ResultRead, state: State) -> State:
    if event.key != "hazard" and not isinstance(event, ev.HazardRead):
        return state
    label = event.label if not event.ignored else f"{event.label} (ignored: {event.ignored})"
    hazard = Hazard(roll=event.total, result=label, table=event.table, row=event.row)
    return attrs.evolve(state, last_hazard=hazard)


@_apply.register
def _(event: ev.IntervalChanged, state: State) -> State:
    kept = [found for found in state.intervals if found[0] != event.roll]
    kept.append((event.roll, event.choice, event.since))
    return attrs.evolve(state, intervals=tuple(sorted(kept)))


@_apply.register
def _(event: ev.EncounterBegan, state: State) -> State:
    text = event.creature or event.text
    if event.appearing:
        text = f"{event.appearing} × {text}"
    if event.reaction:
        text = f"{text}, {event.reaction}"
    met = Encounter(
        text=event.text,
        creature=event.creature,
        appearing=event.appearing,
        distance=event.distance,
        reaction=event.reaction,
        area=event.area,
        turn=state.turn + 1 if state.in_turn else state.turn,
        day=state.day,
        clock=state.clock_text,
    )
    return attrs.evolve(
        state, encounter=text, encounter_distance=event.distance, sign=None, last_encounter=met
    )


@_apply.register
def _(event: ev.EncounterDescribed, state: State) -> State:
    return attrs.evolve(
        state,
        encounter=event.creature or state.encounter,
        encounter_distance=event.distance or state.encounter_distance,
        last_encounter=None
        if state.last_encounter is None
        else attrs.evolve(
            state.last_encounter,
            creature=event.creature or state.last_encounter.creature,
            distance=event.distance or state.last_encounter.distance,
        ),
    )


@_apply.register
def _(event: ev.SignFound, state: State) -> State:
    if not event.foretells:
        return state
    return attrs.evolve(state, sign=event.creature or UNNAMED_CREATURE)


@_apply.register
def _(event: ev.RestBroken, state: State) -> State:
    return attrs.evolve(state, streak=0)


@_apply.register
def _(event: ev.CounterChanged, state: State) -> State:
    return state.with_counter(event.counter, event.value)


@_apply.register
def _(event: ev.EffectDeferred, state: State) -> State:
    pending = Pending(ref=event.ref, label=event.label, member=event.member)
    return attrs.evolve(state, pending=(*state.pending, pending))


@_apply.register
def _(event: ev.DeferredResolved, state: State) -> State:
    index = next((i for i, p in enumerate(state.pending) if p.ref == event.ref), None)
    if index is None:
        raise ValueError(f"nothing pending is called {event.ref!r}")
    return attrs.evolve(state, pending=state.pending[:index] + state.pending[index + 1 :])


@_apply.register
def _(event: ev.RestSkipped, state: State) -> State:
    return attrs.evolve(state, turns_since_rest=0)


@_apply.register
def _(event: ev.ClockSet, state: State) -> State:
    return attrs.evolve(state, clock=event.clock)


@_apply.register
def _(event: ev.TurnTypeChanged, state: State) -> State:
    return attrs.evolve(state, turn_type=event.turn_type)


@_apply.register
def _(event: ev.ProcedureChanged, state: State) -> State:
    return attrs.evolve(state, procedure_id=event.procedure_id, procedure_digest=event.digest)


@_apply.register
def _(event: ev.SessionStarted, state: State) -> State:
    return attrs.evolve(state, session=event.number, in_session=True)


@_apply.register
def _(event: ev.SessionEnded, state: State) -> State:
    return attrs.evolve(state, in_session=False)


def _member(state: State, name: str) -> Member:
    member = next((m for m in state.party if m.name == name), None)
    if member is None:
        raise ValueError(f"no party member named {name!r}")
    return member


def _light(state: State, light_id: str) -> Light:
    light = next((light for light in state.lights if light.id == light_id), None)
    if light is None:
        raise ValueError(f"no light with id {light_id!r}")
    return light


@_apply.register
def _(event: ev.ShownToPlayers, state: State) -> State:
    shown = [what for what in state.shown if what != event.what]
    if event.shown:
        shown.append(event.what)
    return attrs.evolve(state, shown=tuple(sorted(shown)))


def step_usage_die(die: int) -> int | None:
    """The next smaller usage die (d20, d12, d10, d8, d6, d4), or None when spent."""
    smaller = [size for size in _USAGE_STEPS if size < die]
    return smaller[0] if smaller else None


def _count_down(state: State, ids: Sequence[str], field: str, amount: int) -> State:
    """These lights' clock (turn minutes or real seconds) less an amount, never below 0."""
    counted = set(ids)
    lights = tuple(
        attrs.evolve(light, **{field: max(0, left - amount)})
        if light.id in counted and (left := getattr(light, field)) is not None
        else light
        for light in state.lights
    )
    return attrs.evolve(state, lights=lights)


@_apply.register
def _(event: ev.ResourceChanged, state: State) -> State:
    if not event.name:
        resources = dict(state.resources)
        resources[event.resource] = event.value
        return attrs.evolve(state, resources=pairs(resources))
    member = _member(state, event.name)
    held = dict(member.resources)
    held[event.resource] = event.value
    return state.with_member(attrs.evolve(member, resources=pairs(held)))


@_apply.register
def _(event: ev.ResourceShort, state: State) -> State:
    if event.name:
        _member(state, event.name)
    return state


@_apply.register
def _(event: ev.LightRenewed, state: State) -> State:
    light = _light(state, event.id)
    renewed = attrs.evolve(light, usage_die=event.usage_die, strikes=event.strikes, spent=False)
    return state.with_light(renewed)


@_apply.register
def _(event: ev.TablesAdded, state: State) -> State:
    kept = tuple(pair for pair in state.adventures if pair[0] != event.id)
    return attrs.evolve(state, adventures=(*kept, (event.id, event.text)))


@_apply.register
def _(event: ev.AreaEntered, state: State) -> State:
    return attrs.evolve(state, area=event.area)


# Timers ---------------------------------------------------------------------------------------


def _timer(state: State, name: str) -> Timer:
    found = next((timer for timer in state.timers if timer.name == name), None)
    if found is None:
        raise ValueError(f"no timer named {name!r}")
    return found


def _without_timer(state: State, name: str) -> State:
    _timer(state, name)
    return attrs.evolve(state, timers=tuple(t for t in state.timers if t.name != name))


@_apply.register
def _(event: ev.TimerStarted, state: State) -> State:
    if state.timer(event.name) is not None:
        raise ValueError(f"a timer named {event.name!r} is running already")
    timer = Timer(name=event.name, unit=event.unit, left=event.left, label=event.label)
    ran_out = tuple(name for name in state.ran_out if name.casefold() != event.name.casefold())
    return attrs.evolve(state, timers=(*state.timers, timer), ran_out=ran_out)


@_apply.register
def _(event: ev.TimerChanged, state: State) -> State:
    changed = attrs.evolve(_timer(state, event.name), unit=event.unit, left=event.left)
    timers = tuple(changed if t.name == event.name else t for t in state.timers)
    return attrs.evolve(state, timers=timers)


@_apply.register
def _(event: ev.TimerCancelled, state: State) -> State:
    return _without_timer(state, event.name)


@_apply.register
def _(event: ev.TimerEnded, state: State) -> State:
    state = _without_timer(state, event.name)
    return attrs.evolve(state, ran_out=(*state.ran_out, event.name))


@_apply.register
def _(event: ev.TimersCounted, state: State) -> State:
    counted = set(event.names)
    for name in counted:
        _timer(state, name)
    timers = tuple(
        attrs.evolve(t, left=max(0, t.left - (1 if t.in_turns else event.minutes)))
        if t.name in counted
        else t
        for t in state.timers
    )
    return attrs.evolve(state, timers=timers)


@_apply.register
def _(event: ev.TimersRealTimePassed, state: State) -> State:
    counted = set(event.names)
    for name in counted:
        if not _timer(state, name).real_time:
            raise ValueError(f"the timer {name!r} does not run in real time")
    timers = tuple(
        attrs.evolve(t, left=max(0, t.left - event.seconds)) if t.name in counted else t
        for t in state.timers
    )
    return attrs.evolve(state, timers=timers)
