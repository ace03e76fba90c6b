"""The effect that does nothing, on purpose."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui.core.effects.registry import kind
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core.work import Ctx, Work


@kind("nothing", inert=True)
def nothing(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does nothing. A row with no effects does nothing too; `nothing` says so on purpose,
    for example with a `when`.
    """
