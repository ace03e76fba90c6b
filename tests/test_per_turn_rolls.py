"""One per-turn hazard roll whose table depends on the kind of turn, and how a procedure
marks its hazard roll: the table read, the last hazard, the odds, the table screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core import odds
from delvetui.core.event_checks import problem
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.hazard_table import HazardTable
from tests import cli_support
from tests.cli_support import delvetui
from tests.ui_support import SIZES, ready, screen_text, settled

ROADS = """
id = "roads"
name = "Roads"
source = "a test"
summary = "One hazard die, a table per kind of turn."
default_action = "go"

[turn_types.dungeon]
label = "dungeon turn"
minutes = 10

[turn_types.wilderness]
label = "watch"
minutes = 240

[turn_types.haven]
label = "day in town"
minutes = 1440

[actions.go]
label = "Go on"

[rolls.hazard]
label = "Hazard die"
tables = { dungeon = "below", wilderness = "outside" }

[tables.below]
label = "Dungeon hazards"
dice = "d6"

[[tables.below.rows]]
roll = "1"
label = "Wandering monster"
effects = [{ do = "encounter" }]

[[tables.below.rows]]
roll = "2-6"
label = "Quiet"

[tables.outside]
label = "Wilderness hazards"
dice = "d6"

[[tables.outside.rows]]
roll = "1-2"
label = "Raiders"
effects = [{ do = "encounter" }]

[[tables.outside.rows]]
roll = "3-6"
label = "Open road"
"""

#: The same game with its per-turn roll under another name, marked as the hazard roll, and
#: a second roll every turn that is not.
MARKED = (
    ROADS.replace("[rolls.hazard]", "[rolls.danger]\nhazard = true")
    + """
