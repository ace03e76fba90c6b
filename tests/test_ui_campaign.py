"""The campaign at the table: ending an expedition from the keys, reopening it, starting
the next one from the start screen, and the campaign screen (issue #32)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from delvetui.ui.app import DelveApp
from delvetui.ui.ask import AskScreen
from delvetui.ui.choose import ChooseScreen
from tests.ui_support import expedition, make, notices, ready, screen_text, settle, settled


async def test_e_ends_the_expedition_after_asking_and_the_keys_then_say_so(home: Path) -> None:
    """Ending from the keys (CAMPAIGN.md, Ending): E asks first, with the words the log
    keeps (the default: the party is back in town); the header says ENDED; a key that would
    change the expedition says it has ended and how to reopen, and changes nothing; the
    palette's Reopen asks, and u undoes the reopening."""
    path = make("barrow")
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("E")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        assert app.screen.query_one(Input).value == "the party is back in town"
        await pilot.press("escape")  # not yet: nothing is written
        await settle(pilot)
        assert not expedition(app).state.ended
        await pilot.press("E")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.ended)
        state = expedition(app).state
        assert state.end_words == "the party is back in town"
        assert not state.lit_lights  # the torch went out with the end
        await settle(pilot)
        text = screen_text(app)
        assert "ENDED" in text.splitlines()[0]
        assert "The expedition ends: the party is" in text  # the log's line, wrapped
        assert "start session" not in text  # no session is offered on an ended expedition
        batches = expedition(app).batch_count
        await pilot.press("n")
        await pilot.press("l")
        await settle(pilot)
        assert expedition(app).batch_count == batches
        assert not isinstance(app.screen, ChooseScreen | AskScreen)  # no dialog opened
        said = notices(app)
        assert said[-1].startswith("The expedition has ended (the party is back in town)")
        assert "press E to reopen it, or type :reopen" in said[-1]

        from delvetui.ui.palette import entries

        names = {name: run for name, _, run in entries(app.screen)}  # type: ignore[arg-type]
        assert "End the expedition" not in names
        names["Reopen the expedition"]()
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: not expedition(app).state.ended)
        await settle(pilot)
        assert "ENDED" not in screen_text(app).splitlines()[0]
        await pilot.press("u")  # the reopening is undone: ended again
        await settled(pilot, lambda: expedition(app).state.ended)
