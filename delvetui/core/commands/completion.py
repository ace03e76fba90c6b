"""Completion for the command line: what could come next, from the language and the state.

Pure functions over the command language's grammar, the procedure and the state: the
grammar says which word can come next, and the word's kind (``kinds.KINDS``) what can stand
for it now; Tab on the command line puts the completion on the line (or as much as the
choices share, listing them): what the line shows is what Enter runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from delvetui.core.commands import kinds
from delvetui.core.commands.forms import Form, Verb, Word
from delvetui.core.commands.grammar import GRAMMAR, VERBS
from delvetui.core.state import State
from delvetui.procedure.model import Procedure


def _word_choices(word: Word, asked: kinds.Asked) -> list[str]:
    if word.kind == "word" or word.kind == "flag":
        return [word.shown]
    if word.is_key and word.keys:
        return [f"{key}=" for key in word.keys]
    return kinds.KINDS[word.kind].offers(asked)


def _next(
    verb: Verb, words: Sequence[Word], rest: list[str], state: State, procedure: Procedure
) -> list[str]:
    """What can follow the typed words in a form, given its words not yet matched."""
    fixed = [word for word in words if word.is_fixed]
    loose = [word for word in words if not word.is_fixed]
    asked = _asked(verb, words, rest, state, procedure)
    found: list[str] = []
    placed = _placed(rest, loose)
    if len(placed) < len(fixed):
        word = fixed[len(placed)]
        found.extend(_word_choices(word, asked))
        if not word.optional:
            return found
    for word in loose:
        found.extend(_word_choices(word, asked))
    return list(dict.fromkeys(found))


def _asked(
    verb: Verb,
    words: Sequence[Word],
    rest: list[str],
    state: State,
    procedure: Procedure,
    key: str = "",
) -> kinds.Asked:
    """What a kind is asked with: the values typed for the form's fixed words, by kind."""
    fixed = [word for word in words if word.is_fixed]
    placed = _placed(rest, [word for word in words if not word.is_fixed])
    typed = {word.kind: value for word, value in zip(fixed, placed, strict=False)}
    return kinds.Asked(state, procedure, verb.name, typed, key)


def _placed(rest: list[str], loose: list[Word]) -> list[str]:
    """The typed words that stand by their place (neither a KEY=VALUE nor a flag)."""
    return [word for word in rest if "=" not in word and not _is_flag(word, loose)]


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
    named = [f for f in verb.forms if f.sub is not None]
    chosen = [f for f in named if f.sub == first]
    return chosen or [f for f in verb.forms if f not in named]


def _after_sub(form: Form, rest: list[str]) -> tuple[Sequence[Word], list[str]]:
    """The form's words and the typed ones after its sub-command, once one is typed."""
    if rest and form.sub is not None:
        return form.words[1:], rest[1:]
    return form.words, rest


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
        if not rest and form.sub is not None:
            found.append(form.sub)
            continue
        found.extend(_next(verb, *_after_sub(form, rest), state, procedure))
    # Sub-commands first (add, remove), then names and keys.
    subs = [word for word in found if any(word == form.sub for form in verb.forms)]
    return list(dict.fromkeys([*subs, *found]))


def values(key: str, words: list[str], state: State, procedure: Procedure) -> list[str]:
    """The values a KEY= word can take, where they are known: those of the kind of the word
    that names the key, else those a family of keys offers for it (an input's values)."""
    key = key.lower()
    verb = VERBS.get(words[0].lower()) if words else None
    if verb is None:
        return []
    found: list[str] = []
    for form in _forms(verb, words[1:]):
        own, rest = _after_sub(form, words[1:])
        asked = _asked(verb, own, rest, state, procedure, key)
        named = [word for word in own if word.is_key and key in word.keys]
        if named:
            found.extend(kinds.KINDS[named[0].value].offers(asked))
            continue
        for word in own:
            if word.is_key and not word.keys:
                found.extend(kinds.KINDS[word.kind].values(asked))
    return list(dict.fromkeys(found))


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
