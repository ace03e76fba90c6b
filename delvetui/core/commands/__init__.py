"""The command language shared by ``delvetui act``, the table's command line and its keys.

``types`` holds the commands (frozen values), ``grammar`` the one table of verbs, forms
and words every other part reads, ``forms`` the routine that reads a form from its words
and writes it back, ``kinds`` how each kind of value is read and written, ``readers`` the
checks they share and the few forms read by hand, and ``parser`` the way from text to a
command and back.

The package loads its modules on first use (PEP 562, as ``textual.widgets`` does): opening
an expedition and painting the table need no command, and importing the language was
about a fortieth of the table's start-up (docs/performance.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from delvetui import lazy

if TYPE_CHECKING:
    from delvetui.core.commands.grammar import GRAMMAR, USAGE, VERBS, Form, Verb, Word
    from delvetui.core.commands.parser import (
        amount,
        parse,
        said,
        spoken,
        with_value,
        without_keys,
    )
    from delvetui.core.commands.types import *  # noqa: F403 - every command, by its name

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
    "with_value",
    "without_keys",
]

#: The module of the package that defines each name; every other is one of ``types``: the
#: commands and their limits, each by its name (``commands.AddLight``).
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
    "with_value": "parser",
    "without_keys": "parser",
}


def __getattr__(name: str) -> Any:
    """A name of the package, imported from its module the first time it is asked for."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return lazy.attribute(__name__, {name: _HOME.get(name, "types")}, name, globals())
