"""What every rule of ``evolve`` shares: the dispatch on the event's class, and the member,
light or unchanged state a rule reads.

Each family's module (``party``, ``lights``...) registers one rule for each of its event
types with ``@rule.register``; ``delvetui.core.evolve`` imports them all.
"""

from __future__ import annotations

from functools import singledispatch

from delvetui.core import events as ev
from delvetui.core.state import Light, Member, State
from delvetui.errors import ReplayError


@singledispatch
def rule(event: ev.Event, state: State) -> State:
    """The state after ``event``: each event type registers its own rule."""
    raise ReplayError(f"{type(event).__name__} has no rule to apply it")


def unchanged(event: ev.Event, state: State) -> State:
    """The rule of an event that changes nothing the state keeps."""
    return state


def member_of(state: State, name: str) -> Member:
    """The party member an event names; ValueError when there is none."""
    found = next((m for m in state.party if m.name == name), None)
    if found is None:
        raise ValueError(f"no party member named {name!r}")
    return found


def light_of(state: State, light_id: str) -> Light:
    """The light an event names; ValueError when there is none."""
    found = next((light for light in state.lights if light.id == light_id), None)
    if found is None:
        raise ValueError(f"no light with id {light_id!r}")
    return found
