"""The working copy a command is carried out on, and what effects read while they run.

``Work`` holds the state as it stands part-way through a command: each event emitted is
applied at once, so a later step sees what an earlier one did (the alarm goes up, then
the check is made against it). Effects reach the rules through it: rolls (``roll``), who
an effect is for (``members``), whether a condition holds (``holds``) and the log's words
(``text``). ``decide.carry_out`` runs a command on one; the odds subclass it to choose
each roll's result instead of rolling.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import TypeVar

import attrs

from delvetui import dice
from delvetui.core import events as ev
from delvetui.core import when
from delvetui.core.effects import HANDLERS
from delvetui.core.evolve import evolve
from delvetui.core.state import Light, Member, State, track_limit
from delvetui.errors import CommandError, InputNeeded, RollNeeded
from delvetui.procedure.conditions import Condition
from delvetui.procedure.effect_kinds import KINDS
from delvetui.procedure.model import (
    HAZARD,
    Action,
    Effect,
    Input,
    Procedure,
    RollRule,
)
from delvetui.procedure.tree import row_range
from delvetui.text import a, counted, suggest

_T = TypeVar("_T")


def named(options: Mapping[str, _T], name: str, what: str, *, none: str = "none") -> _T:
    """The option of that name, or a CommandError listing them and suggesting the nearest.

    ``what`` names what the name should be ("an activity"); ``none`` stands in the list
    when there are no options.
    """
    found = options.get(name)
    if found is None:
        known = ", ".join(options) or none
        raise CommandError(f"'{name}' is not {what} ({known}).{suggest(name, options)}")
    return found


class Inputs:
    """The KEY=VALUE words given with a command; each must be used, or it is an error."""

    def __init__(self, values: Sequence[tuple[str, str]]) -> None:
        self.values: dict[str, list[str]] = {}
        for key, value in values:
            self.values.setdefault(key.casefold(), []).append(value)
        self.taken: dict[str, int] = {}
        self.read: set[str] = set()
        self.wanted: set[str] = set()
        #: Why each roll key given was not rolled, for a rule skipped this turn.
        self.skipped: dict[str, str] = {}

    def has(self, key: str) -> bool:
        """True when a value is given for the key and not yet used by a roll."""
        folded = key.casefold()
        return self.taken.get(folded, 0) < len(self.values.get(folded, ()))

    def get(self, key: str) -> str | None:
        """The value given for an input (read as often as needed, never used up)."""
        folded = key.casefold()
        self.wanted.add(folded)
        found = self.values.get(folded)
        if not found:
            return None
        self.read.add(folded)
        return found[0]

    def peek(self, key: str) -> str | None:
        """The value given for an input, without counting it as used: a condition reads it,
        but only what the value is for (an action's input, a choice) uses it."""
        folded = key.casefold()
        self.wanted.add(folded)
        found = self.values.get(folded)
        return found[0] if found else None

    def take(self, key: str) -> str | None:
        """The next value given for a roll key; a key given twice serves two rolls."""
        folded = key.casefold()
        self.wanted.add(folded)
        if not self.has(folded):
            return None
        index = self.taken.get(folded, 0)
        self.taken[folded] = index + 1
        return self.values[folded][index]

    def split(self, key: str) -> None:
        """Read each value given for the key as a list of values, one a roll
        (``initiative=4,2`` is the party's roll and then the foes')."""
        folded = key.casefold()
        found = self.values.get(folded)
        if found:
            self.values[folded] = [part.strip() for given in found for part in given.split(",")]

    def skip(self, key: str, why: str) -> None:
        """A roll this key would type is not made (the rule is skipped), and why.

        A value given for it then gets that sentence instead of passing silently.
        """
        folded = key.casefold()
        self.wanted.add(folded)
        self.skipped.setdefault(folded, why)

    def check_all_used(self) -> None:
        """Refuse values nothing used, so a misspelt key never passes silently."""
        for key, given in self.values.items():
            taken = self.taken.get(key, 0)
            if taken and taken < len(given):
                raise CommandError(
                    f"{key}= was given {len(given)} times but this command rolls it "
                    f"{taken} time{'s' if taken > 1 else ''}; give one value per roll."
                )
            if not taken and key not in self.read and key in self.skipped:
                raise CommandError(f"{self.skipped[key]}; leave out {key}= (nothing was saved).")
            if not taken and key not in self.read and key in self.wanted:
                # Looked at (a choice a rule would ask for), but nothing asked for it.
                raise CommandError(
                    f"'{key}=' was given but nothing in this command asked for it: it is "
                    "used only on a turn whose rule or result asks for it."
                )
            if not taken and key not in self.read:
                hint = suggest(key, sorted(self.wanted))
                used = ", ".join(sorted(self.wanted)) or "none"
                raise CommandError(
                    f"'{key}=' was given but nothing in this command uses it "
                    f"(it could use: {used}).{hint}"
                )


def why_skipped(work: Work, rule: RollRule, every: int | None = None, since: int = 0) -> str:
    """Why a roll rule is not made this turn, in words ('' when it is due).

    ``every`` and ``since``: the interval in force and the turns completed when it came
    in (``interval``); the rule's own ``every``, counted from the start, when not given.
    """
    every = rule.every if every is None else every
    if rule.only is not None and not work.holds(rule.only):
        return f"it is made {when.words(rule.only, work)}"
    if rule.turn_types and work.state.turn_type not in rule.turn_types:
        kinds = " or ".join(work.procedure.turn_name(kind) for kind in rule.turn_types)
        now = work.procedure.turn_name(work.state.turn_type)
        return f"it is made only in {a(kinds)}, and this is {a(now)}"
    if rule.tables and not rule.table_for(work.state.turn_type):
        now = work.procedure.turn_name(work.state.turn_type)
        return f"it has no table for {a(now)}"
    taken = work.turn_number - since
    if every > 1 and taken % every != 0:
        turn_name = work.procedure.turn_name(work.state.turn_type)
        due = work.turn_number + every - taken % every
        return f"it is made every {counted(every, turn_name)}, next on {turn_name} {due}"
    return ""


def interval(work: Work, rule_id: str, rule: RollRule) -> tuple[int, int]:
    """How often a roll rule is made now, and the turns completed when that began.

    A rule with ``intervals`` takes the first whose condition holds (else its own
    ``every``); when that is another one than before, the count starts again: the turn
    being taken is the first of the new count (IntervalChanged records it).
    """
    if not rule.intervals:
        return rule.every, 0
    choice = next((i for i, x in enumerate(rule.intervals) if work.holds(x.when)), -1)
    every = rule.intervals[choice].every if choice >= 0 else rule.every
    found = work.state.interval(rule_id)
    if found is not None and found[0] == choice:
        return every, found[1]
    since = max(0, work.turn_number - 1)
    work.emit(ev.IntervalChanged(roll=rule_id, choice=choice, every=every, since=since))
    return every, since


@attrs.frozen
class Ctx:
    """Who and what an effect applies to while it runs."""

    #: What set it off, as the log names it (the row's label, "CON save failed").
    source: str
    #: The member it is about (a check's member, a track's, a held-over effect's).
    member: str | None = None
    #: The member a check was made for: "each" inside its branches means only them.
    scope: str | None = None
    #: How far a failed check missed its DC ({margin}; ``per_point`` damage).
    margin: int = 0
    #: The total just rolled ({total}).
    total: int = 0
    #: The DC of the check just made ({dc}).
    dc: int = 0
    #: True while a held-over (``unless_rest_next``) effect is applied at last.
    deferred: bool = False
    #: How far a track is over its limit (``dc_over``).
    excess: int = 0


class Work:
    """A working copy of the state that each emitted event is applied to.

    ``ask`` (table dice) makes every roll not given as KEY=N raise RollNeeded; with
    ``ask_inputs`` a result needed from the table raises InputNeeded instead of an error.
    """

    def __init__(
        self,
        state: State,
        procedure: Procedure,
        inputs: Inputs,
        rng: random.Random,
        ask: bool,
        *,
        ask_inputs: bool = False,
    ) -> None:
        self.state = state
        self.procedure = procedure
        self.inputs = inputs
        self.rng = rng
        self.ask = ask
        self.ask_inputs = ask_inputs
        self.events: list[ev.Event] = []
        self.turn_number = state.turn
        #: The flags of the turn being taken (the action's and the light level's).
        self.flags: tuple[str, ...] = ()
        #: The inputs of the action or activity being taken, by key (for asking for them).
        self.wanted: dict[str, Input] = {}
        #: The activity being done (``do ACTIVITY``), whose input defaults conditions read.
        self.activity: Action | None = None
        #: (member, track) whose ``over`` happened this turn, so time passing adds no second.
        self.over_fired: set[tuple[str, str]] = set()
        #: (member, track) whose ``over`` is being applied: its own effects cannot set it off.
        self.in_over: set[tuple[str, str]] = set()
        #: True while a counter's ``on_change`` is applied: it sets off no other.
        self.in_change = False
        #: True where a choice is not asked but its first option taken (the odds).
        self.first_choice = False
        #: The length of the turn being taken in minutes, when the game master said it (an
        #: action's ``minutes_input``); None for the kind of turn's own length.
        self.said_minutes: int | None = None
        #: The turns without rest the turn being taken makes if its rest is broken (None
        #: outside a turn): an interrupted rest is no rest, and the count runs on.
        self.since_rest: int | None = None

    @property
    def turn_minutes(self) -> int:
        """How long the turn being taken lasts: what the game master said, else its kind's."""
        if self.said_minutes is not None:
            return self.said_minutes
        return self.procedure.turn_minutes(self.state.turn_type)

    def emit(self, event: ev.Event) -> None:
        """Add an event to the batch and apply it to the working state."""
        self.events.append(event)
        self.state = evolve(self.state, event)

    # Dice ------------------------------------------------------------------------------------

    def roll(self, key: str, expression: str, purpose: str) -> dice.Roll:
        """A procedure's roll: the game master's typed result for this key, asked, or rolled."""
        return self.settle(key, expression, purpose, self.inputs.take(key))

    def settle(
        self,
        key: str,
        expression: str,
        purpose: str,
        given: str | None,
        *,
        asked_key: str | None = None,
        asked_purpose: str | None = None,
    ) -> dice.Roll:
        """Take the typed result, ask for it, or roll; record it as an event.

        Every roll of a command comes through here, so a subclass that chooses results
        another way (the odds, walking every outcome) overrides ``draw`` and sees them all.
        ``asked_key`` and ``asked_purpose`` are what the game master is asked with, when
        they differ from the event's key and purpose (a free roll is given as result=N).
        """
        if given is not None:
            result = dice.entered(expression, given)
        elif self.ask:
            parsed = dice.parse(expression)
            raise RollNeeded(
                asked_key or key,
                parsed.text,
                asked_purpose or purpose,
                spoken=dice.spoken(parsed),
            )
        else:
            result = self.draw(key, expression)
        self.emit(ev.DiceRolled.of(key, purpose, result))
        return result

    def draw(self, key: str, expression: str) -> dice.Roll:
        """The dice rolled for a roll nobody typed or was asked for."""
        return dice.roll(expression, self.rng)

    # Who -------------------------------------------------------------------------------------

    def members(self, target: str, ctx: Ctx) -> list[Member]:
        """The members an effect with this target applies to."""
        if target in ("each", "by-or-each") and ctx.scope is not None:
            # After one member's check, "each" means each member it was made for.
            return [self.member(ctx.scope)]
        if target == "by-or-each":
            named = ctx.member or self.inputs.get("by")
            return [self.member(named)] if named else self.living()
        if target in ("each", "party"):
            return self.living()
        name = ctx.member or self.inputs.get("by")
        if name is None:
            if len(self.state.party) == 1:
                return [self.state.party[0]]
            names = ", ".join(m.name for m in self.state.party) or "nobody yet"
            message = f"Say who does it with by=NAME (the party: {names})."
            if self.ask_inputs and self.state.party:
                members = [m.name for m in self.state.party]
                purpose = f"{ctx.source}: who does it?" if ctx.source else "Who does it?"
                raise InputNeeded("by", "|".join(members), purpose, message, choices=members)
            raise CommandError(message)
        return [self.member(name)]

    def living(self) -> list[Member]:
        """The members "each" reaches: all but the dead (the condition ``dead``, in any
        game), whom no effect on each member, and no check of each member, reaches."""
        return list(self.state.living)

    def member(self, name: str) -> Member:
        """The party member of that name, or a CommandError naming the party."""
        found = self.state.member(name)
        if found is None:
            names = ", ".join(m.name for m in self.state.party) or "nobody yet"
            raise CommandError(f"There is no party member named '{name}' (the party: {names}).")
        return found

    # Conditions ----------------------------------------------------------------------------

    def holds(self, condition: Condition, member: str | None = None) -> bool:
        """True when every key of the condition holds now (for ``member`` where it asks)."""
        return when.holds(self, condition, member)

    def input_default(self, key: str) -> str | None:
        """The default of an input of the activity or action being taken, if it has one."""
        action = self.activity or self.current_action()
        if action is not None and key in action.inputs:
            return action.inputs[key].default
        return None

    def current_action(self) -> Action | None:
        """The action (or activity) the party is taking, by the state's record of it."""
        name = self.state.action
        if name is None:
            return None
        return self.procedure.actions.get(name) or self.procedure.activities.get(name)

    # Effects ----------------------------------------------------------------------------------

    def apply_all(self, effects: Sequence[Effect], ref: str, ctx: Ctx) -> None:
        """Apply a list of effects in order; ``ref`` is the list's key path."""
        for index, effect in enumerate(effects):
            self.apply(effect, f"{ref}[{index}]", ctx)

    def apply(self, effect: Effect, ref: str, ctx: Ctx) -> None:
        """Apply one effect through its kind's handler, unless its ``when`` fails or it waits
        for the next turn (``unless_rest_next``).

        An effect for each member (or the member ``by``) whose ``when`` tests the member is
        applied member by member, to those who pass: "each member with no ration left".
        """
        when = effect.when
        if (
            when is not None
            and when.about_member
            and ctx.member is None
            and effect.target != "party"
            and "target" in KINDS[effect.do].fields
        ):
            for member in self.members(effect.target, ctx):
                self.apply(effect, ref, attrs.evolve(ctx, member=member.name, scope=member.name))
            return
        if when is not None and not ctx.deferred and not self.holds(when, ctx.member):
            return  # a held-over effect's `when` held as it was held over: not asked again
        if effect.unless_rest_next and not ctx.deferred:
            label = effect.label or effect.text or ctx.source
            self.emit(ev.EffectDeferred(ref=ref, label=label, member=ctx.member or ""))
            return
        HANDLERS[effect.do](self, effect, ref, ctx)

    def text(self, template: str, ctx: Ctx, **extra: object) -> str:
        """An effect's text with its placeholders ({name}, {total}, ...) filled in."""
        names: dict[str, object] = {
            "name": ctx.member or "the party",
            "margin": ctx.margin,
            "dc": ctx.dc,
            "total": ctx.total,
            "turn": self.turn_number,
            **extra,
        }

        def fill(found: re.Match[str]) -> str:
            key = found.group(1)
            return str(names[key]) if key in names else found.group(0)

        return re.sub(r"\{([a-z_]+)\}", fill, template)

    def lit(self, kinds: Sequence[str]) -> list[Light]:
        """The lit lights of these kinds (all when empty), those with least time first."""
        found = [light for light in self.state.lit_lights if not kinds or light.kind in kinds]
        return sorted(found, key=lambda light: (light.minutes is None, light.minutes or 0))

    def roll_table(
        self,
        table_id: str,
        key: str,
        ctx: Ctx,
        *,
        dice_text: str = "",
        mode: str = "",
        hazard: bool = False,
        modifier: int = 0,
        purpose: str = "",
    ) -> None:
        """Roll on a table and apply the row rolled, unless the row is ignored now.

        ``hazard``: the roll is the turn's hazard roll, which the state keeps as the last one.
        ``modifier`` is added; a total beyond the rows reads the nearest end's ("2 or less").
        """
        table = self.procedure.tables[table_id]
        expression = dice.with_modifier(dice.with_mode(dice_text or table.dice, mode), modifier)
        result = self.roll(key, expression, purpose or table.label)
        spans = list(map(row_range, table.rows))
        looked = min(max(result.total, min(spans)[0]), max(high for _, high in spans))
        index = next(i for i, (low, high) in enumerate(spans) if low <= looked <= high)
        row = table.rows[index]
        ignored = ""
        if row.ignore_first_turns and self.turn_number <= row.ignore_first_turns:
            ignored = f"during the first {row.ignore_first_turns} turns"
        elif row.ignore_while_resting and self.state.resting:
            ignored = "while resting"
        here = attrs.evolve(ctx, source=row.label, total=result.total)
        # A hazard roll under another name than 'hazard' says so (see ev.HazardRead).
        read = ev.HazardRead if hazard and key != HAZARD else ev.ResultRead
        self.emit(
            read(
                key=key,
                table=table_id,
                total=result.total,
                label=row.label,
                # The row's words fill in their placeholders as an effect's do ({total}).
                text=self.text(row.text, here),
                row=index,
                ignored=ignored,
            )
        )
        if not ignored:
            self.apply_all(row.effects, f"tables.{table_id}.rows[{index}].effects", here)

    def run_rule(self, rule_id: str, rule: RollRule, mode: str, *, asked: bool = False) -> None:
        """Make one of the procedure's rolls, if it is due, and apply what it gives.

        ``asked``: an activity calls for the roll now ("or when the players make noise"),
        so its interval (``every``) does not hold it back; its ``only`` and turn types do.
        """
        # The interval is followed every time the rule comes round, made or not, so a
        # change of level restarts its count even while ``only`` keeps it from being made.
        every, since = interval(self, rule_id, rule)
        why = why_skipped(self, rule, 1 if asked else every, since)
        if why:
            self.inputs.skip(rule_id, f"{rule.label} is not rolled this turn: {why}")
            return
        if rule.modes:
            # The rule's own modes join the action's; advantage and disadvantage cancel.
            given = {m for m, held in rule.modes.items() if self.holds(held)} | {mode} - {""}
            mode = given.pop() if len(given) == 1 else ""
        table = rule.table_for(self.state.turn_type)
        ctx = Ctx(source=rule.label)
        hazard = self.procedure.is_hazard(rule_id)
        if table:
            self.roll_table(table, rule_id, ctx, dice_text=rule.dice, mode=mode, hazard=hazard)
            return
        if not rule.dice:
            self.apply_all(rule.on_hit, f"rolls.{rule_id}.on_hit", ctx)
            return
        result = self.roll(rule_id, dice.with_mode(rule.dice, mode), rule.label)
        limit = rule.hit_at_most
        threshold = self.state.counter(limit) if isinstance(limit, str) else (limit or 0)
        hit = result.hit if result.hit is not None else result.total <= threshold
        label = rule.hit_label if hit else rule.miss_label
        # Say what this roll did; the rule's text describes both outcomes and would read as
        # if a miss did what only a hit does.
        text = rule.text if hit else ""
        if isinstance(limit, str):
            counter = self.procedure.counters[limit].label.lower()
            compare = "at or below" if hit else "above"
            text = f"{result.total} is {compare} the {counter} ({threshold})"
        read = ev.HazardRead if hazard and rule_id != HAZARD else ev.ResultRead
        self.emit(read(key=rule_id, table="", total=result.total, label=label, text=text))
        effects, branch = (rule.on_hit, "on_hit") if hit else (rule.on_miss, "on_miss")
        self.apply_all(effects, f"rolls.{rule_id}.{branch}", attrs.evolve(ctx, source=label))


def counter_changed(work: Work, name: str, ctx: Ctx | None = None) -> None:
    """Apply a counter's ``on_change`` after its value changed; the effects in it set off
    no counter's ``on_change`` again, so one change never leads round in a circle."""
    counter = work.procedure.counters[name]
    if not counter.on_change or work.in_change:
        return
    work.in_change = True
    try:
        here = Ctx(source=counter.label.lower()) if ctx is None else ctx
        work.apply_all(counter.on_change, f"counters.{name}.on_change", here)
    finally:
        work.in_change = False


def track_over(
    work: Work, track_name: str, name: str, before: int, *, passing: bool = False
) -> None:
    """Apply a track's ``over`` to a member whose track just went from ``before``.

    An effect sets it off when it takes the track over its limit, once per crossing.
    Time passing (``passing``) sets it off every turn it leaves the track over its
    limit, unless it already happened this turn.
    """
    track = work.procedure.tracks[track_name]
    member = work.member(name)
    limit = track.crossed(track_limit(track.limit, member))
    value = member.track(track_name)
    if not track.over or limit is None or value <= limit:
        return
    key = (member.name, track_name)
    if key in work.in_over or (key in work.over_fired if passing else before > limit):
        return
    work.over_fired.add(key)
    work.in_over.add(key)
    ctx = Ctx(source=track.label, member=member.name, scope=member.name, excess=value - limit)
    try:
        work.apply_all(track.over, f"tracks.{track_name}.over", ctx)
    finally:
        work.in_over.discard(key)
