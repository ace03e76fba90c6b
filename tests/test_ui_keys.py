"""Every key of the table, driven with Pilot at a roomy and at the smallest supported size."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Input, OptionList, Static

from delvetui.core.state import State
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.action_dialog import ActionDialog
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.help_screen import HelpScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.dialogs.member_form import MemberForm
from delvetui.ui.dialogs.party_dialog import PartyDialog
from delvetui.ui.dialogs.roll_prompt import RollPrompt
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.party_roster import PartyRoster
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table.command_line import CommandLine
from tests.ui_support import (
    PARTY,
    SIZES,
    expedition,
    make,
    notices,
    ready,
    screen_text,
    settled,
)

#: The detailed tests run at a roomy size; test_every_key_small walks every key at 80×24.
SIZE = (120, 40)
#: The party after its first turn, for the keys that act on a turn already played.
ONE_TURN = (*PARTY, "turn")


def log_texts(app: DelveApp) -> list[str]:
    table = app.table
    assert table is not None
    return [line.text for line in table.query_one(TurnLog).lines]


async def test_n_and_space_take_turns() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        events = expedition(app).event_count
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        await pilot.press("space")
        await settled(pilot, lambda: expedition(app).state.turn == 2)
        assert expedition(app).event_count > events
        await settled(pilot, lambda: any(t.startswith("Turn 2 ·") for t in log_texts(app)))
        assert "Turn 2" in screen_text(app)


async def test_a_chooses_the_action_and_takes_a_turn() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ActionDialog))
        options = app.screen.query_one(OptionList)
        options.highlighted = list(expedition(app).procedure.actions).index("walk")
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.action == "walk")
        assert expedition(app).state.turn == 1
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 2)
        assert expedition(app).state.action == "walk"


async def test_s_searches_and_r_rests() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("s")
        await settled(pilot, lambda: expedition(app).state.action == "search")
        await pilot.press("r")
        await settled(pilot, lambda: expedition(app).state.action == "rest")
        assert expedition(app).state.resting


async def test_l_lights_puts_out_hands_over_sets_turns_and_adds_a_light() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        state = expedition(app).state
        lit = next(light for light in state.lights if light.lit)
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        options = app.screen.query_one(OptionList)
        assert isinstance(app.screen, LightDialog)
        options.highlighted = [x.id for x in app.screen.lights].index(lit.id)
        await pilot.press("enter")
        await settled(pilot, lambda: not expedition(app).state.light(lit.id).lit)  # type: ignore[union-attr]
        # Hand the lantern to Cora.
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        assert isinstance(app.screen, LightDialog)
        ids = [x.id for x in app.screen.lights]
        app.screen.query_one(OptionList).highlighted = ids.index("lantern1")
        await pilot.press("g")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        names = [m.name for m in expedition(app).state.party]
        app.screen.query_one(OptionList).highlighted = names.index("Cora")
        await pilot.press("enter")
        await settled(
            pilot,
            lambda: expedition(app).state.light("lantern1").carrier == "Cora",  # type: ignore[union-attr]
        )
        # Correct the lantern's turns left.
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        assert isinstance(app.screen, LightDialog)
        ids = [x.id for x in app.screen.lights]
        app.screen.query_one(OptionList).highlighted = ids.index("lantern1")
        await pilot.press("t")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        app.screen.query_one(Input).value = "5"
        await pilot.press("enter")
        minutes = 5 * expedition(app).procedure.turn_minutes("turn")
        await settled(
            pilot,
            lambda: expedition(app).state.light("lantern1").minutes == minutes,  # type: ignore[union-attr]
        )
        assert any("lantern1 has 5 turns left" in text for text in log_texts(app))
        # Add two candles.
        before = len(expedition(app).state.lights)
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        kinds = list(expedition(app).procedure.lights)
        app.screen.query_one(OptionList).highlighted = kinds.index("candle")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        app.screen.query_one(Input).value = "2"
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")  # the first member carries them
        await settled(pilot, lambda: len(expedition(app).state.lights) == before + 1)
        added = expedition(app).state.lights[-1]
        assert (added.kind, added.count, added.carrier) == ("candle", 2, "Ash")


async def test_p_party_changes_hit_points_corrects_a_member_and_adds_one() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("p")
        await settled(pilot, lambda: isinstance(app.screen, PartyDialog))
        await pilot.press("h")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        # Not an amount: said under the field, nothing saved, the question still open.
        events = expedition(app).event_count
        await pilot.press("x", "enter")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        assert "Type N, +N or -N (e.g. -2 for two damage)." in screen_text(app)
        assert expedition(app).event_count == events
        app.screen.query_one(Input).value = "-2"
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.party[0].hp == 4)
        # Correct Ash's maximum and conditions.
        await pilot.press("p")
        await settled(pilot, lambda: isinstance(app.screen, PartyDialog))
        await pilot.press("enter")  # Ash
        await settled(pilot, lambda: isinstance(app.screen, MemberForm))
        app.screen.query_one("#member-max", Input).value = "8"
        app.screen.query_one("#member-condition-add", Input).value = "poisoned"
        await pilot.press("ctrl+s")
        await settled(pilot, lambda: expedition(app).state.party[0].max_hp == 8)
        assert "poisoned" in expedition(app).state.party[0].conditions
        # Add a member.
        await pilot.press("p")
        await settled(pilot, lambda: isinstance(app.screen, PartyDialog))
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, MemberForm))
        app.screen.query_one("#member-name", Input).value = "Dell"
        app.screen.query_one("#member-hp", Input).value = "7"
        await pilot.press("ctrl+s")
        await settled(pilot, lambda: expedition(app).state.member("Dell") is not None)
        assert expedition(app).state.member("Dell").max_hp == 7  # type: ignore[union-attr]


async def test_d_rolls_dice_into_the_log() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("d")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        app.screen.query_one(Input).value = "2x6"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen)  # refused inline, still asking
        app.screen.query_one(Input).value = "2d6 reaction"
        await pilot.press("enter")
        await settled(pilot, lambda: any(t.startswith("Reaction: 2d6") for t in log_texts(app)))


async def test_m_writes_a_note() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("m")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        app.screen.query_one(Input).value = "A door, barred from the other side"
        await pilot.press("enter")
        await settled(
            pilot, lambda: log_texts(app)[-1] == "Note: A door, barred from the other side"
        )


async def test_colon_opens_the_command_line() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        line = table.query_one(CommandLine)
        assert not line.display or not line.has_class("-open")
        await pilot.press("colon")
        assert line.has_class("-open")
        assert app.focused is line.input
        await pilot.press("escape")
        assert not line.has_class("-open")
        assert isinstance(app.focused, TurnLog)


async def test_u_undoes_and_ctrl_r_redoes() -> None:
    app = DelveApp(make(commands=ONE_TURN))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        assert expedition(app).state.turn == 1
        await pilot.press("u")
        await settled(pilot, lambda: expedition(app).state.turn == 0)
        log = table.query_one(TurnLog)
        undone = [line for line in log.lines if log.is_voided(line)]
        assert undone and undone[0].kind == "turn"
        await pilot.press("ctrl+r")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        assert not [line for line in log.lines if log.is_voided(line)]


async def test_f_fixes_the_last_roll() -> None:
    app = DelveApp(make(commands=ONE_TURN))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert expedition(app).state.turn == 1
        rolled = expedition(app).state.last_hazard
        assert rolled is not None
        wanted = 6 if rolled.roll != 6 else 4
        await pilot.press("f")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        app.screen.query_one(Input).value = str(wanted)
        await pilot.press("enter")
        await settled(
            pilot,
            lambda: (
                (hazard := expedition(app).state.last_hazard) is not None and hazard.roll == wanted
            ),
        )
        assert expedition(app).state.turn == 1
        assert any(text.startswith("Undone: turn") for text in log_texts(app))


async def test_c_sets_the_clock() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("c")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        app.screen.query_one(Input).value = "25:00"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen)
        app.screen.query_one(Input).value = "13:20"
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.clock_text == "13:20")
        assert any("clock is set to day 1, 13:20" in text for text in log_texts(app))


async def test_t_switches_table_dice() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await pilot.press("t")
        assert table.table_dice
        assert table.query_one(StatusBar).table_dice
        assert "TABLE DICE" in screen_text(app)
        await pilot.press("t")
        assert not table.table_dice


async def test_x_exports_the_log(home: Path) -> None:
    app = DelveApp(make(commands=ONE_TURN))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert expedition(app).state.turn == 1
        await pilot.press("x")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")  # plain text
        out = home / "exports" / "crypt-log.txt"
        await settled(pilot, out.exists)
        assert "Turn 1" in out.read_text(encoding="utf-8")
        await settled(pilot, lambda: any(str(out) in text for text in notices(app)))


async def test_question_mark_shows_help() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        await settled(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = str(app.screen.query_one("#help-text", Static).content)
        assert "Fix a mistaken roll" in text and "Table dice" in text and "ctrl+p" in text
        assert "pc add NAME hp=N" in text
        await pilot.press("escape")
        await settled(pilot, lambda: app.table is app.screen)


async def test_ctrl_p_palette_lists_actions_and_runs_one() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await settled(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"Turn: Walk")
        found = app.screen.query_one(CommandList)

        def walk_found() -> bool:
            option = found.highlighted_option
            return option is not None and "Walk" in str(option.prompt)

        await settled(pilot, walk_found)  # the palette's search runs in the background
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.action == "walk")


async def test_ctrl_t_switches_the_theme() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        first = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != first
        await pilot.press("ctrl+t")
        assert app.theme == first


async def test_ctrl_q_quits_with_everything_saved() -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        await pilot.press("ctrl+q")
        await settled(pilot, lambda: not app.is_running)
    app.close_expedition()
    from delvetui.session import Expedition

    with Expedition.open(path, write=False) as reopened:
        assert reopened.state.turn == 1


@pytest.mark.parametrize("size", SIZES, ids=["120x40", "80x24"])
async def test_the_footer_shows_every_key(size: tuple[int, int]) -> None:
    app = DelveApp(make())
    async with app.run_test(size=size) as pilot:
        table = await ready(pilot)
        await pilot.pause()
        rows = table.query_one(KeyFooter).region.height
        footer = "\n".join(screen_text(app).splitlines()[-rows:])
        for binding in table.key_bindings():
            assert binding.description in footer, binding.description
        assert "Quit" in footer and "palette" in footer


async def test_a_click_on_a_key_in_the_footer_presses_it() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await pilot.pause()
        footer = table.query_one(KeyFooter)
        shown = footer.render().plain.splitlines()
        row = next((number for number, text in enumerate(shown) if "n Turn" in text), None)
        assert row is not None, shown
        line = shown[row]
        column = line.index("n Turn")
        await pilot.click(KeyFooter, offset=(column + 2, row))
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        # A click on the gap between two keys presses nothing.
        gap = line.index("  ", column)
        await pilot.click(KeyFooter, offset=(gap + 1, row))
        await pilot.pause()
        assert expedition(app).state.turn == 1


@pytest.mark.long
async def test_every_key_small() -> None:
    """Every key once at 80×24: each opens what it should and the table survives it."""
    app = DelveApp(make())
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        # The torch may burn out on the way: asking before a turn in the dark is tested in
        # test_ui_danger; here every key goes straight through.
        table.confirm_trouble = False

        def state() -> State:
            return expedition(app).state

        await pilot.press("n")
        await settled(pilot, lambda: state().turn == 1)
        await pilot.press("space")
        await settled(pilot, lambda: state().turn == 2)
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ActionDialog))
        await pilot.press("enter")
        await settled(pilot, lambda: state().turn == 3)
        await pilot.press("s")
        await settled(pilot, lambda: state().action == "search")
        await pilot.press("r")
        await settled(pilot, lambda: state().action == "rest")
        for key, screen in (
            ("l", LightDialog),
            ("p", PartyDialog),
            ("c", AskScreen),
            ("x", ChooseScreen),
            ("question_mark", HelpScreen),
            ("ctrl+p", CommandPalette),
        ):
            await pilot.press(key)
            await settled(pilot, lambda screen=screen: isinstance(app.screen, screen))  # type: ignore[misc]
            await pilot.press("escape")
            await settled(pilot, lambda: app.screen is app.table)
        await pilot.press("d")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"d20 luck", "enter")
        await settled(pilot, lambda: log_texts(app)[-1].startswith("Luck: d20"))
        await pilot.press("m")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"hello", "enter")
        await settled(pilot, lambda: log_texts(app)[-1] == "Note: hello")
        await pilot.press("colon")
        assert app.table is not None and app.table.query_one(CommandLine).has_class("-open")
        await pilot.press("escape")
        await pilot.press("u")
        await settled(pilot, lambda: log_texts(app)[-1] == "Undone: the command note hello.")
        await pilot.press("ctrl+r")
        await settled(pilot, lambda: log_texts(app)[-1] == "Redone: the command note hello.")
        await pilot.press("f")
        await settled(pilot, lambda: any("rolled no dice" in text for text in notices(app)))
        await pilot.press("t")
        assert app.table.table_dice
        await pilot.press("S")  # the offer made on opening: start session 1
        await settled(pilot, lambda: state().in_session)
        await pilot.press("S")  # a session is running: asks whether to end it
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("escape")
        await settled(pilot, lambda: app.screen is app.table)
        assert state().in_session
        theme = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != theme
        await pilot.press("ctrl+q")
        await settled(pilot, lambda: not app.is_running)


async def test_the_mouse_opens_a_light_and_a_member() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.click(LightInventory, offset=(3, 2))  # the second light (under the border)
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        dialog = app.screen
        assert isinstance(dialog, LightDialog)
        inventory = app.table.query_one(LightInventory) if app.table else None
        assert inventory is not None
        assert dialog.selected == inventory._rows[1]  # lit lights are listed first
        await pilot.press("escape")
        await settled(pilot, lambda: app.screen is app.table)
        await pilot.click(PartyRoster, offset=(2, 3))  # Cora, the third row
        await settled(pilot, lambda: isinstance(app.screen, PartyDialog))
        assert app.screen.selected == "Cora"  # type: ignore[attr-defined]


async def test_an_encounter_shows_its_sub_rolls_without_stopping_play() -> None:
    """The encounter and its sub-rolls are in the log, the encounter in the strip; no notice
    stops play or covers the panes, nor does a sign after it."""
    path = make(
        "halls",
        ["pc add Ash hp=6 str=10 dex=10 con=10 int=10 wis=10 cha=10"],
        procedure="dungeon-turn",
    )
    app = DelveApp(path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        table = await ready(pilot)
        table.confirm_trouble = False  # a party without light: no question first
        table.run("turn explore hazard=1")
        await settled(pilot, lambda: "Encounter" in screen_text(app).splitlines()[1])
        said = [line.text for line in table.log_lines.full]
        assert any(text.startswith("Encounter!") for text in said)
        assert any("Disposition: 2d6" in text for text in said)
        assert not notices(app)
        assert app.screen is table  # nothing to dismiss: play goes on
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 2)
        table.run("turn explore hazard=3")
        await settled(pilot, lambda: table.log_lines.full[-1].text.startswith("Sign:"))
        assert not notices(app)
