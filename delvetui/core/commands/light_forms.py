"""The light verb: its commands and its forms (light sources added, lit, put out, handed
over, corrected).

Part of the one table of the command language (``grammar.GRAMMAR``, where the verb takes
its place); kept in a module of its own because it is the verb with the most forms. Each
command is declared beside the forms that make it; ``__all__`` names them, and the package
gives each by its name (``commands.AddLight``) like those of ``types``.
"""

from __future__ import annotations

import attrs

from delvetui.core.commands import kinds
from delvetui.core.commands.forms import Form, Verb, flag, key, sub, value
from delvetui.core.commands.types import Command

__all__ = [
    "LIGHT",
    "MAX_STACK",
    "AddLight",
    "DeclareLightKind",
    "DouseLights",
    "HandLight",
    "LightOff",
    "LightOn",
    "RefuelLight",
    "SetLight",
    "SetRealTime",
]


@attrs.frozen(repr=False, eq=False)
class AddLight(Command):
    """Add light sources to the inventory."""

    kind: str
    carrier: str | None = None
    count: int = 1
    lit: bool = False
    #: Results typed for the rolls lighting it makes (``burn=N``), when it is added lit.
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen(repr=False, eq=False)
class LightOn(Command):
    """Light a source (by id, or one of a kind)."""

    target: str
    carrier: str | None = None
    #: Results typed for the rolls lighting makes (``burn=N``: a rolled duration).
    values: tuple[tuple[str, str], ...] = ()


@attrs.frozen(repr=False, eq=False)
class LightOff(Command):
    """Put out a lit source (by id, or one of a kind); it can be lit again."""

    target: str


@attrs.frozen(repr=False, eq=False)
class DouseLights(Command):
    """Put out every lit light at once, or every one a member carries (a gust, a fall into
    water); each can be lit again."""

    carrier: str | None = None


@attrs.frozen(repr=False, eq=False)
class HandLight(Command):
    """Hand a light to another member (or to nobody)."""

    target: str
    carrier: str | None


@attrs.frozen(repr=False, eq=False)
class SetLight(Command):
    """Correct the record of a light: its time left, or its usage die (``die``, e.g. 6)."""

    target: str
    minutes: int | None = None
    turns: int | None = None
    die: int | None = None


@attrs.frozen(repr=False, eq=False)
class RefuelLight(Command):
    """Refuel a light (a lantern's flask of oil)."""

    target: str


@attrs.frozen(repr=False, eq=False)
class SetRealTime(Command):
    """Make a light burn in real time with this many seconds left (None: by turns again)."""

    target: str
    seconds: int | None


@attrs.frozen(repr=False, eq=False)
class DeclareLightKind(Command):
    """Declare a kind of light the procedure lacks (a candle, a Light spell, a glowing
    sword): how long a fresh one burns (``amount`` in ``unit``: turns, minutes, hours or
    real minutes; None: until put out), or its usage die, and whether it is dim."""

    kind: str
    amount: int | None = None
    unit: str = "turns"
    die: int | None = None
    dim: bool = False
    #: Its name in the lights pane and the log ('' for the kind's id, in words).
    label: str = ""


#: The most lights one ``light add`` brings (a stack of torches).
MAX_STACK = 999

_LIGHT = value("ID", "light", "target")
_TYPED = kinds.Typed()
_LABEL = kinds.Text(what="the label", rest=False)
_NOT_LIGHT = "light {sub} takes one light id or kind."

LIGHT = Verb(
    "light",
    "Light sources: add, light, put out, hand over, correct, refuel.",
    (
        Form(
            (
                sub("add"),
                value("KIND", "light-kind", "kind"),
                key("count", "N", "number", type=kinds.Number(least=1, most=MAX_STACK)),
                key("carrier", "NAME", "member"),
                flag("lit", "lit"),
                key("burn", "N", "number", "values", type=_TYPED, at_table=True),
            ),
            AddLight,
            "Add lights of a kind (a stack with count=N), carried by a member, lit or not "
            "(burn=N: the dice of a lit one whose time is rolled).",
            "light add torch count=6 carrier=Ash",
            wrong="light add takes one kind, e.g. light add torch count=6.",
        ),
        Form(
            (
                sub("kind"),
                value("ID", "new-light-kind", "kind"),
                value("LENGTH", "span", "amount", "unit", optional=True),
                key("die", "dN", "usage-die", "die"),
                flag("dim", "dim"),
                key(
                    "label", "TEXT", "text", "label", type=kinds.Text(what="the label", rest=False)
                ),
            ),
            DeclareLightKind,
            "Declare a kind of light the procedure lacks, kept with the expedition and the "
            "next: how long a fresh one burns (6t, 30m, 2h, 60rm in real minutes; none: until "
            "put out) or its usage die (die=d6), dim or bright, and its name (label=TEXT).",
            "light kind candle 6t dim",
            wrong="light kind takes a new kind's id, then a length (6t, 2h) or die=dN, "
            "dim, and label=TEXT, e.g. light kind light-spell 12t.",
        ),
        Form(
            (
                sub("on"),
                value("ID|KIND", "unlit", "target"),
                key("carrier", "NAME", "member"),
                key("burn", "N", "number", "values", type=_TYPED, at_table=True),
            ),
            LightOn,
            "Light a light (one from a stack, named by its kind); burn=N types the dice "
            "of a kind whose time is rolled when lit.",
            "light on torch1",
            wrong=_NOT_LIGHT.format(sub="on"),
        ),
        Form(
            (sub("off"), value("ID|KIND", "lit", "target")),
            LightOff,
            "Put a light out; it can be lit again.",
            "light off torch2",
            wrong=_NOT_LIGHT.format(sub="off"),
        ),
        Form(
            (sub("douse"), key("carrier", "NAME", "member")),
            DouseLights,
            "Put out every lit light at once (a gust of wind, a fall into water), or every "
            "one a member carries; each can be lit again.",
            "light douse carrier=Ash",
            wrong="light douse takes nothing but carrier=NAME.",
        ),
        Form(
            (sub("give"), _LIGHT, value("NAME|nobody", "carrier", "carrier")),
            HandLight,
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
            SetLight,
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
            SetLight,
            "Correct a light's usage die (d4, d6, d8, d10, d12 or d20).",
            "light set torch1 die=d6",
        ),
        Form(
            (sub("refuel"), _LIGHT),
            RefuelLight,
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
            SetRealTime,
            "Let a light burn by the table's real clock for this long (60m, 1h30m, 90s), "
            "or by turns again (off).",
            "light realtime torch1 60m",
            wrong="light realtime takes a light id and a time (60m, 1h30m) or off.",
        ),
    ),
    wrong="'{word}' is not something to do with a light.",
    empty="Say what to do with a light.",
)
