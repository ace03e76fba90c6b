"""The procedure format as attrs models.

A procedure is data: the loader turns a TOML file into these frozen classes and reports
every problem at once. Field names are the TOML keys; a field's docstring-like ``help``
metadata is what ``docs/procedures.md`` documents. Nothing here runs game rules; the
engine in ``delvetui.core`` reads these models.
"""

from collections.abc import Iterable
from typing import Any, Literal

import attrs

from delvetui.procedure import bounds
from delvetui.procedure.bounds import (
    ACTION_TURNS,
    AMOUNT,
    COUNT,
    DISTANCE,
    MODIFIER,
    TURN_MINUTES,
    TURNS,
    YEAR_HOURS,
    YEAR_MINUTES,
    Bound,
    bound,
)
from delvetui.procedure.conditions import Condition
from delvetui.values import Value, as_tuple

Brightness = Literal["bright", "dim"]
LightLevelName = Literal["bright", "dim", "dark"]
RollPoint = Literal["start", "end", "action"]
Target = Literal["each", "party", "by", "by-or-each"]
RollMode = Literal["advantage", "disadvantage"]
#: The roll rule that is the per-turn hazard roll without being marked (see RollRule.hazard).
HAZARD = "hazard"


def _help(text: str, within: Bound | None = None) -> dict[str, Any]:
    """A field's help line, and its range when it is a number (``procedure.bounds``)."""
    return {"help": text} if within is None else {"help": text, bounds.KEY: within}


#: Field metadata: the key takes a list, and a single value written alone is a list of one
#: (``over = { do = "damage", ... }`` as well as ``over = [{ ... }, { ... }]``).
ONE_OR_LIST = {"one_or_list": True}


def _one_or_list(value: object) -> tuple[Any, ...]:
    """A list field's value: a lone value is a list of one, None an empty list."""
    if value is None:
        return ()
    if isinstance(value, list | tuple):
        return tuple(value)
    return (value,)


#: The marks a room of the dungeon can carry (``room ROOM +MARK``, the ``room-mark`` effect).
ROOM_MARKS = ("explored", "cleared", "looted", "trapped", "forced", "restocked")


@attrs.frozen(repr=False, eq=False)
class Effect(Value):
    """One thing a result, an action or a check does; ``do`` says which."""

    #: The kind; ``procedure.effect_kinds`` declares every kind and its keys, and
    #: ``delvetui.core.effects`` holds what each does.
    do: str = attrs.field(metadata=_help("What the effect does."))
    text: str = attrs.field(default="", metadata=_help("Words for the log; {name} etc."))
    label: str = attrs.field(default="", metadata=_help("A short name shown in the log."))
    when: Condition | None = attrs.field(default=None, metadata=_help("Only when this holds."))
    unless_rest_next: bool = attrs.field(
        default=False,
        metadata=_help("Deferred to the next turn and cancelled if the party rests then."),
    )
    table: str = attrs.field(default="", metadata=_help("roll: the table to roll on."))
    dice: str = attrs.field(default="", metadata=_help("Dice to roll (damage, heal, check)."))
    amount: int | str | None = attrs.field(
        default=None,
        metadata=_help(
            "A fixed amount, or a counter whose value (or a number input whose number) it "
            "is when the effect happens.",
            Bound(0, AMOUNT),
        ),
    )
    target: Target = attrs.field(
        default="each",
        metadata=_help(
            "Who: each member, the party, the member `by`, or `by-or-each` (the member named "
            "with by=NAME, else each member)."
        ),
    )
    per_point: bool = attrs.field(
        default=False, metadata=_help("Multiply by the points a check was missed by.")
    )
    ability: str = attrs.field(
        default="", metadata=_help("Ability whose modifier is added; 'best' for the highest.")
    )
    id: str = attrs.field(default="", metadata=_help("check, choose: the name typed results use."))
    dc: int = attrs.field(
        default=10, metadata=_help("check: the base difficulty.", Bound(-1_000, 1_000))
    )
    dc_inputs: tuple[str, ...] = attrs.field(
        default=(), converter=as_tuple, metadata=_help("check: inputs added to the DC.")
    )
    dc_turns: bool = attrs.field(
        default=False, metadata=_help("check: add the turns taken so far to the DC.")
    )
    dc_counter: str = attrs.field(
        default="", metadata=_help("check: a counter whose value is added to the DC.")
    )
    dc_max: int | None = attrs.field(
        default=None, metadata=_help("check: the highest DC.", Bound(-1_000, 1_000))
    )
    dc_over: bool = attrs.field(
        default=False, metadata=_help("check: add how far a track is over its limit.")
    )
    above: int | None = attrs.field(
        default=None,
        metadata=_help(
            "check: rolled under the member's `ability` score instead: a success is a die "
            "above this (the difficulty, 0 for none) and at most the score.",
            Bound(0, 1_000),
        ),
    )
    dc_ability: str = attrs.field(
        default="",
        metadata=_help(
            "check: the DC is the member's score in this ability, in place of `dc` (a "
            "save's target number the character sheet gives)."
        ),
    )
    on_success: tuple["Effect", ...] = attrs.field(default=(), converter=as_tuple)
    on_failure: tuple["Effect", ...] = attrs.field(default=(), converter=as_tuple)
    step: int = attrs.field(
        default=1, metadata=_help("fatigue: steps down the ladder.", Bound(-100, 100))
    )
    add: int | None = attrs.field(
        default=None, metadata=_help("counter/track: added.", Bound(-COUNT, COUNT))
    )
    condition: str = attrs.field(default="", metadata=_help("condition: the condition gained."))
    remove: tuple[str, ...] = attrs.field(
        default=(),
        converter=_one_or_list,
        metadata={**ONE_OR_LIST, **_help("condition: the condition (or list of them) lost.")},
    )
    set: int | None = attrs.field(
        default=None, metadata=_help("counter/track: set to.", Bound(-COUNT, COUNT))
    )
    per_input: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_help(
            "counter: added per unit of an input, e.g. {sparks = -1}.", Bound(-1_000, 1_000)
        ),
    )
    counter: str = attrs.field(default="", metadata=_help("counter: which counter."))
    per_counter: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_help(
            "counter: added per unit of another counter's value, e.g. {noise = -1}.",
            Bound(-1_000, 1_000),
        ),
    )
    track: str = attrs.field(default="", metadata=_help("track: which member track."))
    kinds: tuple[str, ...] = attrs.field(
        default=(), converter=as_tuple, metadata=_help("Light kinds affected (all when empty).")
    )
    count: int | None = attrs.field(
        default=None,
        metadata=_help("How many lights (the ones with least time left first).", Bound(0, 999)),
    )
    spent: bool = attrs.field(
        default=True, metadata=_help("lights-out: the light is used up (false: can be relit).")
    )
    turns: int | None = attrs.field(
        default=None,
        metadata=_help(
            "lights-shorten: turns taken off; condition: the turns it lasts.",
            Bound(0, TURNS, "turns"),
        ),
    )
    foretells: bool = attrs.field(
        default=False,
        metadata=_help(
            "sign: the sign names the creature of the next encounter (the game master is "
            "asked which creature; the next encounter is that creature)."
        ),
    )
    spare_fresh: bool = attrs.field(
        default=False,
        metadata=_help(
            "lights-out: a light lit since the last turn ended only flickers ominously "
            "instead of going out."
        ),
    )
    low_kinds: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "lights-out: kinds that run low instead of going out: their time left is cut "
            "to low_turns (they go out when they had no more than that)."
        ),
    )
    low_turns: int = attrs.field(
        default=1,
        metadata=_help(
            "lights-out: the turns a light that runs low has left after the turn it ran low in.",
            Bound(0, TURNS, "turns"),
        ),
    )
    minutes: int | None = attrs.field(
        default=None, metadata=_help("lights-shorten: minutes.", Bound(0, YEAR_MINUTES, "minutes"))
    )
    check_kind: str = attrs.field(
        default="",
        metadata=_help(
            "check: what kind of check it is ('sight', 'attack', 'stealth'), for the modes "
            "a light level or a condition gives checks of that kind."
        ),
    )
    until: str = attrs.field(
        default="",
        metadata=_help("condition: 'rest': the condition gained lasts until the next rest."),
    )
    remove_kind: str = attrs.field(
        default="",
        metadata=_help("condition: every condition of this kind ends ('transient')."),
    )
    resource: str = attrs.field(
        default="", metadata=_help("consume/supply: which resource (rations, oil).")
    )
    on_short: tuple["Effect", ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help("consume: what happens to a member (or the party) who has none left."),
    )
    distance: str = attrs.field(
        default="",
        metadata=_help("encounter: how far away it begins, in words ('far'); {name} etc."),
    )
    distance_dice: str = attrs.field(
        default="", metadata=_help("encounter: dice for the distance (2d6), times distance_times.")
    )
    distance_times: int = attrs.field(
        default=1,
        metadata=_help(
            "encounter: what the distance dice are multiplied by (10).", Bound(1, 1_000)
        ),
    )
    level: str = attrs.field(
        default="", metadata=_help("counter: set to this named level of the counter.")
    )
    options: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help("choose: the options the party chooses among, typed as ID=OPTION."),
    )
    distance_unit: str = attrs.field(
        default="",
        metadata=_help(
            "encounter: the unit of the distance dice (yards), when not the turn's own unit."
        ),
    )
    players: str = attrs.field(
        default="",
        metadata=_help(
            "encounter: what the players' screen says of it, in the players' words (the "
            "game master's `text`, with its book references, never reaches it)."
        ),
    )
    share: bool = attrs.field(
        default=False,
        metadata=_help(
            "supply: one find for the whole party, shared out one at a time among the "
            "members, whoever holds fewest first."
        ),
    )
    mark: str = attrs.field(
        default="",
        metadata=_help(
            "room-mark: the mark put on the room the party is in (cleared, looted, trapped, "
            "forced, restocked, explored)."
        ),
    )
    side: str = attrs.field(
        default="",
        metadata=_help("surprise: the side the encounter surprised (party or foes)."),
    )

    def branches(self) -> tuple[tuple[str, tuple["Effect", ...]], ...]:
        """The lists of effects nested in this one, by key (a check's two outcomes)."""
        return tuple(
            (name, nested)
            for name, nested in (
                ("on_success", self.on_success),
                ("on_failure", self.on_failure),
                ("on_short", self.on_short),
            )
            if nested
        )


