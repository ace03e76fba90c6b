"""A part's summary and the line about it: its turns, the time spent, the light, the party,
the counters, the party's stock, the encounters and the signs, from the part's tally.

The turn itself, the counters and the encounters are the summary's own frame and are
tallied here; the lights and the party have modules of their own (``lights``, ``party``).
"""

from __future__ import annotations

from collections import Counter

from delvetui.core import calendar
from delvetui.core import events as ev
from delvetui.core.log.words import capital
from delvetui.core.member_light import party_level
from delvetui.core.state import State
from delvetui.export.story import fights, lights, party  # noqa: F401 - fights: its tally
from delvetui.export.story.model import Fact
from delvetui.export.story.tally import Tally, take
from delvetui.procedure.model import Procedure
from delvetui.text import counted, plural
from delvetui.text import minutes_words as _duration


@take.register
def _(event: ev.TurnStarted, tally: Tally, state: State) -> None:
    tally.turns.append(event.number)
    tally.kinds.append(event.turn_type)


@take.register
def _(event: ev.EncounterBegan, tally: Tally, state: State) -> None:
    creature = f" — {event.creature}" if event.creature else ""
    distance = f" ({event.distance})" if event.distance else ""
    tally.encounters.append(f"{event.text}{creature}{distance}")


@take.register
def _(event: ev.SignFound, tally: Tally, state: State) -> None:
    creature = f" — {event.creature}" if event.creature else ""
    tally.signs.append(f"{event.text}{creature}")


@take.register
def _(event: ev.CounterChanged, tally: Tally, state: State) -> None:
    tally.peaks[event.counter] = max(tally.peaks.get(event.counter, 0), event.value)


def facts(tally: Tally, start: State, end: State, procedure: Procedure) -> tuple[Fact, ...]:
    spent = f"{_duration(end.minutes - start.minutes)}, {span(start, end, procedure)}"
    facts = [
        Fact("Turns", [turns_text(tally, procedure, end)]),
        Fact("In-world time", [spent]),
        Fact("Light used", lights.used(tally, procedure, end) or ["none"]),
        Fact("Light left", lights.left(procedure, end)),
        Fact("Light level", [f"{party_level(end, procedure)} at the end"]),
        Fact("Party", party.members(tally, procedure, end) or ["nobody"]),
    ]
    for name in sorted(set(procedure.counters) | {n for n, _ in end.counters}):
        counter = procedure.counters.get(name)
        label = counter.label if counter else name
        first, last = start.counter(name), end.counter(name)
        peak = tally.peaks.get(name, last)
        say = counter.shown if counter is not None else str
        text = f"{say(first)} → {say(last)}" if first != last else f"{say(last)}, unchanged"
        if peak > max(first, last):
            text += f" (at most {say(peak)})"
        facts.append(Fact(label.capitalize(), [text]))
    for key, resource in procedure.resources.items():
        if resource.per == "party":
            first, last = start.resource(key), end.resource(key)
            text = f"{first} → {last}" if first != last else f"{last}, unchanged"
            facts.append(Fact(resource.label, [text]))
    facts.append(Fact(f"Encounters ({len(tally.encounters)})", tally.encounters or ["none"]))
    facts.append(Fact(f"Signs ({len(tally.signs)})", tally.signs or ["none"]))
    if tally.fights:
        # Only where a fight was fought, so every other summary reads as it did.
        facts.append(Fact(f"Fights ({len(tally.fights)})", tally.fights))
        facts.append(Fact("Foes defeated", [str(tally.defeated)]))
    return tuple(facts)


def turns_text(tally: Tally, procedure: Procedure, end: State) -> str:
    turns = tally.turns
    unit = procedure.turn_name(end.turn_type)
    if not turns:
        return f"no {plural(unit)} taken"
    if len(set(tally.kinds)) > 1:
        return f"{len(turns)} ({kinds_text(tally, procedure, ', ')})"
    unit = procedure.turn_name(tally.kinds[0]) if tally.kinds else unit
    if len(turns) == 1:
        return f"1 ({unit} {turns[0]})"
    return f"{len(turns)} ({plural(unit)} {turns[0]}–{turns[-1]})"


def kinds_text(tally: Tally, procedure: Procedure, between: str) -> str:
    """The turns taken counted by kind, in the order each first came: '10 watches, 2 days'."""
    counts = Counter(tally.kinds)
    return between.join(counted(n, procedure.turn_name(kind)) for kind, n in counts.items())


def about(tally: Tally, start: State, end: State, procedure: Procedure) -> str:
    turns = tally.turns
    unit = procedure.turn_name(end.turn_type)
    if not turns:
        return f"{capital(span(start, end, procedure))} · no {plural(unit)}"
    count = counted(len(turns), unit)
    if len(set(tally.kinds)) > 1:
        count = kinds_text(tally, procedure, " and ")
    numbers = f" ({turns[0]}–{turns[-1]})" if len(turns) > 1 else f" (number {turns[0]})"
    minutes = _duration(end.minutes - start.minutes)
    return f"{capital(span(start, end, procedure))} · {count}{numbers} · {minutes} in the world"


def span(start: State, end: State, procedure: Procedure) -> str:
    first = calendar.moment_for(end, procedure, start.clock)  # in the calendar kept at the end
    last = calendar.moment_for(end, procedure)
    if first == last:
        return first
    return f"{first} → {end.clock_text if start.day == end.day else last}"
