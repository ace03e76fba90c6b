"""The command language as one table: every verb, its forms, their words, help and examples.

Each form is declared once: its words (and the command field each fills, with its type and
limits), the command it makes, its help, its example and the sentence said when the words
do not fit. Everything that knows the shape of a command reads this table: ``parse`` reads
a line by its forms and ``spoken`` writes a command back by them (``forms.py``), ``USAGE``
(the line an error message ends with) is drawn from the forms, the command line completes
words by their kind, the palette and the help list the verbs, and the reference part of
``docs/commands.md`` is written from it (``python -m delvetui.core.commands
docs/commands.md``). Adding a command is one ``Form`` here (the light verb's forms are in
``light_forms.py``, the dungeon's in ``room_forms.py``), with its command class beside it
when no class fits (named in ``__all__``), and its handler in ``decide``.
"""

from __future__ import annotations

from collections.abc import Iterator

from delvetui.core.commands import kinds
from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd
from delvetui.core.commands.fight_forms import FIGHT, FLEE, FOE, MORALE, ROUND
from delvetui.core.commands.forms import (
    Form,
    Verb,
    Word,
    family,
    forms_of,
    key,
    sub,
    value,
)
from delvetui.core.commands.light_forms import LIGHT
from delvetui.core.commands.room_forms import GO, ROOM

__all__ = ["GRAMMAR", "USAGE", "VERBS", "Form", "Verb", "Word", "forms"]

_NAME = value("NAME", "member", "name")
_ROLLS = family("ROLL=N", "roll", "values", at_table=True)
_SHOWN = value("sign|encounter|hp|foes|room", "shown", "what")
_TYPED = kinds.Typed()
_TIMER_WRONG = "Say timer add NAME 6t, timer set NAME 3t or timer cancel NAME."

