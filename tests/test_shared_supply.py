"""A find shared by the party (`supply` with `share = true`, docs/procedures.md §3.15).

"Foraging finds food for 1d6 human-sized beings": the food feeds the party, shared out
one at a time to whoever holds fewest, never past the resource's most, and what nobody can
carry is said. The doc's complete example is loaded and played as it says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of, run
from tests.test_docs_procedures import complete


@pytest.fixture
def party(home: Path) -> Expedition:
    expedition = Expedition.create(home / "share.delve", load_text(complete("shared-find")), seed=3)
    run(expedition, "pc add Ash hp=6", "pc add Bryn hp=6", "pc add Cy hp=6")
    run(expedition, "pc Bryn rations=0", "pc Cy rations=2")
    return expedition


def held(x: Expedition) -> list[int]:
    return [member.resource("rations") for member in x.state.party]


def test_the_doc_example_shares_the_find_fewest_first(party: Expedition) -> None:
    batch = party.execute("turn forage forage=1 supply=4")
    assert held(party) == [3, 2, 2]
    changed = of(batch, ev.ResourceChanged)
    assert [(c.name, c.change) for c in changed] == [("Ash", 2), ("Bryn", 2)]


def test_the_find_is_rolled_once_for_the_party(party: Expedition) -> None:
    batch = party.execute("turn forage forage=1 supply=1")
    rolls = [r for r in of(batch, ev.DiceRolled) if r.key == "supply"]
    assert len(rolls) == 1 and held(party) == [1, 1, 2]


def test_what_nobody_can_carry_is_left_behind_and_said(party: Expedition) -> None:
    run(party, "pc Ash rations=3", "pc Bryn rations=3")
    batch = party.execute("turn forage forage=1 supply=3")
    assert held(party) == [3, 3, 3]
    assert [e.text for e in of(batch, ev.Logged)] == [
        "2 rations left behind: nobody can carry more."
    ]


def test_a_typed_find_for_one_member_is_refused_and_changes_nothing(party: Expedition) -> None:
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="Did you mean 'supply'"):
        party.execute("turn forage forage=1 supply.Ash=4")
    assert (party.state, party.event_count) == before


@pytest.mark.parametrize(
    ("resource", "target", "problem"),
    [
        ("oil", "each", "Oil flasks is the party's stock"),
        ("rations", "by", "the target is each member, not 'by'"),
    ],
)
def test_a_share_the_format_cannot_mean_is_refused(
    resource: str, target: str, problem: str
) -> None:
    text = (
        complete("shared-find")
        .replace(
            'dice = "d6", share = true',
            f'dice = "d6", share = true, target = "{target}"',
        )
        .replace('resource = "rations", dice = "d6"', f'resource = "{resource}", dice = "d6"')
    )
    text += '\n[resources.oil]\nlabel = "Oil flasks"\nper = "party"\n'
    with pytest.raises(ProcedureError, match=problem):
        load_text(text)
