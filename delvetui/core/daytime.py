"""The time of day as conditions read it: the named part of the day a turn begins in, and
whether it is the first turn of the day (or of a part of it).

A turn is read at the clock it begins at (the clock moves on when it ends). The parts are
the procedure's four ``[time] quarters`` (00–06, 06–12, 12–18, 18–24); quarters that share
a name in a row are one part, so ``["night", "morning", "afternoon", "night"]`` makes a
night from 18:00 to 06:00.
"""

from __future__ import annotations

from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.procedure.model import Procedure

QUARTER_MINUTES = MINUTES_PER_DAY // 4


def part_of_day(procedure: Procedure, clock: int) -> str:
    """The name of the part of the day the clock is in."""
    return procedure.time.quarters[clock % MINUTES_PER_DAY // QUARTER_MINUTES]


def into_part(procedure: Procedure, clock: int) -> int:
    """Minutes since the part of the day the clock is in began (quarters of one name in a
    row are one part)."""
    quarters = procedure.time.quarters
    minute = clock % MINUTES_PER_DAY
    index = minute // QUARTER_MINUTES
    since = minute % QUARTER_MINUTES
    for back in range(1, len(quarters)):
        if quarters[(index - back) % len(quarters)] != quarters[index]:
            break
        since += QUARTER_MINUTES
    return since


def first_turn(procedure: Procedure, state: State, *, of_part: bool) -> bool:
    """True when the turn that begins at the state's clock is the first to begin in its day
    (from midnight), or in its part of the day with ``of_part``: it begins less than one
    turn's length after the day (or the part) began."""
    since = into_part(procedure, state.clock) if of_part else state.clock % MINUTES_PER_DAY
    return since < procedure.turn_minutes(state.turn_type)
