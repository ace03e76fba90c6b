"""Effects that wait on the party: a choice among the consequences the text offers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.effects.registry import kind
from delvetui.errors import CommandError, InputNeeded
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
    chosen = _chosen(work, effect.id, effect.options, question)
    work.emit(ev.Logged(text=f"{name}: {chosen} (the party's choice)", label=effect.id))


def _chosen(work: Work, key: str, options: Sequence[str], question: str) -> str:
    """The option the party chose, typed as KEY=OPTION, or asked for at the table.

    Without it (and with no one to ask) the command is refused with a sentence naming the
    options. Where choices are not asked (the odds), the first option is taken, and kept as
    if typed so the effects that name it follow.
    """
    if work.first_choice:
        work.inputs.values.setdefault(key.casefold(), [options[0]])
    given = work.inputs.get(key)
    if given is not None:
        found = next((o for o in options if o.casefold() == given.casefold()), None)
        if found is None:
            raise CommandError(f"{key}={given} is not one of the choices ({', '.join(options)}).")
        return found
    typed = " or ".join(f"{key}={option}" for option in options)
    message = f"{question}: the party's choice is needed; add {typed}."
    if work.ask_inputs:
        purpose = f"{question} (the party's choice)"
        raise InputNeeded(key, "|".join(options), purpose, message, choices=options)
    raise CommandError(message)
