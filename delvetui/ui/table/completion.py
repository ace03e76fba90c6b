"""Completion for the command line: what could come next, from the language and the state.

Pure functions over the command language's grammar (the kind of each word), the procedure
and the state; Tab on the command line puts the completion on the line (or as much as the
choices share, listing them): what the line shows is what Enter runs.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from delvetui.core.areas import areas
from delvetui.core.commands import GRAMMAR, PLAYERS_SHOW, VERBS, Form, Verb, Word
from delvetui.core.commands.readers import USAGE_DICE
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.text import unseen_in

DICE = ("d6", "d20", "2d6", "d10", "d8", "d4", "d12", "d100")


def _quote(word: str) -> str:
    return shlex.quote(word) if any(c.isspace() for c in word) else word


def _choices(
    kind: str, typed: dict[str, str], verb: str, state: State, procedure: Procedure
) -> list[str]:
    """The words of a kind that the state and the procedure know of."""
    # A name that cannot be typed (a file's, with control characters) is not offered.
    names = [_quote(m.name) for m in state.party if unseen_in(m.name) is None]
    doing = procedure.actions if verb == "turn" else procedure.activities
    action = doing.get(typed.get("action", typed.get("activity", "")).lower())
    match kind:
        case "member":
            return names
        case "carrier":
            return [*names, "nobody"]
        case "light":
            return [light.id for light in state.lights if not light.spent]
        case "unlit":
            return [light.id for light in state.lights if not light.lit and not light.spent]
        case "lit":
            return [light.id for light in state.lit_lights]
        case "light-kind":
            return list(procedure.lights)
        case "action":
            return list(procedure.actions_in(state.turn_type))
        case "activity":
            return list(procedure.activities_in(state.turn_type))
        case "turn-type":
            return list(procedure.turn_types)
        case "counter":
            return list(procedure.counters)
        case "counter-value":
            found = procedure.counters.get(typed.get("counter", "").lower())
            return list(found.levels) if found is not None else []
        case "area":
            return list(areas(state))
        case "timer":
            return [_quote(timer.name) for timer in state.timers]
        case "new-timer":
            return [name for name in procedure.timers if state.timer(name) is None]
        case "span":
            return ["6t", "10m", "1h", "10rm"]
        case "shown":
            return list(PLAYERS_SHOW)
        case "dice":
            return list(DICE)
        case "gain":
            return ["+"]
        case "lose":
            member = state.member(typed.get("member", "").strip("'\""))
            return [f"-{c}" for c in member.conditions] if member else []
        case "ability":
            return [f"{ability.lower()}=" for ability in procedure.party.abilities]
        case "resource":
            per = "party" if verb == "party" else "member"
            return [f"{key}=" for key, r in procedure.resources.items() if r.per == per]
        case "roll":
            rolls = procedure.rolls if verb == "turn" else (action.rolls if action else ())
            return [f"{rule_id}=" for rule_id in rolls]
        case "input":
            keys = [f"{key}=" for key in action.inputs] if action is not None else []
            if verb == "turn":
                keys.append("by=")
                if len(procedure.movement.speeds) > 1:
                    keys.append("speed=")
            return keys
    return []


def _word_choices(
    word: Word, typed: dict[str, str], verb: str, state: State, procedure: Procedure
) -> list[str]:
    if word.kind == "word" or word.kind == "flag":
        return [word.shown]
    if word.is_key and word.keys:
        return [f"{key}=" for key in word.keys]
    return _choices(word.kind, typed, verb, state, procedure)


def _next(
    verb: Verb, words: Sequence[Word], rest: list[str], state: State, procedure: Procedure
) -> list[str]:
    """What can follow the typed words in a form, given its words not yet matched."""
    fixed = [word for word in words if word.is_fixed]
    loose = [word for word in words if not word.is_fixed]
    placed = [word for word in rest if "=" not in word and not _is_flag(word, loose)]
    typed: dict[str, str] = {w.kind: value for w, value in zip(fixed, placed, strict=False)}
    found: list[str] = []
    if len(placed) < len(fixed):
        word = fixed[len(placed)]
        found.extend(_word_choices(word, typed, verb.name, state, procedure))
        if not word.optional:
            return found
    for word in loose:
        found.extend(_word_choices(word, typed, verb.name, state, procedure))
    return list(dict.fromkeys(found))


def _is_flag(word: str, loose: list[Word]) -> bool:
    for flag in loose:
        if flag.kind == "flag" and word.lower() == flag.shown:
            return True
        if flag.kind == "gain" and word.startswith("+"):
            return True
        if flag.kind == "lose" and word.startswith("-"):
            return True
    return False


def _forms(verb: Verb, rest: list[str]) -> list[Form]:
    """The forms the typed words can still be: those a sub-command names, else the others."""
    if not rest:
        return list(verb.forms)
    first = rest[0].lower()
    named = [f for f in verb.forms if f.words and f.words[0].kind == "word"]
    chosen = [f for f in named if f.words[0].shown == first]
    return chosen or [f for f in verb.forms if f not in named]


def options(words: list[str], state: State, procedure: Procedure) -> list[str]:
    """The words that can follow these words, read from the grammar."""
    if not words:
        return [verb.name for verb in GRAMMAR]
    verb = VERBS.get(words[0].lower())
    if verb is None:
        return []
    rest = words[1:]
    found: list[str] = []
    for form in _forms(verb, rest):
        named = bool(rest) and bool(form.words) and form.words[0].kind == "word"
        if not rest and form.words and form.words[0].kind == "word":
            found.append(form.words[0].shown)
            continue
        if named:
            found.extend(_next(verb, form.words[1:], rest[1:], state, procedure))
        else:
            found.extend(_next(verb, form.words, rest, state, procedure))
    # Sub-commands first (add, remove), then names and keys.
    subs = [
        w
        for w in found
        if any(w == f.words[0].shown for f in verb.forms if f.words and f.words[0].kind == "word")
    ]
    return list(dict.fromkeys([*subs, *found]))


def _value_kind(key: str, words: list[str]) -> str | None:
    verb = VERBS.get(words[0].lower()) if words else None
    if verb is None:
        return None
    for form in _forms(verb, words[1:]):
        for word in form.words:
            if word.is_key and key in word.keys:
                return word.value
    return None


def values(key: str, words: list[str], state: State, procedure: Procedure) -> list[str]:
    """The values a KEY= word can take, where they are known."""
    key = key.lower()
    kind = _value_kind(key, words)
    if kind == "member" or key == "by":
        return [_quote(member.name) for member in state.party]
    if kind == "usage-die":
        return [f"d{size}" for size in reversed(USAGE_DICE)]
    if key == "speed":
        return list(procedure.movement.speeds)
    doing = procedure.activities if words and words[0].lower() == "do" else procedure.actions
    action = doing.get(words[1].lower()) if len(words) > 1 else None
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
