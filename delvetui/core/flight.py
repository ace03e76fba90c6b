"""The party flees an encounter (``flee``): whether it gets away is the game's rule
(``[encounter] flight``), or the game master's word; away, the encounter and any fight are
over and the clock is charged; caught, a pursuit goes on in rounds.

The rules, none of them naming a game:

- ``gm``: the game master says (``flee`` or ``flee away``, ``flee caught``).
- ``faster``: the party gets away when its slowest member is faster than the pursuers
  (``speed=N``, in the party's own movement units).
- ``save``: each character saves under ``flight_ability`` (a d20 at most the score); the
  party gets away when every one of them passes.
- ``chance``: a percentile roll at most the chance the game master reads (``chance=N``).

``flee away`` and ``flee caught`` are the game master's word under any rule: a pursuit
that loses sight of the party, pursuers that stop for dropped food.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from delvetui import lazy
from delvetui.core import commands as cmd
from delvetui.core.fights import charge_fight, fight_turns
from delvetui.dice import under
from delvetui.errors import CommandError
from delvetui.text import counted

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.state import State
    from delvetui.core.work import Work
    from delvetui.procedure.model import Procedure
else:
    ev = lazy.module("delvetui.core.events")

#: The key the flight's roll is typed under (``flee=N``; one for each character in
#: marching order where each saves).
KEY = "flee"
#: What a rule reads from the command, by the rule.
_READS = {"faster": "speed", "chance": "chance"}


def flee(work: Work, command: cmd.Flee) -> None:
    """The party flees the encounter (``flee``, ``flee away``, ``flee caught``)."""
    state = work.state
    rules = work.procedure.encounter
    if not any(foe.fighting for foe in state.foes):
        what = (
            "every foe is out of the fight"
            if state.foes
            else "no foe is in the encounter (foe add NAME brings them in)"
        )
        raise CommandError(f"There is no one to flee from: {what}. Nothing was saved.")
    _refuse_unread(work, command)
    caught: tuple[str, ...] = ()
    if command.outcome is not None:
        away, how = command.outcome == "away", "the game master's word"
    else:
        away, how, caught = _by_rule(work, command)
    fight = state.fight
    rounds = fight.round if fight is not None else 0
    work.emit(ev.PartyFled(away=away, how=how, words=command.words, rounds=rounds, caught=caught))
    if not away:
        return
    if rules.flight_action:
        fight_turns(work, rules.flight_action, 1)
    elif fight is not None:
        charge_fight(work, rounds)


def _refuse_unread(work: Work, command: cmd.Flee) -> None:
    """A speed or a chance the game's rule does not read is refused, with what it reads."""
    rule = work.procedure.encounter.flight
    # flee away and flee caught take any KEY=N as a turn's roll: a speed or a chance
    # among them is still one the game master's word does not read.
    typed = {key.casefold() for key, _ in command.values}
    for key, value in (("speed", command.speed), ("chance", command.chance)):
        if value is None and key not in typed:
            continue
        if command.outcome is not None:
            raise CommandError(
                f"flee {command.outcome} is the game master's word: it reads no {key}=. "
                "Nothing was saved."
            )
        if _READS.get(rule) != key:
            raise CommandError(
                f"{key}= is not read in {work.procedure.name}: {rule_words(work.procedure)}. "
                "Nothing was saved."
            )


def rule_words(procedure: Procedure) -> str:
    """How the party gets away in this game, in a few words."""
    rules = procedure.encounter
    return {
        "gm": "the game master says whether the party gets away (flee away, flee caught)",
        "faster": "the party gets away when its slowest member is faster than the "
        "pursuers (flee speed=N)",
        "save": f"each character saves under {rules.flight_ability.upper()} to get away",
        "chance": "a percentile roll against the chance of getting away (flee chance=N)",
    }[rules.flight]


def _by_rule(work: Work, command: cmd.Flee) -> tuple[bool, str, tuple[str, ...]]:
    """Whether the party gets away by the game's rule, how it was decided, who was caught."""
    rule = work.procedure.encounter.flight
    if rule == "faster":
        return _faster(work, command.speed)
    if rule == "save":
        return _saves(work)
    if rule == "chance":
        return _chance(work, command.chance)
    return True, "the game master's word", ()


def party_speed(state: State, procedure: Procedure) -> tuple[str, float] | None:
    """The living member who sets the party's pace, with their speed (a member without one
    of their own moves at the base), or None where the game gives members no speed."""
    movement = procedure.movement
    base = movement.base_speed
    if not base or not state.living:
        return None
    own = movement.member_speed
    paces: list[tuple[str, float]] = []
    for member in state.living:
        speed = member.ability(own) if own else None
        paces.append((member.name, base if speed is None else speed))
    return min(paces, key=lambda pace: pace[1])


def _faster(work: Work, speed: int | None) -> tuple[bool, str, tuple[str, ...]]:
    pace = party_speed(work.state, work.procedure)
    unit = work.procedure.movement.unit
    if pace is None:
        raise CommandError(
            "No one in the party can run: no living member. Nothing was saved."
            if work.procedure.movement.base_speed
            else f"{work.procedure.name} gives the party no speed to compare: say whether it "
            "gets away (flee away, flee caught). Nothing was saved."
        )
    name, ours = pace
    if speed is None:
        raise CommandError(
            f"Say how fast the pursuers are: flee speed=N, in {unit} as the party's speed "
            f"(the party runs at {ours:g}, {name}'s pace). Nothing was saved."
        )
    away = ours > speed
    compare = "faster than" if away else ("as fast as" if ours == speed else "slower than")
    return away, f"{name}'s {ours:g} is {compare} the pursuers' {speed}", ()


def _saves(work: Work) -> tuple[bool, str, tuple[str, ...]]:
    ability = work.procedure.encounter.flight_ability.upper()
    living = work.living()
    if not living:
        raise CommandError("No one in the party can run: no living member. Nothing was saved.")
    work.inputs.split(KEY)  # flee=12,7,15: each character's save in marching order
    natural = work.procedure.party.natural_saves
    failed: list[str] = []
    for member in living:
        rolled = work.roll(KEY, "d20", f"{member.name}'s {ability} save to get away")
        score = member.ability(ability)
        if score is None or not under(rolled.total, score, "d20", natural):
            failed.append(member.name)
    if not failed:
        return True, f"every {ability} save passes", ()
    return False, f"{counted(len(failed), ability + ' save')} failed", tuple(failed)


def _chance(work: Work, chance: int | None) -> tuple[bool, str, tuple[str, ...]]:
    if chance is None:
        raise CommandError(
            "Say the chance of getting away: flee chance=N, in percent (the game's table "
            "gives it by the two sides' sizes). Nothing was saved."
        )
    rolled = work.roll(KEY, "d%", f"getting away ({chance}%)")
    away = rolled.total <= chance
    return away, f"{rolled.total} {'at or below' if away else 'above'} {chance}%", ()
