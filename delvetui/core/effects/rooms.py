"""Effects on the dungeon's rooms: the room the party is in marked (a door forced, a trap
sprung), with a note when the procedure gives one."""

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


@kind("room-mark")
def room_mark(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Does what the `room-mark` kind says (``procedure.effect_kinds``)."""
    room = work.state.current_room
    if room is None:
        return
    if effect.mark and effect.mark not in room.marks:
        work.emit(ev.RoomMarked(room=room.id, mark=effect.mark, reason=effect.label or ""))
    if effect.text:
        work.emit(ev.RoomNoted(room=room.id, text=work.text(effect.text, ctx)))
