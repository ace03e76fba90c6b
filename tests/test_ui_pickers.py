"""Every action from the keys: pickers for who does it and for inputs, the palette, Tab."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.roll_prompt import RollPrompt
from delvetui.ui.table.command_line import CommandLine
from tests.ui_support import (
    PARTY,
    expedition,
    make,
    palette_run,
    ready,
    screen_text,
    settled,
)

SIZE = (120, 40)


def last_command(app: DelveApp) -> str:
    history = expedition(app).timeline.history().undo
    assert history is not None
    return history[1]


async def test_search_asks_the_dc_then_who_searches_with_a_picker() -> None:
    app = DelveApp(make("picks", PARTY, procedure="exploration"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        events = expedition(app).event_count
        await pilot.press("s")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        await pilot.press("1", "2", "enter")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        picker = app.screen
        assert isinstance(picker, ChooseScreen)
        assert "who does it" in picker.title_text.lower()
        assert [key for key, _ in picker.choices] == ["Ash", "Bryn", "Cora"]
        # The first letter of a name chooses that member.
        await pilot.press("b")
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert "by=Bryn" in last_command(app)
        assert "dc=12" in last_command(app)
        assert expedition(app).state.turn == 1


async def test_digits_choose_and_escape_saves_nothing() -> None:
    app = DelveApp(make("picks", PARTY, procedure="exploration"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        events = expedition(app).event_count
        table.take_turn("listen")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("escape")
        await settled(pilot, lambda: app.screen is table)
        assert expedition(app).event_count == events
        table.take_turn("listen")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("3")
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert "by=Cora" in last_command(app)


async def test_an_activity_asks_who_does_it() -> None:
    app = DelveApp(make("picks", PARTY, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        events = expedition(app).event_count
        table.run("do listen")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        options = app.screen.query_one(OptionList)
        await pilot.press("down")
        assert options.highlighted == 1
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert "by=Bryn" in last_command(app)


async def test_hide_asks_stealth_then_its_sparks() -> None:
    app = DelveApp(make("picks", PARTY, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        events = expedition(app).event_count
        table.take_turn("hide")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("s")  # success
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        prompt = app.screen
        assert isinstance(prompt, RollPrompt)
        # A successful check needs its sparks: nothing is filled in for the GM.
        assert prompt.query_one(Input).value == ""
        await pilot.press("0", "enter")
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert "stealth=success" in last_command(app)
        assert "sparks=0" in last_command(app)
        # Another hide with two sparks.
        events = expedition(app).event_count
        table.take_turn("hide")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("s")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        await pilot.press("backspace", "2", "enter")
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert "sparks=2" in last_command(app)


async def test_an_input_with_a_default_is_asked_with_it_chosen_and_enter_takes_it() -> None:
    """Picking a lock in Trespasser asks for the tools, lockpicks by default: the picker
    opens on the default, marked so, and Enter takes it; then who picks the lock."""
    app = DelveApp(make("picks", PARTY, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        events = expedition(app).event_count
        await palette_run(pilot, "Do: Pick a lock")
        line = table.query_one(CommandLine)
        await settled(pilot, lambda: line.input.value == "do pick-lock ")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        picker = app.screen
        assert isinstance(picker, ChooseScreen)
        assert "tools" in picker.title_text
        options = picker.query_one(OptionList)
        assert options.highlighted is not None
        assert options.get_option_at_index(options.highlighted).id == "lockpicks"
        assert "lockpicks  (default)" in screen_text(app)
        await pilot.press("enter")
        await settled(
            pilot, lambda: isinstance(app.screen, ChooseScreen) and app.screen is not picker
        )
        who = app.screen
        assert isinstance(who, ChooseScreen) and "who does it" in who.title_text.lower()
        await pilot.press("a")
        await settled(pilot, lambda: expedition(app).event_count > events)
        assert "tools=lockpicks" in last_command(app)
        assert "by=Ash" in last_command(app)


async def test_the_palettes_command_is_continued_by_typing() -> None:
    app = DelveApp(make("picks", PARTY, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await palette_run(pilot, "Do: Batter")
        line = table.query_one(CommandLine)
        await settled(pilot, lambda: line.has_class("-open") and line.input.has_focus)
        assert line.input.value == "do batter-door "
        await pilot.press("b", "y")
        assert line.input.value == "do batter-door by"


async def test_tab_puts_the_completion_on_the_line_and_enter_runs_it() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await pilot.press(":")
        line = table.query_one(CommandLine)
        await settled(pilot, lambda: line.input.has_focus)
        await pilot.press("t", "u", "tab")
        assert line.input.value == "turn "
        await pilot.pause()
        # No faint suggestion: what the line shows is what runs.
        assert "turn crawl" not in screen_text(app)
        await pilot.press("c", "r", "tab")
        assert line.input.value == "turn crawl "
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        assert last_command(app) == "turn crawl"
