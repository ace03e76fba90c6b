"""What needs the game master now, the loudest first: the alert strip's rules.

Darkness first and loudest (the whole strip turns to the error colour), then a member
down, the encounter in play and what the procedure marks as dangerous (``core.danger``: the
alarm high, a member exhausted or past their resilience), then a light about to go, a
pending save or fatigue, a rest that is due (the ``[rest]`` rule's, or a track a rest
resets past its limit) and the sign in play. Everything is read from
the state, so an undo takes its alert with it.

Pure: the state and the procedure in, alerts out. The table's alert strip
(``ui/panes/alert_strip.py``) draws them in one line.
"""

from __future__ import annotations

from typing import Literal

import attrs

from delvetui.core import timers
from delvetui.core.danger import dangers
from delvetui.core.member_light import party_level
from delvetui.core.state import State, track_limit
from delvetui.procedure.model import Procedure
from delvetui.text import away, minutes_words, visible

#: The smallest usage die: one more step down and the light is spent.
LAST_USAGE_DIE = 4

Level = Literal["dark", "danger", "warning"]


@attrs.frozen
class Alert:
    """One thing that needs attention, and how loud it is."""

    level: Level
    text: str
    #: Fewer words for the same alert, used when the strip is too narrow for ``text``.
    short: str = ""


def alerts(state: State, procedure: Procedure) -> list[Alert]:
    """What needs the game master's attention now, the most dangerous first.

    An ended expedition needs nothing but the word that it has ended: the party is home.
    """
    if state.ended:
        words = f" ({visible(state.end_words)})" if state.end_words else ""
        return [
            Alert(
                "warning",
                f"The expedition has ended{words}: press E to reopen it, or H for the start "
                "screen and the next one.",
                short=f"The expedition has ended{words}: E reopens it, H: the start screen.",
            )
        ]
    found: list[Alert] = []
    if party_level(state, procedure) == "dark":
        rules = procedure.light_level("dark")
        meaning = f": {rules.text.rstrip('.')}" if rules.text else ""
        # Narrow, the level's flags and what it forbids say it in fewer words.
        forbidden = [
            procedure.actions[name].label.lower()
            for name in rules.forbid
            if name in procedure.actions
        ]
        brief = "; ".join(
            part
            for part in (", ".join(rules.flags), ", ".join(f"no {a}" for a in forbidden))
            if part
        )
        short = f"DARKNESS, no light: {brief}" if brief else "DARKNESS, no light"
        found.append(Alert("dark", f"DARKNESS, no light{meaning}", short=short))
    for member in state.living:
        if member.hp <= 0:
            found.append(Alert("danger", f"{member.name} at 0 HP"))
    if state.encounter:
        # The distance first, where a narrow strip cuts the words, not the number; the
        # encounter's words end their sentence.
        said = state.encounter.rstrip().rstrip(".")
        at = f" ({away(state.encounter_distance)})" if state.encounter_distance else ""
        found.append(Alert("danger", f"Encounter{at}: {said}"))
    found.extend(Alert("danger", danger.text) for danger in dangers(state, procedure))
    per_turn = procedure.turn_minutes(state.turn_type)
    for light in state.lit_lights:
        if light.minutes is not None and light.minutes <= per_turn:
            # In a watch or a day, the time itself says more than "the last watch".
            last = (
                "last turn of light"
                if per_turn <= 60
                else f"{minutes_words(light.minutes)} of light left"
            )
            found.append(Alert("warning", f"{light.id}: {last}"))
        elif light.usage_die is not None and light.usage_die <= LAST_USAGE_DIE:
            found.append(Alert("warning", f"{light.id}: last usage die (d{light.usage_die})"))
    for name in state.ran_out:
        found.append(Alert("warning", f"Timer {name} has run out"))
    for timer in timers.ending(state, procedure):
        found.append(Alert("warning", f"Timer {timer.name}: runs out {timers.soon_text(timer)}"))
    for pending in state.pending:
        who = f" ({pending.member})" if pending.member else ""
        found.append(Alert("warning", f"Pending: {pending.label}{who}"))
    rest = procedure.rest
    if rest is not None and not state.resting and state.turns_since_rest >= rest.every:
        found.append(Alert("warning", f"Rest due ({state.turns_since_rest} turns without)"))
    found.extend(rests_due(state, procedure))
    if state.sign:
        found.append(Alert("warning", f"Sign: {state.sign}"))
    return found


def rests_due(state: State, procedure: Procedure) -> list[Alert]:
    """A rest the party needs: each track a rest action resets (``reset_by``) that living
    members are past the limit of ("Turns without rest 6/5"). A track with a ``danger_at``
    of its own is left to the dangers, which name it already."""
    rests = {name for name, action in procedure.actions.items() if action.kind == "rest"}
    found: list[Alert] = []
    for track_id, track in procedure.tracks.items():
        if track.danger_at is not None or not rests.intersection(track.reset_by):
            continue
        past = []
        for member in state.living:
            limit = track_limit(track.limit, member)
            top = track.crossed(limit)
            if top is not None and member.track(track_id) > top:
                past.append((visible(member.name), f"{member.track(track_id)}/{limit}"))
        if not past:
            continue
        names = ", ".join(name for name, _ in past)
        figures = {figure for _, figure in past}
        whole = len(past) == len(state.living) and len(past) > 1
        who = "the party" if whole else names
        if len(figures) == 1:
            text = f"Rest due: {track.label} {figures.pop()} for {who}"
        else:
            text = f"Rest due: {track.label} over the limit for {who}"
        found.append(Alert("warning", text, short=f"Rest due: {who}"))
    return found
