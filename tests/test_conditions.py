"""Conditions with a duration or a kind (docs/procedures.md §3.21).

A ``[conditions.ID]`` section gives a condition a kind, a default duration, a mode for
the member's checks and a factor on the party's movement; the ``condition`` effect gives
``turns`` or ``until = "rest"``, ends a kind with ``remove_kind`` and takes a list in
``remove``. Conditions end by themselves with a log line; the party pane, ``status
--json`` and the exports show what is left. Conditions not declared stay plain words.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core import odds
from delvetui.core.event_checks import problem
from delvetui.core.log import lines
from delvetui.core.turn import preview
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.party_roster import PartyRoster
from tests.cli_support import delvetui
from tests.test_docs_procedures import COMPLETE
from tests.ui_support import ready, screen_text, settled

FUMES = next(text for _, text in COMPLETE if 'id = "fumes"' in text)


def _fumes(home: Path, name: str = "fumes") -> Expedition:
    expedition = Expedition.create(home / f"{name}.delve", load_text(FUMES), seed=3)
    expedition.execute("pc add Ash hp=5 WIS=12")
    expedition.execute("pc add Bo hp=5")
    return expedition


def _log(expedition: Expedition) -> list[str]:
    return [line.text for line in lines(list(expedition.batches()), expedition.procedure)]


def _left(expedition: Expedition, name: str, condition: str) -> int | str | None:
    member = expedition.state.member(name)
    assert member is not None and condition in member.conditions, (name, condition)
    return member.time_left(condition, expedition.state.turn)


def test_a_condition_for_six_turns_counts_down_and_wears_off_with_a_log_line(
    home: Path,
) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=5")
        expedition.execute("turn hazard=1")  # gas at the end of turn 2: poisoned, 6 turns
        assert _left(expedition, "Ash", "poisoned") == 6
        assert "Ash is poisoned for 6 turns (to the end of turn 8)." in _log(expedition)
        for left in (5, 4, 3, 2, 1):
            expedition.execute("turn hazard=5")
            assert _left(expedition, "Ash", "poisoned") == left
        last = expedition.execute("turn hazard=5")  # turn 8 ends: it wears off
        assert expedition.state.member("Ash").conditions == ()  # type: ignore[union-attr]
        lost = [e for e in last.events if isinstance(e, ev.ConditionLost)]
        assert [(e.name, e.condition, e.reason) for e in lost] == [
            ("Ash", "poisoned", "wore off"),
            ("Bo", "poisoned", "wore off"),
        ]
        # One line for the two: the like steps of a turn are said once.
        assert "Both lose a condition: poisoned (wore off)." in _log(expedition)


def test_until_rest_ends_at_the_next_rest_and_not_before(home: Path) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=2")  # shaken until the next rest
        assert _left(expedition, "Ash", "shaken") == "rest"
        assert "Ash is shaken until the next rest." in _log(expedition)
        expedition.execute("turn walk hazard=5")
        assert _left(expedition, "Bo", "shaken") == "rest"
        # Shaken again during a rest: it lasts until the rest after this one.
        expedition.execute("turn rest hazard=2")
        assert _left(expedition, "Ash", "shaken") == "rest"
        expedition.execute("turn rest hazard=5")
        assert expedition.state.member("Ash").conditions == ()  # type: ignore[union-attr]
        assert "Both lose a condition: shaken (the party rested)." in _log(expedition)


def test_one_effect_ends_a_kind_and_remove_takes_a_list(home: Path) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=1")  # poisoned
        expedition.execute("turn hazard=2")  # shaken (transient)
        expedition.execute("pc Bo +dazzled:2 +omen")  # dazzled is transient; omen is plain
        bo = expedition.state.member("Bo")
        assert bo is not None and set(bo.conditions) == {"poisoned", "shaken", "dazzled", "omen"}
        expedition.execute("turn hazard=4")  # fresh air: transient ones end, and the poison
        assert expedition.state.member("Bo").conditions == ("omen",)  # type: ignore[union-attr]
        assert expedition.state.member("Ash").conditions == ()  # type: ignore[union-attr]
        assert "Bo loses a condition: dazzled (Fresh air)." in _log(expedition)


def test_a_slowing_condition_halves_the_partys_distance_as_the_pane_says(home: Path) -> None:
    with _fumes(home) as expedition:
        procedure = expedition.procedure
        assert preview(expedition.state, procedure, "walk").distance == "120 feet"
        expedition.execute("turn hazard=1")
        shown = preview(expedition.state, procedure, "walk")
        assert shown.distance == "60 feet"
        assert shown.light_note == "movement halved: Ash is Poisoned"
        batch = expedition.execute("turn hazard=5")
        started = next(e for e in batch.events if isinstance(e, ev.TurnStarted))
        assert started.distance == "60 feet"


def test_a_conditions_check_mode_gives_disadvantage_to_the_members_checks(home: Path) -> None:
    with _fumes(home) as expedition:
        plain = expedition.execute("do look by=Ash look=9")
        assert [e.expression for e in plain.events if isinstance(e, ev.DiceRolled)] == ["d20+1"]
        expedition.execute("turn hazard=1")
        hindered = expedition.execute("do look by=Ash look=4,15")
        rolled = [e for e in hindered.events if isinstance(e, ev.DiceRolled)]
        assert [(e.expression, e.total) for e in rolled] == [("2d20kl1+1", 5)]


def test_the_game_master_gives_and_takes_durations_from_the_command_line(home: Path) -> None:
    with _fumes(home) as expedition:
        expedition.execute("pc Ash +cursed:3 +weary:rest")
        assert _left(expedition, "Ash", "cursed") == 3
        assert _left(expedition, "Ash", "weary") == "rest"
        # A declared condition given with no duration takes its section's.
        expedition.execute("pc Bo +poisoned")
        assert _left(expedition, "Bo", "poisoned") == 6
        # Given again with a duration: the new one replaces the old.
        expedition.execute("pc Bo +poisoned:2")
        assert _left(expedition, "Bo", "poisoned") == 2
        # A plain condition, as before: no duration, and nothing to do twice.
        expedition.execute("pc Ash +omen")
        assert _left(expedition, "Ash", "omen") is None
        with pytest.raises(CommandError, match="Ash is omen already"):
            expedition.execute("pc Ash +omen")
        expedition.execute("pc Ash -cursed")
        ash = expedition.state.member("Ash")
        assert ash is not None and "cursed" not in dict(ash.timers)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("pc Ash +cursed:x", "'+cursed:x' is not a duration; write +cursed:N"),
        ("pc Ash +cursed:0", "'+cursed:0' is not a duration"),
        ("pc Ash +cursed:", "'+cursed:' is not a duration"),
        ("pc Ash +:6", "Name the condition before its duration"),
    ],
)
def test_a_bad_duration_is_refused_with_a_sentence_and_nothing_is_written(
    home: Path, command: str, message: str
) -> None:
    with _fumes(home) as expedition:
        count = expedition.event_count
        with pytest.raises(CommandError, match=re.escape(message)):
            expedition.execute(command)
        assert expedition.event_count == count


def test_durations_replay_from_the_file_and_survive_a_snapshot(home: Path) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=1")
        expedition.execute("turn hazard=2")
        expedition.execute("pc Bo +dazzled:2")
        live = expedition.state
    replayed = Expedition.open(home / "fumes.delve")
    try:
        assert replayed.state == live
    finally:
        replayed.close()
    resumed = Expedition.open(home / "fumes.delve", snapshot=True)
    try:
        assert resumed.state == live
        assert resumed.state.member("Bo").timers == (("dazzled", 4), ("poisoned", 7))  # type: ignore[union-attr]
    finally:
        resumed.close()


def test_status_json_gains_conditions_with_what_is_left_and_keeps_the_old_keys(
    home: Path,
) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=1")
        expedition.execute("pc Bo +shaken +omen")
    result = delvetui(home, "status", str(home / "fumes.delve"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["party"][1]["conditions"] == ["poisoned", "shaken", "omen"]
    assert data["conditions"]["Bo"] == [
        {
            "condition": "poisoned",
            "label": "Poisoned",
            "kind": None,
            "turns_left": 6,
            "until": None,
        },
        {
            "condition": "shaken",
            "label": "Shaken",
            "kind": "transient",
            "turns_left": None,
            "until": "rest",
        },
        {"condition": "omen", "label": "omen", "kind": None, "turns_left": None, "until": None},
    ]
    text = delvetui(home, "status", str(home / "fumes.delve"))
    assert "Bo: 5/5 HP, fresh, poisoned 6 turns, shaken until rest, omen" in text.stdout


def test_status_json_of_an_expedition_without_declared_conditions_has_no_new_key(
    home: Path,
) -> None:
    with Expedition.create(home / "plain.delve", find("dungeon-turn"), seed=1) as expedition:
        expedition.execute("pc add Ash hp=6")
        expedition.execute("pc Ash +omen")
    result = delvetui(home, "status", str(home / "plain.delve"), "--json")
    data = json.loads(result.stdout)
    assert "conditions" not in data
    assert data["party"][0]["conditions"] == ["omen"]


def test_the_exports_tell_durations_and_wearing_off(home: Path) -> None:
    with _fumes(home) as expedition:
        expedition.execute("pc Ash +cursed:1")
        expedition.execute("turn hazard=5")
        expedition.execute("pc Bo +poisoned")
        for fmt in ("txt", "md", "html"):
            told = export(expedition, fmt)
            assert "Ash is cursed for 1 turn (to the end of turn 1)." in told, fmt
            assert "Ash loses a condition: cursed (wore off)." in told, fmt
            assert "poisoned 6 turns" in told, fmt  # the party at the end


PROBLEMS = """\
id = "bad"
name = "Bad"
source = "a test"
summary = "Conditions written wrong."
default_action = "walk"

