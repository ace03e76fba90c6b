"""A way home: H on the table closes the expedition for the start screen, the one just
played offered first; `delvetui` alone on an ended expedition opens the start screen, not
the table of a finished expedition, with the next one after it offered first."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from delvetui.session import Expedition
from delvetui.ui import app as app_module
from delvetui.ui.app import DelveApp
from delvetui.ui.campaign.screen import CampaignScreen
from delvetui.ui.forms.next_expedition import NextExpeditionScreen
from delvetui.ui.start_screen import StartScreen
from delvetui.ui.table.screen import TableScreen
from tests.ui_support import make, ready, screen_text, settled

PLAYED = ("pc add Ash hp=6", "light add torch carrier=Ash lit", "turn crawl hazard=6")


def first_choice(app: DelveApp) -> str:
    options = app.screen.query_one("#start-list", OptionList)
    assert options.highlighted == 0
    return str(options.get_option_at_index(0).prompt)


async def test_h_on_the_table_opens_the_start_screen_with_the_expedition_first() -> None:
    path = make("crypt", PLAYED)
    make("barrow", ("pc add Bo hp=5",))
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("H")
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        assert app.expedition is None
        with Expedition.open(path):  # closed: the writer lock was given back
            pass
        await settled(pilot, lambda: "turn 1" in first_choice(app))
        assert first_choice(app).startswith("Open crypt")
        assert "Last played: crypt" in screen_text(app)
        await pilot.press("enter")  # Enter takes it up again, where it was
        table = await ready(pilot)
        assert table.state.turn == 1


async def test_delvetui_on_an_ended_expedition_offers_the_next_one_first() -> None:
    path = make("crypt", (*PLAYED, "end the party is back in town"))
    app = DelveApp(path, resumed=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        assert app.expedition is None
        await settled(pilot, lambda: first_choice(app).startswith("Next expedition after crypt"))
        text = screen_text(app)
        assert "crypt has ended: the next expedition after it is first" in text
        options = app.screen.query_one("#start-list", OptionList)
        assert str(options.get_option_at_index(1).prompt).startswith("Open crypt")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, NextExpeditionScreen))


async def test_delvetui_on_an_expedition_still_going_opens_its_table() -> None:
    app = DelveApp(make("crypt", PLAYED), resumed=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        assert isinstance(app.screen, TableScreen) and table.state.turn == 1
        assert not app.screen_stack or not any(
            isinstance(screen, StartScreen | CampaignScreen) for screen in app.screen_stack
        )


def test_delvetui_alone_resumes_the_last_played_as_resumed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The command line's `delvetui` hands the last played expedition on as resumed (a
    path named with `delvetui open` is opened whatever it is)."""
    from delvetui import cli

    path = make("crypt", PLAYED)
    seen: list[tuple[object, bool]] = []

    def run(self: DelveApp) -> None:
        seen.append((self.path, self.resumed))

    monkeypatch.setattr(app_module.DelveApp, "run", run)
    assert cli.main([]) == 0
    assert cli.main(["open", str(path)]) == 0
    assert seen == [(path, True), (path, False)]
