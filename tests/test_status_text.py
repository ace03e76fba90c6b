"""What `delvetui status` says of each light, in words a game master reads at a glance."""

from __future__ import annotations

from delvetui.cli import _status_text, status_data
from tests.conftest import Factory, run


def test_a_torch_that_sputtered_out_reads_spent_with_no_time_left(expedition: Factory) -> None:
    """Dungeon Exploration's hazard die, 3 (docs/rules/exploration.md, The Hazard Die): a
    torch sputters out, used up, whatever time it had. Status says it is out and spent, not
    that it still has turns left, and the unlit torches of the stack keep their time."""
    x = expedition("exploration", name="vault", seed=4)
    run(x, "pc add Ash hp=8", "light add torch count=2 carrier=Ash", "light on torch")
    run(x, "turn cautious hazard=6", "turn cautious hazard=3")
    torch = x.state.light("torch2")
    assert torch is not None and torch.spent and torch.minutes
    lines = _status_text(x.state, x.procedure, status_data(x, odds=False)).splitlines()
    assert "  torch2: out (spent)" in lines
    assert "  torch1: out, 6 turns left" in lines
