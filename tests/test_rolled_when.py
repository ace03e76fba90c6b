"""What a roll just gave decides what comes after it (`when = { rolled = … }`,
docs/procedures.md §3.16, "What a roll just gave").

The doc's complete example rolls surprise first and then the encounter's distance by it:
4d6 × 30 feet when neither side is surprised, 1d4 × 30 when either is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of
from tests.test_docs_procedures import complete


@pytest.fixture
def table(home: Path) -> Expedition:
    procedure = load_text(complete("close-quarters"))
    expedition = Expedition.create(home / "close.delve", procedure, seed=5)
    expedition.execute("pc add Ash hp=6")
    return expedition


@pytest.mark.parametrize(
    ("party", "foe", "distance", "feet"),
    [(4, 5, 10, "300 feet"), (4, 2, 3, "90 feet"), (1, 6, 2, "60 feet"), (2, 1, 4, "120 feet")],
)
def test_the_distance_follows_the_surprise_rolled_first(
    table: Expedition, party: int, foe: int, distance: int, feet: str
) -> None:
    batch = table.execute(
        f"turn hazard=1 party-surprise={party} foe-surprise={foe} distance={distance}"
    )
    began = of(batch, ev.EncounterBegan)
    assert len(began) == 1 and began[0].distance == feet


def test_a_distance_the_surprise_rules_out_is_refused(table: Expedition) -> None:
    """1d4 cannot show 10: typed for a surprised side, the far distance is refused."""
    before = (table.state, table.event_count)
    with pytest.raises(Exception, match="d4"):
        table.execute("turn hazard=1 party-surprise=1 foe-surprise=5 distance=10")
    assert (table.state, table.event_count) == before


def test_a_row_or_table_that_does_not_exist_is_refused_with_its_key() -> None:
    text = complete("close-quarters").replace(
        'party-surprise = ["Surprised"] } }', 'party-surprise = ["Surprized"] } }'
    )
    text = text.replace('foe-surprise = ["Surprised"] } }', 'no-such = ["Surprised"] } }')
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    said = [f"{p.path}: {p.message}" for p in raised.value.problems]
    assert any("'Surprized' is not a row of The party's surprise" in line for line in said)
    assert any("no-such" in line for line in said)
