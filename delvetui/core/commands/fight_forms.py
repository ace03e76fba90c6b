"""The fight's verbs: ``foe`` (the opposition joined, hurt, down, fled, taken off),
``fight`` (begun, ended), ``round``, ``morale`` and ``flee`` (the party runs from the
encounter); their commands and their forms.

Part of the one table of the command language (``grammar.GRAMMAR``, where the verbs take
their place); kept in a module of their own as the light verb's are. Each command is
declared beside the forms that make it; ``__all__`` names them, and the package gives each
by its name (``commands.AddFoes``) like those of ``types``.
"""

from __future__ import annotations

from typing import Any

import attrs

from delvetui import dice
from delvetui.core.commands import kinds
from delvetui.core.commands import readers as read
from delvetui.core.commands.forms import Form, Verb, family, flag, key, sub, value
from delvetui.core.commands.types import Amount, Command

__all__ = [
    "FIGHT",
    "FLEE",
    "FOE",
    "MAX_COUNT",
    "MORALE",
    "ROUND",
    "AddFoes",
    "BeginFight",
    "CheckMorale",
    "EditFoe",
    "EndFight",
    "Flee",
    "NextRound",
    "RemoveFoe",
]

#: The most foes one ``foe add`` brings.
MAX_COUNT = 100
#: What ``fight surprised=`` takes.
SURPRISED = ("party", "foes", "both", "none")


@attrs.frozen(repr=False, eq=False)
class AddFoes(Command):
    """Foes join the encounter: one named NAME, or NAME1…NAMEn with a count."""

    name: str
    count: int = 1
    #: Hit points: one value for all, or one for each; None to roll them from ``hd``.
    hp: tuple[int, ...] | None = None
    #: Hit dice as a stat block writes them ("2", "1+1"), rolled with the game's hit die.
    hd: str | None = None
    morale: int | None = None
    note: str | None = None
    #: The hit dice rolled at the table (``hit-dice=N``, once for each foe).
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen(repr=False, eq=False)
class EditFoe(Command):
    """A foe is hurt or healed (hp=-N, +N, or N), goes down, flees, surrenders, or comes
    back into the fight; ``morale`` is the morale roll typed for a check it sets off."""

    name: str
    hp: Amount | None = None
    down: bool = False
    not_down: bool = False
    fled: bool = False
    not_fled: bool = False
    surrendered: bool = False
    not_surrendered: bool = False
    morale: str | None = None


@attrs.frozen(repr=False, eq=False)
class RemoveFoe(Command):
    """Take a foe out of the encounter (it was never there)."""

    name: str


@attrs.frozen(repr=False, eq=False)
class BeginFight(Command):
    """Begin the fight: its first round, initiative rolled (or typed) as the game says."""

    #: Initiative typed at the table (``initiative=P,F``) and characters' saves (``save=N``).
    values: tuple[tuple[str, str], ...] = ()
    #: Who the encounter surprised, said by the game master (None: what the dice said).
    surprised: str | None = None
    #: The party's call where initiative is odd or even.
    call: str | None = None


@attrs.frozen(repr=False, eq=False)
class NextRound(Command):
    """The fight's next round."""

    values: tuple[tuple[str, str], ...] = ()
    call: str | None = None


@attrs.frozen(repr=False, eq=False)
class EndFight(Command):
    """End the fight, with the game master's words; the time it took is charged."""

    words: str = ""
    #: The dice typed for the rolls of the turns it takes (``hazard=N``).
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen(repr=False, eq=False)
class Flee(Command):
    """The party flees the encounter: the game's rule says whether it gets away or is
    caught, or the game master says it (``outcome``: "away" or "caught")."""

    outcome: str | None = None
    words: str = ""
    #: The pursuers' speed, where the game compares speeds (``speed=N``).
    speed: int | None = None
    #: The chance of getting away in percent, where the game reads one (``chance=N``).
    chance: int | None = None
    #: The dice typed: the flight's roll (``flee=N``), the turns' rolls (``hazard=N``).
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen(repr=False, eq=False)
class CheckMorale(Command):
    """A morale check the game master calls: the fighting foes, one foe, or a retainer."""

    name: str | None = None
    value: str | None = None


