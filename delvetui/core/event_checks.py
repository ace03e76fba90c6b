"""Whether a command could have written an event where it stands: one check per event type.

``problem(state, procedure, event)`` answers for one event: a sentence saying why no
command could have written it in that state, or None. The audit (``core.audit``) asks it
of every event of a log from outside, batch by batch. Most checks are a function each,
registered for their event type; those that are one line are a table.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import attrs

from delvetui import dice
from delvetui.core import areas, calendar, campaign, timers
from delvetui.core import events as ev
from delvetui.core.commands.types import PLAYERS_SHOW
from delvetui.core.decide import MAX_SEED
from delvetui.core.event_bounds import MAX_NUMBER, every_number, every_text, shown
from delvetui.core.state import State
from delvetui.errors import DelveError
from delvetui.procedure.model import Procedure
from delvetui.procedure.tree import row_range
from delvetui.text import MAX_NOTE, MAX_PURPOSE, quote

#: The largest hit points, ability score, light time and check number a command takes.
MAX_TYPED = 999_999
#: The longest span of real time one command records or sets (a day).
MAX_REAL_SECONDS = 24 * 3600
#: The most members a party may have (as ``pc add`` enforces).
MAX_PARTY = 50
#: The most lights one ``light add`` brings.
MAX_LIGHTS = 999
#: The longest name of a party member (as the command language enforces).
MAX_NAME = 40
_parse = functools.lru_cache(maxsize=256)(dice.parse)
_USAGE_DICE = frozenset({4, 6, 8, 10, 12, 20})
_BRIGHTNESS = frozenset({"bright", "dim"})


def digest_of(text: str) -> str:
    """The short digest a ProcedureChanged event names its procedure's text by."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _number(name: str, value: int, low: int, high: int) -> str | None:
    if low <= value <= high:
        return None
    return f"{name} is {shown(value)}; it must be from {low} to {high}"


def _name(kind: str, name: str) -> str | None:
    if not name.strip() or name != name.strip():
        return f"the {kind} name {quote(name)} is empty or has spaces around it"
    if len(name) > MAX_NAME:
        return f"the {kind} name {quote(name)} is longer than {MAX_NAME} characters"
    if "=" in name:
        return f"the {kind} name {quote(name)} holds '=', which no name may"
    return None


def problem(
    state: State,
    procedure: Procedure,
    event: ev.Event,
    procedures: Mapping[str, Procedure] | None = None,
) -> str | None:
    """Why no command could have written ``event`` in ``state``, or None when one could."""
    too_big = every_number(event) or every_text(event)
    if too_big is not None:
        return too_big
    check = _CHECKS.get(type(event))
    if check is None:
        return None
    return check(_At(state, procedure, procedures or {}), event)


@attrs.frozen
class _At:
    """Where an event stands: the state it applies to and the procedures it may name."""

    state: State
    procedure: Procedure
    #: The procedures ProcedureChanged events move to, by digest.
    procedures: Mapping[str, Procedure]


#: The check of an event type: why no command could have written it here, or None.
_Check = TypeVar("_Check", bound=Callable[[_At, Any], "str | None"])
_CHECKS: dict[type[ev.Event], Callable[[_At, Any], str | None]] = {}
#: The event types with a check (some say there is nothing to check): every type has one.
CHECKED = _CHECKS.keys()


def _checks(*kinds: type[ev.Event]) -> Callable[[_Check], _Check]:
    """Register the decorated function as the check of these event types."""

    def register(check: _Check) -> _Check:
        for kind in kinds:
            _CHECKS[kind] = check
        return check

    return register


def _member(state: State, name: str) -> str | None:
    if not any(m.name == name for m in state.party):
        return f"there is no party member {quote(name)} at this point"
    return None


def _light(state: State, light_id: str) -> str | None:
    if not any(light.id == light_id for light in state.lights):
        return f"there is no light {quote(light_id)} at this point"
    return None


def _marching_order(state: State, names: tuple[str, ...]) -> str | None:
    """A marching order names every member of the party once, and no one else."""
    if sorted(names) != sorted(m.name for m in state.party):
        return "the marching order does not name each member of the party once"
    return None


def _carrier(state: State, carrier: str | None) -> str | None:
    return None if carrier is None else _member(state, carrier)


def _one_of(what: str, value: str, known: Iterable[str]) -> str | None:
    return None if value in known else f"{what} has no {quote(value)} ({', '.join(known)})"


def _usage_die(die: int | None) -> str | None:
    if die is None or die in _USAGE_DICE:
        return None
    return f"a usage die of d{die} is not one of d4, d6, d8, d10, d12, d20"


