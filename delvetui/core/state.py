"""The expedition's state: what the events add up to, frozen.

State is never changed in place: ``evolve`` returns a new state for each event. Only
facts live here; what can be worked out from them (light level, time dice, day) is a
property, so replay cannot disagree with itself.
"""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable

import attrs

from delvetui.dice import time_dice
from delvetui.procedure.model import ROOM_MARKS

MINUTES_PER_DAY = 24 * 60
#: The condition that says a member died, in any game: the dead leave the tracks, the
#: alerts and the counts of who is up, and no effect on each member reaches them.
DEAD = "dead"
#: How many spent lights the state keeps for the inventory to show (and to correct);
#: older ones leave the state, so it does not grow with the length of the expedition.
KEEP_SPENT = 10


def _half_over_ten(score: int) -> int:
    return (score - 10) // 2


@attrs.frozen
class Member:
    """A party member."""

    name: str
    hp: int
    max_hp: int
    abilities: tuple[tuple[str, int], ...] = ()
    fatigue: int = 0
    conditions: tuple[str, ...] = ()
    tracks: tuple[tuple[str, int], ...] = ()
    #: Conditions that end by themselves: each with the last turn it lasts through.
    timers: tuple[tuple[str, int], ...] = ()
    #: Conditions that end at the next rest: each with the turn it was given in.
    until_rest: tuple[tuple[str, int], ...] = ()
    #: The member's own resources (rations, arrows), by id; one never held is 0.
    resources: tuple[tuple[str, int], ...] = ()
    #: When the member was marked ``dead``: (the turn, the clock in minutes), else None.
    died_at: tuple[int, int] | None = None

    @property
    def dead(self) -> bool:
        """True when the member has the condition ``dead``."""
        return DEAD in self.conditions

    def resource(self, name: str) -> int:
        """How many of a resource the member holds (0 when none was ever counted)."""
        return dict(self.resources).get(name, 0)

    def ability(self, name: str) -> int | None:
        """The member's score in an ability, or None when not given."""
        return dict(self.abilities).get(name.upper())

    def modifier(self, name: str, of: Callable[[int], int] | None = None) -> int:
        """The modifier of an ability ((score - 10) // 2, or the game's own table ``of``
        a score); 'best' is the highest plus PROF.

        A member given a score of ``MOD`` uses it as their best modifier directly.
        """
        scale = of or _half_over_ten
        scores = dict(self.abilities)
        if name.lower() == "best":
            if "MOD" in scores:
                return scores["MOD"]
            mods = [scale(value) for key, value in scores.items() if key != "PROF"]
            return max(mods, default=0) + scores.get("PROF", 0)
        score = scores.get(name.upper())
        return 0 if score is None else scale(score)

    def track(self, name: str) -> int:
        """The member's value on a track, 0 when none was kept yet."""
        return dict(self.tracks).get(name, 0)

    def time_left(self, condition: str, turn: int) -> int | str | None:
        """What is left of a condition after ``turn`` turns: turns (a number), "rest"
        when it lasts until the next rest, None when it lasts until taken away."""
        last = dict(self.timers).get(condition)
        if last is not None:
            return max(0, last - turn)
        return "rest" if condition in dict(self.until_rest) else None


@attrs.frozen
class Light:
    """A light source, or a stack of unlit ones of the same kind."""

    id: str
    kind: str
    carrier: str | None
    brightness: str
    lit: bool = False
    dimmed: bool = False
    minutes: int | None = None
    count: int = 1
    usage_die: int | None = None
    strikes: int = 0
    spent: bool = False
    #: Turns completed when it was lit: a light lit since the last turn ended is fresh.
    lit_turn: int = -1
    #: Real seconds left for a light that burns in real time (None: it burns by turns).
    real_seconds: int | None = None

    @property
    def real_time(self) -> bool:
        """True when the light burns in real time, counted by the table while it is open."""
        return self.real_seconds is not None

    @property
    def state(self) -> str:
        """bright, dim or out: what this light gives the party right now."""
        if not self.lit:
            return "out"
        return "dim" if self.dimmed or self.brightness == "dim" else "bright"


@attrs.frozen
class Timer:
    """A timer the game master started (a spell, a burning fuse, a door swinging shut).

    ``unit`` is how it counts: "turns" (one a turn, whatever the turn's length), "minutes"
    and "hours" (the turn's minutes come off; an hour timer is kept in minutes and shown
    in hours), or "real" (real seconds at the table, counted by its real-time clock).
    ``left`` is turns for a turn timer, seconds for a real one, else minutes.
    """

    name: str
    unit: str
    left: int
    #: What it is, in words (a declared timer's label); '' shows the name alone.
    label: str = ""

    @property
    def in_turns(self) -> bool:
        """True when it counts turns rather than minutes."""
        return self.unit == "turns"

    @property
    def real_time(self) -> bool:
        """True when it runs in real time at the table, not with the turns."""
        return self.unit == "real"


