"""The players' screen: what players see, what the game master reveals, and following live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.widgets import OptionList

from delvetui.core.players import view
from delvetui.errors import CommandError
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.choose import ChooseScreen
from delvetui.ui.players_app import WATCH_EVERY, PlayersApp
from tests.cli_support import delvetui
from tests.conftest import Factory, run
from tests.ui_support import expedition as open_expedition
from tests.ui_support import followed, make, ready, settle, settled


def seen(made: Expedition) -> list[str]:
    return view(made.state, made.procedure).lines()


def test_the_light_in_words_never_the_turns_unless_the_procedure_says(
    expedition: Factory,
) -> None:
    made = expedition("delving")
    run(made, "pc add Ash hp=6", "light add torch carrier=Ash lit", "light add candle")
    assert seen(made)[1:3] == ["Bright light", "Ash's torch burns bright."]
    made.execute("turn hazard=3")  # a 3 burns torches out
    assert seen(made)[1:3] == ["Darkness", "No light burns."]
    made.execute("light on candle")
    assert seen(made)[1:3] == ["Dim light", "The candle gives a dim light."]
    assert not any("turn" in line for line in seen(made))
    assert "Day 1, 08:10 (morning)" in seen(made)
    # Never a roll, a table result or a note.
    made.execute("note The ghoul waits behind the third door.")
    assert not any("ghoul" in line or "Burn" in line or "d6" in line for line in seen(made))

    travel = expedition("exploration-traditional", name="other")
    run(travel, "light add torch lit", *["turn hazard=6"] * 5)
    assert seen(travel)[2] == "The torch gutters (1 turn left)."


def test_the_sign_the_encounter_and_hp_show_once_revealed(expedition: Factory) -> None:
    made = expedition("trespasser")
    run(made, "pc add Ash hp=6", "light add torch lit")
    assert not any("hit points" in line for line in seen(made))
    made.execute("reveal hp")
    assert "Ash: 6 of 6 hit points" in seen(made)
    made.execute("hide hp")
    assert not any("hit points" in line for line in seen(made))
    made.execute("turn advance hazard=1 usage.torch1=6")  # d10 ≤ alarm: an encounter
    assert made.state.encounter
    assert not any(line.startswith("Encounter") for line in seen(made))
    made.execute("reveal encounter")
    assert any(line.startswith("Encounter: ") for line in seen(made))
    made.execute("undo")
    assert not any(line.startswith("Encounter") for line in seen(made))

    delving = expedition("delving", name="crypt")
    run(delving, "light add torch lit", "turn hazard=5 'sign=claw marks'")
    assert "A sign: claw marks" not in seen(delving)
    delving.execute("reveal sign")
    assert "A sign: claw marks" in seen(delving)


def test_bad_reveals_say_what_would_be_right(expedition: Factory) -> None:
    made = expedition("delving")
    before = made.event_count
    with pytest.raises(CommandError, match="reveal sign, reveal encounter or reveal hp"):
        made.execute("reveal treasure")
    made.execute("reveal sign")
    with pytest.raises(CommandError, match="already shown"):
        made.execute("reveal sign")
    with pytest.raises(CommandError, match="not shown"):
        made.execute("hide encounter")
    assert made.event_count == before + 1


async def test_shift_p_on_the_table_reveals_the_sign() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("P")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        options = app.screen.query_one(OptionList)
        assert options.option_count == 2  # the sign and the encounter; Delving shows HP
        await pilot.press("enter")
        await settled(pilot, lambda: open_expedition(app).state.shown == ("sign",))
        await pilot.press("P")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: open_expedition(app).state.shown == ())


async def test_the_players_screen_follows_the_table_and_its_reopening(home: Path) -> None:
    path = make("crypt")
    players = PlayersApp(path)
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        assert players.shown is not None and players.shown.level == "Bright light"
        # The game master's table: the writer, opened while the players' screen watches.
        with Expedition.open(path) as table:
            table.execute("turn hazard=3")
            await followed(
                pilot,
                lambda: players.shown is not None and players.shown.level == "Darkness",
                WATCH_EVERY,
            )
        # The table closes and opens again; the players' screen goes on following it.
        with Expedition.open(path) as table:
            table.execute("light on torch")
            await followed(
                pilot,
                lambda: players.shown is not None and players.shown.level == "Bright light",
                WATCH_EVERY,
            )


async def test_a_players_screen_and_an_act_writer_lose_nothing(home: Path) -> None:
    path = make("crypt")
    commands = [f"turn hazard={n % 5 + 2}" for n in range(30)]  # never a 1: no encounter
    players = PlayersApp(path)
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        writer = delvetui(None, "act", str(path), "-", stdin="\n".join(commands) + "\n")
        assert writer.returncode == 0, writer.stderr
        assert len(writer.stdout.splitlines()) == len(commands)
        with Expedition.open(path, write=False) as done:
            assert done.state.turn == 30
            clock = done.state.clock_text
        await followed(
            pilot,
            lambda: players.shown is not None and clock in (players.shown.clock or ""),
            WATCH_EVERY,
        )
        assert players.reads >= 2


async def test_the_players_screen_offers_only_quitting(home: Path) -> None:
    """Rule: the players' screen offers only what players may do. No command palette (its
    Screenshot wrote a file to ~/Downloads, its Theme changed the screen), no key bound to
    anything but quitting (and copying the text a player selected)."""
    players = PlayersApp(make("crypt"))
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert not any(isinstance(screen, CommandPalette) for screen in players.screen_stack)
        assert len(players.screen_stack) == 1
        actions = {active.binding.action for active in players.screen.active_bindings.values()}
        allowed = {"quit", "help_quit", "app.focus_next", "app.focus_previous", "screen.copy_text"}
        assert actions <= allowed, actions
        assert "quit" in actions


async def test_a_served_players_screen_ends_once_its_server_is_gone(home: Path) -> None:
    """Rule: a players' screen started by `delvetui serve` ends with the server, however the
    server ended: killed outright, the server's screens are left to the system, and a screen
    whose parent is no longer its server quits by itself."""
    path = make("crypt")
    kept = PlayersApp(path, server=os.getppid())
    async with kept.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: kept.shown is not None)
        await pilot.pause(WATCH_EVERY * 3)
        assert kept.is_running and kept.return_code is None
    # Any process but the parent stands for a server that is gone.
    orphaned = PlayersApp(path, server=os.getpid())
    async with orphaned.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause(WATCH_EVERY)
            if orphaned.return_code is not None:
                break
        assert orphaned.return_code == 0
