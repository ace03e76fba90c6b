"""The light commands: add a light, light it, set or refuel its time, find it by id or kind."""

from __future__ import annotations

import re

import attrs

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core import realtime
from delvetui.core.state import Light, State
from delvetui.core.work import Work, named
from delvetui.errors import CommandError
from delvetui.procedure.model import LightKind
from delvetui.text import counted, quote

#: The key a light's rolled duration is typed with: ``light on torch burn=3``.
BURN = "burn"


def _next_light_id(state: State, kind: str) -> str:
    return f"{kind}{state.light_number(kind) + 1}"


def add_light(work: Work, command: cmd.AddLight) -> None:
    """Add a light (or a stack) of a kind of the procedure, lit at once if asked."""
    procedure = work.procedure
    kind = named(procedure.lights, command.kind, f"a light of {procedure.name}")
    carrier = work.member(command.carrier).name if command.carrier else None
    for made_of, each in kind.made_from.items():
        _take(work, made_of, each * command.count, kind.label)
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
        light_on(work, light_id, carrier)


#: A kind's id: one word of small letters, digits and dashes (candle, light-spell).
_KIND_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")
#: Where each length of ``light kind`` goes: the unit typed, the kind's key, the factor.
_LENGTHS = {
    "turns": ("turns", 1),
    "minutes": ("minutes", 1),
    "hours": ("minutes", 60),
    "real": ("real_minutes", 1),
}


def declare_kind(work: Work, command: cmd.DeclareLightKind) -> None:
    """Declare a kind of light the procedure lacks (``light kind``), within the ranges a
    procedure's own light keeps."""
    procedure = work.procedure
    kind_id = command.kind.lower()
    if not _KIND_ID.fullmatch(kind_id):
        raise CommandError(
            f"{quote(command.kind)} cannot be a light kind's id: give one word of small "
            "letters, digits and dashes that starts with a letter (candle, light-spell)."
        )
    if kind_id in procedure.lights:
        known = procedure.lights[kind_id].label
        raise CommandError(
            f"{known} ({kind_id}) is already a light of {procedure.name}: `light add "
            f"{kind_id}` adds one; a kind of your own needs another id."
        )
    if command.amount is not None and command.die is not None:
        raise CommandError(
            "A light burns for a time or by its usage die, not both: give a length (6t, 2h) "
            "or die=dN."
        )
    lengths: dict[str, int | None] = {"turns": None, "minutes": None, "real_minutes": None}
    if command.amount is not None:
        field, factor = _LENGTHS[command.unit]
        lengths[field] = command.amount * factor
        rule = attrs.fields_dict(LightKind)[field].metadata.get("bound")
        problem = rule.problem(lengths[field]) if rule is not None else None
        if problem is not None:
            raise CommandError(f"A light's {field.replace('_', ' ')} {problem}")
    label = command.label or kind_id.replace("-", " ").capitalize()
    work.emit(
        ev.LightKindDeclared(
            id=kind_id,
            label=label,
            brightness="dim" if command.dim else "bright",
            usage_die=command.die,
            **lengths,
        )
    )


def _take(work: Work, kind_id: str, wanted: int, made: str) -> None:
    """Take ``wanted`` unlit lights of a kind from the party to make another light of
    (three torches for a campfire): each is lit and goes into it, stacks first. Refused,
    changing nothing, when the party has fewer."""
    usable = sorted(
        (
            light
            for light in work.state.lights
            if light.kind == kind_id
            and not light.lit
            and not light.spent
            and light.minutes != 0
            and light.real_seconds != 0
        ),
        key=lambda light: -light.count,
    )
    have = sum(light.count for light in usable)
    label = work.procedure.lights[kind_id].label.lower()
    if have < wanted:
        shown = ", ".join(f"{x.id} ×{x.count}" if x.count > 1 else x.id for x in usable)
        raise CommandError(
            f"A {made.lower()} is made of {counted(wanted, label)}; the party has {have} "
            f"unlit{f' ({shown})' if shown else ''}. Add more first (light add {kind_id} "
            f"count={wanted - have})."
        )
    for source in usable:
        for _ in range(min(wanted, source.count)):
            left = work.state.light(source.id)
            assert left is not None
            new_id = source.id if left.count == 1 else _next_light_id(work.state, kind_id)
            work.emit(ev.LightLit(id=new_id, source=source.id, carrier=None))
            work.emit(ev.LightPutOut(id=new_id, reason=f"made into the {made.lower()}", spent=True))
            wanted -= 1


