"""Real-time light on the table, driven with Pilot and an injected clock (no sleeps).

The table's real-time clock reads the time from the function the app is given; these
tests move that time by hand and let the clock look (what its one-second timer does).
"""

from __future__ import annotations

import attrs

from delvetui.core.players import view
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.help_screen import HelpScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.turn_log import TurnLog
from tests.ui_support import expedition, make, ready, screen_text, settled

SIZE = (120, 40)
#: A lit torch, in a session: real time at the table runs while a session does.
TORCH = ("pc add Ash hp=6", "light add torch carrier=Ash lit", "session start")


class Clock:
    """A clock the test moves by hand, in seconds."""

    def __init__(self) -> None:
        self.time = 5000.0

    def __call__(self) -> float:
        return self.time


def log_texts(app: DelveApp) -> list[str]:
    table = app.table
    assert table is not None
    return [line.text for line in table.query_one(TurnLog).lines]


def lights_text(app: DelveApp) -> str:
    table = app.table
    assert table is not None
    return str(table.query_one(LightInventory).render_line(0).text)


def left(app: DelveApp) -> int | None:
    light = expedition(app).state.light("torch1")
    assert light is not None
    return light.real_seconds


async def test_the_countdown_runs_and_the_light_goes_out_with_a_line() -> None:
    clock = Clock()
    app = DelveApp(make(commands=(*TORCH, "light realtime torch1 2m"), procedure="exploration"))
    app.now = clock
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert "⏱ 02:00" in lights_text(app)
        assert "Pause" in screen_text(app)  # the pause key is in the footer
        events = expedition(app).event_count
        clock.time += 30
        app.tick_realtime()
        await settled(pilot, lambda: "⏱ 01:30" in lights_text(app))
        assert expedition(app).event_count == events  # no event within a step
        assert left(app) == 120
        clock.time += 31
        app.tick_realtime()
        await settled(pilot, lambda: left(app) == 60)  # a minute crossed: one record
        assert "⏱ 00:59" in lights_text(app)
        clock.time += 59
        app.tick_realtime()
        await settled(pilot, lambda: "torch1 burns out." in log_texts(app))
        light = expedition(app).state.light("torch1")
        assert light is not None and not light.lit and light.spent
        assert expedition(app).state.light_level == "dark"


async def test_the_pause_key_and_closing_keep_the_time_left_exactly() -> None:
    clock = Clock()
    path = make(commands=(*TORCH, "light realtime torch1 60m"), procedure="exploration")
    app = DelveApp(path)
    app.now = clock
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        clock.time += 75
        app.tick_realtime()
        await settled(pilot, lambda: left(app) == 3540)
        await settled(pilot, lambda: "⏱ 58:45" in lights_text(app))
        await pilot.press("b")
        await settled(pilot, lambda: expedition(app).state.realtime_paused)
        await settled(pilot, lambda: "Resume" in screen_text(app))  # the footer turns
        assert left(app) == 3600 - 75
        assert "The real-time clock is paused: torch1 58:45 left." in log_texts(app)
        clock.time += 600  # a long break: nothing burns
        app.tick_realtime()
        await settled(pilot, lambda: "⏸ 58:45" in lights_text(app))
        assert left(app) == 3600 - 75
        await pilot.press("b")
        await settled(pilot, lambda: not expedition(app).state.realtime_paused)
        clock.time += 20
        app.tick_realtime()
        await settled(pilot, lambda: "⏱ 58:25" in lights_text(app))
        assert left(app) == 3600 - 75  # recorded at the next step, not before


async def test_closing_pauses_and_reopening_shows_the_same_time_left() -> None:
    clock = Clock()
    path = make(commands=(*TORCH, "light realtime torch1 60m"), procedure="exploration")
    app = DelveApp(path)
    app.now = clock
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        clock.time += 95
        app.tick_realtime()
        await settled(pilot, lambda: "⏱ 58:25" in lights_text(app))
    app.close_expedition()
    with Expedition.open(path) as saved:
        light = saved.state.light("torch1")
        assert light is not None and light.real_seconds == 3600 - 95
        assert saved.state.realtime_paused
        lines = [b.command for b in saved.batches()][-2:]
        assert lines == ["realtime pass 60s", "realtime pause 35s the table closed"]
    again = DelveApp(path)
    later = Clock()
    again.now = later
    async with again.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert "⏸ 58:25" in lights_text(again)
        later.time += 300
        again.tick_realtime()
        await pilot.pause()
        assert "⏸ 58:25" in lights_text(again)
        assert left(again) == 3600 - 95
        events = expedition(again).event_count
    again.close_expedition()  # already paused: closing writes nothing more
    with Expedition.open(path) as saved:
        assert saved.event_count == events


async def test_the_lights_dialog_sets_a_light_burning_in_real_time() -> None:
    clock = Clock()
    app = DelveApp(make(commands=TORCH, procedure="exploration"))
    app.now = clock
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert "Pause" not in screen_text(app)  # no real-time light: no pause key
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        await pilot.press("r")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press("ctrl+a", "ctrl+k", *"30m", "enter")
        await settled(pilot, lambda: left(app) == 1800)
        assert "torch1 burns in real time: 30:00 left (set by the game master)." in log_texts(app)
        await settled(pilot, lambda: "Pause" in screen_text(app))
        await pilot.press("question_mark")
        await settled(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "Pause every light that burns in real time" in screen_text(app)
        for _ in range(5):  # the help scrolls when it lists more keys than fit
            if "Let the paused real-time lights burn again" in screen_text(app):
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert "Let the paused real-time lights burn again" in screen_text(app)


async def test_the_command_line_pauses_where_the_countdown_is() -> None:
    clock = Clock()
    app = DelveApp(make(commands=(*TORCH, "light realtime torch1 60m"), procedure="exploration"))
    app.now = clock
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        clock.time += 42
        await pilot.press("colon", *"realtime pause", "enter")
        await settled(pilot, lambda: expedition(app).state.realtime_paused)
        assert left(app) == 3600 - 42


def test_the_players_see_real_time_in_words() -> None:
    path = make(commands=(*TORCH, "light realtime torch1 60m"), procedure="exploration")
    with Expedition.open(path) as x:
        assert view(x.state, x.procedure).light == ("Ash's torch burns bright.",)
        knowing = attrs.evolve(
            x.procedure, players=attrs.evolve(x.procedure.players, light_turns=True)
        )
        told = view(x.state, knowing).light
        assert told == ("Ash's torch burns bright (60 minutes of real time left).",)
        x.execute("realtime pass 56m")
        x.execute("realtime pause")
        assert view(x.state, knowing).light == (
            "Ash's torch gutters (4 minutes of real time left, the clock paused).",
        )
