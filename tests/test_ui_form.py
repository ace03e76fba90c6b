"""The new-expedition form as a game master meets it: the procedure's hit points, keys
typed at once, Escape back to the table, and a checkbox readable without colour."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, OptionList

from delvetui.ui.app import DelveApp
from delvetui.ui.forms.new_expedition import NewExpeditionScreen, TickBox
from delvetui.ui.start_screen import StartScreen
from delvetui.ui.table.screen import TableScreen
from tests.ui_support import make, ready, settled

SIZE = (120, 40)


def hp(form: NewExpeditionScreen, number: int) -> str:
    """The hit points typed for a member ('' while the rows are being rebuilt)."""
    found = form.query(f"#m{number}-hp").results(Input)
    return next((field.value for field in found), "")


async def test_default_hp_follows_the_procedure_and_typed_keys_are_kept() -> None:
    app = DelveApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("n", "c", "r", "y", "p", "t")
        await settled(pilot, lambda: isinstance(app.screen, NewExpeditionScreen))
        form = app.screen
        assert isinstance(form, NewExpeditionScreen)
        await settled(pilot, lambda: form.query_one("#form-name", Input).value == "crypt")
        assert hp(form, 0) == "6"  # delving
        form.query_one("#form-name", Input).focus()
        picker = form.query_one("#form-procedure", OptionList)
        ids = [entry.id for entry in form.entries]
        picker.highlighted = ids.index("trespasser")
        await settled(pilot, lambda: hp(form, 0) == "10")
        # A value the game master typed stays.
        form.query_one("#m1-hp", Input).value = "7"
        picker.highlighted = ids.index("exploration")
        await settled(pilot, lambda: hp(form, 0) == "8")
        assert hp(form, 1) == "7"


@pytest.mark.long
async def test_escape_goes_back_to_the_table_it_was_opened_from() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await pilot.press("ctrl+p")
        await settled(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"New expedition")
        await pilot.pause(0.2)
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, NewExpeditionScreen))
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.screen is table
        assert app.expedition is not None and not app.expedition.readonly
        await pilot.press("n")
        await settled(pilot, lambda: app.expedition is not None and app.expedition.state.turn == 1)


async def test_a_checkbox_shows_its_state_without_colour() -> None:
    app = DelveApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, NewExpeditionScreen))
        box = app.screen.query_one("#form-roll", TickBox)
        assert "✔" not in str(box.render())
        box.value = True
        await pilot.pause()
        assert "✔" in str(box.render())
        box.value = False
        await pilot.pause()
        assert "✔" not in str(box.render())