@attrs.frozen(repr=False, eq=False)
class Input(Value):
    """A value the game master gives with a command: a check the players rolled, a choice."""

    label: str = ""
    values: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    number: bool = False
    default: str | None = None
    required: bool = False
    #: Required only when this holds (sparks are asked only after a successful check).
    required_when: Condition | None = None
    #: Who gives it: the players' roll ("players") or the game master's choice ("gm").
    given_by: Literal["players", "gm"] = "players"


@attrs.frozen(repr=False, eq=False)
class Row(Value):
    """One line of a result table: the range it covers and what it does."""

    roll: str
    label: str
    text: str = ""
    effects: tuple[Effect, ...] = attrs.field(default=(), converter=as_tuple)
    ignore_first_turns: int = attrs.field(default=0, metadata=bound(0, TURNS, "turns"))
    ignore_while_resting: bool = False
    highlight: bool = False


@attrs.frozen(repr=False, eq=False)
class Table(Value):
    """A result table of ranges, rolled with its dice."""

    label: str
    dice: str
    rows: tuple[Row, ...] = attrs.field(converter=as_tuple)


@attrs.frozen(repr=False, eq=False)
class Interval(Value):
    """How often a roll rule is made while a condition holds (every 2 turns when risky)."""

    every: int = attrs.field(
        metadata=_help(
            "Every this many turns, counted from when this interval came in.",
            Bound(1, TURNS, "turns"),
        )
    )
    when: Condition = attrs.field(
        metadata=_help("While this holds: a counter's level, a light level, any condition.")
    )


@attrs.frozen(repr=False, eq=False)
class RollRule(Value):
    """A roll made during the turn: on a table, or against a number or counter."""

    label: str
    dice: str = ""
    table: str = ""
    when: RollPoint = "end"
    every: int = attrs.field(default=1, metadata=bound(1, TURNS, "turns"))
    turn_types: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    hit_at_most: int | str | None = attrs.field(default=None, metadata=bound(-COUNT, COUNT))
    hit_label: str = "hit"
    miss_label: str = "miss"
    text: str = ""
    on_hit: tuple[Effect, ...] = attrs.field(default=(), converter=as_tuple)
    on_miss: tuple[Effect, ...] = attrs.field(default=(), converter=as_tuple)
    only: Condition | None = None
    tables: dict[str, str] = attrs.field(
        factory=dict,
        metadata=_help(
            "The table rolled in each kind of turn, by turn type: "
            "{dungeon = 'dungeon_hazard', wilderness = 'wild_hazard'}."
        ),
    )
    hazard: bool = attrs.field(
        default=False,
        metadata=_help(
            "This is the per-turn hazard roll the table and status report as the last hazard "
            "(the rule called 'hazard' always is)."
        ),
    )
    intervals: tuple[Interval, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "Intervals that depend on the state: the first whose `when` holds gives `every`; "
            "the count starts again whenever another one comes in."
        ),
    )
    modes: dict[str, Condition] = attrs.field(
        factory=dict,
        metadata=_help(
            "The roll is made with advantage or disadvantage while a condition holds, e.g. "
            "{disadvantage = {counter_at_least = {owed = 1}}}; with the action's roll_mode, "
            "advantage and disadvantage cancel."
        ),
    )

    def table_for(self, turn_type: str) -> str:
        """The table this rule rolls on in a turn of this type ('' when it rolls on none)."""
        return self.tables.get(turn_type, self.table)


