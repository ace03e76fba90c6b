"""What each effect kind does: its handler, attached by name to the kind the procedure declares.

A kind's name, keys, checks and documentation are declared once on the procedure side
(``delvetui.procedure.effect_kinds``), which the loader reads. Its handler is attached here
with ``@kind("name")`` in one of the family modules of this package, and ``Work.apply``
runs it. ``KINDS`` shows both halves of each kind together, in the declared order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

import attrs

from delvetui.procedure import effect_kinds
from delvetui.procedure.effect_kinds import EffectKind
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core.work import Ctx, Work

#: What an effect does when it happens: (working copy, the effect, its reference, context).
Handler = Callable[["Work", Effect, str, "Ctx"], None]

#: Each declared kind's handler, by the kind's name (filled by the family modules).
HANDLERS: dict[str, Handler] = {}


@attrs.frozen
class BoundKind:
    """One effect kind with its handler: the declared kind's fields, and what it does."""

    declared: EffectKind
    handler: Handler

    @property
    def name(self) -> str:
        return self.declared.name

    @property
    def fields(self) -> frozenset[str]:
        return self.declared.fields

    @property
    def required(self) -> tuple[str, ...]:
        return self.declared.required

    @property
    def doc(self) -> str:
        return self.declared.doc

    @property
    def inert(self) -> bool:
        return self.declared.inert

    @property
    def allowed(self) -> frozenset[str]:
        return self.declared.allowed


class _Kinds(Mapping[str, BoundKind]):
    """Every declared kind with its handler, in the declared order."""

    def __getitem__(self, name: str) -> BoundKind:
        return BoundKind(effect_kinds.KINDS[name], HANDLERS[name])

    def __iter__(self) -> Iterator[str]:
        return iter(effect_kinds.KINDS)

    def __len__(self) -> int:
        return len(effect_kinds.KINDS)


#: Every effect kind by name with its handler, in the order the docs list them.
KINDS: Mapping[str, BoundKind] = _Kinds()


def kind(name: str) -> Callable[[Handler], Handler]:
    """Attach the decorated handler to the effect kind ``name`` declared by the procedure."""

    def register(handler: Handler) -> Handler:
        assert name in effect_kinds.KINDS, (
            f"the effect kind {name!r} is not declared in delvetui/procedure/effect_kinds.py"
        )
        assert name not in HANDLERS, f"the effect kind {name!r} is registered twice"
        HANDLERS[name] = handler
        return handler

    return register
