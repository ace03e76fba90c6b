"""Events: the immutable facts an expedition is made of.

Every event is a frozen attrs class named in the past tense. Each has a stable type name
(its class name) and a schema version, and turns into a JSON-able payload and back without
loss. Replay never rolls a die: ``DiceRolled`` keeps every face.
"""

import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from delvetui.values import Value

if TYPE_CHECKING:
    from delvetui.dice import Roll

_T = TypeVar("_T")

#: Every event class by its stable type name.
EVENT_TYPES: dict[str, type["Event"]] = {}
#: The schema version written for each event type.
SCHEMA_VERSIONS: dict[str, int] = {}
#: An upcaster: a payload of one version as the next version writes it.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
#: How a payload of an older version is read: (type name, version) → the payload as the
#: next version writes it. ``from_payload`` runs them in order from the stored version up to
#: the one this program writes, so an event class only ever sees payloads of its own
#: version. Every version bump has its upcaster (tests/test_event_coverage.py); they are at
#: the end of this module.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def event(version: int = 1) -> Callable[[type[_T]], type[_T]]:
    """Register an event class under its name with a schema version."""

    def register(cls: type[_T]) -> type[_T]:
        EVENT_TYPES[cls.__name__] = cls  # type: ignore[assignment]
        SCHEMA_VERSIONS[cls.__name__] = version
        return cls

    return register


@attrs.frozen(repr=False, eq=False)
class Event(Value):
    """Base of every event."""

    @property
    def type(self) -> str:
        """The stable type name stored in the expedition file."""
        return type(self).__name__

    def to_payload(self) -> dict[str, Any]:
        """The event's fields as JSON-able data (name/value pairs as a JSON object)."""
        data = attrs.asdict(self)
        for field in attrs.fields(type(self)):
            if field.metadata.get("pairs"):
                data[field.name] = dict(getattr(self, field.name))
        return data

    @classmethod
    def from_payload(cls, type_name: str, version: int, payload: dict[str, Any]) -> "Event":
        """Rebuild an event from the file; unknown types or versions raise ValueError.

        Every field is checked against its declared type first (TypeError otherwise):
        checksums catch damage, not a file made by hand, and a field of the wrong type
        would otherwise pass here and break the replay far away.
        """
        event_type = EVENT_TYPES.get(type_name)
        if event_type is None:
            raise ValueError(f"unknown event type {type_name!r}")
        if version > SCHEMA_VERSIONS[type_name]:
            raise ValueError(f"{type_name} version {version} is newer than this program")
        payload = upcast(type_name, version, payload)
        wrong = wrong_field(type_name, payload)
        if wrong is not None:
            held = type(payload[wrong]).__name__
            raise TypeError(f"{type_name}.{wrong} holds {held}, not what the field takes")
        return event_type(**payload)