def _nothing(at: _At, e: Any) -> None:
    return None


#: Events whose whole check is one line: what they name exists, their numbers are in bounds.
_CHECKS.update(
    {
        ev.MemberLeft: lambda at, e: _member(at.state, e.name),
        ev.MarchingOrderSet: lambda at, e: _marching_order(at.state, e.names),
        ev.ConditionLost: lambda at, e: _member(at.state, e.name),
        ev.LightPutOut: lambda at, e: _light(at.state, e.id),
        ev.LightDimmed: lambda at, e: _light(at.state, e.id),
        ev.LightHandedOver: lambda at, e: _light(at.state, e.id) or _carrier(at.state, e.carrier),
        ev.LightTimerSet: lambda at, e: (
            _light(at.state, e.id) or _number("minutes", e.minutes, 0, MAX_TYPED * 60)
        ),
        ev.LightStruck: lambda at, e: (
            _light(at.state, e.id) or _number("strikes", e.strikes, 0, MAX_NUMBER)
        ),
        ev.RestSkipped: lambda at, e: _number("turns", e.turns, 0, MAX_NUMBER),
        ev.ClockSet: lambda at, e: _number("clock", e.clock, 0, MAX_NUMBER),
        # The adventure's own tables: core.areas says what is sound.
        ev.TablesAdded: lambda at, e: areas.tables_problem(at.state, e.id, e.name, e.text),
        ev.AreaEntered: lambda at, e: areas.area_problem(at.state, e.area),
        ev.CalendarSet: lambda at, e: calendar.text_problem(e.text),
        ev.EncounterBegan: lambda at, e: (
            areas.met_problem(at.state, e.area) or _number("appearing", e.appearing, 0, MAX_TYPED)
        ),
        ev.UsageDieStepped: lambda at, e: _usage_die(e.die) or _light(at.state, e.id),
        ev.UsageDieSet: lambda at, e: _usage_die(e.die) or _light(at.state, e.id),
        # A light flickers as it is lit; an effect waits for its member, when it names one.
        ev.LightFlickered: lambda at, e: _light(at.state, e.id),
        ev.EffectDeferred: lambda at, e: _member(at.state, e.member) if e.member else None,
        ev.ShownToPlayers: lambda at, e: _one_of("the players' screen", e.what, PLAYERS_SHOW),
        ev.CheckMadeUnder: lambda at, e: e.problem(),
    }
    # Nothing to check but every event's bounds: free words (a sign, what broke a rest, a
    # logged line); undo and redo never come here (core.audit: the timeline checks them).
    | dict.fromkeys(
        (ev.SignFound, ev.RestBroken, ev.Logged, ev.BatchVoided, ev.BatchRestored), _nothing
    )
)


#: Timers and the campaign: core.timers and core.campaign say what is sound.
_CHECKS.update(
    {
        kind: lambda at, e: timers.problem(at.state, e, at.procedure)
        for kind in (
            ev.TimerStarted,
            ev.TimerChanged,
            ev.TimerCancelled,
            ev.TimersCounted,
            ev.TimersRealTimePassed,
            ev.TimerWarned,
            ev.TimerEnded,
        )
    }
    | dict.fromkeys(campaign.EVENTS, lambda at, e: campaign.problem(at.state, e))
)


@_checks(ev.ExpeditionStarted)
def _started(at: _At, e: ev.ExpeditionStarted) -> str | None:
    if not e.name.strip():
        return "the expedition has no name"
    if e.procedure_id != at.procedure.id:
        return f"the procedure {quote(e.procedure_id)} is not the one the file holds"
    if e.turn_type != at.procedure.default_turn_type:
        return f"{quote(e.turn_type)} is not the turn type {at.procedure.name} starts in"
    # A campaign's day numbers on: an expedition may start on any day (``--day``, ``--after``).
    return _number("seed", e.seed, 0, MAX_SEED) or _number("clock", e.clock, 0, MAX_NUMBER)


@_checks(ev.MemberJoined)
def _joined(at: _At, e: ev.MemberJoined) -> str | None:
    if at.state.member(e.name) is not None:
        return f"{quote(e.name)} is already in the party; two members cannot share a name"
    if len(at.state.party) >= MAX_PARTY:
        return f"the party already has {MAX_PARTY} members, the most a party may have"
    unknown = sorted(set(dict(e.tracks)) - set(at.procedure.tracks))
    if unknown:
        return f"{quote(unknown[0])} is not a track of {at.procedure.name}"
    return (
        _name("member", e.name)
        or _number("max_hp", e.max_hp, 1, MAX_TYPED)
        or _number("hp", e.hp, 0, e.max_hp)
        or _abilities(e.abilities)
    )


