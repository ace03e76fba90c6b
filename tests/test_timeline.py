"""Undo and redo as events: deep undo past what the timeline keeps still gives the right state."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from delvetui.core import timeline
from delvetui.procedure.registry import find
from delvetui.session import Expedition

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)


def test_undo_all_the_way_back_then_redo_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timeline, "KEEP", 3)  # force rebuilds from the file
    with Expedition.create(tmp_path / "x.delve", find("delving"), seed=1, now=MOMENT) as x:
        x.execute("pc add Ash hp=6", now=MOMENT)
        states = [x.state]
        for _ in range(8):
            x.execute("turn", now=MOMENT)
            states.append(x.state)
        for expected in reversed(states[:-1]):
            x.execute("undo", now=MOMENT)
            assert x.state == expected
        x.execute("undo", now=MOMENT)  # the party member
        assert x.state.party == ()
        with pytest.raises(Exception, match="nothing to undo"):
            x.execute("undo", now=MOMENT)
        x.execute("redo", now=MOMENT)
        for expected in states[1:]:
            x.execute("redo", now=MOMENT)
            assert x.state == expected
        live = x.state
    with Expedition.open(tmp_path / "x.delve") as again:
        assert again.state == live


def test_a_new_command_clears_what_could_be_redone(tmp_path: Path) -> None:
    with Expedition.create(tmp_path / "x.delve", find("delving"), seed=1, now=MOMENT) as x:
        x.execute("note one", now=MOMENT)
        x.execute("undo", now=MOMENT)
        x.execute("note two", now=MOMENT)
        with pytest.raises(Exception, match="nothing to redo"):
            x.execute("redo", now=MOMENT)