@attrs.frozen(repr=False, eq=False)
class Action(Value):
    """Something the party does with a turn (or, as an activity, within one)."""

    label: str
    #: "fight": the turn a fight takes on the clock (``[encounter] round_action`` or
    #: ``end_action``): never offered, never a bare ``turn``'s, taken only by the fight.
    kind: Literal["move", "activity", "rest", "fight"] = "activity"
    turns: int = attrs.field(default=1, metadata=bound(0, ACTION_TURNS, "turns"))
    distance: dict[str, float] = attrs.field(factory=dict, metadata=bound(0, DISTANCE))
    text: str = ""
    flags: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    effects: tuple[Effect, ...] = attrs.field(default=(), converter=as_tuple)
    rolls: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    skip_rolls: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    roll_mode: dict[str, RollMode] = attrs.field(factory=dict)
    inputs: dict[str, Input] = attrs.field(factory=dict)
    #: False when the action takes the characters' actions for the turn (Hide skips them):
    #: activities (``do ACTIVITY``) are refused until the next turn.
    activities: bool = True
    turn_types: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "The kinds of turn it is taken in (['dungeon']); in every kind when empty. In "
            "another kind it is neither offered nor accepted until the game master types "
            "`enter ID`."
        ),
    )

    #: The input whose number is each turn's length in minutes ("the time that passes is
    #: what the table says": ``turn pass-time minutes=30``); '' for the turn type's length.
    minutes_input: str = ""
    #: The turn's time passes for what burns in real time too (real-time lights and timers):
    #: time the table skipped over in a moment, not time that passed at the table.
    real_time: bool = False
    #: Everything that lasts a number of turns ends with the turn: timers counted in turns
    #: and conditions given for a number of turns ("effects lasting rounds expire").
    expires_turns: bool = False
    #: The action is refused while this holds (for any member, where it tests a member):
    #: "after a forced march the party must rest a whole day".
    refused_when: Condition | None = None
    #: Why, in the refusal's words ("the party must rest a whole day first").
    refusal: str = ""
    turns_dice: str = attrs.field(
        default="",
        metadata=_help(
            "Dice for the turns the action takes, rolled each time it is taken (a haven of "
            "1d4+1 days), typed as ACTION=N; in place of `turns`."
        ),
    )
    #: A rest (``kind = "rest"``) an encounter breaks: on a turn with an encounter the rest
    #: gives nothing (its effects and the tracks it resets wait on the turn's rolls, and are
    #: then not applied; the ``[rest]`` count runs on). False where the procedure says
    #: itself what an encounter does to a rest (a check each member makes).
    encounter_breaks: bool = True
    #: The action goes on with the next bare ``turn`` (``n``): a movement mode does (the
    #: default for ``kind = "move"``); a one-off action (a search, minutes passing, a
    #: hiding) takes its turn, and the next bare turn goes back to the movement mode.
    persist: bool | None = None

    #: Each member tries it once in a room (a door listened at, an area searched): the room
    #: keeps each try, and the log says when one was made there before.
    once_per_room: bool = False

    @property
    def persists(self) -> bool:
        """True when a bare ``turn`` after it takes it again (``persist``, by default
        true for a movement mode, false for any other action)."""
        return self.persist if self.persist is not None else self.kind == "move"

    def taken_in(self, turn_type: str) -> bool:
        """True when the action (or activity) belongs to this kind of turn."""
        return not self.turn_types or turn_type in self.turn_types


#: The sizes a usage die can have, largest first: a light's die steps down this ladder
#: (d20 → d12 → d10 → d8 → d6 → d4), and after the d4 the light is spent.
USAGE_DICE = (20, 12, 10, 8, 6, 4)


@attrs.frozen(repr=False, eq=False)
class LightKind(Value):
    """A kind of light source: how bright, how long, what puts it out."""

    label: str
    brightness: Brightness = "bright"
    turns: int | None = attrs.field(default=None, metadata=bound(0, TURNS, "turns"))
    hours: float | None = attrs.field(default=None, metadata=bound(0, YEAR_HOURS, "hours"))
    minutes: int | None = attrs.field(default=None, metadata=bound(0, YEAR_MINUTES, "minutes"))
    can_blow_out: bool = False
    usage_die: int | None = attrs.field(default=None, metadata=bound(4, 20))
    strikes: int | None = attrs.field(default=None, metadata=bound(1, 1_000))
    refuel_hours: float | None = attrs.field(default=None, metadata=bound(0, YEAR_HOURS, "hours"))
    refuel_label: str = ""
    #: Burns this many real minutes, counted by the table while it is open (not by turns).
    real_minutes: int | None = attrs.field(default=None, metadata=bound(1, 1_440, "minutes"))
    #: The table records its real time every this many minutes (1 when not given).
    real_step: int | None = attrs.field(default=None, metadata=bound(1, 60, "minutes"))
    text: str = ""
    #: Refuelling takes one of this resource, from the carrier (a member's resource) or
    #: from the party's (a party resource); refused when none is left.
    refuel_resource: str = ""
    #: Dice for the turns a source burns, rolled when it is first lit ("1d4+4").
    turns_dice: str = ""
    #: Lights only this many members in its own light (its carrier first, then the nearest
    #: in the marching order); None lights the whole party.
    lights: int | None = attrs.field(default=None, metadata=bound(1, 1_000))
    #: And this many members more in dim light, beyond those it lights.
    dim_for: int = attrs.field(default=0, metadata=bound(0, 1_000))
    #: False for a light nobody carries (a campfire, daylight): it stays where it was and
    #: does not come to the next expedition.
    carried: bool = True
    #: False for a light that is used up when put out on purpose (``light off``, ``light
    #: douse``): a torch snuffed cannot be lit again.
    relight: bool = True
    #: Lit while another light of a kind that rides along burns, it takes that light's time
    #: left (real or by turns) instead of a fresh one: one timer for them all.
    rides_along: bool = False
    #: Made from lights of other kinds, taken from the party's unlit ones when it is added:
    #: ``{ torch = 3 }`` ("three torches make a campfire").
    made_from: dict[str, int] = attrs.field(factory=dict, metadata=bound(1, 100))

    @property
    def refuels(self) -> bool:
        """True when ``light refuel`` can refuel it (new time, or a resource that renews it)."""
        return self.refuel_hours is not None or bool(self.refuel_resource)

    def duration_minutes(self, turn_minutes: int) -> int | None:
        """Minutes a fresh source burns, or None when only the dice put it out."""
        if self.turns is not None:
            return self.turns * turn_minutes
        if self.hours is not None:
            return round(self.hours * 60)
        return self.minutes

    def refuel_minutes(self, turn_minutes: int) -> int | None:
        """Minutes one refuelling gives: ``refuel_hours`` when given, else the kind's own
        duration (a flask renews what a fresh lantern burns); None when it gives no time."""
        if self.refuel_hours is not None:
            return round(self.refuel_hours * 60)
        if self.refuel_resource:
            return self.duration_minutes(turn_minutes)
        return None

    @property
    def renews_nothing(self) -> bool:
        """True when refuelling would take its resource and give back nothing: no time of
        its own or ``refuel_hours``, no usage die, no strikes, no real time."""
        return self.refuels and not (
            self.refuel_hours is not None
            or self.duration_minutes(1) is not None
            or self.usage_die is not None
            or self.strikes is not None
            or self.real_minutes is not None
            or bool(self.turns_dice)
        )


