"""Completion for the command line: what could come next, from the language and the state.

Pure functions over the command language's shape (``USAGE``), the procedure and the state;
Tab on the command line puts the completion on the line (or as much as the choices
share, listing them): what the line shows is what Enter runs.
"""

from __future__ import annotations

import shlex

from delvetui.core.commands import USAGE
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import unseen_in

DICE = ("d6", "d20", "2d6", "d10", "d8", "d4", "d12", "d100")


def _quote(word: str) -> str:
    return shlex.quote(word) if any(c.isspace() for c in word) else word


def options(words: list[str], state: State, procedure: Procedure) -> list[str]:
    """The words that can follow these words."""
    # A name that cannot be typed (a file's, with control characters) is not offered.
    names = [_quote(m.name) for m in state.party if unseen_in(m.name) is None]
    if not words:
        return list(USAGE)
    verb, rest = words[0].lower(), words[1:]
    lights = [light.id for light in state.lights if not light.spent]
    if verb == "turn":
        if not rest:
            return [*procedure.actions, *_turn_keys(procedure, None)]
        return _turn_keys(procedure, rest[0].lower())
    if verb == "light":
        if not rest:
            return ["add", "on", "off", "give", "set", "refuel"]
        sub = rest[0].lower()
        if sub == "add":
            return list(procedure.lights) if len(rest) == 1 else ["count=", "carrier=", "lit"]
        if len(rest) == 1:
            if sub == "on":
                return [light.id for light in state.lights if not light.lit and not light.spent]
            if sub == "off":
                return [light.id for light in state.lit_lights]
            return lights
        if sub == "give" and len(rest) == 2:
            return [*names, "nobody"]
        if sub == "set":
            return ["turns=", "minutes="]
        if sub == "on":
            return ["carrier="]
        return []
    if verb == "pc":
        if not rest:
            return ["add", "remove", *names]
        sub = rest[0].lower()
        if sub == "remove":
            return names if len(rest) == 1 else []
        if sub == "add":
            abilities = [f"{ability.lower()}=" for ability in procedure.party.abilities]
            return ["hp=", "max=", *abilities] if len(rest) >= 2 else []
        member = state.member(rest[0].strip("'\""))
        lose = [f"-{c}" for c in member.conditions] if member else []
        return ["hp=", "max=", "fatigue=", "+", *lose]
    if verb == "do":
        return list(procedure.activities) if not rest else ["by="]
    if verb == "enter":
        return list(procedure.turn_types) if not rest else []
    if verb == "session":
        return ["start", "end"] if not rest else []
    if verb == "time":
        return ["set", "roll"] if not rest else []
    if verb == "roll":
        return list(DICE) if not rest else []
    return []


def _turn_keys(procedure: Procedure, action_name: str | None) -> list[str]:
    keys = [f"{rule_id}=" for rule_id in procedure.rolls]
    action = procedure.actions.get(action_name or "")
    if action is not None:
        keys.extend(f"{key}=" for key in action.inputs)
    keys.append("by=")
    if len(procedure.movement.speeds) > 1:
        keys.append("speed=")
    return keys


def values(key: str, words: list[str], state: State, procedure: Procedure) -> list[str]:
    """The values a KEY= word can take, where they are known."""
    key = key.lower()
    if key in ("carrier", "by"):
        return [_quote(member.name) for member in state.party]
    if key == "speed":
        return list(procedure.movement.speeds)
    action = procedure.actions.get(words[1].lower()) if len(words) > 1 else None
    if action is not None and key in action.inputs:
        return list(action.inputs[key].values)
    return []


def completions(text: str, state: State, procedure: Procedure) -> list[str]:
    """Whole-line completions of the text typed so far, best first."""
    if not text.strip():
        return []
    words = text.split(" ")
    current, before = words[-1], [word for word in words[:-1] if word]
    if "=" in current:
        key = current.partition("=")[0]
        found = [f"{key}={value}" for value in values(key, before, state, procedure)]
        found = [item for item in found if item.casefold().startswith(current.casefold())]
    else:
        typed = current.strip("'\"").casefold()
        found = [
            item
            for item in options(before, state, procedure)
            if item.strip("'\"").casefold().startswith(typed)
        ]
    head = " ".join(words[:-1])
    return [f"{head} {item}" if head else item for item in found]
