"""Who acts first in a round of a fight, as the procedure's ``[encounter]`` says.

A side the encounter surprised loses the first round (both surprised: neither gains).
Otherwise the rule of ``initiative`` decides: a die for each side; the characters first;
each character's die and modifier against one roll for the foes; each character's save;
the characters' scores against the foes'; or a die from each side added, odd or even. A
rule rolled once for the fight holds for its later rounds. Every die is typed at the table
as ``initiative=P,F`` (``save=N`` for a save), asked for, or rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core.state import Member
from delvetui.errors import CommandError

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Work
else:
    ev = lazy.module("delvetui.core.events")

#: The key initiative is typed under, and a character's save.
KEY = "initiative"
SAVE_KEY = "save"
#: The most times a tie is rolled again before it goes to the party.
MAX_TIES = 20


class Round:
    """What the initiative of one round came to, before it is written as ``RoundBegan``."""

    def __init__(self, first: str, how: str) -> None:
        self.first = first
        self.how = how
        self.party: int | None = None
        self.foes: int | None = None
        self.before: tuple[str, ...] = ()
        self.after: tuple[str, ...] = ()


def begin_round(work: Work, number: int, surprised: Sequence[str], call: str | None) -> None:
    """Write the round's ``RoundBegan``: who acts first and why, the dice it took."""
    rules = work.procedure.encounter
    work.inputs.split(KEY)
    work.inputs.split(SAVE_KEY)
    if number == 1 and len(surprised) == 1:
        lost = surprised[0]
        first = "foes" if lost == "party" else "party"
        why = "the party is surprised" if lost == "party" else "the foes are surprised"
        loses = "the party loses it" if lost == "party" else "the foes lose it"
        for key in (KEY, SAVE_KEY):
            work.inputs.skip(key, f"nothing is rolled for this round: {why}, and {loses}")
        work.emit(ev.RoundBegan(number=number, first=first, lost=lost, how=f"{why}: they lose it"))
        return
    kept = _kept(work, number)
    found = kept or _decide(work, call)
    idle = _first_round_saves(work) if number == 1 and rules.first_round_save else ()
    if kept is not None:
        work.inputs.skip(KEY, "initiative holds for the whole fight: it is not rolled again")
    if not rules.first_round_save or number > 1:
        work.inputs.skip(SAVE_KEY, "no save is made to act this round")
    work.emit(
        ev.RoundBegan(
            number=number,
            first=found.first,
            party_roll=found.party,
            foes_roll=found.foes,
            before=tuple(name for name in found.before if name not in idle),
            after=tuple(name for name in found.after if name not in idle),
            idle=idle,
            how=found.how,
        )
    )


def _kept(work: Work, number: int) -> Round | None:
    """The last round's initiative, where the game rolls it once for the fight."""
    rules = work.procedure.encounter
    fight = work.state.fight
    if number == 1 or rules.initiative_each_round or rules.initiative == "party":
        return None
    if fight is None or fight.lost:
        return None  # the first round went to a surprise: initiative is rolled now
    kept = Round(fight.first, "initiative holds for the fight")
    kept.party, kept.foes = fight.party_roll, fight.foes_roll
    # Those who lost the first round (a failed save to act) act again, with the party.
    kept.before, kept.after = (*fight.before, *fight.idle), fight.after
    return kept


def _decide(work: Work, call: str | None) -> Round:
    rule = work.procedure.encounter.initiative
    if rule == "party":
        work.inputs.skip(KEY, "initiative is not rolled: the characters act first")
        found = Round("party", "the characters act first")
        found.before = tuple(m.name for m in work.living())
        return found
    if rule == "sides":
        return _sides(work)
    if rule == "odd-even":
        return _odd_even(work, call or "odd")
    return _characters(work, rule)


def _sides(work: Work) -> Round:
    rules = work.procedure.encounter
    die = rules.initiative_dice
    for _ in range(MAX_TIES):
        party = work.roll(KEY, die, "the party's initiative")
        foes = work.roll(KEY, die, "the foes' initiative")
        if party.total != foes.total or rules.initiative_ties != "reroll":
            break
        if foes.entered and not work.inputs.has(KEY) and not work.ask:
            raise CommandError(
                f"initiative={party.total},{foes.total} is a tie, and {work.procedure.name} "
                "rolls a tie again: add the next two rolls (initiative="
                f"{party.total},{foes.total},P,F). Nothing was saved."
            )
    first = _winner(party.total, foes.total, rules.initiative_ties)
    found = Round(first, f"{die} each side: the party {party.total}, the foes {foes.total}")
    found.party, found.foes = party.total, foes.total
    return found