@attrs.frozen(repr=False, eq=False)
class TimerKind(Value):
    """A timer the game's rules often need (a spell, a potion): the table offers it by name
    with its usual length, which the game master may change when starting it."""

    label: str = attrs.field(metadata=_help("Its name as the table shows it ('Light spell')."))
    turns: int | None = attrs.field(
        default=None, metadata=_help("It usually lasts this many turns.", Bound(1, COUNT, "turns"))
    )
    minutes: int | None = attrs.field(
        default=None, metadata=_help("Or this many in-world minutes.", Bound(1, COUNT, "minutes"))
    )
    hours: int | None = attrs.field(
        default=None, metadata=_help("Or this many in-world hours.", Bound(1, COUNT, "hours"))
    )
    text: str = attrs.field(default="", metadata=_help("Where its length comes from, in words."))

    @property
    def length(self) -> tuple[str, int]:
        """Its usual length: the unit ("turns", "minutes", "hours") and how many."""
        for unit in ("turns", "minutes", "hours"):
            amount = getattr(self, unit)
            if amount is not None:
                return unit, amount
        return "turns", 1


@attrs.frozen(repr=False, eq=False)
class LightLevel(Value):
    """What a light level (bright, dim, dark) does to the party's actions."""

    label: str
    text: str = ""
    flags: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    forbid: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    turns: dict[str, int] = attrs.field(factory=dict, metadata=bound(0, ACTION_TURNS, "turns"))
    movement_factor: float = attrs.field(default=1.0, metadata=bound(0, 10))
    #: Action flags this level takes away (darkness: no detecting traps, no mapping).
    cancels: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    #: Checks rolled at this level roll with advantage or disadvantage (setback in the dark).
    check_mode: RollMode | None = None
    #: Checks of a kind (a check's ``check_kind``) roll with advantage or disadvantage at
    #: this level: darkness hinders sight and attacks and helps stealth.
    check_modes: dict[str, RollMode] = attrs.field(factory=dict)
    #: Bright only: the party is in bright light only while the strikes left of its lit
    #: lights add up to at least this many per member; below, in dim light.
    strikes_per_member: float | None = attrs.field(
        default=None, metadata=bound(0, 1_000, above=True)
    )
    check_modifier: int | None = attrs.field(
        default=None,
        metadata=_help(
            "Added to every check rolled at this level (-2: a flat penalty).",
            Bound(-MODIFIER, MODIFIER),
        ),
    )
    check_modifiers: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_help(
            "Added to checks of a kind at this level: {movement = -10}.",
            Bound(-MODIFIER, MODIFIER),
        ),
    )


@attrs.frozen(repr=False, eq=False)
class MemberCondition(Value):
    """A condition a member can have (poisoned, shaken): its kind, duration and rules.

    Conditions not declared work as plain names; a declared one can last a number of
    turns or until the next rest, change the member's checks and slow the party.
    """

    label: str = attrs.field(default="", metadata=_help("Its name in the log (the id if none)."))
    kind: str = attrs.field(
        default="", metadata=_help("A kind the effect `remove_kind` ends together: 'transient'.")
    )
    text: str = attrs.field(default="", metadata=_help("What it does, in words."))
    check_mode: RollMode | None = attrs.field(
        default=None, metadata=_help("Every check of the member rolls with this mode.")
    )
    check_modes: dict[str, RollMode] = attrs.field(
        factory=dict, metadata=_help("The member's checks of a kind roll with these modes.")
    )
    movement_factor: float = attrs.field(
        default=1.0,
        metadata=_help("The party's distances are multiplied by this (0.5, 0).", Bound(0, 1)),
    )
    turns: int | None = attrs.field(
        default=None,
        metadata=_help(
            "It lasts this many turns unless the effect says.", Bound(1, TURNS, "turns")
        ),
    )
    until: str = attrs.field(
        default="", metadata=_help("'rest': it lasts until the next rest unless the effect says.")
    )
    sight: dict[str, str] = attrs.field(
        factory=dict,
        metadata=_help(
            "The light the member sees by at a level: { dark = 'dim' } sees darkness as dim."
        ),
    )
    check_modifier: int | None = attrs.field(
        default=None,
        metadata=_help(
            "Added to every check of the member (-1: a flat penalty).",
            Bound(-MODIFIER, MODIFIER),
        ),
    )
    check_modifiers: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_help(
            "Added to the member's checks of a kind: {attack = -1}.", Bound(-MODIFIER, MODIFIER)
        ),
    )


@attrs.frozen(repr=False, eq=False)
class Counter(Value):
    """A bounded number the procedure keeps, such as the alarm."""

    label: str
    start: int | str = attrs.field(default=0, metadata=bound(-COUNT, COUNT))
    min: int = attrs.field(default=0, metadata=bound(-COUNT, COUNT))
    max: int | None = attrs.field(default=None, metadata=bound(-COUNT, COUNT))
    text: str = ""
    levels: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "Names of its values from min up, e.g. ['safe', 'unsafe', 'risky', 'deadly']."
        ),
    )
    danger_at: int | str | None = attrs.field(
        default=None,
        metadata=_help(
            "At this value or over it (a number, or one of its levels) the counter is a "
            "danger, and the attention strip says so, e.g. 8.",
            Bound(-COUNT, COUNT),
        ),
    )
    on_change: tuple[Effect, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "What happens each time its value changes, by an effect or by `counter set` "
            "(the season set, the weather follows); no table is rolled here."
        ),
    )
    players: bool = attrs.field(
        default=False,
        metadata=_help(
            "The players see it: the players' screen shows its label and its value (or "
            "level), as the countdown clock, the alarm or a doom track on the table."
        ),
    )
    level_modifiers: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_help(
            "Added to every member's checks while the counter is at a level: "
            "{hungry = -1, starving = -2}.",
            Bound(-MODIFIER, MODIFIER),
        ),
    )
    level_movement: dict[str, float] = attrs.field(
        factory=dict,
        metadata=_help(
            "The party's distances are multiplied by this while the counter is at a level: "
            "{deep = 0.5}.",
            Bound(0, 1),
        ),
    )
    short: str = attrs.field(
        default="",
        metadata=_help(
            "A short name of at most 8 characters, shown where the label does not fit "
            "(a narrow table's party and counters): 'Rest' for 'Turns without rest'."
        ),
    )

    def top(self) -> int | None:
        """The highest value: max, else the last named level, else none."""
        if self.max is not None:
            return self.max
        return self.min + len(self.levels) - 1 if self.levels else None

    def value_of(self, level: str) -> int | None:
        """The value a named level stands for (ignoring case), None when it is not one."""
        folded = level.casefold()
        for index, name in enumerate(self.levels):
            if name.casefold() == folded:
                return self.min + index
        return None

    def level_of(self, value: int) -> str | None:
        """The name of a value, when the counter names its levels and the value has one."""
        index = value - self.min
        return self.levels[index] if 0 <= index < len(self.levels) else None

    def shown(self, value: int) -> str:
        """A value as the table says it: its level's name, or the number."""
        return self.level_of(value) or str(value)

    @property
    def first(self) -> int:
        """The value an expedition starts with (``start`` may name a level)."""
        if isinstance(self.start, int):
            return self.start
        found = self.value_of(self.start)
        return self.min if found is None else found


