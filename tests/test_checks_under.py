"""A check rolled under an ability score and above a difficulty (`check` with `above`).

docs/procedures.md, "check", "Rolled under a score": the die alone, a success above the
difficulty and at most the member's score; the log says both bounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of, replays_the_same
from tests.test_docs_procedures import complete
from tests.test_procedure_rules_as_written import said

STORM = complete("under-the-storm")


@pytest.fixture
def storm(home: Path) -> Expedition:
    made = Expedition.create(home / "storm.delve", load_text(STORM), seed=7)
    made.execute("pc add Ash hp=6 PHYS=12")
    made.execute("pc add Bo hp=6 PHYS=9")
    return made


def test_a_die_above_the_difficulty_and_at_most_the_score_succeeds(storm: Expedition) -> None:
    batch = storm.execute("turn storm.Ash=7 storm.Bo=2")
    made = {e.name: (e.total, e.success) for e in of(batch, ev.CheckMadeUnder)}
    assert made == {"Ash": (7, True), "Bo": (2, False)}  # 2 is not above 2
    assert [m.fatigue for m in storm.state.party] == [0, 1]
    storm.execute("turn storm.Ash=13 storm.Bo=9")
    assert [m.fatigue for m in storm.state.party] == [1, 1]  # 13 is over PHYS 12; 9 is not
    replays_the_same(storm)


def test_the_log_says_both_bounds(storm: Expedition) -> None:
    batch = storm.execute("turn storm.Ash=7 storm.Bo=14")
    shown = said(storm, batch)
    assert "DV 2 PHYS save: Ash succeeds, 7 (above 2 and at most PHYS 12 succeeds)." in shown
    assert "DV 2 PHYS save: Bo fails, 14 (above 2 and at most PHYS 9 succeeds)." in shown


def test_a_member_without_the_score_is_refused(storm: Expedition) -> None:
    storm.execute("pc add Cy hp=4")
    with pytest.raises(CommandError, match=r"Cy has none: give it with `pc Cy PHYS=N`"):
        storm.execute("turn storm.Ash=7 storm.Bo=9 storm.Cy=3")
    assert storm.state.turn == 0


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ('ability = "PHYS", ', "needs 'ability', the score it is rolled under"),
        ("above = 2,", "should be 0 to 1,000"),
    ],
)
def test_a_roll_under_without_its_score_is_refused(change: str, problem: str) -> None:
    text = STORM.replace(change, "above = -1," if change.startswith("above") else "")
    with pytest.raises(ProcedureError, match=problem):
        load_text(text)