[rolls.weather]
label = "Weather"
dice = "1-in-2"
hit_label = "Rain"
miss_label = "Dry"
on_hit = [{ do = "log", text = "It rains." }]
"""
)


def _create(home: Path, text: str, name: str = "roads") -> Expedition:
    return Expedition.create(home / f"{name}.delve", load_text(text), seed=5)


def test_one_key_reads_the_table_of_the_kind_of_turn(home: Path) -> None:
    with _create(home, ROADS) as expedition:
        batch = expedition.execute("turn hazard=1")
        read = [e for e in batch.events if isinstance(e, ev.ResultRead)]
        assert [(r.table, r.label) for r in read] == [("below", "Wandering monster")]
        expedition.execute("enter wilderness")
        batch = expedition.execute("turn hazard=2")
        read = [e for e in batch.events if isinstance(e, ev.ResultRead)]
        assert [(r.table, r.label) for r in read] == [("outside", "Raiders")]
        last = expedition.state.last_hazard
        assert last is not None and (last.table, last.roll, last.result) == (
            "outside",
            2,
            "Raiders",
        )
        expedition.execute("enter haven")
        batch = expedition.execute("turn")
        assert not [e for e in batch.events if isinstance(e, ev.DiceRolled)]
        count = expedition.event_count
        with pytest.raises(CommandError) as refused:
            expedition.execute("turn hazard=3")
        assert refused.value.message == (
            "Hazard die is not rolled this turn: it has no table for a day in town; "
            "leave out hazard= (nothing was saved)."
        )
        assert expedition.event_count == count


def test_the_odds_follow_the_table_in_use(home: Path) -> None:
    with _create(home, ROADS) as expedition:
        below = odds.compute(expedition.state, expedition.procedure)
        assert below.encounter_this_turn == pytest.approx(1 / 6)
        expedition.execute("enter wilderness")
        outside = odds.compute(expedition.state, expedition.procedure)
        assert outside.encounter_this_turn == pytest.approx(1 / 3)
        expedition.execute("enter haven")
        town = odds.compute(expedition.state, expedition.procedure)
        assert town.encounter_this_turn == 0


def test_a_marked_rule_is_the_last_hazard_and_an_unmarked_one_is_not(home: Path) -> None:
    with _create(home, MARKED) as expedition:
        batch = expedition.execute("turn danger=4 weather=1")
        marked = [e for e in batch.events if isinstance(e, ev.HazardRead)]
        assert [(e.key, e.label) for e in marked] == [("danger", "Quiet")]
        weather = [e for e in batch.events if type(e) is ev.ResultRead]
        assert [(e.key, e.label) for e in weather] == [("weather", "Rain")]
        last = expedition.state.last_hazard
        assert last is not None and (last.roll, last.result) == (4, "Quiet")
        state = expedition.state
    with Expedition.open(home / "roads.delve") as again:
        assert again.state == state  # the replay knows the hazard roll without asking


def test_the_rule_called_hazard_is_still_written_as_before(home: Path) -> None:
    with _create(home, ROADS) as expedition:
        batch = expedition.execute("turn hazard=5")
        read = [e for e in batch.events if isinstance(e, ev.ResultRead)]
        assert [type(e) for e in read] == [ev.ResultRead]


def test_the_import_check_refuses_a_hazard_read_of_a_roll_that_is_none(home: Path) -> None:
    procedure = load_text(MARKED)
    with _create(home, MARKED) as expedition:
        state = expedition.state
    good = ev.HazardRead(key="danger", table="below", total=4, label="Quiet", text="", row=1)
    bad = ev.HazardRead(key="weather", table="", total=1, label="Rain", text="")
    assert problem(state, procedure, good) is None
    assert problem(state, procedure, bad) == "'weather' is not a hazard roll of Roads"


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (
            ('tables = { dungeon = "below"', 'tables = { caves = "below"'),
            "rolls.hazard.tables.caves: names the turn type 'caves', which does not exist "
            "(dungeon, haven, wilderness).",
        ),
        (
            ('wilderness = "outside" }', 'wilderness = "outsid" }'),
            "rolls.hazard.tables.wilderness: names the table 'outsid', which does not exist "
            "(below, outside).",
        ),
        (
            ('label = "Hazard die"', 'label = "Hazard die"\nturn_types = ["dungeon"]'),
            "rolls.hazard.tables.wilderness: names the turn type 'wilderness', but the rule is "
            "only made in dungeon (turn_types); add it there or drop this table.",
        ),
        (
            ('label = "Hazard die"', 'label = "Hazard die"\non_hit = [{ do = "encounter" }]'),
            "rolls.hazard: give a table, or hit_at_most with on_hit and on_miss, not both.",
        ),
    ],
)
def test_a_bad_table_per_turn_type_is_reported_with_its_key_and_line(
    change: tuple[str, str], found: str
) -> None:
    text = ROADS.replace(*change)
    assert text != ROADS
    with pytest.raises(ProcedureError) as error:
        load_text(text)
    shown = [str(p) for p in error.value.problems]
    assert any(line.startswith("line ") and line.endswith(found) for line in shown), shown


def test_status_json_reports_the_hazard_and_odds_of_the_table_in_use(home: Path) -> None:
    procedure = home / "roads.toml"
    procedure.write_text(MARKED, encoding="utf-8")
    commands = ["turn danger=1 weather=2", "enter wilderness"]
    cli_support.made(home, "trip", str(procedure), commands, seed=2)
    status = delvetui(home, "status", "trip", "--json")
    data = json.loads(status.stdout)
    assert data["last_hazard"] == {"roll": 1, "result": "Wandering monster"}
    assert data["odds"]["encounter_this_turn"] == pytest.approx(1 / 3, abs=1e-6)
    played = delvetui(home, "act", "trip", "turn", "danger=5", "weather=2")
    assert played.returncode == 0, played.stderr
    data = json.loads(delvetui(home, "status", "trip", "--json").stdout)
    assert data["last_hazard"] == {"roll": 5, "result": "Open road"}


async def test_the_table_screen_shows_the_table_of_the_kind_of_turn(home: Path) -> None:
    with _create(home, ROADS) as expedition:
        expedition.execute("turn hazard=1")
        expedition.execute("enter wilderness")
    app = DelveApp(home / "roads.delve")
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        pane = app.screen.query_one(HazardTable)
        assert pane.table() is not None and pane.table()[0] == "outside"  # type: ignore[index]
        assert str(pane.border_title) == "Hazard die: Wilderness hazards"
        rows = str(pane.render())
        assert "Raiders" in rows and "Open road" in rows
        assert "Wandering monster" not in rows
        assert "Open road" in screen_text(app)
        await pilot.press("colon")
        await pilot.press(*"turn hazard=2", "enter")
        await settled(pilot, lambda: app.expedition is not None and app.expedition.state.turn == 2)
        assert "▶ 1-2  Raiders  (rolled 2)" in screen_text(app)
