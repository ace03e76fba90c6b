"""The lights in a part's story: what each light's events add to the tally (lit, burned,
dimmed, out, its usage die, its strikes), and the summary's lights used and lights left."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core.state import State
from delvetui.export.story.tally import Tally, take
from delvetui.procedure.model import Procedure
from delvetui.text import counted
from delvetui.text import minutes_words as _duration


@take.register
def _(event: ev.LightLit, tally: Tally, state: State) -> None:
    tally.light(event.id).lit = True


@take.register
def _(event: ev.LightsBurned, tally: Tally, state: State) -> None:
    for light_id in event.ids:
        # A light burns no longer than it had left (a torch in a watch).
        had = state.light(light_id)
        left = had.minutes if had is not None else None
        burned = event.minutes if left is None else min(event.minutes, left)
        tally.light(light_id).minutes += burned


@take.register
def _(event: ev.LightDimmed, tally: Tally, state: State) -> None:
    tally.light(event.id).dimmed = event.reason


@take.register
def _(event: ev.LightPutOut, tally: Tally, state: State) -> None:
    use = tally.light(event.id)
    use.out = event.reason
    use.spent = event.spent


@take.register
def _(event: ev.UsageDieStepped, tally: Tally, state: State) -> None:
    tally.light(event.id).dice.append(event.die)


@take.register
def _(event: ev.UsageDieSet, tally: Tally, state: State) -> None:
    tally.light(event.id).dice.append(event.die)


@take.register
def _(event: ev.LightStruck, tally: Tally, state: State) -> None:
    tally.light(event.id).strikes = event.strikes


def used(tally: Tally, procedure: Procedure, end: State) -> list[str]:
    per_turn = procedure.turn_minutes(end.turn_type)
    unit = procedure.turn_name(end.turn_type)
    items = []
    for light_id, use in tally.lights.items():
        parts = []
        if use.minutes:
            turns = use.minutes // per_turn
            whole = f" ({counted(turns, unit)})" if turns * per_turn == (use.minutes) else ""
            parts.append(f"burned {_duration(use.minutes)}{whole}")
        elif use.lit:
            parts.append("lit")
        if use.dice:
            last = use.dice[-1]
            parts.append(f"usage die down to d{last}" if last else "usage die spent")
        if use.strikes:
            parts.append(f"{use.strikes} strike{'s' if use.strikes != 1 else ''}")
        if use.dimmed:
            parts.append(f"dimmed ({use.dimmed})")
        if use.out:
            verb = "burnt out" if use.spent else "went out"
            parts.append(verb if use.out == verb else f"{verb} ({use.out})")
        if parts:
            items.append(f"{light_id}: {', '.join(parts)}")
    return items


def left(procedure: Procedure, end: State) -> list[str]:
    per_turn = procedure.turn_minutes(end.turn_type)
    unit = procedure.turn_name(end.turn_type)
    items = []
    for light in end.lights:
        if light.spent:
            continue
        kind = procedure.lights.get(light.kind)
        label = kind.label if kind else light.kind
        count = f" ×{light.count}" if light.count > 1 else ""
        parts = [f"{label}{count}", "lit" if light.lit else "unlit"]
        if light.lit and light.state == "dim":
            parts[-1] = "lit, dim"
        if light.minutes is not None:
            turns = -(-light.minutes // per_turn)
            # In turns longer than an hour (a watch, a day), the time itself says more.
            left = counted(turns, unit) if per_turn <= 60 else _duration(light.minutes)
            parts.append(f"{left} left")
        if light.usage_die:
            parts.append(f"usage die d{light.usage_die}")
        if light.carrier:
            parts.append(f"carried by {light.carrier}")
        items.append(f"{light.id}: {', '.join(parts)}")
    return items or ["no lights"]
