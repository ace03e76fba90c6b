"""Every kind of effect a procedure can use, one registry entry each (see ``registry``).

Importing this package registers the kinds, family by family, in the order the loader
lists them; ``KINDS`` maps each name to its entry.
"""

# The order of these imports is the order of the kinds (log, roll, ..., nothing).
from delvetui.core.effects import log, rolls, members, lights, counters, resources, nothing  # noqa: I001, F401
from delvetui.core.effects.registry import KINDS, SHARED_FIELDS, EffectKind, check_effect

__all__ = ["KINDS", "SHARED_FIELDS", "EffectKind", "check_effect"]
