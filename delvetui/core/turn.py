"""The turn procedure: a turn of an action, an activity within one, and time passing.

A turn starts, the results the players gave are logged, held-over effects are resolved,
the procedure's rolls are made at the start and the end around the action's own effects,
and time passes: lights burn, tracks grow, the turn ends. ``preview`` says what a turn of
an action will do in the current light; the action pane shows it and ``turn`` takes it.
"""

from __future__ import annotations

import attrs

from delvetui.core import commands as cmd
from delvetui.core import conditions, level_rules, realtime, rooms, timers
from delvetui.core import events as ev
from delvetui.core.member_light import party_level
from delvetui.core.state import Member, State
from delvetui.core.work import Ctx, Work, named, track_over
from delvetui.errors import CommandError, InputNeeded
from delvetui.procedure.conditions import FREE_INPUTS
from delvetui.procedure.model import Action, Procedure
from delvetui.procedure.tree import iter_effects, walk_effects
from delvetui.text import a, counted, number_problem


def _action(work: Work, name: str | None) -> tuple[str, Action]:
    procedure = work.procedure
    state = work.state
    chosen = name or procedure.bare_action(state.action, state.turn_type, state.moving)
    action = named(procedure.actions, chosen, f"an action of {procedure.name}")
    kept_apart(procedure, work.state.turn_type, action)
    return chosen, action


def kept_apart(procedure: Procedure, turn_type: str, action: Action, noun: str = "action") -> None:
    """Refuse an action (or activity) of another kind of turn: the game master changes the
    kind of turn with ``enter ID``, never by taking an action of another."""
    if action.taken_in(turn_type):
        return
    kinds = " or ".join(action.turn_types)
    raise CommandError(
        f"{action.label} is {a(f'{kinds} {noun}')}; this is "
        f"{a(procedure.turn_name(turn_type))}. Type `enter {action.turn_types[0]}` first."
    )


#: The free inputs a sign or an encounter reads, and why one given is refused on a turn
#: where none reads it.
_MET_INPUTS = {
    "creature": "No encounter began, so creature= names no one (an encounter met without a "
    "name is named afterwards with `encounter creature=NAME`)",
    "distance": "No encounter began, so distance= says how far away nothing is (an "
    "encounter's distance is said afterwards with `encounter distance=TEXT`)",
    "sign": "No sign was found, so sign= says what nothing is",
}


def _check_inputs(work: Work, action_name: str, action: Action) -> None:
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
    for key in FREE_INPUTS - _MET_INPUTS.keys():
        work.inputs.get(key)
    for key, why in _MET_INPUTS.items():
        # Used only by the sign or the encounter that reads them: refused, with why, when
        # none does this turn (a typed value is never taken silently).
        work.inputs.skip(key, why)
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
    #: Whose speed sets the distance ("at Bo's pace"; '' when members have no speeds).
    pace: str = ""

    @property
    def distance_told(self) -> str:
        """The distance with whose pace it is, as the log tells it."""
        return f"{self.distance} {self.pace}" if self.pace and self.distance else self.distance


def preview(state: State, procedure: Procedure, name: str, speed: str = "") -> Preview:
    """A turn of the named action in the current light: its turns, distance and flags."""
    action = procedure.actions[name]
    rules = procedure.light_level(party_level(state, procedure))
    level = rules.label.lower()
    forbidden = ""
    if name in rules.forbid:
        forbidden = (rules.text or "there is not enough light").rstrip(". ")
    turns = rules.turns.get(name, action.turns)
    distance = ""
    paced = ""
    notes: list[str] = []
    if action.distance:
        movement = procedure.movement
        chosen = speed or movement.default_speed
        value = action.distance.get(chosen)
        slowed, why = level_rules.movement(procedure, state)
        if value is not None:
            pace = slowest(state, procedure)
            factor = 1.0 if pace is None else pace[1] / (movement.base_speed or pace[1])
            factor *= slowed
            unit = procedure.distance_unit(state.turn_type)
            distance = f"{round(value * rules.movement_factor * factor, 2):g} {unit}"
            if pace is not None and factor != slowed:
                paced = f"at {pace[0]}'s pace"
        if slowed != 1:
            slow = {0.5: "halved", 0: "stopped"}.get(slowed, f"×{slowed:g}")
            notes.append(f"movement {slow}: {why}")
        if rules.movement_factor != 1:
            how = {0.5: "halved", 0.25: "quartered", 0: "stopped"}.get(rules.movement_factor)
            notes.append(
                f"movement {how} in {level}"
                if how
                else f"movement ×{rules.movement_factor:g} in {level}"
            )
    if turns != action.turns:
        notes.append(f"takes {counted(turns, procedure.turn_name(state.turn_type))} in {level}")
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
        pace=paced,
    )


