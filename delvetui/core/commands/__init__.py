"""The command language shared by ``delvetui act``, the table's command line and its keys.

``types`` holds the commands (frozen values; a verb's module may keep its own beside its
forms, as ``light_forms`` does), ``grammar`` the one table of verbs, forms and words every
other part reads, ``forms`` the routine that reads a form from its words
and writes it back, ``kinds`` how each kind of value is read and written, ``readers`` the
checks they share and the few forms read by hand, and ``parser`` the way from text to a
command and back.

The package loads its modules on first use (PEP 562, as ``textual.widgets`` does): opening
an expedition and painting the table need no command, and importing the language was
about a fortieth of the table's start-up (docs/performance.md).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from delvetui import lazy

if TYPE_CHECKING:
    from delvetui.core.commands.grammar import *  # noqa: F403 - any command declared there
    from delvetui.core.commands.grammar import GRAMMAR, USAGE, VERBS, Form, Verb, Word
    from delvetui.core.commands.light_forms import *  # noqa: F403 - the light verb's commands
    from delvetui.core.commands.parser import (
        amount,
        parse,
        said,
        spoken,
        table_values,
        with_value,
        without_keys,
    )
    from delvetui.core.commands.room_forms import *  # noqa: F403 - the dungeon's verbs' commands
    from delvetui.core.commands.types import *  # noqa: F403 - every other command, by its name

__all__ = [
    "GRAMMAR",
    "USAGE",
    "VERBS",
    "Form",
    "Verb",
    "Word",
    "amount",
    "parse",
    "said",
    "spoken",
    "table_values",
    "with_value",
    "without_keys",
]

#: The module of the package that defines each name; every other is a command (or a limit
#: of one), by its name (``commands.AddLight``), from ``types`` or a verb's module.
_HOME = {
    "GRAMMAR": "grammar",
    "USAGE": "grammar",
    "VERBS": "grammar",
    "Form": "grammar",
    "Verb": "grammar",
    "Word": "grammar",
    "amount": "parser",
    "parse": "parser",
    "said": "parser",
    "spoken": "parser",
    "table_values": "parser",
    "with_value": "parser",
    "without_keys": "parser",
}


#: The verbs' modules, which may declare a command beside the forms that make it and name
#: it in their ``__all__``; every other command is one of ``types``.
_VERB_MODULES = ("light_forms", "room_forms", "grammar")


def __getattr__(name: str) -> Any:
    """A name of the package, imported from its module the first time it is asked for."""
    if name.startswith("_") or _is_module(name):
        # A module of the package is no name of it: ``from delvetui.core.commands import
        # kinds`` asks here before it imports the module, and must be let through to it.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return lazy.attribute(__name__, {name: _HOME.get(name) or _home_of(name)}, name, globals())


def _is_module(name: str) -> bool:
    """Whether ``name`` is one of the package's modules (``kinds``, ``forms``)."""
    return name.islower() and importlib.util.find_spec(f"{__name__}.{name}") is not None


def _home_of(name: str) -> str:
    """The module that declares a command: ``types``, or the verb's module that names it."""
    if hasattr(importlib.import_module(f"{__name__}.types"), name):
        return "types"
    for home in _VERB_MODULES:
        if name in importlib.import_module(f"{__name__}.{home}").__all__:
            return home
    return "types"