def upcast(type_name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """A payload stored at ``version`` as the version this program writes gives it."""
    for older in range(version, SCHEMA_VERSIONS[type_name]):
        step = UPCASTERS.get((type_name, older))
        if step is not None:
            payload = step(payload)
    return payload


def upcaster(type_name: str, version: int) -> Callable[[Upcaster], Upcaster]:
    """Register the decorated function as the upcaster of ``type_name`` payloads at ``version``."""

    def register(step: Upcaster) -> Upcaster:
        UPCASTERS[(type_name, version)] = step
        return step

    return register


_FIELD_TYPES: dict[str, dict[str, Any]] = {}


def wrong_field(type_name: str, payload: dict[str, Any]) -> str | None:
    """The first field of the payload whose value is not of the field's type, if any."""
    if type_name not in _FIELD_TYPES:
        _FIELD_TYPES[type_name] = typing.get_type_hints(EVENT_TYPES[type_name])
    hints = _FIELD_TYPES[type_name]
    for name, value in payload.items():
        if name in hints and not _fits(hints[name], value):
            return name
    return None


def _fits(hint: Any, value: object) -> bool:
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return any(_fits(arg, value) for arg in args)
    if origin is tuple:
        if isinstance(value, dict) and args and typing.get_origin(args[0]) is tuple:
            # Name/value pairs are kept in the file as a JSON object (see _pairs).
            key, item = typing.get_args(args[0])[:2]
            return all(_fits(key, k) and _fits(item, v) for k, v in value.items())
        return isinstance(value, list | tuple) and all(_fits(args[0], item) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            _fits(args[0], key) and _fits(args[1], item) for key, item in value.items()
        )
    return True  # a kind of field this check does not know is left to the class itself


def _pairs(value: Any) -> tuple[tuple[str, int], ...]:
    """Name/value pairs, sorted and frozen: an event can hold no dict, which could be changed."""
    items = value.items() if isinstance(value, dict) else value
    return tuple(sorted((str(name), int(number)) for name, number in items))


#: A field of name/value pairs: a sorted tuple in the event, a JSON object in the file.
_PAIRS: dict[str, Any] = {"pairs": True}


def _tuple_of_ints(value: Any) -> tuple[int, ...]:
    return tuple(int(item) for item in value)


def _tuple_of_str(value: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in value)


# The expedition and its party -------------------------------------------------------------


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionStarted(Event):
    """A new expedition began with this procedure, seed and start time."""

    name: str
    procedure_id: str
    procedure_name: str
    seed: int
    clock: int
    turn_type: str


@event()
@attrs.frozen(repr=False, eq=False)
class MemberJoined(Event):
    """A party member joined with hit points and the abilities the procedure uses."""

    name: str
    hp: int
    max_hp: int
    abilities: tuple[tuple[str, int], ...] = attrs.field(
        factory=tuple, converter=_pairs, metadata=_PAIRS
    )
    tracks: tuple[tuple[str, int], ...] = attrs.field(
        factory=tuple, converter=_pairs, metadata=_PAIRS
    )


@event()
@attrs.frozen(repr=False, eq=False)
class MemberEdited(Event):
    """A party member's maximum hit points or abilities were changed by the game master."""

    name: str
    max_hp: int
    abilities: tuple[tuple[str, int], ...] = attrs.field(
        factory=tuple, converter=_pairs, metadata=_PAIRS
    )


@event()
@attrs.frozen(repr=False, eq=False)
class MemberLeft(Event):
    """A party member left the party."""

    name: str


@event()
@attrs.frozen(repr=False, eq=False)
class MarchingOrderSet(Event):
    """The party's marching order was set: every member, front first."""

    names: tuple[str, ...] = attrs.field(converter=_tuple_of_str)


@event()
@attrs.frozen(repr=False, eq=False)
class HpChanged(Event):
    """A member's hit points changed (damage, healing or the game master's hand)."""

    name: str
    hp: int
    change: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class FatigueChanged(Event):
    """A member stepped along the procedure's fatigue ladder."""

    name: str
    level: int
    label: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ConditionGained(Event):
    """A member gained a condition (exhausted, surprised...)."""

    name: str
    condition: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ConditionLost(Event):
    """A member lost a condition."""

    name: str
    condition: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class TrackChanged(Event):
    """A number kept per member (resilience hours, endurance) changed."""

    name: str
    track: str
    value: int
    reason: str


# Lights ----------------------------------------------------------------------------------


@event()
@attrs.frozen(repr=False, eq=False)
class LightAdded(Event):
    """Light sources joined the inventory: one, or a stack of the same kind."""

    id: str
    kind: str
    count: int
    carrier: str | None
    minutes: int | None
    brightness: str
    usage_die: int | None = None


@event()
@attrs.frozen(repr=False, eq=False)
class LightLit(Event):
    """A light was lit; taken from a stack, it becomes a light of its own with a new id."""

    id: str
    source: str
    carrier: str | None


@event()
@attrs.frozen(repr=False, eq=False)
class LightPutOut(Event):
    """A light went out: put out by hand, blown out, or burnt up (spent)."""

    id: str
    reason: str
    spent: bool


@event()
@attrs.frozen(repr=False, eq=False)
class LightDimmed(Event):
    """A bright light dimmed."""

    id: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class LightFlickered(Event):
    """A light just lit flickered ominously at a result that would have put it out."""

    id: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class LightsBurned(Event):
    """Time passed for the lit lights that burn by the clock."""

    ids: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    minutes: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class LightTimerSet(Event):
    """A light's time left was set (shortened, refuelled, corrected)."""

    id: str
    minutes: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class LightHandedOver(Event):
    """A light changed hands."""

    id: str
    carrier: str | None


@event()
@attrs.frozen(repr=False, eq=False)
class LightStruck(Event):
    """A strike counted against a light that goes out on the Nth."""

    id: str
    strikes: int


@event()
@attrs.frozen(repr=False, eq=False)
class UsageDieStepped(Event):
    """A light's usage die stepped down (d6 to d4); none left means spent."""

    id: str
    die: int | None


@event()
@attrs.frozen(repr=False, eq=False)
class UsageDieSet(Event):
    """A light's usage die was set (corrected by the game master): d4 to d20."""

    id: str
    die: int
    reason: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class LightRealTimeSet(Event):
    """A light was set to burn in real time with this many seconds left (None: by turns again)."""

    id: str
    seconds: int | None
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class RealTimePassed(Event):
    """Real seconds passed at the table for these lit lights that burn in real time."""

    ids: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    seconds: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class RealTimePaused(Event):
    """The table's real-time clock was paused (every real-time light stops) or resumed."""

    paused: bool
    reason: str = ""


# Timers -------------------------------------------------------------------------------------


@event()
@attrs.frozen(repr=False, eq=False)
class TimerStarted(Event):
    """The game master started a timer: ``left`` turns (``unit`` "turns"), minutes
    ("minutes", or "hours" shown in hours) or real seconds ("real") until it runs out."""

    name: str
    unit: str
    left: int
    label: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class TimerChanged(Event):
    """A running timer was set to another length (``timer set bless 3t``)."""

    name: str
    unit: str
    left: int


@event()
@attrs.frozen(repr=False, eq=False)
class TimerCancelled(Event):
    """The game master stopped a timer before it ran out."""

    name: str


@event()
@attrs.frozen(repr=False, eq=False)
class TimersCounted(Event):
    """A turn ended for these running timers: a turn timer loses one turn, a timer in
    minutes or hours loses the turn's ``minutes``."""

    names: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    minutes: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class TimersRealTimePassed(Event):
    """Real seconds passed at the table for these timers that run in real time."""

    names: tuple[str, ...] = attrs.field(converter=_tuple_of_str)
    seconds: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class TimerWarned(Event):
    """A timer runs out in the next turn (a real-time one within a minute): the game
    master was warned (``left`` as kept)."""

    name: str
    left: int


@event()
@attrs.frozen(repr=False, eq=False)
class TimerEnded(Event):
    """A timer ran out at the end of a turn and was taken off the table."""

    name: str


# Turns, rolls and results ------------------------------------------------------------------


@event()
@attrs.frozen(repr=False, eq=False)
class TurnStarted(Event):
    """A turn began with an action."""

    number: int
    action: str
    turn_type: str
    resting: bool
    distance: str = ""
    flags: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_str)