def slowest(state: State, procedure: Procedure) -> tuple[str, int] | None:
    """The party member who sets the pace, with their speed, where members have their own
    (``movement.member_speed``); None when they do not, or no one is slower or faster than
    the speed the distances are written for. A member without the ability moves at it."""
    movement = procedure.movement
    if not movement.member_speed or not movement.base_speed:
        return None
    base = movement.base_speed
    speeds = [
        (member.name, speed)
        for member in state.party
        if (speed := member.ability(movement.member_speed)) is not None
    ]
    if not speeds:
        return None
    name, speed = min(speeds, key=lambda pair: pair[1])
    if len(speeds) < len(state.party) and speed >= base:
        return None  # someone without a speed of their own moves at the base: they set it
    return name, speed


def take_turn(work: Work, command: cmd.TakeTurn, *, fight: bool = False) -> None:
    """Take one or more turns of an action (``turn [ACTION]``); ``fight``: the turn is a
    fight's own (``[encounter] round_action`` or ``end_action``), which only a fight takes."""
    procedure = work.procedure
    if work.state.fight is not None and not fight:
        # A fight's time is its rounds and its end: a turn taken in the middle of one
        # would pass the clock twice.
        raise CommandError(
            f"A fight is under way ({procedure.encounter.round_label} "
            f"{work.state.fight.round}): round takes the next, fight end ends it and "
            "charges the clock. Nothing was saved."
        )
    name, action = _action(work, command.action)
    if action.kind == "fight" and not fight:
        turn_name = procedure.turn_name(work.state.turn_type)
        raise CommandError(
            f"{action.label} is the {turn_name} a fight takes: round and fight end take it "
            f"(a fight begins with fight). Nothing was saved."
        )
    speed = work.inputs.get("speed") or ""
    if speed and action.distance and speed not in action.distance:
        known = ", ".join(action.distance)
        raise CommandError(f"speed={speed} is not a movement speed ({known}).")
    shown = preview(work.state, procedure, name, speed)
    rules = procedure.light_level(party_level(work.state, procedure))
    if shown.forbidden:
        raise CommandError(
            f"{action.label} is not possible in {rules.label.lower()}: "
            f"{shown.forbidden}. Light a source first."
        )
    _refused(work, action)
    _check_inputs(work, name, action)
    work.said_minutes = _said_minutes(work, action)
    _not_rolled(work, action)
    turns = shown.turns
    if action.turns_dice and name not in rules.turns:
        # "A haven of 1d4+1 days": the turns are rolled each time the action is taken.
        unit = procedure.turn_name(work.state.turn_type)
        purpose = f"How long {action.label} lasts, in {unit}s"
        turns = work.roll(name, action.turns_dice, purpose).total
    distance = shown.distance_told
    flags = shown.flags
    work.flags = flags
    resting = action.kind == "rest"
    if turns == 0:
        _action_body(work, name, action, mode_from=action)
        return
    # A rest an encounter breaks gives nothing: its resets wait for the rolls made at the
    # turn's start, and with its effects and its own rolls are left out when one broke it.
    held = resting and action.encounter_breaks
    for count in range(turns):
        work.turn_number = work.state.turn + 1
        work.over_fired.clear()
        number = work.turn_number
        work.since_rest = work.state.turns_since_rest + 1
        work.emit(
            ev.TurnStarted(
                number=number,
                action=name,
                turn_type=work.state.turn_type,
                resting=resting,
                distance=distance,
                flags=flags,
                # A turn the fight or the flight takes is never what a bare turn goes on
                # with: after a turn of running away, `n` explores again.
                persists=action.persists and not fight,
            )
        )
        _log_inputs(work, action)
        if count == 0:  # an action of several turns is one try
            by = work.inputs.get("by") if work.inputs.has("by") else None
            rooms.tried(work, name, action.once_per_room, work.member(by).name if by else "")
        _resolve_pending(work, resting)
        _periodic_rest(work, resting)
        if not held:
            _resets(work, name, action)
        _turn_rolls(work, action, "start")
        # RestBroken sets the rest in a row to 0: an encounter before the party rested.
        if not (held and work.state.streak == 0):
            if held:
                _resets(work, name, action)
            # Rested: an encounter from here on only starts the rest in a row again.
            work.since_rest = None
            _action_body(work, name, action, mode_from=action)
        work.since_rest = None
        _turn_rolls(work, action, "end")
        _time_passes(work, name)


