"""Whether a command could have written an event where it stands: one check per event type.

``problem(state, procedure, event)`` answers for one event: a sentence saying why no
command could have written it in that state, or None. The audit (``core.audit``) asks it
of every event of a log from outside, batch by batch. Each event type has its check,
dispatched on the event's class (``base.check``, a ``functools.singledispatch``) and kept
by family as the events are: ``expedition``, ``party``, ``lights``, ``clock``, ``turns``,
``encounters``, ``tables``, ``rooms`` and ``session``; an event with nothing to check but every
event's bounds is registered with ``base.nothing`` and a comment saying why.
"""

from __future__ import annotations

from collections.abc import Mapping

from delvetui.core import events as ev
from delvetui.core.event_bounds import every_number, every_text
from delvetui.core.event_checks import (  # noqa: F401 - each family registers its checks
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
from delvetui.core.event_checks.base import At, check
from delvetui.core.state import State
from delvetui.procedure.model import Procedure

__all__ = ["CHECKED", "problem"]

#: The event types with a check (some say there is nothing to check): every type has one.
CHECKED = check.registry.keys()


def problem(
    state: State,
    procedure: Procedure,
    event: ev.Event,
    procedures: Mapping[str, Procedure] | None = None,
) -> str | None:
    """Why no command could have written ``event`` in ``state``, or None when one could."""
    too_big = every_number(event) or every_text(event)
    if too_big is not None:
        return too_big
    return check(event, At(state, procedure, procedures or {}))
