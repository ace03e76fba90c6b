"""decide(state, procedure, command, ...): one command becomes one batch of events.

Pure: randomness comes in as a seeded ``random.Random``, today's date as a string. The
procedure says what each roll and result does; this module only carries it out. While
deciding, each event is applied to a working copy of the state (``work.Work``), so a later
step sees what an earlier one did (the alarm goes up, then the check is made against it).

The rest lives beside it: the turn procedure in ``turn``, the party and light commands in
``party`` and ``lights``, and every effect a procedure can use in the ``effects`` package.
"""

from __future__ import annotations

import random

from delvetui.core import (
    areas,
    fights,
    flight,
    morale,
    realtime,
    rooms,
    runaway,
    table_rows,
    timers,
)
from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.campaign import ended_refusal
from delvetui.core.counters import set_counter
from delvetui.core.lights import (
    add_light,
    declare_kind,
    find_light,
    light_on,
    put_out,
    refuel,
    set_light,
)
from delvetui.core.party import add_member, edit_member, edit_party, set_marching_order
from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.core.timeline import History
from delvetui.core.turn import Preview, do_activity, preview, take_turn
from delvetui.core.work import Inputs, Work
from delvetui.errors import CommandError
from delvetui.procedure.conditions import FREE_INPUTS
from delvetui.procedure.model import Procedure
from delvetui.procedure.tree import walk_effects
from delvetui.text import clock as read_clock
from delvetui.text import quoted

__all__ = [
    "FREE_INPUTS",
    "MAX_SEED",
    "History",
    "Preview",
    "batch_dice",
    "carry_out",
    "decide",
    "new_seed",
    "preview",
    "procedure_change",
    "start_events",
    "walk_effects",
]

#: The largest seed an expedition may have (a random one is below it too).
MAX_SEED = 2**31 - 1


def new_seed() -> int:
    """A new expedition's seed when none is given: random, from 0 to ``MAX_SEED``."""
    import secrets  # hmac and OpenSSL's hashes: only creating an expedition needs them

    return secrets.randbelow(MAX_SEED + 1)


def batch_dice(seed: int, batch: int) -> random.Random:
    """The dice batch number ``batch`` of an expedition rolls with: seeded by the
    expedition's seed and the batch's number, so a command refused and typed again rolls
    what it would have, and a continued expedition's first batch rolls as any batch 1."""
    return random.Random(f"{seed}:{batch}")


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
    if state.ended and not isinstance(command, cmd.Reopen | cmd.Undo | cmd.Redo):
        raise CommandError(ended_refusal(state))
    typed = Inputs(cmd.table_values(command))  # what its form lets the table type
    work = Work(state, procedure, typed, rng, ask, ask_inputs=ask or ask_inputs)
    carry_out(work, command, history or History(), today)
    runaway.check_events(len(work.events))  # the rolls were bounded as they ran; the rest too
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
    events: list[ev.Event] = [
        ev.ProcedureChanged(
            procedure_id=procedure.id,
            procedure_name=procedure.name,
            digest=digest,
            text=procedure.text,
        )
    ]
    # A resource the expedition never counted starts where the new procedure says.
    for resource_id, resource in procedure.resources.items():
        if not resource.start:
            continue
        if resource.per == "party":
            owners = [""] if resource_id not in dict(state.resources) else []
        else:
            owners = [m.name for m in state.party if resource_id not in dict(m.resources)]
        events.extend(
            ev.ResourceChanged(
                name=owner,
                resource=resource_id,
                value=resource.start,
                change=resource.start,
                reason="start",
            )
            for owner in owners
        )
    return events


def start_events(
    name: str, procedure: Procedure, *, seed: int, start: str | None = None, calendar: str = ""
) -> list[ev.Event]:
    """The first batch of a new expedition (``calendar``: the text of a calendar file named
    for it; ProcedureError listing its problems when it has any)."""
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
        if counter.first:
            first.append(
                ev.CounterChanged(
                    counter=counter_name, value=counter.first, change=counter.first, reason="start"
                )
            )
    for resource_id, resource in procedure.resources.items():
        if resource.per == "party" and resource.start:
            first.append(
                ev.ResourceChanged(
                    name="",
                    resource=resource_id,
                    value=resource.start,
                    change=resource.start,
                    reason="start",
                )
            )
    if calendar:
        from delvetui.procedure import calendar as calendar_file

        calendar_file.load_text(calendar)  # ProcedureError, every problem, when it is bad
        first.append(ev.CalendarSet(text=calendar))
    return first