def find_light(work: Work, target: str, *, lit: bool | None) -> Light:
    """A light by its id, or the first of a kind (lit or unlit as asked)."""
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


def light_on(work: Work, target: str, carrier: str | None) -> None:
    """Light a light; one taken from a stack gets an id of its own."""
    light = find_light(work, target, lit=False)
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
    kind = work.procedure.lights.get(light.kind)
    fresh = light.count > 1 or (light.lit_turn < 0 and _unburned(work, light))
    work.emit(ev.LightLit(id=new_id, source=light.id, carrier=holder))
    if kind is not None and kind.rides_along and _ride_along(work, new_id):
        return
    if kind is not None and kind.turns_dice and fresh:
        # "Torches burn for 1d4+4 turns": rolled (or typed, burn=N) when first lit.
        rolled = work.roll(BURN, kind.turns_dice, f"how long {new_id} burns, in turns")
        turns = max(1, rolled.total)
        minutes = turns * work.procedure.turn_minutes(work.state.turn_type)
        reason = f"rolled {kind.turns_dice}: {turns} turns"
        work.emit(ev.LightTimerSet(id=new_id, minutes=minutes, reason=reason))


def _ride_along(work: Work, light_id: str) -> bool:
    """A light of a kind that rides along, lit while another such light burns, takes the
    running timer's time left instead of a fresh one (its real time, or its time by turns),
    so they go out together. The running timer is the lit one with the most time left.
    False when no such light burns: the new light starts a timer of its own."""
    kinds = work.procedure.lights
    running = [
        light
        for light in work.state.lit_lights
        if light.id != light_id
        and (kind := kinds.get(light.kind)) is not None
        and kind.rides_along
        and (light.real_seconds is not None or light.minutes is not None)
    ]
    if not running:
        return False

    def left(light: Light) -> int:
        return light.real_seconds if light.real_seconds is not None else 60 * (light.minutes or 0)

    timer = max(running, key=left)
    new = work.state.light(light_id)
    assert new is not None
    reason = f"rides along on {timer.id}'s timer"
    if timer.real_seconds is not None:
        work.emit(ev.LightRealTimeSet(id=light_id, seconds=timer.real_seconds, reason=reason))
        return True
    if new.real_seconds is not None:
        work.emit(ev.LightRealTimeSet(id=light_id, seconds=None, reason=reason))
    work.emit(ev.LightTimerSet(id=light_id, minutes=timer.minutes or 0, reason=reason))
    return True


def _unburned(work: Work, light: Light) -> bool:
    """True when a light never lit here still shows the time a fresh one of its kind has
    (in some kind of turn): one carried home part-burned from the last expedition, or whose
    time the game master set, burns what it has and rolls nothing."""
    procedure = work.procedure
    kind = procedure.lights.get(light.kind)
    if kind is None or light.minutes is None:
        return True
    types = list(procedure.turn_types) or [procedure.default_turn_type]
    return light.minutes in {kind.duration_minutes(procedure.turn_minutes(t)) for t in types}


