"""Who stands in whose light: each member's own light level, and the party's.

A light kind with ``lights = N`` lights N members in its own light (bright, or dim for a
dim or dimmed light) and ``dim_for = M`` members more in dim light. It lights its carrier
first, then the members nearest the carrier in the marching order (the party's order,
``party order``), the one ahead before the one behind; a light nobody carries lights the
front of the order first. A lit light of a kind without ``lights`` lights the whole party,
as every light does in a procedure that never says ``lights``. A member's level is the
brightest any light gives them; the party's level is the one most members have (the
brighter on a tie). Where every light lights the whole party, the bright level may ask
for a number of strikes left per member (``strikes_per_member``): fewer, and the party
is in dim light. Pure: state and procedure in, levels out.
"""

from __future__ import annotations

from collections import Counter

from delvetui.core.state import Light, State
from delvetui.procedure.model import Procedure

#: The light levels, darkest first.
LEVELS = ("dark", "dim", "bright")


def per_member(procedure: Procedure) -> bool:
    """True when some light kind of the procedure lights only some members (``lights``)."""
    return any(kind.lights is not None for kind in procedure.lights.values())


def reach(state: State, light: Light) -> list[str]:
    """The members a light reaches, nearest first: its carrier, then by the marching order."""
    order = [member.name for member in state.party]
    start = order.index(light.carrier) if light.carrier in order else 0
    return sorted(order, key=lambda name: (abs(order.index(name) - start), order.index(name)))


def member_levels(state: State, procedure: Procedure) -> dict[str, str]:
    """Each member's light level, in the marching order (the party's, for each, where
    every light lights the whole party)."""
    if not per_member(procedure):
        return dict.fromkeys((member.name for member in state.party), party_level(state, procedure))
    best = dict.fromkeys((member.name for member in state.party), 0)
    for light in state.lit_lights:
        kind = procedure.lights.get(light.kind)
        own = LEVELS.index(light.state)
        if kind is None or kind.lights is None:
            given = {name: own for name in best}
        else:
            nearest = reach(state, light)
            given = {name: own for name in nearest[: kind.lights]}
            dim = LEVELS.index("dim")
            given |= {name: dim for name in nearest[kind.lights : kind.lights + kind.dim_for]}
        for name, level in given.items():
            best[name] = max(best[name], level)
    return {name: LEVELS[level] for name, level in best.items()}


def member_level(state: State, procedure: Procedure, name: str) -> str:
    """One member's light level (the party's, where lights light the whole party), as the
    member sees by it: a condition's ``sight`` (darkvision) may lift it."""
    if not per_member(procedure):
        level = party_level(state, procedure)
    else:
        level = member_levels(state, procedure).get(name, state.light_level)
    return seen_by(state, procedure, name, level)


def seen_by(state: State, procedure: Procedure, name: str, level: str) -> str:
    """The light level a member sees by where the light gives them ``level``: the
    brightest any of their declared conditions' ``sight`` lifts it to. The party's level
    is the light's, whatever one member sees."""
    member = state.member(name)
    if member is None:
        return level
    best = LEVELS.index(level)
    for condition in member.conditions:
        declared = procedure.conditions.get(condition)
        lifted = declared.sight.get(level) if declared is not None else None
        if lifted in LEVELS:
            best = max(best, LEVELS.index(lifted))
    return LEVELS[best]


def party_level(state: State, procedure: Procedure) -> str:
    """The party's light level: where each light lights the whole party, the brightest lit
    light's (``State.light_level``), dim where the bright level asks more strikes left per
    member than the lit lights have (``strikes_per_member``); else the level most members
    have, the brighter on a tie.
    """
    if not per_member(procedure) or not state.party:
        return _by_strikes(state, procedure, state.light_level)
    counts = Counter(member_levels(state, procedure).values())
    return max(counts, key=lambda level: (counts[level], LEVELS.index(level)))


def strikes_left(state: State, procedure: Procedure) -> int:
    """The strikes the lit lights have left, added up (a light of a kind without strikes
    counts one): Errant's total Burn."""
    total = 0
    for light in state.lit_lights:
        kind = procedure.lights.get(light.kind)
        strikes = kind.strikes if kind is not None else None
        total += 1 if strikes is None else max(0, strikes - light.strikes)
    return total


def _by_strikes(state: State, procedure: Procedure, level: str) -> str:
    """Bright light held to the bright level's share of strikes left per member."""
    bright = procedure.light_levels.get("bright")
    share = bright.strikes_per_member if bright is not None else None
    if level != "bright" or share is None or not state.party:
        return level
    living = len(state.living)
    return "bright" if strikes_left(state, procedure) >= share * living else "dim"
