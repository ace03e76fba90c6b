"""decide(state, procedure, command, ...): one command becomes one batch of events.

Pure: randomness comes in as a seeded ``random.Random``, today's date as a string. The
procedure says what each roll and result does; this module only carries it out. While
deciding, each event is applied to a working copy of the state, so a later step sees what
an earlier one did (the alarm goes up, then the check is made against it).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence

import attrs

from delvetui.core import commands as cmd
from delvetui.core import dice, realtime
from delvetui.core import events as ev
from delvetui.core.evolve import evolve, step_usage_die
from delvetui.core.state import MINUTES_PER_DAY, Light, Member, State
from delvetui.errors import CommandError, InputNeeded, RollNeeded
from delvetui.procedure.loader import iter_effects, row_range
from delvetui.procedure.model import Action, Condition, Effect, Input, Procedure, RollRule
from delvetui.text import clock as read_clock
from delvetui.text import number_problem, quoted, suggest

#: The largest seed an expedition may have (a random one is below it too).
MAX_SEED = 2**31 - 1
#: Keys a turn may always be given besides rolls and the action's inputs.
FREE_INPUTS = frozenset({"by", "sign", "creature", "speed"})


@attrs.frozen
class History:
    """What undo and redo would act on: (batch number, command text) or None."""

    undo: tuple[int, str] | None = None
    redo: tuple[int, str] | None = None
    #: The turns the batch undo (or redo) acts on took: 'turn 5' ('' when none or unknown).
    undo_turns: str = ""
    redo_turns: str = ""


def decide(
    state: State,
    procedure: Procedure,
    command: cmd.Command,
    *,
    rng: random.Random,
    ask: bool = False,
    ask_inputs: bool = False,
    history: History | None = None,
    today: str = "",
) -> list[ev.Event]:
    """The events one command produces; raise CommandError (or RollNeeded) otherwise.

    With ``ask`` set (table dice), every roll not given as ``KEY=N`` raises RollNeeded
    instead of being rolled, so the caller can ask the game master for the number. With
    ``ask`` or ``ask_inputs`` set, a result the procedure needs from the table (a check the
    players made, a number added to a DC) raises InputNeeded instead of CommandError.
    """
    values: tuple[tuple[str, str], ...] = ()
    if isinstance(command, cmd.TakeTurn | cmd.DoActivity):
        values = command.values
    work = _Work(state, procedure, _Inputs(values), rng, ask, ask_inputs=ask or ask_inputs)
    _dispatch(work, command, history or History(), today)
    work.inputs.check_all_used()
    if not work.events:
        # An empty batch would still be saved, and undo would take it back for nothing.
        raise CommandError(f"'{quoted(command.text, 60)}' changes nothing; nothing was saved.")
    return work.events


def procedure_change(state: State, procedure: Procedure, digest: str) -> list[ev.Event]:
    """The batch that moves an expedition to another procedure, if the state fits it."""
    problems: list[str] = []
    for kind in sorted({light.kind for light in state.lights} - set(procedure.lights)):
        problems.append(f"it has no light kind '{kind}', which the inventory holds")
    if procedure.turn_types and state.turn_type not in procedure.turn_types:
        problems.append(f"it has no turn type '{state.turn_type}', the one the party is in")
    if problems:
        raise CommandError(
            f"{procedure.name} cannot take over this expedition: {'; '.join(problems)}."
        )
    return [
        ev.ProcedureChanged(
            procedure_id=procedure.id,
            procedure_name=procedure.name,
            digest=digest,
            text=procedure.text,
        )
    ]


def start_events(
    name: str, procedure: Procedure, *, seed: int, start: str | None = None
) -> list[ev.Event]:
    """The first batch of a new expedition."""
    if not 0 <= seed <= MAX_SEED:
        raise CommandError(f"The seed {seed} is out of range; give a seed from 0 to {MAX_SEED}.")
    text = start or procedure.time.start
    found = read_clock(text)
    if found is None:
        raise CommandError(f"'{quoted(text)}' is not a start time; write HH:MM, e.g. 08:00.")
    clock = found[0] * 60 + found[1]
    first: list[ev.Event] = [
        ev.ExpeditionStarted(
            name=name,
            procedure_id=procedure.id,
            procedure_name=procedure.name,
            seed=seed,
            clock=clock,
            turn_type=procedure.default_turn_type,
        )
    ]
    for counter_name, counter in procedure.counters.items():
        if counter.start:
            first.append(
                ev.CounterChanged(
                    counter=counter_name, value=counter.start, change=counter.start, reason="start"
                )
            )
    return first


# Inputs: the KEY=VALUE words of a command --------------------------------------------------


class _Inputs:
    """The KEY=VALUE words given with a command; each must be used, or it is an error."""

    def __init__(self, values: Sequence[tuple[str, str]]) -> None:
        self.values: dict[str, list[str]] = {}
        for key, value in values:
            self.values.setdefault(key.casefold(), []).append(value)
        self.taken: dict[str, int] = {}
        self.read: set[str] = set()
        self.wanted: set[str] = set()

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

    def take(self, key: str) -> str | None:
        """The next value given for a roll key; a key given twice serves two rolls."""
        folded = key.casefold()
        self.wanted.add(folded)
        if not self.has(folded):
            return None
        index = self.taken.get(folded, 0)
        self.taken[folded] = index + 1
        return self.values[folded][index]

    def check_all_used(self) -> None:
        """Refuse values nothing used, so a misspelt key never passes silently."""
        for key, given in self.values.items():
            taken = self.taken.get(key, 0)
            if taken and taken < len(given):
                raise CommandError(
                    f"{key}= was given {len(given)} times but this command rolls it "
                    f"{taken} time{'s' if taken > 1 else ''}; give one value per roll."
                )
            if not taken and key not in self.read:
                hint = suggest(key, sorted(self.wanted))
                used = ", ".join(sorted(self.wanted)) or "none"
                raise CommandError(
                    f"'{key}=' was given but nothing in this command uses it "
                    f"(it could use: {used}).{hint}"
                )


@attrs.frozen
class _Ctx:
    """Who and what an effect applies to while it runs."""

    source: str
    member: str | None = None
    scope: str | None = None
    margin: int = 0
    total: int = 0
    dc: int = 0
    deferred: bool = False
    excess: int = 0


class _Work:
    """A working copy of the state that each emitted event is applied to."""

    def __init__(
        self,
        state: State,
        procedure: Procedure,
        inputs: _Inputs,
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

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    # Dice ------------------------------------------------------------------------------------

    def roll(self, key: str, expression: str, purpose: str) -> dice.Roll:
        """Roll, or take the game master's typed result for this key."""
        given = self.inputs.take(key)
        if given is not None:
            result = dice.entered(expression, given)
        elif self.ask:
            raise RollNeeded(key, dice.parse(expression).text, purpose)
        else:
            result = dice.roll(expression, self.rng)
        self.emit(
            ev.DiceRolled(
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
        )
        return result

    # Who -------------------------------------------------------------------------------------

    def members(self, target: str, ctx: _Ctx) -> list[Member]:
        """The members an effect with this target applies to."""
        if target == "each" and ctx.scope is not None:
            # After one member's check, "each" means each member it was made for.
            return [self.member(ctx.scope)]
        if target in ("each", "party"):
            return list(self.state.party)
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

    def member(self, name: str) -> Member:
        found = self.state.member(name)
        if found is None:
            names = ", ".join(m.name for m in self.state.party) or "nobody yet"
            raise CommandError(f"There is no party member named '{name}' (the party: {names}).")
        return found

    # Conditions ----------------------------------------------------------------------------

    def holds(self, condition: Condition, member: str | None = None) -> bool:
        state = self.state
        if condition.hp_at_most is not None:
            found = state.member(member) if member else None
            if found is None or found.hp > condition.hp_at_most:
                return False
        for key, wanted in condition.inputs.items():
            given = self.inputs.get(key)
            if given is None:
                given = self.input_default(key)
            if given is None or given.casefold() != wanted.casefold():
                return False
        for name, value in condition.counter_at_least.items():
            if state.counter(name) < value:
                return False
        for name, value in condition.counter_at_most.items():
            if state.counter(name) > value:
                return False
        if condition.first_turns is not None and self.turn_number > condition.first_turns:
            return False
        if condition.after_turns is not None and self.turn_number <= condition.after_turns:
            return False
        if condition.resting is not None and state.resting != condition.resting:
            return False
        if condition.light_levels and state.light_level not in condition.light_levels:
            return False
        if any(flag not in self.flags for flag in condition.flags):
            return False
        if any(flag in self.flags for flag in condition.not_flags):
            return False
        return not (
            condition.streak is not None
            and (state.streak == 0 or state.streak % condition.streak != 0)
        )

    def input_default(self, key: str) -> str | None:
        action = self.activity or self.current_action()
        if action is not None and key in action.inputs:
            return action.inputs[key].default
        return None

    def current_action(self) -> Action | None:
        name = self.state.action
        if name is None:
            return None
        return self.procedure.actions.get(name) or self.procedure.activities.get(name)

    # Effects ----------------------------------------------------------------------------------

    def apply_all(self, effects: Sequence[Effect], ref: str, ctx: _Ctx) -> None:
        for index, effect in enumerate(effects):
            self.apply(effect, f"{ref}[{index}]", ctx)

    def apply(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        if effect.when is not None and not self.holds(effect.when, ctx.member):
            return
        if effect.unless_rest_next and not ctx.deferred:
            label = effect.label or effect.text or ctx.source
            self.emit(ev.EffectDeferred(ref=ref, label=label, member=ctx.member or ""))
            return
        handler = getattr(self, "do_" + effect.do.replace("-", "_"))
        handler(effect, ref, ctx)

    def text(self, template: str, ctx: _Ctx, **extra: object) -> str:
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

    def do_nothing(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        return

    def do_log(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        self.emit(ev.Logged(text=self.text(effect.text, ctx), label=effect.label))

    def do_roll(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        self.roll_table(effect.table, effect.table, ctx, dice_text=effect.dice)

    def do_encounter(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        foretold = self.state.sign
        creature = foretold or self.inputs.get("creature") or ""
        text = self.text(effect.text, ctx) if effect.text else "An encounter."
        self.emit(ev.EncounterBegan(text=text, creature=creature, foretold=foretold is not None))
        if self.state.resting and self.state.streak > 0:
            # "Resting for 1 hour": an encounter interrupts the rest, which starts again.
            self.emit(ev.RestBroken(reason="the encounter"))

    def do_sign(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        text = self.text(effect.text, ctx) if effect.text else "A sign of a creature."
        given = self.inputs.get("sign")
        if not effect.foretells:
            # The game master may say what the sign was; it names no later encounter.
            self.emit(ev.SignFound(text=given or text))
            return
        if given is None and self.ask_inputs:
            message = (
                "The sign foretells the next encounter: say which creature it is a sign of "
                "with sign=NAME."
            )
            purpose = "Which creature is the sign of? The next encounter is that creature."
            raise InputNeeded("sign", "NAME", purpose, message)
        self.emit(ev.SignFound(text=text, creature=given or "", foretells=True))

    def amount(self, effect: Effect, key: str, purpose: str, ctx: _Ctx, scale: int) -> int:
        if effect.dice:
            expression = _scaled(effect.dice, scale)
            if effect.ability:
                member = self.state.member(ctx.member or "")
                bonus = member.modifier(effect.ability) if member else 0
                expression = _with_modifier(expression, bonus)
            return max(0, self.roll(key, expression, purpose).total)
        return (effect.amount or 0) * scale

    def do_damage(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        scale = ctx.margin if effect.per_point else 1
        if scale <= 0:
            return
        for member in self.members(effect.target, ctx):
            here = attrs.evolve(ctx, member=member.name)
            hurt = self.amount(
                effect, f"damage.{member.name}", f"damage to {member.name}", here, scale
            )
            current = self.member(member.name)
            hp = max(0, current.hp - hurt)
            if hurt:
                reason = self.text(effect.text, here) if effect.text else ctx.source
                self.emit(
                    ev.HpChanged(name=member.name, hp=hp, change=hp - current.hp, reason=reason)
                )

    def do_heal(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        for member in self.members(effect.target, ctx):
            here = attrs.evolve(ctx, member=member.name)
            gain = self.amount(effect, f"heal.{member.name}", f"healing for {member.name}", here, 1)
            current = self.member(member.name)
            hp = min(current.max_hp, current.hp + gain)
            if hp != current.hp:
                reason = self.text(effect.text, here) if effect.text else ctx.source
                self.emit(
                    ev.HpChanged(name=member.name, hp=hp, change=hp - current.hp, reason=reason)
                )

    def do_check(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        dc = effect.dc
        for input_name in effect.dc_inputs:
            given = self.inputs.get(input_name)
            problem = None if given is None else number_problem(input_name, given, 0, 999)
            if given is None or problem is not None:
                message = (
                    f"{effect.label or effect.id} needs {input_name}=N (a whole number "
                    "from 0 to 999), which is added to its DC."
                )
                if problem is not None:
                    message = f"{problem} {message}"
                if given is None and self.ask_inputs:
                    wanted = self.wanted.get(input_name)
                    what = wanted.label if wanted and wanted.label else input_name
                    purpose = f"{effect.label or effect.id}: {what}, added to the DC"
                    if wanted is not None and wanted.given_by == "gm":
                        purpose += " (the game master's choice)"
                    raise InputNeeded(input_name, "N", purpose, message)
                raise CommandError(message)
            dc += int(given)
        if effect.dc_turns:
            dc += self.state.turn
        if effect.dc_over:
            dc += ctx.excess
        if effect.dc_max is not None:
            dc = min(dc, effect.dc_max)
        label = effect.label or effect.id
        dice_text = effect.dice or "d20"
        if effect.target == "party":
            who: list[str | None] = [None]
        else:
            who = [m.name for m in self.members(effect.target, ctx)]
        for name in who:
            member = self.state.member(name) if name else None
            bonus = member.modifier(effect.ability) if member and effect.ability else 0
            mode = _check_mode(self.procedure, self.state, member)
            expression = _with_modifier(_with_mode(dice_text, mode), bonus)
            key = f"{effect.id}.{name}" if name else effect.id
            if name and not self.inputs.has(key) and len(who) == 1 and self.inputs.has(effect.id):
                key = effect.id
            purpose = f"{label} for {name}" if name else label
            result = self.roll(key, expression, f"{purpose} (DC {dc})")
            success = result.total >= dc
            self.emit(
                ev.CheckMade(
                    id=effect.id,
                    name=name or "party",
                    label=label,
                    dc=dc,
                    total=result.total,
                    success=success,
                )
            )
            here = attrs.evolve(
                ctx,
                member=name,
                scope=name,
                margin=max(0, dc - result.total),
                total=result.total,
                dc=dc,
                source=f"{label} failed" if not success else label,
            )
            follow = effect.on_success if success else effect.on_failure
            branch = "on_success" if success else "on_failure"
            self.apply_all(follow, f"{ref}.{branch}", here)

    def do_fatigue(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        ladder = self.procedure.party.fatigue
        for member in self.members(effect.target, ctx):
            level = max(0, min(len(ladder) - 1, member.fatigue + effect.step))
            if level != member.fatigue:
                self.emit(
                    ev.FatigueChanged(
                        name=member.name, level=level, label=ladder[level], reason=ctx.source
                    )
                )

    def do_condition(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        for member in self.members(effect.target, ctx):
            if effect.condition and effect.condition not in member.conditions:
                self.emit(
                    ev.ConditionGained(
                        name=member.name, condition=effect.condition, reason=ctx.source
                    )
                )
            if effect.remove and effect.remove in member.conditions:
                self.emit(
                    ev.ConditionLost(name=member.name, condition=effect.remove, reason=ctx.source)
                )

    def lit(self, kinds: Sequence[str]) -> list[Light]:
        found = [light for light in self.state.lit_lights if not kinds or light.kind in kinds]
        return sorted(found, key=lambda light: (light.minutes is None, light.minutes or 0))

    def do_lights_out(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        chosen = self.lit(effect.kinds)
        if effect.count is not None:
            chosen = chosen[: effect.count]
        turn_minutes = self.procedure.turn_minutes(self.state.turn_type)
        for light in chosen:
            fresh = light.lit_turn >= self.state.turn
            if effect.spare_fresh and fresh and light.kind not in effect.low_kinds:
                self.emit(ev.LightFlickered(id=light.id, reason=ctx.source))
                continue
            low = effect.low_turns * turn_minutes
            if light.kind in effect.low_kinds and light.minutes is not None and light.minutes > low:
                self.emit(ev.LightTimerSet(id=light.id, minutes=low, reason="runs low"))
                continue
            kind = self.procedure.lights.get(light.kind)
            refuels = kind is not None and kind.refuel_hours is not None
            if light.kind in effect.low_kinds and refuels:
                # Run dry: out until refuelled, and then it can be lit again.
                self.emit(ev.LightTimerSet(id=light.id, minutes=0, reason="runs dry"))
                self.emit(ev.LightPutOut(id=light.id, reason="out of fuel", spent=False))
                continue
            self.emit(ev.LightPutOut(id=light.id, reason=ctx.source, spent=effect.spent))

    def do_blow_out(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        how = self.text(effect.text, ctx) if effect.text else ctx.source.lower()
        for light in self.lit(effect.kinds):
            kind = self.procedure.lights.get(light.kind)
            if kind is not None and kind.can_blow_out:
                self.emit(ev.LightPutOut(id=light.id, reason=f"blown out by {how}", spent=False))

    def do_lights_dim(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        for light in self.lit(effect.kinds):
            if light.state == "bright":
                self.emit(ev.LightDimmed(id=light.id, reason=ctx.source))
            else:
                self.emit(ev.LightPutOut(id=light.id, reason=ctx.source, spent=True))

    def do_lights_shorten(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        cut = effect.minutes or 0
        if effect.turns is not None:
            cut = effect.turns * self.procedure.turn_minutes(self.state.turn_type)
        chosen = [light for light in self.lit(effect.kinds) if light.minutes is not None]
        if effect.count is not None:
            chosen = chosen[: effect.count]
        for light in chosen:
            left = max(0, (light.minutes or 0) - cut)
            self.emit(ev.LightTimerSet(id=light.id, minutes=left, reason=ctx.source))
            if left == 0:
                self.emit(ev.LightPutOut(id=light.id, reason="burnt out", spent=True))

    def do_usage_die(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        for light in self.lit(effect.kinds):
            if light.usage_die is None:
                continue
            result = self.roll(
                f"usage.{light.id}", f"d{light.usage_die}", f"the usage die of {light.id}"
            )
            if result.total > 2:
                continue
            smaller = step_usage_die(light.usage_die)
            self.emit(ev.UsageDieStepped(id=light.id, die=smaller))
            if smaller is None:
                self.emit(ev.LightPutOut(id=light.id, reason="used up", spent=True))

    def do_strike(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        for light in self.lit(effect.kinds):
            strikes = light.strikes + 1
            self.emit(ev.LightStruck(id=light.id, strikes=strikes))
            kind = self.procedure.lights.get(light.kind)
            if kind is not None and kind.strikes is not None and strikes >= kind.strikes:
                self.emit(ev.LightPutOut(id=light.id, reason=f"strike {strikes}", spent=True))

    def do_counter(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        rules = self.procedure.counters[effect.counter]
        current = self.state.counter(effect.counter)
        value = effect.set if effect.set is not None else current + (effect.add or 0)
        for name, per in effect.per_input.items():
            given = self.inputs.get(name) or self.input_default(name) or "0"
            problem = number_problem(name, given, 0, 999)
            if problem is not None:
                raise CommandError(problem)
            value += per * int(given)
        value = max(rules.min, value)
        if rules.max is not None:
            value = min(rules.max, value)
        if value != current:
            reason = self.text(effect.text, ctx) if effect.text else ctx.source
            self.emit(
                ev.CounterChanged(
                    counter=effect.counter, value=value, change=value - current, reason=reason
                )
            )

    def do_track(self, effect: Effect, ref: str, ctx: _Ctx) -> None:
        for member in self.members(effect.target, ctx):
            current = member.track(effect.track)
            value = effect.set if effect.set is not None else current + (effect.add or 0)
            if value != current:
                reason = self.text(effect.text, ctx) if effect.text else ctx.source
                self.emit(
                    ev.TrackChanged(
                        name=member.name, track=effect.track, value=value, reason=reason
                    )
                )

    # Rolls and tables -----------------------------------------------------------------------

    def roll_table(
        self, table_id: str, key: str, ctx: _Ctx, *, dice_text: str = "", mode: str = ""
    ) -> None:
        table = self.procedure.tables[table_id]
        expression = _with_mode(dice_text or table.dice, mode)
        result = self.roll(key, expression, table.label)
        index = next(
            i
            for i, row in enumerate(table.rows)
            if row_range(row)[0] <= result.total <= row_range(row)[1]
        )
        row = table.rows[index]
        ignored = ""
        if row.ignore_first_turns and self.turn_number <= row.ignore_first_turns:
            ignored = f"during the first {row.ignore_first_turns} turns"
        elif row.ignore_while_resting and self.state.resting:
            ignored = "while resting"
        self.emit(
            ev.ResultRead(
                key=key,
                table=table_id,
                total=result.total,
                label=row.label,
                text=row.text,
                row=index,
                ignored=ignored,
            )
        )
        if not ignored:
            here = attrs.evolve(ctx, source=row.label, total=result.total)
            self.apply_all(row.effects, f"tables.{table_id}.rows[{index}].effects", here)

    def run_rule(self, rule_id: str, rule: RollRule, mode: str) -> None:
        if rule.only is not None and not self.holds(rule.only):
            return
        if rule.turn_types and self.state.turn_type not in rule.turn_types:
            return
        if rule.every > 1 and self.turn_number % rule.every != 0:
            return
        ctx = _Ctx(source=rule.label)
        if rule.table:
            self.roll_table(rule.table, rule_id, ctx, dice_text=rule.dice, mode=mode)
            return
        if not rule.dice:
            self.apply_all(rule.on_hit, f"rolls.{rule_id}.on_hit", ctx)
            return
        result = self.roll(rule_id, _with_mode(rule.dice, mode), rule.label)
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
        self.emit(ev.ResultRead(key=rule_id, table="", total=result.total, label=label, text=text))
        effects, branch = (rule.on_hit, "on_hit") if hit else (rule.on_miss, "on_miss")
        self.apply_all(effects, f"rolls.{rule_id}.{branch}", attrs.evolve(ctx, source=label))


def _scaled(expression: str, scale: int) -> str:
    if scale == 1:
        return expression
    parsed = dice.parse(expression)
    parts = [f"{'-' if t.sign < 0 else '+'}{t.count * scale}d{t.sides}" for t in parsed.terms]
    text = "".join(parts).lstrip("+")
    return _with_modifier(text, parsed.modifier * scale)


def _with_modifier(expression: str, bonus: int) -> str:
    if bonus == 0:
        return expression
    return f"{expression}{bonus:+d}"


def _with_mode(expression: str, mode: str) -> str:
    if not mode:
        return expression
    parsed = dice.parse(expression)
    changed = parsed.with_advantage() if mode == "advantage" else parsed.with_disadvantage()
    return changed.text


def _check_mode(procedure: Procedure, state: State, member: Member | None) -> str:
    """Advantage or disadvantage on a check from the light level, fatigue and conditions.

    Advantage and disadvantage together cancel out, as do two sources of one: one is kept.
    """
    modes: set[str] = set()
    level = procedure.light_level(state.light_level).check_mode
    if level:
        modes.add(level)
    if member is not None and procedure.party.fatigue_modes:
        ladder = procedure.party.fatigue
        step = ladder[max(0, min(member.fatigue, len(ladder) - 1))]
        tired = procedure.party.fatigue_modes.get(step)
        if tired:
            modes.add(tired)
    if member is not None:
        for condition in member.conditions:
            mode = procedure.party.condition_modes.get(condition)
            if mode:
                modes.add(mode)
    return modes.pop() if len(modes) == 1 else ""


def walk_effects(procedure: Procedure) -> Iterator[tuple[str, Effect]]:
    """Every effect in a procedure with the reference deferred effects are stored under."""

    def nested(ref: str, effects: Sequence[Effect]) -> Iterator[tuple[str, Effect]]:
        for index, effect in enumerate(effects):
            here = f"{ref}[{index}]"
            yield here, effect
            yield from nested(f"{here}.on_success", effect.on_success)
            yield from nested(f"{here}.on_failure", effect.on_failure)

    for name, table in procedure.tables.items():
        for index, row in enumerate(table.rows):
            yield from nested(f"tables.{name}.rows[{index}].effects", row.effects)
    for group in ("actions", "activities"):
        for name, action in getattr(procedure, group).items():
            yield from nested(f"{group}.{name}.effects", action.effects)
    for name, rule in procedure.rolls.items():
        yield from nested(f"rolls.{name}.on_hit", rule.on_hit)
        yield from nested(f"rolls.{name}.on_miss", rule.on_miss)
    if procedure.rest is not None:
        yield from nested("rest.on_skip", procedure.rest.on_skip)
    for name, track in procedure.tracks.items():
        if track.over is not None:
            yield from nested(f"tracks.{name}.over", (track.over,))


# Commands -----------------------------------------------------------------------------------


def _dispatch(work: _Work, command: cmd.Command, history: History, today: str) -> None:
    match command:
        case cmd.TakeTurn():
            _turn(work, command)
        case cmd.DoActivity():
            _activity(work, command)
        case cmd.AddMember():
            _add_member(work, command)
        case cmd.EditMember():
            _edit_member(work, command)
        case cmd.RemoveMember():
            member = work.member(command.name)
            work.emit(ev.MemberLeft(name=member.name))
        case cmd.AddLight():
            _add_light(work, command)
        case cmd.LightOn():
            _light_on(work, command.target, command.carrier)
        case cmd.LightOff():
            light = _find_light(work, command.target, lit=True)
            work.emit(ev.LightPutOut(id=light.id, reason="put out", spent=False))
        case cmd.HandLight():
            light = _find_light(work, command.target, lit=None)
            carrier = work.member(command.carrier).name if command.carrier else None
            work.emit(ev.LightHandedOver(id=light.id, carrier=carrier))
        case cmd.SetLight():
            _set_light(work, command)
        case cmd.RefuelLight():
            _refuel(work, command)
        case cmd.RollDice():
            _free_roll(work, command)
        case cmd.Note():
            work.emit(ev.Noted(text=command.note))
        case cmd.Undo():
            if history.undo is None:
                raise CommandError("There is nothing to undo.")
            work.emit(
                ev.BatchVoided(
                    batch=history.undo[0], command=history.undo[1], turns=history.undo_turns
                )
            )
        case cmd.Redo():
            if history.redo is None:
                raise CommandError("There is nothing to redo.")
            work.emit(
                ev.BatchRestored(
                    batch=history.redo[0], command=history.redo[1], turns=history.redo_turns
                )
            )
        case cmd.Session():
            _session(work, command, today)
        case cmd.SetTime():
            _set_clock(work, command.hour * 60 + command.minute, "set by the game master")
        case cmd.RollTime():
            _roll_time(work, command)
        case cmd.ShowPlayers():
            if (command.what in work.state.shown) == command.shown:
                now = "already shown on" if command.shown else "not shown on"
                raise CommandError(f"The {command.what} is {now} the players' screen.")
            work.emit(ev.ShownToPlayers(what=command.what, shown=command.shown))
        case cmd.SetRealTime() | cmd.RealTime():
            for event in realtime.decide(work.state, work.procedure, command):
                work.emit(event)
        case cmd.EnterTurnType():
            if command.turn_type not in work.procedure.turn_types:
                known = ", ".join(work.procedure.turn_types) or "this procedure has one kind"
                raise CommandError(f"'{command.turn_type}' is not a kind of turn ({known}).")
            work.emit(ev.TurnTypeChanged(turn_type=command.turn_type))
        case _:
            raise CommandError(f"{type(command).__name__} cannot be applied.")


def _action(work: _Work, name: str | None) -> tuple[str, Action]:
    procedure = work.procedure
    last = work.state.action if work.state.action in procedure.actions else None
    chosen = name or last or procedure.default_action
    if chosen in procedure.actions:
        return chosen, procedure.actions[chosen]
    known = ", ".join(procedure.actions)
    hint = suggest(chosen, procedure.actions)
    raise CommandError(f"'{chosen}' is not an action of {procedure.name} ({known}).{hint}")


def _check_inputs(work: _Work, action_name: str, action: Action) -> None:
    work.wanted = dict(action.inputs)
    for key, wanted in action.inputs.items():
        given = work.inputs.get(key)
        required = wanted.required or (
            wanted.required_when is not None and work.holds(wanted.required_when)
        )
        if given is None:
            if required:
                options = " or ".join(f"{key}={v}" for v in wanted.values) or f"{key}=N"
                message = f"{action.label} needs {wanted.label or key}: add {options}."
                if work.ask_inputs:
                    choices = "|".join(wanted.values) or "N"
                    purpose = f"{action.label}: {wanted.label or key}"
                    if wanted.given_by == "gm":
                        purpose += " (the game master's choice)"
                    raise InputNeeded(key, choices, purpose, message)
                raise CommandError(message)
            if work.ask_inputs and (wanted.values or wanted.number) and not wanted.required_when:
                # The table asks for an optional input too, its default ready to accept.
                choices = "|".join(wanted.values) or "N"
                purpose = f"{action.label} — {wanted.label or key}"
                message = f"{action.label} takes {wanted.label or key} ({key}=...)."
                raise InputNeeded(
                    key, choices, purpose, message, choices=wanted.values, default=wanted.default
                )
            continue
        if wanted.values and given.casefold() not in (v.casefold() for v in wanted.values):
            options = ", ".join(wanted.values)
            raise CommandError(f"{key}={given} is not allowed; use one of: {options}.")
        problem = number_problem(key, given, 0, 999) if wanted.number else None
        if problem is not None:
            raise CommandError(problem)
    for key in FREE_INPUTS:
        work.inputs.get(key)
    by = work.inputs.get("by")
    if by is not None:
        work.member(by)


@attrs.frozen
class Preview:
    """What a turn of an action will really do in the light the party has now.

    The action pane shows it and ``turn`` takes it, so the two never disagree.
    """

    name: str
    action: Action
    turns: int
    distance: str
    flags: tuple[str, ...]
    #: Why the action is impossible at this light level ('' when it is possible).
    forbidden: str
    #: How the light changes the action, in words ('' when it does not).
    light_note: str


def preview(state: State, procedure: Procedure, name: str, speed: str = "") -> Preview:
    """A turn of the named action in the current light: its turns, distance and flags."""
    action = procedure.actions[name]
    rules = procedure.light_level(state.light_level)
    level = rules.label.lower()
    forbidden = ""
    if name in rules.forbid:
        forbidden = (rules.text or "there is not enough light").rstrip(". ")
    turns = rules.turns.get(name, action.turns)
    distance = ""
    notes: list[str] = []
    if action.distance:
        movement = procedure.movement
        chosen = speed or movement.default_speed
        value = action.distance.get(chosen)
        if value is not None:
            distance = f"{value * rules.movement_factor:g} {movement.unit}"
        if rules.movement_factor != 1:
            how = {0.5: "halved", 0.25: "quartered", 0: "stopped"}.get(rules.movement_factor)
            notes.append(
                f"movement {how} in {level}"
                if how
                else f"movement ×{rules.movement_factor:g} in {level}"
            )
    if turns != action.turns:
        notes.append(f"takes {turns} {procedure.turn_name(state.turn_type)}s in {level}")
    kept = tuple(flag for flag in action.flags if flag not in rules.cancels)
    flags = tuple(dict.fromkeys((*kept, *rules.flags)))
    return Preview(
        name=name,
        action=action,
        turns=turns,
        distance=distance,
        flags=flags,
        forbidden=forbidden,
        light_note="; ".join(notes),
    )


def _turn(work: _Work, command: cmd.TakeTurn) -> None:
    procedure = work.procedure
    name, action = _action(work, command.action)
    speed = work.inputs.get("speed") or ""
    if speed and action.distance and speed not in action.distance:
        known = ", ".join(action.distance)
        raise CommandError(f"speed={speed} is not a movement speed ({known}).")
    shown = preview(work.state, procedure, name, speed)
    rules = procedure.light_level(work.state.light_level)
    if shown.forbidden:
        raise CommandError(
            f"The party cannot {action.label.lower()} in {rules.label.lower()}: "
            f"{shown.forbidden}. Light a source first."
        )
    _check_inputs(work, name, action)
    turns = shown.turns
    distance = shown.distance
    flags = shown.flags
    work.flags = flags
    resting = action.kind == "rest"
    if turns == 0:
        _action_body(work, name, action, mode_from=action)
        return
    for _ in range(turns):
        work.turn_number = work.state.turn + 1
        number = work.turn_number
        work.emit(
            ev.TurnStarted(
                number=number,
                action=name,
                turn_type=work.state.turn_type,
                resting=resting,
                distance=distance,
                flags=flags,
            )
        )
        _log_inputs(work, action)
        _resolve_pending(work, resting)
        _periodic_rest(work, resting)
        for track_name, track in procedure.tracks.items():
            if name in track.reset_by:
                for member in work.state.party:
                    start = _track_start(track.start, member)
                    if member.track(track_name) != start:
                        work.emit(
                            ev.TrackChanged(
                                name=member.name, track=track_name, value=start, reason=action.label
                            )
                        )
        for rule_id, rule in procedure.rolls.items():
            if rule.when == "start" and rule_id not in action.skip_rolls:
                work.run_rule(rule_id, rule, action.roll_mode.get(rule_id, ""))
        _action_body(work, name, action, mode_from=action)
        for rule_id, rule in procedure.rolls.items():
            if rule.when == "end" and rule_id not in action.skip_rolls:
                work.run_rule(rule_id, rule, action.roll_mode.get(rule_id, ""))
        _time_passes(work, name)


def _log_inputs(work: _Work, action: Action) -> None:
    """Write the results the players gave (a group stealth check) into the turn's log.

    An input that only sets a check's DC is left out: the check's own line shows the DC.
    """
    in_dc = {name for effect in iter_effects(action.effects) for name in effect.dc_inputs}
    for key, wanted in action.inputs.items():
        if key in in_dc:
            continue
        given = work.inputs.get(key)
        if given is not None:
            label = wanted.label or key
            work.emit(ev.Logged(text=f"{label[:1].upper()}{label[1:]}: {given}", label=key))


def _action_body(work: _Work, name: str, action: Action, *, mode_from: Action) -> None:
    ctx = _Ctx(source=action.label)
    work.apply_all(action.effects, f"actions.{name}.effects", ctx)
    for rule_id in action.rolls:
        rule = work.procedure.rolls[rule_id]
        if rule.when == "action":
            work.run_rule(rule_id, rule, mode_from.roll_mode.get(rule_id, ""))


def _activity(work: _Work, command: cmd.DoActivity) -> None:
    procedure = work.procedure
    activity = procedure.activities.get(command.activity)
    if activity is None:
        known = ", ".join(procedure.activities) or "this procedure has none"
        hint = suggest(command.activity, procedure.activities)
        raise CommandError(f"'{command.activity}' is not an activity ({known}).{hint}")
    current = work.current_action()
    if current is not None and not current.activities and work.state.turn > 0:
        turn_name = procedure.turn_name(work.state.turn_type)
        raise CommandError(
            f"{current.label} skips the characters' actions this {turn_name}, so no one can "
            f"{activity.label.lower()} now; take the next {turn_name} first."
        )
    _check_inputs(work, command.activity, activity)
    work.activity = activity
    work.emit(ev.Logged(text=activity.text or activity.label, label=activity.label))
    ctx = _Ctx(source=activity.label, member=work.inputs.get("by"))
    if ctx.member is not None:
        ctx = attrs.evolve(ctx, member=work.member(ctx.member).name)
    work.apply_all(activity.effects, f"activities.{command.activity}.effects", ctx)
    for rule_id in activity.rolls:
        work.run_rule(rule_id, procedure.rolls[rule_id], activity.roll_mode.get(rule_id, ""))


def _resolve_pending(work: _Work, resting: bool) -> None:
    if not work.state.pending:
        return
    effects = dict(walk_effects(work.procedure))
    for pending in work.state.pending:
        effect = effects.get(pending.ref)
        if resting or effect is None:
            work.emit(ev.DeferredResolved(ref=pending.ref, label=pending.label, applied=False))
            continue
        work.emit(ev.DeferredResolved(ref=pending.ref, label=pending.label, applied=True))
        who = pending.member or None
        # "fatigue (1 damage each)" is told as its result's name, "fatigue", from here on.
        source = pending.label.split(" (")[0]
        ctx = _Ctx(source=source, member=who, scope=who, deferred=True)
        work.apply(effect, pending.ref, ctx)


def _periodic_rest(work: _Work, resting: bool) -> None:
    rest = work.procedure.rest
    if rest is None or resting:
        return
    # turns_since_rest already counts this turn; the rest was owed before it began.
    if work.state.turns_since_rest - 1 >= rest.every:
        work.emit(ev.RestSkipped(turns=work.state.turns_since_rest - 1))
        work.apply_all(rest.on_skip, "rest.on_skip", _Ctx(source="rest skipped"))


def _track_start(start: int | str, member: Member) -> int:
    if isinstance(start, int):
        return start
    return member.ability(start) or 0


def _time_passes(work: _Work, action_name: str) -> None:
    procedure = work.procedure
    minutes = procedure.turn_minutes(work.state.turn_type)
    # A light that burns in real time is counted by the table's clock, not by turns.
    burning = tuple(
        light.id
        for light in work.state.lit_lights
        if light.minutes is not None and light.real_seconds is None
    )
    if burning:
        work.emit(ev.LightsBurned(ids=burning, minutes=minutes))
        for light_id in burning:
            light = work.state.light(light_id)
            if light is not None and light.minutes == 0 and light.lit:
                kind = procedure.lights.get(light.kind)
                refuels = kind is not None and kind.refuel_hours is not None
                reason = "out of fuel" if refuels else "burnt out"
                work.emit(ev.LightPutOut(id=light_id, reason=reason, spent=not refuels))
    for track_name, track in procedure.tracks.items():
        added = track.per_turn + track.per_hour * minutes // 60
        if not added or action_name in track.reset_by:
            continue
        for member in work.state.party:
            value = member.track(track_name) + added
            work.emit(
                ev.TrackChanged(
                    name=member.name, track=track_name, value=value, reason="time passed"
                )
            )
            limit = _limit(track.limit, member)
            if track.over is not None and limit is not None and value > limit:
                ctx = _Ctx(
                    source=track.label, member=member.name, scope=member.name, excess=value - limit
                )
                work.apply(track.over, f"tracks.{track_name}.over", ctx)
    work.emit(ev.TurnEnded(number=work.turn_number, minutes=minutes))


def _limit(limit: int | str | None, member: Member) -> int | None:
    if limit is None or isinstance(limit, int):
        return limit
    return member.ability(limit)


# Party and lights ---------------------------------------------------------------------------


def _add_member(work: _Work, command: cmd.AddMember) -> None:
    if work.state.member(command.name) is not None:
        raise CommandError(f"{command.name} is already in the party; pick another name.")
    if len(work.state.party) >= 50:
        raise CommandError("The party already has 50 members, the most delvetui keeps.")
    abilities = dict(command.abilities)
    tracks: dict[str, int] = {}
    member = Member(name=command.name, hp=command.hp, max_hp=command.max_hp)
    member = attrs.evolve(member, abilities=tuple(sorted(abilities.items())))
    for name, track in work.procedure.tracks.items():
        tracks[name] = _track_start(track.start, member)
    work.emit(
        ev.MemberJoined(
            name=command.name,
            hp=min(command.hp, command.max_hp),
            max_hp=command.max_hp,
            abilities=abilities,
            tracks=tracks,
        )
    )


def _edit_member(work: _Work, command: cmd.EditMember) -> None:
    member = work.member(command.name)
    unchanged: list[str] = []  # what the command asked for that is so already
    if command.max_hp is not None or command.abilities:
        abilities = dict(member.abilities)
        abilities.update(dict(command.abilities))
        max_hp = command.max_hp if command.max_hp is not None else member.max_hp
        if max_hp != member.max_hp or abilities != dict(member.abilities):
            work.emit(ev.MemberEdited(name=member.name, max_hp=max_hp, abilities=abilities))
        else:
            unchanged.append(f"{member.name} already has those numbers")
        member = work.member(member.name)
    if command.hp is not None:
        asked = command.hp.apply(member.hp)
        hp = max(0, min(member.max_hp, asked))
        if hp != member.hp:
            work.emit(
                ev.HpChanged(name=member.name, hp=hp, change=hp - member.hp, reason="game master")
            )
        else:
            bound = " (the most is their maximum)" if asked > hp else ""
            bound = " (the least is 0)" if asked < hp else bound
            unchanged.append(f"{member.name} has {hp}/{member.max_hp} hit points already{bound}")
    if command.fatigue is not None:
        ladder = work.procedure.party.fatigue
        asked = command.fatigue.apply(member.fatigue)
        level = max(0, min(len(ladder) - 1, asked))
        if level != member.fatigue:
            work.emit(
                ev.FatigueChanged(
                    name=member.name, level=level, label=ladder[level], reason="game master"
                )
            )
        else:
            steps = f"fatigue goes from 0 ({ladder[0]}) to {len(ladder) - 1} ({ladder[-1]})"
            unchanged.append(f"{member.name} is {ladder[level]} (fatigue {level}) already; {steps}")
    for condition in command.gain:
        if condition in work.member(member.name).conditions:
            unchanged.append(f"{member.name} is {condition} already")
            continue
        work.emit(ev.ConditionGained(name=member.name, condition=condition, reason="game master"))
    for condition in command.lose:
        if condition not in work.member(member.name).conditions:
            raise CommandError(f"{member.name} is not {condition}.")
        work.emit(ev.ConditionLost(name=member.name, condition=condition, reason="game master"))
    if unchanged and not work.events:
        raise CommandError(f"Nothing changed: {'; '.join(unchanged)}. Nothing was saved.")


def _next_light_id(state: State, kind: str) -> str:
    return f"{kind}{state.light_number(kind) + 1}"


def _add_light(work: _Work, command: cmd.AddLight) -> None:
    procedure = work.procedure
    kind = procedure.lights.get(command.kind)
    if kind is None:
        known = ", ".join(procedure.lights) or "none"
        hint = suggest(command.kind, procedure.lights)
        raise CommandError(f"'{command.kind}' is not a light of {procedure.name} ({known}).{hint}")
    carrier = work.member(command.carrier).name if command.carrier else None
    light_id = _next_light_id(work.state, command.kind)
    minutes = kind.duration_minutes(procedure.turn_minutes(work.state.turn_type))
    work.emit(
        ev.LightAdded(
            id=light_id,
            kind=command.kind,
            count=command.count,
            carrier=carrier,
            minutes=minutes,
            brightness=kind.brightness,
            usage_die=kind.usage_die,
        )
    )
    if kind.real_minutes is not None:
        seconds = kind.real_minutes * 60
        work.emit(ev.LightRealTimeSet(id=light_id, seconds=seconds, reason=realtime.BY_PROCEDURE))
    if command.lit:
        _light_on(work, light_id, carrier)


def _find_light(work: _Work, target: str, *, lit: bool | None) -> Light:
    state = work.state
    found = state.light(target)
    if found is not None:
        if lit is True and not found.lit:
            raise CommandError(f"{found.id} is not lit.")
        return found
    wanted = target.casefold()
    candidates = [light for light in state.lights if light.kind.casefold() == wanted]
    if lit is not None:
        candidates = [light for light in candidates if light.lit == lit and not light.spent]
    if not candidates:
        ids = ", ".join(light.id for light in state.lights) or "no lights yet"
        state_word = {True: "lit ", False: "unlit ", None: ""}[lit]
        raise CommandError(f"There is no {state_word}light '{target}' (lights: {ids}).")
    return candidates[0]


def _light_on(work: _Work, target: str, carrier: str | None) -> None:
    light = _find_light(work, target, lit=False)
    if light.lit:
        raise CommandError(f"{light.id} is already lit.")
    if light.spent:
        raise CommandError(f"{light.id} is used up; it cannot be lit again.")
    if light.minutes == 0:
        raise CommandError(f"{light.id} has no time left; refuel it or set its time first.")
    if light.real_seconds == 0:
        raise CommandError(
            f"{light.id} has no real time left; give it more with light realtime {light.id} 60m."
        )
    holder = work.member(carrier).name if carrier else None
    new_id = light.id if light.count == 1 else _next_light_id(work.state, light.kind)
    work.emit(ev.LightLit(id=new_id, source=light.id, carrier=holder))


def _set_light(work: _Work, command: cmd.SetLight) -> None:
    light = _find_light(work, command.target, lit=None)
    minutes = command.minutes
    if command.turns is not None:
        minutes = command.turns * work.procedure.turn_minutes(work.state.turn_type)
    assert minutes is not None
    work.emit(ev.LightTimerSet(id=light.id, minutes=minutes, reason="set by the game master"))
    if minutes == 0 and light.lit:
        work.emit(ev.LightPutOut(id=light.id, reason="burnt out", spent=True))


def _refuel(work: _Work, command: cmd.RefuelLight) -> None:
    light = _find_light(work, command.target, lit=None)
    kind = work.procedure.lights[light.kind]
    minutes = kind.refuel_minutes()
    if minutes is None:
        raise CommandError(f"A {kind.label.lower()} cannot be refuelled.")
    work.emit(
        ev.LightTimerSet(id=light.id, minutes=minutes, reason=kind.refuel_label or "refuelled")
    )
    for event in realtime.refuelled(light, kind, minutes):
        work.emit(event)


def _free_roll(work: _Work, command: cmd.RollDice) -> None:
    purpose = command.purpose or "a roll"
    if command.value is not None:
        result = dice.entered(command.expression, command.value)
    elif work.ask:
        raise RollNeeded("result", dice.parse(command.expression).text, purpose)
    else:
        result = dice.roll(command.expression, work.rng)
    work.emit(
        ev.DiceRolled(
            key="roll",
            purpose=purpose,
            expression=result.expression,
            faces=result.faces,
            kept=result.kept,
            modifier=result.modifier,
            total=result.total,
            hit=result.hit,
            entered=result.entered,
        )
    )


def _session(work: _Work, command: cmd.Session, today: str) -> None:
    state = work.state
    if command.start:
        if state.in_session:
            raise CommandError(f"Session {state.session} is already running; end it first.")
        work.emit(ev.SessionStarted(number=state.session + 1, date=today))
    else:
        if not state.in_session:
            raise CommandError("No session is running; start one with 'session start'.")
        work.emit(ev.SessionEnded(number=state.session, date=today))


def _roll_time(work: _Work, command: cmd.RollTime) -> None:
    count = command.count or 1
    if command.value is not None:
        result = dice.entered(f"{count}d6", command.value)
    elif work.ask:
        raise RollNeeded("time", f"{count}d6", "the hour of day")
    else:
        result = dice.roll(f"{count}d6", work.rng)
    work.emit(
        ev.DiceRolled(
            key="time",
            purpose="time dice for the hour",
            expression=result.expression,
            faces=result.faces,
            kept=result.kept,
            total=result.total,
            entered=result.entered,
        )
    )
    _set_clock(work, result.total * 60, "rolled on the time dice")


def _set_clock(work: _Work, minute_of_day: int, reason: str) -> None:
    """Move the clock to a time of day; one earlier than now is that time the next day.

    The clock never runs backwards: time spent (lights, tracks) stays spent. Before the
    first turn no time has been spent, so the game master sets the hour the expedition
    starts at ("the GM sets one time die out to 5"), on its first day.
    """
    clock = work.state.clock
    day_start = clock - clock % MINUTES_PER_DAY
    wanted = day_start + minute_of_day
    if work.state.turn == 0 and work.state.minutes == 0 and day_start == 0:
        reason = f"{reason}; the expedition starts at this hour"
    elif wanted < clock:
        now = f"{clock % MINUTES_PER_DAY // 60:02d}:{clock % 60:02d}"
        reason = f"{reason}; earlier than {now}, so it is the next day"
        wanted += MINUTES_PER_DAY
    work.emit(ev.ClockSet(clock=wanted, reason=reason))
