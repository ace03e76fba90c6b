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
    """The action a bare 'turn' repeats: the last one taken, or the procedure's default
    (each of this kind of turn: a dungeon action is not repeated in the wilderness)."""
    name = procedure.bare_action(state.action, state.turn_type)
    return name, procedure.actions.get(name)


def one_turn(name: str, action: Action | None) -> bool:
    """True for the actions ``s`` and ``r`` take: a search or a rest lasts one turn."""
    return action is not None and (name == "search" or action.kind == "rest")


def next_action(state: State, procedure: Procedure, moving: str = "") -> tuple[str, str]:
    """The action ``n`` takes, and why when it is not the last one taken.

    After a search or a rest turn the party goes on with its last movement mode
    (``moving``, else the procedure's default): a search or a rest takes one turn.
    """
    name, action = current_action(state, procedure)
    if not one_turn(name, action):
        return name, ""
    here = procedure.actions_in(state.turn_type)
    going = moving if moving in here else procedure.bare_action("", state.turn_type)
    if going == name:
        return name, ""
    label = action.label.lower() if action is not None else name
    return going, f"after {label}"


def moving_of(procedure: Procedure, state: State, moving: str) -> str:
    """The last movement mode, given the state after a command and the one before it."""
    action = procedure.actions.get(state.action or "")
    return state.action if action is not None and action.kind == "move" and state.action else moving


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