def _resets(work: Work, name: str, action: Action) -> None:
    """The tracks the action resets (``reset_by``), for each living member."""
    for track_name, track in work.procedure.tracks.items():
        if name in track.reset_by and work.state.streak >= track.reset_after:
            for member in work.state.living:
                start = track_start(track.start, member)
                if member.track(track_name) != start:
                    work.emit(
                        ev.TrackChanged(
                            name=member.name, track=track_name, value=start, reason=action.label
                        )
                    )


def _turn_rolls(work: Work, action: Action, when: str) -> None:
    """The procedure's rolls made at the start or the end of a turn of the action."""
    for rule_id, rule in work.procedure.rolls.items():
        if rule.when == when and rule_id not in action.skip_rolls:
            work.run_rule(rule_id, rule, action.roll_mode.get(rule_id, ""))


def _refused(work: Work, action: Action, doer: str | None = None) -> None:
    """Refuse an action while its ``refused_when`` holds: for the party, or for any member
    where it tests a member (naming who); an activity done by a member tests the doer."""
    when = action.refused_when
    if when is None:
        return
    if when.about_member:
        party = [work.member(doer)] if doer is not None else work.state.party
        who = [member.name for member in party if work.holds(when, member.name)]
        if not who:
            return
        whose = f" ({', '.join(who)})"
    elif work.holds(when):
        whose = ""
    else:
        return
    why = action.refusal or "its rule forbids it now"
    raise CommandError(f"{action.label} is refused: {why}{whose}. Nothing was saved.")


def _said_minutes(work: Work, action: Action) -> int | None:
    """The turn's length the game master said (``turn pass-time minutes=30``), or None when
    the action takes its kind of turn's own length."""
    if not action.minutes_input:
        return None
    key = action.minutes_input
    given = work.inputs.get(key) or action.inputs[key].default
    if given is None or not given.isdigit() or int(given) < 1:
        raise CommandError(
            f"{action.label} lasts as long as the game master says: give {key}=N, the "
            "minutes that pass (at least 1)."
        )
    return int(given)


def _not_rolled(work: Work, action: Action) -> None:
    """Say why the action makes no roll of a rule it skips or does not call for.

    A result typed for such a roll is then refused with the reason, not as an unknown key.
    """
    for rule_id, rule in work.procedure.rolls.items():
        if rule_id in action.skip_rolls:
            work.inputs.skip(
                rule_id, f"{rule.label} is not rolled this turn: {action.label} skips it"
            )
        elif rule.when == "action" and rule_id not in action.rolls:
            callers = [
                other.label.lower()
                for other in work.procedure.actions.values()
                if rule_id in other.rolls
            ]
            who = f" ({', '.join(callers)})" if callers else ""
            work.inputs.skip(
                rule_id,
                f"{rule.label} is not rolled this turn: it is made only by the actions that "
                f"call for it{who}, and {action.label.lower()} does not",
            )


def _log_inputs(work: Work, action: Action) -> None:
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


def _action_body(work: Work, name: str, action: Action, *, mode_from: Action) -> None:
    work.apply_all(action.effects, f"actions.{name}.effects", Ctx(source=action.label))
    for rule_id in action.rolls:
        rule = work.procedure.rolls[rule_id]
        if rule.when == "action":
            work.run_rule(rule_id, rule, mode_from.roll_mode.get(rule_id, ""))


