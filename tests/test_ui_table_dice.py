"""Table dice: the program asks for the number rolled at the table, for every roll."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from delvetui.core import events as ev
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.action_dialog import ActionDialog
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.roll_prompt import RollPrompt, check_roll, expanded
from delvetui.ui.runner import MadeRoll, corrected
from tests.ui_support import expedition, make, notices, ready, settled


async def test_a_turn_asks_for_the_hazard_die_and_uses_the_number() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("t", "n")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        prompt = app.screen
        assert isinstance(prompt, RollPrompt)
        assert (prompt.key, prompt.expression) == ("hazard", "d6")
        before = expedition(app).batch_count
        prompt.query_one(Input).value = "9"
        await pilot.press("enter")
        await pilot.pause(0)
        assert app.screen is prompt  # a d6 cannot show 9: still asking, nothing saved
        assert expedition(app).batch_count == before
        prompt.query_one(Input).value = "3"
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        hazard = expedition(app).state.last_hazard
        assert hazard is not None and hazard.roll == 3 and hazard.result == "Burn"
        batch = next(expedition(app).batches(after=expedition(app).batch_count - 1))
        rolled = [e for e in batch.events if isinstance(e, ev.DiceRolled)]
        assert rolled and all(e.entered for e in rolled)


async def test_escape_cancels_the_turn_and_saves_nothing() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await ready(pilot)
        before = expedition(app).event_count
        await pilot.press("t", "n")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        await pilot.press("escape")
        await settled(pilot, lambda: any("nothing of the command" in n for n in notices(app)))
        assert expedition(app).event_count == before
        assert expedition(app).state.turn == 0


async def test_every_roll_of_a_command_is_asked_for() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        await pilot.press("t")
        table.run("roll 2d6 reaction")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        assert app.screen.expression == "2d6"  # type: ignore[attr-defined]
        app.screen.query_one(Input).value = "3,4"
        await pilot.press("enter")
        await settled(
            pilot,
            lambda: (
                table.query_one("#log").lines[-1].text  # type: ignore[attr-defined]
                == "Reaction: 2d6 [3, 4] = 7 (table dice)"
            ),
        )


async def test_table_dice_is_remembered_for_the_expedition() -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("t")
    app.close_expedition()
    again = DelveApp(path)
    async with again.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        assert table.table_dice
    again.close_expedition()


def test_check_roll_knows_dice_and_choices() -> None:
    assert check_roll("d6", "3") is None
    assert check_roll("d6", "7") is not None
    assert check_roll("2d6", "3,4") is None
    assert check_roll("2d6", "13") is not None
    assert check_roll("success|failure", "Success") is None
    assert check_roll("success|failure", "maybe") is not None
    assert check_roll("d6", "") is not None


def test_a_fixed_roll_keeps_the_rolls_before_it() -> None:
    rolls = [
        MadeRoll("hazard", "d6", "hazard", "hazard: d6 [1] = 1", "1"),
        MadeRoll("reaction", "2d6", "reaction", "reaction: 2d6 [3, 4] = 7", "3,4"),
        MadeRoll("damage.Ash", "d4", "damage", "damage: d4 [2] = 2", "2"),
    ]
    fixed = corrected("turn crawl hazard=1 stealth=success", rolls, 1, "12")
    assert fixed == "turn crawl stealth=success hazard=1 reaction=12"


async def test_an_action_that_needs_the_players_result_asks_for_it() -> None:
    """Trespasser's Hide needs the group Stealth check: chosen with keys, it is asked for."""
    app = DelveApp(
        make(
            "keep",
            ["pc add Hob hp=5", "turn stay", "turn stay", "turn stay", "turn stay"],
            procedure="trespasser",
        )
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        table = await ready(pilot)
        table.confirm_trouble = False  # a party without light: no question first
        assert not table.table_dice  # asked for even without table dice: nothing can roll it
        alarm = dict(expedition(app).state.counters)["alarm"]
        before = expedition(app).batch_count
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ActionDialog))
        dialog = app.screen
        options = dialog.query_one(OptionList)
        options.highlighted = list(expedition(app).procedure.actions).index("hide")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        picker = app.screen
        assert isinstance(picker, ChooseScreen)
        assert [key for key, _ in picker.choices] == ["success", "failure"]
        assert "Stealth check" in picker.title_text
        await pilot.press("escape")  # cancelled: nothing saved
        await settled(pilot, lambda: any("nothing of the command" in n for n in notices(app)))
        assert expedition(app).batch_count == before
        table.run("turn hide")  # typed on the command line: asked the same way
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("s")  # the first letter of a choice will do
        # "On a success, the alarm value falls by two, plus one per spark": asked next.
        await settled(pilot, lambda: getattr(app.screen, "key", None) == "sparks")
        await pilot.press("1", "enter")
        await settled(pilot, lambda: expedition(app).batch_count == before + 1)
        assert dict(expedition(app).state.counters)["alarm"] == alarm - 3
        assert expedition(app).state.action == "hide"


def test_a_choice_can_be_typed_by_its_first_letters() -> None:
    assert expanded("success|failure", "S") == "success"
    assert expanded("success|failure", "fail") == "failure"
    assert expanded("success|safe", "s") == "s"  # not one choice: refused by the check
    assert check_roll("success|safe", "s") == "Type one of: success, safe."
    assert check_roll("success|failure", "f") is None
    assert check_roll("N", "12") is None and check_roll("N", "x") == "Type a whole number."
