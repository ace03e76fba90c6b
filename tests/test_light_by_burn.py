"""Light by the total of strikes left (`strikes_per_member`), a light snuffed for good
(`relight = false`) and a track whose `over` comes at its limit (`at_limit`).

docs/procedures.md, 3.11 and 3.13: "Light by the strikes left", "The last breath".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core.member_light import party_level
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import replays_the_same
from tests.test_docs_procedures import complete

BURN = complete("burn")
BREATH = complete("last-breath")


def level(x: Expedition) -> str:
    return party_level(x.state, x.procedure)


def test_bright_light_needs_a_strike_left_for_each_member(home: Path) -> None:
    with Expedition.create(home / "b.delve", load_text(BURN), seed=7) as x:
        for name in ("Ash", "Bo", "Cy"):
            x.execute(f"pc add {name} hp=4")
        x.execute("light add torch lit")
        assert level(x) == "dim"  # Burn 2 for three
        x.execute("light add lantern lit")
        assert level(x) == "bright"  # 2 + 4
        x.execute("turn")
        assert level(x) == "bright"  # 1 + 3
        x.execute("turn")
        assert level(x) == "dim"  # the torch is out; the lantern has 2
        x.execute("pc Bo +dead")
        assert level(x) == "bright"  # 2 for the two living
        x.execute("pc remove Cy")
        assert level(x) == "bright"  # 2 for Ash alone
        replays_the_same(x)


def test_a_torch_snuffed_cannot_be_lit_again_a_lantern_can(home: Path) -> None:
    with Expedition.create(home / "b.delve", load_text(BURN), seed=7) as x:
        x.execute("pc add Ash hp=4")
        x.execute("light add torch lit")
        x.execute("light add lantern lit")
        x.execute("light off lantern1")
        x.execute("light on lantern1")
        x.execute("light off torch1")
        torch = x.state.light("torch1")
        assert torch is not None and torch.spent
        with pytest.raises(CommandError):
            x.execute("light on torch1")


def test_strikes_per_member_is_refused_where_it_cannot_count() -> None:
    dim = BURN.replace(
        '[light_levels.dim]\nlabel = "Dim light"',
        '[light_levels.dim]\nlabel = "Dim light"\nstrikes_per_member = 1',
    )
    with pytest.raises(ProcedureError, match="give it under bright"):
        load_text(dim)
    some = BURN.replace("strikes = 4\n", "strikes = 4\nlights = 2\n")
    with pytest.raises(ProcedureError, match="lantern light only some members"):
        load_text(some)


def test_the_track_sets_off_over_when_it_reaches_the_limit(home: Path) -> None:
    with Expedition.create(home / "l.delve", load_text(BREATH), seed=7) as x:
        x.execute("pc add Ash hp=4 PHYS=3")
        x.execute("pc add Bo hp=4 PHYS=5")
        x.execute("turn")
        x.execute("turn")
        assert all("dead" not in m.conditions for m in x.state.party)
        x.execute("turn")
        ash, bo = x.state.party
        assert "dead" in ash.conditions and "dead" not in bo.conditions
        assert (ash.track("exhaustion"), bo.track("exhaustion")) == (3, 3)
        # The dead are no longer among "each": the next march tires Bo alone.
        x.execute("turn")
        ash, bo = x.state.party
        assert (ash.track("exhaustion"), bo.track("exhaustion")) == (3, 4)


def test_at_limit_needs_a_limit() -> None:
    with pytest.raises(ProcedureError, match="at_limit: needs the track's limit"):
        load_text(BREATH.replace('limit = "PHYS"\n', ""))
