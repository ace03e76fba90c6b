"""Modules and a package's names imported the first time they are asked for.

A package keeps a map of each name to the module that defines it and hands its module
``__getattr__`` (PEP 562) to ``attribute``: importing the package then costs nothing, and
a command that never uses a name never imports its module.

A module that uses another only inside its functions holds it through ``module``: a
stand-in that imports the module the first time one of its names is read, and then holds
the module's names itself, so every later read costs what reading a module's name costs.
The events and the way they change the state are read so, by the modules a command that
only reads an expedition imports (status, list): from a snapshot it needs neither, and
making their hundred classes was a sixth of such a command.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Mapping, MutableMapping
from typing import Any


def attribute(
    package: str, homes: Mapping[str, str], name: str, names: MutableMapping[str, Any]
) -> Any:
    """``name`` of ``package``, imported from its module and kept in the package's ``names``."""
    home = homes.get(name)
    if home is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{package}.{home}"), name)
    names[name] = value
    return value


class _Deferred(types.ModuleType):
    """A module's stand-in, filled with the module's names when the first one is read."""

    def __getattr__(self, name: str) -> Any:
        # Called only for a name the stand-in does not hold yet, which until the first
        # read is every one of them. The import is the import system's (one per process,
        # whatever the thread); after it, the names are the module's own objects, and the
        # stand-in a plain module, so reading one costs no more than from the module.
        found = importlib.import_module(self.__name__)
        self.__dict__.update(found.__dict__)
        self.__class__ = types.ModuleType  # type: ignore[assignment]
        return getattr(found, name)


def module(name: str) -> types.ModuleType:
    """The module ``name``, imported when one of its names is first read.

    Declare it under ``if TYPE_CHECKING: import ... as x`` / ``else: x = lazy.module(...)``,
    so type checkers read the module itself.
    """
    return sys.modules.get(name) or _Deferred(name)
