"""What the procedure marks as dangerous, read from the state: the table's attention strip
shows each (``ui.alert_strip``), and an undo takes it away with the state.

A procedure marks its dangers as data: a counter's ``danger_at`` (the alarm at 8 of 10),
a track's ``danger_at`` (a number, or past the member's limit) and the party's
``danger_conditions`` (conditions, or steps of the fatigue ladder). Members are named
together under each danger, so four exhausted members take one item, not four; the dead
(the condition ``dead``) are in none.

Pure: reads the state and the procedure, nothing else.
"""

from __future__ import annotations

import attrs

from delvetui.core.state import Member, State
from delvetui.procedure.model import Procedure, Track
from delvetui.text import visible

#: A track's ``danger_at`` that means "past the member's own limit".
OVER = "over"


@attrs.frozen
class Danger:
    """One danger in force: what it is, in the words the strip shows."""

    text: str


def dangers(state: State, procedure: Procedure) -> list[Danger]:
    """Every danger the procedure marks that holds in this state: counters, then
    conditions and fatigue steps, then tracks, each in the procedure's order."""
    found: list[Danger] = []
    for counter_id, counter in procedure.counters.items():
        at = counter.danger_at
        if at is None:
            continue
        threshold = counter.value_of(at) if isinstance(at, str) else at
        value = state.counter(counter_id)
        if threshold is None or value < threshold:
            continue
        top = counter.top()
        shown = counter.shown(value)
        if not counter.levels and top is not None:
            shown = f"{value}/{top}"
        found.append(Danger(f"{counter.label} {shown}"))
    for condition in procedure.party.danger_conditions:
        names = [visible(m.name) for m in state.living if _has(m, condition, procedure)]
        if names:
            declared = procedure.conditions.get(condition)
            label = declared.label if declared is not None and declared.label else condition
            found.append(Danger(f"{', '.join(names)} {label.lower()}"))
    for track_id, track in procedure.tracks.items():
        if track.danger_at is None:
            continue
        members = [past for m in state.living if (past := _past(m, track_id, track)) is not None]
        if members:
            where = "over the limit" if track.danger_at == OVER else f"at {track.danger_at}+"
            found.append(Danger(f"{track.label} {where}: {', '.join(members)}"))
    return found


def _has(member: Member, condition: str, procedure: Procedure) -> bool:
    """True when the member has the condition, or stands at the fatigue step or past it."""
    if condition in member.conditions:
        return True
    ladder = procedure.party.fatigue
    if condition in ladder[1:]:
        return member.fatigue >= ladder.index(condition)
    return False


def _past(member: Member, track_id: str, track: Track) -> str | None:
    """'Cora 9/8' when the member's track is at its danger, else None."""
    value = member.track(track_id)
    limit = track.limit
    if isinstance(limit, str):
        limit = member.ability(limit)
    of = f"/{limit}" if limit is not None else ""
    at = track.danger_at
    if at == OVER:
        top = track.crossed(limit)
        past = top is not None and value > top
    else:
        past = isinstance(at, int) and value >= at
    return f"{visible(member.name)} {value}{of}" if past else None
