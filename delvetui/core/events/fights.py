"""Fights: the opposition joined, hurt, down, fled or taken off; who the encounter surprised;
a fight begun, its rounds and who acted first; the foes' morale checked; the fight ended;
the party fled, and got away or was caught.
"""

import attrs

from delvetui.core.events.base import Event, event, strings

__all__ = [
    "FightBegan",
    "FightEnded",
    "FoeHitPointsChanged",
    "FoeJoined",
    "FoeRemoved",
    "FoeStateChanged",
    "MoraleChecked",
    "PartyFled",
    "RoundBegan",
    "SideSurprised",
]


@event()
@attrs.frozen(repr=False, eq=False)
class SideSurprised(Event):
    """The encounter surprised a side ("party" or "foes"): it loses the fight's first round
    (both surprised, neither gains)."""

    side: str


@event()
@attrs.frozen(repr=False, eq=False)
class FoeJoined(Event):
    """A foe joined the encounter: its name (goblin2), what it is (goblin), its hit points,
    its morale score (None: the game's default) and the game master's note."""

    name: str
    kind: str
    hp: int
    max_hp: int
    morale: int | None = None
    note: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class FoeHitPointsChanged(Event):
    """A foe's hit points changed by ``change`` (damage below 0, healing above) to ``hp``."""

    name: str
    hp: int
    change: int


@event()
@attrs.frozen(repr=False, eq=False)
class FoeStateChanged(Event):
    """A foe went down, fled, surrendered or came back into the fight (``state``), and why
    ("0 HP", "morale", "game master")."""

    name: str
    state: str
    reason: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class FoeRemoved(Event):
    """The game master took a foe out of the encounter (it was never there)."""

    name: str


@event()
@attrs.frozen(repr=False, eq=False)
class FightBegan(Event):
    """The fight began, the sides the encounter surprised losing its first round."""

    surprised: tuple[str, ...] = attrs.field(default=(), converter=strings)


@event()
@attrs.frozen(repr=False, eq=False)
class RoundBegan(Event):
    """A round of the fight began: its number, who acts first ("party" or "foes"), the
    initiative totals (None where nothing was rolled), the side that loses the round
    (surprised, '' for none) and, where the characters go one by one, who acts before the
    foes and who after (a character who loses the round is in neither)."""

    number: int
    first: str
    party_roll: int | None = None
    foes_roll: int | None = None
    lost: str = ""
    before: tuple[str, ...] = attrs.field(default=(), converter=strings)
    after: tuple[str, ...] = attrs.field(default=(), converter=strings)
    #: The characters who lose this round (a failed save to act in the first round).
    idle: tuple[str, ...] = attrs.field(default=(), converter=strings)
    #: What the initiative rule was in words ("a d6 each side, the higher first").
    how: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class MoraleChecked(Event):
    """A morale check: the foes (or the retainer, ``member``) that made it, what set it off
    (``trigger``: a rule's name, '' when the game master called it), the roll's total, the
    number it was read against (each foe's own score stands in the state) and who failed."""

    names: tuple[str, ...] = attrs.field(converter=strings)
    trigger: str
    total: int
    failed: tuple[str, ...] = attrs.field(default=(), converter=strings)
    member: str = ""
    #: What the roll had to do, in words ("at most their morale", "15 or more with it").
    against: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class FightEnded(Event):
    """The fight ended after ``rounds`` rounds, with the game master's words."""

    rounds: int
    words: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class PartyFled(Event):
    """The party fled the encounter: it got ``away`` (the encounter, and any fight, is
    over) or was caught (a pursuit); ``how`` says what decided it, ``caught`` names the
    characters who failed their part of it, ``rounds`` the fight's rounds when one was
    under way."""

    away: bool
    how: str
    words: str = ""
    rounds: int = 0
    caught: tuple[str, ...] = attrs.field(default=(), converter=strings)
