"""A light made of others (a light kind's `made_from`, docs/procedures.md "A light made of
others"): the doc's complete example is loaded and played as it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import replays_the_same, run
from tests.test_docs_procedures import complete


def test_the_doc_example_makes_a_campfire_of_three_torches(home: Path) -> None:
    procedure = load_text(complete("camp-fire"))
    with Expedition.create(home / "fire.delve", procedure, seed=3) as fire:
        run(fire, "pc add Ash hp=6", "light add torch count=4", "light add campfire lit")
        torches = [x for x in fire.state.lights if x.kind == "torch" and not x.spent]
        assert [(light.id, light.count, light.lit) for light in torches] == [("torch1", 1, False)]
        assert fire.state.light_level == "bright"
        before = (fire.state, fire.event_count)
        with pytest.raises(CommandError) as refused:
            fire.execute("light add campfire")
        assert str(refused.value) == (
            "A campfire is made of 3 torches; the party has 1 unlit (torch1). Add more "
            "first (light add torch count=2)."
        )
        assert (fire.state, fire.event_count) == before
        replays_the_same(fire)


def test_two_at_once_take_twice_as_many(home: Path) -> None:
    procedure = load_text(complete("camp-fire"))
    with Expedition.create(home / "fires.delve", procedure, seed=3) as fire:
        run(fire, "light add torch count=4", "light add torch count=2")
        fire.execute("light add campfire count=2")
        assert [x.kind for x in fire.state.lights if not x.spent] == ["campfire"]


@pytest.mark.parametrize(
    ("made_from", "problem"),
    [("{ campfire = 1 }", "cannot be made of itself"), ("{ brand = 3 }", "'brand'"),
     ("{ torch = 0 }", "should be 1 to 100")],
)  # fmt: skip
def test_a_light_made_of_what_cannot_be_is_refused(made_from: str, problem: str) -> None:
    text = complete("camp-fire").replace("made_from = { torch = 3 }", f"made_from = {made_from}")
    with pytest.raises(ProcedureError, match=problem):
        load_text(text)
