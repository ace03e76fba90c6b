"""The fight commands: foes joined, hurt, down, fled or taken off; the fight begun, its
rounds and its end, with the time it cost on the clock.

What a game's fight is like is its procedure's ``[encounter]`` section: the round's length,
who acts first (``core.initiative``), when the foes' morale is checked (``core.morale``),
the foes' hit die and the turns a fight takes. Nothing here names a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from delvetui import dice, lazy
from delvetui.core import commands as cmd
from delvetui.core.state import FOE_STATES, Foe, State
from delvetui.errors import CommandError
from delvetui.text import counted, plural, quote, suggest

if TYPE_CHECKING:
    from delvetui.core import events as ev
    from delvetui.core.work import Work
    from delvetui.procedure.model import Procedure
else:
    ev = lazy.module("delvetui.core.events")

#: The most foes one encounter holds.
MAX_FOES = 100
#: The two sides of a fight.
SIDES = ("party", "foes")
#: The key a hit die rolled at the table is typed under (``hit-dice=N``).
HIT_DICE_KEY = "hit-dice"


def find_foe(state: State, name: str) -> Foe:
    """The foe of that name, or a CommandError naming the foes there are."""
    found = state.foe(name)
    if found is not None:
        return found
    if not state.foes:
        raise CommandError(
            f"There is no foe named {quote(name)}: no foe is in the encounter (foe add NAME "
            "brings them in). Nothing was saved."
        )
    names = [foe.name for foe in state.foes]
    raise CommandError(
        f"There is no foe named {quote(name)} (the foes: {', '.join(names)})."
        + suggest(name, names)
    )


# Foes -------------------------------------------------------------------------------------


def add_foes(work: Work, command: cmd.AddFoes) -> None:
    """Foes join the encounter (``foe add NAME [count=N] [hp=…] [hd=N] [morale=N]``)."""
    count = command.count
    names = [command.name] if count == 1 else [f"{command.name}{n}" for n in range(1, count + 1)]
    taken = [name for name in names if work.state.foe(name) is not None]
    if taken:
        raise CommandError(
            f"There is already a foe named {taken[0]}; give these foes another name, e.g. "
            f"foe add {command.name}-b{' count=' + str(count) if count > 1 else ''}. "
            "Nothing was saved."
        )
    given_hp = command.hp or ()
    if given_hp and command.hd is not None:
        raise CommandError(
            "Give the foes' hit points (hp=) or their hit dice to roll them (hd=), not both. "
            "Nothing was saved."
        )
    if len(given_hp) not in (0, 1, count):
        raise CommandError(
            f"hp= gives one value for all the foes or one for each: {len(given_hp)} values "
            f"for {count} {'foe' if count == 1 else 'foes'} (count=N says how many). "
            "Nothing was saved."
        )
    if len(work.state.foes) + count > MAX_FOES:
        raise CommandError(
            f"An encounter holds at most {MAX_FOES} foes; it has {len(work.state.foes)}. "
            "Nothing was saved."
        )
    for index, name in enumerate(names):
        given = given_hp[index if len(given_hp) > 1 else 0] if given_hp else None
        hp = given if given is not None else roll_hit_points(work, name, command.hd or "1")
        work.emit(
            ev.FoeJoined(
                name=name,
                kind=command.name,
                hp=hp,
                max_hp=hp,
                morale=command.morale,
                note=command.note or "",
            )
        )


def roll_hit_points(work: Work, name: str, hd: str) -> int:
    """A foe's hit points rolled from its hit dice with the game's hit die (at least 1)."""
    die = work.procedure.encounter.hit_die
    expression = dice.hit_points_dice(hd, die)
    rolled = work.roll(HIT_DICE_KEY, expression, f"{name}'s hit points ({hd} HD of {die})")
    return max(1, rolled.total)


def join_met(work: Work, creature: str, appearing: int, hd: str, morale: int | None) -> None:
    """The foes an area's table brought, as many as appear, named after the creature
    (giant-rats1…): they join as ``foe add`` would have them, numbered on past any taken."""
    kind = creature.strip() or "foe"
    # A name to type: its words joined by dashes, only letters and digits (never an '=').
    words = ("".join(c for c in word if c.isalnum()) for word in kind.lower().split())
    base = "-".join(word for word in words if word)[:30] or "foe"
    room = MAX_FOES - len(work.state.foes)
    for name in _free_names(work.state, base, min(appearing, room)):
        hp = roll_hit_points(work, name, hd or "1")
        work.emit(ev.FoeJoined(name=name, kind=kind, hp=hp, max_hp=hp, morale=morale))


def _free_names(state: State, kind: str, count: int) -> list[str]:
    """``count`` foe names for a kind no foe has yet: the kind alone for one, else numbered."""
    if count == 1 and state.foe(kind) is None:
        return [kind]
    found: list[str] = []
    number = 1
    while len(found) < count:
        name = f"{kind}{number}"
        if state.foe(name) is None:
            found.append(name)
        number += 1
    return found


def edit_foe(work: Work, command: cmd.EditFoe) -> None:
    """A foe is hurt, healed, goes down, flees or comes back (``foe NAME ...``); a morale
    check it sets off is made with it (``core.morale``)."""
    from delvetui.core import morale

    foe = find_foe(work.state, command.name)
    before = work.state
    if command.hp is not None:
        _hit_points(work, foe, command.hp)
    wanted = _state_wanted(work, command)
    foe = find_foe(work.state, command.name)
    if wanted is not None:
        state, was = wanted
        if was and foe.state != was:
            raise CommandError(f"{foe.name} is not {was}; it is {foe.state}. Nothing was saved.")
        if foe.state == state:
            raise CommandError(f"{foe.name} is already {state}. Nothing was saved.")
        work.emit(ev.FoeStateChanged(name=foe.name, state=state, reason="game master"))
    morale.after_change(work, before, command.morale)


def _hit_points(work: Work, foe: Foe, amount: cmd.Amount) -> None:
    value = foe.hp + amount.value if amount.relative else amount.value
    if not amount.relative and value > foe.max_hp:
        raise CommandError(
            f"{foe.name} has at most {foe.max_hp} HP; give hp={foe.max_hp} or less, or "
            f"heal it with hp=+N. Nothing was saved."
        )
    hp = max(0, min(foe.max_hp, value))
    if hp == foe.hp:
        raise CommandError(f"{foe.name} already has {foe.hp} HP; nothing was saved.")
    work.emit(ev.FoeHitPointsChanged(name=foe.name, hp=hp, change=hp - foe.hp))
    # A foe that fled or surrendered and is brought to 0 HP (an arrow in its back) is
    # down as surely as one that stood.
    if hp == 0 and foe.state != "down" and work.procedure.encounter.down_at_zero_hp:
        work.emit(ev.FoeStateChanged(name=foe.name, state="down", reason="0 HP"))


def _state_wanted(work: Work, command: cmd.EditFoe) -> tuple[str, str] | None:
    """The state the flags ask for and the one the foe must be in ('' for any), or None."""
    flags = {
        "+down": (command.down, ("down", "")),
        "-down": (command.not_down, ("fighting", "down")),
        "+fled": (command.fled, ("fled", "")),
        "-fled": (command.not_fled, ("fighting", "fled")),
        "+surrendered": (command.surrendered, ("surrendered", "")),
        "-surrendered": (command.not_surrendered, ("fighting", "surrendered")),
    }
    given = [(word, change) for word, (on, change) in flags.items() if on]
    if len(given) > 1:
        said = " and ".join(word for word, _ in given)
        raise CommandError(
            f"A foe takes one change of state at a time, not {said}. Nothing was saved."
        )
    if not given:
        return None
    word, change = given[0]
    if "surrendered" in word and not work.procedure.encounter.surrender:
        raise CommandError(
            f"Foes do not surrender in {work.procedure.name}: they flee (+fled). Nothing was saved."
        )
    return change


def remove_foe(work: Work, name: str) -> None:
    """Take a foe out of the encounter (``foe remove NAME``)."""
    foe = find_foe(work.state, name)
    if work.state.fight is not None and len(work.state.foes) == 1:
        raise CommandError(
            f"{foe.name} is the last foe of the fight under way: end the fight first "
            "(fight end). Nothing was saved."
        )
    work.emit(ev.FoeRemoved(name=foe.name))


# The fight ----------------------------------------------------------------------------------


def begin_fight(work: Work, command: cmd.BeginFight) -> None:
    """Begin the fight and its first round (``fight``)."""
    from delvetui.core import initiative

    state = work.state
    if state.fight is not None:
        raise CommandError(
            f"A fight is already under way ({work.procedure.encounter.round_label} "
            f"{state.fight.round}): round begins the next, fight end ends it. Nothing was saved."
        )
    if not any(foe.fighting for foe in state.foes):
        what = "every foe is out of the fight" if state.foes else "no foe is in the encounter"
        raise CommandError(
            f"There is no one to fight: {what}. Bring foes in with foe add NAME (or the "
            "area's table brings them with the encounter). Nothing was saved."
        )
    surprised = _surprised(state, command.surprised)
    work.emit(ev.FightBegan(surprised=surprised))
    initiative.begin_round(work, 1, surprised, command.call)
    _round_turn(work)


def _surprised(state: State, said: str | None) -> tuple[str, ...]:
    if said is None:
        return state.surprised
    return {"both": SIDES, "none": ()}.get(said, (said,))


def next_round(work: Work, command: cmd.NextRound) -> None:
    """The fight's next round (``round``)."""
    from delvetui.core import initiative

    fight = work.state.fight
    if fight is None:
        raise CommandError(
            f"There is no fight to take a {work.procedure.encounter.round_label} of: fight "
            "begins one. Nothing was saved."
        )
    if not any(foe.fighting for foe in work.state.foes):
        raise CommandError(
            "Every foe is out of the fight: end it with fight end. Nothing was saved."
        )
    initiative.begin_round(work, fight.round + 1, (), command.call)
    _round_turn(work)