@event()
@attrs.frozen(repr=False, eq=False)
class TurnEnded(Event):
    """A turn ended and its minutes passed on the clock."""

    number: int
    minutes: int


@event()
@attrs.frozen(repr=False, eq=False)
class DiceRolled(Event):
    """Dice were rolled (or typed in from the table); every face is kept."""

    key: str
    purpose: str
    expression: str
    faces: tuple[int, ...] = attrs.field(converter=_tuple_of_ints)
    kept: tuple[int, ...] = attrs.field(converter=_tuple_of_ints)
    modifier: int = 0
    total: int = 0
    hit: bool | None = None
    entered: bool = False

    @classmethod
    def of(cls, key: str, purpose: str, result: "Roll") -> "DiceRolled":
        """The event for a roll (or a typed result) made under ``key`` for ``purpose``."""
        return cls(
            key=key,
            purpose=purpose,
            expression=result.expression,
            faces=result.faces,
            kept=result.kept,
            modifier=result.modifier,
            total=result.total,
            hit=result.hit,
            entered=result.entered,
        )


@event()
@attrs.frozen(repr=False, eq=False)
class ResultRead(Event):
    """A roll was read on a table (or against a number) and gave this result."""

    key: str
    table: str
    total: int
    label: str
    text: str
    row: int = -1
    ignored: str = ""


@event(4)
@attrs.frozen(repr=False, eq=False)
class EncounterBegan(Event):
    """An encounter: the party meets a creature (the one a sign promised, if any).

    Version 2 added ``foretold``: whether the creature is the one a sign foretold (true)
    or one the game master named (false). Version 1 named a creature only from a sign.
    Version 3 added ``distance``: how far away the encounter begins, in words ("far",
    "70 feet"), or empty when nobody said.
    Version 4 added ``area``, ``appearing`` and ``reaction``: what the adventure's own
    table for the area gave (how many appear, 0 when not rolled; their reaction).
    """

    text: str
    creature: str = ""
    foretold: bool = True
    distance: str = ""
    area: str = ""
    appearing: int = 0
    reaction: str = ""


@event(2)
@attrs.frozen(repr=False, eq=False)
class SignFound(Event):
    """The party found a sign; when it ``foretells``, the next encounter is its creature.

    Version 2 added ``creature`` and ``foretells``: only a procedure that carries a sign
    forward names the next encounter by it.
    """

    text: str
    creature: str = ""
    foretells: bool = False


