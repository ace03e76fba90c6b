"""The tally a part's summary is made from: what its events add up to (turns, damage and
healing, lights used, encounters, the counters' peaks).

Each family's module of the story registers what one of its event types adds with
``@take.register``, as the core registers an event's rule, check and words.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import singledispatch

import attrs

from delvetui.core import events as ev
from delvetui.core.evolve import evolve
from delvetui.core.state import State


class Tally:
    """What a part's events add up to, for its summary."""

    def __init__(self) -> None:
        self.turns: list[int] = []
        #: The kind of each turn taken (its turn type), beside its number.
        self.kinds: list[str] = []
        self.damage: dict[str, int] = {}
        self.healed: dict[str, int] = {}
        self.gained: dict[str, list[str]] = {}
        self.left: list[str] = []
        self.lights: dict[str, LightUse] = {}
        self.encounters: list[str] = []
        self.signs: list[str] = []
        self.peaks: dict[str, int] = {}
        #: Each fight that ended: its rounds and what became of the foes.
        self.fights: list[str] = []
        self.defeated = 0

    def light(self, light_id: str) -> LightUse:
        return self.lights.setdefault(light_id, LightUse())

    def take(self, events: Iterable[ev.Event], state: State) -> None:
        """Add a batch's events, given the state before it."""
        for event in events:
            take(event, self, state)
            state = evolve(state, event)


@singledispatch
def take(event: ev.Event, tally: Tally, state: State) -> None:
    """What one event adds to the tally, given the state before it: most add nothing."""


@attrs.define
class LightUse:
    lit: bool = False
    minutes: int = 0
    dimmed: str = ""
    out: str = ""
    spent: bool = False
    strikes: int = 0
    dice: list[int | None] = attrs.field(factory=list)


def add_once(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