@attrs.frozen(repr=False, eq=False)
class Resource(Value):
    """Something counted that is used up and found again: rations, oil flasks, arrows."""

    label: str = attrs.field(metadata=_help("Its name as the table shows it ('Rations')."))
    per: Literal["member", "party"] = attrs.field(
        default="member",
        metadata=_help("Each member keeps their own ('member'), or the party one stock ('party')."),
    )
    start: int = attrs.field(
        default=0,
        metadata=_help("How many a member who joins (or the party) starts with.", Bound(0, COUNT)),
    )
    max: int | None = attrs.field(
        default=None, metadata=_help("The most that can be held.", Bound(0, COUNT))
    )
    text: str = attrs.field(default="", metadata=_help("What it is for, for the game master."))
    short: str = attrs.field(
        default="",
        metadata=_help(
            "A short name of at most 8 characters, shown where the label does not fit "
            "(a narrow table's party and counters): 'Rest' for 'Turns without rest'."
        ),
    )


@attrs.frozen(repr=False, eq=False)
class Track(Value):
    """A number kept per party member, such as resilience hours or endurance."""

    label: str
    start: int | str = attrs.field(default=0, metadata=bound(-COUNT, COUNT))
    per_turn: int = attrs.field(default=0, metadata=bound(-AMOUNT, AMOUNT))
    per_hour: int = attrs.field(default=0, metadata=bound(-AMOUNT, AMOUNT))
    limit: int | str | None = attrs.field(default=None, metadata=bound(-COUNT, COUNT))
    reset_by: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    reset_after: int = attrs.field(
        default=1,
        metadata=_help(
            "How many turns in a row of a `reset_by` action set the track back (2: two "
            "4-hour camps make a night's sleep); it does not grow on any of them.",
            Bound(1, TURNS, "turns"),
        ),
    )
    #: What happens to a member whose track goes over its limit: a list of effects (one
    #: effect written as a single table is a list of one, as procedures first wrote it).
    over: tuple[Effect, ...] = attrs.field(default=(), converter=_one_or_list, metadata=ONE_OR_LIST)
    text: str = ""
    danger_at: int | str | None = attrs.field(
        default=None,
        metadata=_help(
            "A member at this value or over it is in danger, and the attention strip says "
            'so: a number, or "over" for past the member\'s limit.',
            Bound(-COUNT, COUNT),
        ),
    )
    at_limit: bool = attrs.field(
        default=False,
        metadata=_help(
            "`over` happens when the track reaches its limit, not only when it passes it "
            "(Exhaustion equal to PHYS)."
        ),
    )
    short: str = attrs.field(
        default="",
        metadata=_help(
            "A short name of at most 8 characters, shown where the label does not fit "
            "(a narrow table's party and counters): 'Rest' for 'Turns without rest'."
        ),
    )

    def crossed(self, limit: int | None) -> int | None:
        """The highest value that is not yet over: the limit, or one below it with
        ``at_limit``; None without a limit."""
        if limit is None:
            return None
        return limit - 1 if self.at_limit else limit


@attrs.frozen(repr=False, eq=False)
class Party(Value):
    """What the procedure tracks for each member."""

    abilities: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)
    fatigue: tuple[str, ...] = attrs.field(default=("fresh",), converter=as_tuple)
    default_hp: int = attrs.field(default=6, metadata=bound(0, COUNT))
    #: Checks made by a member at a fatigue step roll with advantage or disadvantage,
    #: e.g. {exhausted = "disadvantage"}.
    fatigue_modes: dict[str, RollMode] = attrs.field(factory=dict)
    #: Checks made by a member with a condition roll with advantage or disadvantage,
    #: e.g. {exhausted = "disadvantage"}.
    condition_modes: dict[str, RollMode] = attrs.field(factory=dict)
    activities_each: int | None = attrs.field(
        default=None,
        metadata=_help(
            "Each member does at most this many activities a turn (`do ACTIVITY by=NAME`), "
            "and an activity then names who does it; none: no limit.",
            Bound(1, 100),
        ),
    )
    activities_in_encounter: bool = attrs.field(
        default=True,
        metadata=_help(
            "false: no activity while the turn's encounter is on (the characters' actions "
            "wait for a turn without one)."
        ),
    )
    #: The game's own ability modifiers: score (or range "4-5") -> modifier. Empty: the
    #: modifier is (score - 10) // 2.
    modifiers: dict[str, int] = attrs.field(factory=dict, metadata=bound(-COUNT, COUNT))
    danger_conditions: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "Conditions, or steps of the fatigue ladder, that put a member in danger: the "
            "attention strip names who has them (a step counts from there on up)."
        ),
    )

    fatigue_modifiers: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_help(
            "Added to the checks of a member on a fatigue step: {tired = -1, exhausted = -2}.",
            Bound(-MODIFIER, MODIFIER),
        ),
    )
    fatigue_movement: dict[str, float] = attrs.field(
        factory=dict,
        metadata=_help(
            "The party's distances are multiplied by this while a member is on a fatigue "
            "step (the slowest member sets the pace): {exhausted = 0.5}.",
            Bound(0, 1),
        ),
    )

    natural_saves: bool = attrs.field(
        default=False,
        metadata=_help(
            "true: a save rolled on a d20 under a score passes on a 1 and fails on a 20, "
            "whatever the score (the members' checks under an ability, a save to act or to "
            "get away, a morale save under the foes' score)."
        ),
    )
    dies_at_zero_hp: bool = attrs.field(
        default=False,
        metadata=_help(
            "true: a member at 0 HP or less when an expedition ends has died and stays "
            "behind when the next one starts (0 HP is death in the game); false: they come "
            "along, healed by the downtime, unless the GM marks them `dead`."
        ),
    )

    def modifier_of(self, score: int) -> int:
        """The modifier of an ability score: by ``modifiers`` when given (a score beyond
        them takes the nearest end's), else (score - 10) // 2."""
        if not self.modifiers:
            return (score - 10) // 2
        spans = sorted((*score_span(key), value) for key, value in self.modifiers.items())
        for low, high, value in spans:
            if low <= score <= high:
                return value
        return spans[0][2] if score < spans[0][0] else spans[-1][2]

    def fatigue_label(self, level: int) -> str:
        """The ladder's name for a fatigue level; a level off the ladder (a file made by
        hand, a procedure with a shorter ladder) takes the nearest end, never an error."""
        return self.fatigue[max(0, min(level, len(self.fatigue) - 1))]


