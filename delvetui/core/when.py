"""A procedure's `when` conditions at play, one registry entry per key.

``KEYS`` holds every key of ``Condition`` (``procedure/conditions.py``) with its test and
its words; the key's field there declares the rest: its help line, its scope (the party's
state, or the member an effect is about) and the loader's check. ``holds`` is the test the
effects, roll rules and member rules ask (``Work.holds``): every key given must hold, and
a member key holds for no member when none is named. ``words`` says why a rule that holds
a condition is not made this turn, each key with the value it reads now ("only when the
alarm is at least 5 (it is 3)").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import attrs

from delvetui import lazy
from delvetui.core import daytime, member_light
from delvetui.core.state import Member, State
from delvetui.procedure.conditions import MEMBER_KEYS, Condition, is_given
from delvetui.text import counted

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Work
else:
    ev = lazy.module("delvetui.core.events")


@attrs.frozen
class Now:
    """What a key reads: the work in progress, the whole condition, and the member it is
    about (None for the party, or when no member is named)."""

    work: Work
    condition: Condition
    member: Member | None = None

    @property
    def turn_name(self) -> str:
        """The name of a turn of the current type ('turn', 'watch')."""
        return self.work.procedure.turn_name(self.work.state.turn_type)


@attrs.frozen
class WhenKey:
    """One key of a ``when`` condition at play: its test and its words.

    A member key's test reads ``Now.member``, which ``holds`` never leaves None for it; the
    key's field in ``Condition`` says which keys those are (its scope).
    """

    #: True when the key's value (given, not its default) holds now.
    test: Callable[[Now, Any], bool]
    #: The key in the game master's words, with what it reads now where there is one.
    words: Callable[[Now, Any], str]


def given(condition: Condition) -> Iterator[tuple[str, WhenKey, Any]]:
    """Each key the condition gives (not left at its default), its entry and its value, in
    the order of ``KEYS``."""
    for name, entry in KEYS.items():
        value = getattr(condition, name)
        if is_given(value):
            yield name, entry, value


def holds(work: Work, condition: Condition, member: str | None = None) -> bool:
    """True when every key of the condition holds now (for ``member`` where it asks)."""
    found = work.state.member(member) if member else None
    now = Now(work, condition, found)
    for name, entry, value in given(condition):
        if name in MEMBER_KEYS and found is None:
            return False
        if not entry.test(now, value):
            return False
    return True


def words(condition: Condition, work: Work) -> str:
    """A condition in the game master's words, with the values it reads now.

    Says why a rule that holds it is not made this turn: "only when the alarm is at least
    5 (it is 3)". Every key given is said, in the order of ``KEYS``, joined with "and".
    """
    now = Now(work, condition)
    parts = [entry.words(now, value) for _, entry, value in given(condition)]
    if not parts:
        return "only when its condition holds, and it does not now"
    return "only when " + " and ".join(parts)


# The party's keys.


def _inputs_test(now: Now, wanted: dict[str, str]) -> bool:
    for key, value in wanted.items():
        # Read, not used: the action's inputs are read where they are checked, and a
        # choice where it is asked for, so a choice typed for a turn that asks none is
        # still refused as a key nothing used.
        given_ = now.work.inputs.peek(key)
        if given_ is None:
            given_ = now.work.input_default(key)
        if given_ is None or given_.casefold() != value.casefold():
            return False
    return True


def _inputs_words(now: Now, wanted: dict[str, str]) -> str:
    return " and ".join(f"{key}={value}" for key, value in wanted.items())


def _not_inputs_test(now: Now, unwanted: dict[str, str]) -> bool:
    return not any(_inputs_test(now, {key: value}) for key, value in unwanted.items())


def _not_inputs_words(now: Now, unwanted: dict[str, str]) -> str:
    return " and ".join(f"not {key}={value}" for key, value in unwanted.items())


def _counter_name(now: Now, name: str) -> str:
    counter = now.work.procedure.counters.get(name)
    return f"the {counter.label.lower()}" if counter is not None else f"the counter {name}"


def _at_least(value: int, bound: int) -> bool:
    return value >= bound


def _at_most(value: int, bound: int) -> bool:
    return value <= bound


def _bounds(
    compare: Callable[[int, int], bool],
    said: str,
    value_of: Callable[[State, str], int],
    name_of: Callable[[Now, str], str],
) -> tuple[Callable[[Now, dict[str, int]], bool], Callable[[Now, dict[str, int]], str]]:
    """The test and the words of a key that bounds some named numbers (counters, the
    party's resources): each at least, or at most, its value."""

    def test(now: Now, bounds: dict[str, int]) -> bool:
        return all(compare(value_of(now.work.state, n), v) for n, v in bounds.items())

    def words_(now: Now, bounds: dict[str, int]) -> str:
        return " and ".join(
            f"{name_of(now, name)} is {said} {value} (it is {value_of(now.work.state, name)})"
            for name, value in bounds.items()
        )

    return test, words_


def _resource_name(now: Now, name: str) -> str:
    resource = now.work.procedure.resources.get(name)
    return f"the {resource.label.lower()}" if resource is not None else f"the resource {name}"


def _counter_levels_test(now: Now, wanted: dict[str, tuple[str, ...]]) -> bool:
    for name, levels in wanted.items():
        rules = now.work.procedure.counters.get(name)
        level = rules.level_of(now.work.state.counter(name)) if rules is not None else None
        if level is None or level.casefold() not in {w.casefold() for w in levels}:
            return False
    return True


def _counter_levels_words(now: Now, wanted: dict[str, tuple[str, ...]]) -> str:
    parts = []
    for name, named in wanted.items():
        counter = now.work.procedure.counters.get(name)
        value = now.work.state.counter(name)
        shown = counter.shown(value) if counter is not None else value
        parts.append(f"{_counter_name(now, name)} is {' or '.join(named)} (it is {shown})")
    return " and ".join(parts)


def _day_ends_test(now: Now, wanted: bool) -> bool:
    state = now.work.state
    return wanted == state.day_ends_after(now.work.turn_minutes)


def _time_of_day_test(now: Now, parts: tuple[str, ...]) -> bool:
    return daytime.part_of_day(now.work.procedure, now.work.state.clock) in parts


def _time_of_day_words(now: Now, parts: tuple[str, ...]) -> str:
    state = now.work.state
    part = daytime.part_of_day(now.work.procedure, state.clock)
    return f"in the {' or '.join(parts)} (it is {part}, {state.clock_text})"


def _first_turn_of_day_test(now: Now, wanted: bool) -> bool:
    of_part = bool(now.condition.time_of_day)
    return daytime.first_turn(now.work.procedure, now.work.state, of_part=of_part) == wanted


def _first_turn_of_day_words(now: Now, wanted: bool) -> str:
    named = " or ".join(now.condition.time_of_day)
    which = f"the {named}" if named else "the day"
    return f"{'' if wanted else 'not '}on the first {now.turn_name} of {which}"


def _light_levels_test(now: Now, levels: tuple[str, ...]) -> bool:
    return member_light.party_level(now.work.state, now.work.procedure) in levels


def _light_levels_words(now: Now, levels: tuple[str, ...]) -> str:
    level = member_light.party_level(now.work.state, now.work.procedure)
    return f"the light is {' or '.join(levels)} (it is {level})"


def _by_words(now: Now, wanted: bool) -> str:
    named = now.work.inputs.get("by")
    it = f"it names {named}" if named is not None else "it names none"
    return f"the command names {'a' if wanted else 'no'} member with by=NAME ({it})"


def _streak_test(now: Now, every: int) -> bool:
    streak = now.work.state.streak
    return streak != 0 and streak % every == 0


def _streak_words(now: Now, every: int) -> str:
    return (
        f"on every {every}th {now.turn_name} of the same action in a row "
        f"(it is {counted(now.work.state.streak, now.turn_name)} in a row)"
    )


def _first_turns_test(now: Now, turns: int) -> bool:
    return now.work.turn_number <= turns


def _after_turns_test(now: Now, turns: int) -> bool:
    return now.work.turn_number > turns


def _resting_test(now: Now, wanted: bool) -> bool:
    return now.work.state.resting == wanted


def _by_test(now: Now, wanted: bool) -> bool:
    return (now.work.inputs.get("by") is not None) == wanted


# The member's keys: each reads the member the effect is about (``Now.member``, never None
# when the test is asked; ``holds`` refuses a member key for no member).


def _member(now: Now) -> Member:
    assert now.member is not None
    return now.member


def _member_bounds(
    value_of: Callable[[Now, str], int | None], sign: int
) -> Callable[[Now, dict[str, int]], bool]:
    """A test of named values of the member at or above (sign 1) or below (-1) bounds; a
    name the member has no value for passes neither."""

    def test(now: Now, bounds: dict[str, int]) -> bool:
        for name, bound in bounds.items():
            value = value_of(now, name)
            if value is None or (value - bound) * sign < 0:
                return False
        return True

    return test


def _track(now: Now, name: str) -> int | None:
    return _member(now).track(name)


def _ability(now: Now, name: str) -> int | None:
    return dict(_member(now).abilities).get(name.upper())


def _modifier(now: Now, name: str) -> int | None:
    # A member with no score in an ability has no modifier of it ('best' they always have).
    member = _member(now)
    if name.lower() != "best" and name.upper() not in dict(member.abilities):
        return None
    return member.modifier(name, now.work.procedure.party.modifier_of)


def _member_resource(now: Now, name: str) -> int | None:
    return _member(now).resource(name)


def _track_name(now: Now, name: str) -> str:
    track = now.work.procedure.tracks.get(name)
    return track.label.lower() if track is not None else name


def _member_words(
    name_of: Callable[[Now, str], str], said: str
) -> Callable[[Now, dict[str, int]], str]:
    def words_(now: Now, bounds: dict[str, int]) -> str:
        return " and ".join(
            f"a member's {name_of(now, name)} is {said} {value}" for name, value in bounds.items()
        )

    return words_


def _named(now: Now, name: str) -> str:
    return name


def _modifier_name(now: Now, name: str) -> str:
    return f"{name} modifier"


def _resource_label(now: Now, name: str) -> str:
    return _resource_name(now, name).removeprefix("the ")


def _carries_light_test(now: Now, wanted: bool) -> bool:
    return now.work.state.carries_light(_member(now).name) == wanted


def _member_light_levels_test(now: Now, levels: tuple[str, ...]) -> bool:
    state, procedure = now.work.state, now.work.procedure
    return member_light.member_level(state, procedure, _member(now).name) in levels


def _yes_no(yes: str, no: str) -> Callable[[Now, bool], str]:
    def words_(now: Now, wanted: bool) -> str:
        return yes if wanted else no

    return words_


def _each(phrase: str) -> Callable[[Now, tuple[str, ...]], str]:
    def words_(now: Now, names: tuple[str, ...]) -> str:
        return " and ".join(phrase.format(name) for name in names)

    return words_


def _last_rolled(now: Now, table: str) -> str | None:
    """The row a table came out on when it was last rolled in this command (None: not yet)."""
    for event in reversed(now.work.events):
        if isinstance(event, ev.ResultRead) and event.table == table:
            return event.label
    return None


def _rolled_test(now: Now, wanted: dict[str, tuple[str, ...]]) -> bool:
    return all(_last_rolled(now, table) in labels for table, labels in wanted.items())


def _rolled_words(now: Now, wanted: dict[str, tuple[str, ...]]) -> str:
    parts = []
    for table, labels in wanted.items():
        found = now.work.procedure.tables.get(table)
        name = found.label if found is not None else table
        came = _last_rolled(now, table)
        it = f"it came out {came}" if came is not None else "it was not rolled"
        parts.append(f"{name} came out {' or '.join(labels)} ({it})")
    return " and ".join(parts)


_counter_least = _bounds(_at_least, "at least", State.counter, _counter_name)
_counter_most = _bounds(_at_most, "at most", State.counter, _counter_name)
_resource_least = _bounds(_at_least, "at least", State.resource, _resource_name)
_resource_most = _bounds(_at_most, "at most", State.resource, _resource_name)

#: Every key of a ``when`` condition, in the order ``holds`` asks them and ``words`` says
#: them. The order is kept because a key that reads the command (``inputs``, ``by``) marks
#: what it reads as used, and ``holds`` stops at the first key that fails.
KEYS: dict[str, WhenKey] = {
    "hp_at_most": WhenKey(
        lambda now, n: _member(now).hp <= n,
        lambda now, n: f"a member has at most {n} hit points",
    ),
    "hp_at_least": WhenKey(
        lambda now, n: _member(now).hp >= n,
        lambda now, n: f"a member has at least {n} hit points",
    ),
    "member_track_at_least": WhenKey(
        _member_bounds(_track, 1), _member_words(_track_name, "at least")
    ),
    "member_track_at_most": WhenKey(
        _member_bounds(_track, -1), _member_words(_track_name, "at most")
    ),
    "member_ability_at_least": WhenKey(
        _member_bounds(_ability, 1), _member_words(_named, "at least")
    ),
    "member_ability_at_most": WhenKey(
        _member_bounds(_ability, -1), _member_words(_named, "at most")
    ),
    "member_modifier_at_least": WhenKey(
        _member_bounds(_modifier, 1), _member_words(_modifier_name, "at least")
    ),
    "member_modifier_at_most": WhenKey(
        _member_bounds(_modifier, -1), _member_words(_modifier_name, "at most")
    ),
    "member_resource_at_least": WhenKey(
        _member_bounds(_member_resource, 1), _member_words(_resource_label, "at least")
    ),
    "member_resource_at_most": WhenKey(
        _member_bounds(_member_resource, -1), _member_words(_resource_label, "at most")
    ),
    "member_conditions": WhenKey(
        lambda now, names: all(c in _member(now).conditions for c in names),
        _each("a member is '{}'"),
    ),
    "member_not_conditions": WhenKey(
        lambda now, names: not any(c in _member(now).conditions for c in names),
        _each("a member is not '{}'"),
    ),
    "member_carries_light": WhenKey(
        _carries_light_test,
        _yes_no("a member carries a lit light", "a member carries no lit light"),
    ),
    "light_levels": WhenKey(_light_levels_test, _light_levels_words),
    "member_light_levels": WhenKey(
        _member_light_levels_test,
        lambda now, levels: f"a member stands in {' or '.join(levels)} light",
    ),
    "resource_at_least": WhenKey(*_resource_least),
    "resource_at_most": WhenKey(*_resource_most),
    "inputs": WhenKey(_inputs_test, _inputs_words),
    "not_inputs": WhenKey(_not_inputs_test, _not_inputs_words),
    "counter_at_least": WhenKey(*_counter_least),
    "counter_at_most": WhenKey(*_counter_most),
    "counter_levels": WhenKey(_counter_levels_test, _counter_levels_words),
    "first_turns": WhenKey(
        _first_turns_test,
        lambda now, n: f"during the first {counted(n, now.turn_name)}",
    ),
    "after_turns": WhenKey(
        _after_turns_test,
        lambda now, n: f"after the first {counted(n, now.turn_name)}",
    ),
    "resting": WhenKey(
        _resting_test,
        _yes_no("the party rests", "the party does not rest"),
    ),
    "day_ends": WhenKey(
        _day_ends_test,
        lambda now, wanted: f"the {now.turn_name} {'ends' if wanted else 'is within'} a day",
    ),
    "by": WhenKey(_by_test, _by_words),
    "time_of_day": WhenKey(_time_of_day_test, _time_of_day_words),
    "first_turn_of_day": WhenKey(_first_turn_of_day_test, _first_turn_of_day_words),
    "flags": WhenKey(
        lambda now, flags: all(flag in now.work.flags for flag in flags),
        lambda now, flags: " and ".join(f"the {now.turn_name} is '{f}'" for f in flags),
    ),
    "not_flags": WhenKey(
        lambda now, flags: not any(flag in now.work.flags for flag in flags),
        lambda now, flags: " and ".join(f"the {now.turn_name} is not '{f}'" for f in flags),
    ),
    "streak": WhenKey(_streak_test, _streak_words),
    "rolled": WhenKey(_rolled_test, _rolled_words),
}
