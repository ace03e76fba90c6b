"""The odds in ``delvetui status --json``, run as a real subprocess (the expeditions it reads
are made in this process, as ``delvetui new`` and ``act -`` make them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_support import made, status


def test_status_json_gives_the_odds_of_the_next_turn_and_the_hour(home: Path) -> None:
    made(home, "crypt", "delving", ["pc add Ash hp=6", "light add torch", "light on torch"])
    data = status(home, "crypt")
    odds = data["odds"]
    assert isinstance(odds, dict)
    assert odds["action"] == "crawl"
    assert odds["hour_turns"] == 6
    assert odds["encounter_this_turn"] == pytest.approx(1 / 6, abs=1e-6)
    assert odds["encounter_within_hour"] == pytest.approx(1 - (5 / 6) ** 6, abs=1e-6)
    assert len(odds["encounter_within"]) == 6
    (torch,) = odds["lights"]
    assert torch["id"] == "torch1" and torch["turns_left"] is None
    assert torch["out_within"][2] == pytest.approx(1 - (5 / 6) ** 3, abs=1e-6)
    # The other keys are as they were.
    assert data["turn"] == 0 and data["light_level"] == "bright"


def test_status_json_odds_on_an_alarm_counter(home: Path) -> None:
    made(home, "keep", "trespasser", ["pc add Ash hp=6", "turn stay", "turn stay"])
    data = status(home, "keep")
    odds = data["odds"]
    assert isinstance(odds, dict)
    # The party stays: the alarm rises, but staying makes no encounter check.
    assert odds["action"] == "stay"
    assert odds["encounter_this_turn"] == 0