@attrs.frozen
class TableLight:
    """A kind of light the game master declared at the table (a candle the procedure lacks,
    a Light spell of N turns, a glowing sword): the procedure in force holds it as its own.
    At most one of ``turns``, ``minutes``, ``usage_die`` and ``real_minutes`` is given;
    none: it burns until put out."""

    id: str
    label: str
    brightness: str = "bright"
    turns: int | None = None
    minutes: int | None = None
    usage_die: int | None = None
    real_minutes: int | None = None


@attrs.frozen
class Pending:
    """An effect deferred to the next turn (cancelled if the party rests then)."""

    ref: str
    label: str
    member: str = ""


@attrs.frozen
class Encounter:
    """The last encounter the party met, as ``status --json`` gives it to scripts."""

    #: What the log called it (the creature, or the hazard result's words).
    text: str
    creature: str = ""
    appearing: int = 0
    distance: str = ""
    reaction: str = ""
    area: str = ""
    #: The turn it began in (the turn under way, or the last one when it came between turns).
    turn: int = 0
    day: int = 1
    clock: str = "00:00"
    #: What the players' screen says of it (the procedure's ``players`` words), '' for none.
    players: str = ""


#: What the game master marks a room with, in the order they are shown: explored (its first
#: visit does it), cleared, looted, a trap sprung, a door forced, restocked.
MARKS = ROOM_MARKS
#: How many of a room's visits it keeps the turns of (the newest; the count goes on), and
#: of its notes (the newest; the log keeps every one).
KEEP_VISITS = 50
KEEP_NOTES = 10


@attrs.frozen
class Room:
    """A room of the dungeon: where it is, where it leads, and what happened there."""

    id: str
    label: str = ""
    #: The area (level) it is on ('' for none): its encounter table rolls while there.
    area: str = ""
    #: The rooms it leads to, by id; every exit leads both ways.
    exits: tuple[str, ...] = ()
    text: str = ""
    #: The tables file it comes from, by id ('' for a room added at the table).
    tables: str = ""
    #: Its marks, in the order of ``MARKS``.
    marks: tuple[str, ...] = ()
    #: The game master's notes on it, the newest ``KEEP_NOTES``.
    notes: tuple[str, ...] = ()
    #: The turns of its visits in this expedition (the turn the party spent there first),
    #: the newest ``KEEP_VISITS``; ``visited`` counts them all.
    visits: tuple[int, ...] = ()
    visited: int = 0
    #: What moved in when it restocked ('' when nothing is said).
    restocked: str = ""
    #: The game master showed its label on the players' screen.
    revealed: bool = False
    #: What was tried here that each member tries once in a room (an action's
    #: ``once_per_room``): "ACTION:WHO" ('' for the party) and the turn it was first tried.
    tried: tuple[tuple[str, int], ...] = ()

    def tried_on(self, action: str, by: str) -> int | None:
        """The turn ``by`` first tried ``action`` here, or None."""
        return dict(self.tried).get(f"{action}:{by}")

    @property
    def name(self) -> str:
        """The room as a list or a heading names it: "12: The flooded crypt", or "12"."""
        return f"{self.id}: {self.label}" if self.label else self.id

    @property
    def called(self) -> str:
        """The room as a sentence names it: "room 12 (The flooded crypt)", or "room 12"."""
        return f"room {self.id} ({self.label})" if self.label else f"room {self.id}"


#: The states a foe can be in; every one but "fighting" is out of the fight.
FOE_STATES = ("fighting", "down", "fled", "surrendered")


@attrs.frozen
class Foe:
    """One of the opposition: a creature the party faces in the encounter."""

    name: str
    hp: int
    max_hp: int
    #: What it is, as the game master named the group (goblin for goblin3).
    kind: str = ""
    #: Its morale score (or modifier), None when the game gives it none.
    morale: int | None = None
    note: str = ""
    #: fighting, down, fled or surrendered.
    state: str = "fighting"
    #: The morale checks it held in this fight (a game may let it fight on after two).
    held: int = 0

    @property
    def fighting(self) -> bool:
        """True while it is still in the fight."""
        return self.state == "fighting"