#: The command language, in the order help and errors list it.
GRAMMAR: tuple[Verb, ...] = (
    Verb(
        "pc",
        "The party: add a member, change one, take one out.",
        (
            Form(
                (
                    sub("add"),
                    value("NAME", "new-name", "name"),
                    key(
                        "hp",
                        "N",
                        "number",
                        optional=False,
                        type=kinds.Number(least=1),
                        missing="Give {name}'s hit points, e.g. pc add {name} hp=8.",
                    ),
                    key(
                        "max",
                        "N",
                        "number",
                        "max_hp",
                        brief=None,
                        type=kinds.Number(least=1),
                        default_from="hp",
                    ),
                    family("ABILITY=N", "ability", "abilities"),
                ),
                cmd.AddMember,
                "Add a member with hit points (and a maximum) and ability scores (the "
                "procedure's, when it lists any); a member resource named here is their "
                "start (rations=2).",
                "pc add Ash hp=8 STR=14",
                wrong="pc add takes one name (quote a name with spaces).",
            ),
            Form(
                (
                    _NAME,
                    key("hp", "N|+N|-N", "amount"),
                    key("max", "N", "number"),
                    family("ABILITY=N", "ability", brief=None),
                    key("fatigue", "N|+N|-N", "amount", brief="fatigue=N"),
                    Word("+CONDITION", "gain", optional=True),
                    Word("-CONDITION", "lose", optional=True),
                ),
                cmd.EditMember,
                "Change hit points (a value, or +N healing, -N damage), the maximum, "
                "abilities, fatigue or conditions (+poisoned:6 lasts 6 turns, +shaken:rest "
                "until the next rest).",
                "pc Ash hp=-2 +poisoned:6",
                reader=read.read_member_change,
                writer=read.member_change_words,
            ),
            Form(
                (
                    _NAME,
                    value("+N|-N RESOURCE", "resource-change", optional=True, many=True),
                    family("RESOURCE=N", "resource", brief=None),
                ),
                cmd.EditMember,
                "Change a member's own resources: +N or -N of one, or RESOURCE=N to set it.",
                "pc Ash +2 rations",
                reader=read.read_member_change,
                writer=read.member_change_words,
            ),
            Form(
                (sub("remove"), _NAME),
                cmd.RemoveMember,
                "Take a member out of the party.",
                "pc remove Ash",
                wrong="pc remove takes one name.",
            ),
        ),
    ),
    Verb(
        "party",
        "The party as a whole: its stock of resources, its marching order.",
        (
            Form(
                (
                    value("+N|-N RESOURCE", "resource-change", optional=True, many=True),
                    family("RESOURCE=N", "resource"),
                ),
                cmd.EditParty,
                "Change a resource the party keeps as one stock: +N or -N, or RESOURCE=N.",
                "party +5 rations",
                reader=read.read_party_change,
                writer=read.party_change_words,
            ),
            Form(
                (
                    sub("order"),
                    value(
                        "NAME",
                        "member",
                        "names",
                        many=True,
                        missing="Name the members front first, e.g. party order Ash Bo.",
                    ),
                ),
                cmd.SetMarchingOrder,
                "Set the marching order, front first; members left out follow in their order. "
                "Where a light lights only some members, it lights its carrier's nearest.",
                "party order Ash Bo Cy",
            ),
        ),
    ),
    LIGHT,
    Verb(
        "turn",
        "Take a turn.",
        (
            Form(
                (
                    value("ACTION", "action", "action", optional=True),
                    _ROLLS,
                    family("INPUT=VALUE", "input", "values", at_table=True),
                ),
                cmd.TakeTurn,
                "Take a turn with an action (the last one when none is named); give a die "
                "rolled at the table as ROLL=N and the players' results as INPUT=VALUE.",
                "turn search hazard=3",
                wrong="A turn takes one action, not '{words}'.",
            ),
        ),
    ),
    Verb(
        "do",
        "Do something within the turn.",
        (
            Form(
                (
                    value("ACTIVITY", "activity", "activity"),
                    key("by", "NAME", "member", "values", type=_TYPED),
                    _ROLLS,
                    family("INPUT=VALUE", "input", "values", brief=None, at_table=True),
                ),
                cmd.DoActivity,
                "Do an activity of the procedure without taking a turn.",
                "do batter-door by=Ash",
                wrong="Name one activity.",
            ),
        ),
    ),
    Verb(
        "roll",
        "Roll any dice into the log.",
        (
            Form(
                (
                    value("EXPR", "dice", "expression"),
                    value(
                        "WHAT FOR",
                        "text",
                        "purpose",
                        optional=True,
                        type=kinds.Text(what="what a roll is for"),
                    ),
                    key("result", "N", "faces", "value", brief=None, at_table=True),
                ),
                cmd.RollDice,
                "Roll dice for the log, saying what for; result=N gives the dice you rolled.",
                "roll 2d6 reaction",
                wrong="Give the dice to roll, e.g. roll 2d6 reaction.",
            ),
        ),
    ),
    Verb(
        "note",
        "Write in the log.",
        (
            Form(
                (value("TEXT", "text", "note"),),
                cmd.Note,
                "A note for the log, kept exactly as typed.",
                "note Ash's torch is out",
                reader=read.read_note,
                writer=read.note_words,
            ),
        ),
    ),
    Verb(
        "undo",
        "Undo the last command.",
        (Form((), cmd.Undo, "Void the last command still standing.", "undo"),),
        wrong="undo takes nothing more.",
    ),
    Verb(
        "redo",
        "Redo what was undone.",
        (Form((), cmd.Redo, "Bring back the last command undone.", "redo"),),
        wrong="redo takes nothing more.",
    ),
    Verb(
        "session",
        "The evenings at the table.",
        (
            Form(
                (sub("start"),),
                cmd.Session,
                "Start a session.",
                "session start",
                sets=(("start", True),),
            ),
            Form(
                (sub("end"),),
                cmd.Session,
                "End the running session.",
                "session end",
                sets=(("start", False),),
            ),
        ),
        wrong="Say session start or session end.",
    ),
    Verb(
        "time",
        "The clock.",
        (
            Form(
                (sub("set"), value("HH:MM", "clock", "hour", "minute")),
                cmd.SetTime,
                "Set the clock to a time of day.",
                "time set 07:30",
            ),
            Form(
                (
                    sub("roll"),
                    value(
                        "N",
                        "number",
                        "count",
                        optional=True,
                        type=kinds.Number(least=1, most=4, beyond="Roll 1 to 4 time dice."),
                    ),
                    key("time", "FACES", "faces", "value", brief=None, at_table=True),
                ),
                cmd.RollTime,
                "Roll 1 to 4 time dice and set the hour to their sum.",
                "time roll 2",
            ),
        ),
        wrong="Say time set HH:MM or time roll N.",
    ),
    Verb(
        "enter",
        "Another kind of turn.",
        (
            Form(
                (value("TURN-TYPE", "turn-type", "turn_type"),),
                cmd.EnterTurnType,
                "Switch to another kind of turn (dungeon, wilderness, haven).",
                "enter wilderness",
                wrong="Name one turn type.",
            ),
        ),
    ),
    Verb(
        "encounter",
        "This turn's encounter.",
        (
            Form(
                (
                    key("creature", "TEXT", "text", type=kinds.Text(what="a creature")),
                    key("distance", "TEXT", "text", type=kinds.Text(what="a distance")),
                ),
                cmd.DescribeEncounter,
                "Name this turn's encounter or say how far away it is, after the dice showed it.",
                "encounter creature=ghouls distance=40ft",
                wrong="'{word}' needs a key: creature= or distance=.",
                least="Say what it is (creature=NAME), how far (distance=TEXT), or both.",
            ),
        ),
    ),
    FOE,
    FIGHT,
    ROUND,
    MORALE,
    FLEE,
    Verb(
        "counter",
        "The procedure's counters (the alarm, the danger).",
        (
            Form(
                (
                    sub("set"),
                    value("COUNTER", "counter", "counter"),
                    value("N|+N|-N|LEVEL", "counter-value", "value"),
                ),
                cmd.SetCounter,
                "Set a counter to a number, change it by +N or -N, or set it to one of its "
                "named levels.",
                "counter set danger risky",
            ),
        ),
        wrong="Say counter set COUNTER VALUE, e.g. counter set alarm 3.",
    ),
    Verb(
        "reveal",
        "Show the players.",
        (
            Form(
                (_SHOWN,),
                cmd.ShowPlayers,
                "Show the sign, the last encounter, the hit points, the foes or the room's label "
                "on the players' screen.",
                "reveal sign",
                aside="on the players' screen",
                sets=(("shown", True),),
                wrong="Say reveal sign, reveal encounter, reveal hp, reveal foes or reveal room.",
            ),
        ),
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
                sets=(("shown", False),),
                wrong="Say hide sign, hide encounter, hide hp, hide foes or hide room.",
            ),
        ),
    ),
    Verb(
        "realtime",
        "The table's real-time clock.",
        (
            Form(
                (
                    sub("pause"),
                    value(
                        "DURATION",
                        "duration",
                        "seconds",
                        optional=True,
                        type=kinds.Duration(least=0),
                    ),
                    value(
                        "WHY",
                        "text",
                        "reason",
                        optional=True,
                        type=kinds.Text(what="why the clock pauses"),
                    ),
                ),
                cmd.RealTime,
                "Pause every light that burns in real time (recording the time that passed).",
                "realtime pause 5m a rest",
                sets=(("verb", "pause"),),
            ),
            Form(
                (sub("resume"),),
                cmd.RealTime,
                "Let the real-time lights burn again.",
                "realtime resume",
                sets=(("verb", "resume"),),
            ),
            Form(
                (
                    sub("pass"),
                    value("DURATION", "duration", "seconds"),
                    value(
                        "ID",
                        "light",
                        "ids",
                        optional=True,
                        many=True,
                        type=kinds.Type(what="a light id"),
                    ),
                ),
                cmd.RealTime,
                "Record real time that passed, for every real-time light and timer or the "
                "ones named.",
                "realtime pass 90s torch1",
                sets=(("verb", "pass"),),
            ),
        ),
        wrong="Say realtime pause, realtime resume or realtime pass DURATION.",
    ),
)

