"""Forms a game master can trust: the focused field is plain, Escape on a changed form
asks, numbers are checked as they are typed, the procedure list jumps to the letters
typed and shows at least five procedures at 80×24; the next expedition's form buys oil and
the other supplies."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Select, Static

from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.forms.new_expedition import NewExpeditionScreen
from delvetui.ui.forms.next_expedition import NextExpeditionScreen
from delvetui.ui.start_screen import StartScreen
from delvetui.ui.table.screen import TableScreen
from tests.test_ui_start import open_form
from tests.ui_support import make, screen_text, settle, settled


def said(form: NewExpeditionScreen | NextExpeditionScreen, section: str) -> str:
    return str(form.query_one(f"#{section}-message", Static).render())


@pytest.mark.long
async def test_the_new_expedition_form_can_be_trusted_at_80x24() -> None:
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot)
        # Unchanged, Escape leaves at once.
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        form = await open_form(pilot)
        await settle(pilot)
        # The focused field stands out from the others.
        name = form.query_one("#form-name", Input)
        start = form.query_one("#form-start", Input)
        assert app.focused is name
        assert name.rich_style.bgcolor != start.rich_style.bgcolor
        # The procedures, one a line: at least five on screen at 80×24.
        procedures = form.query_one("#form-procedure", OptionList)
        await pilot.press("tab")
        assert procedures.has_focus
        await settle(pilot)
        names = ["Basic Fantasy", "Cairn", "Delving", "Dungeon Turn", "Errant", "Mausritter"]
        shown = screen_text(app)
        assert sum(name in shown for name in names) >= 5, shown
        # Letters typed go to the procedure whose name starts so.
        await pilot.press("s", "h")
        await settle(pilot)
        assert procedures.highlighted_option is not None
        assert procedures.highlighted_option.id == "shadowdark"
        assert "Shadowdark" in str(form.query_one("#procedure-about", Static).render())
        # Numbers are checked as they are typed: a letter does not go in; 0 hit points are
        # said at once beside the party, and the sentence goes when the number will do.
        hp = form.query_one("#m0-hp", Input)
        hp.focus()
        hp.value = ""
        await pilot.press("x", "0")
        await settle(pilot)
        assert hp.value == "0"
        assert "Hit points: 0 is out of range; 1 to 9999." in said(form, "party")
        await pilot.press("backspace", "7")
        await settle(pilot)
        assert hp.value == "7" and said(form, "party") == ""
        # Changed, Escape asks; "no" goes back to the form with what was typed.
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "What you typed is not kept" in screen_text(app)
        await pilot.press("1")
        await settled(pilot, lambda: isinstance(app.screen, NewExpeditionScreen))
        assert app.screen.query_one("#m0-hp", Input).value == "7"


@pytest.mark.long
async def test_the_next_expedition_buys_oil_and_rations(home: Path) -> None:
    """OSE: two flasks of oil for Ash and a week of rations each; the next expedition
    starts with them (its first batch), as the form said."""
    path = make(
        "barrow",
        ("pc add Ash hp=6", "pc add Bryn hp=5", "light add lantern carrier=Ash", "end"),
        procedure="ose",
    )
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        app.campaign.next_form(path)
        await settled(pilot, lambda: isinstance(app.screen, NextExpeditionScreen))
        form = app.screen
        assert isinstance(form, NextExpeditionScreen)
        for resource, amount, whom in (("oil", "2", "Ash"), ("rations", "7", "")):
            await pilot.press("ctrl+o")
            await settle(pilot)
            row = form.supply_rows - 1
            form.query_one(f"#s{row}-resource", Select).value = resource
            form.query_one(f"#s{row}-amount", Input).value = amount
            form.query_one(f"#s{row}-for", Input).value = whom
        # A member who is not in the party is said beside the supplies.
        form.query_one("#s0-for", Input).value = "Cora"
        await pilot.press("ctrl+s")
        await settled(pilot, lambda: "Cora is not in the party" in said(form, "supplies"))
        form.query_one("#s0-for", Input).value = "Ash"
        await pilot.press("ctrl+s")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        made = app.expedition
        assert made is not None
        state = made.state
        ash, bryn = state.member("Ash"), state.member("Bryn")
        assert ash is not None and bryn is not None
        before = {name: 0 for name in ("Ash", "Bryn")}
        with Expedition.open(path, write=False) as old:
            for member in old.state.party:
                before[member.name] = member.resource("rations")
        assert ash.resource("oil") == 2 and bryn.resource("oil") == 0
        assert ash.resource("rations") == before["Ash"] + 7
        assert bryn.resource("rations") == before["Bryn"] + 7
