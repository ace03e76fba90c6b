"""A procedure's ``when`` condition: its keys, each declared once with its loader check.

Each key of ``Condition`` is one field, declared with its help line (what
``docs/procedures.md`` documents), its scope (the party's state, or the member an effect
is about: ``about_member`` reads it) and its check beyond the key's type (a name the
procedure must have, a part of the day, a light level), or None where the type is the
whole check (a number, a yes or no, free words). Its test and its words at play are the
same key's entry in ``delvetui.core.when.KEYS``; ``tests/test_when_keys.py`` keeps the
fields and that table one set of names.

The model (``procedure/model.py``) holds a condition where a rule takes one; this module
imports nothing of it, so the loader's checks sit beside the keys they check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import attrs

from delvetui.procedure.bounds import COUNT, KEY, TURNS, Bound
from delvetui.text import suggest
from delvetui.values import Value, as_tuple

if TYPE_CHECKING:
    from delvetui.procedure.effect_kinds import Checks

#: What a key tests: the party's state, or the member an effect is about.
Scope = Literal["party", "member"]
#: A key's check: the checker, the key path of the condition, the key and its value.
Check = Callable[["Checks", str, str, Any], None]

#: Keys a turn may always be given besides rolls and the action's inputs.
FREE_INPUTS = frozenset({"by", "sign", "creature", "distance", "speed"})
LIGHT_LEVELS = ("bright", "dim", "dark")


def is_given(value: object) -> bool:
    """True when a key's value is given, not left at its default (None, [] or {})."""
    return value is not None and value != () and value != {}


def declared_inputs(checks: Checks) -> frozenset[str]:
    """Every input some action or activity declares, the choices the party is asked for
    (a ``choose`` effect's id), and those any turn may be given."""
    from delvetui.procedure.tree import walk_effects  # the tree reads the model, built on this

    p = checks.procedure
    declared = {
        key
        for group in (p.actions, p.activities)
        for action in group.values()
        for key in action.inputs
    }
    declared |= {effect.id for _, effect in walk_effects(p) if effect.do == "choose"}
    return frozenset(declared | FREE_INPUTS)


# The checks, each given the checker, the condition's key path, the key and its value.


def _inputs(checks: Checks, path: str, key: str, wanted: dict[str, str]) -> None:
    declared = declared_inputs(checks)
    for name in wanted:
        if name not in declared:
            known = ", ".join(sorted(declared - FREE_INPUTS)) or "none are declared"
            checks.advice(
                f"{path}.{key}.{name}",
                f"names the input '{name}', which no action or activity declares "
                f"({known}); declare it under [actions.ID.inputs.{name}]."
                + suggest(name, sorted(declared)),
            )


def _counters(checks: Checks, path: str, key: str, bounds: dict[str, int]) -> None:
    for name in bounds:
        checks.ref(path, name, checks.procedure.counters, "counter")


def _counter_levels(
    checks: Checks, path: str, key: str, wanted: dict[str, tuple[str, ...]]
) -> None:
    for name, levels in wanted.items():
        found = checks.procedure.counters.get(name)
        if found is None:
            checks.ref(f"{path}.{key}", name, checks.procedure.counters, "counter")
            continue
        for level in levels:
            if found.value_of(level) is None:
                known = ", ".join(found.levels) or "it names no levels"
                checks.problem(
                    f"{path}.{key}.{name}",
                    f"'{level}' is not a level of {found.label} ({known})."
                    + suggest(level, found.levels),
                )


def _light_levels(checks: Checks, path: str, key: str, levels: tuple[str, ...]) -> None:
    for level in levels:
        if level not in LIGHT_LEVELS:
            checks.problem(f"{path}.{key}", f"'{level}' is not bright, dim or dark.")


def _time_of_day(checks: Checks, path: str, key: str, parts: tuple[str, ...]) -> None:
    quarters = checks.procedure.time.quarters
    for part in parts:
        if part not in quarters:
            known = ", ".join(dict.fromkeys(quarters))
            checks.problem(
                f"{path}.{key}",
                f"'{part}' is not a part of the day; use one of the [time] quarters "
                f"({known})." + suggest(part, list(quarters)),
            )


def _tracks(checks: Checks, path: str, key: str, bounds: dict[str, int]) -> None:
    for name in bounds:
        checks.ref(f"{path}.{key}", name, checks.procedure.tracks, "track")


