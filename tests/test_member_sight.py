"""Sight of one's own (a declared condition's `sight`, docs/procedures.md "Sight of one's
own"): a member with darkvision checks in the light they see by, the party stays in the
light's. The doc's complete example is loaded and played as it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of, run
from tests.test_docs_procedures import complete


def test_the_doc_example_lets_the_one_with_darkvision_check_plainly(home: Path) -> None:
    procedure = load_text(complete("darkvision"))
    with Expedition.create(home / "dark.delve", procedure, seed=6) as dark:
        run(dark, "pc add Ash hp=6 WIS=12", "pc add Bo hp=6 WIS=12", "pc Bo +darkvision")
        ash = of(dark.execute("do spot by=Ash spot=4,15"), ev.DiceRolled)[0]
        bo = of(dark.execute("do spot by=Bo spot=15"), ev.DiceRolled)[0]
        assert ash.expression.startswith("2d20kl1") and bo.expression.startswith("d20")
        with pytest.raises(CommandError, match="not possible in darkness"):
            dark.execute("turn search")


@pytest.mark.parametrize(
    ("sight", "problem"),
    [('{ dark = "murky" }', "names a light level"), ('{ dim = "dark" }', "no brighter")],
)
def test_a_sight_that_lifts_nothing_is_refused(sight: str, problem: str) -> None:
    text = complete("darkvision").replace(
        'sight = { dark = "dim", dim = "bright" }', f"sight = {sight}"
    )
    with pytest.raises(ProcedureError, match=problem):
        load_text(text)
