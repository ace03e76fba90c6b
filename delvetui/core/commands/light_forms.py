"""The light verb's forms: light sources added, lit, put out, handed over, corrected.

Part of the one table of the command language (``grammar.GRAMMAR``, where the verb takes
its place); kept in a module of its own because it is the verb with the most forms.
"""

from __future__ import annotations

from delvetui.core.commands import kinds
from delvetui.core.commands import types as cmd
from delvetui.core.commands.forms import Form, Verb, flag, key, sub, value

_LIGHT = value("ID", "light", "target")
_TYPED = kinds.Typed()
_NOT_LIGHT = "light {sub} takes one light id or kind."

LIGHT = Verb(
    "light",
    "Light sources: add, light, put out, hand over, correct, refuel.",
    (
        Form(
            (
                sub("add"),
                value("KIND", "light-kind", "kind"),
                key("count", "N", "number", type=kinds.Number(least=1, most=999)),
                key("carrier", "NAME", "member"),
                flag("lit", "lit"),
                key("burn", "N", "number", "values", type=_TYPED),
            ),
            cmd.AddLight,
            "Add lights of a kind (a stack with count=N), carried by a member, lit or not "
            "(burn=N: the dice of a lit one whose time is rolled).",
            "light add torch count=6 carrier=Ash",
            wrong="light add takes one kind, e.g. light add torch count=6.",
        ),
        Form(
            (
                sub("on"),
                value("ID|KIND", "unlit", "target"),
                key("carrier", "NAME", "member"),
                key("burn", "N", "number", "values", type=_TYPED),
            ),
            cmd.LightOn,
            "Light a light (one from a stack, named by its kind); burn=N types the dice "
            "of a kind whose time is rolled when lit.",
            "light on torch1",
            wrong=_NOT_LIGHT.format(sub="on"),
        ),
        Form(
            (sub("off"), value("ID|KIND", "lit", "target")),
            cmd.LightOff,
            "Put a light out; it can be lit again.",
            "light off torch2",
            wrong=_NOT_LIGHT.format(sub="off"),
        ),
        Form(
            (sub("douse"), key("carrier", "NAME", "member")),
            cmd.DouseLights,
            "Put out every lit light at once (a gust of wind, a fall into water), or every "
            "one a member carries; each can be lit again.",
            "light douse carrier=Ash",
            wrong="light douse takes nothing but carrier=NAME.",
        ),
        Form(
            (sub("give"), _LIGHT, value("NAME|nobody", "carrier", "carrier")),
            cmd.HandLight,
            "Hand a light to another member, or to nobody.",
            "light give torch2 nobody",
            wrong="light give takes a light id and a name (or nobody).",
        ),
        Form(
            (
                sub("set"),
                _LIGHT,
                key("turns|minutes", "N", "number", optional=False),
            ),
            cmd.SetLight,
            "Correct the time a light has left (a light that counts turns or minutes).",
            "light set torch2 turns=2",
            wrong="Give one of turns=N, minutes=N or die=dN (a usage die).",
        ),
        Form(
            (
                sub("set"),
                _LIGHT,
                key("die", "dN", "usage-die", optional=False),
            ),
            cmd.SetLight,
            "Correct a light's usage die (d4, d6, d8, d10, d12 or d20).",
            "light set torch1 die=d6",
        ),
        Form(
            (sub("refuel"), _LIGHT),
            cmd.RefuelLight,
            "Refuel a light: new time, a whole usage die and no strikes (taking the "
            "kind's refuel_resource, when it names one).",
            "light refuel lantern1",
            wrong=_NOT_LIGHT.format(sub="refuel"),
        ),
        Form(
            (
                sub("realtime"),
                _LIGHT,
                value("DURATION|off", "duration", "seconds", type=kinds.Duration(off=True)),
            ),
            cmd.SetRealTime,
            "Let a light burn by the table's real clock for this long (60m, 1h30m, 90s), "
            "or by turns again (off).",
            "light realtime torch1 60m",
            wrong="light realtime takes a light id and a time (60m, 1h30m) or off.",
        ),
    ),
    wrong="'{word}' is not something to do with a light.",
    empty="Say what to do with a light.",
)
