"""The words a game master reads: each sentence as the table says it aloud.

Each test plays what a game master would type and reads the line the log, a prompt,
``status`` or an export shows, asserting the words: a plural as English makes it, an
action refused by its name, a spent usage die told once, a check named before its
verdict, advantage said in words, the turns of an export counted by kind, and a light's
time left in the unit that means something.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from delvetui import dice
from delvetui.core.log import lines
from delvetui.errors import CommandError, RollNeeded
from delvetui.export import export
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.dialogs.roll_prompt import RollPrompt
from delvetui.ui.panes.light_inventory import LightInventory
from tests.cli_support import delvetui
from tests.conftest import run
from tests.ui_support import PARTY, make, ready, screen_text, settled

HALLS = """\
id = "halls"
name = "The halls"
source = "the word tests"
summary = "Dungeon turns and watches; a lantern of four hours; a torch on a usage die."
default_action = "walk"

[turn_types.dungeon]
label = "dungeon turn"
minutes = 10

[turn_types.watch]
label = "watch"
minutes = 480

[party]
abilities = ["MIGHT", "ATHLETICS"]
fatigue = ["fresh", "tired"]
fatigue_modes = { tired = "advantage" }

[lights.lantern]
label = "Lantern"
hours = 4

[lights.torch]
label = "Torch"
usage_die = 4

[light_levels.dark]
label = "Darkness"
text = "nothing can be searched in the dark"
forbid = ["search"]

[actions.walk]
label = "Walk"
kind = "move"
effects = [{ do = "usage-die", kinds = ["torch"] }]

[actions.search]
label = "Detailed search"

[activities.batter]
label = "Batter a door"