def _round_turn(work: Work) -> None:
    """A round that is a turn of the crawl (``round_action``) passes on the clock: lights,
    timers and conditions by the round."""
    name = work.procedure.encounter.round_action
    if name:
        fight_turns(work, name, 1)


def end_fight(work: Work, command: cmd.EndFight) -> None:
    """End the fight (``fight end [WORDS]``) and charge the clock the time it took."""
    fight = work.state.fight
    if fight is None:
        raise CommandError("There is no fight to end. Nothing was saved.")
    work.emit(ev.FightEnded(rounds=fight.round, words=command.words))
    charge_fight(work, fight.round)


def charge_fight(work: Work, rounds: int) -> None:
    """Charge the clock a fight of so many rounds, as ``end_action`` says (at least
    ``end_turns`` turns, more where the rounds fill more)."""
    rules = work.procedure.encounter
    if not rules.end_action:
        return
    minutes = work.procedure.turn_minutes(work.state.turn_type)
    lasted = math.ceil(rounds * rules.round_seconds / (minutes * 60))
    fight_turns(work, rules.end_action, max(rules.end_turns, lasted))


def fight_turns(work: Work, name: str, turns: int) -> None:
    """Take turns of the fight's own action, where the party's kind of turn has it (a fight
    outdoors, where a turn is a day, passes within the day's turn)."""
    from delvetui.core.turn import take_turn

    action = work.procedure.actions[name]
    if not action.taken_in(work.state.turn_type):
        return
    for _ in range(turns):
        take_turn(work, cmd.TakeTurn(action=name), fight=True)