def score_span(key: str) -> tuple[int, int]:
    """The scores a key of ``[party] modifiers`` covers: "13" or "13-15" (ValueError else)."""
    low, _, high = key.partition("-")
    first = int(low.strip())
    last = int(high.strip()) if high else first
    if last < first:
        raise ValueError(key)
    return first, last


#: Minutes in one hour, day and week: what a turn's length in those units is worth.
UNIT_MINUTES = (60, 24 * 60, 7 * 24 * 60)
#: The range of a turn's length in minutes, hours, days and weeks: up to a year.
TURN_LENGTHS: tuple[tuple[int, int, str], ...] = (
    (1, TURN_MINUTES, "minutes"),
    *(
        (0, TURN_MINUTES // unit, name)
        for unit, name in zip(UNIT_MINUTES, ("hours", "days", "weeks"), strict=True)
    ),
)


@attrs.frozen(repr=False, eq=False)
class TurnType(Value):
    """A kind of turn with its own length and name (dungeon turn, travel turn, watch)."""

    label: str
    minutes: int | None = attrs.field(default=None, metadata=bound(*TURN_LENGTHS[0]))
    hours: float | None = attrs.field(
        default=None,
        metadata=_help(
            "The turn's length in hours (a watch of 4: hours = 4).", Bound(*TURN_LENGTHS[1])
        ),
    )
    days: float | None = attrs.field(
        default=None,
        metadata=_help(
            "The turn's length in days (a travel day: days = 1).", Bound(*TURN_LENGTHS[2])
        ),
    )
    weeks: float | None = attrs.field(
        default=None,
        metadata=_help("The turn's length in weeks (a week in a haven).", Bound(*TURN_LENGTHS[3])),
    )
    unit: str = attrs.field(
        default="",
        metadata=_help(
            "The unit its distances are in (miles for a day's travel); [movement] unit when empty."
        ),
    )

    def length(self) -> int:
        """Minutes one turn of this kind takes, from whichever length it gives."""
        found = _length(self.minutes, self.hours, self.days, self.weeks)
        return 10 if found is None else found


def _length(
    minutes: int | None, hours: float | None, days: float | None, weeks: float | None
) -> int | None:
    """Minutes of the one length given (None when none is); the loader refuses two."""
    if minutes is not None:
        return minutes
    for value, unit in zip((hours, days, weeks), UNIT_MINUTES, strict=True):
        if value is not None:
            return round(value * unit)
    return None


@attrs.frozen(repr=False, eq=False)
class Time(Value):
    """The turn's length and name and how the clock starts."""

    turn_name: str = "turn"
    turn_minutes: int | None = attrs.field(default=None, metadata=bound(*TURN_LENGTHS[0]))
    start: str = "08:00"
    quarters: tuple[str, ...] = attrs.field(
        default=("pre-dawn", "morning", "afternoon", "night"), converter=as_tuple
    )
    turn_hours: float | None = attrs.field(
        default=None,
        metadata=_help(
            "The turn's length in hours, instead of turn_minutes.", Bound(*TURN_LENGTHS[1])
        ),
    )
    turn_days: float | None = attrs.field(
        default=None,
        metadata=_help(
            "The turn's length in days (a day of overland travel).", Bound(*TURN_LENGTHS[2])
        ),
    )
    turn_weeks: float | None = attrs.field(
        default=None, metadata=_help("The turn's length in weeks.", Bound(*TURN_LENGTHS[3]))
    )

    def length(self) -> int:
        """Minutes one turn takes: the length given, or 10 when none is."""
        found = _length(self.turn_minutes, self.turn_hours, self.turn_days, self.turn_weeks)
        return 10 if found is None else found


@attrs.frozen(repr=False, eq=False)
class Movement(Value):
    """Movement speeds the party can travel at; actions give a distance per speed."""

    unit: str = "feet"
    speeds: tuple[str, ...] = attrs.field(default=("normal",), converter=as_tuple)
    default_speed: str = "normal"
    member_speed: str = attrs.field(
        default="",
        metadata=_help(
            "The ability that is each member's own speed (e.g. 'SPEED'); the party moves at "
            "its slowest member's, the distances scaled from base_speed."
        ),
    )
    base_speed: float | None = attrs.field(
        default=None,
        metadata=_help(
            "The speed the actions' distances are written for (with member_speed).",
            Bound(0, DISTANCE, above=True),
        ),
    )


@attrs.frozen(repr=False, eq=False)
class Rest(Value):
    """A rest the party owes every N turns and what skipping it costs."""

    every: int = attrs.field(metadata=bound(1, TURNS, "turns"))
    action: str = "rest"
    text: str = ""
    on_skip: tuple[Effect, ...] = attrs.field(default=(), converter=as_tuple)


@attrs.frozen(repr=False, eq=False)
class Players(Value):
    """What the players' screen (``delvetui players``) shows without the game master's word.

    The light in words, the time of day and the last encounter's distance follow these;
    the sign, the encounter and the party's hit points are otherwise shown only when the
    game master reveals them (a revealed encounter shows its distance too). The hazard
    table, the rolls and the notes never are.
    """

    light_turns: bool = attrs.field(
        default=False,
        metadata=_help("Players know how long each light has left (turns, minutes, usage die)."),
    )
    clock: bool = attrs.field(default=True, metadata=_help("Show the time of day and the day."))
    hp: bool = attrs.field(
        default=False, metadata=_help("Show the party's hit points without revealing them.")
    )
    sign: bool = attrs.field(default=False, metadata=_help("Show the sign as soon as it is found."))
    encounter: bool = attrs.field(
        default=False, metadata=_help("Show the encounter as soon as it begins.")
    )
    distance: bool = attrs.field(
        default=False,
        metadata=_help(
            "Show how far away an encounter begins as soon as it begins, even before the "
            "encounter itself is shown (the characters see or hear something coming)."
        ),
    )


def _names(items: Iterable[str]) -> tuple[str, ...]:
    """A list of names as a tuple (typed for the callers that build a Calendar in code)."""
    return tuple(items)


@attrs.frozen(repr=False, eq=False)
class Calendar(Value):
    """The world's calendar: how the day count reads as a date ("3rd of Greenmist, day 41").

    Without one, a date reads "day N". Day 1 is the date ``start_month``/``start_day``
    (``start_year``); the days number on from there, and the years roll over.
    """

    months: tuple[str, ...] = attrs.field(
        converter=_names,
        metadata=_help("The months' names in the year's order, e.g. ['Thaw', 'Greenmist']."),
    )
    days: int | tuple[int, ...] = attrs.field(
        default=30,
        metadata=_help(
            "Days in a month: one number for every month, or a list of one number a month.",
            Bound(1, 1_000, "days"),
        ),
    )
    week: tuple[str, ...] = attrs.field(
        default=(),
        converter=_names,
        metadata=_help("The week-days' names in order; none: a date names no week-day."),
    )
    start_month: str = attrs.field(
        default="", metadata=_help("The month of day 1; none: the first month.")
    )
    start_day: int = attrs.field(
        default=1, metadata=_help("The day of that month that is day 1.", Bound(1, 1_000))
    )
    start_year: int | None = attrs.field(
        default=None,
        metadata=_help(
            "The year of day 1; none: a date names no year.", Bound(-1_000_000, 1_000_000)
        ),
    )
    start_weekday: str = attrs.field(
        default="", metadata=_help("The week-day of day 1; none: the first of the week.")
    )
    reads: str = attrs.field(
        default="",
        metadata=_help(
            "How a date reads, with {weekday}, {ordinal}, {number}, {month}, {year} and "
            "{day} (the day count); none: '{weekday} {ordinal} of {month} {year}, day {day}' "
            "without the parts the calendar does not have."
        ),
    )

    def lengths(self) -> tuple[int, ...]:
        """Days in each month, in the year's order."""
        if isinstance(self.days, int):
            return (self.days,) * len(self.months)
        return self.days


@attrs.frozen(repr=False, eq=False)
class Downtime(Value):
    """What a day of rest in safety does between two expeditions of a campaign.

    The next expedition (``delvetui new NAME --after PRED --downtime 7d``) carries the party
    as the last one ended, and this says how the whole days of rest between them heal it.
    """

    heal: int | str = attrs.field(
        default=1,
        metadata=_help(
            'HP each member regains per full day of rest: a number, dice ("1d3", rolled '
            'for each member each day) or "all" (back to their maximum).',
            Bound(0, AMOUNT),
        ),
    )
    fatigue: int | str = attrs.field(
        default="all",
        metadata=_help(
            'Steps of fatigue removed per day of rest: a number, or "all".', Bound(0, 100)
        ),
    )
    clear: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help("The member conditions a day of rest removes (exhausted, hungry)."),
    )
    clear_after: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_help(
            "Member conditions a downtime of at least so many days removes, e.g. "
            "{injured = 7}: a week's rest.",
            Bound(1, 3_650, "days"),
        ),
    )
    restore: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "Resources set back to their start after the downtime (rare: most games have "
            "the players buy them)."
        ),
    )
    restock: str = attrs.field(
        default="",
        metadata=_help(
            "The chance each cleared room of the dungeon restocks in the downtime, as X-in-N "
            '("1-in-6"); "" for none (an adventure\'s tables file or --restock may give one).'
        ),
    )
    text: str = attrs.field(
        default="", metadata=_help("What the game's text says of rest, for the game master.")
    )


