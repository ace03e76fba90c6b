"""The party: members joining, changed and leaving, the marching order, hit points, fatigue,
conditions, the numbers kept per member (tracks) and resources.
"""

import attrs

from delvetui.core.events.base import PAIRS, Event, event, name_pairs, strings

__all__ = [
    "ConditionGained",
    "ConditionLost",
    "ConditionTimed",
    "FatigueChanged",
    "HpChanged",
    "MarchingOrderSet",
    "MemberEdited",
    "MemberJoined",
    "MemberLeft",
    "ResourceChanged",
    "ResourceShort",
    "TrackChanged",
]


@event()
@attrs.frozen(repr=False, eq=False)
class MemberJoined(Event):
    """A party member joined with hit points and the abilities the procedure uses."""

    name: str
    hp: int
    max_hp: int
    abilities: tuple[tuple[str, int], ...] = attrs.field(
        factory=tuple, converter=name_pairs, metadata=PAIRS
    )
    tracks: tuple[tuple[str, int], ...] = attrs.field(
        factory=tuple, converter=name_pairs, metadata=PAIRS
    )


@event()
@attrs.frozen(repr=False, eq=False)
class MemberEdited(Event):
    """A party member's maximum hit points or abilities were changed by the game master."""

    name: str
    max_hp: int
    abilities: tuple[tuple[str, int], ...] = attrs.field(
        factory=tuple, converter=name_pairs, metadata=PAIRS
    )


@event()
@attrs.frozen(repr=False, eq=False)
class MemberLeft(Event):
    """A party member left the party."""

    name: str


@event()
@attrs.frozen(repr=False, eq=False)
class MarchingOrderSet(Event):
    """The party's marching order was set: every member, front first."""

    names: tuple[str, ...] = attrs.field(converter=strings)


@event()
@attrs.frozen(repr=False, eq=False)
class HpChanged(Event):
    """A member's hit points changed (damage, healing or the game master's hand)."""

    name: str
    hp: int
    change: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class FatigueChanged(Event):
    """A member stepped along the procedure's fatigue ladder."""

    name: str
    level: int
    label: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ConditionGained(Event):
    """A member gained a condition (exhausted, surprised...)."""

    name: str
    condition: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ConditionLost(Event):
    """A member lost a condition."""

    name: str
    condition: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ConditionTimed(Event):
    """A member's condition was given a duration, from the turn it was given in (``turn``):
    it lasts ``turns`` more turns, or until the next rest after that turn (``until`` is
    "rest"). It then ends by itself; given again, the new duration replaces the old.
    """

    name: str
    condition: str
    turn: int
    turns: int = 0
    until: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class TrackChanged(Event):
    """A number kept per member (resilience hours, endurance) changed."""

    name: str
    track: str
    value: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ResourceChanged(Event):
    """A resource (rations, oil flasks) was used, found or counted anew.

    ``name`` is the member who holds it, or "" for a resource the party keeps as one stock.
    """

    name: str
    resource: str
    value: int
    change: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class ResourceShort(Event):
    """A member (or, with ``name`` "", the party) had too few of a resource to use.

    ``wanted`` is how many were missing; what the procedure does then follows as events.
    """

    name: str
    resource: str
    wanted: int
    reason: str