@attrs.frozen
class HitPoints(kinds.Type):
    """Hit points typed as one number for every foe, or one for each: 5 or 5,3,7."""

    what: str = "hit points"

    def read(self, label: str, text: str) -> Any:
        parts = text.split(",")
        if len(parts) > MAX_COUNT:
            raise read.UsageProblem(f"hp= gives at most {MAX_COUNT} values.", "")
        return tuple(read.whole("", label, part.strip(), minimum=1) for part in parts)

    def write(self, value: Any) -> list[str]:
        return [",".join(str(item) for item in value)] if value else []


@attrs.frozen
class HitDice(kinds.Type):
    """Hit dice as a stat block writes them: 2, 1+1, 1-1."""

    what: str = "hit dice"

    def read(self, label: str, text: str) -> Any:
        if dice.hit_dice(text) is None:
            raise read.UsageProblem(
                f"hd={text} is not hit dice; write them as a stat block does: 2, 1+1 or 1-1 "
                f"(1 to {dice.MOST_HIT_DICE}).",
                "",
            )
        return text.strip()


@attrs.frozen
class Word(kinds.Type):
    """One of a few words, each a sentence when it is none of them."""

    choices: tuple[str, ...] = ()

    def read(self, label: str, text: str) -> Any:
        if text.lower() not in self.choices:
            raise read.UsageProblem(f"{label}={text} is not one of {', '.join(self.choices)}.", "")
        return text.lower()


_TYPED = kinds.Typed()
_FOE = value("NAME", "foe", "name")
_INITIATIVE = key(
    "initiative", "P,F", "faces", "values", type=_TYPED, at_table=True, brief="initiative=P,F"
)
_SAVES = key("save", "N", "faces", "values", type=_TYPED, at_table=True, brief=None)
_CALL = key("call", "odd|even", "text", type=Word(choices=("odd", "even")), brief=None)

FOE = Verb(
    "foe",
    "The opposition: foes join, are hurt, fall, flee or are taken off.",
    (
        Form(
            (
                sub("add"),
                value("NAME", "new-foe", "name"),
                key("count", "N", "number", type=kinds.Number(least=1, most=MAX_COUNT)),
                key("hp", "N[,N…]", "number", type=HitPoints()),
                key("hd", "N", "text", type=HitDice()),
                key("morale", "N", "number", type=kinds.Number(least=-999, most=999)),
                key("note", "TEXT", "text", type=kinds.Text(what="a foe's note", rest=False)),
                key("hit-dice", "N", "faces", "values", type=_TYPED, at_table=True, brief=None),
            ),
            AddFoes,
            "Foes join the encounter: count=N makes NAME1…NAMEn; hp= gives one value for "
            "all or one each, else their hit points are rolled from hd= with the game's "
            "hit die (one hit die when neither is given); morale= their morale score.",
            "foe add goblin count=3 hd=1-1 morale=7",
            wrong="foe add takes one name (the foes' kind), e.g. foe add goblin count=3.",
        ),
        Form(
            (sub("remove"), _FOE),
            RemoveFoe,
            "Take a foe out of the encounter (it was never there).",
            "foe remove goblin3",
            wrong="foe remove takes one foe's name.",
        ),
        Form(
            (
                _FOE,
                key("hp", "N|+N|-N", "amount"),
                flag("+down", "down"),
                flag("-down", "not_down"),
                flag("+fled", "fled"),
                flag("-fled", "not_fled"),
                flag("+surrendered", "surrendered"),
                flag("-surrendered", "not_surrendered"),
                key("morale", "N", "faces", "morale", brief=None, at_table=True),
            ),
            EditFoe,
            "Hurt (hp=-N) or heal (hp=+N) a foe, or set its hit points; +down, +fled or "
            "+surrendered take it out of the fight, -down, -fled or -surrendered bring it "
            "back; morale=N is the roll of a morale check this sets off.",
            "foe goblin2 hp=-4",
            wrong="foe NAME takes hp=N, +N or -N, or +down, -down, +fled, -fled.",
            least="Say what happens to the foe: hp=-N, hp=+N, +down, +fled...",
        ),
    ),
    wrong="Say foe add NAME, foe NAME hp=-N or foe remove NAME.",
)

