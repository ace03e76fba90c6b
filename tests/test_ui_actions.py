"""Every action from the keys: refuelling, s and r for one turn, the action menu, fixing a
roll and choosing a row of the hazard table."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.action_dialog import ActionDialog
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.dialogs.roll_prompt import RollPrompt
from delvetui.ui.panes.action_pane import ActionPane
from delvetui.ui.panes.turn_log import TurnLog
from tests.ui_support import (
    PARTY,
    dialog_says,
    expedition,
    keep_notices,
    make,
    ready,
    screen_text,
    settled,
)

SIZE = (120, 40)


def pane_text(app: DelveApp) -> str:
    table = app.table
    assert table is not None
    return str(table.query_one(ActionPane).render())


async def test_a_spent_lantern_is_refuelled_and_lit_from_the_lights_dialog() -> None:
    played = (*PARTY, "light on lantern1", "light set lantern1 turns=0")
    app = DelveApp(make("oil", played, procedure="exploration"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        lantern = expedition(app).state.light("lantern1")
        assert lantern is not None and lantern.spent
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        dialog = app.screen
        assert isinstance(dialog, LightDialog)
        ids = [light.id for light in dialog.lights]
        assert "lantern1" in ids
        dialog.options.highlighted = ids.index("lantern1")
        await pilot.press("f")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("1")  # refuel and light it

        def burning() -> bool:
            light = expedition(app).state.light("lantern1")
            return light is not None and light.lit and not light.spent

        await settled(pilot, burning)
        light = expedition(app).state.light("lantern1")
        assert light is not None and light.minutes == 360


async def test_lighting_a_light_nobody_carries_picks_a_member() -> None:
    app = DelveApp(make("carry", (*PARTY, "light add torch count=2")))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        dialog = app.screen
        assert isinstance(dialog, LightDialog)
        ids = [light.id for light in dialog.lights]
        uncarried = next(light.id for light in dialog.lights if light.carrier is None)
        dialog.options.highlighted = ids.index(uncarried)
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "Who carries" in screen_text(app)
        await pilot.press("b")  # Bryn

        def carried() -> bool:
            return any(
                light.lit and light.carrier == "Bryn" for light in expedition(app).state.lights
            )

        await settled(pilot, carried)


async def test_s_and_r_take_one_turn_then_n_moves_on() -> None:
    app = DelveApp(make("moving", (*PARTY, "light on lantern1")))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ActionDialog))
        await pilot.press("2")  # walk
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        assert expedition(app).state.action == "walk"
        await pilot.press("s")
        await settled(pilot, lambda: expedition(app).state.action == "search")
        await settled(pilot, lambda: "Walk" in pane_text(app))
        assert "after search" in pane_text(app)
        turn = expedition(app).state.turn  # (a search in dim light takes two)
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == turn + 1)
        assert expedition(app).state.action == "walk"
        await pilot.press("r")
        await settled(pilot, lambda: expedition(app).state.action == "rest")
        turn = expedition(app).state.turn
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == turn + 1)
        assert expedition(app).state.action == "walk"


async def test_the_action_menu_starts_on_the_current_action_and_does_not_wrap() -> None:
    app = DelveApp(make("menu", (*PARTY, "turn walk hazard=6", "turn search hazard=6")))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        actions = list(expedition(app).procedure.actions)
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ActionDialog))
        options = app.screen.query_one(OptionList)
        # After a search, n walks on: the cursor starts there.
        assert options.highlighted == actions.index("walk")
        await pilot.press("up", "up", "up")
        assert options.highlighted == 0
        await pilot.press("end", "down", "down")
        assert options.highlighted == options.option_count - 1
        assert "1 " in screen_text(app) and "Crawl" in screen_text(app)
        await pilot.press("c")  # crawl, by its first letter
        await settled(pilot, lambda: expedition(app).state.turn == 3)
        assert expedition(app).state.action == "crawl"


async def test_fix_roll_says_which_roll_and_its_old_value() -> None:
    app = DelveApp(make("fix", (*PARTY, "turn crawl hazard=4")))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await pilot.press("f")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        prompt = app.screen
        assert isinstance(prompt, RollPrompt)
        assert "turn crawl hazard=4" in prompt.purpose
        shown = screen_text(app)
        assert "It was 4" in shown
        assert "Fix a roll: Dungeon Hazard Die" in shown
        await pilot.press("6", "enter")
        await settled(pilot, lambda: app.screen is table)

        def fixed() -> bool:
            last = expedition(app).state.last_hazard
            return last is not None and last.roll == 6

        await settled(pilot, fixed)


async def test_table_dice_takes_a_row_of_the_hazard_table() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("t", "n")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        prompt = app.screen
        assert isinstance(prompt, RollPrompt)
        assert [number for number, _ in prompt.rows] == ["1", "2", "3", "4", "5", "6"]
        await pilot.press("tab", "down", "enter")  # the second row: Fatigue

        def entered() -> bool:
            last = expedition(app).state.last_hazard
            return last is not None and last.roll == 2

        await settled(pilot, entered)
        assert expedition(app).state.turn == 1


async def test_v_shows_the_log_one_line_a_turn_and_back() -> None:
    played: tuple[str, ...] = (*PARTY, "light on lantern1", "turn crawl hazard=4")
    played = (*played, "turn crawl hazard=1", "turn walk hazard=3")
    app = DelveApp(make("compact", played))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        log = table.query_one(TurnLog)
        full = len(log.lines)
        await pilot.press("v")
        await settled(pilot, lambda: len(log.lines) < full)
        turns = [line for line in log.lines if line.one_row]
        assert len(turns) == 3
        assert "Crawl" in turns[1].text and "Encounter 1" in turns[1].text
        assert all(line.one_row for line in turns)  # one row a turn, cut at its end
        assert turns[1].kind == "encounter"
        assert "torch2 burns out" in turns[2].text
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 4)
        await settled(pilot, lambda: sum(line.one_row for line in log.lines) == 4)
        await pilot.press("v")
        await settled(pilot, lambda: len(log.lines) > full)
        assert sum(line.kind == "turn" for line in log.lines) == 4


async def test_the_lights_dialog_corrects_each_light_in_what_it_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Trespasser, light: a torch burns down on its usage die, so the lights dialog offers
    "d set the usage die" for it (not "set turns left"), and d corrects the die; t on it
    changes nothing and says why. A torch of a game that counts turns (exploration) is
    offered "t set turns left" instead."""
    keep_notices(monkeypatch)
    played = ("pc add Ash hp=10", "light add torch carrier=Ash lit", "turn stay usage.torch1=1")
    app = DelveApp(make("usage", played, procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        assert "d set the usage die" in screen_text(app)
        assert "set turns left" not in screen_text(app)
        assert "usage die d4" in screen_text(app)
        events = expedition(app).event_count
        await pilot.press("t")
        await settled(pilot, lambda: "not by turns" in dialog_says(app))
        assert isinstance(app.screen, LightDialog)
        assert expedition(app).event_count == events
        await pilot.press("d")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("2")  # d6

        def corrected() -> bool:
            light = expedition(app).state.light("torch1")
            return light is not None and light.usage_die == 6

        await settled(pilot, corrected)
        torch = expedition(app).state.light("torch1")
        assert torch is not None and torch.minutes is None
    timed = DelveApp(
        make(
            "timed", ("pc add Ash hp=8", "light add torch carrier=Ash lit"), procedure="exploration"
        )
    )
    async with timed.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(timed.screen, LightDialog))
        assert "t set turns left" in screen_text(timed)
        assert "usage die" not in screen_text(timed)
        await pilot.press("d")
        await settled(pilot, lambda: "has no usage die" in dialog_says(timed))
        assert isinstance(timed.screen, LightDialog)
