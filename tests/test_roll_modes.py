"""Rolls that follow the state: a roll rule's `modes` (advantage or disadvantage while a
condition holds) and a `roll` effect's `counter` (a shift an earlier result left).

docs/procedures.md, 3.8 "A mode that follows the state" and the `roll` kind.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of, replays_the_same
from tests.test_docs_procedures import complete

OWED = complete("owed-die")
SKY = complete("shifting-sky")


def hazard_dice(batch: object) -> list[tuple[str, tuple[int, ...]]]:
    return [(e.expression, e.faces) for e in of(batch, ev.DiceRolled) if e.key == "hazard"]  # type: ignore[arg-type]


def test_an_owed_die_is_rolled_twice_keeping_the_worse_on_the_next_turn_only(
    home: Path,
) -> None:
    with Expedition.create(home / "o.delve", load_text(OWED), seed=7) as x:
        x.execute("turn hazard=2")
        assert x.procedure.counters["owed"].shown(x.state.counter("owed")) == "now"
        batch = x.execute("turn hazard=5,3")
        assert hazard_dice(batch) == [("2d6kl1", (5, 3))]
        assert [e.label for e in of(batch, ev.ResultRead)] == ["Nothing"]  # 3 was kept
        assert x.state.counter("owed") == 0
        assert hazard_dice(x.execute("turn hazard=4")) == [("d6", (4,))]
        replays_the_same(x)


def test_the_actions_advantage_and_the_owed_disadvantage_cancel(home: Path) -> None:
    with Expedition.create(home / "o.delve", load_text(OWED), seed=7) as x:
        x.execute("turn hazard=2")
        assert hazard_dice(x.execute("turn creep hazard=6")) == [("d6", (6,))]
        assert hazard_dice(x.execute("turn creep hazard=6,1")) == [("2d6kh1", (6, 1))]


@pytest.mark.parametrize(
    ("modes", "problem"),
    [
        ("{ disadvantag = { counter_at_least = { owed = 1 } } }", "'disadvantag' is not a mode"),
        ("{ disadvantage = { hp_at_most = 0 } }", "tests a member, but a roll is made"),
        ("{ disadvantage = { counter_at_least = { owd = 1 } } }", "the counter 'owd'"),
    ],
)
def test_a_mode_on_a_condition_that_cannot_hold_is_refused(modes: str, problem: str) -> None:
    text = OWED.replace(
        'modes = { disadvantage = { counter_levels = { owed = ["now"] } } }', f"modes = {modes}"
    )
    with pytest.raises(ProcedureError, match=problem):
        load_text(text)


def test_a_counter_shifts_the_next_roll_on_the_table(home: Path) -> None:
    with Expedition.create(home / "s.delve", load_text(SKY), seed=7) as x:
        x.execute("pc add Ash hp=4")
        labels, purposes = [], []
        for typed in (10, 7, 4, 7):
            batch = x.execute(f"turn weather={typed}")
            labels += [e.label for e in of(batch, ev.ResultRead)]
            purposes += [e.purpose for e in of(batch, ev.DiceRolled)]
        assert labels == [
            "Clear skies (+2 to the next)",
            "Clear skies (+2 to the next)",  # 7 + 2
            "Fair",  # 4 + 2
            "Fair",
        ]
        assert purposes[:2] == ["Weather", "Weather, +2 for the sky's shift"]
        replays_the_same(x)
