"""The command language as one table: every verb, its forms, their words, help and examples.

Everything that knows the shape of a command reads this table: ``parse`` finds the verb's
reader here, ``USAGE`` (the line an error message ends with) is drawn from the forms, the
command line completes words by their kind, the palette lists the verbs, and the reference
part of ``docs/commands.md`` is written from it (``python -m delvetui.core.commands
docs/commands.md``). Adding a command is one ``Verb`` here and its handler in ``decide``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import attrs

from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd

#: What a word of a form holds, and so what completes it.
Kind = Literal[
    "word",  # the word itself: a sub-command (add, on, start)
    "flag",  # a word that switches something on (lit)
    "gain",  # +CONDITION
    "lose",  # -CONDITION
    "member",  # a party member's name
    "carrier",  # a member's name, or nobody
    "new-name",  # a name not yet in the party
    "light",  # a light's id
    "unlit",  # a light's id or kind, not lit
    "lit",  # a lit light's id or kind
    "light-kind",  # a kind of light of the procedure
    "action",  # an action of the procedure
    "activity",  # an activity of the procedure
    "turn-type",  # a kind of turn of the procedure
    "counter",  # a counter of the procedure
    "counter-value",  # a number, +N, -N, or a level of the counter named before
    "area",  # an area of the adventure's own tables
    "file",  # a file's path
    "shown",  # what the players' screen can show
    "dice",  # a dice expression
    "text",  # free text
    "number",  # a whole number
    "amount",  # N, +N or -N
    "clock",  # HH:MM
    "duration",  # a span of real time: 60m, 1h30m, 90s
    "faces",  # a die's faces, typed: 3 or 4,3
    "usage-die",  # a usage die: d4, d6, d8, d10, d12, d20
    "ability",  # ABILITY=N: the procedure's abilities
    "roll",  # ROLL=N: the rolls the command makes
    "input",  # INPUT=VALUE: what the action takes from the table
    "resource-change",  # +N RESOURCE or -N RESOURCE: a resource of the procedure
    "resource",  # RESOURCE=N: the procedure's resources
    "timer",  # a running timer's name
    "new-timer",  # a timer's name: one the procedure declares, or a new one
    "span",  # a timer's length: 6t (turns), 30m (minutes), 2h (hours), 10rm (real minutes)
]


@attrs.frozen
class Word:
    """One word of a form, as the usage shows it, and the kind of value it holds.

    ``keys`` names the keys of a KEY=VALUE word (``turns``, ``minutes``); a KEY=VALUE word
    without keys is a family (``ROLL=N``) whose keys come from the procedure. ``brief`` is
    how the one-line usage of an error message shows the word: '' as in the reference,
    None when it leaves it out (a word seldom typed).
    """

    shown: str
    kind: Kind
    keys: tuple[str, ...] = ()
    value: Kind = "text"
    optional: bool = False
    many: bool = False
    brief: str | None = ""

    @property
    def is_key(self) -> bool:
        """True for a KEY=VALUE word."""
        return "=" in self.shown

    @property
    def is_flag(self) -> bool:
        """True for a word that may stand anywhere after the fixed ones (lit, +poisoned)."""
        return self.kind in ("flag", "gain", "lose")

    @property
    def is_fixed(self) -> bool:
        """True for a word read by its place: a sub-command or a value."""
        return not self.is_key and not self.is_flag

    def usage(self, *, brief: bool = False) -> str | None:
        """The word as a usage line shows it, in brackets when it may be left out."""
        shown = self.shown
        if brief:
            if self.brief is None:
                return None
            shown = self.brief or shown
        if self.many:
            shown = f"{shown} ..."
        return f"[{shown}]" if self.optional else shown


@attrs.frozen
class Form:
    """One way to write a verb (``light on ID|KIND [carrier=NAME]``) and the command it makes."""

    words: tuple[Word, ...]
    command: type[cmd.Command]
    help: str
    example: str
    aside: str = ""

    def usage(self, verb: str, *, brief: bool = False) -> str:
        """The form as a usage line: the verb, then each word."""
        shown = [verb, *(w for w in (word.usage(brief=brief) for word in self.words) if w)]
        line = " ".join(shown)
        return f"{line} ({self.aside})" if self.aside else line


@attrs.frozen
class Verb:
    """A verb of the command language, its forms and the reader that parses its words."""

    name: str
    help: str
    forms: tuple[Form, ...]
    reader: read.Reader

    def usage(self, *, brief: bool = True) -> str:
        """Every form, one after another (the line error messages end with)."""
        return " | ".join(form.usage(self.name, brief=brief) for form in self.forms)


def _word(text: str) -> Word:
    return Word(text, "word")


def _value(shown: str, kind: Kind, *, optional: bool = False, many: bool = False) -> Word:
    return Word(shown, kind, optional=optional, many=many)


def _key(
    key: str, value: str, kind: Kind, *, optional: bool = True, brief: str | None = ""
) -> Word:
    keys = tuple(key.split("|"))
    shown = "|".join(f"{name}={value}" for name in keys)
    return Word(shown, "text", keys=keys, value=kind, optional=optional, brief=brief)


def _family(shown: str, kind: Kind, *, brief: str | None = "") -> Word:
    return Word(
        shown,
        kind,
        value="faces" if kind == "roll" else "text",
        optional=True,
        many=True,
        brief=brief,
    )


_NAME = _value("NAME", "member")
_ROLLS = _family("ROLL=N", "roll")
_SHOWN = _value("sign|encounter|hp", "shown")
_UNDO = Form((), cmd.Undo, "Void the last command still standing.", "undo")
_REDO = Form((), cmd.Redo, "Bring back the last command undone.", "redo")

#: The command language, in the order help and errors list it.
GRAMMAR: tuple[Verb, ...] = (
    Verb(
        "pc",
        "The party: add a member, change one, take one out.",
        (
            Form(
                (
                    _word("add"),
                    _value("NAME", "new-name"),
                    _key("hp", "N", "number", optional=False),
                    _key("max", "N", "number", brief=None),
                    _family("ABILITY=N", "ability"),
                ),
                cmd.AddMember,
                "Add a member with hit points (and a maximum) and ability scores (the "
                "procedure's, when it lists any); a member resource named here is their "
                "start (rations=2).",
                "pc add Ash hp=8 STR=14",
            ),
            Form(
                (
                    _NAME,
                    _key("hp", "N|+N|-N", "amount"),
                    _key("max", "N", "number"),
                    _family("ABILITY=N", "ability", brief=None),
                    _key("fatigue", "N|+N|-N", "amount", brief="fatigue=N"),
                    Word("+CONDITION", "gain", optional=True),
                    Word("-CONDITION", "lose", optional=True),
                ),
                cmd.EditMember,
                "Change hit points (a value, or +N healing, -N damage), the maximum, "
                "abilities, fatigue or conditions (+poisoned:6 lasts 6 turns, +shaken:rest "
                "until the next rest).",
                "pc Ash hp=-2 +poisoned:6",
            ),
            Form(
                (
                    _NAME,
                    _value("+N|-N RESOURCE", "resource-change", optional=True, many=True),
                    _family("RESOURCE=N", "resource", brief=None),
                ),
                cmd.EditMember,
                "Change a member's own resources: +N or -N of one, or RESOURCE=N to set it.",
                "pc Ash +2 rations",
            ),
            Form(
                (_word("remove"), _NAME),
                cmd.RemoveMember,
                "Take a member out of the party.",
                "pc remove Ash",
            ),
        ),
        read.read_pc,
    ),
    Verb(
        "party",
        "The party as a whole: its stock of resources, its marching order.",
        (
            Form(
                (
                    _value("+N|-N RESOURCE", "resource-change", optional=True, many=True),
                    _family("RESOURCE=N", "resource"),
                ),
                cmd.EditParty,
                "Change a resource the party keeps as one stock: +N or -N, or RESOURCE=N.",
                "party +5 rations",
            ),
            Form(
                (_word("order"), _value("NAME", "member", many=True)),
                cmd.SetMarchingOrder,
                "Set the marching order, front first; members left out follow in their order. "
                "Where a light lights only some members, it lights its carrier's nearest.",
                "party order Ash Bo Cy",
            ),
        ),
        read.read_party,
    ),
    Verb(
        "light",
        "Light sources: add, light, put out, hand over, correct, refuel.",
        (
            Form(
                (
                    _word("add"),
                    _value("KIND", "light-kind"),
                    _key("carrier", "NAME", "member"),
                    _key("count", "N", "number"),
                    Word("lit", "flag", optional=True),
                    _key("burn", "N", "number"),
                ),
                cmd.AddLight,
                "Add lights of a kind (a stack with count=N), carried by a member, lit or not "
                "(burn=N: the dice of a lit one whose time is rolled).",
                "light add torch count=6 carrier=Ash",
            ),
            Form(
                (
                    _word("on"),
                    _value("ID|KIND", "unlit"),
                    _key("carrier", "NAME", "member"),
                    _key("burn", "N", "number"),
                ),
                cmd.LightOn,
                "Light a light (one from a stack, named by its kind); burn=N types the dice "
                "of a kind whose time is rolled when lit.",
                "light on torch1",
            ),
            Form(
                (_word("off"), _value("ID|KIND", "lit")),
                cmd.LightOff,
                "Put a light out; it can be lit again.",
                "light off torch2",
            ),
            Form(
                (_word("give"), _value("ID", "light"), _value("NAME|nobody", "carrier")),
                cmd.HandLight,
                "Hand a light to another member, or to nobody.",
                "light give torch2 nobody",
            ),
            Form(
                (
                    _word("set"),
                    _value("ID", "light"),
                    _key("turns|minutes", "N", "number", optional=False),
                ),
                cmd.SetLight,
                "Correct the time a light has left (a light that counts turns or minutes).",
                "light set torch2 turns=2",
            ),
            Form(
                (
                    _word("set"),
                    _value("ID", "light"),
                    _key("die", "dN", "usage-die", optional=False),
                ),
                cmd.SetLight,
                "Correct a light's usage die (d4, d6, d8, d10, d12 or d20).",
                "light set torch1 die=d6",
            ),
            Form(
                (_word("refuel"), _value("ID", "light")),
                cmd.RefuelLight,
                "Refuel a light: new time, a whole usage die and no strikes (taking the "
                "kind's refuel_resource, when it names one).",
                "light refuel lantern1",
            ),
            Form(
                (_word("realtime"), _value("ID", "light"), _value("DURATION|off", "duration")),
                cmd.SetRealTime,
                "Let a light burn by the table's real clock for this long (60m, 1h30m, 90s), "
                "or by turns again (off).",
                "light realtime torch1 60m",
            ),
        ),
        read.read_light,
    ),
    Verb(
        "turn",
        "Take a turn.",
        (
            Form(
                (
                    _value("ACTION", "action", optional=True),
                    _ROLLS,
                    _family("INPUT=VALUE", "input"),
                ),
                cmd.TakeTurn,
                "Take a turn with an action (the last one when none is named); give a die "
                "rolled at the table as ROLL=N and the players' results as INPUT=VALUE.",
                "turn search hazard=3",
            ),
        ),
        read.read_turn,
    ),
    Verb(
        "do",
        "Do something within the turn.",
        (
            Form(
                (
                    _value("ACTIVITY", "activity"),
                    _key("by", "NAME", "member"),
                    _ROLLS,
                    _family("INPUT=VALUE", "input", brief=None),
                ),
                cmd.DoActivity,
                "Do an activity of the procedure without taking a turn.",
                "do batter-door by=Ash",
            ),
        ),
        read.read_do,
    ),
    Verb(
        "roll",
        "Roll any dice into the log.",
        (
            Form(
                (
                    _value("EXPR", "dice"),
                    _value("WHAT FOR", "text", optional=True),
                    _key("result", "N", "faces", brief=None),
                ),
                cmd.RollDice,
                "Roll dice for the log, saying what for; result=N gives the dice you rolled.",
                "roll 2d6 reaction",
            ),
        ),
        read.read_roll,
    ),
    Verb(
        "note",
        "Write in the log.",
        (
            Form(
                (_value("TEXT", "text"),),
                cmd.Note,
                "A note for the log, kept exactly as typed.",
                "note Ash's torch is out",
            ),
        ),
        read.read_note,
    ),
    Verb("undo", "Undo the last command.", (_UNDO,), read.read_bare("undo", cmd.Undo)),
    Verb("redo", "Redo what was undone.", (_REDO,), read.read_bare("redo", cmd.Redo)),
    Verb(
        "session",
        "The evenings at the table.",
        (
            Form((_word("start"),), cmd.Session, "Start a session.", "session start"),
            Form((_word("end"),), cmd.Session, "End the running session.", "session end"),
        ),
        read.read_session,
    ),
    Verb(
        "time",
        "The clock.",
        (
            Form(
                (_word("set"), _value("HH:MM", "clock")),
                cmd.SetTime,
                "Set the clock to a time of day.",
                "time set 07:30",
            ),
            Form(
                (
                    _word("roll"),
                    _value("N", "number", optional=True),
                    _key("time", "FACES", "faces", brief=None),
                ),
                cmd.RollTime,
                "Roll 1 to 4 time dice and set the hour to their sum.",
                "time roll 2",
            ),
        ),
        read.read_time,
    ),
    Verb(
        "enter",
        "Another kind of turn.",
        (
            Form(
                (_value("TURN-TYPE", "turn-type"),),
                cmd.EnterTurnType,
                "Switch to another kind of turn (dungeon, wilderness, haven).",
                "enter wilderness",
            ),
        ),
        read.read_enter,
    ),
    Verb(
        "encounter",
        "This turn's encounter.",
        (
            Form(
                (_key("creature", "TEXT", "text"), _key("distance", "TEXT", "text")),
                cmd.DescribeEncounter,
                "Name this turn's encounter or say how far away it is, after the dice showed it.",
                "encounter creature=ghouls distance=40ft",
            ),
        ),
        read.read_encounter,
    ),
    Verb(
        "counter",
        "The procedure's counters (the alarm, the danger).",
        (
            Form(
                (
                    _word("set"),
                    _value("COUNTER", "counter"),
                    _value("N|+N|-N|LEVEL", "counter-value"),
                ),
                cmd.SetCounter,
                "Set a counter to a number, change it by +N or -N, or set it to one of its "
                "named levels.",
                "counter set danger risky",
            ),
        ),
        read.read_counter,
    ),
    Verb(
        "reveal",
        "Show the players.",
        (
            Form(
                (_SHOWN,),
                cmd.ShowPlayers,
                "Show the sign, the last encounter or the hit points on the players' screen.",
                "reveal sign",
                aside="on the players' screen",
            ),
        ),
        read.read_show("reveal"),
    ),
    Verb(
        "hide",
        "Hide from the players.",
        (
            Form(
                (_SHOWN,),
                cmd.ShowPlayers,
                "Take it off the players' screen again.",
                "hide sign",
                aside="from the players' screen",
            ),
        ),
        read.read_show("hide"),
    ),
    Verb(
        "realtime",
        "The table's real-time clock.",
        (
            Form(
                (
                    _word("pause"),
                    _value("DURATION", "duration", optional=True),
                    _value("WHY", "text", optional=True),
                ),
                cmd.RealTime,
                "Pause every light that burns in real time (recording the time that passed).",
                "realtime pause 5m a rest",
            ),
            Form(
                (_word("resume"),),
                cmd.RealTime,
                "Let the real-time lights burn again.",
                "realtime resume",
            ),
            Form(
                (
                    _word("pass"),
                    _value("DURATION", "duration"),
                    _value("ID", "light", optional=True, many=True),
                ),
                cmd.RealTime,
                "Record real time that passed, for every real-time light and timer or the "
                "ones named.",
                "realtime pass 90s torch1",
            ),
        ),
        read.read_realtime,
    ),
)

#: The adventure's own tables: carried from a file, one area's table in use.
_TABLES = Form(
    (_word("add"), _value("FILE", "file")),
    cmd.AddTables,
    "Carry the adventure's own tables from a TOML file (kept in the expedition, not read again).",
    "tables add crypt.toml",
)
_AREA = Form(
    (_value("AREA", "area"),), cmd.EnterArea, "Use this area's table from now on.", "area level-2"
)
_TIMER = Verb(
    "timer",
    "Timers: a spell, a burning fuse, a door swinging shut.",
    (
        Form(
            (_word("add"), _value("NAME", "new-timer"), _value("LENGTH", "span", optional=True)),
            cmd.SetTimer,
            "Start a timer of N turns (6t), in-world minutes (30m), hours (2h) or real "
            "minutes at the table (10rm); a timer the procedure declares may leave out its "
            "usual length. It counts down, warns a turn (or a real minute) before it runs "
            "out and ends by itself.",
            "timer add bless 6t",
        ),
        Form(
            (_word("set"), _value("NAME", "timer"), _value("LENGTH", "span")),
            cmd.SetTimer,
            "Give a running timer another length from now.",
            "timer set bless 3t",
        ),
        Form(
            (_word("cancel"), _value("NAME", "timer")),
            cmd.SetTimer,
            "Stop a timer before it runs out.",
            "timer cancel bless",
        ),
    ),
    read.read_timer,
)
#: Ending an expedition, and taking it up again.
_END = Form(
    (_value("WORDS", "text", optional=True),),
    cmd.EndExpedition,
    "End the expedition (the party is back in town): it then takes only reopen, undo and redo.",
    "end the party is back in town",
)
_REOPEN = Form((), cmd.Reopen, "Take up again an expedition that was ended.", "reopen")
GRAMMAR += (
    _TIMER,
    Verb("tables", "The adventure's own encounter tables.", (_TABLES,), read.read_tables),
    Verb("area", "The area of the adventure the party is in.", (_AREA,), read.read_area),
    Verb("end", "End the expedition.", (_END,), read.read_end),
    Verb("reopen", "Take it up again.", (_REOPEN,), read.read_bare("reopen", cmd.Reopen)),
)

VERBS: dict[str, Verb] = {verb.name: verb for verb in GRAMMAR}

#: Each verb's usage line, as error messages end with it.
USAGE: dict[str, str] = {verb.name: verb.usage() for verb in GRAMMAR}


def forms() -> Iterator[tuple[Verb, Form]]:
    """Every form of every verb, in the table's order."""
    for verb in GRAMMAR:
        for form in verb.forms:
            yield verb, form
