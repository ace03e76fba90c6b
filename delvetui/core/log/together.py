"""One line where one line will do: the like steps of several members in one turn, said once.

A procedure that counts a track for each member ("Turns without rest") writes one event a
member a turn, and a rest takes a condition from each; the log would say each, four lines
for a party of four. Here the events of one turn that change the same track for the same
reason, give or take the same condition, or step the fatigue ladder to the same rung for
the same reason, are said on one line where
the first of them stands ("Turns without rest: 2 for all four (a turn's exploring)."), and
the others say nothing. Every reader of the log (the table, ``act``, the exports, the
chronicle) takes its words through ``said``, so they all read the same.

Pure: events, the procedure and the state in, words out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from delvetui.core import events as ev
from delvetui.core.evolve import evolve
from delvetui.core.log.words import Said, why, words
from delvetui.core.state import DEAD, State
from delvetui.core.timeline import with_table_lights
from delvetui.procedure.model import Procedure

#: What a group is known by: its kind of step and what it is the same in.
Key = tuple[str, str, str]

_EVERYONE = {2: "both", 3: "all three", 4: "all four", 5: "all five", 6: "all six"}


def said(
    events: Sequence[ev.Event],
    procedure: Procedure,
    state: State,
    *,
    shown: Callable[[ev.Event], ev.Event] = lambda event: event,
) -> Iterator[tuple[ev.Event, Said, State]]:
    """Each event with its words (None: nothing to say, or said with an earlier one of its
    group) and the state after it, given the state before the first. ``shown`` gives the
    event as it is to be told (a table's text told once in a story), never as applied."""
    groups = _groups(events)
    for index, event in enumerate(events):
        group = groups.get(index)
        if group is None:
            described = words(shown(event), procedure, state)
        elif group[0] == index:
            described = _group_words([events[i] for i in group], procedure, state)
        else:
            described = None
        state = evolve(state, event)
        if isinstance(event, ev.LightKindDeclared):
            # A kind declared at the table is the procedure's from here on, in its batch too.
            procedure = with_table_lights(procedure, state.table_lights)
        yield event, described, state


def minor(event: ev.Event) -> bool:
    """True for a step that crosses no threshold: a track counted on (the compact view,
    one line a turn, leaves it out; what it set off has a line of its own)."""
    return isinstance(event, ev.TrackChanged)


def _key(event: ev.Event) -> Key | None:
    if isinstance(event, ev.TrackChanged) and event.reason not in ("time passed", ev.GAME_MASTER):
        return ("track", event.track, event.reason)
    if isinstance(event, ev.FatigueChanged) and event.reason != ev.GAME_MASTER:
        return ("fatigue", event.label, event.reason)
    if isinstance(event, ev.ConditionGained | ev.ConditionLost):
        if event.reason == ev.GAME_MASTER or event.condition == DEAD:
            return None
        return (type(event).__name__, event.condition, event.reason)
    return None


def _groups(events: Sequence[ev.Event]) -> dict[int, list[int]]:
    """The indices of each group of two or more, by each member's index, within a turn."""
    found: dict[Key, list[int]] = {}
    groups: dict[int, list[int]] = {}
    for index, event in enumerate(events):
        if isinstance(event, ev.TurnStarted | ev.TurnEnded):
            _close(found, groups)
            continue
        key = _key(event)
        if key is not None:
            found.setdefault(key, []).append(index)
    _close(found, groups)
    return groups


def _close(found: dict[Key, list[int]], groups: dict[int, list[int]]) -> None:
    for indices in found.values():
        if len(indices) > 1:
            for index in indices:
                groups[index] = indices
    found.clear()


def _who(names: Sequence[str], state: State) -> str:
    """'all four' when they are every living member, else their names: 'Ash, Bo and Cy'."""
    living = {member.name for member in state.living}
    if len(names) > 1 and set(names) == living:
        return _EVERYONE.get(len(names), f"all {len(names)}")
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _group_words(group: Sequence[ev.Event], procedure: Procedure, state: State) -> Said:
    first = group[0]
    if isinstance(first, ev.TrackChanged):
        steps = [e for e in group if isinstance(e, ev.TrackChanged)]
        track = procedure.tracks.get(first.track)
        label = track.label if track else first.track
        values: dict[int, list[str]] = {}
        for step in steps:
            values.setdefault(step.value, []).append(step.name)
        told = ", ".join(f"{value} for {_who(names, state)}" for value, names in values.items())
        return "party", f"{label}: {told}{why(first.reason)}."
    names = [e.name for e in group if isinstance(e, (ev.FatigueChanged, *_CONDITION))]
    who = _who(names, state)
    who = who[:1].upper() + who[1:]
    if isinstance(first, ev.FatigueChanged):
        return "party", f"{who} are now {first.label}{why(first.reason)}."
    assert isinstance(first, _CONDITION)
    verb = "gain" if isinstance(first, ev.ConditionGained) else "lose"
    return "party", f"{who} {verb} a condition: {first.condition}{why(first.reason)}."


_CONDITION = (ev.ConditionGained, ev.ConditionLost)
