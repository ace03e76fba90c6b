"""The loader's checks of how time and pace run: turn lengths, members' speeds, counters'
named levels and the intervals of roll rules (a condition's ``counter_levels`` is checked
with its other keys in ``procedure/conditions.py``).

Each takes the loader's checker (the ``Checks`` an effect kind's check gets: the procedure,
and ``problem`` and ``ref`` to report by key path) and reports every problem it finds.
"""

from __future__ import annotations

import re

from delvetui.procedure import model
from delvetui.procedure.effect_kinds import Checks
from delvetui.text import suggest

#: A counter's level: one word the game master types (counter set danger risky), no number.
_LEVEL = re.compile(r"^(?![0-9+-])[\w-]{1,40}$")


def check_time(checks: Checks) -> None:
    """The turn's length in ``[time]`` and in each turn type, and the members' speeds."""
    p = checks.procedure
    time = p.time
    _length(
        checks,
        "time",
        ("turn_minutes", "turn_hours", "turn_days", "turn_weeks"),
        (time.turn_minutes, time.turn_hours, time.turn_days, time.turn_weeks),
        required=False,
    )
    for name, kind in p.turn_types.items():
        _length(
            checks,
            f"turn_types.{name}",
            ("minutes", "hours", "days", "weeks"),
            (kind.minutes, kind.hours, kind.days, kind.weeks),
            required=True,
        )
    _member_speed(checks)


def _length(
    checks: Checks,
    path: str,
    keys: tuple[str, ...],
    values: tuple[float | None, ...],
    *,
    required: bool,
) -> None:
    """A turn's length: one of minutes, hours, days or weeks, a whole number of minutes."""
    given = [(key, value) for key, value in zip(keys, values, strict=True) if value is not None]
    either = ", ".join(keys[:-1]) + f" or {keys[-1]}"
    if len(given) > 1:
        both = " and ".join(key for key, _ in given)
        checks.problem(path, f"give only one of {either}, not {both}.")
        return
    if not given:
        if required:
            checks.problem(path, f"is missing its length: give one of {either}.")
        return
    key, value = given[0]
    minutes = value * (1, *model.UNIT_MINUTES)[keys.index(key)]
    if minutes < 1:
        checks.problem(f"{path}.{key}", "should be at least 1 minute.")
    elif minutes != int(minutes):
        checks.problem(
            f"{path}.{key}",
            f"{key} = {value:g} is {minutes:g} minutes; a turn lasts whole minutes.",
        )


def _member_speed(checks: Checks) -> None:
    movement = checks.procedure.movement
    if not movement.member_speed:
        if movement.base_speed is not None:
            checks.problem("movement.base_speed", "needs member_speed, the ability it is of.")
        return
    abilities = checks.procedure.party.abilities
    if movement.member_speed not in abilities:
        checks.problem(
            "movement.member_speed",
            f"'{movement.member_speed}' is not one of party.abilities "
            f"({', '.join(abilities) or 'none are given'}); list it there, so the game "
            "master gives each member a speed." + suggest(movement.member_speed, abilities),
        )
    if movement.base_speed is None:
        checks.problem(
            "movement",
            "member_speed needs base_speed: the speed the actions' distances are for.",
        )


def check_counter(checks: Checks, path: str, counter: model.Counter) -> None:
    """A counter's named levels: distinct words, as many as its values, and its start."""
    levels = counter.levels
    folded = [level.casefold() for level in levels]
    for index, level in enumerate(levels):
        if not _LEVEL.match(level):
            checks.problem(
                f"{path}.levels[{index}]",
                f"'{level}' should be one word of letters, digits and dashes "
                "(the game master types it), not a number.",
            )
        elif level.casefold() in folded[:index]:
            checks.problem(f"{path}.levels[{index}]", f"'{level}' is named twice.")
    top = counter.min + len(levels) - 1
    if levels and counter.max is not None and counter.max != top:
        checks.problem(
            f"{path}.max",
            f"is {counter.max}, but the {len(levels)} levels name {counter.min} to {top}; "
            "leave max out (the last level is the top) or name every value.",
        )
    if isinstance(counter.start, str):
        if counter.value_of(counter.start) is None:
            known = ", ".join(levels) or "it names no levels"
            checks.problem(
                f"{path}.start",
                f"'{counter.start}' is not a level of the counter ({known}); give a level "
                "or a whole number." + suggest(counter.start, levels),
            )
        return
    highest = counter.top()
    if counter.start < counter.min or (highest is not None and counter.start > highest):
        checks.problem(f"{path}.start", "is outside min and max.")


def check_said_time(checks: Checks, path: str, action: model.Action) -> None:
    """An action whose length the game master says names a number input of its own, and
    takes one turn."""
    if not action.minutes_input:
        return
    given = action.inputs.get(action.minutes_input)
    if given is None:
        known = ", ".join(action.inputs) or "it has none"
        checks.problem(
            f"{path}.minutes_input",
            f"names the input '{action.minutes_input}', which the action does not declare "
            f"({known}); declare it with number = true.",
        )
    elif not given.number:
        checks.problem(
            f"{path}.minutes_input",
            f"names the input '{action.minutes_input}', which is not a number; give it "
            "number = true.",
        )
    if action.turns != 1:
        checks.problem(
            f"{path}.minutes_input",
            "gives the turn's length, so the action takes one turn; leave turns out.",
        )


def check_rides_along(checks: Checks, path: str, light: model.LightKind) -> None:
    """A light that shares a running light's timer needs a time of its own to share."""
    timed = light.duration_minutes(1) is not None or light.real_minutes is not None
    if light.rides_along and not timed:
        checks.problem(
            f"{path}.rides_along",
            "shares a running light's time, but the kind burns no time of its own "
            "(turns, hours, minutes or real_minutes); leave rides_along out.",
        )


def check_made_from(checks: Checks, path: str, name: str, light: model.LightKind) -> None:
    """A light made from others names kinds of light the procedure has, not itself (how many
    of each is in its key's range, checked as the file is read)."""
    for kind in light.made_from:
        if kind == name:
            checks.problem(
                f"{path}.made_from", f"a {light.label.lower()} cannot be made of itself."
            )
        else:
            checks.ref(f"{path}.made_from", kind, checks.procedure.lights, "light kind")
