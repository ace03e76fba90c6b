"""Effects that roll or meet something: a sub-table, an encounter, a sign."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core import areas, runaway
from delvetui.core.effects.registry import kind
from delvetui.errors import InputNeeded
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


@kind("roll", fields=("table", "dice", "ability"), required=("table",))
def roll(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Rolls on another table (required: `table`), with its dice or with `dice` if given,
    and applies the row rolled: a 2d6 disposition after an encounter. The game master types
    its result with the table's id: `disposition=7`. With `ability`, the lead member's
    modifier in it is added (the member the effect is about, else the one named with
    `by=NAME`, else the party's first member); a total beyond the table's rows reads its
    first or last row.
    """
    with runaway.rolling(work, effect.table):  # no table inside its own roll, nor too deep
        _roll(work, effect, ctx)


def _roll(work: Work, effect: Effect, ctx: Ctx) -> None:
    """The roll effect's roll, with the lead member's ability modifier if it names one."""
    if not effect.ability:
        work.roll_table(effect.table, effect.table, ctx, dice_text=effect.dice)
        return
    name = ctx.member or work.inputs.get("by")
    lead = work.member(name) if name else (work.state.party or (None,))[0]
    if lead is None:
        work.roll_table(effect.table, effect.table, ctx, dice_text=effect.dice)
        return
    bonus = lead.modifier(effect.ability, work.procedure.party.modifier_of)
    label = work.procedure.tables[effect.table].label
    work.roll_table(
        effect.table,
        effect.table,
        ctx,
        dice_text=effect.dice,
        modifier=bonus,
        purpose=f"{label}, {lead.name}'s {effect.ability.upper()}",
    )


@kind("encounter", fields=("distance", "distance_dice", "distance_times"))
def encounter(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Starts an encounter, with `text` (default "An encounter."). If a sign that
    `foretells` was found since the last encounter, the encounter is with that creature,
    and the sign is forgotten; otherwise the game master may name the creature with
    `creature=TEXT`. An encounter during a rest interrupts it: the turns of rest in a row
    (a `streak`, such as an hour's rest of 6 turns) count again from the next turn of rest.

    How far away it begins: `distance_dice` (with `distance_times`) rolls it in the
    movement unit ("2d6 × 10 feet": `distance_dice = "2d6"`, `distance_times = 10`), typed
    as `distance=N` like any roll; otherwise `distance` gives it in words ("far"), and the
    game master may say it with `distance=TEXT` ("30 feet", "across the chasm"). The log,
    the exports and the players' screen show it.
    """
    foretold = work.state.sign
    creature = foretold or work.inputs.get("creature") or ""
    text = work.text(effect.text, ctx) if effect.text else "An encounter."
    # The adventure's own table for the area, when the expedition carries one: it names
    # the creature (unless a sign or the game master did), how many, and their reaction.
    met = areas.meet(work, creature)
    if effect.distance_dice:
        rolled = work.roll("distance", effect.distance_dice, "encounter distance")
        distance = f"{rolled.total * effect.distance_times} {work.procedure.movement.unit}"
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
            )
        )
    else:
        work.emit(
            ev.EncounterBegan(
                text=text, creature=creature, foretold=foretold is not None, distance=distance
            )
        )
    if work.state.resting and work.state.streak > 0:
        # "Resting for 1 hour": an encounter interrupts the rest, which starts again.
        work.emit(ev.RestBroken(reason="the encounter"))


@kind("sign", fields=("foretells",), inert=True)
def sign(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """The party finds a sign: the log shows `text`, or `sign=TEXT` if the game master
    typed what it was. Carrying a sign forward is an option: with `foretells = true` ("the
    next time an encounter is rolled, the PCs meet that creature") the table asks which
    creature the sign is of (`sign=NAME` on the command line), remembers it, and the next
    encounter is that creature. Without `foretells` (the default) the sign names nothing
    later.
    """
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
