"""evolve(state, event): how each fact changes the expedition. Pure and total.

One rule per event type, dispatched on the event's class (``base.rule``, a
``functools.singledispatch``), kept by family as the events are: ``expedition``,
``party``, ``lights``, ``clock``, ``turns``, ``encounters``, ``tables``, ``rooms`` and ``session``.
Undo and redo are handled by :mod:`delvetui.core.timeline`, which decides which batches
count; here they change nothing. Total means: for any event, ``evolve`` returns the next
state or raises ReplayError (an event that names a member or light that is not there, of a
type with no rule); nothing else escapes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from delvetui.core import events as ev
from delvetui.core.evolve import (  # noqa: F401 - each family registers its rules
    clock,
    encounters,
    expedition,
    lights,
    party,
    rooms,
    session,
    tables,
    turns,
)
from delvetui.core.evolve.base import rule
from delvetui.core.evolve.encounters import UNNAMED_CREATURE
from delvetui.core.evolve.lights import step_usage_die
from delvetui.core.state import State
from delvetui.errors import ReplayError

__all__ = ["UNNAMED_CREATURE", "evolve", "fold", "step_usage_die"]

#: The one dispatch every family registers its rules on (``base.rule``).
_apply = rule
#: What a rule raises on an event that cannot apply (what it names is not there).
_CANNOT_APPLY = (ValueError, LookupError, TypeError, ArithmeticError, AttributeError)


def evolve(state: State, event: ev.Event) -> State:
    """The state after one event; ReplayError when the event cannot apply to this state."""
    try:
        return _apply(event, state)
    except ReplayError:
        raise
    except (*_CANNOT_APPLY, StopIteration, RecursionError) as error:
        raise ReplayError(f"{type(event).__name__} cannot apply ({error})") from None


def fold(state: State, events: Iterable[ev.Event]) -> State:
    """The state after a sequence of events."""
    for event in events:
        state = evolve(state, event)
    return state