def _abilities(abilities: Mapping[str, int] | Iterable[tuple[str, int]]) -> str | None:
    pairs = abilities.items() if isinstance(abilities, Mapping) else abilities
    for name, score in pairs:
        if not name or not name.isprintable() or len(name) > MAX_NAME:
            return f"{quote(name)} is not an ability name"
        wrong = _number(f"the ability {name}", score, -99, MAX_TYPED)
        if wrong:
            return wrong
    return None


@_checks(ev.MemberEdited)
def _edited(at: _At, e: ev.MemberEdited) -> str | None:
    return (
        _member(at.state, e.name)
        or _number("max_hp", e.max_hp, 1, MAX_TYPED)
        or _abilities(e.abilities)
    )


@_checks(ev.HpChanged)
def _hp(at: _At, e: ev.HpChanged) -> str | None:
    member = next((m for m in at.state.party if m.name == e.name), None)
    if member is None:
        return _member(at.state, e.name)
    wrong = _number("hp", e.hp, 0, max(member.hp, member.max_hp))
    if wrong:
        return wrong
    if e.change != e.hp - member.hp:
        return f"it says hp changed by {e.change} but {member.hp} to {e.hp} is {e.hp - member.hp}"
    return None


@_checks(ev.FatigueChanged)
def _fatigue(at: _At, e: ev.FatigueChanged) -> str | None:
    ladder = at.procedure.party.fatigue
    steps = ", ".join(f"{n} {label}" for n, label in enumerate(ladder))
    if not 0 <= e.level < len(ladder):
        name = at.procedure.name
        return f"fatigue level {shown(e.level)} is not a step of {name}'s ladder ({steps})"
    return _member(at.state, e.name)


@_checks(ev.ConditionGained)
def _gained(at: _At, e: ev.ConditionGained) -> str | None:
    if not e.condition.strip():
        return "the condition has no name"
    return _member(at.state, e.name)


@_checks(ev.ConditionTimed)
def _timed(at: _At, e: ev.ConditionTimed) -> str | None:
    member = at.state.member(e.name)
    if member is None or e.condition not in member.conditions:
        return f"{quote(e.name)} has no condition {quote(e.condition)} at this point"
    if (e.turns > 0) == (e.until == "rest") or e.until not in ("", "rest"):
        return "a condition lasts either a number of turns or until the next rest"
    return _number("turn", e.turn, at.state.turn, at.state.turn + 1) or _number(
        "turns", e.turns, 0, MAX_TYPED
    )


@_checks(ev.TrackChanged)
def _track(at: _At, e: ev.TrackChanged) -> str | None:
    if e.track not in at.procedure.tracks:
        return f"{quote(e.track)} is not a track of {at.procedure.name}"
    return _member(at.state, e.name)


@_checks(ev.LightAdded)
def _light_added(at: _At, e: ev.LightAdded) -> str | None:
    kinds = ", ".join(at.procedure.lights) or "none"
    if e.kind not in at.procedure.lights:
        return f"{quote(e.kind)} is not a light of {at.procedure.name} ({kinds})"
    if at.state.light(e.id) is not None or not e.id.strip():
        return f"the light id {quote(e.id)} is empty or already taken"
    if e.brightness not in _BRIGHTNESS:
        return f"brightness {quote(e.brightness)} is neither bright nor dim"
    return (
        _usage_die(e.usage_die)
        or _number("count", e.count, 1, MAX_LIGHTS)
        or _carrier(at.state, e.carrier)
        or (_number("minutes", e.minutes, 0, MAX_TYPED * 60) if e.minutes is not None else None)
    )


@_checks(ev.LightLit)
def _light_lit(at: _At, e: ev.LightLit) -> str | None:
    source = next((light for light in at.state.lights if light.id == e.source), None)
    if source is None:
        return _light(at.state, e.source)
    if source.lit or source.spent:
        return f"{quote(source.id)} is {'already lit' if source.lit else 'used up'}"
    if e.id != e.source and (at.state.light(e.id) is not None or not e.id.strip()):
        return f"the light id {quote(e.id)} is empty or already taken"
    if e.id == e.source and source.count != 1:
        return f"{quote(source.id)} is a stack of {source.count}; one is taken from it to light"
    return _carrier(at.state, e.carrier)


@_checks(ev.LightsBurned)
def _burned(at: _At, e: ev.LightsBurned) -> str | None:
    wrong = _number("minutes", e.minutes, 0, MAX_TYPED * 60)
    if wrong:
        return wrong
    for light_id in e.ids:
        missing = _light(at.state, light_id)
        if missing:
            return missing
    return None