@event()
@attrs.frozen(repr=False, eq=False)
class CheckMade(Event):
    """A check or save was made against a difficulty."""

    id: str
    name: str
    label: str
    dc: int
    total: int
    success: bool


@event()
@attrs.frozen(repr=False, eq=False)
class CounterChanged(Event):
    """A counter such as the alarm changed."""

    counter: str
    value: int
    change: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class EffectDeferred(Event):
    """An effect waits for the next turn, when resting cancels it."""

    ref: str
    label: str
    member: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class DeferredResolved(Event):
    """A deferred effect was applied (applied=True) or cancelled by rest."""

    ref: str
    label: str
    applied: bool


@event()
@attrs.frozen(repr=False, eq=False)
class RestBroken(Event):
    """An encounter interrupted the party's rest: the rest in a row starts again."""

    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class RestSkipped(Event):
    """The party went on without the rest the procedure asks for."""

    turns: int


@event()
@attrs.frozen(repr=False, eq=False)
class Logged(Event):
    """A line the procedure writes in the log."""

    text: str
    label: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class ActivityDone(Event):
    """Someone did an activity within the turn (``do ACTIVITY [by=NAME]``).

    ``by`` is the member who did it ('' when no one was named): a procedure that gives each
    member one activity a turn counts them from it.
    """

    activity: str
    text: str
    label: str = ""
    by: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class Noted(Event):
    """The game master wrote a note."""

    text: str


@event()
@attrs.frozen(repr=False, eq=False)
class ClockSet(Event):
    """The game master set the clock (minutes since the start of day 1)."""

    clock: int
    reason: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class TurnTypeChanged(Event):
    """The party moved to another kind of turn (dungeon, wilderness, haven)."""

    turn_type: str


@event()
@attrs.frozen(repr=False, eq=False)
class ProcedureChanged(Event):
    """The expedition moved to another version of its procedure (or another procedure).

    Carries the new procedure's full text, so the file alone replays it; ``digest``
    names that text.
    """

    procedure_id: str
    procedure_name: str
    digest: str
    text: str


# Undo, redo and sessions -------------------------------------------------------------------


@event(2)
@attrs.frozen(repr=False, eq=False)
class BatchVoided(Event):
    """A command was undone: its batch no longer counts."""

    batch: int
    command: str
    #: The turns the batch took ('turn 5', 'turns 5-6'; '' when none). Added in version 2.
    turns: str = ""


@event(2)
@attrs.frozen(repr=False, eq=False)
class BatchRestored(Event):
    """An undone command was redone: its batch counts again."""

    batch: int
    command: str
    #: The turns the batch took ('turn 5', 'turns 5-6'; '' when none). Added in version 2.
    turns: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class SessionStarted(Event):
    """A session at the table began."""

    number: int
    date: str


@event()
@attrs.frozen(repr=False, eq=False)
class SessionEnded(Event):
    """A session at the table ended."""

    number: int
    date: str


@event()
@attrs.frozen(repr=False, eq=False)
class ShownToPlayers(Event):
    """The game master showed (or hid) something on the players' screen: sign, encounter, hp."""

    what: str
    shown: bool


# Resources ---------------------------------------------------------------------------------


@event()
@attrs.frozen(repr=False, eq=False)
class ResourceChanged(Event):
    """A resource (rations, oil flasks) was used, found or counted anew.

    ``name`` is the member who holds it, or "" for a resource the party keeps as one stock.
    """

    name: str
    resource: str
    value: int
    change: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ResourceShort(Event):
    """A member (or, with ``name`` "", the party) had too few of a resource to use.

    ``wanted`` is how many were missing; what the procedure does then follows as events.
    """

    name: str
    resource: str
    wanted: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class LightRenewed(Event):
    """Refuelling renewed a light: its usage die is whole again and its strikes are gone."""

    id: str
    usage_die: int | None
    strikes: int = 0
    reason: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class ConditionTimed(Event):
    """A member's condition was given a duration, from the turn it was given in (``turn``):
    it lasts ``turns`` more turns, or until the next rest after that turn (``until`` is
    "rest"). It then ends by itself; given again, the new duration replaces the old.
    """

    name: str
    condition: str
    turn: int
    turns: int = 0
    until: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class EncounterDescribed(Event):
    """The game master named this turn's encounter, or said how far away it is, after the
    dice showed it (``encounter creature=ghouls distance=40ft``); empty means unchanged."""

    creature: str = ""
    distance: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class HazardRead(ResultRead):
    """The per-turn hazard roll was read: a ResultRead that is also the turn's last hazard.

    A roll rule called ``hazard`` has always been the hazard roll and is still written as a
    plain ResultRead; a rule marked ``hazard = true`` under another name is written as this,
    so replay knows it is the hazard roll without the procedure.
    """