#: How a fight's initiative goes (``[encounter] initiative``): "sides", a die for each side
#: and the higher acts first; "party", the characters first unless surprised; "each", each
#: character's die and ability modifier against one roll for the foes; "save", each
#: character's save under an ability acts before the foes; "score", by each character's
#: score in an ability against the foes' (no die); "odd-even", a die from each side added,
#: the party first when its call (odd or even) was right.
Initiative = Literal["sides", "party", "each", "save", "score", "odd-even"]
#: When the foes check their morale (``[encounter] morale_when``).
MoraleTrigger = Literal[
    "first-down", "half-down", "most-down", "each-down", "half-hp", "lone-half-hp", "lone-zero-hp"
]  # fmt: skip
#: How the party gets away when it flees an encounter (``[encounter] flight``): "gm", the
#: game master says whether it got away; "faster", it gets away when its slowest member is
#: faster than the pursuers; "save", each character saves under an ability; "chance", a
#: percentile roll against a chance the game master reads.
Flight = Literal["gm", "faster", "save", "chance"]
#: The longest round, in seconds (a minute-long round is the longest any game has).
ROUND_SECONDS = 3_600


@attrs.frozen(repr=False, eq=False)
class EncounterRules(Value):
    """How a fight goes once an encounter comes to blows: its rounds, who acts first, when
    and how the foes' morale breaks, the foes' hit die and the time the fight costs."""

    round_label: str = attrs.field(
        default="round", metadata=_help("What the game calls a round of a fight.")
    )
    round_seconds: int = attrs.field(
        default=10,
        metadata=_help(
            "How long a round is in the world (the log says how long a fight took).",
            Bound(1, ROUND_SECONDS, "seconds"),
        ),
    )
    initiative: Initiative = attrs.field(
        default="sides",
        metadata=_help(
            "Who acts first: sides (a die each side, the higher first), party (the "
            "characters first unless surprised), each (each character's die and ability "
            "modifier against one roll for the foes), save (each character's save under "
            "an ability acts before the foes), score (by ability score, no die), odd-even "
            "(a die from each side added, the party first when its call was right)."
        ),
    )
    initiative_dice: str = attrs.field(
        default="d6", metadata=_help("The die initiative is rolled with (sides, each, odd-even).")
    )
    initiative_ability: str = attrs.field(
        default="",
        metadata=_help(
            "The members' ability initiative reads (each: its modifier is added; save: rolled "
            "under; score: the order)."
        ),
    )
    initiative_each_round: bool = attrs.field(
        default=True,
        metadata=_help("true: initiative is rolled again each round; false: once for the fight."),
    )
    initiative_ties: Literal["reroll", "party", "foes"] = attrs.field(
        default="reroll",
        metadata=_help("A tie is rolled again (reroll), or goes to the party or to the foes."),
    )
    foes_score: int = attrs.field(
        default=10,
        metadata=_help(
            "The foes' score when initiative goes by score (score) and none is typed.",
            Bound(-COUNT, COUNT),
        ),
    )
    first_round_save: str = attrs.field(
        default="",
        metadata=_help(
            "In the first round each character saves under this ability to act at all "
            "(rolled d20, at most the score); one who fails loses the round."
        ),
    )
    hit_die: str = attrs.field(
        default="d8",
        metadata=_help("The die a foe's hit dice are rolled with (hd=2 rolls two of them)."),
    )
    down_at_zero_hp: bool = attrs.field(
        default=True,
        metadata=_help(
            "true: a foe brought to 0 HP is down; false: 0 HP is not the end of it (damage "
            "goes on to another score) and the game master marks it down."
        ),
    )
    surrender: bool = attrs.field(
        default=False,
        metadata=_help("true: foes may surrender (foe NAME +surrendered) as well as flee."),
    )
    morale_dice: str = attrs.field(
        default="",
        metadata=_help("The dice of a morale check (2d6, d20); none: the game has no morale roll."),
    )
    morale_pass: Literal["at_most", "at_least"] = attrs.field(
        default="at_most",
        metadata=_help(
            "at_most: the roll at most the foe's morale holds; at_least: the roll plus the "
            "foe's morale at least morale_dc holds."
        ),
    )
    morale_dc: int = attrs.field(
        default=15,
        metadata=_help("The number a morale check must reach (at_least).", Bound(1, 1_000)),
    )
    morale_default: int = attrs.field(
        default=7,
        metadata=_help(
            "A foe's morale when none is given (a score, or a modifier for at_least).",
            Bound(-COUNT, COUNT),
        ),
    )
    morale_settles: int = attrs.field(
        default=0,
        metadata=_help(
            "A foe that held its morale this many times fights on without more checks; "
            "0: it checks every time.",
            Bound(0, 100),
        ),
    )
    morale_when: tuple[MoraleTrigger, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_help(
            "When the foes check their morale: first-down (the first of them down), "
            "half-down (half of them down or gone), most-down (more than half), each-down "
            "(each time one falls or flees), half-hp (a foe below half its HP, alone), "
            "lone-half-hp (a lone foe at half its HP), lone-zero-hp (a lone foe at 0 HP)."
        ),
    )
    retainer_morale: str = attrs.field(
        default="",
        metadata=_help(
            "The members' score a retainer's morale check reads (morale NAME); none: the "
            "game gives retainers no morale check."
        ),
    )
    round_action: str = attrs.field(
        default="",
        metadata=_help(
            "An action of kind fight: each round is a turn of it on the clock (lights, "
            "timers and conditions by the round); none: rounds take no turn of their own."
        ),
    )
    end_action: str = attrs.field(
        default="",
        metadata=_help(
            "An action of kind fight: the fight's end takes turns of it on the clock; none: "
            "the fight passes within the turn it began in."
        ),
    )
    end_turns: int = attrs.field(
        default=1,
        metadata=_help(
            "The fewest turns of end_action a fight takes (more when its rounds last longer).",
            Bound(0, ACTION_TURNS, "turns"),
        ),
    )
    flight: Flight = attrs.field(
        default="gm",
        metadata=_help(
            "How the party gets away when it flees (flee): gm (the game master says), "
            "faster (its slowest member against the pursuers' speed), save (each character "
            "saves under flight_ability), chance (a percentile roll against a chance typed)."
        ),
    )
    flight_ability: str = attrs.field(
        default="",
        metadata=_help("The ability each character saves under to get away (flight = save)."),
    )
    flight_action: str = attrs.field(
        default="",
        metadata=_help(
            "An action the party takes on the clock when it gets away (a turn of running); "
            "none: a flight costs the time a fight's end would."
        ),
    )
    flight_text: str = attrs.field(
        default="",
        metadata=_help(
            "What the game's text says of fleeing and pursuit, for the game master (shown "
            "when the party is caught)."
        ),
    )
    text: str = attrs.field(
        default="", metadata=_help("What the game's text says of a fight, for the game master.")
    )

    @property
    def has_morale(self) -> bool:
        """True when the game rolls the foes' morale."""
        return bool(self.morale_dice)


