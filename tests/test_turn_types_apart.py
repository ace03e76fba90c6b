"""Modes are kept apart: an action of one kind of turn is neither offered nor taken in another.

The rule: where a game has several kinds of turn (dungeon cycles and watches), each has its
own actions; the game master changes kind explicitly (``enter ID``) and the log says so.
Taking another kind's action is refused with a sentence naming the kinds and the way over,
and writes nothing. The example procedure is the complete one in docs/procedures.md
("Modes are kept apart"), played here as written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import OptionList

from delvetui.core import events as ev
from delvetui.core.commands.completion import completions
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.table.command_line import CommandLine
from delvetui.ui.table.palette import entries
from tests.conftest import Factory, of, run
from tests.test_docs_procedures import COMPLETE
from tests.ui_support import expedition, make, ready, settled


def two_modes() -> Procedure:
    """The complete example of docs/procedures.md that keeps a dungeon and the wilds apart."""
    text = next(text for _, text in COMPLETE if 'id = "two-modes"' in text)
    return load_text(text)


@pytest.fixture
def made(home: Path) -> Iterator[Expedition]:
    created = Expedition.create(home / "modes.delve", two_modes(), seed=3)
    run(created, "pc add Ash hp=5")
    yield created
    created.close()


def test_another_kinds_action_is_refused_naming_the_way_over(made: Expedition) -> None:
    """The docs' example: in a dungeon turn, Travel is refused with `enter wilderness`."""
    before = made.state
    with pytest.raises(CommandError) as refused:
        made.execute("turn travel")
    assert str(refused.value) == (
        "Travel is a wilderness action; this is a dungeon turn. Type `enter wilderness` first."
    )
    assert made.state == before and made.state.turn == 0


def test_entering_the_wilds_is_logged_and_then_travel_takes_four_hours(made: Expedition) -> None:
    """The game master changes kind with `enter`: a fact of its own, then the wilds' action."""
    entered = made.execute("enter wilderness")
    assert of(entered, ev.TurnTypeChanged) == [ev.TurnTypeChanged(turn_type="wilderness")]
    made.execute("turn travel")
    assert made.state.minutes == 240
    with pytest.raises(CommandError, match="Walk is a dungeon action; this is a wilderness"):
        made.execute("turn walk")


def test_an_activity_of_the_dungeon_is_refused_in_the_wilds(made: Expedition) -> None:
    """Activities belong to their kind of turn too."""
    made.execute("enter wilderness")
    with pytest.raises(CommandError, match=r"Shout is a dungeon activity; .* `enter dungeon`"):
        made.execute("do shout")


def test_a_bare_turn_takes_this_kinds_action(made: Expedition) -> None:
    """`turn` repeats the last action only where it belongs; else this kind's first."""
    run(made, "turn walk", "turn walk hazard=3", "enter wilderness", "turn")
    assert made.state.action == "travel" and made.state.turn_type == "wilderness"
    run(made, "enter dungeon", "turn")
    assert made.state.action == "walk"


def test_an_activity_rolls_at_once_whatever_the_interval(made: Expedition) -> None:
    """A roll made every 2 turns is made at once when an activity calls for it ("or when
    the players make noise")."""
    made.execute("turn walk")  # turn 1: the every-2 roll is not due
    shouted = made.execute("do shout hazard=1")
    assert [e.label for e in of(shouted, ev.ResultRead)] == ["encounter"]


def test_one_camp_is_not_a_nights_sleep_and_dungeon_hours_count(made: Expedition) -> None:
    """`reset_after = 2`: one 4-hour camp pauses the hours without sleep; the second in a
    row sets them back. Six 10-minute dungeon turns count one hour (`per_hour`)."""
    for _ in range(3):
        run(made, "turn walk", "turn walk hazard=3")
    awake = dict(made.state.party[0].tracks)["awake"]
    assert awake == 1
    run(made, "enter wilderness", "turn travel", "turn camp")
    assert dict(made.state.party[0].tracks)["awake"] == 5  # 1 + 4, the camp paused it
    run(made, "turn camp")
    assert dict(made.state.party[0].tracks)["awake"] == 0


def test_a_kind_of_turn_without_an_action_is_a_problem() -> None:
    """Once actions name their turn types, every kind needs one."""
    text = next(text for _, text in COMPLETE if 'id = "two-modes"' in text)
    broken = text.replace('turn_types = ["wilderness"]', 'turn_types = ["dungeon"]')
    with pytest.raises(ProcedureError, match=r"turn_types\.wilderness: no action is taken"):
        load_text(broken)
    misnamed = text.replace('turn_types = ["wilderness"]', 'turn_types = ["wilds"]', 1)
    with pytest.raises(ProcedureError, match="names the turn type 'wilds'"):
        load_text(misnamed)


def test_completion_offers_only_this_kinds_actions(made: Expedition) -> None:
    """The command line completes `turn ` with this kind's actions only."""
    offered = completions("turn ", made.state, made.procedure)
    assert any("walk" in line for line in offered)
    assert not any("travel" in line or "camp" in line for line in offered)


def test_the_shipped_cairn_procedures_keep_their_modes_apart(expedition: Factory) -> None:
    """Cairn's watches and dungeon cycles (and the modular guide's turns) each have their
    own actions, and every action of the two names its kind of turn."""
    for procedure_id in ("cairn", "cairn-modular"):
        made = expedition(procedure_id, name=procedure_id)
        for name, action in {**made.procedure.actions, **made.procedure.activities}.items():
            assert action.turn_types, f"{procedure_id}: {name} names no kind of turn"


def picked(app: DelveApp) -> list[str]:
    """The actions the open `a` picker offers, by id."""
    options = app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).id) for i in range(options.option_count)]


async def test_the_picker_and_the_palette_offer_only_this_kinds_actions() -> None:
    """In a Cairn dungeon cycle the `a` picker and the palette list the dungeon's actions:
    no Travel, no Make Camp; after `enter wilderness`, the other way round."""
    from delvetui.ui.dialogs.action_dialog import ActionDialog

    path = make("cairn-modes", ("pc add Ash hp=4", "enter dungeon"), procedure="cairn")
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        offered = [name for name, _, _ in entries(table)]
        assert "Turn: Linger" in offered and "Turn: Travel" not in offered
        assert "Do: A loud disturbance" in offered
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ActionDialog))
        assert picked(app) == ["move", "hurry", "enter", "linger", "rest"]
        await pilot.press("escape")
        await settled(pilot, lambda: not isinstance(app.screen, ActionDialog))
        await pilot.press(":")
        line = table.query_one(CommandLine)
        await settled(pilot, lambda: line.input.has_focus)
        line.input.value = "enter wilderness"
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.turn_type == "wilderness")
        await pilot.press("a")
        await settled(pilot, lambda: isinstance(app.screen, ActionDialog))
        assert picked(app) == ["travel", "night-travel", "explore", "supply", "camp"]