def _abilities(checks: Checks, path: str, key: str, bounds: dict[str, int]) -> None:
    abilities = {name.upper(): name for name in checks.procedure.party.abilities}
    for name in bounds:
        best = key.startswith("member_modifier") and name.lower() == "best"
        if abilities and not best and name.upper() not in abilities:
            checks.problem(
                f"{path}.{key}",
                f"'{name}' is not one of party.abilities ({', '.join(abilities)})."
                + suggest(name.upper(), list(abilities)),
            )


def _resources(per: str) -> Check:
    """A resource test's names: resources kept ``per`` member or party; the other kind is
    pointed at the key that tests it (``member_resource_at_most``, ``resource_at_most``)."""

    def check(checks: Checks, path: str, key: str, bounds: dict[str, int]) -> None:
        p = checks.procedure
        wanted = {name: r for name, r in p.resources.items() if r.per == per}
        other = {name: r for name, r in p.resources.items() if r.per != per}
        for name in bounds:
            if name in other:
                whose = "each member's own" if per == "party" else "the party's stock"
                hint = "member_" + key if per == "party" else key.removeprefix("member_")
                checks.problem(
                    f"{path}.{key}", f"'{name}' is {whose}; test it with {hint} instead."
                )
            else:
                what = "member resource" if per == "member" else "party resource"
                checks.ref(f"{path}.{key}", name, wanted, what)

    return check


#: The range of every number a condition tests (a count, a score, a value kept).
_ANY_COUNT = Bound(-COUNT, COUNT)


def _rolled(checks: Checks, path: str, key: str, wanted: dict[str, tuple[str, ...]]) -> None:
    for name, labels in wanted.items():
        table = checks.procedure.tables.get(name)
        if table is None:
            checks.ref(f"{path}.{key}", name, checks.procedure.tables, "table")
            continue
        rows = [row.label for row in table.rows]
        for label in labels:
            if label not in rows:
                checks.problem(
                    f"{path}.{key}.{name}",
                    f"'{label}' is not a row of {table.label} ({', '.join(rows)})."
                    + suggest(label, rows),
                )


def _party(text: str, check: Check | None = None, within: Bound | None = None) -> dict[str, Any]:
    """A key that tests the party's state: its help line, its check and its numbers' range."""
    return {"help": text, "scope": "party", "check": check, KEY: within}


def _member(text: str, check: Check | None = None, within: Bound | None = None) -> dict[str, Any]:
    """A key that tests the member an effect is about: its help line, its check and its
    numbers' range."""
    return {"help": text, "scope": "member", "check": check, KEY: within}


