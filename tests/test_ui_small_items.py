"""The smaller things a game master hit at the table: PAUSED in the header, the encounter's
distance read right in the strip, a timer whose name has a space, a refuel refused for
want of oil before anything is asked."""

from __future__ import annotations

import attrs
import pytest
from textual.widgets import Input

from delvetui.core.alerts import alerts
from delvetui.core.state import State
from delvetui.procedure.registry import find
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.table.screen import TableScreen
from tests.ui_support import dialog_says, expedition, make, ready, screen_text, settle, settled


def test_the_strip_says_the_encounter_then_how_far_away_it_is() -> None:
    """The distance first (a narrow strip cuts words, not it); the words end their sentence,
    no stop stuck to a comma."""
    state = attrs.evolve(
        State(), encounter="A wandering monster notices the party.", encounter_distance="70 feet"
    )
    said = [alert.text for alert in alerts(state, find("ose"))]
    assert "Encounter (70 feet away): A wandering monster notices the party" in said
    assert not any("., " in text for text in said)


async def test_paused_is_in_the_header_while_real_time_stands_still() -> None:
    """Shadowdark's torch burns in real time: before the session starts it stands still
    (PAUSED); in the session it burns; b pauses it (PAUSED) and b again lets it burn."""
    played = ("pc add Ash hp=6", "light add torch carrier=Ash lit")
    app = DelveApp(make("crawl", played, procedure="shadowdark"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)

        def paused() -> bool:
            """PAUSED in the header (⏸ alone where the header is short of room)."""
            header = screen_text(app).splitlines()[0]
            return "PAUSED" in header or "⏸" in header

        assert paused() and "⏸ 1:00:00" in screen_text(app)
        assert "PAUSED" in screen_text(app).splitlines()[0]
        table.run("session start")
        await settled(pilot, lambda: not paused())
        assert "⏱ " in screen_text(app)
        await pilot.press("b")
        await settled(pilot, paused)
        await pilot.press("b")
        await settled(pilot, lambda: not paused())


@pytest.mark.long
async def test_a_timer_name_may_hold_a_space_and_a_refuel_without_oil_asks_nothing() -> None:
    played = ("pc add Ash hp=6", "light add lantern carrier=Ash")
    app = DelveApp(make("tomb", played, procedure="ose"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("T")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("1")  # + New timer… (OSE declares none)
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        app.screen.query_one(Input).value = "hold portal 2h"
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.timer("hold portal") is not None)
        assert "hold portal" in screen_text(app)
        # Refuel with no oil: the reason at once, in the dialog, and nothing asked.
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        events = expedition(app).event_count
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, LightDialog)  # no "refuel and light it?" question
        assert "no oil flasks left" in dialog_says(app)
        assert expedition(app).event_count == events
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
