"""The odds: how likely an encounter is, and how soon each lit light goes out.

Computed exactly, not estimated. The engine's own ``decide`` is run on every outcome of
the dice a turn can throw (``core.outcomes``): a random source that plays back a script
of faces walks every branch of the roll tree once (an odometer over the faces), and each
branch weighs 1/sides per die it threw. Whatever the procedure says (the hazard die, a
sub-table, rolls made ``every`` N turns, results ignored in the first turns, advantage and
disadvantage, a d10 against the alarm, a usage die, strikes) is therefore counted the way
the table would play it, with no second copy of the rules to drift out of step.

Turns further ahead fold the same way: the states reached after each turn are merged
(identical states add their chances, keeping apart the chance that an encounter was
already met on the way) and the next turn is enumerated once from each. The party
repeats the action it is taking now, as ``turn`` without an action would.

Pure: no clock, no file, no global random.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import attrs

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.areas import KEYS as ADVENTURE_KEYS
from delvetui.core.outcomes import MAX_RUNS, Rolls, TooMany, runs
from delvetui.core.state import Member, State
from delvetui.errors import DelveError
from delvetui.procedure.effect_kinds import KINDS
from delvetui.procedure.model import Effect, Procedure
from delvetui.procedure.tree import walk_effects
from delvetui.text import counted, visible

#: Minutes in "within the hour".
HOUR = 60
#: How far ahead the table names a light's chance of going out, as "within 3 turns".
LIGHT_TURNS = 3


@attrs.frozen
class LightOdds:
    """One lit light: when the clock puts it out, and the chance the dice do first."""

    id: str
    kind: str
    #: Turns of fuel left by the clock (None: no timer, only the dice put it out).
    turns_left: int | None
    #: The chance it is out within 1, 2, ... turns (index 0 is the next turn).
    out_within: tuple[Fraction, ...]
    #: True when nothing in the procedure's dice can put it out (only its clock can).
    clock_only: bool

    def out_by(self, turns: int) -> Fraction | None:
        """The chance it is out within this many turns, when that far was counted."""
        if 1 <= turns <= len(self.out_within):
            return self.out_within[turns - 1]
        return None


@attrs.frozen
class Odds:
    """The chances the table shows and ``status --json`` gives under ``odds``."""

    action: str
    turn_name: str
    #: Turns in the next hour at the current turn's length (at least 1).
    hour_turns: int
    #: The chance of at least one encounter within 1, 2, ... turns (index 0: this turn).
    encounter_within: tuple[Fraction, ...]
    lights: tuple[LightOdds, ...]
    #: Why a figure is missing (the action cannot be taken, too many outcomes), or "".
    note: str = ""

    @property
    def encounter_this_turn(self) -> Fraction | None:
        """The chance of an encounter on the next turn."""
        return self.encounter_within[0] if self.encounter_within else None

    @property
    def encounter_within_hour(self) -> Fraction | None:
        """The chance of at least one encounter within the next hour, when it was counted."""
        if len(self.encounter_within) >= self.hour_turns:
            return self.encounter_within[self.hour_turns - 1]
        return None


@attrs.frozen
class _Lines:
    """The lines of play that reached one state: their chance, and the chance of those
    among them that have met an encounter on the way (each line has a chance above 0)."""

    chance: Fraction
    met: Fraction

    @property
    def apart(self) -> int:
        """How many runs of the rules one of theirs stands for: one for each of the lines
        that have met an encounter and those that have not, as far as there are any."""
        return (self.met > 0) + (self.met < self.chance)

    def joined(self, other: _Lines) -> _Lines:
        """These lines and the other ones, reaching the same state."""
        return _Lines(chance=self.chance + other.chance, met=self.met + other.met)


class _Relevance:
    """What of the rules can change an encounter or a light, worked out once.

    A roll whose every outcome only logs, tires or hurts (when hit points do not matter)
    need not be branched on: a check like that, a table of such rows rolled as a
    sub-table (a disposition), damage and healing dice. Fatigue counts as harmless only
    when no check that does matter is rolled with more or less advantage for it.
    """

    def __init__(self, procedure: Procedure) -> None:
        self.procedure = procedure
        self.hp_matters = any(
            effect.when is not None
            and (effect.when.hp_at_most is not None or effect.when.hp_at_least is not None)
            for ref, effect in walk_effects(procedure)
            if not ref.startswith("activities.")
        )
        self.harmless = {name for name, kind in KINDS.items() if kind.inert}
        if not self.hp_matters:
            self.harmless |= {"damage", "heal"}
        checks = {e.id: e for _ref, e in walk_effects(procedure) if e.do == "check"}
        self.tired_ok = True
        tiring = procedure.party.fatigue_modes or procedure.party.fatigue_modifiers
        self.tired_ok = not tiring or all(
            self.inert_effects((*c.on_success, *c.on_failure)) for c in checks.values()
        )
        # A declared condition's check modes matter when a check does: keep conditions then.
        hinders = any(
            c.check_mode or c.check_modes or c.check_modifier or c.check_modifiers
            for c in procedure.conditions.values()
        )
        self.conditions_ok = not hinders or all(
            self.inert_effects((*c.on_success, *c.on_failure)) for c in checks.values()
        )
        if not self.conditions_ok:
            self.harmless.discard("condition")
        keys = {
            check_id
            for check_id, check in checks.items()
            if self.inert_effects((*check.on_success, *check.on_failure))
        }
        keys |= {name for name in procedure.tables if self._inert_table(name)}
        # The adventure's own tables only name the creature met, how many and how it reacts.
        keys |= {key for key in ADVENTURE_KEYS if key not in procedure.rolls}
        # A rule's roll uses the rule's id as its key: never skip one of those.
        self.keys = frozenset(keys - set(procedure.rolls))
        self.prefixes = frozenset() if self.hp_matters else frozenset({"damage", "heal"})
        self.inert_refs = frozenset(
            ref for ref, effect in walk_effects(procedure) if self.inert_effects((effect,))
        )

    def inert_effects(self, effects: Iterable[Effect]) -> bool:
        """True when these effects change nothing the odds look at."""
        for effect in effects:
            if effect.do == "fatigue" and self.tired_ok:
                continue
            if effect.do == "check":
                if not self.inert_effects((*effect.on_success, *effect.on_failure)):
                    return False
            elif effect.do == "roll":
                if not self._inert_table(effect.table):
                    return False
            elif effect.do not in self.harmless:
                return False
        return True

    def _inert_table(self, name: str) -> bool:
        table = self.procedure.tables.get(name)
        return table is not None and all(self.inert_effects(row.effects) for row in table.rows)

    def inert_roll(self, key: str) -> bool:
        """True when a roll with this key changes nothing the odds look at."""
        head = key.split(".", 1)[0]
        return key in self.keys or head in self.keys or head in self.prefixes

    def key(self, state: State) -> State:
        """The state less what no later chance depends on, so equal lines of play merge.

        The last hazard, the sign and the encounter on screen are only read by the log
        and the notices; hit points, fatigue, conditions and deferred effects only when
        the rules above say they can matter.
        """
        party = state.party
        if not self.hp_matters or self.tired_ok:
            party = tuple(self._member_key(m) for m in party)
        pending = tuple(p for p in state.pending if p.ref not in self.inert_refs)
        return attrs.evolve(
            state, last_hazard=None, sign=None, encounter=None, party=party, pending=pending
        )

    def _member_key(self, member: Member) -> Member:
        # A member already as the key has them (the usual case) is kept, not copied.
        hp = member.hp if self.hp_matters else member.max_hp
        fatigue = 0 if self.tired_ok else member.fatigue
        if self.conditions_ok and (member.conditions or member.timers or member.until_rest):
            return attrs.evolve(
                member, hp=hp, fatigue=fatigue, conditions=(), timers=(), until_rest=()
            )
        if hp == member.hp and fatigue == member.fatigue:
            return member
        return attrs.evolve(member, hp=hp, fatigue=fatigue)


def _out(state: State, light_id: str) -> bool:
    light = state.light(light_id)
    return light is None or not light.lit


def compute(
    state: State, procedure: Procedure, *, limit: int = MAX_RUNS, ahead: int | None = None
) -> Odds:
    """The odds of the next hour of turns from this state, taking the current action.

    ``ahead`` counts that many turns instead of the hour's.
    """
    turn_minutes = procedure.turn_minutes(state.turn_type)
    hour_turns = ahead or max(1, HOUR // max(1, turn_minutes))
    tracked = state.lit_lights
    relevance = _Relevance(procedure)
    key = relevance.key
    rolls = Rolls(procedure, relevance.inert_roll)
    action = action_name(state, procedure)
    turn_name = procedure.turn_name(state.turn_type)
    command = cmd.TakeTurn(action=None, values=())

    encounter = [Fraction(0)] * hour_turns
    out = {light.id: [Fraction(0)] * hour_turns for light in tracked}
    counted = hour_turns
    note = ""

    def settle(at: State, lines: _Lines, start: int) -> None:
        # Lines of play that stop (their turns are done, or the action cannot go on)
        # keep what happened for every turn after ``start`` up to the hour.
        for turn in range(start, hour_turns):
            if lines.met:
                encounter[turn] += lines.met
            for light in tracked:
                if _out(at, light.id):
                    out[light.id][turn] += lines.chance

    def _play(
        at: State,
        start: int,
        lines: _Lines,
        weight: Fraction,
        events: Sequence[ev.Event],
        after: State,
    ) -> None:
        turns = start
        share = lines.chance * weight
        # The share of these lines that has met an encounter: all, from one met here on.
        met_share = lines.met * weight
        gone = {light.id for light in tracked if _out(at, light.id)}
        for event in events:
            if isinstance(event, ev.EncounterBegan):
                met_share = share
            elif isinstance(event, ev.LightPutOut):
                gone.add(event.id)
            elif isinstance(event, ev.TurnEnded) and turns < hour_turns:
                if met_share:
                    encounter[turns] += met_share
                for light_id in gone:
                    if light_id in out:
                        out[light_id][turns] += share
                turns += 1
        reached = _Lines(chance=share, met=met_share)
        if turns == start:
            # A command that took no turn cannot move the clock on: it stops here.
            settle(after, reached, turns)
        elif turns < hour_turns:
            layer = layers[turns]
            at_key = key(after)
            found = layer.get(at_key)
            layer[at_key] = reached if found is None else found.joined(reached)

    # The states lines of play reach, by how many turns they are in: every command takes at
    # least one turn, so each layer is complete before it is taken up, and a count cut short
    # still has every earlier turn. Lines that met an encounter and lines that did not share
    # one run of the rules from a state they both reached.
    layers: list[dict[State, _Lines]] = [{} for _ in range(hour_turns)]
    layers[0][key(state)] = _Lines(chance=Fraction(1), met=Fraction(0))
    runs_left = limit
    for turns, layer in enumerate(layers):
        if counted < hour_turns:
            break
        for at, lines in layer.items():
            try:
                results = list(runs(at, command, rolls, runs_left))
                # The limit counts the runs as if the lines met and not met were run apart,
                # so how lines are grouped never moves the turn a count stops at.
                if len(results) * lines.apart > runs_left:
                    raise TooMany
            except TooMany:
                counted = turns
                note = "too many ways the dice can fall to count further ahead"
                break
            except DelveError as error:
                if turns == 0:
                    return Odds(
                        action=action,
                        turn_name=turn_name,
                        hour_turns=hour_turns,
                        encounter_within=(),
                        lights=_lights(state, {}, turn_minutes),
                        note=str(error),
                    )
                settle(at, lines, turns)
                continue
            runs_left -= len(results) * lines.apart
            for weight, events, after in results:
                _play(at, turns, lines, weight, events, after)

    return Odds(
        action=action,
        turn_name=turn_name,
        hour_turns=hour_turns,
        encounter_within=tuple(encounter[:counted]),
        lights=_lights(state, {k: v[:counted] for k, v in out.items()}, turn_minutes),
        note=note,
    )


def action_name(state: State, procedure: Procedure) -> str:
    """The action the next turn takes: the last one taken when it persists, else the last
    movement mode, else the default (of this kind of turn)."""
    return procedure.bare_action(state.action, state.turn_type, state.moving)


def _lights(
    state: State, out: dict[str, list[Fraction]], turn_minutes: int
) -> tuple[LightOdds, ...]:
    found: list[LightOdds] = []
    for light in state.lit_lights:
        # A light that burns in real time has no turns left: the table's clock counts it.
        timed = light.minutes is not None and light.real_seconds is None
        left = -(-light.minutes // turn_minutes) if timed and light.minutes is not None else None
        figures = tuple(out.get(light.id, ()))
        found.append(
            LightOdds(
                id=light.id,
                kind=light.kind,
                turns_left=left,
                out_within=figures,
                clock_only=bool(figures) and _clock_only(figures, left),
            )
        )
    return tuple(found)


def _clock_only(figures: Sequence[Fraction], left: int | None) -> bool:
    if left is None:
        return False
    return all(f == (1 if turn + 1 >= left else 0) for turn, f in enumerate(figures))


# In words, and as data ------------------------------------------------------------------


@attrs.frozen
class Line:
    """One figure as the table shows it: the words and the chance the bar is drawn for."""

    text: str
    chance: Fraction | None


def percent(chance: Fraction) -> str:
    """A chance as a whole percentage; never 0% or 100% for what may or may not happen."""
    value = float(chance) * 100
    if 0 < value < 1:
        return "under 1%"
    if 99 < value < 100:
        return "over 99%"
    return f"{round(value)}%"


def in_words(chance: Fraction) -> str:
    """'1 in 6 (17%)' when the chance is one in a whole number, else the percentage."""
    if chance.numerator == 1 and chance.denominator > 1:
        return f"1 in {chance.denominator} ({percent(chance)})"
    return percent(chance)


def lines(odds: Odds, *, light_turns: int = LIGHT_TURNS) -> list[Line]:
    """The odds in plain words, one figure a line, as the table's odds dialog shows them."""
    found: list[Line] = []
    this_turn = odds.encounter_this_turn
    if this_turn is None:
        found.append(Line(f"No odds for '{odds.action}': {odds.note}", None))
        return found
    found.append(Line(f"encounter this {odds.turn_name} {in_words(this_turn)}", this_turn))
    hour = odds.encounter_within_hour
    if odds.hour_turns > 1 and hour is not None:
        found.append(Line(f"encounter within the hour {percent(hour)}", hour))
    for light in odds.lights:
        ahead = min(light_turns, len(light.out_within))
        chance = light.out_by(ahead) if ahead else None
        if light.clock_only or (chance == 0 and light.turns_left is not None):
            left = counted(light.turns_left or 0, odds.turn_name)
            found.append(Line(f"{visible(light.id)}: {left} left by the clock", None))
            continue
        if chance is None:
            continue
        words = (
            f"{visible(light.id)}: out within {counted(ahead, odds.turn_name)} {percent(chance)}"
        )
        if light.turns_left is not None:
            words += f" ({light.turns_left} left by the clock)"
        found.append(Line(words, chance))
    if odds.note:
        found.append(Line(f"({odds.note})", None))
    return found


def _number(chance: Fraction) -> float:
    return round(float(chance), 6)


def as_json(odds: Odds) -> dict[str, object]:
    """The odds as ``status --json`` gives them under ``odds`` (chances from 0 to 1)."""
    this_turn = odds.encounter_this_turn
    hour = odds.encounter_within_hour
    return {
        "action": odds.action,
        "hour_turns": odds.hour_turns,
        "encounter_this_turn": None if this_turn is None else _number(this_turn),
        "encounter_within_hour": None if hour is None else _number(hour),
        "encounter_within": [_number(c) for c in odds.encounter_within],
        "lights": [
            {
                "id": light.id,
                "kind": light.kind,
                "turns_left": light.turns_left,
                "out_within": [_number(c) for c in light.out_within],
            }
            for light in odds.lights
        ],
        "note": odds.note,
    }