@attrs.frozen
class Fight:
    """The fight under way: its round, who acts first, and what its morale rules have seen."""

    round: int = 1
    #: Who acts first this round: "party" or "foes".
    first: str = "party"
    #: The initiative totals this round (party, foes); None where nothing was rolled.
    party_roll: int | None = None
    foes_roll: int | None = None
    #: The side that loses this round (surprised, or a character's failed save): '' none.
    lost: str = ""
    #: The order of the characters (each, save, score): who acts before the foes, in order.
    before: tuple[str, ...] = ()
    #: The characters who act after the foes.
    after: tuple[str, ...] = ()
    #: The characters who lose this round (a failed save to act in the first round).
    idle: tuple[str, ...] = ()
    #: The morale triggers that have fired this fight (a foe's own: "half-hp:goblin2").
    fired: tuple[str, ...] = ()
    #: The turns completed when it began (the time it took is counted from there).
    turn: int = 0


@attrs.frozen
class Hazard:
    """The last per-turn hazard roll and what it gave."""

    roll: int
    result: str
    table: str
    row: int


def track_limit(limit: int | str | None, member: Member) -> int | None:
    """A track's limit for a member: a number, or their score in an ability (None without)."""
    if limit is None or isinstance(limit, int):
        return limit
    return member.ability(limit)


