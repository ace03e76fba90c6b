"""A `when` that tests what the command was not given (`not_inputs`): docs/procedures.md,
3.16 Conditions."""

from __future__ import annotations

from pathlib import Path

from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.test_docs_procedures import complete


def test_not_inputs_spares_only_the_input_named(home: Path) -> None:
    """3.16 not_inputs: a storm hurts every turn but a camp in shelter; an action without
    the input passes the test."""
    procedure = load_text(complete("foul-weather"))
    with Expedition.create(home / "storm.delve", procedure, seed=7) as expedition:
        expedition.execute("pc add Ash hp=6")
        expedition.execute("turn travel")
        assert expedition.state.party[0].hp == 6  # fair weather
        expedition.execute("counter set weather storm")
        for command, hp in (("turn travel", 5), ("turn camp", 5), ("turn camp site=open", 4)):
            expedition.execute(command)
            assert expedition.state.party[0].hp == hp, command
