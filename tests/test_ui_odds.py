"""The odds on the table: the o key opens them, in plain words with a bar."""

from __future__ import annotations

from textual.widgets import Static

from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.odds_dialog import OddsDialog
from tests.ui_support import SIZES, make, ready, screen_text, settled


async def test_o_shows_the_odds_of_an_encounter_and_of_the_torch_going_out() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        await pilot.press("o")
        await settled(pilot, lambda: isinstance(app.screen, OddsDialog))
        dialog = app.screen
        assert isinstance(dialog, OddsDialog)
        await settled(pilot, lambda: dialog.odds is not None)
        await pilot.pause(0)
        shown = screen_text(app)
        assert "encounter this turn 1 in 6 (17%)" in shown
        assert "encounter within the hour 67%" in shown
        assert "torch2: out within 3 turns 42%" in shown
        figures = str(dialog.query_one("#odds-figures", Static).render())
        assert "██" in figures  # a bar beside each chance
        await pilot.press("escape")
        await settled(pilot, lambda: not isinstance(app.screen, OddsDialog))


async def test_the_odds_follow_the_table_after_a_light_goes_out() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZES[1]) as pilot:
        await ready(pilot)
        await pilot.press("colon")
        await pilot.press(*"light off torch2", "enter")
        await settled(
            pilot, lambda: app.expedition is not None and not app.expedition.state.lit_lights
        )
        await pilot.press("escape")
        await pilot.press("o")
        await settled(pilot, lambda: isinstance(app.screen, OddsDialog))
        dialog = app.screen
        assert isinstance(dialog, OddsDialog)
        await settled(pilot, lambda: dialog.odds is not None)
        await pilot.pause(0)
        shown = screen_text(app)
        assert "encounter this turn 1 in 6 (17%)" in shown
        assert "out within" not in shown


async def test_closing_the_odds_while_they_count_is_harmless() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZES[0]) as pilot:
        await ready(pilot)
        await pilot.press("o", "escape")
        await settled(pilot, lambda: not isinstance(app.screen, OddsDialog))
        await pilot.press("n")
        await settled(pilot, lambda: app.expedition is not None and app.expedition.state.turn == 1)
