"""Advantage and disadvantage on a member's checks: where they come from, how they combine.

A check's mode has up to five sources: the light level's ``check_mode`` (every check) and
``check_modes`` (checks of a kind, such as sight), the member's fatigue step
(``party.fatigue_modes``), and each condition the member has (``party.condition_modes``,
and a declared condition's own ``check_mode`` and ``check_modes``). Advantage and
disadvantage from any sources cancel out, as in the games that use them; several of one
count once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from delvetui.core.member_light import member_level, party_level
from delvetui.core.state import Member, State
from delvetui.procedure.model import Procedure


def _given(every: str | None, by_kind: Mapping[str, str], kind: str) -> Iterator[str]:
    if every:
        yield every
    if kind and by_kind.get(kind):
        yield by_kind[kind]


def sources(
    procedure: Procedure, state: State, member: Member | None, kind: str = ""
) -> Iterator[str]:
    """Every mode given to a check of this kind by this member now, one per source."""
    # A member's checks roll in the light they stand in (their own, where lights light
    # only some members); a check for no one in the party's light.
    if member is None:
        rules = procedure.light_level(party_level(state, procedure))
    else:
        rules = procedure.light_level(member_level(state, procedure, member.name))
    yield from _given(rules.check_mode, rules.check_modes, kind)
    if member is None:
        return
    tired = procedure.party.fatigue_modes.get(procedure.party.fatigue_label(member.fatigue))
    if tired:
        yield tired
    for name in member.conditions:
        listed = procedure.party.condition_modes.get(name)
        if listed:
            yield listed
        declared = procedure.conditions.get(name)
        if declared is not None:
            yield from _given(declared.check_mode, declared.check_modes, kind)


def check_mode(procedure: Procedure, state: State, member: Member | None, kind: str = "") -> str:
    """The mode a check rolls with: "advantage", "disadvantage" or "" (the two cancel)."""
    modes = set(sources(procedure, state, member, kind))
    return modes.pop() if len(modes) == 1 else ""


#: The modes as a narrow pane writes them.
SHORT = {"disadvantage": "disadv.", "advantage": "adv."}


def modes_text(every: str | None, by_kind: Mapping[str, str], *, short: bool = False) -> str:
    """What a light level or a condition does to checks, in words ('' when nothing).

    ``all checks: disadvantage``; ``sight, attack: disadvantage · stealth: advantage``
    (``disadv.`` and ``adv.`` when ``short``).
    """
    parts: list[str] = []
    word = SHORT.get if short else str
    if every:
        parts.append(f"all checks: {word(every)}")
    for mode in ("disadvantage", "advantage"):
        kinds = [kind for kind, given in by_kind.items() if given == mode]
        if kinds:
            parts.append(f"{', '.join(kinds)}: {word(mode)}")
    return " · ".join(parts)
