"""The clock: the game master's timers (started, changed, counted down, warned, ended), the
table's real-time clock paused and resumed, and the clock set by hand.
"""

import attrs

from delvetui.core.events.base import Event, event, strings

__all__ = [
    "ClockSet",
    "RealTimePaused",
    "TimerCancelled",
    "TimerChanged",
    "TimerEnded",
    "TimerStarted",
    "TimerWarned",
    "TimersCounted",
    "TimersRealTimePassed",
]


@event()
@attrs.frozen(repr=False, eq=False)
class TimerStarted(Event):
    """The game master started a timer: ``left`` turns (``unit`` "turns"), minutes
    ("minutes", or "hours" shown in hours) or real seconds ("real") until it runs out."""

    name: str
    unit: str
    left: int
    label: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class TimerChanged(Event):
    """A running timer was set to another length (``timer set bless 3t``)."""

    name: str
    unit: str
    left: int


@event()
@attrs.frozen(repr=False, eq=False)
class TimerCancelled(Event):
    """The game master stopped a timer before it ran out."""

    name: str


@event()
@attrs.frozen(repr=False, eq=False)
class TimersCounted(Event):
    """A turn ended for these running timers: a turn timer loses one turn, a timer in
    minutes or hours loses the turn's ``minutes``."""

    names: tuple[str, ...] = attrs.field(converter=strings)
    minutes: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class TimersRealTimePassed(Event):
    """Real seconds passed at the table for these timers that run in real time."""

    names: tuple[str, ...] = attrs.field(converter=strings)
    seconds: int = 0


@event()
@attrs.frozen(repr=False, eq=False)
class TimerWarned(Event):
    """A timer runs out in the next turn (a real-time one within a minute): the game
    master was warned (``left`` as kept)."""

    name: str
    left: int


@event()
@attrs.frozen(repr=False, eq=False)
class TimerEnded(Event):
    """A timer ran out at the end of a turn and was taken off the table."""

    name: str


@event()
@attrs.frozen(repr=False, eq=False)
class RealTimePaused(Event):
    """The table's real-time clock was paused (every real-time light stops) or resumed."""

    paused: bool
    reason: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class ClockSet(Event):
    """The game master set the clock (minutes since the start of day 1)."""

    clock: int
    reason: str = ""