def do_activity(work: Work, command: cmd.DoActivity) -> None:
    """Do an activity within the current turn (``do ACTIVITY``)."""
    procedure = work.procedure
    activity = named(
        procedure.activities, command.activity, "an activity", none="this procedure has none"
    )
    kept_apart(procedure, work.state.turn_type, activity, "activity")
    current = work.current_action()
    if current is not None and not current.activities and work.state.turn > 0:
        turn_name = procedure.turn_name(work.state.turn_type)
        raise CommandError(
            f"{current.label} skips the characters' actions this {turn_name}, so no one can "
            f"{activity.label.lower()} now; take the next {turn_name} first."
        )
    _check_inputs(work, command.activity, activity)
    by = work.inputs.get("by")
    member = work.member(by).name if by is not None else None
    if member is None and work.procedure.party.activities_each is not None:
        # Each member takes their own share of actions: say (or ask) whose this is.
        member = work.members("by", Ctx(source=activity.label))[0].name
    _activity_allowed(work, activity, member)
    _in_the_light(work, command.activity, activity)
    _refused(work, activity, member)
    work.activity = activity
    text = activity.text or activity.label
    work.emit(
        ev.ActivityDone(activity=command.activity, text=text, label=activity.label, by=member or "")
    )
    rooms.tried(work, command.activity, activity.once_per_room, member or "")
    ctx = Ctx(source=activity.label, member=member)
    work.apply_all(activity.effects, f"activities.{command.activity}.effects", ctx)
    for rule_id in activity.rolls:
        rule = procedure.rolls[rule_id]
        work.run_rule(rule_id, rule, activity.roll_mode.get(rule_id, ""), asked=True)


def _in_the_light(work: Work, name: str, activity: Action) -> None:
    """Refuse an activity the party's light level forbids (``forbid`` names it)."""
    procedure = work.procedure
    rules = procedure.light_level(party_level(work.state, procedure))
    if name in rules.forbid:
        why = (rules.text or "there is not enough light").rstrip(". ")
        raise CommandError(
            f"{activity.label} is not possible in {rules.label.lower()}: {why}. Light a "
            "source first."
        )


def _activity_allowed(work: Work, activity: Action, member: str | None) -> None:
    """Refuse an activity the party's rules do not allow now: one during the turn's
    encounter (``activities_in_encounter = false``), or a member's beyond their share of
    the turn (``activities_each``)."""
    party = work.procedure.party
    state = work.state
    turn_name = work.procedure.turn_name(state.turn_type)
    what = activity.label.lower()
    if not party.activities_in_encounter and state.encounter is not None:
        raise CommandError(
            f"An encounter is under way this {turn_name}, so no one can {what} now: the "
            f"characters' actions are for a {turn_name} without one; take the next "
            f"{turn_name} first."
        )
    if party.activities_each is None or member is None:
        return
    most = party.activities_each
    if state.acted.count(member) >= most:
        taken = "their action" if most == 1 else f"their {most} actions"
        each = "one action" if most == 1 else f"at most {most} actions"
        raise CommandError(
            f"{member} has already taken {taken} this {turn_name}: each member takes {each} "
            f"a {turn_name}. Take the next {turn_name} first."
        )


def _resolve_pending(work: Work, resting: bool) -> None:
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
        ctx = Ctx(source=source, member=who, scope=who, deferred=True)
        work.apply(effect, pending.ref, ctx)


def _periodic_rest(work: Work, resting: bool) -> None:
    rest = work.procedure.rest
    if rest is None or resting:
        return
    # turns_since_rest already counts this turn; the rest was owed before it began.
    if work.state.turns_since_rest - 1 >= rest.every:
        work.emit(ev.RestSkipped(turns=work.state.turns_since_rest - 1))
        work.apply_all(rest.on_skip, "rest.on_skip", Ctx(source="rest skipped"))


def track_start(start: int | str, member: Member) -> int:
    """A track's value for a member who joins or rests: a number, or one of their abilities."""
    if isinstance(start, int):
        return start
    return member.ability(start) or 0


def _time_passes(work: Work, action_name: str) -> None:
    procedure = work.procedure
    action = procedure.actions[action_name]
    minutes = work.turn_minutes
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
                work.emit(realtime.out_of_time(light_id, light.kind, procedure))
    for track_name, track in procedure.tracks.items():
        # Whole hours the clock crosses, so that six 10-minute turns count an hour too.
        hours = (work.state.minutes + minutes) // 60 - work.state.minutes // 60
        added = track.per_turn + track.per_hour * hours
        if not added or action_name in track.reset_by:
            continue
        # The dead leave the tracks: no "Turns without rest" grows for them.
        for member in work.state.living:
            before = member.track(track_name)
            work.emit(
                ev.TrackChanged(
                    name=member.name, track=track_name, value=before + added, reason="time passed"
                )
            )
            track_over(work, track_name, member.name, before, passing=True)
    if action.real_time:
        realtime.world_time_passed(work, minutes)
    conditions.wear_off(work, every_timed=action.expires_turns)
    timers.count_down(work, expire_turns=action.expires_turns)
    work.emit(ev.TurnEnded(number=work.turn_number, minutes=minutes))
