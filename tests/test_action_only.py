"""An action the state forbids (`[actions.ID] only`): docs/procedures.md, 3.6, "The lost
way"."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.test_docs_procedures import complete

LOST = complete("lost-way")


def test_a_lost_party_reorients_before_it_travels_on(home: Path) -> None:
    with Expedition.create(home / "l.delve", load_text(LOST), seed=7) as x:
        x.execute("pc add Ash hp=4")
        x.execute("turn travel lost=1")
        before = (x.state, x.event_count)
        with pytest.raises(CommandError) as refused:
            x.execute("turn travel lost=4")
        assert str(refused.value) == (
            "Travel cannot be taken now: it is taken only when the lost is no (it is yes)."
        )
        assert (x.state, x.event_count) == before
        x.execute("turn reorient")
        x.execute("turn travel lost=4")
        assert x.state.turn == 3


def test_an_action_may_not_test_a_member() -> None:
    text = LOST.replace(
        'only = { counter_levels = { lost = ["no"] } }', "only = { hp_at_least = 1 }"
    )
    with pytest.raises(ProcedureError, match="tests a member, but the party takes the action"):
        load_text(text)
