"""A whole session of each shipped procedure, 30 turns, from the keys only.

Pilot presses the keys a game master would (n, s, r, a and a letter, l, c, the pickers'
digits and letters) and answers what the table asks; nothing goes through the command line.
Each run checks the turn count and the log, and the procedure's own moments: a search by
a chosen member, Hide with sparks, leaving the dungeon, refuelling, the time dice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import attrs
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from delvetui.core.state import State
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.dialogs.roll_prompt import RollPrompt
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.table.screen import TableScreen
from tests.ui_support import expedition, make, ready, settle

pytestmark = pytest.mark.long  # spread through the run: see tests/conftest.py

TURNS = 30
#: The most questions one action asks before it is saved.
QUESTIONS = 8
PARTY = (
    "pc add Ash hp=12",
    "pc add Bryn hp=12",
    "pc add Cora hp=12",
    "light add torch count=40 carrier=Ash lit",
    "light add lantern carrier=Bryn",
)


class Driver:
    """Presses keys on the table and answers every question with the next planned answer."""

    def __init__(self, pilot: Pilot[None], app: DelveApp, table: TableScreen) -> None:
        self.pilot = pilot
        self.app = app
        self.table = table

    async def press(self, *keys: str, answers: tuple[tuple[str, ...], ...] = ()) -> None:
        """Press keys, answer the questions that follow, and wait for the command to be saved.

        Each answer is the keys for one question in turn; a question without a planned
        answer gets the first choice (or Enter on a number already typed in). After each
        input the app is settled (``settle``: its messages handled, its workers done or
        waiting on a question), then the screen says what comes next: the table with the
        command saved, or another question.
        """
        before = expedition(self.app).event_count
        planned = list(answers)
        await self.pilot.press(*keys)
        for _ in range(QUESTIONS):
            await settle(self.pilot, idle=False)
            screen = self.app.screen
            if screen is self.table and expedition(self.app).event_count > before:
                return
            if not isinstance(screen, ChooseScreen | RollPrompt | AskScreen):
                break
            await self._answer(screen, planned.pop(0) if planned else ())
        raise AssertionError(f"{keys} did not go through (screen: {self.app.screen})")

    async def _answer(self, screen: object, keys: tuple[str, ...]) -> None:
        if not keys:
            if isinstance(screen, RollPrompt):
                field = screen.query_one(Input)
                keys = ("enter",) if field.value else ("2", "enter")
            else:
                keys = ("1",)
        await self.pilot.press(*keys)

    async def keep_light(self) -> None:
        """In the dark, light the next torch from the lights dialog."""
        state = expedition(self.app).state
        if state.light_level != "dark":
            return
        await self.pilot.press("l")
        await settle(self.pilot, idle=False)
        dialog = self.app.screen
        assert isinstance(dialog, LightDialog)
        ids = [light.id for light in dialog.lights]
        torch = next(
            light.id for light in dialog.lights if light.kind == "torch" and not light.spent
        )
        dialog.options.highlighted = ids.index(torch)
        await self.press("enter")


def log_text(app: DelveApp) -> str:
    table = app.table
    assert table is not None
    return "\n".join(line.text for line in table.query_one(TurnLog).lines)


def commands(app: DelveApp) -> list[str]:
    return [batch.command for batch in expedition(app).batches()]


@attrs.frozen
class Played:
    """What a session left: its commands, the log's text and the state."""

    commands: list[str]
    log: str
    state: State