@_checks(ev.LightRealTimeSet)
def _real_time_set(at: _At, e: ev.LightRealTimeSet) -> str | None:
    light = next((light for light in at.state.lights if light.id == e.id), None)
    if light is None:
        return _light(at.state, e.id)
    if light.spent:
        return f"{quote(light.id)} is used up"
    if e.seconds is None:
        return None if light.real_time else f"{quote(light.id)} does not burn in real time"
    return _number("seconds", e.seconds, 0, MAX_REAL_SECONDS)


@_checks(ev.RealTimePassed)
def _real_time_passed(at: _At, e: ev.RealTimePassed) -> str | None:
    if at.state.realtime_paused:
        return "the real-time clock is paused, so no real time passes"
    burning = {light.id for light in at.state.burning_in_real_time}
    if not e.ids or len(set(e.ids)) != len(e.ids):
        return "it names no light, or one light twice"
    for light_id in e.ids:
        if light_id not in burning:
            return f"{quote(light_id)} is not a lit light burning in real time at this point"
    return _number("seconds", e.seconds, 1, MAX_REAL_SECONDS)


@_checks(ev.RealTimePaused)
def _real_time_paused(at: _At, e: ev.RealTimePaused) -> str | None:
    if e.paused == at.state.realtime_paused:
        return f"the real-time clock is {'already' if e.paused else 'not'} paused"
    if len(e.reason) > MAX_PURPOSE:
        return f"its reason is longer than {MAX_PURPOSE} characters"
    return None


@_checks(ev.EncounterDescribed)
def _encounter_described(at: _At, e: ev.EncounterDescribed) -> str | None:
    if at.state.encounter is None:
        return "there is no encounter this turn to describe"
    if not e.creature and not e.distance:
        return "it says neither what the encounter is nor how far away"
    if max(len(e.creature), len(e.distance)) > MAX_PURPOSE:
        return f"it is longer than {MAX_PURPOSE} characters"
    return None


@_checks(ev.TurnStarted)
def _turn_started(at: _At, e: ev.TurnStarted) -> str | None:
    if e.number != at.state.turn + 1:
        return f"turn {e.number} starts after turn {at.state.turn}; turns go up one at a time"
    if e.action not in at.procedure.actions:
        known = ", ".join(at.procedure.actions)
        return f"{quote(e.action)} is not an action of {at.procedure.name} ({known})"
    if e.turn_type != at.state.turn_type:
        here = quote(at.state.turn_type)
        return f"the turn is of type {quote(e.turn_type)} but the party is in {here}"
    return None


@_checks(ev.TurnEnded)
def _turn_ended(at: _At, e: ev.TurnEnded) -> str | None:
    if e.number != at.state.turn + 1:
        return f"turn {e.number} ends after turn {at.state.turn}; turns go up one at a time"
    return _number("minutes", e.minutes, 0, MAX_TYPED)


@_checks(ev.DiceRolled)
def _rolled(at: _At, e: ev.DiceRolled) -> str | None:
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
    if len(e.faces) != parsed.dice:
        return f"{parsed.text} rolls {parsed.dice} dice but {len(e.faces)} faces are kept"
    sides = [term.sides for term in parsed.terms for _ in range(term.count)]
    for face, die in zip(e.faces, sides, strict=True):
        if not 1 <= face <= die:
            return f"a d{die} shows 1 to {die}, not {shown(face)}"
    result = dice.from_faces(parsed, list(e.faces), entered=e.entered)
    if (result.kept, result.modifier, result.total, result.hit) != (
        e.kept,
        e.modifier,
        e.total,
        e.hit,
    ):
        return f"the faces {list(e.faces)} of {parsed.text} do not give the total {e.total}"
    return None


@_checks(ev.ResultRead, ev.HazardRead)
def _result_read(at: _At, e: ev.ResultRead) -> str | None:
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


@_checks(ev.CheckMade)
def _check(at: _At, e: ev.CheckMade) -> str | None:
    if e.success != (e.total >= e.dc):
        said = "success" if e.success else "failure"
        return f"a total of {e.total} against DC {e.dc} is not a {said}"
    return None


@_checks(ev.CounterChanged)
def _counter(at: _At, e: ev.CounterChanged) -> str | None:
    rules = at.procedure.counters.get(e.counter)
    if rules is None:
        known = ", ".join(at.procedure.counters) or "none"
        return f"{quote(e.counter)} is not a counter of {at.procedure.name} ({known})"
    top = rules.top()
    high = top if top is not None else MAX_NUMBER
    return _number(e.counter, e.value, min(rules.min, rules.first), max(high, rules.first))


