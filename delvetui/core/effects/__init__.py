"""What every kind of effect does: one handler each, attached by name (see ``registry``).

The kinds themselves (name, keys, checks, documentation) are declared on the procedure side,
in ``delvetui.procedure.effect_kinds``. Importing this package attaches the handlers,
family by family; ``KINDS`` shows each kind with its handler, ``HANDLERS`` the handlers.
"""

from delvetui.core.effects import log, rolls, members, lights, counters, resources, choices  # noqa: I001, F401
from delvetui.core.effects import rooms, nothing  # noqa: F401
from delvetui.core.effects.registry import HANDLERS, KINDS, BoundKind
from delvetui.procedure.effect_kinds import KINDS as _DECLARED

_unhandled = [name for name in _DECLARED if name not in HANDLERS]
assert not _unhandled, f"the effect kinds {_unhandled} are declared but have no handler"

__all__ = ["HANDLERS", "KINDS", "BoundKind"]
