"""Lights stay where they are: one order, the order they were added, numbered in the pane
and in the lights dialog alike; a digit picks that light; lighting, putting out or handing
over moves nothing."""

from __future__ import annotations

import pytest

from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.table.screen import TableScreen
from tests.ui_support import expedition, make, ready, screen_text, settle, settled

PARTY = (
    "pc add Ash hp=6",
    "pc add Bryn hp=5",
    "pc add Cora hp=4",
    "light add torch count=2 carrier=Ash",
    "light add lantern carrier=Bryn",
    "light add candle carrier=Cora",
)


def pane_rows(app: DelveApp) -> list[str]:
    """The lights pane's rows that stand for a light, as the screen shows them."""
    pane = app.screen.query_one(LightInventory)
    lines = screen_text(app).splitlines()
    region = pane.content_region
    shown = [lines[y][region.x : region.right].strip() for y in range(region.y, region.bottom)]
    return [line for line, row in zip(shown, pane._rows, strict=False) if row is not None]


@pytest.mark.long
async def test_a_digit_picks_the_numbered_light_and_nothing_moves() -> None:
    app = DelveApp(make("order", PARTY))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        rows = pane_rows(app)
        assert [row.split()[:3] for row in rows] == [
            ["1", "○", "torch1"],
            ["2", "○", "lantern1"],
            ["3", "○", "candle1"],
        ]

        async def pick(*keys: str) -> None:
            await pilot.press("l")
            await settled(pilot, lambda: isinstance(app.screen, LightDialog))
            await pilot.press(*keys)
            await settle(pilot)

        # 2 then Enter lights the lantern (the second light), not the first in the list.
        await pick("2", "enter")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        lantern = expedition(app).state.light("lantern1")
        assert lantern is not None and lantern.lit
        assert [row.split()[2] for row in pane_rows(app)] == ["torch1", "lantern1", "candle1"]
        # 1 lights a torch from the stack: a light of its own, numbered after the others.
        await pick("1", "enter")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        ids = [row.split()[2] for row in pane_rows(app)]
        assert ids == ["torch1", "lantern1", "candle1", "torch2"]
        assert pane_rows(app)[3].startswith("4 ● torch2")
        # 2, g, Cora: the lantern is handed to Cora, and stays the second light.
        await pick("2", "g")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("3")  # Cora, the third member
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        lantern = expedition(app).state.light("lantern1")
        assert lantern is not None and lantern.carrier == "Cora"
        assert pane_rows(app)[1].split()[:4] == ["2", "◐", "lantern1", "Cora"]  # lit, dim
        # 2 then Enter puts it out: still the second.
        await pick("2", "enter")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        assert [row.split()[:3] for row in pane_rows(app)][1] == ["2", "○", "lantern1"]
        # The dialog numbers them as the pane does; a number with no light says so.
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        listed = screen_text(app)
        assert "1 ○ torch1" in listed and "2 ○ lantern1" in listed
        assert "3 ○ candle1" in listed and "4 ● torch2" in listed
        await pilot.press("9")
        await settle(pilot)
        assert "There is no light 9: the lights are numbered 1 to 4." in screen_text(app)
        assert isinstance(app.screen, LightDialog)
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        assert table.state.light("torch2") is not None
