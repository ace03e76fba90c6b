"""Frozen value classes that cost little to define.

attrs writes and compiles ``__repr__``, ``__eq__`` and ``__hash__`` for every class it
makes, and a program start pays for that once per class: the events, the commands and the
procedure model are about ninety classes, and compiling their methods was the largest
part of delvetui's import time. A class declared ``@attrs.frozen(repr=False, eq=False)``
that derives from ``Value`` gets the same three methods from here instead, written once:
the same repr (``Name(field=value, ...)``), equality of the same class field by field, and
a hash of the same fields, each honouring a field's ``repr=False`` and ``eq=False``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar, cast

import attrs
from attrs import AttrsInstance

T = TypeVar("T")


def as_tuple(items: Iterable[T]) -> tuple[T, ...]:
    """``tuple`` as an attrs converter. attrs reads a converter's signature when it makes a
    class; for the builtin ``tuple`` that means parsing its text signature, about 0.6 ms a
    field at every start (20 ms for the procedure model), where a Python function is free."""
    return tuple(items)


def _fields(value: object) -> tuple[attrs.Attribute[Any], ...]:
    found: tuple[attrs.Attribute[Any], ...] = attrs.fields(cast("type[AttrsInstance]", type(value)))
    return found


class Value:
    """The base of a frozen attrs class that takes its repr, equality and hash from here."""

    __slots__ = ()

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{field.name}={getattr(self, field.name)!r}" for field in _fields(self) if field.repr
        )
        return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({shown})"

    def _compared(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field.name) for field in _fields(self) if field.eq)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Value)
        return self._compared() == other._compared()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((type(self), self._compared()))
