"""The time of day in a condition: ``time_of_day`` and ``first_turn_of_day``
(docs/procedures.md 3.16, "The time of day")."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.test_docs_procedures import COMPLETE

NIGHT_ROAD = next(text for _, text in COMPLETE if 'id = "night-road"' in text)


def _rolled(expedition: Expedition) -> list[str]:
    """The keys of the dice rolled by the last command."""
    batch = list(expedition.batches())[-1]
    return [event.key for event in batch.events if isinstance(event, ev.DiceRolled)]


def _logged(expedition: Expedition) -> list[str]:
    batch = list(expedition.batches())[-1]
    return [event.text for event in batch.events if isinstance(event, ev.Logged)]


def test_the_night_road_plays_as_the_doc_says(home: Path) -> None:
    """A lost check at dawn only, the night die by night, the day die by day, and the
    first turn of a day from midnight."""
    procedure = load_text(NIGHT_ROAD)
    with Expedition.create(home / "road.delve", procedure, seed=5) as expedition:
        expedition.execute("turn night=6")  # 04:00, night
        assert _rolled(expedition) == ["night"]
        expedition.execute("turn night=6")  # 05:00
        expedition.execute("turn lost=1 day=6")  # 06:00: dawn
        assert _rolled(expedition) == ["lost", "day"]
        assert "The party has lost the road." in _logged(expedition)
        with pytest.raises(CommandError) as refused:
            expedition.execute("turn lost=1 day=6")  # 07:00: no longer dawn
        assert "it is made only when in the morning (it is morning, 07:00)" in str(refused.value)
        assert "on the first turn of the morning" in str(refused.value)
        expedition.execute("turn day=6")
        assert _rolled(expedition) == ["day"]
        expedition.execute("time set 18:00")
        expedition.execute("turn night=6")
        assert _rolled(expedition) == ["night"]
        expedition.execute("time set 23:00")
        expedition.execute("turn night=6")
        assert "A new day: everyone eats." not in _logged(expedition)
        expedition.execute("turn night=1")  # 00:00: a new day, deep in the night
        assert _rolled(expedition) == ["night"]  # not the first turn of the night: no 'lost'
        assert "A new day: everyone eats." in _logged(expedition)
        assert expedition.state.encounter == "Something follows the lanterns."


def test_with_the_default_quarters_night_is_18_to_24(home: Path) -> None:
    """The default quarters: pre-dawn, morning, afternoon, night; 'night' is 18:00-24:00."""
    text = NIGHT_ROAD.replace('quarters = ["night", "morning", "afternoon", "night"]\n', "")
    procedure = load_text(text.replace('start = "04:00"', 'start = "17:00"'))
    with Expedition.create(home / "plain.delve", procedure, seed=5) as expedition:
        expedition.execute("turn day=6")  # 17:00, afternoon
        assert _rolled(expedition) == ["day"]
        expedition.execute("turn night=6")  # 18:00
        assert _rolled(expedition) == ["night"]
        expedition.execute("time set 23:00")
        expedition.execute("turn night=6")
        expedition.execute("turn")  # 00:00: pre-dawn, neither die
        assert _rolled(expedition) == []


def test_a_ten_minute_turn_is_the_first_of_its_day_only_in_the_first_ten_minutes(
    home: Path,
) -> None:
    """first_turn_of_day: a turn that begins less than one turn's length after midnight."""
    text = NIGHT_ROAD.replace("turn_hours = 1", "turn_minutes = 10").replace(
        'start = "04:00"', 'start = "23:50"'
    )
    procedure = load_text(text)
    with Expedition.create(home / "short.delve", procedure, seed=5) as expedition:
        expedition.execute("turn night=6")  # 23:50
        assert "A new day: everyone eats." not in _logged(expedition)
        expedition.execute("turn night=6")  # 00:00
        assert "A new day: everyone eats." in _logged(expedition)
        expedition.execute("turn night=6")  # 00:10
        assert "A new day: everyone eats." not in _logged(expedition)


def test_a_part_of_the_day_that_is_not_a_quarter_is_a_problem_with_its_key_and_line() -> None:
    """Procedures are checked as data: an unknown part names the key, the line and the
    parts there are."""
    text = NIGHT_ROAD.replace(
        'only = { time_of_day = ["night"] }', 'only = { time_of_day = ["nite"] }'
    )
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    problems = refused.value.problems
    found = [p for p in problems if p.path == "rolls.night.only.time_of_day"]
    assert len(found) == 1
    assert "'nite' is not a part of the day" in found[0].message
    assert "night, morning, afternoon" in found[0].message
    line = text.splitlines().index('only = { time_of_day = ["nite"] }') + 1
    assert found[0].line == line