FIGHT = Verb(
    "fight",
    "The fight: begin it, end it.",
    (
        Form(
            (
                _INITIATIVE,
                _SAVES,
                key("surprised", "party|foes|both|none", "text", type=Word(choices=SURPRISED)),
                _CALL,
            ),
            BeginFight,
            "Begin the fight's rounds: initiative as the game says (initiative=P,F types the "
            "party's roll then the foes', or each character's in marching order then the "
            "foes'); a side the encounter surprised loses the first round (surprised= says "
            "who, when the game master knows better than the dice).",
            "fight initiative=4,2",
            wrong="fight takes initiative=P,F and surprised=party|foes|both|none.",
        ),
        Form(
            (
                sub("end"),
                value("WORDS", "text", "words", optional=True),
                family("ROLL=N", "roll", "values", brief=None, at_table=True),
            ),
            EndFight,
            "End the fight: the clock is charged the time it took, as the game says (its "
            "turns' rolls typed as ROLL=N).",
            "fight end the goblins are routed",
        ),
    ),
)

ROUND = Verb(
    "round",
    "The fight's next round.",
    (
        Form(
            (_INITIATIVE, _CALL),
            NextRound,
            "Begin the next round, initiative rolled again where the game rolls it each "
            "round (initiative=P,F types it).",
            "round initiative=3,5",
            wrong="round takes only initiative=P,F.",
        ),
    ),
)

_FLED_WORDS = value("WORDS", "text", "words", optional=True)
_FLED_ROLLS = family("ROLL=N", "roll", "values", brief=None, at_table=True)

FLEE = Verb(
    "flee",
    "The party flees the encounter.",
    (
        Form(
            (sub("away"), _FLED_WORDS, _FLED_ROLLS),
            Flee,
            "The party gets away, by the game master's word (the pursuers lost sight of "
            "them, stopped for what was dropped): the encounter ends and the clock is "
            "charged as a flight is (its turns' rolls typed as ROLL=N).",
            "flee away they stop for the dropped food",
            sets=(("outcome", "away"),),
        ),
        Form(
            (sub("caught"), _FLED_WORDS),
            Flee,
            "The party flees but is caught, by the game master's word: a pursuit, played "
            "in rounds (fight, round), until it gets away or stands.",
            "flee caught",
            sets=(("outcome", "caught"),),
        ),
        Form(
            (
                key("speed", "N", "number", type=kinds.Number(least=0, most=100_000)),
                key("chance", "N", "number", type=kinds.Number(least=0, most=100)),
                key("flee", "N", "faces", "values", type=_TYPED, at_table=True, brief=None),
                _FLED_WORDS,
                _FLED_ROLLS,
            ),
            Flee,
            "Flee the encounter: whether the party gets away is the game's rule (speed=N "
            "the pursuers' speed where it compares speeds, chance=N the chance in percent "
            "where it reads one, flee=N the roll typed); away, the encounter ends and the "
            "clock is charged; caught, a pursuit in rounds.",
            "flee speed=90",
            wrong="flee takes speed=N, chance=N, or away or caught, and words.",
        ),
    ),
)

MORALE = Verb(
    "morale",
    "A morale check the game master calls.",
    (
        Form(
            (
                value("NAME", "combatant", "name", optional=True),
                key("morale", "N", "faces", "value", brief="morale=N", at_table=True),
            ),
            CheckMorale,
            "Check the fighting foes' morale now (or one foe's, or a retainer's: morale "
            "NAME); morale=N types the roll.",
            "morale morale=9",
            wrong="morale takes a foe's or a retainer's name, and morale=N.",
        ),
    ),
)
