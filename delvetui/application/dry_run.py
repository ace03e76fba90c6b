"""Would the core take this command? Asked before the table asks the game master anything.

A key or a picker makes a command and the table then asks for what it needs (who does it,
a choice of the players', a die with table dice on). A command the core refuses anyway
(a search in total darkness, an activity while an encounter is under way, a member who
already took their action) must be refused first, with the core's own sentence, not after
the questions. So the command is decided here on a copy of the state, through the same
``decide`` the expedition runs, and nothing is written.
"""

from __future__ import annotations

import random

from delvetui.core import commands as cmd
from delvetui.core.decide import decide
from delvetui.core.state import State
from delvetui.errors import DelveError, InputNeeded, RollNeeded
from delvetui.procedure.model import Procedure

#: Inputs filled in on the way before the dry run gives up (a guard against a loop).
MAX_FILLED = 20


def refusal(state: State, procedure: Procedure, command: cmd.Command) -> str | None:
    """The core's sentence refusing the command now, or None when it may go through.

    The rolls are not made (as with table dice, a roll the command needs ends the look:
    the refusals come before the rolls). An input the table would ask for is filled in
    with its default or its first choice, one the procedure lists, so a refusal that comes
    after the inputs (a member's share of the turn) is found too; an input with no listed
    value (a number) ends the look as well.
    """
    current = cmd.parse(cmd.spoken(command))
    for _ in range(MAX_FILLED):
        try:
            decide(state, procedure, current, rng=random.Random(0), ask=True, ask_inputs=True)
        except InputNeeded as need:
            listed = need.choices or tuple(c for c in need.expression.split("|") if c != "N")
            value = need.default if need.default is not None else next(iter(listed), None)
            if value is None:
                return None
            try:
                current = cmd.with_value(current, need.key, value)
            except DelveError:
                return None
        except RollNeeded:
            return None
        except DelveError as error:
            return error.message
        else:
            return None
    return None
