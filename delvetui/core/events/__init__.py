"""Events: the immutable facts an expedition is made of.

Every event is a frozen attrs class named in the past tense. Each has a stable type name
(its class name) and a schema version, and turns into a JSON-able payload and back without
loss. Replay never rolls a die: ``DiceRolled`` keeps every face.

The classes are kept by family, a module each: ``expedition`` (its start, procedure,
calendar, end and campaign), ``party``, ``lights``, ``clock`` (timers, the real-time clock,
the clock set), ``turns`` (the turn, its rolls and results), ``encounters`` (and the
adventure's tables), ``tables`` (a row of those tables changed at the table), ``rooms`` (the
dungeon's rooms) and ``session`` (sessions, notes, undo and redo, the players' screen);
``base`` holds what every event shares (the registry, the payload, the upcasters). This
package gives every class by its name (``events.LightLit``).
"""

from delvetui.core.events import (
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
from delvetui.core.events.base import (
    EVENT_TYPES,
    GAME_MASTER,
    SCHEMA_VERSIONS,
    UPCASTERS,
    Event,
    Upcaster,
    event,
    upcast,
    upcaster,
    wrong_field,
)
from delvetui.core.events.clock import *  # noqa: F403 - each family's events, by name
from delvetui.core.events.encounters import *  # noqa: F403
from delvetui.core.events.expedition import *  # noqa: F403
from delvetui.core.events.lights import *  # noqa: F403
from delvetui.core.events.party import *  # noqa: F403
from delvetui.core.events.rooms import *  # noqa: F403
from delvetui.core.events.session import *  # noqa: F403
from delvetui.core.events.tables import *  # noqa: F403
from delvetui.core.events.turns import *  # noqa: F403

__all__ = [
    "EVENT_TYPES",
    "GAME_MASTER",
    "SCHEMA_VERSIONS",
    "UPCASTERS",
    "Event",
    "Upcaster",
    "event",
    "upcast",
    "upcaster",
    "wrong_field",
]
__all__ += clock.__all__
__all__ += encounters.__all__
__all__ += expedition.__all__
__all__ += lights.__all__
__all__ += party.__all__
__all__ += rooms.__all__
__all__ += session.__all__
__all__ += tables.__all__
__all__ += turns.__all__