[conditions.poisoned]
label = "Poisoned"

[conditions.shaken]
until = "dawn"

[conditions.hexed]
turns = 3
until = "rest"

[actions.walk]
label = "Walk"
effects = [
  { do = "condition", remove_kind = "transent" },
  { do = "condition", remove = "poisoned", turns = 2 },
  { do = "condition", condition = "sick", until = "rest", turns = 2 },
  { do = "condition", target = "by" },
]
"""


def test_every_problem_of_conditions_is_reported_with_its_key_and_line() -> None:
    with pytest.raises(ProcedureError) as raised:
        load_text(PROBLEMS)
    found = {(p.path, p.line, p.message) for p in raised.value.problems}
    assert found == {
        (
            "conditions.shaken.until",
            11,
            "until = 'dawn' is not allowed; use until = 'rest' (the next rest).",
        ),
        ("conditions.hexed", 13, "give 'turns' or 'until', not both."),
        (
            "actions.walk.effects[0].remove_kind",
            19,
            "names the kind of condition 'transent', which does not exist (none are defined).",
        ),
        (
            "actions.walk.effects[1]",
            19,
            "'turns' and 'until' say how long a 'condition' gained lasts.",
        ),
        ("actions.walk.effects[2]", 19, "give 'turns' or 'until', not both."),
        (
            "actions.walk.effects[3]",
            19,
            "a 'condition' effect needs 'condition', 'remove' or 'remove_kind'.",
        ),
    }


def test_a_conditions_numbers_out_of_range_are_each_reported_with_key_and_line() -> None:
    """Rule: a declared condition's turns and movement_factor are refused as the file is
    read when outside their range, both at once, each with its key and line."""
    text = PROBLEMS.replace('label = "Poisoned"', "turns = 0\nmovement_factor = 2.0")
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    found = {(p.path, p.line, p.message) for p in raised.value.problems}
    assert found == {
        ("conditions.poisoned.turns", 8, "is 0; it should be 1 to 10,000 turns."),
        ("conditions.poisoned.movement_factor", 9, "is 2; it should be 0 to 1."),
    }


async def test_the_party_pane_shows_what_is_left_of_each_condition(home: Path) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=1")
        expedition.execute("pc Bo +shaken +omen")
    app = DelveApp(home / "fumes.delve")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        roster = table.query_one(PartyRoster)
        await settled(pilot, lambda: "poisoned 6 turns" in screen_text(app))
        shown = screen_text(app)
        assert "poisoned 6 turns · shaken until rest · omen" in shown
        table.run("turn hazard=5")
        await settled(pilot, lambda: "poisoned 5 turns" in screen_text(app))
        assert roster.state.turn == 2


def test_the_import_audit_accepts_a_duration_only_where_a_command_could_give_it(
    home: Path,
) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=1")  # both poisoned; turn 1 completed
        state, procedure = expedition.state, expedition.procedure

    def timed(**changes: object) -> ev.ConditionTimed:
        fields: dict[str, object] = {"name": "Ash", "condition": "poisoned", "turn": 1}
        fields.update(changes)
        return ev.ConditionTimed(**fields)  # type: ignore[arg-type]

    assert problem(state, procedure, timed(turns=3)) is None
    assert problem(state, procedure, timed(turn=2, until="rest")) is None
    assert problem(state, procedure, timed(condition="shaken", turns=3)) == (
        "'Ash' has no condition 'shaken' at this point"
    )
    assert problem(state, procedure, timed()) == (
        "a condition lasts either a number of turns or until the next rest"
    )
    assert problem(state, procedure, timed(turns=2, until="rest")) == (
        "a condition lasts either a number of turns or until the next rest"
    )
    assert problem(state, procedure, timed(until="dawn")) == (
        "a condition lasts either a number of turns or until the next rest"
    )
    assert problem(state, procedure, timed(turn=7, turns=2)) == (
        "turn is 7; it must be from 1 to 2"
    )


def test_an_exported_expedition_with_durations_imports_identical(home: Path) -> None:
    with _fumes(home) as expedition:
        expedition.execute("turn hazard=1")
        expedition.execute("pc Bo +shaken:rest")
    exported = home / "fumes.json"
    made = delvetui(home, "export", "fumes", "--format", "json", "-o", str(exported))
    assert made.returncode == 0, made.stderr
    brought = delvetui(home, "import", str(exported), "copy")
    assert brought.returncode == 0, brought.stderr
    before = json.loads(delvetui(home, "status", "fumes", "--json").stdout)
    after = json.loads(delvetui(home, "status", "copy", "--json").stdout)
    assert after["conditions"] == before["conditions"]
    assert after["conditions"]["Bo"][1]["until"] == "rest"


WATCH = """\
id = "watch"
name = "Watch"
source = "a test"
summary = "A listening check whose failure is an ambush."
default_action = "wait"

