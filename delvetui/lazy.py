"""A package's names imported from their modules the first time they are asked for.

A package keeps a map of each name to the module that defines it and hands its module
``__getattr__`` (PEP 562) to ``attribute``: importing the package then costs nothing, and
a command that never uses a name never imports its module.
"""

from __future__ import annotations

import importlib
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