@_checks(ev.IntervalChanged)
def _interval(at: _At, e: ev.IntervalChanged) -> str | None:
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


@_checks(ev.ActivityDone)
def _activity_done(at: _At, e: ev.ActivityDone) -> str | None:
    if e.activity not in at.procedure.activities:
        return f"{quote(e.activity)} is not an activity of {at.procedure.name}"
    return _member(at.state, e.by) if e.by else None


@_checks(ev.Noted)
def _noted(at: _At, e: ev.Noted) -> str | None:
    if len(e.text) > MAX_NOTE:
        return f"the note is {len(e.text):,} characters long; a note holds at most {MAX_NOTE:,}"
    return None


@_checks(ev.DeferredResolved)
def _resolved(at: _At, e: ev.DeferredResolved) -> str | None:
    if not any(p.ref == e.ref for p in at.state.pending):
        return f"no effect {quote(e.ref)} is waiting to be resolved"
    return None


@_checks(ev.TurnTypeChanged)
def _turn_type(at: _At, e: ev.TurnTypeChanged) -> str | None:
    if e.turn_type not in at.procedure.turn_types:
        known = ", ".join(at.procedure.turn_types) or "it has one kind"
        return f"{quote(e.turn_type)} is not a kind of turn of {at.procedure.name} ({known})"
    return None


@_checks(ev.ProcedureChanged)
def _procedure_changed(at: _At, e: ev.ProcedureChanged) -> str | None:
    if digest_of(e.text) != e.digest:
        return (
            f"its digest {quote(e.digest)} does not name its procedure text ({digest_of(e.text)})"
        )
    moved_to = at.procedures.get(e.digest)
    if moved_to is None:
        return "its procedure text was not checked"
    if moved_to.id != e.procedure_id or moved_to.name != e.procedure_name:
        return (
            f"it names the procedure {quote(e.procedure_id)} but its text is "
            f"{quote(moved_to.id)} ({quote(moved_to.name)})"
        )
    for kind in sorted({light.kind for light in at.state.lights} - set(moved_to.lights)):
        return f"{moved_to.name} has no light kind {quote(kind)}, which the inventory holds"
    if moved_to.turn_types and at.state.turn_type not in moved_to.turn_types:
        return f"{moved_to.name} has no turn type {quote(at.state.turn_type)}, the party's"
    return None


@_checks(ev.SessionStarted)
def _session_started(at: _At, e: ev.SessionStarted) -> str | None:
    if at.state.in_session:
        return f"session {at.state.session} is still running"
    if e.number != at.state.session + 1:
        return (
            f"session {e.number} follows session {at.state.session}; sessions go up one at a time"
        )
    return None


@_checks(ev.SessionEnded)
def _session_ended(at: _At, e: ev.SessionEnded) -> str | None:
    if not at.state.in_session or e.number != at.state.session:
        return f"session {e.number} is not running"
    return None


def _stock(at: _At, name: str, resource: str) -> str | None:
    """The resource must be the procedure's, held by a member or the party as it says."""
    rules = at.procedure.resources.get(resource)
    if rules is None:
        known = ", ".join(at.procedure.resources) or "none"
        return f"{quote(resource)} is not a resource of {at.procedure.name} ({known})"
    if rules.per == "party" and name:
        return f"{quote(resource)} is the party's stock, not {quote(name)}'s"
    if rules.per == "member" and not name:
        return f"{quote(resource)} is each member's own, not the party's"
    return _member(at.state, name) if name else None


@_checks(ev.ResourceChanged)
def _resource_changed(at: _At, e: ev.ResourceChanged) -> str | None:
    wrong = _stock(at, e.name, e.resource)
    if wrong is not None:
        return wrong
    rules = at.procedure.resources[e.resource]
    high = rules.max if rules.max is not None else MAX_NUMBER
    return _number(e.resource, e.value, 0, max(high, rules.start))


@_checks(ev.ResourceShort)
def _resource_short(at: _At, e: ev.ResourceShort) -> str | None:
    if e.resource not in at.procedure.resources:
        return f"{quote(e.resource)} is not a resource of {at.procedure.name}"
    return (_member(at.state, e.name) if e.name else None) or _number(
        "wanted", e.wanted, 1, MAX_NUMBER
    )


@_checks(ev.LightRenewed)
def _renewed(at: _At, e: ev.LightRenewed) -> str | None:
    return _usage_die(e.usage_die) or _light(at.state, e.id) or _number("strikes", e.strikes, 0, 0)
