"""Effects that wait on the party: a choice among the consequences the text offers."""

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


@kind("choose")
def choose(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `choose` kind says (``procedure.effect_kinds``)."""
    name = effect.label or effect.id
    question = work.text(effect.text, ctx) if effect.text else name
    chosen = work.choose(effect.id, effect.options, question)
    work.emit(ev.Logged(text=f"{name}: {chosen} (the party's choice)", label=effect.id))
