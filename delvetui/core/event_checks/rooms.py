"""Checks of the rooms' events: a room added, the party going to one, a mark, a note, a room
restocked, a label shown (``core.rooms`` says what is sound of the dungeon)."""

from __future__ import annotations

from delvetui.core import events as ev
from delvetui.core import rooms
from delvetui.core.event_checks.base import check

check.register(ev.RoomAdded)(lambda e, at: rooms.added_problem(at.state, e))
check.register(ev.RoomEntered)(lambda e, at: rooms.entered_problem(at.state, e.room))
check.register(ev.RoomMarked)(lambda e, at: rooms.marked_problem(at.state, e))
check.register(ev.RoomNoted)(lambda e, at: rooms.noted_problem(at.state, e))
check.register(ev.RoomCarried)(lambda e, at: rooms.carried_problem(at.state, e))
check.register(ev.RoomRestocked)(lambda e, at: rooms.restocked_problem(at.state, e))
check.register(ev.RoomRevealed)(lambda e, at: rooms.revealed_problem(at.state, e))
check.register(ev.RoomTried)(lambda e, at: rooms.tried_problem(at.state, at.procedure, e))
