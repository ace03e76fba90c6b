"""Which of the table's keys a procedure has a use for in a kind of turn.

The search key takes a turn of the search action, the rest key one of the rest; the
activity key opens the characters' activities. A procedure without them (Trespasser's
search is a character's activity, not the party's turn) leaves the key without a use: the
footer and the help leave it out, and the key, pressed, says why.
"""

from __future__ import annotations

from delvetui.procedure.model import Procedure


def rest_action(procedure: Procedure, turn_type: str) -> str | None:
    """The action that rests in this kind of turn: the one the procedure's rest names, else
    the first rest action."""
    here = procedure.actions_in(turn_type)
    if procedure.rest is not None and procedure.rest.action in here:
        return procedure.rest.action
    return next((name for name, a in here.items() if a.kind == "rest"), None)


def unused_keys(procedure: Procedure, turn_type: str) -> frozenset[str]:
    """The actions of the table's keys the procedure has no use for in this kind of turn."""
    unused: set[str] = set()
    if "search" not in procedure.actions_in(turn_type):
        unused.add("search")
    if rest_action(procedure, turn_type) is None:
        unused.add("rest")
    if not procedure.activities_in(turn_type):
        unused.add("activity")
    return frozenset(unused)