[[activities.batter.effects]]
do = "check"
id = "batter"
label = "Batter a door (Might | Athletics)"
ability = "MIGHT"
dc = 10
target = "by"
"""


@pytest.fixture
def halls(home: Path) -> Iterator[Expedition]:
    opened = Expedition.create(home / "halls.delve", load_text(HALLS), seed=5)
    yield opened
    opened.close()


def said(expedition: Expedition) -> list[str]:
    return [line.text for line in lines(expedition.batches(), expedition.procedure)]


def test_an_action_refused_in_the_dark_is_named_not_conjugated(halls: Expedition) -> None:
    """A label is a name ("Detailed search"), not a verb: the refusal says the action is
    not possible, never "cannot detailed search"."""
    with pytest.raises(CommandError) as refused:
        halls.execute("turn search")
    assert str(refused.value) == (
        "Detailed search is not possible in darkness: nothing can be searched in the dark. "
        "Light a source first."
    )


def test_a_spent_usage_die_says_the_light_goes_out_once(halls: Expedition) -> None:
    """After the d4 the light is used up: one line says so, not "steps down to spent"."""
    run(halls, "pc add Bo hp=6", "light add torch carrier=Bo lit", "turn walk usage.torch1=1")
    log = said(halls)
    assert "torch1's usage die is spent: torch1 goes out, used up." in log
    assert not any("steps down to spent" in line or line == "torch1 is used up." for line in log)


def test_a_member_joins_with_the_scores_the_game_master_typed(halls: Expedition) -> None:
    """The log says the scores a member joins with, so a value read as an ability is seen
    at once (in a procedure that lists no abilities, any name is one)."""
    halls.execute("pc add Bo hp=6 MIGHT=12 ATHLETICS=9")
    assert "Bo joins the party (6/6 HP, ATHLETICS 9, MIGHT 12)." in said(halls)


def test_a_check_is_named_before_its_verdict(halls: Expedition) -> None:
    """ "Bo fails at Batter a door (Might | Athletics)" read badly: the check's name leads,
    its abilities joined by "or", then who and how it went."""
    run(halls, "pc add Bo hp=6 MIGHT=12", "light add lantern lit", "do batter by=Bo batter=3")
    assert "Batter a door (Might or Athletics): Bo fails, 4 against DC 10." in said(halls)


def test_a_roll_with_advantage_is_asked_for_in_words(halls: Expedition) -> None:
    """Advantage is asked for, and logged, as the table says it, not as 2d20kh1."""
    run(halls, "pc add Bo hp=6 MIGHT=12", "pc Bo fatigue=1", "light add lantern lit")
    with pytest.raises(RollNeeded) as asked:
        halls.execute("do batter by=Bo", ask=True)
    assert str(asked.value) == (
        "Roll 2d20, keep the higher (advantage), +1 for Batter a door (Might or Athletics) "
        "for Bo (DC 10) and give it as batter.Bo=N."
    )
    halls.execute("do batter by=Bo batter=5,15")
    assert (
        "Batter a door (Might or Athletics) for Bo (DC 10): d20+1 with advantage [5, 15] "
        "keep 15 +1 = 16 (table dice)" in said(halls)
    )
    assert dice.spoken("4d6kh3") == "4d6, keep the highest 3"
    assert dice.spoken("d20+2") == "d20+2"


async def test_the_roll_prompt_says_advantage_in_words() -> None:
    """The table's prompt for table dice: "Roll 2d20, keep the lower (disadvantage)"."""
    from textual.app import App

    class One(App[None]):
        def on_mount(self) -> None:
            self.push_screen(RollPrompt("con.Ash", "2d20kl1+1", "CON save for Ash (DC 12)"))

    app = One()
    async with app.run_test(size=(100, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        shown = " ".join(screen_text(app).split())  # type: ignore[arg-type]
        assert "Roll 2d20, keep the lower (disadvantage), +1 for CON save" in shown


def test_status_and_the_export_count_time_in_units_that_mean_something(
    halls: Expedition, home: Path
) -> None:
    """A lantern with 19 dungeon turns of oil, read during a watch, has "3 h 10 min" left,
    not "1" (a watch); the export counts 25 turns as so many of each kind."""
    run(halls, "pc add Bo hp=6", "light add lantern carrier=Bo lit", *["turn walk"] * 5)
    run(halls, "enter watch")
    shown = delvetui(home, "status", "halls").stdout
    assert "lantern1: bright, 3 h 10 min left" in shown
    run(halls, "enter dungeon")
    shown = delvetui(home, "status", "halls").stdout
    assert "lantern1: bright, 19 dungeon turns left" in shown
    run(halls, "enter watch", "turn walk", "turn walk")
    text = export(halls, "md")
    assert "- **Turns:** 7 (5 dungeon turns, 2 watches)" in text


def test_the_players_see_hours_left_in_a_watch_and_no_guttering(home: Path) -> None:
    """The players' screen, where it shows a light's time: in a watch, "3 h 10 min left"
    and burning bright, not "1 watch left" and guttering."""
    from delvetui.core.players import view

    procedure = load_text(HALLS + "\n[players]\nlight_turns = true\n")
    with Expedition.create(home / "shown.delve", procedure, seed=5) as made:
        run(made, "pc add Bo hp=6", "light add lantern carrier=Bo lit", *["turn walk"] * 5)
        run(made, "enter watch")
        assert view(made.state, procedure).light == (
            "Bo's lantern burns bright (3 h 10 min left).",
        )


@pytest.mark.long
async def test_the_lights_pane_and_dialog_tell_hours_in_a_watch(home: Path) -> None:
    """In a watch (8 hours) a lantern's 3 h 10 min left is shown so (3h10m in the pane),
    not as "1 turn", and the strip does not call it the last turn of light."""
    played = ("pc add Bo hp=6", "light add lantern carrier=Bo lit", *["turn walk"] * 5)
    with Expedition.create(home / "watch.delve", load_text(HALLS), seed=5) as made:
        run(made, *played, "enter watch")
    app = DelveApp(home / "watch.delve")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        table.query_one(LightInventory)
        shown = screen_text(app)
        assert "3h10m" in shown and "1 turn" not in shown
        assert "lantern1: 3 h 10 min of light left" in shown
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        assert "3 h 10 min left" in screen_text(app)


@pytest.mark.long
async def test_adding_torches_asks_how_many_torches() -> None:
    """The light dialog asks in the kind's own name, made plural as English does."""
    app = DelveApp(make("plural", PARTY))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        dialog = app.screen
        assert isinstance(dialog, LightDialog)
        dialog.action_add()
        await pilot.pause()
        await pilot.press("enter")  # the first kind: torch
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        assert "How many torches?" in screen_text(app)
