"""Read a procedure from TOML, reporting every problem at once.

The conversion is driven by the attrs models in :mod:`delvetui.procedure.model`: each
table's keys are checked against the class's fields (an unknown key gets the nearest valid
one suggested), each value against the field's type. Then the procedure is checked as a
whole: references between its parts, table ranges that overlap or leave gaps, dice that do
not parse. Each problem carries its key path and, where the text shows it, its line.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs

from delvetui import dice
from delvetui.errors import DiceError, Problem, ProcedureError
from delvetui.procedure import calendar, fanout, model
from delvetui.procedure.conditions import Condition, check_condition
from delvetui.procedure.danger import check_danger
from delvetui.procedure.effect_kinds import KINDS, check_effect
from delvetui.procedure.member_rules import check_member_rules, light_reach
from delvetui.procedure.model import Effect, Procedure
from delvetui.procedure.ranges import check_rows
from delvetui.procedure.reading import (
    ID,
    INVALID,
    MAX_PROBLEMS,
    Limit,
    Problems,
    decode,
    kind_of_value,
    parse_toml,
    read_bounded,
)
from delvetui.procedure.reading import LineMap as _LineMap
from delvetui.procedure.reading import matches as _matches
from delvetui.procedure.reading import type_name as _type_name
from delvetui.procedure.reading import unknown as _unknown
from delvetui.procedure.resources import member_target, resources
from delvetui.procedure.state_rules import check_state_rules
from delvetui.procedure.timer_kinds import timer_kinds
from delvetui.procedure.timing import (
    check_counter,
    check_made_from,
    check_rides_along,
    check_said_time,
    check_time,
)
from delvetui.procedure.tree import parse_range
from delvetui.procedure.typed_keys import own_keys
from delvetui.text import clock as read_clock
from delvetui.text import quote, unseen_in
from delvetui.text import suggest as _suggest

# Kept here for the code that found them here first; they live in procedure.tree.
__all__ = ["MAX_FILE_BYTES", "load_bytes", "load_file", "load_text"]

#: A procedure file larger than this is refused before it is parsed: nine times the largest
#: shipped (OSE, 27 KB), and small enough that any file is read in well under a second.
MAX_FILE_BYTES = 256_000
LIMIT = Limit(MAX_FILE_BYTES, "a procedure file may be at most 256 KB")
#: Effects may nest (a check's on_failure holds effects); deeper than this is refused.
MAX_EFFECT_DEPTH = 6
#: The longest text one value of a procedure may hold (a label, a table row's text): a
#: few pages. The shipped procedures' longest is under 400 characters.
MAX_TEXT = 10_000
#: The most characters of a counter's, a resource's or a track's ``short`` label.
SHORT_MOST = 8
# Control characters, and the bidirectional overrides that make a label display as other text.
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
#: The most names a problem lists as the ones that exist.
_KNOWN = 20
PLACEHOLDERS = frozenset({"name", "margin", "dc", "total", "turn"})


def load_file(path: Path) -> Procedure:
    """Read and validate a procedure file; raise ProcedureError listing every problem."""
    return load_bytes(read_bounded(path, LIMIT), source=str(path))


def load_bytes(data: bytes, *, source: str) -> Procedure:
    """Validate procedure text given as bytes (checks size and encoding first)."""
    return load_text(decode(data, LIMIT, source=source), source=source)


def load_text(text: str, *, source: str = "procedure", stored: bool = False) -> Procedure:
    """Validate procedure TOML text; raise ProcedureError listing every problem.

    A text found valid is remembered (the last few), so opening an expedition again in the
    same process, as the table's export and the importer do, does not parse its procedure
    again. A procedure is a frozen value, so sharing one is safe. A text with problems is
    checked afresh every time, and its problems are named after ``source``.

    ``stored`` is for a text an expedition already holds (its own, one it moved to, one in
    an export of it): such a text was accepted when it was stored, so the advice checks
    added since (a rule half written that still runs) do not refuse it; every check of
    soundness still does. A new expedition, ``upgrade`` and ``procedures check`` use all.
    """
    try:
        return _load_valid(text, stored)
    except ProcedureError as error:
        raise ProcedureError(source, error.problems) from None


def forget() -> None:
    """Forget the texts found valid (for a measure of the check itself)."""
    _load_valid.cache_clear()


@functools.lru_cache(maxsize=8)
def _load_valid(text: str, stored: bool = False) -> Procedure:
    """``load_text`` for one text; the cache keeps only what returns (never an error)."""
    raw = parse_toml(text, LIMIT, source="procedure")
    lines = _LineMap(text)
    converter = _Converter(lines)
    procedure = converter.convert(Procedure, raw, "")
    problems = converter.listed()
    if procedure is not None and not problems:
        problems = _Checker(procedure, lines, stored=stored).problems()
    if problems:
        raise ProcedureError("procedure", problems)
    assert isinstance(procedure, Procedure)
    return attrs.evolve(procedure, text=text)


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """A model class's field types, worked out once (it is the same for every file)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls, vars(model))
    return _HINTS[cls]


