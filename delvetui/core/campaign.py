"""The campaign in the core: ending an expedition, and the next one continuing it.

Pure: ``carry`` builds the first batch of an expedition that continues another, from the
predecessor's final state and procedure, the new procedure, the downtime and a seeded
``random.Random`` (whether the campaign's events could stand where they do is
``core.event_checks.expedition``'s). No file is read here: the application layer opens the
predecessor and hands over what it found.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator

import attrs

from delvetui import dice
from delvetui.core import events as ev
from delvetui.core.restock import carry_dungeon
from delvetui.core.state import DEAD, MINUTES_PER_DAY, Light, Member, State
from delvetui.errors import CommandError
from delvetui.procedure.model import Downtime, LightKind, Procedure
from delvetui.procedure.tree import walk_effects
from delvetui.text import counted, quote

#: What a continued expedition's first batch may hold after its link (as ``carry`` writes).
CARRIED: tuple[type[ev.Event], ...] = (
    ev.MemberJoined,
    ev.HpChanged,
    ev.FatigueChanged,
    ev.ConditionGained,
    ev.ConditionTimed,
    ev.TrackChanged,
    ev.ResourceChanged,
    ev.MarchingOrderSet,
    ev.LightAdded,
    ev.LightRealTimeSet,
    ev.LightStruck,
    ev.LightDimmed,
    ev.DiceRolled,
    ev.TablesAdded,
    ev.AreaEntered,
    ev.RoomAdded,
    ev.RoomCarried,
    ev.RoomRestocked,
)


def ended_refusal(state: State) -> str:
    """The sentence every command but reopen, undo and redo gets while the expedition ended."""
    words = f" ({state.end_words})" if state.end_words else ""
    return f"The expedition has ended{words}. Type `reopen` to take it up again."


# Carrying the party over ----------------------------------------------------------------------


@attrs.frozen
class Link:
    """What a continued expedition names its predecessor by (``ExpeditionContinued``)."""

    name: str
    id: str
    digest: str
    campaign: str


#: The member scores every procedure takes besides its own abilities (``core.party``).
_BUILT_IN = ("MOD", "PROF")


def died(member: Member, procedure: Procedure) -> bool:
    """True when the member died in an expedition that ended under ``procedure``: they
    have the condition ``dead``, or they are at 0 HP or less and the procedure's game
    counts that as death (``[party] dies_at_zero_hp``). The one rule for the next
    expedition (who stays behind) and the campaign view (who died)."""
    return DEAD in member.conditions or (procedure.party.dies_at_zero_hp and member.hp <= 0)


def carry(
    name: str,
    seed: int,
    before: State,
    old: Procedure,
    new: Procedure,
    link: Link,
    *,
    downtime: int,
    rng: random.Random,
    leave: Collection[str] = (),
    restock: str | None = None,
) -> list[ev.Event]:
    """Batch 1 of an expedition that continues ``before`` (the predecessor's final state,
    under ``old``, the procedure it ended with) after ``downtime`` minutes, under ``new``.

    The party comes as the last one ended, less the dead and the members named in
    ``leave``, healed by the whole days of rest as ``new.downtime`` says (dice rolled with
    ``rng`` and kept as DiceRolled events); the unlit lights, the kinds of light declared at
    the table and the supplies come too.
    Whatever ``new`` has no place for is left behind and said in the link's notes. The
    dungeon comes too (``core.restock``): the adventure's tables, the rooms and what
    happened in them, each cleared room rolling to restock (by ``restock``, "1-in-6", when
    given). Raises CommandError for a member in ``leave`` who is not in the party.
    """
    known = {member.name.casefold(): member.name for member in before.party}
    unknown = [who for who in leave if who.casefold() not in known]
    if unknown:
        names = ", ".join(member.name for member in before.party) or "no one"
        raise CommandError(
            f"There is no member {quote(unknown[0])} in {link.name}'s party ({names})."
        )
    from delvetui.core.timeline import with_table_lights

    # The kinds of light declared at the table come along: declared again in the new one
    # (unless its procedure has a light of that id), and read as the lights they made.
    old = with_table_lights(old, before.table_lights)
    declared = tuple(kind for kind in before.table_lights if kind.id not in new.lights)
    new = with_table_lights(new, declared)
    left = {who.casefold() for who in leave}
    notes: list[str] = []
    party: list[ev.Event] = []
    carried: set[str] = set()
    for member in before.party:
        if died(member, old):
            notes.append(f"{member.name} died in {link.name} and stays behind")
        elif member.name.casefold() in left:
            notes.append(f"{member.name} was left behind")
        else:
            if member.hp <= 0:
                notes.append(_fallen(member.name, link.name, old))
            party.extend(_member(member, before, old, new, downtime, rng, notes))
            carried.add(member.name)
    stock = list(_party_stock(before, old, new, notes))
    lights = list(_lights(before, old, new, carried, notes))
    for counter, value in before.counters:
        rules = old.counters.get(counter)
        if value != (rules.first if rules is not None else 0):
            notes.append(f"The party's {counter} counter ({value}) does not carry")
    for timer in before.timers:
        notes.append(f"The timer {timer.name} does not carry")
    dungeon, told = carry_dungeon(before, new, rng, downtime=downtime, chance=restock)
    notes += told
    started = ev.ExpeditionStarted(
        name=name,
        procedure_id=new.id,
        procedure_name=new.name,
        seed=seed,
        clock=before.clock + downtime,
        turn_type=new.default_turn_type,
    )
    continued = ev.ExpeditionContinued(
        predecessor=link.name,
        predecessor_id=link.id,
        predecessor_digest=link.digest,
        campaign=link.campaign,
        ended_clock=before.clock,
        downtime_minutes=downtime,
        notes=tuple(notes),
    )
    counters = [
        ev.CounterChanged(counter=c_name, value=c.first, change=c.first, reason="start")
        for c_name, c in new.counters.items()
        if c.first
    ]
    kinds = [
        ev.LightKindDeclared(
            id=kind.id,
            label=kind.label,
            brightness=kind.brightness,
            turns=kind.turns,
            minutes=kind.minutes,
            usage_die=kind.usage_die,
            real_minutes=kind.real_minutes,
        )
        for kind in declared
    ]
    return [started, continued, *counters, *stock, *party, *kinds, *lights, *dungeon]


def _fallen(name: str, predecessor: str, old: Procedure) -> str:
    """The note for a member at 0 HP whose game does not count that as death."""
    return (
        f"{name} was at 0 HP when {predecessor} ended; in {old.name} that is not death, so "
        f"{name} comes along (to leave {name} behind: `--leave {name}`, or untick on the "
        f"form; to record a death: `reopen` {predecessor}, `pc {name} +dead`, `end`)"
    )


def _member(
    member: Member,
    before: State,
    old: Procedure,
    new: Procedure,
    downtime: int,
    rng: random.Random,
    notes: list[str],
) -> Iterator[ev.Event]:
    """One member joining again, as the downtime left them."""
    from delvetui.core.turn import track_start

    days = downtime // MINUTES_PER_DAY
    rest = new.downtime
    listed = {ability.upper() for ability in new.party.abilities}
    abilities = {}
    for ability, score in member.abilities:
        if not listed or ability.upper() in listed or ability.upper() in _BUILT_IN:
            abilities[ability] = score
        else:
            notes.append(f"{member.name}'s {ability} is not used by {new.name} and was left behind")
    kept = attrs.evolve(member, abilities=tuple(sorted(abilities.items())))
    # A day of rest or more sets every track back to its start; less keeps the counts.
    counts = dict(member.tracks) if not days else {}
    tracks = {
        t_name: counts.get(t_name, track_start(track.start, kept))
        for t_name, track in new.tracks.items()
    }
    for track in new.tracks.values():
        if isinstance(track.start, str) and kept.ability(track.start) is None:
            notes.append(
                f"{member.name} has no {track.start}, where {new.name}'s {track.label} starts: "
                f"set it with `pc {member.name} {track.start}=N`"
            )
    hp = max(0, min(member.hp, member.max_hp))
    yield ev.MemberJoined(
        name=member.name, hp=hp, max_hp=member.max_hp, abilities=abilities, tracks=tracks
    )
    yield from _healed(member.name, hp, member.max_hp, rest, days, rng)
    fatigue = min(member.fatigue, len(new.party.fatigue) - 1)
    if days and fatigue:
        fatigue = 0 if rest.fatigue == "all" else max(0, fatigue - int(rest.fatigue) * days)
    if fatigue:
        label = new.party.fatigue_label(fatigue)
        yield ev.FatigueChanged(name=member.name, level=fatigue, label=label, reason="carried")
    weary = {*old.party.fatigue[1:], *new.party.fatigue[1:]}
    yield from _conditions(member, before, rest, days, downtime > 0, weary)
    yield from _own_stock(member, old, new, notes)


def _healed(
    name: str, hp: int, max_hp: int, rest: Downtime, days: int, rng: random.Random
) -> Iterator[ev.Event]:
    """The HP a member regains over the days of rest, with every die rolled for it."""
    gained = 0
    for day in range(1, days + 1):
        if hp + gained >= max_hp:
            break
        if rest.heal == "all":
            gained = max_hp - hp
        elif isinstance(rest.heal, int):
            gained += rest.heal
        else:
            result = dice.roll(rest.heal, rng)
            yield ev.DiceRolled.of("downtime", f"{name}'s healing, day {day}", result)
            gained += max(0, result.total)
    gained = min(gained, max_hp - hp)
    if gained > 0:
        reason = f"{counted(days, 'day')} of rest"
        yield ev.HpChanged(name=name, hp=hp + gained, change=gained, reason=reason)


def _conditions(
    member: Member,
    before: State,
    rest: Downtime,
    days: int,
    passed: bool,
    weary: Collection[str] = (),
) -> Iterator[ev.Event]:
    """The lasting conditions a member keeps: a day of rest clears those ``clear`` names,
    enough days those ``clear_after`` names, and any downtime ends those that last until
    the next rest or for some turns. Where a
    day of rest removes all fatigue, a condition named as a fatigue step (``weary``: a
    game's "tired", "exhausted" given as a condition) ends with it."""
    timers, until_rest = dict(member.timers), dict(member.until_rest)
    for condition in member.conditions:
        if days and (condition in rest.clear or (rest.fatigue == "all" and condition in weary)):
            continue
        if condition in rest.clear_after and days >= rest.clear_after[condition]:
            continue
        if passed and (condition in timers or condition in until_rest):
            continue
        yield ev.ConditionGained(name=member.name, condition=condition, reason="carried")
        if condition in timers:
            turns = max(1, timers[condition] - before.turn)
            yield ev.ConditionTimed(name=member.name, condition=condition, turn=0, turns=turns)
        elif condition in until_rest:
            yield ev.ConditionTimed(name=member.name, condition=condition, turn=0, until="rest")


def _own_stock(
    member: Member, old: Procedure, new: Procedure, notes: list[str]
) -> Iterator[ev.Event]:
    """A member's own resources (arrows, rations): carried where both procedures keep them
    per member, else the new procedure's start; ``restore`` sets them back to it."""
    yield from _stock("member", member.name, dict(member.resources), old, new, notes)


def _party_stock(
    before: State, old: Procedure, new: Procedure, notes: list[str]
) -> Iterator[ev.Event]:
    """The party's stock: carried where both procedures keep it for the party."""
    yield from _stock("party", "", dict(before.resources), old, new, notes)


def _stock(
    per: str, name: str, held: dict[str, int], old: Procedure, new: Procedure, notes: list[str]
) -> Iterator[ev.Event]:
    """The resources kept ``per`` member (``name``'s) or for the party (``name`` ''), as
    ``held`` at the end: carried where both procedures keep them so and the downtime does
    not set them back, else the new procedure's start; the rest said in ``notes``."""
    whose = f"{name}'s" if name else "The party's"
    for r_id, resource in new.resources.items():
        if resource.per != per:
            continue
        was = old.resources.get(r_id)
        kept = was is not None and was.per == per
        carried = kept and r_id not in new.downtime.restore
        value = held.get(r_id, 0) if carried else resource.start
        if kept and not carried and held.get(r_id, 0) != resource.start:
            notes.append(
                f"{whose} {r_id} ({held.get(r_id, 0)}) does not carry: the downtime sets it "
                f"back to {resource.start}"
            )
        if value:
            reason = "carried" if carried else "start"
            yield ev.ResourceChanged(
                name=name, resource=r_id, value=value, change=value, reason=reason
            )
    for r_id, value in held.items():
        rules = new.resources.get(r_id)
        if value and (rules is None or rules.per != per):
            notes.append(
                f"{whose} {r_id} ({value}): {new.name} keeps none "
                f"{'for each member' if name else 'for the party'}, so they were left behind"
            )


def _lights(
    before: State, old: Procedure, new: Procedure, carriers: set[str], notes: list[str]
) -> Iterator[ev.Event]:
    """The lights they carried home, unlit; the spent ones, and those nobody carries (a
    campfire, daylight), stay behind."""
    for light in before.lights:
        if light.spent:
            continue
        kind = new.lights.get(light.kind)
        if kind is None:
            notes.append(
                f"{_lights_text(light)} {'are' if light.count > 1 else 'is'} not a light of "
                f"{new.name} and {'were' if light.count > 1 else 'was'} left behind"
            )
            continue
        if not kind.carried:
            notes.append(f"{light.id} stays where it was (not a light the party carries)")
            continue
        full = kind.duration_minutes(new.turn_minutes(new.default_turn_type))
        old_kind = old.lights.get(light.kind)
        was_full = (
            None
            if old_kind is None
            else old_kind.duration_minutes(old.turn_minutes(before.turn_type))
        )
        minutes = light.minutes
        # A light lit before burns the time rolled for it, which may be more than an unlit
        # one of its kind shows (a torch rolled 8 turns and burned 1 has 7, not 6).
        rolled = bool(kind.turns_dice and old_kind is not None and old_kind.turns_dice)
        if rolled and light.lit_turn >= 0 and minutes is not None:
            minutes = light.minutes
        elif minutes is None or full is None or (was_full is not None and minutes >= was_full):
            minutes = full
        else:
            minutes = min(minutes, full)
        usage_die = light.usage_die
        if kind.usage_die is None or old_kind is None or usage_die == old_kind.usage_die:
            usage_die = kind.usage_die
        yield ev.LightAdded(
            id=light.id,
            kind=light.kind,
            count=light.count,
            carrier=light.carrier if light.carrier in carriers else None,
            minutes=minutes,
            brightness=kind.brightness,
            usage_die=usage_die,
        )
        if light.strikes and kind.strikes:
            yield ev.LightStruck(id=light.id, strikes=light.strikes)
        if light.dimmed and kind.brightness != "dim" and _dims(new):
            yield ev.LightDimmed(id=light.id, reason="carried")
        if kind.real_minutes is not None:
            seconds = _real_seconds(light, old_kind, kind.real_minutes * 60, minutes)
            if seconds is not None:
                yield ev.LightRealTimeSet(id=light.id, seconds=seconds, reason="carried")


def _real_seconds(
    light: Light, old_kind: LightKind | None, full: int, minutes: int | None
) -> int | None:
    """The real seconds a carried light burns in the next expedition, or None when it
    burns by turns: one the game master set to burn by turns keeps burning by them, one
    that burned in real time keeps its seconds left, and one of a kind that did not burn
    in real time starts with the new kind's, no more than the time it had left."""
    if old_kind is not None and old_kind.real_minutes is not None:
        return None if light.real_seconds is None else min(light.real_seconds, full)
    return full if minutes is None else min(full, minutes * 60)


def _dims(procedure: Procedure) -> bool:
    """The procedure dims its lights (Dungeon Turn's Depletion), so a dimmed one stays so."""
    return any(effect.do == "lights-dim" for _, effect in walk_effects(procedure))


def _lights_text(light: Light) -> str:
    """The lights a note names, in words that open a sentence without changing an id's
    letters: 'The 2 candles', 'The candle candle2'."""
    return (
        f"The {counted(light.count, light.kind)}"
        if light.count > 1
        else f"The {light.kind} {light.id}"
    )