@event()
@attrs.frozen(repr=False, eq=False)
class IntervalChanged(Event):
    """A roll rule's interval changed with the state (every 2 turns while the danger is
    risky): ``every`` is the new interval, ``choice`` the index of the rule's interval in
    force (-1: its own ``every``), and its count starts again after ``since`` turns."""

    roll: str
    choice: int
    every: int
    since: int


# The adventure's own tables ------------------------------------------------------------------


@event()
@attrs.frozen(repr=False, eq=False)
class TablesAdded(Event):
    """The game master's own tables for the adventure joined the expedition.

    Carries the file's full text, so the expedition never reads the file again; tables with
    the id of tables already carried replace them (the file was edited).
    """

    id: str
    name: str
    text: str


@event()
@attrs.frozen(repr=False, eq=False)
class CalendarSet(Event):
    """A calendar was named for this expedition (``new --calendar FILE``, or carried from
    the one before): the whole text of its ``[calendar]`` table, so the file is never read
    again. It stands in place of the procedure's own calendar; it comes in batch 1."""

    text: str


@event()
@attrs.frozen(repr=False, eq=False)
class AreaEntered(Event):
    """The party moved to another area (level) of the adventure: its table is in use."""

    area: str


# The campaign: ending an expedition, and the next one continuing it -------------------------


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionEnded(Event):
    """The game master ended the expedition ("the party is back in town"): from now on it
    takes no command but ``reopen``, ``undo`` and ``redo``."""

    words: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionReopened(Event):
    """The game master took an ended expedition up again."""


@event()
@attrs.frozen(repr=False, eq=False)
class ExpeditionContinued(Event):
    """This expedition continues another (its predecessor): in batch 1, right after the start.

    ``predecessor_id`` and ``predecessor_digest`` name the predecessor's file and its log
    when this one was started from it; ``ended_clock`` is its clock at its end (minutes
    since day 1 began) and ``downtime_minutes`` the time from then to this start.
    ``notes`` say what did not carry over. The carried party, lights and supplies follow
    as events of their own, so a replay never reads the predecessor.
    """

    predecessor: str
    predecessor_id: str
    predecessor_digest: str
    campaign: str
    ended_clock: int
    downtime_minutes: int
    notes: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_str)


@event()
@attrs.frozen(repr=False, eq=False)
class CampaignNamed(Event):
    """The first expedition of a chain was started in a named campaign (batch 1)."""

    campaign: str


@event()
@attrs.frozen(repr=False, eq=False)
class CheckMadeUnder(Event):
    """A check rolled under an ability score was made: a success is a die above ``above``
    (the difficulty) and at most the member's ``ability`` score, ``score``."""

    id: str
    name: str
    label: str
    ability: str
    score: int
    above: int
    total: int
    success: bool

    def problem(self) -> str | None:
        """Why no roll could have given this verdict (the audit's check), or None."""
        if self.success == (self.above < self.total <= self.score):
            return None
        return f"{self.total} above {self.above} and at most {self.score} is not {self.success}"


# Upcasters: older payloads as the next version writes them ---------------------------------
# One function per version bump, named for the type and the version it reads. A field added
# later is filled here, with the value that says what the older version meant, rather than
# left to the class's default; a field renamed or re-meant is moved or translated here.


@upcaster("EncounterBegan", 1)
def _encounter_began_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 named a creature only from a sign: a named creature was the one foretold.
    return {"foretold": True, **payload}


@upcaster("EncounterBegan", 2)
def _encounter_began_2(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 2 never said how far away an encounter began.
    return {"distance": "", **payload}


@upcaster("EncounterBegan", 3)
def _encounter_began_3(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 3 knew no adventure's own tables: no area, no number appearing, no reaction.
    return {"area": "", "appearing": 0, "reaction": "", **payload}


@upcaster("SignFound", 1)
def _sign_found_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 signs foretold nothing: no procedure carried a sign forward yet.
    return {"creature": "", "foretells": False, **payload}


@upcaster("BatchVoided", 1)
@upcaster("BatchRestored", 1)
def _batch_turns_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 did not name the turns the batch took: the log names the command alone.
    return {"turns": "", **payload}