class _Converter(Problems):
    """Converts raw TOML data into model objects, collecting problems instead of raising."""

    def __init__(self, lines: _LineMap) -> None:
        super().__init__(lines)
        self.effect_depth = 0

    def convert(self, cls: type[Any], raw: object, path: str) -> Any:
        """Convert a TOML table into the attrs class, or None when it has problems."""
        where = path or "the file"
        if not isinstance(raw, dict):
            self.problem(path, f"should be a table of keys, not {kind_of_value(raw)}.")
            return None
        hints = _hints(cls)
        fields = {
            field.name: field
            for field in attrs.fields(cls)
            if not (cls is Procedure and field.name == "text")
        }
        before = self.told
        allowed = set(fields)
        if cls is Effect:
            allowed = self._effect_fields(raw, path)
        values: dict[str, Any] = {}
        for key, value in raw.items():
            sub = f"{path}.{key}" if path else key
            if cls is Effect and key == "do" and str(value) not in KINDS:
                continue  # already reported, with the list of effects
            if key not in allowed:
                if self.full:  # the nearest key takes time to find: not for those left out
                    self.more += 1
                else:
                    self.problem(sub, _unknown(key, allowed, where))
                continue
            converted = self._field(fields[key], hints[key], value, sub)
            if converted is not INVALID:
                values[key] = converted
        for name, field in fields.items():
            if name in allowed and field.default is attrs.NOTHING and name not in raw:
                self.problem(path, f"is missing the key '{name}'.")
        if cls is Effect:
            found = KINDS.get(str(raw.get("do")))
            for name in found.required if found is not None else ():
                if name not in raw:
                    self.problem(path, f"a '{raw.get('do')}' effect needs the key '{name}'.")
        if self.told > before:
            return None
        return cls(**values)

    def suggest(self, word: str, options: Sequence[str]) -> str:
        """The nearest option, as ``text.suggest`` says it; nothing once the problems told
        are full (finding it takes time, and the problem is not told)."""
        return "" if self.full else _suggest(word, options)

    def _field(self, field: Any, hint: Any, value: object, path: str) -> Any:
        """One key's value, its numbers within the key's range; a key that takes a list
        takes a lone item as a list of one."""
        if self.out_of_range(field.metadata, value, path):
            return INVALID
        if field.metadata.get("one_or_list") and not isinstance(value, list):
            item = self._value(typing.get_args(hint)[0], value, path)
            return INVALID if item is INVALID else (item,)
        return self._value(hint, value, path)

    def _effect_fields(self, raw: dict[str, Any], path: str) -> set[str]:
        kind = raw.get("do")
        kinds = tuple(KINDS)
        if not isinstance(kind, str) or kind not in KINDS:
            if "do" in raw:
                self.problem(
                    f"{path}.do",
                    f"'{kind}' is not an effect; use one of: {', '.join(kinds)}."
                    + self.suggest(str(kind), kinds),
                )
            else:
                self.problem(path, f"an effect needs 'do' (one of: {', '.join(kinds)}).")
            # The kind is unknown: do not also report every key some effect has.
            return set(raw) & {field.name for field in attrs.fields(Effect)}
        return set(KINDS[kind].allowed)

    def _value(self, hint: Any, value: object, path: str) -> Any:
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin in (types.UnionType, typing.Union):
            options = [arg for arg in args if arg is not type(None)]
            for option in options:
                if _matches(option, value):
                    return self._value(option, value, path)
            names = " or ".join(_type_name(option) for option in options)
            self.problem(path, f"should be {names}, not {kind_of_value(value)}.")
            return INVALID
        if origin is Literal:
            if value in args:
                return value
            choices = ", ".join(str(arg) for arg in args)
            hint_text = self.suggest(str(value), [str(arg) for arg in args])
            self.problem(path, f"'{value}' is not allowed; use one of: {choices}.{hint_text}")
            return INVALID
        if origin is tuple:
            if not isinstance(value, list):
                self.problem(path, f"should be a list, not {kind_of_value(value)}.")
                return INVALID
            items = [self._value(args[0], item, f"{path}[{i}]") for i, item in enumerate(value)]
            return INVALID if any(item is INVALID for item in items) else tuple(items)
        if origin is dict:
            if not isinstance(value, dict):
                self.problem(path, f"should be a table, not {kind_of_value(value)}.")
                return INVALID
            out: dict[str, Any] = {}
            for key, item in value.items():
                converted = self._value(args[1], item, f"{path}.{key}")
                if converted is not INVALID:
                    out[key] = converted
            return out if len(out) == len(value) else INVALID
        if attrs.has(hint):
            if hint is Effect:
                self.effect_depth += 1
                try:
                    if self.effect_depth > MAX_EFFECT_DEPTH:
                        self.problem(path, "nests effects too deeply (at most 6 levels).")
                        return INVALID
                    result = self.convert(hint, value, path)
                finally:
                    self.effect_depth -= 1
            else:
                result = self.convert(hint, value, path)
            return INVALID if result is None else result
        if hint is Any or _matches(hint, value):
            # Line feeds and tabs are a long text's own; every other control is refused.
            control = unseen_in(value, allow="\t\n") if isinstance(value, str) else None
            if control is not None:
                self.problem(path, f"contains a control character ({control}); use plain text.")
                return INVALID
            if isinstance(value, str) and len(value) > MAX_TEXT:
                self.problem(
                    path,
                    f"is {len(value):,} characters long; a text holds at most {MAX_TEXT:,}.",
                )
                return INVALID
            return float(value) if hint is float and isinstance(value, int) else value
        self.problem(path, f"should be {_type_name(hint)}, not {kind_of_value(value)}.")
        return INVALID


