"""What a counter's change sets off (`on_change`): docs/procedures.md, 3.10.

Set by the game master or by an effect, the counter's `on_change` happens at once, after
the change; nothing inside it sets off another, and it rolls no table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of, replays_the_same
from tests.test_docs_procedures import complete
from tests.test_procedure_rules_as_written import said

SEASONS = complete("four-seasons")


def weather(x: Expedition) -> str:
    return x.procedure.counters["weather"].shown(x.state.counter("weather"))


def test_setting_the_season_brings_its_usual_weather(home: Path) -> None:
    with Expedition.create(home / "s.delve", load_text(SEASONS), seed=7) as x:
        batch = x.execute("counter set season winter")
        assert weather(x) == "sleet"
        shown = said(x, batch)
        assert shown.index("Season is now winter (game master).") < shown.index(
            "Weather is now sleet (season)."
        )
        x.execute("counter set weather storm")
        assert weather(x) == "storm"
        x.execute("counter set season spring")
        assert weather(x) == "fair"
        replays_the_same(x)


def test_an_effect_that_changes_the_counter_sets_it_off_too(home: Path) -> None:
    text = SEASONS.replace(
        'kind = "move"\n',
        'kind = "move"\neffects = [{ do = "counter", counter = "season", add = 1 }]\n',
    )
    with Expedition.create(home / "s.delve", load_text(text), seed=7) as x:
        for _ in range(3):
            x.execute("turn travel")
        assert (x.state.counter("season"), weather(x)) == (3, "sleet")
        batch = x.execute("turn travel")  # winter is the top: no change, nothing set off
        assert of(batch, ev.CounterChanged) == []


def test_changes_inside_a_change_set_nothing_off_again(home: Path) -> None:
    """Two counters that set each other: each change sets off the other's once, never round
    in a circle."""
    text = SEASONS.replace(
        'levels = ["fair", "sleet", "storm"]',
        'levels = ["fair", "sleet", "storm"]\n'
        'on_change = [{ do = "counter", counter = "season", add = 1 }]',
    )
    with Expedition.create(home / "s.delve", load_text(text), seed=7) as x:
        x.execute("counter set season winter")
        assert (x.state.counter("season"), weather(x)) == (3, "sleet")
        x.execute("counter set weather storm")  # the weather's on_change: season +1, at the top
        assert (x.state.counter("season"), weather(x)) == (3, "storm")
        x.execute("counter set season 0")
        assert (x.state.counter("season"), weather(x)) == (0, "fair")


def test_a_change_that_rolls_a_table_is_refused() -> None:
    text = (
        SEASONS.replace(
            '{ do = "counter", counter = "weather", level = "fair",',
            '{ do = "roll", table = "gale" },\n'
            '  { do = "counter", counter = "weather", level = "fair",',
        )
        + '\n[tables.gale]\nlabel = "Gale"\ndice = "d6"\n\n'
        + '[[tables.gale.rows]]\nroll = "1-6"\nlabel = "Wind"\n'
    )
    with pytest.raises(ProcedureError, match="its on_change rolls no table"):
        load_text(text)
