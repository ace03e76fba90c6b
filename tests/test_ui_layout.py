"""A layout that fits: at 80×24 and 120×40 the next action and the hazard table are in view
in every shipped procedure; time dice only where the game has them; lit lights first; the
width used at 200 columns; a one-row footer where the keys fit in one."""

from __future__ import annotations

import re

import pytest
from textual.widget import Widget

from delvetui.ui.action_pane import ActionPane
from delvetui.ui.app import DelveApp
from delvetui.ui.hazard_table import HazardTable
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.light_inventory import LightInventory
from delvetui.ui.start_screen import StartScreen
from delvetui.ui.time_dice import TimeDice
from delvetui.ui.turn_log import TurnLog
from tests.ui_support import ANY_PROCEDURE_PARTY, PROCEDURES, make, ready, screen_text, settled


def in_view(widget: Widget, screen_height: int) -> bool:
    """The whole widget is on screen, not scrolled away or under the footer."""
    region = widget.region
    footer = widget.screen.query_one(KeyFooter).region
    return region.height > 0 and region.y >= 0 and region.bottom <= min(footer.y, screen_height)


@pytest.mark.parametrize("procedure", PROCEDURES)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_action_and_the_hazard_table_are_in_view(
    procedure: str, size: tuple[int, int]
) -> None:
    app = DelveApp(make(f"fit-{procedure}", ANY_PROCEDURE_PARTY, procedure=procedure))
    async with app.run_test(size=size) as pilot:
        table = await ready(pilot)
        await pilot.pause()
        action = table.query_one(ActionPane)
        hazard = table.query_one(HazardTable)
        assert in_view(action, size[1])
        assert in_view(hazard, size[1])
        assert "Next:" in screen_text(app)
        time = table.query_one(TimeDice)
        if procedure == "travel-turn":
            assert time.display
            assert time.compact
            assert time.region.height <= 3
        else:
            assert not time.display
            assert time.region.height == 0
        lights = table.query_one(LightInventory)
        state = table.state
        lit = [
            found.lit
            for found in (state.light(row) for row in lights._rows if row is not None)
            if found is not None
        ]
        assert lit == sorted(lit, reverse=True)  # lit lights first, though added after
        if procedure != "travel-turn":  # (there the torch burnt out within the hour)
            assert lit[0]


async def test_at_200_columns_the_panes_use_the_width() -> None:
    app = DelveApp(make("wide", ANY_PROCEDURE_PARTY))
    async with app.run_test(size=(200, 50)) as pilot:
        table = await ready(pilot)
        await pilot.pause()
        side = table.query_one("#side")
        log = table.query_one(TurnLog)
        assert side.region.width >= 80
        assert log.region.width + side.region.width >= 198
        footer = table.query_one(KeyFooter)
        assert footer.region.height == 1
        assert not table.query_one(HazardTable).compact


@pytest.mark.parametrize(("size", "rows"), [((80, 24), 3), ((120, 40), 2), ((200, 50), 1)])
async def test_the_footer_takes_the_rows_it_needs(size: tuple[int, int], rows: int) -> None:
    app = DelveApp(make("wide", ANY_PROCEDURE_PARTY))
    async with app.run_test(size=size) as pilot:
        table = await ready(pilot)
        await pilot.pause()
        footer = table.query_one(KeyFooter)
        assert footer.region.height == rows
        # Every key fits in the width: none is cut at the right edge.
        for key in footer.children:
            assert key.region.right <= size[0]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)], ids=["80", "120", "200"])
async def test_the_start_screen_lines_up_its_list(size: tuple[int, int]) -> None:
    make("a", ("pc add Ash hp=6",))
    make("a-much-longer-name", ("pc add Ash hp=6",), procedure="exploration")
    app = DelveApp(None)
    async with app.run_test(size=size) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await settled(pilot, lambda: screen_text(app).count("turn 0 ·") == 2)
        rows = [line for line in screen_text(app).splitlines() if "turn 0 ·" in line]
        # Each saved expedition on one line, its procedure in the same column.
        starts = {row.index(" Delving ·" if "Delving" in row else " Dungeon") for row in rows}
        assert len(starts) == 1
        assert all(re.search(r"\d\d:\d\d\s+\d\d-\d\d \d\d:\d\d", row) for row in rows)
        # The list's box: its top and bottom edges start and end in the same columns.
        lines = screen_text(app).splitlines()
        tops = [line for line in lines if "╭" in line and "╮" in line]
        bottoms = [line for line in lines if "╰" in line and "╯" in line]
        assert tops and bottoms
        assert tops[0].index("╭") == bottoms[-1].index("╰")
        assert tops[0].index("╮") == bottoms[-1].index("╯")
