"""Lights: sources added, lit, put out, dimmed and flickering, burning by the clock or in
real time, handed over and struck, their usage dice, their time set and their refuelling.
"""

import attrs

from delvetui.core.events.base import Event, event, strings

__all__ = [
    "LightAdded",
    "LightDimmed",
    "LightFlickered",
    "LightHandedOver",
    "LightKindDeclared",
    "LightLit",
    "LightPutOut",
    "LightRealTimeSet",
    "LightRenewed",
    "LightStruck",
    "LightTimerSet",
    "LightsBurned",
    "RealTimePassed",
    "UsageDieSet",
    "UsageDieStepped",
]


@event()
@attrs.frozen(repr=False, eq=False)
class LightAdded(Event):
    """Light sources joined the inventory: one, or a stack of the same kind."""

    id: str
    kind: str
    count: int
    carrier: str | None
    minutes: int | None
    brightness: str
    usage_die: int | None = None


@event()
@attrs.frozen(repr=False, eq=False)
class LightKindDeclared(Event):
    """The game master declared a kind of light the procedure lacks (``light kind``): from
    here on it is a light of the procedure in force, carried to the next expedition.

    At most one of ``turns``, ``minutes``, ``usage_die`` and ``real_minutes`` is given;
    none: it burns until put out (a glowing sword).
    """

    id: str
    label: str
    brightness: str
    turns: int | None = None
    minutes: int | None = None
    usage_die: int | None = None
    real_minutes: int | None = None


@event()
@attrs.frozen(repr=False, eq=False)
class LightLit(Event):
    """A light was lit; taken from a stack, it becomes a light of its own with a new id."""

    id: str
    source: str
    carrier: str | None


@event()
@attrs.frozen(repr=False, eq=False)
class LightPutOut(Event):
    """A light went out: put out by hand, blown out, or burnt up (spent)."""

    id: str
    reason: str
    spent: bool


@event()
@attrs.frozen(repr=False, eq=False)
class LightDimmed(Event):
    """A bright light dimmed."""

    id: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class LightFlickered(Event):
    """A light just lit flickered ominously at a result that would have put it out."""

    id: str
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class LightsBurned(Event):
    """Time passed for the lit lights that burn by the clock."""

    ids: tuple[str, ...] = attrs.field(converter=strings)
    minutes: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class LightTimerSet(Event):
    """A light's time left was set (shortened, refuelled, corrected)."""

    id: str
    minutes: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class LightHandedOver(Event):
    """A light changed hands."""

    id: str
    carrier: str | None


@event()
@attrs.frozen(repr=False, eq=False)
class LightStruck(Event):
    """A strike counted against a light that goes out on the Nth."""

    id: str
    strikes: int


@event()
@attrs.frozen(repr=False, eq=False)
class UsageDieStepped(Event):
    """A light's usage die stepped down (d6 to d4); none left means spent."""

    id: str
    die: int | None


@event()
@attrs.frozen(repr=False, eq=False)
class UsageDieSet(Event):
    """A light's usage die was set (corrected by the game master): d4 to d20."""

    id: str
    die: int
    reason: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class LightRealTimeSet(Event):
    """A light was set to burn in real time with this many seconds left (None: by turns again)."""

    id: str
    seconds: int | None
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class RealTimePassed(Event):
    """Real seconds passed at the table for these lit lights that burn in real time."""

    ids: tuple[str, ...] = attrs.field(converter=strings)
    seconds: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class LightRenewed(Event):
    """Refuelling renewed a light: its usage die is whole again and its strikes are gone."""

    id: str
    usage_die: int | None
    strikes: int = 0
    reason: str = ""