#: The adventure's own tables: carried from a file, one area's table in use.
_TABLES = Form(
    (sub("add"), value("FILE", "file", "path")),
    cmd.AddTables,
    "Carry the adventure's own tables from a file (kept in the expedition, not read again): "
    "TOML, or a table as printed (plain text, Markdown, CSV), converted.",
    "tables add crypt.toml",
)
_AREA_WORD = value("AREA", "area", "area")
_ROW_WORD = value("ROW", "table-row", "row")
_TABLE_ROWS = (
    Form(
        (sub("row"), _AREA_WORD, _ROW_WORD),
        cmd.SetTableRow,
        "Set a row of an area's table as printed (its faces, how many, the creature, its "
        "words): it replaces the row of those faces, or takes them from the rows that had "
        "them.",
        "tables row level-1 4-6 1d3 skeletons, in rusted mail",
        wrong="Say tables row AREA ROW, the row as printed: tables row level-1 4-6 1d3 skeletons.",
    ),
    Form(
        (sub("change"), _AREA_WORD, value("FACES", "table-faces", "faces"), _ROW_WORD),
        cmd.ChangeTableRow,
        "Make the row of exactly FACES the row given: the faces it takes come from the rows "
        "that had them, those it gives up go to the row next to them (below, else above).",
        "tables change level-1 2-3 2-4 1d6 giant rats",
        wrong="Say tables change AREA FACES ROW: tables change level-1 2-3 2-4 1d6 rats.",
    ),
    Form(
        (sub("remove"), _AREA_WORD, value("FACES", "table-faces", "faces")),
        cmd.RemoveTableRow,
        "Take the row of exactly FACES out of an area's table: its faces go to the row "
        "below it, else the row above.",
        "tables remove level-1 6",
        wrong="Say tables remove AREA FACES: tables remove level-1 6.",
    ),
)
_AREA = Form(
    (value("AREA", "area", "area"),),
    cmd.EnterArea,
    "Use this area's table from now on.",
    "area level-2",
    wrong="Name one area of the adventure's tables, e.g. area level-2.",
)
_TIMER = Verb(
    "timer",
    "Timers: a spell, a burning fuse, a door swinging shut.",
    (
        Form(
            (
                sub("add"),
                value("NAME", "new-timer", "name", missing=_TIMER_WRONG),
                value("LENGTH", "span", "amount", "unit", optional=True),
            ),
            cmd.SetTimer,
            "Start a timer of N turns (6t), in-world minutes (30m), hours (2h) or real "
            "minutes at the table (10rm); a timer the procedure declares may leave out its "
            "usual length. It counts down, warns a turn (or a real minute) before it runs "
            "out and ends by itself.",
            "timer add bless 6t",
            sets=(("verb", "add"),),
            wrong="timer add takes a name and one length, e.g. 6t or 30m.",
        ),
        Form(
            (
                sub("set"),
                value("NAME", "timer", "name", missing=_TIMER_WRONG),
                value(
                    "LENGTH",
                    "span",
                    "amount",
                    "unit",
                    missing="Say how long: timer set {name} 3t (turns), 30m or 2h.",
                ),
            ),
            cmd.SetTimer,
            "Give a running timer another length from now.",
            "timer set bless 3t",
            sets=(("verb", "set"),),
            wrong="timer set takes a name and one length, e.g. 6t or 30m.",
        ),
        Form(
            (sub("cancel"), value("NAME", "timer", "name", missing=_TIMER_WRONG)),
            cmd.SetTimer,
            "Stop a timer before it runs out.",
            "timer cancel bless",
            sets=(("verb", "cancel"),),
            wrong="timer cancel takes a timer's name only.",
        ),
    ),
    wrong=_TIMER_WRONG,
)
GRAMMAR += (
    _TIMER,
    Verb(
        "tables",
        "The adventure's own encounter tables.",
        (_TABLES, *_TABLE_ROWS),
        wrong="Say tables add FILE (quote a path with spaces), or tables row, change or "
        "remove AREA ...",
    ),
    Verb("area", "The area of the adventure the party is in.", (_AREA,)),
    ROOM,
    GO,
    Verb(
        "end",
        "End the expedition.",
        (
            Form(
                (value("WORDS", "text", "words", optional=True),),
                cmd.EndExpedition,
                "End the expedition (the party is back in town): it then takes only "
                "reopen, undo and redo.",
                "end the party is back in town",
                reader=read.read_end,
                writer=read.end_words,
            ),
        ),
    ),
    Verb(
        "reopen",
        "Take an ended expedition up again.",
        (Form((), cmd.Reopen, "Take up again an expedition that was ended.", "reopen"),),
        wrong="reopen takes nothing more.",
    ),
)

VERBS: dict[str, Verb] = {verb.name: verb for verb in GRAMMAR}

#: Each verb's usage line, as error messages end with it.
USAGE: dict[str, str] = {verb.name: verb.usage() for verb in GRAMMAR}


def forms() -> Iterator[tuple[Verb, Form]]:
    """Every form of every verb, in the table's order."""
    return forms_of(GRAMMAR)
