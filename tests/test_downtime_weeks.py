"""A condition only enough days of downtime remove (`[downtime] clear_after`):
docs/procedures.md, 3.23b, "A week in town"."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from delvetui.core.campaign import Link, carry
from delvetui.core.evolve import fold
from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.test_docs_procedures import complete

TOWN = complete("week-in-town")


@pytest.mark.parametrize(
    ("days", "kept"), [(1, ("injured",)), (6, ("injured",)), (7, ()), (10, ())]
)
def test_a_week_clears_what_a_day_does_not(home: Path, days: int, kept: tuple[str, ...]) -> None:
    procedure = load_text(TOWN)
    with Expedition.create(home / f"t{days}.delve", procedure, seed=3) as before:
        before.execute("pc add Ash hp=6")
        before.execute("pc Ash +exhausted +injured")
        before.execute("end back in town")
        link = Link(name="t", id=before.expedition_id, digest=before.digest(), campaign="c")
        first = carry(
            "t-next",
            4,
            before.state,
            procedure,
            procedure,
            link,
            downtime=days * MINUTES_PER_DAY,
            rng=random.Random(1),
        )
    assert fold(State(), first).party[0].conditions == kept


def test_clear_after_counts_whole_days() -> None:
    refused = r"clear_after\.injured: is 0; it should be 1 to 3,650 days"
    with pytest.raises(ProcedureError, match=refused):
        load_text(TOWN.replace("injured = 7", "injured = 0"))
