"""Replaying the file gives exactly the live state, for random command sequences."""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from delvetui.core.timeline import replay
from delvetui.errors import DelveError, RollNeeded
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.shipped import SHIPPED
from tests.strategies import commands

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)


class Expeditions(RuleBasedStateMachine):
    """Random play on a real expedition file, checked against a replay of the file."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="delvetui-replay-"))
        self.expedition: Expedition | None = None

    @initialize(procedure=st.sampled_from(SHIPPED), seed=st.integers(0, 2**31 - 1))
    def start(self, procedure: str, seed: int) -> None:
        self.expedition = Expedition.create(
            self.folder / "x.delve", find(procedure), seed=seed, now=MOMENT
        )
        # An ability of the procedure's own (any when it lists none), and the best modifier.
        ability = next(iter(self.expedition.procedure.party.abilities), "CON")
        self.expedition.execute(f"pc add Ash hp=6 {ability}=12 MOD=1", now=MOMENT)

    @property
    def x(self) -> Expedition:
        assert self.expedition is not None
        return self.expedition

    @rule(data=st.data())
    def command(self, data: st.DataObject) -> None:
        text = data.draw(commands(self.x.procedure))
        before = self.x.state
        count = self.x.store.batch_count()
        try:
            self.x.execute(text, now=MOMENT)
        except (DelveError, RollNeeded):
            # A refused command writes nothing and changes nothing.
            assert self.x.store.batch_count() == count
            assert self.x.state == before

    @precondition(lambda self: self.expedition is not None)
    @rule()
    def undo_then_redo_returns_to_the_same_state(self) -> None:
        if self.x.timeline.history().undo is None:
            return
        before = self.x.state
        self.x.execute("undo", now=MOMENT)
        self.x.execute("redo", now=MOMENT)
        assert self.x.state == before

    @invariant()
    def replay_equals_live(self) -> None:
        if self.expedition is None:
            return
        assert replay(self.x.batches()).state == self.x.state

    def teardown(self) -> None:
        try:
            if self.expedition is not None:
                live = self.expedition.state
                path = self.expedition.path
                self.expedition.close()
                with Expedition.open(path) as again:
                    assert again.state == live
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


Expeditions.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.long  # spread through the run: see tests/conftest.py
class TestExpeditions(Expeditions.TestCase):  # type: ignore[misc,valid-type]
    """The state machine's runs, as a test case pytest collects."""


def test_same_seed_and_commands_give_the_same_expedition(tmp_path: Path) -> None:
    script = [
        "pc add Ash hp=6",
        "light add torch count=3 lit",
        "turn",
        "turn walk",
        "turn rest",
        "undo",
        "turn run",
        "roll 3d6 treasure",
    ]
    results = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        path = tmp_path / name / "crypt.delve"
        with Expedition.create(path, find("delving"), seed=42, now=MOMENT) as x:
            for text in script:
                x.execute(text, now=MOMENT)
            results.append((x.state, [b.events for b in x.batches()]))
    assert results[0] == results[1]