# Commands -----------------------------------------------------------------------------------


def carry_out(work: Work, command: cmd.Command, history: History, today: str = "") -> None:
    """Carry out a command on a working copy, emitting its events into ``work.events``.

    ``decide`` is this on a fresh ``Work``; code that plays the rules another way (the
    odds, choosing each roll's result) builds its own ``Work`` subclass and calls this.
    """
    match command:
        case cmd.TakeTurn():
            take_turn(work, command)
        case cmd.DoActivity():
            do_activity(work, command)
        case cmd.AddMember():
            add_member(work, command)
        case cmd.EditMember():
            edit_member(work, command)
        case cmd.EditParty():
            edit_party(work, command)
        case cmd.SetMarchingOrder():
            set_marching_order(work, command)
        case cmd.RemoveMember():
            member = work.member(command.name)
            work.emit(ev.MemberLeft(name=member.name))
        case cmd.AddLight():
            add_light(work, command)
        case cmd.DeclareLightKind():
            declare_kind(work, command)
        case cmd.LightOn():
            light_on(work, command.target, command.carrier)
        case cmd.LightOff():
            light = find_light(work, command.target, lit=True)
            work.emit(put_out(work, light))
        case cmd.DouseLights():
            _douse(work, command.carrier)
        case cmd.HandLight():
            light = find_light(work, command.target, lit=None)
            carrier = work.member(command.carrier).name if command.carrier else None
            work.emit(ev.LightHandedOver(id=light.id, carrier=carrier))
        case cmd.SetLight():
            set_light(work, command)
        case cmd.RefuelLight():
            refuel(work, command)
        case cmd.RollDice():
            _free_roll(work, command)
        case cmd.Note():
            work.emit(ev.Noted(text=command.note))
        case cmd.Undo():
            batch, text = _history(history.undo, "undo")
            work.emit(ev.BatchVoided(batch=batch, command=text, turns=history.undo_turns))
        case cmd.Redo():
            batch, text = _history(history.redo, "redo")
            work.emit(ev.BatchRestored(batch=batch, command=text, turns=history.redo_turns))
        case cmd.EndExpedition():
            _end(work, today, command.words)
        case cmd.Reopen():
            if not work.state.ended:
                raise CommandError("The expedition has not ended; there is nothing to reopen.")
            work.emit(ev.ExpeditionReopened())
        case cmd.Session():
            _session(work, command, today)
        case cmd.SetTime():
            _set_clock(work, command.hour * 60 + command.minute, "set by the game master")
        case cmd.RollTime():
            _roll_time(work, command)
        case cmd.DescribeEncounter():
            if work.state.encounter is None:
                raise CommandError(
                    "There is no encounter this turn to describe: the hazard die begins one "
                    "(or give creature= and distance= with the turn)."
                )
            work.emit(
                ev.EncounterDescribed(
                    creature=command.creature or "", distance=command.distance or ""
                )
            )
        case cmd.ShowPlayers() if command.what == "room":
            rooms.reveal(work, command.shown)
        case cmd.ShowPlayers():
            if (command.what in work.state.shown) == command.shown:
                now = "already shown on" if command.shown else "not shown on"
                raise CommandError(f"The {command.what} is {now} the players' screen.")
            work.emit(ev.ShownToPlayers(what=command.what, shown=command.shown))
        case cmd.SetRealTime() | cmd.RealTime():
            for event in realtime.decide(work.state, work.procedure, command):
                work.emit(event)
        case cmd.SetCounter():
            set_counter(work, command)
        case cmd.AddTables():
            areas.add_tables(work, command.contents, command.path)
        case cmd.SetTableRow():
            table_rows.set_row(work, command.area, command.row)
        case cmd.ChangeTableRow():
            table_rows.set_row(work, command.area, command.row, was=command.faces)
        case cmd.RemoveTableRow():
            table_rows.remove_row(work, command.area, command.faces)
        case cmd.EnterArea():
            areas.enter_area(work, command.area)
        case cmd.AddRoom():
            rooms.add_room(work, command)
        case cmd.GoToRoom():
            rooms.go(work, command)
        case cmd.MarkRoom():
            rooms.mark_room(work, command)
        case cmd.SetTimer():
            timers.decide(work, command)
        case cmd.AddFoes():
            fights.add_foes(work, command)
        case cmd.EditFoe():
            fights.edit_foe(work, command)
        case cmd.RemoveFoe():
            fights.remove_foe(work, command.name)
        case cmd.BeginFight():
            fights.begin_fight(work, command)
        case cmd.NextRound():
            fights.next_round(work, command)
        case cmd.EndFight():
            fights.end_fight(work, command)
        case cmd.CheckMorale():
            morale.check_morale(work, command)
        case cmd.Flee():
            flight.flee(work, command)
        case cmd.EnterTurnType():
            if command.turn_type not in work.procedure.turn_types:
                known = ", ".join(work.procedure.turn_types) or "this procedure has one kind"
                raise CommandError(f"'{command.turn_type}' is not a kind of turn ({known}).")
            work.emit(ev.TurnTypeChanged(turn_type=command.turn_type))
        case _:
            raise CommandError(f"{type(command).__name__} cannot be applied.")


