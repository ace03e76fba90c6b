"""A check whose DC is the member's own score (`check` with `dc_ability`).

docs/procedures.md, "check", "A DC from a score": a save's target number, typed once as a
score, is each member's DC; the check's ability modifier still adds to the die.
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

TARGET = complete("target-number")


@pytest.fixture
def march(home: Path) -> Expedition:
    made = Expedition.create(home / "march.delve", load_text(TARGET), seed=7)
    made.execute("pc add Ash hp=8 CON=13 DEATH=12")
    made.execute("pc add Bo hp=8 CON=8 DEATH=14")
    return made


def test_each_member_saves_against_their_own_target_number(march: Expedition) -> None:
    batch = march.execute("turn march.Ash=11 march.Bo=14 damage.Bo=3")
    made = {e.name: (e.dc, e.total, e.success) for e in of(batch, ev.CheckMade)}
    assert made == {"Ash": (12, 12, True), "Bo": (14, 13, False)}
    assert [m.hp for m in march.state.party] == [8, 5]
    replays_the_same(march)


def test_a_member_without_the_score_is_refused(march: Expedition) -> None:
    march.execute("pc add Cy hp=4 CON=10")
    with pytest.raises(CommandError, match=r"Cy has none: give it with `pc Cy DEATH=N`"):
        march.execute("turn march.Ash=11 march.Bo=14 march.Cy=9 damage.Bo=3")
    assert march.state.turn == 0


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ('dc_ability = "DEATH"', "'WAND' is not one of the party's abilities"),
        ('dc_ability = "DEATH", above = 2', "a check rolled under a score has no DC"),
    ],
)
def test_a_dc_from_a_score_names_one_of_the_party_abilities(change: str, problem: str) -> None:
    text = TARGET.replace('dc_ability = "DEATH"', change.replace('"DEATH"', '"WAND"', 1))
    if "above" in change:
        text = TARGET.replace('dc_ability = "DEATH"', change)
    with pytest.raises(ProcedureError, match=problem):
        load_text(text)