def _winner(party: int, foes: int, ties: str) -> str:
    if party != foes:
        return "party" if party > foes else "foes"
    return "foes" if ties == "foes" else "party"


def _odd_even(work: Work, call: str) -> Round:
    die = work.procedure.encounter.initiative_dice
    party = work.roll(KEY, die, "the party's die (odd or even)")
    foes = work.roll(KEY, die, "the foes' die (odd or even)")
    total = party.total + foes.total
    came = "even" if total % 2 == 0 else "odd"
    first = "party" if came == call else "foes"
    found = Round(first, f"the party called {call}; {party.total} + {foes.total} = {total}, {came}")
    found.party, found.foes = party.total, foes.total
    return found


def _characters(work: Work, rule: str) -> Round:
    """Each character by a die and modifier, a save, or a score, against the foes."""
    rules = work.procedure.encounter
    ability = rules.initiative_ability.upper()
    members = work.living()
    totals: list[tuple[str, int, bool]] = []  # name, total, before the foes
    foes: int | None = None
    if rule == "each":
        for member in members:
            modifier = member.modifier(ability, work.procedure.party.modifier_of)
            rolled = work.roll(
                KEY, _plus(rules.initiative_dice, modifier), f"{member.name}'s initiative"
            )
            totals.append((member.name, rolled.total, False))
        foes = work.roll(KEY, rules.initiative_dice, "the foes' initiative").total
        die = rules.initiative_dice
        how = f"{die} + {ability} each character, {die} for the foes ({foes})"
        totals = [
            (name, total, _ahead(total, foes, rules.initiative_ties)) for name, total, _ in totals
        ]
    elif rule == "save":
        for member in members:
            passed, total = _save(
                work, member, ability, KEY, f"{member.name}'s {ability} save to act first"
            )
            totals.append((member.name, total, passed))
        how = f"each character's {ability} save: those who pass act before the foes"
    else:
        typed = work.inputs.take(KEY)
        foes = int(typed) if typed is not None and typed.lstrip("-").isdigit() else rules.foes_score
        if typed is not None and not typed.lstrip("-").isdigit():
            raise CommandError(f"initiative={typed} is not the foes' {ability} score (a number).")
        for member in members:
            score = member.ability(ability)
            total = score if score is not None else rules.foes_score
            totals.append((member.name, total, _ahead(total, foes, rules.initiative_ties)))
        how = f"by {ability} score, the foes' {foes}"
    ordered = sorted(totals, key=lambda item: -item[1])
    found = Round("party", how)
    found.before = tuple(name for name, _, ahead in ordered if ahead)
    found.after = tuple(name for name, _, ahead in ordered if not ahead)
    found.first = "party" if found.before else "foes"
    found.party = ordered[0][1] if ordered else None
    found.foes = foes
    return found


def _plus(die: str, modifier: int) -> str:
    from delvetui.dice import with_modifier

    return with_modifier(die, modifier)


def _ahead(total: int, foes: int, ties: str) -> bool:
    return total > foes or (total == foes and ties != "foes")


def _save(work: Work, member: Member, ability: str, key: str, purpose: str) -> tuple[bool, int]:
    """A save under a member's score: a d20 at most the score (a member without the score
    fails it)."""
    from delvetui.dice import under

    rolled = work.roll(key, "d20", purpose)
    score = member.ability(ability)
    natural = work.procedure.party.natural_saves
    return score is not None and under(rolled.total, score, "d20", natural), rolled.total


def _first_round_saves(work: Work) -> tuple[str, ...]:
    """Each character's save to act at all in the first round: those who fail lose it."""
    ability = work.procedure.encounter.first_round_save.upper()
    lost: list[str] = []
    for member in work.living():
        passed, _ = _save(
            work, member, ability, SAVE_KEY, f"{member.name}'s {ability} save to act this round"
        )
        if not passed:
            lost.append(member.name)
    return tuple(lost)
