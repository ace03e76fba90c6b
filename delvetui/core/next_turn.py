"""The next turn before it is taken: the action it takes, the movement mode the party goes
on with, how far it goes, and the roll every turn of its kind makes.

Pure: the state and the procedure in, names and words out. The table's action pane, its
``n`` key, the action chooser and the hazard table read these; nothing here changes an
expedition (``core/turn.py`` takes the turn).
"""

from __future__ import annotations

from delvetui.core.state import State
from delvetui.core.turn import preview
from delvetui.procedure.model import Action, Procedure, RollRule


def current_action(state: State, procedure: Procedure) -> tuple[str, Action | None]:
    """The action a bare 'turn' takes: the last one taken when it persists, else the last
    movement mode, else the procedure's default (each of this kind of turn: a dungeon
    action is not repeated in the wilderness)."""
    name = procedure.bare_action(state.action, state.turn_type, state.moving)
    return name, procedure.actions.get(name)


def next_action(state: State, procedure: Procedure) -> tuple[str, str]:
    """The action ``n`` (a bare turn) takes, and why when it is not the last one taken:
    after a one-off action (a search, a rest) the party goes on with its movement mode."""
    name, _ = current_action(state, procedure)
    last = procedure.actions.get(state.action or "")
    if last is None or name == state.action or not last.taken_in(state.turn_type):
        return name, ""
    return name, f"after {last.label.lower()}"


def distance_text(state: State, procedure: Procedure, name: str, speed: str) -> str:
    """How far the action goes in a turn at this speed in this light ('' when it stays)."""
    return preview(state, procedure, name, speed).distance


def hazard_rule(procedure: Procedure, turn_type: str) -> tuple[str, RollRule] | None:
    """The roll made every turn of this type: the hazard roll (marked ``hazard = true``, or
    called 'hazard') made in it, else the first rule made at the start or end of a turn."""
    rules = [
        (rule_id, rule)
        for rule_id, rule in procedure.rolls.items()
        if (not rule.turn_types or turn_type in rule.turn_types)
        and (not rule.tables or rule.table_for(turn_type))
    ]
    for rule_id, rule in rules:
        if procedure.is_hazard(rule_id):
            return rule_id, rule
    for rule_id, rule in rules:
        if rule.when != "action":
            return rule_id, rule
    return None
