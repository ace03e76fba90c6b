"""Every number a procedure holds is finite and within its key's range, or the file is a
problem list; a procedure that loads plays, and the program then accepts its own files
(docs/procedures.md, "Limits": every number has a range).

The findings: ``turn_hours = nan``, ``turn_days = inf``, ``turn_weeks = 1e308`` crashed the
check, ``new`` and the import with a traceback; a light of ``hours = nan`` passed the check
and crashed the table; ``distance = nan`` showed "Run, nan m"; ``turn_minutes =
99999999999`` and a light of ``hours = 1e300`` played, and then ``verify``, the import and
``new --after`` called the program's own file made outside delvetui.

``tests/fixtures/every_number.toml`` holds each numeric key of the format where a short
game uses it. Each key is given any TOML number here: one outside its range is one problem
with its key, its line and the range; one inside it plays twenty turns, and ``verify``,
the JSON export and its import, and the next expedition (``new --after``) take the file.
In-process, as ``delvetui`` runs them; the command line is run for the exit status only.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delvetui.application.campaign import create_next, next_plan
from delvetui.errors import DelveError, ProcedureError
from delvetui.export import export
from delvetui.export.importing import import_file
from delvetui.procedure import bounds
from delvetui.procedure.bounds import Bound
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.faults.harness import fast_folder, scaled
from tests.test_docs_procedures import MODEL_CLASSES, numeric_fields

TEMPLATE = (Path(__file__).parent / "fixtures" / "every_number.toml").read_text(encoding="utf-8")

#: Where each numeric key is in the template, and the field it is.
KEYS: dict[tuple[Any, ...], str] = {
    ("version",): "Procedure.version",
    ("time", "turn_minutes"): "Time.turn_minutes",
    ("time", "turn_hours"): "Time.turn_hours",
    ("time", "turn_days"): "Time.turn_days",
    ("time", "turn_weeks"): "Time.turn_weeks",
    ("turn_types", "watch", "minutes"): "TurnType.minutes",
    ("turn_types", "watch", "hours"): "TurnType.hours",
    ("turn_types", "watch", "days"): "TurnType.days",
    ("turn_types", "watch", "weeks"): "TurnType.weeks",
    ("party", "default_hp"): "Party.default_hp",
    ("party", "activities_each"): "Party.activities_each",
    ("party", "modifiers", "13-18"): "Party.modifiers",
    ("movement", "base_speed"): "Movement.base_speed",
    ("lights", "torch", "turns"): "LightKind.turns",
    ("lights", "torch", "hours"): "LightKind.hours",
    ("lights", "torch", "minutes"): "LightKind.minutes",
    ("lights", "torch", "refuel_hours"): "LightKind.refuel_hours",
    ("lights", "candle", "lights"): "LightKind.lights",
    ("lights", "candle", "dim_for"): "LightKind.dim_for",
    ("lights", "stub", "usage_die"): "LightKind.usage_die",
    ("lights", "match", "strikes"): "LightKind.strikes",
    ("lights", "glow", "real_minutes"): "LightKind.real_minutes",
    ("lights", "glow", "real_step"): "LightKind.real_step",
    ("lights", "campfire", "made_from", "torch"): "LightKind.made_from",
    ("light_levels", "dim", "turns", "search"): "LightLevel.turns",
    ("light_levels", "dark", "movement_factor"): "LightLevel.movement_factor",
    ("conditions", "shaken", "movement_factor"): "MemberCondition.movement_factor",
    ("conditions", "shaken", "turns"): "MemberCondition.turns",
    ("counters", "alarm", "start"): "Counter.start",
    ("counters", "alarm", "min"): "Counter.min",
    ("counters", "alarm", "max"): "Counter.max",
    ("counters", "alarm", "danger_at"): "Counter.danger_at",
    ("resources", "rations", "start"): "Resource.start",
    ("resources", "rations", "max"): "Resource.max",
    ("tracks", "awake", "start"): "Track.start",
    ("tracks", "awake", "per_turn"): "Track.per_turn",
    ("tracks", "awake", "per_hour"): "Track.per_hour",
    ("tracks", "awake", "limit"): "Track.limit",
    ("tracks", "awake", "reset_after"): "Track.reset_after",
    ("tracks", "awake", "danger_at"): "Track.danger_at",
    ("timers", "bless", "turns"): "TimerKind.turns",
    ("timers", "bless", "minutes"): "TimerKind.minutes",
    ("timers", "bless", "hours"): "TimerKind.hours",
    ("actions", "crawl", "turns"): "Action.turns",
    ("actions", "crawl", "distance", "normal"): "Action.distance",
    ("rolls", "hazard", "every"): "RollRule.every",
    ("rolls", "hazard", "intervals", 0, "every"): "Interval.every",
    ("rolls", "wander", "hit_at_most"): "RollRule.hit_at_most",
    ("tables", "hazard", "rows", 0, "ignore_first_turns"): "Row.ignore_first_turns",
    ("rest", "every"): "Rest.every",
    ("calendar", "days"): "Calendar.days",
    ("calendar", "start_day"): "Calendar.start_day",
    ("calendar", "start_year"): "Calendar.start_year",
    ("downtime", "heal"): "Downtime.heal",
    ("downtime", "fatigue"): "Downtime.fatigue",
    ("downtime", "clear_after", "shaken"): "Downtime.clear_after",
    ("light_levels", "bright", "strikes_per_member"): "LightLevel.strikes_per_member",
    ("encounter", "round_seconds"): "EncounterRules.round_seconds",
    ("encounter", "foes_score"): "EncounterRules.foes_score",
    ("encounter", "morale_dc"): "EncounterRules.morale_dc",
    ("encounter", "morale_default"): "EncounterRules.morale_default",
    ("encounter", "morale_settles"): "EncounterRules.morale_settles",
    ("encounter", "end_turns"): "EncounterRules.end_turns",
    ("party", "fatigue_modifiers", "tired"): "Party.fatigue_modifiers",
    ("party", "fatigue_movement", "tired"): "Party.fatigue_movement",
    ("light_levels", "dark", "check_modifier"): "LightLevel.check_modifier",
    ("light_levels", "dark", "check_modifiers", "sight"): "LightLevel.check_modifiers",
    ("conditions", "shaken", "check_modifier"): "MemberCondition.check_modifier",
    ("conditions", "shaken", "check_modifiers", "sight"): "MemberCondition.check_modifiers",
    ("counters", "snow", "level_modifiers", "deep"): "Counter.level_modifiers",
    ("counters", "snow", "level_movement", "deep"): "Counter.level_movement",
}
_TINKER = ("activities", "tinker", "effects")
_ON = "when"
KEYS |= {
    (*_TINKER, 0, "amount"): "Effect.amount",
    (*_TINKER, 1, _ON, "hp_at_least"): "Condition.hp_at_least",
    (*_TINKER, 1, _ON, "hp_at_most"): "Condition.hp_at_most",
    (*_TINKER, 2, "dc"): "Effect.dc",
    (*_TINKER, 2, "dc_max"): "Effect.dc_max",
    (*_TINKER, 2, "on_failure", 0, "step"): "Effect.step",
    (*_TINKER, 3, "add"): "Effect.add",
    (*_TINKER, 4, "set"): "Effect.set",
    (*_TINKER, 4, _ON, "counter_at_least", "alarm"): "Condition.counter_at_least",
    (*_TINKER, 4, _ON, "counter_at_most", "alarm"): "Condition.counter_at_most",
    (*_TINKER, 5, "per_input", "loud"): "Effect.per_input",
    (*_TINKER, 6, "turns"): "Effect.turns",
    (*_TINKER, 7, "minutes"): "Effect.minutes",
    (*_TINKER, 8, "count"): "Effect.count",
    (*_TINKER, 8, "low_turns"): "Effect.low_turns",
    (*_TINKER, 10, "distance_times"): "Effect.distance_times",
    (*_TINKER, 10, _ON, "first_turns"): "Condition.first_turns",
    (*_TINKER, 18, "above"): "Effect.above",
    (*_TINKER, 19, "per_counter", "alarm"): "Effect.per_counter",
    (*_TINKER, 11, _ON, "after_turns"): "Condition.after_turns",
    (*_TINKER, 12, _ON, "streak"): "Condition.streak",
    (*_TINKER, 13, _ON, "member_track_at_least", "awake"): "Condition.member_track_at_least",
    (*_TINKER, 13, _ON, "member_track_at_most", "awake"): "Condition.member_track_at_most",
    (*_TINKER, 14, _ON, "member_ability_at_least", "STR"): "Condition.member_ability_at_least",
    (*_TINKER, 14, _ON, "member_ability_at_most", "STR"): "Condition.member_ability_at_most",
    (*_TINKER, 15, _ON, "member_modifier_at_least", "STR"): "Condition.member_modifier_at_least",
    (*_TINKER, 15, _ON, "member_modifier_at_most", "STR"): "Condition.member_modifier_at_most",
    (
        *_TINKER,
        16,
        "when",
        "member_resource_at_least",
        "rations",
    ): "Condition.member_resource_at_least",
    (
        *_TINKER,
        16,
        "when",
        "member_resource_at_most",
        "rations",
    ): "Condition.member_resource_at_most",
    (*_TINKER, 17, _ON, "resource_at_least", "gold"): "Condition.resource_at_least",
    (*_TINKER, 17, _ON, "resource_at_most", "gold"): "Condition.resource_at_most",
}
#: Keys of which a table gives one: the key tried takes the place of the others.
ONE_OF = (
    {"turn_minutes", "turn_hours", "turn_days", "turn_weeks"},
    {"minutes", "hours", "days", "weeks"},
    {"turns", "hours", "minutes"},
)
#: A table the template lacks, made when a key of it is tried: a second kind of turn, which
#: an expedition starts in (so its length is the one played).
MADE = {
    ("turn_types", "watch"): {"label": "watch"},
    ("light_levels", "bright"): {"label": "Bright light"},
}
#: Keys that cannot stand beside another of the template's: that one is taken out while the
#: key is tried (a bright level counting the strikes of lights that light the whole party
#: has no light of some members).
APART = {("light_levels", "bright", "strikes_per_member"): [("lights", "candle", "lights")]}

#: What uses every key besides the turns: the party, each light, a timer.
SET_UP = (
    "pc add Ash hp=6 STR=12 SPEED=120 rations=2",
    "pc add Bo hp=6 STR=9 SPEED=90",
    "light add torch lit carrier=Ash",
    "light add lantern lit",
    "light add candle lit carrier=Bo",
    "light add stub lit",
    "light add match lit",
    "light add glow lit",
    "light add torch",
    "light add campfire lit",
    "timer add bless",
)
#: Played round and round until twenty turns have passed: each action (a search counts a
#: light level's turns), a bare turn, and the activity whose effects hold the rest.
ROUND = (
    "foe add rat count=2 hp=3",
    "fight",
    "foe rat1 hp=-3",
    "fight end",
    "do tinker by=Ash loud=2",
    "turn",
    "turn search",
    "do tinker by=Bo",
    "turn crawl",
    "turn rest",
)
#: What a key's value may refuse with a sentence (a timer of a length its unit cannot
#: run, a light its kind no longer allows): never a turn, but one of an action that a key
#: made take no time and do nothing ("'turn' changes nothing").
NOTHING = "changes nothing; nothing was saved."


def bound_of(key: tuple[Any, ...]) -> Bound:
    name, field = KEYS[key].split(".")
    found = bounds.of(attrs.fields_dict(MODEL_CLASSES[name])[field].metadata)
    assert found is not None
    return found


def shown(key: tuple[Any, ...]) -> str:
    """The key path as a problem names it: tables.hazard.rows[0].ignore_first_turns."""
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else part
    return out


def put(doc: Any, key: tuple[Any, ...], value: object) -> None:
    """Set ``key`` to ``value`` in a parsed procedure (the others of its group taken out)."""
    for place, table in MADE.items():
        if key[: len(place)] == place:
            doc.setdefault(place[0], {})[place[1]] = dict(table)
    for path in APART.get(key, ()):
        holder = doc
        for part in path[:-1]:
            holder = holder[part]
        holder.pop(path[-1], None)
    target = doc
    for part in key[:-1]:
        target = target[part]
    for group in ONE_OF:
        if key[-1] in group:
            for other in group - {key[-1]}:
                target.pop(other, None)
    target[key[-1]] = value


def with_number(key: tuple[Any, ...], value: object) -> str:
    """The template with ``key`` set to ``value``."""
    doc = tomllib.loads(TEMPLATE)
    put(doc, key, value)
    return tomli_w.dumps(doc)


def test_every_numeric_key_of_the_format_is_tried() -> None:
    """A numeric key added to the format fails here until the template uses it."""
    assert sorted(set(KEYS.values())) == sorted(f"{c}.{f}" for c, f in numeric_fields())
    assert load_text(TEMPLATE).id == "every-number"


def beyond(found: Bound) -> list[float]:
    """Numbers no key of this range takes: not numbers, infinite, huge, just past it."""
    below = found.least if found.above else found.least - 1
    return [math.nan, math.inf, -math.inf, 1e308, -1e308, 10**30, -(10**30), below, found.most + 1]


@pytest.mark.parametrize("key", list(KEYS), ids=shown)
def test_a_number_beyond_a_keys_range_is_one_problem_with_key_line_and_range(
    key: tuple[Any, ...],
) -> None:
    """Rule: nan, ±inf, huge numbers and a number just past the range, at every numeric key,
    are each refused as the file is read: one problem, at the key, with its line and the
    range in its words, and nothing else said of a file whose number is wrong."""
    found = bound_of(key)
    for value in beyond(found):
        with pytest.raises(ProcedureError) as refused:
            load_text(with_number(key, value))
        (problem,) = refused.value.problems
        assert problem.path == shown(key), (value, problem)
        assert problem.line is not None, (value, problem)
        assert problem.message == found.problem(value), (value, problem.message)
        assert found.words() in problem.message


def numbers_for(found: Bound) -> st.SearchStrategy[float]:
    """Any TOML number, with this range's ends and their neighbours among them."""
    edges = [found.least, found.most, found.least + 1, found.most - 1, 0, 1, -1]
    return st.one_of(
        st.sampled_from([*edges, *beyond(found), 0.5, -0.0, 2**63 - 1, -(2**63)]),
        st.integers(min_value=-(10**40), max_value=10**40),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=int(found.least), max_value=int(found.most)),
    )