@attrs.frozen(repr=False, eq=False)
class Procedure(Value):
    """A whole game's dungeon-turn procedure, loaded and validated."""

    id: str
    name: str
    source: str
    summary: str
    default_action: str
    version: int = attrs.field(default=1, metadata=bound(0, COUNT))
    time: Time = attrs.field(factory=Time)
    turn_types: dict[str, TurnType] = attrs.field(factory=dict)
    party: Party = attrs.field(factory=Party)
    movement: Movement = attrs.field(factory=Movement)
    counters: dict[str, Counter] = attrs.field(factory=dict)
    tracks: dict[str, Track] = attrs.field(factory=dict)
    lights: dict[str, LightKind] = attrs.field(factory=dict)
    light_levels: dict[str, LightLevel] = attrs.field(factory=dict)
    actions: dict[str, Action] = attrs.field(factory=dict)
    activities: dict[str, Action] = attrs.field(factory=dict)
    rolls: dict[str, RollRule] = attrs.field(factory=dict)
    tables: dict[str, Table] = attrs.field(factory=dict)
    rest: Rest | None = None
    players: Players = attrs.field(factory=Players)
    text: str = attrs.field(default="", eq=False, repr=False)
    conditions: dict[str, MemberCondition] = attrs.field(factory=dict)
    resources: dict[str, Resource] = attrs.field(factory=dict)
    timers: dict[str, TimerKind] = attrs.field(factory=dict)
    calendar: Calendar | None = None
    downtime: Downtime = attrs.field(factory=Downtime)
    encounter: EncounterRules = attrs.field(factory=EncounterRules)

    def turn_minutes(self, turn_type: str) -> int:
        """Minutes one turn of this type takes."""
        kind = self.turn_types.get(turn_type)
        return kind.length() if kind is not None else self.time.length()

    def turn_name(self, turn_type: str) -> str:
        """What the game calls a turn of this type."""
        kind = self.turn_types.get(turn_type)
        return kind.label if kind is not None else self.time.turn_name

    def distance_unit(self, turn_type: str) -> str:
        """The unit the distances of a turn of this type are in: its own, else the party's."""
        kind = self.turn_types.get(turn_type)
        return kind.unit if kind is not None and kind.unit else self.movement.unit

    @property
    def fatigue_track(self) -> str | None:
        """The track that counts fatigue where the ladder has one step and a track is named
        ``fatigue`` (Cairn's Fatigue, one a slot, is a count and not a ladder); else None."""
        return "fatigue" if len(self.party.fatigue) == 1 and "fatigue" in self.tracks else None

    @property
    def default_turn_type(self) -> str:
        """The turn type an expedition starts in."""
        return next(iter(self.turn_types), "turn")

    def actions_in(self, turn_type: str) -> dict[str, Action]:
        """The actions taken in this kind of turn, in the file's order (a fight's own turn,
        ``kind = "fight"``, is the fight's to take and is not among them)."""
        return {
            name: a
            for name, a in self.actions.items()
            if a.taken_in(turn_type) and a.kind != "fight"
        }

    def activities_in(self, turn_type: str) -> dict[str, Action]:
        """The activities done in this kind of turn, in the file's order."""
        return {name: a for name, a in self.activities.items() if a.taken_in(turn_type)}

    def bare_action(self, last: str | None, turn_type: str, moving: str | None = None) -> str:
        """The action a bare ``turn`` takes in this kind of turn: the last one taken when it
        belongs here and persisted, else the last movement mode (``moving``: the last that
        persisted) when it belongs here, else the default action when it does, else the
        first that does. The last persisted when it is the movement mode: a one-off action,
        or a turn a fight took, left the mode as it was."""
        here = self.actions_in(turn_type)
        if last != moving:
            last = None
        for name in (last, moving, self.default_action):
            if name in here:
                return name
        return next(iter(here), self.default_action)

    def is_hazard(self, rule_id: str) -> bool:
        """True when the roll rule is a per-turn hazard roll: marked, or called 'hazard'."""
        rule = self.rolls.get(rule_id)
        return rule is not None and (rule.hazard or rule_id == HAZARD)

    def light_level(self, level: str) -> LightLevel:
        """The rules for a light level; a plain one when the procedure says nothing."""
        found = self.light_levels.get(level)
        return found if found is not None else LightLevel(label=level)