[conditions.poisoned]
check_mode = "disadvantage"
turns = 2

[actions.wait]
label = "Wait"
effects = [
  { do = "check", id = "listen", dc = 11, on_failure = [{ do = "encounter", text = "ambush" }] },
]
"""


def test_the_odds_follow_a_declared_conditions_check_mode(home: Path) -> None:
    procedure = load_text(WATCH)
    with Expedition.create(home / "watch.delve", procedure, seed=1) as expedition:
        expedition.execute("pc add Ash hp=6")
        calm = odds.compute(expedition.state, procedure).encounter_this_turn
        expedition.execute("pc Ash +poisoned")
        poisoned = odds.compute(expedition.state, procedure).encounter_this_turn
    assert calm == Fraction(1, 2)  # d20 below 11
    assert poisoned == Fraction(3, 4)  # the lower of two d20 below 11


def test_a_member_modifier_test_reads_the_games_own_table(home: Path) -> None:
    """3.4 and 3.16: with `[party] modifiers`, `member_modifier_at_least` reads the game's
    table: CON 12 is +1 by (score - 10) // 2 but 0 by Basic Fantasy's, so only CON 13
    heals here."""
    procedure = load_text(
        """
id = "hardy"
name = "Hardy"
source = "a test"
summary = "The hardy heal at camp."
default_action = "camp"

[party]
abilities = ["CON"]
modifiers = { "3" = -3, "4-5" = -2, "6-8" = -1, "9-12" = 0, "13-15" = 1, "16-17" = 2, "18" = 3 }

[actions.camp]
label = "Camp"
kind = "rest"
effects = [{ do = "heal", amount = 1, when = { member_modifier_at_least = { CON = 1 } } }]
"""
    )
    with Expedition.create(home / "hardy.delve", procedure, seed=1) as made:
        for command in ("pc add Ash hp=6 CON=12", "pc add Bo hp=6 CON=13", "pc Ash hp=3"):
            made.execute(command)
        made.execute("pc Bo hp=3")
        made.execute("turn camp")
        assert [(m.name, m.hp) for m in made.state.party] == [("Ash", 3), ("Bo", 4)]