@settings(max_examples=scaled(20), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_number_at_any_key_is_a_problem_list_or_a_game_the_program_keeps(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """Property: any TOML number at any numeric key gives a problem list, or a procedure
    that plays twenty turns and whose file ``verify``, the JSON export and its import, and
    the next expedition take."""
    key = data.draw(st.sampled_from(sorted(KEYS, key=shown)), label="key")
    value = data.draw(numbers_for(bound_of(key)), label="number")
    try:
        procedure = load_text(with_number(key, value))
    except ProcedureError as refused:
        assert refused.problems and all(str(p).strip() for p in refused.problems)
        return
    with fast_folder(tmp_path_factory.mktemp("numbers")) as home:
        kept(procedure, home)


#: The keys whose top adds up the most in twenty turns: the longest turn, the most turns an
#: action takes, the longest light and timer, the most a track gains an hour and an effect
#: gives, the last year of the calendar.
GROWING = [
    ("time", "turn_minutes"),
    ("turn_types", "watch", "weeks"),
    ("actions", "crawl", "turns"),
    ("lights", "torch", "hours"),
    ("timers", "bless", "hours"),
    ("tracks", "awake", "per_hour"),
    (*_TINKER, 3, "add"),
    ("calendar", "start_year"),
]


@pytest.mark.parametrize("key", GROWING, ids=shown)
def test_the_top_of_a_range_that_grows_with_play_is_kept(
    tmp_path_factory: pytest.TempPathFactory, key: tuple[Any, ...]
) -> None:
    procedure = load_text(with_number(key, bound_of(key).most))
    with fast_folder(tmp_path_factory.mktemp("top")) as home:
        kept(procedure, home)


def kept(procedure: Any, home: Path) -> None:
    """Play twenty turns; then the file is sound to ``verify``, to the export and import,
    and to the next expedition of its chain."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DELVETUI_HOME", str(home))  # the import and new --after use it
        _kept(procedure, home)


def _kept(procedure: Any, home: Path) -> None:
    first = home / "numbers.delve"
    with Expedition.create(first, procedure, seed=3) as played:
        for command in SET_UP:
            with contextlib.suppress(DelveError):
                played.execute(command)
        for command in itertools.islice(itertools.cycle(ROUND), 120):
            if played.state.turn >= 20:
                break
            try:
                played.execute(command)
            except DelveError as refused:
                assert not command.startswith("turn") or refused.message.endswith(NOTHING), (
                    command,
                    refused.message,
                )
        assert played.state.turn >= 20
        played.verify()
        exported = home / "numbers.json"
        exported.write_text(export(played, "json"), encoding="utf-8")
        played.execute("end")
        state = played.state
    copy = import_file(exported, "copy")
    with Expedition.open(copy, write=False) as again:
        again.verify()
        assert again.state.turn == state.turn and again.state.clock == state.clock
    following = create_next(next_plan(first, "following", downtime="2d", seed=4))
    with Expedition.open(following) as next_one:
        next_one.verify()
        next_one.execute("turn rest")


def test_the_command_line_refuses_such_numbers_with_exit_2(home: Path, tmp_path: Path) -> None:
    """The check, new, new --calendar and the import each say the problem, exit 2, make
    nothing: the ones that gave a traceback."""
    key = ("time", "turn_hours")
    for value in (math.nan, math.inf, 1e307):
        bad = tmp_path / "bad.toml"
        bad.write_text(with_number(key, value), encoding="utf-8")
        said = bound_of(key).problem(value)
        assert said is not None
        for args in (("procedures", "check", str(bad)), ("new", "x", "--procedure", str(bad))):
            done = delvetui(home, *args)
            assert done.returncode == 2 and said in done.stderr, done.stderr
            assert "Traceback" not in done.stderr
    calendar = tmp_path / "calendar.toml"
    calendar.write_text('[calendar]\nmonths = ["A"]\nstart_year = -inf\n', encoding="utf-8")
    done = delvetui(home, "new", "x", "--procedure", "delving", "--calendar", str(calendar))
    assert done.returncode == 2 and "line 3: calendar.start_year: is infinite (-inf)" in done.stderr
    # An export whose procedure holds one: refused, and nothing imported.
    (tmp_path / "good.toml").write_text(TEMPLATE, encoding="utf-8")
    made = delvetui(home, "new", "crypt", "--procedure", str(tmp_path / "good.toml"))
    assert made.returncode == 0, made.stderr
    data = json.loads(delvetui(home, "export", "crypt", "--format", "json").stdout)
    text = data["procedure"]["text"]
    data["procedure"]["text"] = text.replace("turn_minutes = 10", "turn_minutes = nan")
    (tmp_path / "handed.json").write_text(json.dumps(data), encoding="utf-8")
    done = delvetui(home, "import", str(tmp_path / "handed.json"), "handed")
    assert done.returncode == 2 and "is nan, which is not a number" in done.stderr, done.stderr
    assert not (home / "handed.delve").exists()


def test_a_command_past_what_a_file_holds_is_refused_and_saves_nothing(home: Path) -> None:
    """Rule: whatever a long game makes of numbers the check accepts, no command saves an
    event the readers of the file would refuse: a track that gains the most an hour on
    turns of a year (both at the top of their range) passes the bound on the twelfth turn,
    which is refused with a sentence; the file stays one ``verify`` takes."""
    doc = tomllib.loads(TEMPLATE)
    put(doc, ("time", "turn_minutes"), bounds.TURN_MINUTES)
    put(doc, ("tracks", "awake", "per_hour"), bounds.AMOUNT)
    del doc["tracks"]["awake"]["limit"], doc["tracks"]["awake"]["over"]
    procedure = load_text(tomli_w.dumps(doc))
    with Expedition.create(home / "long.delve", procedure, seed=1) as played:
        played.execute("pc add Ash hp=6 STR=12 SPEED=120")
        refused = None
        for _ in range(20):
            try:
                played.execute("turn crawl")
            except DelveError as error:
                refused = error.message
                break
        assert refused is not None and refused.startswith(
            "This command would save a TrackChanged whose value is 1"
        ), refused
        assert "beyond the ±1,000,000,000 any count can be" in refused
        assert "Nothing was saved" in refused
        before = played.batch_count
        played.verify()
    with Expedition.open(home / "long.delve") as again:
        assert again.batch_count == before
        again.verify()