@attrs.frozen
class State:
    """Everything an expedition's events add up to."""

    name: str = ""
    procedure_id: str = ""
    seed: int = 0
    start_clock: int = 0
    clock: int = 0
    turn: int = 0
    minutes: int = 0
    turn_type: str = "turn"
    action: str | None = None
    #: The last action taken that persists (a movement mode): a bare turn after a one-off
    #: action (a search) goes on with it.
    moving: str | None = None
    resting: bool = False
    streak: int = 0
    turns_since_rest: int = 0
    party: tuple[Member, ...] = ()
    lights: tuple[Light, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    pending: tuple[Pending, ...] = ()
    sign: str | None = None
    encounter: str | None = None
    #: How far away this turn's encounter began ("far", "70 feet"); empty when unsaid.
    encounter_distance: str = ""
    last_hazard: Hazard | None = None
    session: int = 0
    in_session: bool = False
    light_numbers: tuple[tuple[str, int], ...] = ()
    procedure_digest: str = ""
    #: What the game master has shown on the players' screen (sign, encounter, hp).
    shown: tuple[str, ...] = ()
    #: The table's real-time clock is paused: no real-time light burns down.
    realtime_paused: bool = False
    #: Roll rules whose interval depends on the state: (rule, the interval in force (its
    #: index, -1 for the rule's own ``every``), the turns completed when it came in).
    intervals: tuple[tuple[str, int, int], ...] = ()
    #: The resources the party keeps as one stock (rations, oil), by id.
    resources: tuple[tuple[str, int], ...] = ()
    #: The adventure's own tables the expedition carries: (id, the file's text), in order.
    adventures: tuple[tuple[str, str], ...] = ()
    #: The area (level) of the adventure whose encounter table is in use ('' for none).
    area: str = ""
    #: Each tables file carried, in brief, as its ``TablesAdded`` gave it: (its id, its name,
    #: each area's id and label), so the header, ``status`` and ``go`` name the areas
    #: without reading the file's text again (a dungeon's is tens of kilobytes).
    tables_brief: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = ()
    #: The text of the calendar named for this expedition ('' for none: the procedure's).
    calendar: str = ""
    #: The last encounter met, kept after its turn (``encounter`` is this turn's only).
    last_encounter: Encounter | None = None
    #: A turn is under way: its TurnStarted is in, its TurnEnded not yet.
    in_turn: bool = False
    #: Who has done an activity (``do ACTIVITY by=NAME``) this turn, once for each one.
    acted: tuple[str, ...] = ()
    #: The timers running (``timer add bless 6t``), in the order they were started.
    timers: tuple[Timer, ...] = ()
    #: The timers that ran out at the end of the last turn (told until the next begins).
    ran_out: tuple[str, ...] = ()
    #: The game master ended the expedition: it takes no command but reopen, undo, redo.
    ended: bool = False
    #: What the game master said when ending it ("the party is back in town"), or ''.
    end_words: str = ""
    #: The expedition this one continues (its name), '' for the first of a chain.
    predecessor: str = ""
    #: The campaign it belongs to, as named ('' when none was: it is its chain's first's).
    campaign: str = ""
    #: The words of a sign found this turn that names no later encounter ('' for none):
    #: in play for its turn, as the encounter is (a sign that foretells is ``sign``).
    sign_found: str = ""
    #: The kinds of light declared at the table (``light kind``), in the order declared.
    table_lights: tuple[TableLight, ...] = ()
    #: The dungeon's rooms the expedition knows (its tables files' and those added at the
    #: table), in the order they came. Left out of the state's hash (not its equality): the
    #: odds hash every state they reach, and a dungeon of 500 rooms made each hash a
    #: walk through them.
    rooms: tuple[Room, ...] = attrs.field(default=(), hash=False)
    #: The room the party is in, by id ('' for none: outside, or not said).
    room: str = ""
    #: The opposition the party faces (``foe add``, or the area's table), in order.
    foes: tuple[Foe, ...] = ()
    #: The fight under way (``fight``), or None.
    fight: Fight | None = None
    #: The sides the encounter surprised ("party", "foes"), until the fight begins.
    surprised: tuple[str, ...] = ()
    #: Fights fought to their end over the whole expedition, and the foes they defeated
    #: (down, fled or surrendered when the fight ended): the chronicle counts them.
    fights: int = 0
    foes_defeated: int = 0
    #: True while the party, having fled, is pursued (``flee`` caught it): the chase goes
    #: on in rounds until it gets away or the fight ends.
    pursued: bool = False
    #: Encounters the party fled and got away from, over the whole expedition.
    escapes: int = 0

    # What the facts imply ------------------------------------------------------------------

    @property
    def light_level(self) -> str:
        """bright when any lit light is bright, dim when any is dim, else dark."""
        states = {light.state for light in self.lights if light.lit}
        if "bright" in states:
            return "bright"
        return "dim" if "dim" in states else "dark"

    @property
    def day(self) -> int:
        """The in-world day, starting at 1."""
        return self.clock // MINUTES_PER_DAY + 1

    def day_ends_after(self, minutes: int) -> bool:
        """True when a turn of this many minutes from now ends on another day: the clock
        passes midnight (a turn of a day or more always does)."""
        return (self.clock + minutes) // MINUTES_PER_DAY != self.clock // MINUTES_PER_DAY

    @property
    def hour(self) -> int:
        """The hour of the day, 0 to 23."""
        return self.clock % MINUTES_PER_DAY // 60

    @property
    def clock_text(self) -> str:
        """The clock as HH:MM."""
        minute = self.clock % MINUTES_PER_DAY
        return f"{minute // 60:02d}:{minute % 60:02d}"

    @property
    def time_dice(self) -> tuple[int, ...]:
        """The hour as d6 faces, one die per quarter of the day (07:00 is 6, 1)."""
        return time_dice(self.hour)

    def counter(self, name: str) -> int:
        """A counter's value (0 when it was never set)."""
        return dict(self.counters).get(name, 0)

    def interval(self, rule: str) -> tuple[int, int] | None:
        """The interval in force for a roll rule and the turns completed when it came in."""
        return next(((c, since) for r, c, since in self.intervals if r == rule), None)

    def resource(self, name: str) -> int:
        """How many of a party resource the party holds (0 when none was ever counted)."""
        return dict(self.resources).get(name, 0)

    def carries_light(self, name: str) -> bool:
        """True when the member carries a lit light of their own."""
        return any(light.lit and light.carrier == name for light in self.lights)

    def light_number(self, kind: str) -> int:
        """The highest number a light of this kind was given (ids are never reused)."""
        return dict(self.light_numbers).get(kind, 0)

    def member(self, name: str) -> Member | None:
        """The member with that name (case-insensitive), if any."""
        wanted = name.casefold()
        return next((m for m in self.party if m.name.casefold() == wanted), None)

    @property
    def living(self) -> tuple[Member, ...]:
        """The members who are not dead (the condition ``dead``), in marching order."""
        return tuple(member for member in self.party if not member.dead)

    @property
    def turn_now(self) -> int:
        """The turn an event is dated by: the one under way, else the last one ended."""
        return self.turn + 1 if self.in_turn else self.turn

    def find_room(self, room_id: str) -> Room | None:
        """The room with that id (case-insensitive), if any."""
        at = room_position(self.rooms, room_id)
        if at is not None:
            return self.rooms[at]
        wanted = room_id.casefold()
        return next((room for room in self.rooms if room.id.casefold() == wanted), None)

    @property
    def current_room(self) -> Room | None:
        """The room the party is in, if any."""
        return self.find_room(self.room) if self.room else None

    def foe(self, name: str) -> Foe | None:
        """The foe with that name (case-insensitive), if any."""
        wanted = name.casefold()
        return next((f for f in self.foes if f.name.casefold() == wanted), None)

    def with_foe(self, foe: Foe) -> State:
        """A copy with the foe of that name replaced."""
        foes = tuple(foe if f.name == foe.name else f for f in self.foes)
        return attrs.evolve(self, foes=foes)

    def timer(self, name: str) -> Timer | None:
        """The running timer with that name (case-insensitive), if any."""
        wanted = name.casefold()
        return next((t for t in self.timers if t.name.casefold() == wanted), None)

    def light(self, light_id: str) -> Light | None:
        """The light with that id (case-insensitive), if any."""
        wanted = light_id.casefold()
        return next((light for light in self.lights if light.id.casefold() == wanted), None)

    @property
    def lit_lights(self) -> tuple[Light, ...]:
        """The lights burning now."""
        return tuple(light for light in self.lights if light.lit)

    @property
    def real_timers(self) -> tuple[Timer, ...]:
        """The timers that run in real time at the table (paused or not)."""
        return tuple(timer for timer in self.timers if timer.real_time)

    @property
    def real_time_lights(self) -> tuple[Light, ...]:
        """The lights that burn in real time (lit or not)."""
        return tuple(light for light in self.lights if light.real_seconds is not None)

    @property
    def burning_in_real_time(self) -> tuple[Light, ...]:
        """The lit real-time lights with time left, while the real-time clock runs."""
        if self.realtime_paused:
            return ()
        return tuple(light for light in self.lights if light.lit and (light.real_seconds or 0) > 0)

    # Changed copies --------------------------------------------------------------------------

    def with_member(self, member: Member) -> State:
        """A copy with the member of that name replaced."""
        party = tuple(member if m.name == member.name else m for m in self.party)
        return attrs.evolve(self, party=party)

    def with_light(self, light: Light) -> State:
        """A copy with the light of that id replaced."""
        lights = tuple(light if old.id == light.id else old for old in self.lights)
        return attrs.evolve(self, lights=lights)

    def with_room(self, room: Room) -> State:
        """A copy with the room of that id replaced."""
        index = _index(self.rooms)
        at = index.get(room.id)
        if at is None:
            raise ValueError(f"no room with id {room.id!r}")
        rooms = (*self.rooms[:at], room, *self.rooms[at + 1 :])
        _remember(rooms, index)  # every room stands where it stood
        return attrs.evolve(self, rooms=rooms)

    def with_counter(self, name: str, value: int) -> State:
        """A copy with one counter set."""
        counters = dict(self.counters)
        counters[name] = value
        return attrs.evolve(self, counters=tuple(sorted(counters.items())))


_ROOM_ID = operator.attrgetter("id")
#: Each rooms tuple seen lately, by its identity, with where each room id stands in it. A
#: room changed in place (a visit, a mark) keeps every room where it was, so the new tuple
#: takes the old one's index: going from room to room never reads the rooms again, and
#: costs the same in a dungeon of 10 rooms or 500. Only a room added reads them (once).
_INDEXES: OrderedDict[int, tuple[tuple[Room, ...], dict[str, int]]] = OrderedDict()
_KEEP_INDEXES = 16
#: The table folds states in a worker thread too (its history) while it plays.
_INDEXES_LOCK = threading.Lock()


def _index(rooms: tuple[Room, ...]) -> dict[str, int]:
    with _INDEXES_LOCK:
        found = _INDEXES.get(id(rooms))
        if found is not None and found[0] is rooms:
            _INDEXES.move_to_end(id(rooms))
            return found[1]
    index = {room_id: at for at, room_id in enumerate(map(_ROOM_ID, rooms))}
    _remember(rooms, index)
    return index


def _remember(rooms: tuple[Room, ...], index: dict[str, int]) -> None:
    with _INDEXES_LOCK:
        _INDEXES[id(rooms)] = (rooms, index)
        _INDEXES.move_to_end(id(rooms))
        while len(_INDEXES) > _KEEP_INDEXES:
            _INDEXES.popitem(last=False)


def room_position(rooms: tuple[Room, ...], room_id: str) -> int | None:
    """Where the room of exactly that id is among the rooms, or None."""
    return _index(rooms).get(room_id)


def rooms_named(rooms: tuple[Room, ...], ids: Iterable[str]) -> list[Room]:
    """The rooms of these ids, in their order (an id that is not a room left out)."""
    index = _index(rooms)
    return [rooms[index[room_id]] for room_id in ids if room_id in index]


def pairs(mapping: dict[str, int] | Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """A frozen, sorted tuple of name/value pairs."""
    items = mapping.items() if isinstance(mapping, dict) else mapping
    return tuple(sorted(items))
