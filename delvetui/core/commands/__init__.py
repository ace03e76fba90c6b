"""The command language shared by ``delvetui act``, the table's command line and its keys.

``types`` holds the commands (frozen values), ``grammar`` the one table of verbs, forms
and words every other part reads, ``readers`` the reading of each verb's words and
``parser`` the way from text to a command and back.

The package loads its modules on first use (PEP 562, as ``textual.widgets`` does): opening
an expedition and painting the table need no command, and importing the language was
about a fortieth of the table's start-up (docs/performance.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from delvetui import lazy

if TYPE_CHECKING:
    from delvetui.core.commands.grammar import GRAMMAR, USAGE, VERBS, Form, Verb, Word
    from delvetui.core.commands.parser import (
        amount,
        parse,
        said,
        spoken,
        with_value,
        without_keys,
    )
    from delvetui.core.commands.types import (
        MAX_COMMAND_LENGTH,
        MAX_NAME_LENGTH,
        MAX_NUMBER,
        MAX_REAL_SECONDS,
        PLAYERS_SHOW,
        AddLight,
        AddMember,
        AddTables,
        Amount,
        Command,
        DescribeEncounter,
        DoActivity,
        EditMember,
        EditParty,
        EndExpedition,
        EnterArea,
        EnterTurnType,
        HandLight,
        LightOff,
        LightOn,
        Note,
        RealTime,
        Redo,
        RefuelLight,
        RemoveMember,
        Reopen,
        RollDice,
        RollTime,
        Session,
        SetCounter,
        SetLight,
        SetMarchingOrder,
        SetRealTime,
        SetTime,
        SetTimer,
        ShowPlayers,
        TakeTurn,
        Undo,
    )

__all__ = [
    "GRAMMAR",
    "MAX_COMMAND_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_NUMBER",
    "MAX_REAL_SECONDS",
    "PLAYERS_SHOW",
    "USAGE",
    "VERBS",
    "AddLight",
    "AddMember",
    "AddTables",
    "Amount",
    "Command",
    "DescribeEncounter",
    "DoActivity",
    "EditMember",
    "EditParty",
    "EndExpedition",
    "EnterArea",
    "EnterTurnType",
    "Form",
    "HandLight",
    "LightOff",
    "LightOn",
    "Note",
    "RealTime",
    "Redo",
    "RefuelLight",
    "RemoveMember",
    "Reopen",
    "RollDice",
    "RollTime",
    "Session",
    "SetCounter",
    "SetLight",
    "SetMarchingOrder",
    "SetRealTime",
    "SetTime",
    "SetTimer",
    "ShowPlayers",
    "TakeTurn",
    "Undo",
    "Verb",
    "Word",
    "amount",
    "parse",
    "said",
    "spoken",
    "with_value",
    "without_keys",
]

#: The module of the package that defines each name.
_HOME = {
    "GRAMMAR": "grammar",
    "USAGE": "grammar",
    "VERBS": "grammar",
    "Form": "grammar",
    "Verb": "grammar",
    "Word": "grammar",
    "amount": "parser",
    "parse": "parser",
    "said": "parser",
    "spoken": "parser",
    "with_value": "parser",
    "without_keys": "parser",
    "MAX_COMMAND_LENGTH": "types",
    "MAX_NAME_LENGTH": "types",
    "MAX_NUMBER": "types",
    "MAX_REAL_SECONDS": "types",
    "PLAYERS_SHOW": "types",
    "AddLight": "types",
    "AddMember": "types",
    "AddTables": "types",
    "Amount": "types",
    "Command": "types",
    "DescribeEncounter": "types",
    "DoActivity": "types",
    "EditMember": "types",
    "EditParty": "types",
    "EndExpedition": "types",
    "EnterArea": "types",
    "EnterTurnType": "types",
    "HandLight": "types",
    "LightOff": "types",
    "LightOn": "types",
    "Note": "types",
    "RealTime": "types",
    "Redo": "types",
    "RefuelLight": "types",
    "RemoveMember": "types",
    "Reopen": "types",
    "RollDice": "types",
    "RollTime": "types",
    "Session": "types",
    "SetCounter": "types",
    "SetLight": "types",
    "SetMarchingOrder": "types",
    "SetRealTime": "types",
    "SetTime": "types",
    "SetTimer": "types",
    "ShowPlayers": "types",
    "TakeTurn": "types",
    "Undo": "types",
}


def __getattr__(name: str) -> Any:
    """A name of the package, imported from its module the first time it is asked for."""
    return lazy.attribute(__name__, _HOME, name, globals())