async def play(
    procedure: str, special: dict[int, Callable[[Driver], object]], setup: tuple[str, ...] = ()
) -> Played:
    app = DelveApp(make(f"session-{procedure}", (*PARTY, *setup), procedure=procedure, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        driver = Driver(pilot, app, table)
        step = 0
        while expedition(app).state.turn < TURNS:
            await driver.keep_light()
            action = special.get(step)
            if action is not None and expedition(app).state.turn < TURNS - 3:
                result = action(driver)
                if asyncio.iscoroutine(result):
                    await result
            else:
                await driver.press("n")
            step += 1
        assert expedition(app).state.turn == TURNS
        turn_name = expedition(app).procedure.turn_name(expedition(app).state.turn_type)
        assert f"{turn_name.capitalize()} {TURNS} ·" in log_text(app)
        made = commands(app)
        assert not any(
            command.startswith(("pc ", "note", "light add"))
            for command in made[1 + len(PARTY) + len(setup) :]
        )
        played = Played(made, log_text(app), expedition(app).state)
    app.close_expedition()
    return played


@pytest.mark.parametrize("procedure", ["delving", "exploration", "dungeon-turn"])
async def test_a_session_with_searches_and_rests(procedure: str) -> None:
    special: dict[int, Callable[[Driver], object]] = {
        3: lambda d: d.press("s", answers=(("1", "2", "enter"), ("b",))),
        4: lambda d: d.press("r"),
        12: lambda d: d.press("s", answers=(("1", "2", "enter"), ("b",))),
    }
    if procedure == "exploration":
        special[8] = refuel
    if procedure == "dungeon-turn":
        special[6] = lambda d: d.press("a", "h", answers=(("2", "enter"), ("c",)))
        special[14] = leave
    played = await play(procedure, special)
    made = played.commands
    searches = [command for command in made if command.startswith("turn search")]
    assert searches
    if procedure == "exploration":  # (elsewhere the search is the referee's, no check)
        assert all("by=Bryn" in command for command in searches)
        assert "Bryn" in played.log
    assert any(command.startswith("turn rest") for command in made)
    if procedure == "exploration":
        assert any(command.startswith("light refuel lantern1") for command in made)
    if procedure == "dungeon-turn":
        assert any("harvest" in command and "by=Cora" in command for command in made)
        leaving = [command for command in made if command.startswith("turn leave")]
        assert leaving and "path=arduous" in leaving[0]
        assert "returns to camp" in played.log


async def refuel(driver: Driver) -> None:
    app = driver.app
    await driver.pilot.press("l")
    await settle(driver.pilot, idle=False)
    dialog = app.screen
    assert isinstance(dialog, LightDialog)
    ids = [light.id for light in dialog.lights]
    dialog.options.highlighted = ids.index("lantern1")
    await driver.press("f", answers=(("1",),))


async def leave(driver: Driver) -> None:
    # The kind of journey, the length of travel, the rooms from the exit.
    await driver.press("a", "l", answers=(("a",), ("1", "enter"), ("2", "enter")))


async def test_a_trespasser_session_with_hide_and_sparks() -> None:
    async def hide(driver: Driver) -> None:
        await driver.press("a", "h", answers=(("s",), ("backspace", "2", "enter")))

    special: dict[int, Callable[[Driver], object]] = {
        2: hide,
        5: lambda d: d.press("a", "s"),  # stay
        9: hide,
        11: lambda d: d.press("a", "a"),  # advance again
    }
    played = await play("trespasser", special)
    hides = [command for command in played.commands if command.startswith("turn hide")]
    assert len(hides) >= 2
    assert all("stealth=success" in command and "sparks=2" in command for command in hides)
    assert "Hidden: the alarm falls" in played.log


async def test_a_travel_session_with_time_dice() -> None:
    async def roll_the_hour(driver: Driver) -> None:
        await driver.press("c", answers=(("r", "o", "l", "l", "space", "2", "enter"),))

    special: dict[int, Callable[[Driver], object]] = {
        0: roll_the_hour,
        6: lambda d: d.press("r"),
        10: lambda d: d.press("a", "c", "a", "r"),  # careless
    }
    # Overland by day, in daylight (the text's "typical natural light outdoors"): the
    # torches of the dungeon sessions would burn out in every four-hour turn.
    played = await play("travel-turn", special, setup=("light add daylight lit",))
    made = played.commands
    assert "time roll 2" in made
    assert any(command.startswith("turn careless") for command in made)
    assert any(command.startswith("turn rest") for command in made)
    assert f"Travel turn {TURNS}" in played.log
    assert played.state.time_dice
    assert sum(played.state.time_dice) == played.state.hour