def _douse(work: Work, carrier: str | None) -> None:
    """Put out every lit light, or every one the member carries: a ``light off`` each."""
    name = work.member(carrier).name if carrier else None
    lit = [light for light in work.state.lit_lights if name is None or light.carrier == name]
    if not lit:
        raise CommandError(f"{name} carries no lit light." if name else "No light is lit.")
    for light in lit:
        work.emit(put_out(work, light))


def _history(found: tuple[int, str] | None, verb: str) -> tuple[int, str]:
    """The batch an undo or redo acts on, or an error when there is none."""
    if found is None:
        raise CommandError(f"There is nothing to {verb}.")
    return found


def _free_roll(work: Work, command: cmd.RollDice) -> None:
    purpose = command.purpose or "a roll"
    work.settle("roll", command.expression, purpose, command.value, asked_key="result")


def _session(work: Work, command: cmd.Session, today: str) -> None:
    state = work.state
    if command.start:
        if state.in_session:
            raise CommandError(f"Session {state.session} is already running; end it first.")
        work.emit(ev.SessionStarted(number=state.session + 1, date=today))
    else:
        if not state.in_session:
            raise CommandError("No session is running; start one with 'session start'.")
        work.emit(ev.SessionEnded(number=state.session, date=today))


def _end(work: Work, today: str, words: str) -> None:
    """End the expedition: the running session ends with it, the lit lights go out and the
    timers that run in real time stop (nothing burns at the table after the end)."""
    state = work.state
    if state.in_session:
        work.emit(ev.SessionEnded(number=state.session, date=today))
    for light in state.lit_lights:
        work.emit(ev.LightPutOut(id=light.id, reason="the expedition ended", spent=False))
    for timer in state.real_timers:
        work.emit(ev.TimerCancelled(name=timer.name))
    work.emit(ev.ExpeditionEnded(words=words))


def _roll_time(work: Work, command: cmd.RollTime) -> None:
    count = command.count or 1
    result = work.settle(
        "time",
        f"{count}d6",
        "time dice for the hour",
        command.value,
        asked_purpose="the hour of day",
    )
    _set_clock(work, result.total * 60, "rolled on the time dice")


def _set_clock(work: Work, minute_of_day: int, reason: str) -> None:
    """Move the clock to a time of day; one earlier than now is that time the next day.

    The clock never runs backwards: time spent (lights, tracks) stays spent. Before the
    first turn no time has been spent, so the game master sets the hour the expedition
    starts at ("the GM sets one time die out to 5"), on its first day (which is a later day
    of the campaign with ``new --day N``). An expedition that continues another never starts
    before the other ended: its hour is set with ``new --start``.
    """
    clock = work.state.clock
    day_start = clock - clock % MINUTES_PER_DAY
    wanted = day_start + minute_of_day
    if work.state.turn == 0 and work.state.minutes == 0 and not work.state.predecessor:
        reason = f"{reason}; the expedition starts at this hour"
    elif wanted < clock:
        now = f"{clock % MINUTES_PER_DAY // 60:02d}:{clock % 60:02d}"
        reason = f"{reason}; earlier than {now}, so it is the next day"
        wanted += MINUTES_PER_DAY
    work.emit(ev.ClockSet(clock=wanted, reason=reason))