class _Checker:
    """Checks a converted procedure as a whole: references, ranges, dice, ids."""

    def __init__(self, procedure: Procedure, lines: _LineMap, *, stored: bool = False) -> None:
        self.p = procedure
        self.lines = lines
        self.found: list[Problem] = []
        self.more = 0
        self.stored = stored

    @property
    def procedure(self) -> Procedure:
        """The procedure being checked."""
        return self.p

    def problem(self, path: str, message: str) -> None:
        """Report a problem at a key path, with its line (the first ``MAX_PROBLEMS``)."""
        if len(self.found) >= MAX_PROBLEMS:
            self.more += 1
            return
        self.found.append(Problem(path, message, self.lines.line(path)))

    def advice(self, path: str, message: str) -> None:
        """Report a rule that runs but is half written; not for a text already stored."""
        if not self.stored:
            self.problem(path, message)

    def problems(self) -> list[Problem]:
        p = self.p
        if not ID.match(p.id):
            self.problem("id", "should be lower-case letters, digits and dashes, e.g. 'my-game'.")
        if read_clock(p.time.start) is None:
            self.problem(
                "time.start", f"{quote(p.time.start)} is not a time; write HH:MM, e.g. 08:00."
            )
        if not p.party.fatigue:
            self.problem("party.fatigue", "needs at least one step, e.g. ['fresh'].")
        for step in p.party.fatigue_modes:
            if step not in p.party.fatigue:
                self.problem(
                    f"party.fatigue_modes.{step}",
                    f"'{step}' is not a step of party.fatigue ({', '.join(p.party.fatigue)})."
                    + _suggest(step, p.party.fatigue),
                )
        for key in p.party.modifiers:
            try:
                model.score_span(key)
            except ValueError:
                self.problem(
                    f"party.modifiers.{key}",
                    "should be a score or a range of scores, e.g. '13' or '13-15'.",
                )
        if len(p.time.quarters) != 4:
            self.problem("time.quarters", "should name the four quarters of the day.")
        self.ref("default_action", p.default_action, p.actions, "action")
        check_time(self)
        for name, level in p.light_levels.items():
            if name not in ("bright", "dim", "dark"):
                self.problem(
                    f"light_levels.{name}", "is not a light level; use bright, dim or dark."
                )
            for action in level.forbid:
                self.ref(f"light_levels.{name}.forbid", action, p.actions, "action")
            for action in level.turns:
                self.ref(f"light_levels.{name}.turns", action, p.actions, "action")
        for name, light in p.lights.items():
            self._check_id(f"lights.{name}", name)
            given = [light.turns, light.hours, light.minutes]
            if sum(value is not None for value in given) > 1:
                self.problem(f"lights.{name}", "give only one of turns, hours or minutes.")
            if light.usage_die is not None and light.usage_die not in _USAGE_DICE:
                self.problem(f"lights.{name}.usage_die", "should be one of 4, 6, 8, 10, 12, 20.")
            check_rides_along(self, f"lights.{name}", light)
            check_made_from(self, f"lights.{name}", name, light)
            if light.turns_dice:
                self.dice(f"lights.{name}.turns_dice", light.turns_dice)
            light_reach(self, f"lights.{name}", light)
        for name, counter in p.counters.items():
            if counter.max is not None and counter.max < counter.min:
                self.problem(f"counters.{name}.max", "is below min.")
            check_counter(self, f"counters.{name}", counter)
            self._effects(f"counters.{name}.on_change", counter.on_change)
        resources(self)
        timer_kinds(self)
        own_keys(self)
        for name, track in p.tracks.items():
            for action in track.reset_by:
                self.ref(f"tracks.{name}.reset_by", action, p.actions, "action")
            self._effects(f"tracks.{name}.over", track.over)
        for group in ("counters", "resources", "tracks"):
            for name, item in getattr(p, group).items():
                if len(item.short) > SHORT_MOST:
                    self.problem(
                        f"{group}.{name}.short",
                        f"should be at most {SHORT_MOST} characters (it is shown where the "
                        f"label does not fit); it has {len(item.short)}.",
                    )
        check_danger(self)
        for group in ("actions", "activities"):
            for name, action in getattr(p, group).items():
                self._action(f"{group}.{name}", name, action)
        if any(action.turn_types for action in p.actions.values()):
            for kind in p.turn_types:
                if not p.actions_in(kind):
                    self.problem(
                        f"turn_types.{kind}",
                        f"no action is taken in a {p.turn_types[kind].label}: add '{kind}' "
                        "to the turn_types of one, or leave an action's turn_types out.",
                    )
        for name, rule in p.rolls.items():
            self._roll(f"rolls.{name}", rule)
        for name, table in p.tables.items():
            self._table(f"tables.{name}", table)
        if p.rest is not None:
            self.ref("rest.action", p.rest.action, p.actions, "action")
            self._effects("rest.on_skip", p.rest.on_skip)
        check_member_rules(self, p)
        check_state_rules(self)
        if p.calendar is not None:
            calendar.check(self.problem, p.calendar)
        self._downtime(p.downtime)
        for path, message in fanout.problems(p):
            self.problem(path, message)
        if self.more:
            return [*self.found, Problem("", f"… and {self.more:,} more problems.")]
        return self.found

    def _downtime(self, downtime: model.Downtime) -> None:
        heal, fatigue = downtime.heal, downtime.fatigue
        if isinstance(heal, str) and heal != "all":
            if "-in-" in heal:
                self.problem("downtime.heal", 'should be a number, dice such as "1d3", or "all".')
            else:
                self.dice("downtime.heal", heal)
        if isinstance(fatigue, str) and fatigue != "all":
            self.problem("downtime.fatigue", 'should be 0 or more steps a day, or "all".')
        for index, name in enumerate(downtime.restore):
            self.ref(f"downtime.restore[{index}]", name, self.p.resources, "resource")
        for index, name in enumerate(downtime.clear):
            if not name.strip():
                self.problem(f"downtime.clear[{index}]", "names no condition.")
        if downtime.restock:
            from delvetui.procedure.adventure import restock_chance_problem

            wrong = restock_chance_problem(downtime.restock)
            if wrong is not None:
                self.problem("downtime.restock", wrong)

    def _check_id(self, path: str, name: str) -> None:
        if not ID.match(name):
            self.problem(path, f"'{name}' should be lower-case letters, digits and dashes.")

    def ref(self, path: str, name: str, options: Mapping[str, Any], what: str) -> None:
        """Report a name that is not one of the options."""
        if name not in options:
            known = ", ".join(sorted(options)[:_KNOWN]) or "none are defined"
            known += ", …" if len(options) > _KNOWN else ""
            self.problem(path, f"names the {what} '{name}', which does not exist ({known}).")

    def dice(self, path: str, text: str) -> None:
        """Report dice that do not parse."""
        try:
            dice.parse(text)
        except DiceError as error:
            self.problem(path, error.message)

    def _action(self, path: str, name: str, action: model.Action) -> None:
        self._check_id(path, name)
        for roll in (*action.rolls, *action.skip_rolls, *action.roll_mode):
            self.ref(f"{path}.rolls", roll, self.p.rolls, "roll")
        for speed in action.distance:
            if speed not in self.p.movement.speeds:
                self.problem(f"{path}.distance.{speed}", f"'{speed}' is not a movement speed.")
        for key, given in action.inputs.items():
            if given.values and given.default is not None and given.default not in given.values:
                self.problem(f"{path}.inputs.{key}.default", "is not one of the values.")
            if given.required_when is not None:
                self._condition(f"{path}.inputs.{key}.required_when", given.required_when)
        for kind in action.turn_types:
            self.ref(f"{path}.turn_types", kind, self.p.turn_types, "turn type")
        check_said_time(self, path, action)
        if action.refused_when is not None:
            self._condition(f"{path}.refused_when", action.refused_when)
        self._effects(f"{path}.effects", action.effects)

    def _roll(self, path: str, rule: model.RollRule) -> None:
        on_tables = bool(rule.table or rule.tables)
        if on_tables and (rule.hit_at_most is not None or rule.on_hit or rule.on_miss):
            self.problem(path, "give a table, or hit_at_most with on_hit and on_miss, not both.")
        if rule.table:
            self.ref(f"{path}.table", rule.table, self.p.tables, "table")
        for turn_type, table in rule.tables.items():
            self.ref(f"{path}.tables.{turn_type}", turn_type, self.p.turn_types, "turn type")
            self.ref(f"{path}.tables.{turn_type}", table, self.p.tables, "table")
            if rule.turn_types and turn_type in self.p.turn_types.keys() - rule.turn_types:
                self.problem(
                    f"{path}.tables.{turn_type}",
                    f"names the turn type '{turn_type}', but the rule is only made in "
                    f"{', '.join(rule.turn_types)} (turn_types); add it there or drop "
                    "this table.",
                )
        if rule.dice:
            self.dice(f"{path}.dice", rule.dice)
            if not on_tables and rule.hit_at_most is None and not _is_chance(rule.dice):
                self.problem(
                    path,
                    f"rolls {rule.dice} without a table: say when it hits with hit_at_most "
                    "(a number or a counter), or roll a chance such as 1-in-6.",
                )
        elif not on_tables and not rule.on_hit:
            # A rule with only on_hit and no dice applies it every time (usage dice).
            self.problem(path, "needs dice or a table (or, with no dice, on_hit).")
        if rule.dice and not rule.table and not rule.on_hit:
            # A chance that hits and does nothing is a rule half written.
            self.advice(
                path,
                f"rolls {rule.dice} for a hit but has no on_hit: say what a hit does, e.g. "
                'on_hit = [{ do = "encounter" }] (or [{ do = "nothing" }]).',
            )
        if isinstance(rule.hit_at_most, str):
            self.ref(f"{path}.hit_at_most", rule.hit_at_most, self.p.counters, "counter")
        for kind in rule.turn_types:
            self.ref(f"{path}.turn_types", kind, self.p.turn_types, "turn type")
        self._effects(f"{path}.on_hit", rule.on_hit)
        self._effects(f"{path}.on_miss", rule.on_miss)
        if rule.only is not None:
            self._condition(f"{path}.only", rule.only)
            if rule.only.about_member:
                self.problem(
                    f"{path}.only",
                    "tests a member (hp_at_most, member_…), but a roll is made for the whole "
                    "party, so it would never hold; put the test in the when of the effects "
                    "it limits.",
                )
        for index, interval in enumerate(rule.intervals):
            here = f"{path}.intervals[{index}]"
            self._condition(f"{here}.when", interval.when)
            if interval.when.about_member:
                self.problem(
                    f"{here}.when",
                    "tests a member, but a roll's interval is the whole party's, so it would "
                    "never hold; test the party's state (a counter's level, the light level).",
                )

    def _table(self, path: str, table: model.Table) -> None:
        try:
            expr = dice.parse(table.dice)
        except DiceError as error:
            self.problem(f"{path}.dice", error.message)
            return
        if not check_rows(self, path, table, expr):
            return
        for index, row in enumerate(table.rows):
            if parse_range(row.roll) is not None:
                self._placeholders(f"{path}.rows[{index}].text", row.text, row=True)
                self._effects(f"{path}.rows[{index}].effects", row.effects)

    def _effects(self, path: str, effects: tuple[Effect, ...]) -> None:
        for index, effect in enumerate(effects):
            here = f"{path}[{index}]"
            check_effect(self, effect, here)
            self._placeholders(f"{here}.text", effect.text)
            if effect.when is not None:
                self._condition(f"{here}.when", effect.when)
                member_target(self, effect, here)
            for branch, nested in effect.branches():
                self._effects(f"{here}.{branch}", nested)

    def _placeholders(self, path: str, text: str, *, row: bool = False) -> None:
        """Report a {placeholder} in a text that the log could not fill in (in a row's
        text, checked only since rows fill theirs in, as advice)."""
        report = self.advice if row else self.problem
        for name in _PLACEHOLDER.findall(text):
            if name not in PLACEHOLDERS:
                known = ", ".join(f"{{{known}}}" for known in sorted(PLACEHOLDERS))
                report(
                    path,
                    f"'{{{name}}}' is not a placeholder (use {known})."
                    + _suggest(name, sorted(PLACEHOLDERS)),
                )

    def _condition(self, path: str, condition: Condition) -> None:
        check_condition(self, path, condition)


_USAGE_DICE = model.USAGE_DICE


def _is_chance(text: str) -> bool:
    try:
        return dice.parse(text).chance is not None
    except DiceError:
        return False
