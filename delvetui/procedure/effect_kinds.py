"""What each kind of effect is: its name, its keys, its checks and its documentation.

This is the procedure side of an effect kind, everything the loader needs to accept or
refuse an effect and the paragraph ``docs/procedures.md`` opens its section with. What a
kind *does* is its handler in ``delvetui/core/effects/``, attached by name to the kind
declared here; this module imports nothing of the core (docs/design.md, Layers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import attrs

from delvetui.procedure.kind_checks import check_bounds, choices_offered, named_amount
from delvetui.procedure.model import ROOM_MARKS, Effect, Procedure
from delvetui.text import suggest

#: The keys every effect may have, whatever its kind.
SHARED_FIELDS = frozenset({"do", "text", "when", "unless_rest_next", "label"})

#: The only ``until`` a condition knows: the next rest (a turn of a rest action).
UNTIL = ("rest",)


class Checks(Protocol):
    """What a kind's check may call: the loader's checker, reporting each problem by path."""

    @property
    def procedure(self) -> Procedure:
        """The procedure being checked (converted, not yet whole)."""

    def problem(self, path: str, message: str) -> None:
        """Report a problem at a key path."""

    def advice(self, path: str, message: str) -> None:
        """Report a rule that runs but is half written (not for a text already stored)."""

    def ref(self, path: str, name: str, options: Mapping[str, Any], what: str) -> None:
        """Report a name that is not one of the options (a table, a counter, a light kind)."""

    def dice(self, path: str, text: str) -> None:
        """Report dice that do not parse."""


#: A kind's own check of one effect at a key path, beyond its keys' checks.
Check = Callable[[Checks, Effect, str], None]


@attrs.frozen
class EffectKind:
    """One kind of effect (``do = "..."``): what the loader and the docs know of it."""

    #: The name written as ``do``.
    name: str
    #: The keys it may have besides the shared ones (the loader refuses the others).
    fields: frozenset[str]
    #: The keys it must have.
    required: tuple[str, ...]
    #: What it does, as the first paragraph of its section in ``docs/procedures.md``.
    doc: str
    #: Its own check of an effect (beyond each key's, in KEY_CHECKS), if any.
    check: Check | None = None
    #: True when it changes nothing an encounter or a light depends on, whatever it does,
    #: so the odds need not follow each way its rolls fall (a log line, a sign).
    inert: bool = False

    @property
    def allowed(self) -> frozenset[str]:
        """Every key an effect of this kind may have."""
        return SHARED_FIELDS | self.fields


#: Every effect kind by name, in the order the docs list them (declared below).
KINDS: dict[str, EffectKind] = {}


def declare(
    name: str,
    *,
    doc: str,
    fields: tuple[str, ...] = (),
    required: tuple[str, ...] = (),
    check: Check | None = None,
    inert: bool = False,
) -> EffectKind:
    """Declare the effect kind ``name``; its ``doc`` is kept as one paragraph."""
    assert name not in KINDS, f"the effect kind {name!r} is declared twice"
    unknown = set(fields) - {field.name for field in attrs.fields(Effect)}
    assert not unknown, f"{name}: {sorted(unknown)} are not fields of Effect"
    KINDS[name] = EffectKind(
        name=name,
        fields=frozenset(fields),
        required=required,
        doc=" ".join(doc.split()),
        check=check,
        inert=inert,
    )
    return KINDS[name]


def _table(checks: Checks, effect: Effect, path: str) -> None:
    if effect.table:
        checks.ref(f"{path}.table", effect.table, checks.procedure.tables, "table")


def _dice(checks: Checks, effect: Effect, path: str) -> None:
    if effect.dice:
        checks.dice(f"{path}.dice", effect.dice)


def _counter(checks: Checks, effect: Effect, path: str) -> None:
    if effect.counter:
        checks.ref(f"{path}.counter", effect.counter, checks.procedure.counters, "counter")


def _dc_counter(checks: Checks, effect: Effect, path: str) -> None:
    if effect.dc_counter:
        checks.ref(f"{path}.dc_counter", effect.dc_counter, checks.procedure.counters, "counter")


def _track(checks: Checks, effect: Effect, path: str) -> None:
    if effect.track:
        checks.ref(f"{path}.track", effect.track, checks.procedure.tracks, "track")


def _kinds(checks: Checks, effect: Effect, path: str) -> None:
    for light in effect.kinds:
        checks.ref(f"{path}.kinds", light, checks.procedure.lights, "light kind")


def _low_kinds(checks: Checks, effect: Effect, path: str) -> None:
    for light in effect.low_kinds:
        checks.ref(f"{path}.low_kinds", light, checks.procedure.lights, "light kind")


def _resource(checks: Checks, effect: Effect, path: str) -> None:
    if effect.resource:
        checks.ref(f"{path}.resource", effect.resource, checks.procedure.resources, "resource")


def _distance_dice(checks: Checks, effect: Effect, path: str) -> None:
    if effect.distance_dice:
        checks.dice(f"{path}.distance_dice", effect.distance_dice)


#: The check of each key that names something or must parse, in the order they are made;
#: an effect's keys are checked before its kind's own check.
KEY_CHECKS: dict[str, Check] = {
    "table": _table,
    "dice": _dice,
    "counter": _counter,
    "dc_counter": _dc_counter,
    "track": _track,
    "kinds": _kinds,
    "low_kinds": _low_kinds,
    "resource": _resource,
    "distance_dice": _distance_dice,
    "amount": named_amount,
}


def check_effect(checks: Checks, effect: Effect, path: str) -> None:
    """Every check of one effect of a declared kind: its keys', then its kind's own."""
    found = KINDS[effect.do]
    for key, check in KEY_CHECKS.items():
        if key in found.fields:
            check(checks, effect, path)
    if found.check is not None:
        found.check(checks, effect, path)


# Each kind's own check, given to its declaration below as ``check=``.


def _has_amount(checks: Checks, effect: Effect, path: str) -> None:
    if effect.amount is None and not effect.dice:
        checks.problem(path, f"a '{effect.do}' effect needs 'amount' or 'dice'.")


def _gains_or_loses(checks: Checks, effect: Effect, path: str) -> None:
    if not (effect.condition or effect.remove or effect.remove_kind):
        checks.problem(path, "a 'condition' effect needs 'condition', 'remove' or 'remove_kind'.")
    key, lasts = duration_problem(effect.turns, effect.until)
    if lasts:
        checks.problem(f"{path}.{key}" if key else path, lasts)
    elif (effect.turns is not None or effect.until) and not effect.condition:
        checks.problem(path, "'turns' and 'until' say how long a 'condition' gained lasts.")
    if effect.remove_kind:
        kinds = {c.kind: c for c in checks.procedure.conditions.values() if c.kind}
        checks.ref(f"{path}.remove_kind", effect.remove_kind, kinds, "kind of condition")


def duration_problem(turns: int | None, until: str) -> tuple[str, str]:
    """What is wrong with a condition's duration: the key ('' for both) and the sentence
    ('' when nothing is)."""
    if turns is not None and turns < 1:
        return "turns", "'turns' should be at least 1."
    if until and until not in UNTIL:
        return "until", f"until = '{until}' is not allowed; use until = 'rest' (the next rest)."
    if turns is not None and until:
        return "", "give 'turns' or 'until', not both."
    return "", ""


def _check_strike(checks: Checks, effect: Effect, path: str) -> None:
    """A strike only counts against a kind that goes out on the Nth (``strikes = N``)."""
    lights = checks.procedure.lights
    if effect.kinds:
        for name in effect.kinds:
            found = lights.get(name)
            if found is not None and found.strikes is None:
                checks.advice(
                    f"{path}.kinds",
                    f"strikes the light kind '{name}', which has no strikes: give "
                    f"[lights.{name}] strikes = N (it goes out on the Nth), or it never goes out.",
                )
    elif not any(light.strikes is not None for light in lights.values()):
        checks.advice(
            path,
            "strikes every light, but no light kind has strikes: give a kind strikes = N "
            "(it goes out on the Nth), or it never goes out.",
        )


def _changes(checks: Checks, effect: Effect, path: str) -> None:
    changes = (effect.add is not None, effect.set is not None, effect.level, effect.dice)
    if not (any(changes) or effect.per_counter or effect.per_input):
        checks.problem(
            path,
            "a 'counter' effect needs 'add', 'set', 'level', 'dice', 'per_counter' or 'per_input'.",
        )
    for name in effect.per_counter:
        checks.ref(f"{path}.per_counter", name, checks.procedure.counters, "counter")
    found = checks.procedure.counters.get(effect.counter)
    if effect.level and found is not None and found.value_of(effect.level) is None:
        known = ", ".join(found.levels) or "it names no levels"
        checks.problem(
            f"{path}.level",
            f"'{effect.level}' is not a level of {found.label} ({known})."
            + suggest(effect.level, found.levels),
        )


def _positive_amount(checks: Checks, effect: Effect, path: str) -> None:
    if isinstance(effect.amount, int) and effect.amount < 1:
        checks.problem(f"{path}.amount", "should be at least 1.")


# The kinds, in the order the loader lists them when `do` is misspelt.

declare(
    "log",
    required=("text",),
    inert=True,
    doc="""
    Writes `text` (required) to the log.
    """,
)


declare(
    "roll",
    fields=("table", "dice", "ability", "counter"),
    required=("table",),
    doc="""
    Rolls on another table (required: `table`), with its dice or with `dice` if
    given, and applies the row rolled: a 2d6 disposition after an encounter. The
    game master types its result with the table's id: `disposition=7`. With
    `ability`, the lead member's modifier in it is added (the member the effect is
    about, else the one named with `by=NAME`, else the party's first member); with
    `counter`, the counter's value is added (a shift an earlier result left); a total
    beyond the table's rows reads its first or last row.
    """,
)


declare(
    "encounter",
    fields=("distance", "distance_dice", "distance_times", "distance_unit", "players"),
    doc="""
    Starts an encounter, with `text` (default "An encounter."), the game master's words,
    and `players`, what the players' screen says of it when shown ("Something moves in
    the dark."; without it, the screen says only that there is an encounter). If a sign that
    `foretells` was found since the last encounter, the encounter is with that
    creature, and the sign is forgotten; otherwise the game master may name the
    creature with `creature=TEXT`. An encounter during a rest interrupts it: the
    turns of rest in a row (a `streak`, such as an hour's rest of 6 turns) count
    again from the next turn of rest.  How far away it begins: `distance_dice` (with
    `distance_times`) rolls it in the unit of the kind of turn, or in `distance_unit`
    when given ("2d6 × 10 feet": `distance_dice = "2d6"`, `distance_times = 10`;
    "4d6 × 10 yards" on a day's travel counted in miles: `distance_unit = "yards"`),
    typed as `distance=N` like any roll; otherwise
    `distance` gives it in words ("far"), and the game master may say it with
    `distance=TEXT` ("30 feet", "across the chasm"). The log, the exports and the
    players' screen show it.
    """,
)


declare(
    "sign",
    fields=("foretells",),
    inert=True,
    doc="""
    The party finds a sign: the log shows `text`, or `sign=TEXT` if the game master
    typed what it was. Carrying a sign forward is an option: with `foretells = true`
    ("the next time an encounter is rolled, the PCs meet that creature") the table
    asks which creature the sign is of (`sign=NAME` on the command line), remembers
    it, and the next encounter is that creature. Without `foretells` (the default)
    the sign names nothing later.
    """,
)


declare(
    "damage",
    fields=("amount", "dice", "target", "per_point", "ability"),
    check=_has_amount,
    doc="""
    Takes hit points from the `target` (default `each`): a fixed `amount`, or `dice`
    (plus the member's `ability` modifier). `per_point = true` multiplies by the
    points a check missed by (use it inside `on_failure`). Hit points stop at 0.
    Typed results: `damage.NAME=N`.
    """,
)


declare(
    "heal",
    fields=("amount", "dice", "target", "ability"),
    check=_has_amount,
    doc="""
    Gives back hit points, up to each member's maximum: `amount` or `dice` (plus
    `ability`), to the `target`. Typed results: `heal.NAME=N`.
    """,
)


declare(
    "check",
    fields=(
        "id",
        "dice",
        "target",
        "ability",
        "dc",
        "dc_inputs",
        "dc_turns",
        "dc_counter",
        "dc_max",
        "dc_over",
        "above",
        "dc_ability",
        "on_success",
        "on_failure",
        "check_kind",
    ),
    required=("id",),
    check=check_bounds,
    doc="""
    A roll against a difficulty: the game's saves and ability checks. Required:
    `id`. It rolls `dice` (default `d20`) plus the member's `ability` modifier, for
    each member of the `target`, and succeeds when the total is at least the DC. The
    DC is `dc` (default 10), plus the numbers typed for `dc_inputs`, plus the turns
    taken so far with `dc_turns = true`, plus the value of the counter named by
    `dc_counter`, plus how far a track is over its limit with `dc_over = true`, and
    at most `dc_max`. Then the check's `on_success` or `on_failure` effects happen
    for that member (`target = "by"` in them means that member; `{margin}` is how
    far the roll missed). A light level's `check_mode`, the member's `fatigue_modes`
    and conditions add advantage or disadvantage, and so do the light level's
    `check_modes` for the check's `check_kind` ("sight", "attack"). Checks can hold
    checks, up to 6 levels deep. With `above`, the check is rolled under the member's
    `ability` score instead: the die alone (no modifier, no mode), a success when it is
    above `above` (plus the DC's additions) and at most the score. With `dc_ability`,
    the DC is the member's score in that ability in place of `dc` (a save's target
    number from the character's class and level, typed once like any score).
    """,
)


declare(
    "fatigue",
    fields=("step", "target"),
    doc="""
    Moves the `target` `step` steps up the party's fatigue ladder (fresh → tired →
    exhausted); a negative `step` moves down. It stops at the ends of the ladder.
    """,
)


declare(
    "condition",
    fields=("condition", "remove", "target", "turns", "until", "remove_kind"),
    check=_gains_or_loses,
    inert=True,
    doc="""
    Gives the `target` a `condition` (any word: "exhausted", "poisoned") and/or
    takes away those named in `remove` (one, or a list), and with `remove_kind`
    every condition of that declared kind ("transient"); at least one of the three
    is required. A condition gained lasts until taken away, or `turns` turns, or
    `until = "rest"` (the next rest), or as its `[conditions.ID]` says; then it ends
    by itself. The game master does the same with `pc Ash +poisoned`, `pc Ash
    +poisoned:6`, `pc Ash +shaken:rest` and `pc Ash -poisoned`.
    """,
)


declare(
    "lights-out",
    fields=("kinds", "count", "spent", "spare_fresh", "low_kinds", "low_turns"),
    doc="""
    Puts out the lit lights of `kinds` (all kinds when empty): at most `count` of
    them, those with the least time left first. With `spent = true` (the default)
    they are used up; with `spent = false` they can be lit again.
    """,
)


declare(
    "blow-out",
    fields=("kinds",),
    doc="""
    Puts out the lit lights of `kinds` whose kind has `can_blow_out = true`; they
    can be lit again. The log says "candle1 is blown out by TEXT": `text`
    ("running"), else the action's name.
    """,
)


declare(
    "lights-dim",
    fields=("kinds",),
    doc="""
    Steps the lit lights of `kinds` down: a bright light becomes dim, a dim light
    goes out (used up).
    """,
)


declare(
    "lights-shorten",
    fields=("kinds", "turns", "minutes", "count"),
    doc="""
    Takes `turns` or `minutes` off the time left of the lit, timed lights of `kinds`
    (at most `count` of them); a light left with no time goes out, used up.
    """,
)


declare(
    "usage-die",
    fields=("kinds",),
    doc="""
    Rolls the usage die of each lit light of `kinds` that has one; on a 1 or 2 the
    die steps down (d20 → d12 → d10 → d8 → d6 → d4), and after the d4 the light is
    used up. Typed results: `usage.LIGHT-ID=N` (e.g. `usage.torch2=1`).
    """,
)


declare(
    "strike",
    fields=("kinds",),
    check=_check_strike,
    doc="""
    Counts a strike against each lit light of `kinds`; a light whose kind has
    `strikes = N` goes out, used up, on the Nth.
    """,
)


declare(
    "counter",
    fields=("counter", "add", "set", "level", "per_input", "dice", "per_counter"),
    required=("counter",),
    check=_changes,
    doc="""
    Changes a `counter` (required): `set` it to a value, or to a named `level`, or
    `add` to it; then adds the total of `dice` rolled (`"-d20"` takes the roll away;
    the game master types it as `COUNTER=N`), another counter's value times a whole
    number (`per_counter`) and the number typed for an input times a whole number
    (`per_input`, the input's default when it is not typed). The result stays between
    the counter's `min` and `max` (or its last level). At least one of `add`, `set`,
    `level`, `dice`, `per_counter` and `per_input` is required.
    """,
)


declare(
    "track",
    fields=("track", "add", "set", "target"),
    required=("track",),
    doc="""
    Changes a member `track` (required) for the `target`: `add` to it or `set` it.
    When this takes the track over its `limit`, the track's `over` happens for that
    member at once.
    """,
)


declare(
    "consume",
    fields=("resource", "amount", "target", "on_short"),
    required=("resource",),
    check=_positive_amount,
    doc="""
    Uses up `amount` (default 1) of a `resource` (required) for each member of the
    `target` (default `each`): from the member's own stock, or from the party's for
    a resource kept `per = "party"` (with `target = "party"`, once for the whole
    party). A member who has too few uses what is left, and the effects in
    `on_short` happen for them (`target = "by"` or `"each"` in them means that
    member): "eat a ration or take 1 damage" is one effect.
    """,
)


def _supply(checks: Checks, effect: Effect, path: str) -> None:
    _positive_amount(checks, effect, path)
    if not effect.share:
        return
    resource = checks.procedure.resources.get(effect.resource)
    if resource is not None and resource.per == "party":
        checks.problem(
            f"{path}.share",
            f"shares a find among the members, but {resource.label} is the party's stock; "
            "leave share out.",
        )
    if effect.target not in ("each", "party"):
        checks.problem(
            f"{path}.share",
            f"shares a find among the whole party, so the target is each member, not "
            f"{effect.target!r}; leave target out.",
        )


declare(
    "supply",
    fields=("resource", "amount", "dice", "target", "share"),
    required=("resource",),
    check=_supply,
    doc="""
    Adds `amount` (default 1) of a `resource` (required), or `dice` of them, for
    each member of the `target`: to the member's own stock, or to the party's for a
    resource kept `per = "party"` (with `target = "party"`, once for the whole
    party). Nobody holds more than the resource's `max`. With `share = true` the
    amount (or the dice, rolled once) is one find for the whole party, shared out
    one at a time among the members, whoever holds fewest first (the marching order
    on a tie): "food for 1d6 beings" feeds the party, not the one who found it.
    Typed results: `supply.NAME=N` (`supply=N` for the party, and for a shared find).
    """,
)


declare(
    "nothing",
    inert=True,
    doc="""
    Does nothing. A row with no effects does nothing too; `nothing` says so on
    purpose, for example with a `when`.
    """,
)


declare(
    "choose",
    fields=("id", "options"),
    required=("id", "options"),
    check=choices_offered,
    doc="""
    The party chooses one of the `options` (required, two or more words), as the text
    lets it choose among consequences: "rest, or each gains a Fatigue". The game master
    types the choice with the command as `ID=OPTION` (`id` is required); at the table it
    is asked for, with the options to pick from, and `delvetui act` without it is
    refused with a sentence naming them, nothing saved. The log says what was chosen
    (`label`, else `id`; `text` is the question asked). The consequences are the
    effects after it whose `when = { inputs = { ID = "OPTION" } }` names the option.
    """,
)


def _room_mark(checks: Checks, effect: Effect, path: str) -> None:
    if not effect.mark and not effect.text:
        checks.problem(path, "gives no mark and no note (text); give one, or both.")
    elif effect.mark and effect.mark not in ROOM_MARKS:
        checks.problem(
            f"{path}.mark",
            f"'{effect.mark}' is not a mark of a room; one of {', '.join(ROOM_MARKS)}.",
        )


declare(
    "room-mark",
    fields=("mark",),
    check=_room_mark,
    doc="""
    Marks the room the party is in with `mark` (one of explored, cleared, looted,
    trapped, forced, restocked), as `room ROOM +MARK` does: a door forced open marks its
    room forced, a trap sprung marks it trapped. `text` is a note on the room ("the
    noise of the forcing warned what lies beyond"); an effect gives a mark, a note or
    both. Where the party is in no room it does nothing, and a mark the room has already
    is not put on again.
    """,
)


def _a_side(checks: Checks, effect: Effect, path: str) -> None:
    if effect.side not in ("party", "foes"):
        checks.problem(f"{path}.side", f"'{effect.side}' is not a side: give party or foes.")


declare(
    "surprise",
    fields=("side",),
    required=("side",),
    check=_a_side,
    doc="""
    The encounter surprised a `side` (required: `party` or `foes`): when the fight
    begins (`fight`), that side loses its first round and the other acts first;
    both surprised, neither gains. Put it on the rows of the game's surprise rolls
    ("Party surprised"). The game master says otherwise with `fight surprised=…`.
    """,
)
