"""Turns and what happens in them: a turn begun and ended, another kind of turn, dice rolled
and the results read from them, checks, counters, effects deferred to the next turn, rests,
the procedure's own lines and the activities done within a turn.
"""

from typing import TYPE_CHECKING, Any

import attrs

from delvetui.core.events.base import Event, event, ints, strings, upcaster

if TYPE_CHECKING:
    from delvetui.dice import Roll

__all__ = [
    "ActivityDone",
    "CheckMade",
    "CheckMadeUnder",
    "CounterChanged",
    "DeferredResolved",
    "DiceRolled",
    "EffectDeferred",
    "HazardRead",
    "IntervalChanged",
    "Logged",
    "RestBroken",
    "RestSkipped",
    "ResultRead",
    "TurnEnded",
    "TurnStarted",
    "TurnTypeChanged",
]


@event(2)
@attrs.frozen(repr=False, eq=False)
class TurnStarted(Event):
    """A turn began with an action.

    Version 2 added ``persists``: the action goes on with the next bare turn (a movement
    mode), or takes this turn only (a search): the bare turn after it goes back to the last
    one that persists. Version 1 repeated every action.
    """

    number: int
    action: str
    turn_type: str
    resting: bool
    distance: str = ""
    flags: tuple[str, ...] = attrs.field(default=(), converter=strings)
    persists: bool = True


@event()
@attrs.frozen(repr=False, eq=False)
class TurnEnded(Event):
    """A turn ended and its minutes passed on the clock."""

    number: int
    minutes: int


@event()
@attrs.frozen(repr=False, eq=False)
class TurnTypeChanged(Event):
    """The party moved to another kind of turn (dungeon, wilderness, haven)."""

    turn_type: str


@event()
@attrs.frozen(repr=False, eq=False)
class DiceRolled(Event):
    """Dice were rolled (or typed in from the table); every face is kept."""

    key: str
    purpose: str
    expression: str
    faces: tuple[int, ...] = attrs.field(converter=ints)
    kept: tuple[int, ...] = attrs.field(converter=ints)
    modifier: int = 0
    total: int = 0
    hit: bool | None = None
    entered: bool = False

    @classmethod
    def of(cls, key: str, purpose: str, result: "Roll") -> "DiceRolled":
        """The event for a roll (or a typed result) made under ``key`` for ``purpose``."""
        return cls(
            key=key,
            purpose=purpose,
            expression=result.expression,
            faces=result.faces,
            kept=result.kept,
            modifier=result.modifier,
            total=result.total,
            hit=result.hit,
            entered=result.entered,
        )


@event()
@attrs.frozen(repr=False, eq=False)
class ResultRead(Event):
    """A roll was read on a table (or against a number) and gave this result."""

    key: str
    table: str
    total: int
    label: str
    text: str
    row: int = -1
    ignored: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class HazardRead(ResultRead):
    """The per-turn hazard roll was read: a ResultRead that is also the turn's last hazard.

    A roll rule called ``hazard`` has always been the hazard roll and is still written as a
    plain ResultRead; a rule marked ``hazard = true`` under another name is written as this,
    so replay knows it is the hazard roll without the procedure.
    """


@event()
@attrs.frozen(repr=False, eq=False)
class CheckMade(Event):
    """A check or save was made against a difficulty."""

    id: str
    name: str
    label: str
    dc: int
    total: int
    success: bool


@event()
@attrs.frozen(repr=False, eq=False)
class CheckMadeUnder(Event):
    """A check rolled under an ability score was made: a success is a die above ``above``
    (the difficulty) and at most the member's ``ability`` score, ``score``."""

    id: str
    name: str
    label: str
    ability: str
    score: int
    above: int
    total: int
    success: bool

    def problem(self) -> str | None:
        """Why no roll could have given this verdict (the audit's check), or None."""
        if self.success == (self.above < self.total <= self.score):
            return None
        return f"{self.total} above {self.above} and at most {self.score} is not {self.success}"


@event()
@attrs.frozen(repr=False, eq=False)
class CounterChanged(Event):
    """A counter such as the alarm changed."""

    counter: str
    value: int
    change: int
    reason: str


@event()
@attrs.frozen(repr=False, eq=False)
class IntervalChanged(Event):
    """A roll rule's interval changed with the state (every 2 turns while the danger is
    risky): ``every`` is the new interval, ``choice`` the index of the rule's interval in
    force (-1: its own ``every``), and its count starts again after ``since`` turns."""

    roll: str
    choice: int
    every: int
    since: int


@event()
@attrs.frozen(repr=False, eq=False)
class EffectDeferred(Event):
    """An effect waits for the next turn, when resting cancels it."""

    ref: str
    label: str
    member: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class DeferredResolved(Event):
    """A deferred effect was applied (applied=True) or cancelled by rest."""

    ref: str
    label: str
    applied: bool


@event(2)
@attrs.frozen(repr=False, eq=False)
class RestBroken(Event):
    """An encounter interrupted the party's rest: the rest in a row starts again.

    Version 2 added ``since_rest``: the turns the party has now gone without a rest, this
    one counted, since an interrupted rest is no rest (it is no longer resting, and the
    ``[rest]`` count runs on). None (version 1) left the count and the rest as they were.
    """

    reason: str
    since_rest: int | None = None


@event()
@attrs.frozen(repr=False, eq=False)
class RestSkipped(Event):
    """The party went on without the rest the procedure asks for."""

    turns: int


@event()
@attrs.frozen(repr=False, eq=False)
class Logged(Event):
    """A line the procedure writes in the log."""

    text: str
    label: str = ""


@event()
@attrs.frozen(repr=False, eq=False)
class ActivityDone(Event):
    """Someone did an activity within the turn (``do ACTIVITY [by=NAME]``).

    ``by`` is the member who did it ('' when no one was named): a procedure that gives each
    member one activity a turn counts them from it.
    """

    activity: str
    text: str
    label: str = ""
    by: str = ""


# Upcasters: older payloads as the next version writes them (see ``base.upcaster``).


@upcaster("TurnStarted", 1)
def _turn_started_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 repeated every action with a bare turn: each went on.
    return {"persists": True, **payload}


@upcaster("RestBroken", 1)
def _rest_broken_1(payload: dict[str, Any]) -> dict[str, Any]:
    # Version 1 only started the rest in a row again: the count stayed as the turn left it.
    return {"since_rest": None, **payload}
