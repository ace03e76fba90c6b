"""Effects that roll or meet something: a sub-table, an encounter (and the foes the area's
table brings, and who it surprised), a sign."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core import areas, fights, runaway
from delvetui.core.effects.registry import kind
from delvetui.errors import CommandError, InputNeeded
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


@kind("roll")
def roll(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `roll` kind says (``procedure.effect_kinds``)."""
    with runaway.rolling(work, effect.table):  # no table inside its own roll, nor too deep
        _roll(work, effect, ctx)


def _roll(work: Work, effect: Effect, ctx: Ctx) -> None:
    """The roll effect's roll, with the lead member's ability modifier if it names one, and
    a counter's value if it names one (the log says whose and which)."""
    purpose = work.procedure.tables[effect.table].label
    modifier = work.state.counter(effect.counter) if effect.counter else 0
    if modifier:
        counter = work.procedure.counters[effect.counter].label.lower()
        purpose = f"{purpose}, {modifier:+d} for the {counter}"
    name = ctx.member or work.inputs.get("by")
    lead = work.member(name) if name else (work.state.party or (None,))[0]
    if effect.ability and lead is not None:
        modifier += lead.modifier(effect.ability, work.procedure.party.modifier_of)
        purpose = f"{purpose}, {lead.name}'s {effect.ability.upper()}"
    work.roll_table(
        effect.table, effect.table, ctx, dice_text=effect.dice, modifier=modifier, purpose=purpose
    )


@kind("encounter")
def encounter(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `encounter` kind says (``procedure.effect_kinds``)."""
    foretold = work.state.sign
    named = work.inputs.peek("creature")
    if foretold is not None and named is not None:
        raise CommandError(
            f"creature={named} was given, but this encounter is with the creature the sign "
            f"foretold ({foretold}); leave out creature= (nothing was saved)."
        )
    creature = foretold or work.inputs.get("creature") or ""
    text = work.text(effect.text, ctx) if effect.text else "An encounter."
    players = work.text(effect.players, ctx) if effect.players else ""
    # The adventure's own table for the area, when the expedition carries one: it names
    # the creature (unless a sign or the game master did), how many, and their reaction.
    met = areas.meet(work, creature)
    if effect.distance_dice:
        rolled = work.roll("distance", effect.distance_dice, "encounter distance")
        unit = effect.distance_unit or work.procedure.distance_unit(work.state.turn_type)
        distance = f"{rolled.total * effect.distance_times} {unit}"
    else:
        distance = work.inputs.get("distance") or work.text(effect.distance, ctx)
    if met is not None:
        work.emit(
            ev.EncounterBegan(
                text=f"{text} {met.text}" if met.text else text,
                creature=met.creature,
                foretold=foretold is not None,
                distance=distance,
                area=work.state.area,
                appearing=met.appearing,
                reaction=met.reaction,
                players=players,
            )
        )
        if met.appearing:
            # The creatures come in with their number appearing, their hit points rolled.
            fights.join_met(work, met.creature, met.appearing, met.hd, met.morale)
    else:
        work.emit(
            ev.EncounterBegan(
                text=text,
                creature=creature,
                foretold=foretold is not None,
                distance=distance,
                players=players,
            )
        )
    resting = work.current_action()
    if (
        work.state.resting
        and work.state.streak > 0
        and (resting is None or resting.encounter_breaks)
    ):
        # "Resting for 1 hour": an encounter interrupts the rest, which starts again; on a
        # turn of rest the turn is no rest (``core.turn`` holds its effects back).
        work.emit(ev.RestBroken(reason="the encounter", since_rest=work.since_rest))


@kind("surprise")
def surprise(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `surprise` kind says (``procedure.effect_kinds``)."""
    work.emit(ev.SideSurprised(side=effect.side))


@kind("sign")
def sign(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `sign` kind says (``procedure.effect_kinds``)."""
    text = work.text(effect.text, ctx) if effect.text else "A sign of a creature."
    given = work.inputs.get("sign")
    if not effect.foretells:
        # The game master may say what the sign was; it names no later encounter.
        work.emit(ev.SignFound(text=given or text))
        return
    found = areas.in_use(work.state)
    if given is None and found is not None:
        # The area's own table names the creature the sign is of.
        row = areas.roll_creature(work, found[1], "the creature the sign is of")
        work.emit(ev.SignFound(text=text, creature=row.creature, foretells=True))
        return
    if given is None and work.ask_inputs:
        message = (
            "The sign foretells the next encounter: say which creature it is a sign of "
            "with sign=NAME."
        )
        purpose = "Which creature is the sign of? The next encounter is that creature."
        raise InputNeeded("sign", "NAME", purpose, message)
    work.emit(ev.SignFound(text=text, creature=given or "", foretells=True))
