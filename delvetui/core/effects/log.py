"""Effects that only write: a line in the log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.effects.registry import kind
from delvetui.procedure.model import Effect

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Ctx, Work
else:
    ev = lazy.module("delvetui.core.events")


@kind("log")
def log(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `log` kind says (``procedure.effect_kinds``)."""
    work.emit(ev.Logged(text=work.text(effect.text, ctx), label=effect.label))
