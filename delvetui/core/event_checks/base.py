"""What every check of an event shares: where the event stands, the dispatch on its class,
and the few questions many checks ask (a number in bounds, a name, a member or a light that
is there).

Each family's module (``party``, ``lights``...) registers one check for each of its event
types with ``@check.register``; one with nothing to check but every event's bounds is
registered with ``nothing`` and a comment saying why. ``delvetui.core.event_checks``
imports them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import singledispatch
from typing import Any

import attrs

from delvetui.core import events as ev
from delvetui.core.event_bounds import shown
from delvetui.core.state import State
from delvetui.procedure.model import USAGE_DICE, Procedure
from delvetui.text import MAX_NAME, quote


@attrs.frozen
class At:
    """Where an event stands: the state it applies to and the procedures it may name."""

    state: State
    procedure: Procedure
    #: The procedures ProcedureChanged events move to, by digest.
    procedures: Mapping[str, Procedure]


@singledispatch
def check(event: ev.Event, at: At) -> str | None:
    """Why no command could have written ``event`` where it stands, or None: each event
    type registers its own (a type with none is checked for its bounds alone)."""
    return None


def nothing(event: Any, at: At) -> None:
    """The check of an event with nothing to check but every event's bounds."""
    return None


def number(name: str, value: int, low: int, high: int) -> str | None:
    """Why the number is out of bounds, or None."""
    if low <= value <= high:
        return None
    return f"{name} is {shown(value)}; it must be from {low} to {high}"


def name_problem(kind: str, name: str) -> str | None:
    """Why the name is not one a command takes (empty, spaced, too long, with an =)."""
    if not name.strip() or name != name.strip():
        return f"the {kind} name {quote(name)} is empty or has spaces around it"
    if len(name) > MAX_NAME:
        return f"the {kind} name {quote(name)} is longer than {MAX_NAME} characters"
    if "=" in name:
        return f"the {kind} name {quote(name)} holds '=', which no name may"
    return None


def no_member(state: State, name: str) -> str | None:
    """Why the member is not there, or None."""
    if not any(m.name == name for m in state.party):
        return f"there is no party member {quote(name)} at this point"
    return None


def no_light(state: State, light_id: str) -> str | None:
    """Why the light is not there, or None."""
    if not any(light.id == light_id for light in state.lights):
        return f"there is no light {quote(light_id)} at this point"
    return None


def no_carrier(state: State, carrier: str | None) -> str | None:
    """Why the carrier (a member, or nobody) is not there, or None."""
    return None if carrier is None else no_member(state, carrier)


def one_of(what: str, value: str, known: Iterable[str]) -> str | None:
    """Why the value is none of the known ones, or None."""
    return None if value in known else f"{what} has no {quote(value)} ({', '.join(known)})"


def not_usage_die(die: int | None) -> str | None:
    """Why the die is no usage die (``USAGE_DICE``), or None."""
    if die is None or die in USAGE_DICE:
        return None
    sizes = ", ".join(f"d{size}" for size in reversed(USAGE_DICE))
    return f"a usage die of d{die} is not one of {sizes}"
