"""Every action from the keys: the characters' activities under A, and keys that cannot act
here saying why, at once, before anything is asked."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList, Static

from delvetui.core import events as ev
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.activity_dialog import ActivityDialog, MemberPick
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.help_screen import HelpScreen
from delvetui.ui.key_footer import KeyFooter
from tests.ui_support import (
    ANY_PROCEDURE_PARTY,
    PARTY,
    dialog_says,
    expedition,
    keep_notices,
    make,
    notices,
    ready,
    settled,
)

SIZE = (80, 24)
#: A party of three in a dungeon round of Trespasser, after its first round.
ROUND = (*PARTY, "turn stay")
#: A party whose only light is not lit: total darkness.
DARK = ("pc add Ash hp=6", "pc add Bryn hp=5", "light add torch carrier=Ash")


@pytest.fixture(autouse=True)
def _notices(monkeypatch: pytest.MonkeyPatch) -> None:
    keep_notices(monkeypatch)


def last_command(app: DelveApp) -> str:
    history = expedition(app).timeline.history().undo
    assert history is not None
    return history[1]


def footer_actions(app: DelveApp) -> set[str]:
    """The actions of the keys the table's footer shows."""
    assert app.table is not None
    keys = app.table.query_one(KeyFooter).keys
    bindings = {b.key: b.action for b in app.table.key_bindings()}
    shown = {bindings.get(key.key, key.key) for key in keys}
    return shown | {key.description for key in keys}


async def test_the_activity_key_asks_who_then_what_and_does_it() -> None:
    """Trespasser's character actions (`do ACTIVITY by=NAME`, one each a round) are under
    A: who acts, then what; the activity is written as the command line would write it."""
    app = DelveApp(make("acts", ROUND, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        events = expedition(app).event_count
        await pilot.press("A")
        await settled(pilot, lambda: isinstance(app.screen, MemberPick))
        await pilot.press("b")  # Bryn
        await settled(pilot, lambda: isinstance(app.screen, ActivityDialog))
        await pilot.press("l")  # Listen
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert app.screen is table
        assert last_command(app) == "do listen by=Bryn"
        batch = expedition(app).batch(expedition(app).batch_count)
        done = [e for e in batch.events if isinstance(e, ev.ActivityDone)]
        assert [(e.activity, e.by) for e in done] == [("listen", "Bryn")]
        # Bryn has taken their action this round: greyed, with the reason, and the cursor
        # on the first member who can still act.
        await pilot.press("A")
        await settled(pilot, lambda: isinstance(app.screen, MemberPick))
        options = app.screen.query_one(OptionList)
        assert options.get_option_at_index(1).disabled
        assert "already taken their action" in str(options.get_option_at_index(1).prompt)
        assert options.highlighted == 0
        # Chosen all the same, by its digit or its first letter: said, not silently ignored.
        await pilot.press("2")
        await settled(pilot, lambda: "Bryn cannot be chosen now" in dialog_says(app))
        await pilot.press("b")
        assert isinstance(app.screen, MemberPick)
        await pilot.press("escape")
        await settled(pilot, lambda: app.screen is table)
        assert expedition(app).event_count == events + len(batch.events)


async def test_an_activity_asks_its_inputs_as_any_command_does() -> None:
    """Picking a lock asks for the tools (lockpicks by default), as the action picker's
    actions ask theirs."""
    app = DelveApp(make("acts", ROUND, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        events = expedition(app).event_count
        await pilot.press("A")
        await settled(pilot, lambda: isinstance(app.screen, MemberPick))
        await pilot.press("enter")  # Ash
        await settled(pilot, lambda: isinstance(app.screen, ActivityDialog))
        await pilot.press("p")  # Pick a lock
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("i")  # improvised
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert last_command(app) == "do pick-lock by=Ash tools=improvised"


async def test_the_activity_key_refuses_at_once_when_no_one_can_act() -> None:
    """A round the party hides skips the characters' actions: A says so at once, asks
    nothing and writes nothing."""
    commands = (*PARTY, "turn hide stealth=failure")
    app = DelveApp(make("acts", commands, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        events = expedition(app).event_count
        await pilot.press("A")
        await settled(
            pilot, lambda: any("skips the characters' actions" in n for n in notices(app))
        )
        assert app.screen is table
        assert expedition(app).event_count == events


async def test_search_in_darkness_is_refused_before_the_danger_is_asked() -> None:
    """Exploration forbids a search in total darkness: s says why at once, without first
    asking "Take the turn?", and writes nothing."""
    app = DelveApp(make("dark", DARK, procedure="exploration"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        assert table.confirm_trouble
        events = expedition(app).event_count
        await pilot.press("s")
        await settled(pilot, lambda: any("Search is not possible in" in n for n in notices(app)))
        assert app.screen is table
        assert expedition(app).event_count == events
        # A turn the core takes in the dark still asks about the danger first.
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "Take the turn?" in app.screen.title_text  # type: ignore[attr-defined]


async def test_trespassers_footer_and_help_leave_out_search_and_rest() -> None:
    """Trespasser has no search or rest action (those are characters' activities): the
    footer and the help show A and neither s nor r; s and r, pressed, say why."""
    app = DelveApp(make("acts", ROUND, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        shown = footer_actions(app)
        assert "activity" in shown and "Activity" in shown
        assert not {"search", "rest", "Search", "Rest"} & shown
        events = expedition(app).event_count
        await pilot.press("s")
        await settled(pilot, lambda: any("no search action" in n for n in notices(app)))
        said = next(n for n in notices(app) if "no search action" in n)
        assert "Search is an activity: press A" in said
        await pilot.press("r")
        await settled(pilot, lambda: any("no rest action" in n for n in notices(app)))
        assert "Moment's rest is an activity" in next(n for n in notices(app) if "rest" in n)
        assert app.screen is table
        assert expedition(app).event_count == events
        await pilot.press("question_mark")
        await settled(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = str(app.screen.query_one("#help-text", Static).content)
        assert "A turn searching" not in text and "A turn resting" not in text
        assert "A character's activity" in text
        assert "moments-rest (Moment's rest)" in text


async def test_a_procedure_without_activities_hides_the_key_and_it_says_why() -> None:
    """Travel turns have no characters' activities: no A in the footer; pressed, it says so."""
    app = DelveApp(make("trip", ANY_PROCEDURE_PARTY, procedure="travel-turn"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        shown = footer_actions(app)
        assert "activity" not in shown and "search" not in shown
        assert "rest" in shown
        await pilot.press("A")
        await settled(pilot, lambda: any("no characters' activities" in n for n in notices(app)))


async def test_where_members_take_no_share_the_activity_comes_first_then_who() -> None:
    """OSE's activities are the game master's to count: the activity is chosen first, then,
    for one about a member (forcing a door reads the forcer's STR), who does it."""
    party = ("pc add Ash hp=6 str=17", "pc add Bryn hp=5 str=7")
    app = DelveApp(make("doors", party, procedure="ose"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        events = expedition(app).event_count
        await pilot.press("A")
        await settled(pilot, lambda: isinstance(app.screen, ActivityDialog))
        await pilot.press("f")  # Force a stuck door
        await settled(pilot, lambda: isinstance(app.screen, MemberPick))
        assert "Force a stuck door: who does it?" in str(app.screen.query_one(Static).content)
        await pilot.press("a")  # Ash
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert last_command(app) == "do force by=Ash"