@attrs.frozen(repr=False, eq=False)
class Condition(Value):
    """When an effect or a table row applies; every key given must hold.

    Each key is one field: its help line, its scope (``_party`` or ``_member``) and its
    loader check; its test and its words are its entry in ``core.when.KEYS``.
    """

    inputs: dict[str, str] = attrs.field(
        factory=dict,
        metadata=_party("Inputs that must have these values, e.g. {stealth = 'success'}.", _inputs),
    )
    not_inputs: dict[str, str] = attrs.field(
        factory=dict,
        metadata=_party(
            "Inputs that must not have these values, e.g. {campsite = 'suitable'}: an action "
            "that declares no such input passes.",
            _inputs,
        ),
    )
    counter_at_least: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_party("Counters that must be at or above a value.", _counters, _ANY_COUNT),
    )
    counter_at_most: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_party("Counters that must be at or below a value.", _counters, _ANY_COUNT),
    )
    first_turns: int | None = attrs.field(
        default=None,
        metadata=_party(
            "Only during the first N turns of the expedition.", within=Bound(0, COUNT, "turns")
        ),
    )
    after_turns: int | None = attrs.field(
        default=None,
        metadata=_party(
            "Only after the first N turns of the expedition.", within=Bound(0, COUNT, "turns")
        ),
    )
    resting: bool | None = attrs.field(
        default=None, metadata=_party("Only while the party rests (true) or does not (false).")
    )
    day_ends: bool | None = attrs.field(
        default=None,
        metadata=_party(
            "Only on a turn in which the clock passes midnight (true): a day's food; or "
            "on any other (false)."
        ),
    )
    time_of_day: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_party(
            "Only when the turn begins in one of these parts of the day ([time] quarters), "
            "e.g. ['night'].",
            _time_of_day,
        ),
    )
    first_turn_of_day: bool | None = attrs.field(
        default=None,
        metadata=_party(
            "Only on the first turn of the day (true), or on any other (false); with "
            "time_of_day, the first turn of that part of the day (dawn: ['morning'])."
        ),
    )
    light_levels: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_party("Only at these light levels.", _light_levels),
    )
    streak: int | None = attrs.field(
        default=None,
        metadata=_party(
            "Only on every Nth consecutive turn of the same action (rest 6 turns).",
            within=Bound(1, TURNS, "turns"),
        ),
    )
    flags: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_party(
            "Only when this turn's flags (the action's and the light level's) include all of "
            "these, e.g. ['surprised by all encounters']."
        ),
    )
    not_flags: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_party("Only when this turn's flags include none of these."),
    )
    by: bool | None = attrs.field(
        default=None,
        metadata=_party(
            "Only when the command names a member with by=NAME (true), or names none (false)."
        ),
    )
    hp_at_least: int | None = attrs.field(
        default=None,
        metadata=_member(
            "Only for a member with at least this many hit points (1: not reduced to nothing).",
            within=_ANY_COUNT,
        ),
    )
    hp_at_most: int | None = attrs.field(
        default=None,
        metadata=_member(
            "Only for a member at or below this many hit points (0: reduced to nothing); "
            "the member the effect is about, such as the one who failed a check.",
            within=_ANY_COUNT,
        ),
    )
    counter_levels: dict[str, tuple[str, ...]] = attrs.field(
        factory=dict,
        metadata=_party(
            "Counters at one of these named levels, e.g. {danger = ['risky', 'deadly']}.",
            _counter_levels,
        ),
    )
    member_track_at_least: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member whose tracks are at or above these values.", _tracks, _ANY_COUNT
        ),
    )
    member_track_at_most: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member whose tracks are at or below these values.", _tracks, _ANY_COUNT
        ),
    )
    member_ability_at_least: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member whose ability scores are at or above these values.",
            _abilities,
            _ANY_COUNT,
        ),
    )
    member_ability_at_most: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member whose ability scores are at or below these values.",
            _abilities,
            _ANY_COUNT,
        ),
    )
    member_modifier_at_least: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member whose ability modifiers are at or above these.",
            _abilities,
            _ANY_COUNT,
        ),
    )
    member_modifier_at_most: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member whose ability modifiers are at or below these.",
            _abilities,
            _ANY_COUNT,
        ),
    )
    member_conditions: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_member("Only for a member who has every one of these conditions."),
    )
    member_not_conditions: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_member("Only for a member who has none of these conditions."),
    )
    member_resource_at_least: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member who holds at least this many of their resources.",
            _resources("member"),
            _ANY_COUNT,
        ),
    )
    member_resource_at_most: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_member(
            "Only for a member who holds at most this many of their resources, e.g. "
            "{rations = 0}: no ration left.",
            _resources("member"),
            _ANY_COUNT,
        ),
    )
    member_carries_light: bool | None = attrs.field(
        default=None,
        metadata=_member(
            "Only for a member who carries a lit light of their own (true) or does not (false)."
        ),
    )
    member_light_levels: tuple[str, ...] = attrs.field(
        default=(),
        converter=as_tuple,
        metadata=_member(
            "Only for a member who stands in one of these light levels (where lights light "
            "only some members: [lights.ID] lights).",
            _light_levels,
        ),
    )
    resource_at_least: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_party(
            "The party's resources at or above these values.", _resources("party"), _ANY_COUNT
        ),
    )
    resource_at_most: dict[str, int] = attrs.field(
        factory=dict,
        metadata=_party(
            "The party's resources at or below these values.", _resources("party"), _ANY_COUNT
        ),
    )
    rolled: dict[str, tuple[str, ...]] = attrs.field(
        factory=dict,
        metadata=_party(
            "Only when these tables were rolled earlier in this command and came out on one "
            "of these rows, e.g. {surprise = ['Surprised']}.",
            _rolled,
        ),
    )

    @property
    def about_member(self) -> bool:
        """True when a key tests the member the effect is about (so it is tested per member)."""
        return any(is_given(getattr(self, key)) for key in MEMBER_KEYS)


#: Each key's scope, as its field declares it.
SCOPES: dict[str, Scope] = {key.name: key.metadata["scope"] for key in attrs.fields(Condition)}
#: The keys that test the member an effect is about.
MEMBER_KEYS = frozenset(key for key, scope in SCOPES.items() if scope == "member")


def check_condition(checks: Checks, path: str, condition: Condition) -> None:
    """Every check of the keys the condition gives, each problem at its key path, in the
    order of the keys."""
    for key in attrs.fields(Condition):
        value = getattr(condition, key.name)
        if key.metadata["check"] is not None and is_given(value):
            key.metadata["check"](checks, path, key.name, value)