def set_light(work: Work, command: cmd.SetLight) -> None:
    """Correct a light's record: its time left (turns or minutes), or its usage die.

    Each light is corrected in what it counts: a light that burns down on a usage die has
    no time left to set, and one that counts time has no usage die.
    """
    light = find_light(work, command.target, lit=None)
    kind = work.procedure.lights.get(light.kind)
    usage = light.usage_die is not None or (kind is not None and kind.usage_die is not None)
    if command.die is not None:
        if not usage:
            raise CommandError(
                f"{light.id} has no usage die: it counts its time left; set that instead "
                f"(light set {light.id} turns=N)."
            )
        work.emit(ev.UsageDieSet(id=light.id, die=command.die, reason="set by the game master"))
        return
    if usage and light.minutes is None:
        die = f"d{light.usage_die}" if light.usage_die else "spent"
        raise CommandError(
            f"{light.id} burns down on its usage die (now {die}), not by turns; set its die "
            f"instead (light set {light.id} die=d6)."
        )
    minutes = command.minutes
    if command.turns is not None:
        minutes = command.turns * work.procedure.turn_minutes(work.state.turn_type)
    assert minutes is not None
    work.emit(ev.LightTimerSet(id=light.id, minutes=minutes, reason="set by the game master"))
    if minutes == 0 and light.lit:
        work.emit(ev.LightPutOut(id=light.id, reason="burnt out", spent=True))


def refuel(work: Work, command: cmd.RefuelLight) -> None:
    """Refuel a light whose kind can be refuelled: new time (``refuel_hours``, else the
    kind's own duration), a whole usage die, no strikes.

    A kind with ``refuel_resource`` takes one of it first, from the light's carrier (a
    member's resource) or from the party's stock; with none left, nothing changes.
    """
    light = find_light(work, command.target, lit=None)
    kind = work.procedure.lights[light.kind]
    if not kind.refuels:
        raise CommandError(f"A {kind.label.lower()} cannot be refuelled.")
    reason = kind.refuel_label or "refuelled"
    if kind.refuel_resource:
        _pay_for_refuel(work, light, kind.refuel_resource, reason)
    minutes = kind.refuel_minutes(work.procedure.turn_minutes(work.state.turn_type))
    if minutes is not None:
        work.emit(ev.LightTimerSet(id=light.id, minutes=minutes, reason=reason))
    if light.strikes or light.usage_die != kind.usage_die or (minutes is None and light.spent):
        work.emit(ev.LightRenewed(id=light.id, usage_die=kind.usage_die, strikes=0, reason=reason))
    if minutes is not None:
        for event in realtime.refuelled(light, kind, minutes):
            work.emit(event)


def _pay_for_refuel(work: Work, light: Light, resource: str, reason: str) -> None:
    """Take one of the refuelling resource, or refuse with what would be needed."""
    rules = work.procedure.resources[resource]
    what = rules.label.lower()
    if rules.per == "party":
        have = work.state.resource(resource)
        if have < 1:
            raise CommandError(
                f"The party has no {what} left to refuel {light.id}; add some first "
                f"(party +1 {resource})."
            )
        owner = ""
    else:
        if light.carrier is None:
            raise CommandError(
                f"{light.id} has no carrier to take {what} from; hand it to someone first "
                f"(light give {light.id} NAME)."
            )
        owner = light.carrier
        have = work.member(owner).resource(resource)
        if have < 1:
            raise CommandError(
                f"{owner} has no {what} left to refuel {light.id}; give them some first "
                f"(pc {owner} +1 {resource})."
            )
    work.emit(
        ev.ResourceChanged(
            name=owner,
            resource=resource,
            value=have - 1,
            change=-1,
            reason=f"{reason} for {light.id}",
        )
    )


def put_out(work: Work, light: Light) -> ev.LightPutOut:
    """A light put out on purpose: it can be lit again, unless its kind is used up when
    snuffed (``relight = false``: a torch)."""
    kind = work.procedure.lights.get(light.kind)
    if kind is not None and not kind.relight:
        return ev.LightPutOut(id=light.id, reason="snuffed: it cannot be lit again", spent=True)
    return ev.LightPutOut(id=light.id, reason="put out", spent=False)