def lasted(rounds: int, seconds: int) -> str:
    """How long so many rounds of so many seconds are, in words ("4 rounds, 40 seconds")."""
    total = rounds * seconds
    if total < 120:
        return counted(total, "second")
    minutes, rest = divmod(total, 60)
    return counted(minutes, "minute") + (f" {counted(rest, 'second')}" if rest else "")


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _number(count: int, spelt: bool) -> str:
    return _NUMBERS[count] if spelt and count < len(_NUMBERS) else str(count)


#: Endings of creatures' names whose plural is not an added s: wolves, lizardmen, mice.
IRREGULAR = (
    ("human", "humans"),
    ("shaman", "shamans"),
    ("man", "men"),
    ("mouse", "mice"),
    ("louse", "lice"),
    ("wolf", "wolves"),
    ("elf", "elves"),
    ("dwarf", "dwarves"),
    ("thief", "thieves"),
    ("knife", "knives"),
    ("foot", "feet"),
    ("tooth", "teeth"),
    ("goose", "geese"),
    (" ox", " oxen"),
    ("child", "children"),
    ("sheep", "sheep"),
    ("deer", "deer"),
    ("swine", "swine"),
    ("fish", "fish"),
)


def _many(kind: str) -> str:
    """The plural of what the foes are (goblin, goblins; wolf, wolves; rats stay rats)."""
    if kind.endswith("s"):
        return kind
    lower = f" {kind.lower()}"  # " ox" is the ox alone, not a box
    for one, many in IRREGULAR:
        if lower.endswith(one):
            head, tail = kind[: len(kind) - len(one.strip())], many.strip()
            return head + (tail.capitalize() if kind[len(head) : len(head) + 1].isupper() else tail)
    return plural(kind)


