"""The effect that does nothing, on purpose."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui.core.effects.registry import kind
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core.work import Ctx, Work


@kind("nothing")
def nothing(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `nothing` kind says (``procedure.effect_kinds``)."""