def tally(foes: Sequence[Foe], *, spelt: bool = False) -> str:
    """The foes told by kind, with those out of the fight: "3 goblins, 1 down, 1 fled;
    1 ogre" (``spelt``: "three goblins, one fled", as the players' screen says it)."""
    kinds: dict[str, list[Foe]] = {}
    for foe in foes:
        kinds.setdefault(foe.kind or foe.name, []).append(foe)
    told = []
    for kind, group in kinds.items():
        said = [f"{_number(len(group), spelt)} {_many(kind) if len(group) > 1 else kind}"]
        for state in FOE_STATES[1:]:
            out = sum(1 for foe in group if foe.state == state)
            if out:
                said.append(f"{_number(out, spelt)} {state}")
        told.append(", ".join(said))
    return "; ".join(told) or "no one"


# What status says -------------------------------------------------------------------------


def status(state: State, procedure: Procedure) -> dict[str, object]:
    """The foes and the fight, for ``status --json`` (``foes`` and ``fight`` are the contract:
    each foe's ``name``, ``hp``, ``max_hp``, ``morale``, ``state``; the fight null, or its
    ``round`` and who acts ``first``; whether the party is ``pursued``, its ``escapes``)."""
    rules = procedure.encounter
    fight = state.fight
    return {
        "foes": [
            {
                "name": foe.name,
                "kind": foe.kind,
                "hp": foe.hp,
                "max_hp": foe.max_hp,
                "morale": foe.morale
                if foe.morale is not None
                else (rules.morale_default if rules.has_morale else None),
                "state": foe.state,
                "note": foe.note,
            }
            for foe in state.foes
        ],
        "fight": None
        if fight is None
        else {
            "round": fight.round,
            "first": fight.first,
            "lost": fight.lost or None,
            "before": list(fight.before),
            "after": list(fight.after),
        },
        "fights": state.fights,
        "foes_defeated": state.foes_defeated,
        "pursued": state.pursued,
        "escapes": state.escapes,
    }


def status_lines(state: State, procedure: Procedure) -> list[str]:
    """The fight and the foes, as ``status`` prints them."""
    lines: list[str] = []
    fight = state.fight
    if fight is not None:
        label = procedure.encounter.round_label
        who = "the party acts first" if fight.first == "party" else "the foes act first"
        lines.append(f"Fight: {label} {fight.round}, {who}")
    if state.pursued:
        lines.append("Pursued: the party fled and was caught (flee again, or stand and fight)")
    for foe in state.foes:
        note = f" — {foe.note}" if foe.note else ""
        lines.append(f"  foe {foe.name}: {foe.hp}/{foe.max_hp} HP, {foe.state}{note}")
    return lines
