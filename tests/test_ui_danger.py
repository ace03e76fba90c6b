"""Danger in plain sight: the alert strip, darkness, asking before trouble, check colours,
notices that go with their turn."""

from __future__ import annotations

import json
import re

import pytest
from textual.color import Color

from delvetui import paths
from delvetui.application.files import PREFS_NAME
from delvetui.procedure.registry import find
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.odds_dialog import OddsDialog
from delvetui.ui.panes.alert_strip import AlertStrip
from delvetui.ui.panes.counters import Counters
from delvetui.ui.panes.status_bar import StatusBar
from delvetui.ui.panes.time_dice import TimeDice
from delvetui.ui.panes.turn_log import TurnLog, style_name
from tests.ui_support import PARTY, expedition, make, notices, ready, screen_text, settled

SIZE = (120, 40)
DARK = (*PARTY, "light off torch2")


def strip_text(app: DelveApp) -> str:
    table = app.table
    assert table is not None
    return " | ".join(alert.text for alert in table.query_one(AlertStrip).current())


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_darkness_is_the_loudest_thing_on_screen(theme: str) -> None:
    app = DelveApp(make("dark", DARK))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        app.theme = theme
        await pilot.pause()
        assert expedition(app).state.light_level == "dark"
        strip = table.query_one(AlertStrip)
        assert strip.has_class("-dark")
        error = Color.parse(app.theme_variables["error"])
        assert strip.styles.background.rgb == error.rgb
        assert "DARKNESS" in screen_text(app)
        # The header's badge too: the error colour, not a faint grey.
        badge = table.query_one(StatusBar).get_component_rich_style("status-bar--dark")
        assert badge.bgcolor is not None
        assert badge.bgcolor.triplet is not None
        assert badge.bgcolor.triplet.hex.lower() == error.hex.lower()[:7]


async def test_the_strip_shows_what_needs_attention() -> None:
    played = (
        *PARTY,
        "turn crawl hazard=2",  # fatigue pending
        "light set torch2 turns=1",
        "pc Cora hp=0",
    )
    app = DelveApp(make("alerts", played))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        shown = strip_text(app)
        assert "Pending: fatigue" in shown
        assert "torch2: last turn of light" in shown
        assert "Cora at 0 HP" in shown
        assert not table.query_one(AlertStrip).has_class("-dark")
        table.run("turn crawl hazard=5 sign=ghouls")  # a sign of ghouls
        await settled(pilot, lambda: "Sign:" in strip_text(app))
        # Undoing the turn takes its alert away.
        table.run("undo")
        await settled(pilot, lambda: "Sign:" not in strip_text(app))


async def test_a_light_on_its_last_usage_die_is_an_alert() -> None:
    """Trespasser's lights burn down by usage dice: a candle starts on a d4, the last step
    before it goes out, and says so; the torch on its d6 does not."""
    app = DelveApp(make("usage", (*PARTY, "light on candle1"), procedure="trespasser"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        # One candle of the three is lit (it gets an id of its own).
        lit = [light.id for light in expedition(app).state.lit_lights if light.kind == "candle"]
        assert len(lit) == 1
        shown = strip_text(app)
        assert f"{lit[0]}: last usage die (d4)" in shown
        assert "torch2" not in shown
        assert f"{lit[0]}: last usage die (d4)" in screen_text(app)


@pytest.mark.long
async def test_cairns_darkness_fits_the_strip_at_80_columns() -> None:
    """At 80×24 the strip says Cairn's darkness in its flags and what it forbids (the whole
    text would be cut off mid-word); wide, it says the whole text."""
    app = DelveApp(make("cairn-dark", ("pc add Ash hp=6",), procedure="cairn"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        strip = table.query_one(AlertStrip)
        assert strip.shown().strip() == "DARKNESS, no light: WIL save or panic; no rest"
        assert "…" not in strip.shown() and len(strip.shown()) <= strip.size.width
        assert "DARKNESS, no light: WIL save or panic; no rest" in screen_text(app)
    wide = DelveApp(make("cairn-dark", ("pc add Ash hp=6",), procedure="cairn"))
    async with wide.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        assert "may panic (WIL save)" in table.query_one(AlertStrip).shown()


async def test_a_darkness_too_long_for_the_strip_ends_in_an_ellipsis() -> None:
    """Dungeon Exploration's darkness (docs/rules/exploration.md, Light › No light) has more
    flags than 80 or 120 columns hold even in few words: the strip is cut with "…", so the
    game master sees it goes on, never a phrase cut off mid-way ("spot danger; no")."""
    for size in ((80, 24), (120, 40)):
        app = DelveApp(make("vault-dark", ("pc add Ash hp=6",), procedure="exploration"))
        async with app.run_test(size=size) as pilot:
            await ready(pilot)
            line = screen_text(app).splitlines()[1].rstrip()
            assert line.startswith(" DARKNESS, no light: effectively blind"), line
            assert line.endswith("…"), line


async def test_rest_due_in_exploration() -> None:
    played = (*PARTY, *(f"turn cautious hazard={n}" for n in (6, 6, 6, 6, 6, 6)))
    app = DelveApp(make("rest-due", played, procedure="exploration"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert "Rest due" in strip_text(app)


async def test_a_turn_into_darkness_asks_once() -> None:
    app = DelveApp(make("dark", DARK))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "total darkness" in screen_text(app)
        await pilot.press("escape")
        await settled(pilot, lambda: app.screen is table)
        assert expedition(app).state.turn == 0
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("y")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        # Asked once: the next turn in the same darkness goes at once.
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 2)
        assert app.screen is table


async def test_asking_before_trouble_can_be_switched_off() -> None:
    app = DelveApp(make("down", (*PARTY, "pc Ash hp=0")))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "Ash is at 0 HP" in screen_text(app)
        await pilot.press("3")  # yes, and never ask again
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        assert not table.confirm_trouble
    app.close_expedition()
    saved = json.loads((paths.data_dir() / PREFS_NAME).read_text(encoding="utf-8"))
    assert saved["confirm_trouble"] is False
    again = DelveApp(make("dark", DARK))
    async with again.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("n")
        await settled(pilot, lambda: expedition(again).state.turn == 1)
    again.close_expedition()


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_a_failed_check_is_drawn_as_failure(theme: str) -> None:
    played = (*PARTY, "turn listen by=Ash listen=1", "turn listen by=Bryn listen=20")
    app = DelveApp(make("checks", played, procedure="exploration"))
    async with app.run_test(size=SIZE) as pilot:
        table = await ready(pilot)
        app.theme = theme
        await pilot.pause()
        log = table.query_one(TurnLog)
        failed = [line for line in log.lines if line.kind == "check" and "Ash" in line.text]
        passed = [line for line in log.lines if line.kind == "check" and "Bryn" in line.text]
        assert failed and passed
        assert style_name(failed[0]) == "turn-log--failure"
        assert style_name(passed[0]) == "turn-log--check"
        failure = log.get_component_rich_style("turn-log--failure").color
        success = log.get_component_rich_style("turn-log--check").color
        assert failure is not None and failure != success
        error = Color.parse(app.theme_variables["text-error"])
        assert failure.triplet is not None
        assert failure.triplet.hex.lower() == error.hex.lower()[:7]


async def test_a_notice_keeps_off_the_log_and_the_dialogs_and_goes_with_its_turn() -> None:
    """An encounter is the strip's and the log's, not a notice's. A notice (here: a key
    the procedure has no use for) sits over the right-hand column, never over the log; a
    dialog opens above it (the notice waits under the dialog); the next turn takes it."""
    app = DelveApp(make())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        table = await ready(pilot)
        table.run("turn crawl hazard=1")  # an encounter
        await settled(pilot, lambda: "Encounter" in screen_text(app).splitlines()[1])
        assert not notices(app)
        assert any(line.kind == "encounter" for line in table.log_lines.full)
        await pilot.press("A")  # delving has no characters' activities: a notice says so
        await settled(pilot, lambda: any("no characters' activities" in n for n in notices(app)))
        await settled(pilot, lambda: any(toast.region.width for toast in app.screen.query("Toast")))
        log = table.query_one(TurnLog)
        for toast in app.screen.query("Toast"):
            assert toast.region.x >= log.region.right
        await pilot.press("l")
        await settled(pilot, lambda: app.screen is not table)
        assert "activities in a turn" not in screen_text(app)  # the dialog is whole
        await pilot.press("escape")
        await settled(pilot, lambda: "activities in a turn" in screen_text(app))
        await pilot.press("n")
        await settled(pilot, lambda: expedition(app).state.turn == 2 and not notices(app))
        assert "activities in a turn" not in screen_text(app)


async def test_a_fixed_roll_takes_the_encounter_from_the_strip() -> None:
    app = DelveApp(make())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        table = await ready(pilot)
        table.run("turn crawl hazard=1")
        await settled(pilot, lambda: "Encounter" in screen_text(app).splitlines()[1])
        await pilot.press("f")
        await settled(pilot, lambda: app.screen is not table)
        # The fix-roll picker is whole: nothing lies over the rolls being fixed.
        assert not app.screen.query("Toast") or not any(
            toast.region.width for toast in app.screen.query("Toast")
        )
        await pilot.press("6", "enter")

        def fixed() -> bool:
            last = expedition(app).state.last_hazard
            return last is not None and last.roll == 6

        await settled(pilot, fixed)
        await settled(pilot, lambda: "Encounter" not in screen_text(app).splitlines()[1])


def _four(procedure: str) -> tuple[str, ...]:
    """Four characters and four lights, one of each kind the procedure has."""
    kinds = list(find(procedure).lights)
    abilities = find(procedure).party.abilities
    ability = "CON" if "CON" in abilities or not abilities else abilities[0]
    names = ("Ash", "Bryn", "Cora", "Dag")
    return (
        *(f"pc add {name} hp=6 {ability}={2 + index}" for index, name in enumerate(names)),
        *(
            f"light add {kinds[index % len(kinds)]} carrier={name}" + (" lit" if not index else "")
            for index, name in enumerate(names)
        ),
    )


async def test_the_alarm_at_its_danger_reaches_the_strip_at_80x24() -> None:
    """Trespasser marks the alarm dangerous from 8 (danger_at): at 10 of 10 with a party of
    four and four lights, the strip says so on screen, and the counters pane (on screen
    too) gives the chance of an encounter on the next Advance: certain."""
    played = (*_four("trespasser"), "counter set alarm 10")
    app = DelveApp(make("alarm", played, procedure="trespasser"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        assert "Alarm 10/10" in strip_text(app)
        strip_line = screen_text(app).splitlines()[1]
        assert "Alarm 10/10" in strip_line
        assert "Advance: encounter 100%" in screen_text(app)
        assert table.query_one(Counters).region.height >= 2
        table.run("counter set alarm 7")
        await settled(pilot, lambda: "Alarm" not in strip_text(app))
        assert "Advance: encounter 80%" in screen_text(app)


@pytest.mark.parametrize("alarm", [0, 1, 5])
async def test_the_counters_pane_and_o_give_one_figure(alarm: int) -> None:
    """One figure for the chance of an encounter on the next turn with the action taken:
    Advance raises the alarm before its d10, so at alarm N the pane and o both say
    (N+1)×10%, where the pane once gave N×10%, the chance at the alarm as it stands."""
    played = (*_four("trespasser"), *([f"counter set alarm {alarm}"] if alarm else []))
    app = DelveApp(make(f"one-{alarm}", played, procedure="trespasser"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        figure = f"{(alarm + 1) * 10}%"
        assert f"Advance: encounter {figure}" in screen_text(app)
        await pilot.press("o")
        await settled(pilot, lambda: isinstance(app.screen, OddsDialog))
        dialog = app.screen
        assert isinstance(dialog, OddsDialog)
        await settled(pilot, lambda: dialog.odds is not None)
        await pilot.pause(0)
        assert re.search(rf"encounter this dungeon round .*\b{figure}", screen_text(app))


async def test_exhaustion_and_hours_past_resilience_reach_the_strip_first() -> None:
    """Travel Turns marks exhausted members and hours past resilience as dangers: with a
    party of four at 80×24 the strip names them before the light in its last turn, and
    the header says the time."""
    played = (
        *_four("travel-turn"),
        "turn cautious hazard=10",
        "turn cautious hazard=10",
        "turn cautious hazard=10 resilience=20",
        "turn cautious hazard=10 resilience=20",
        "pc Cora +exhausted",
        "light on lantern1",
        "light set lantern1 turns=1",
    )
    app = DelveApp(make("weary", played, procedure="travel-turn"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        alerts = table.query_one(AlertStrip).current()
        texts = [alert.text for alert in alerts]
        exhausted = next(text for text in texts if text.endswith(" exhausted"))
        assert "Cora" in exhausted
        over = next(text for text in texts if "over the limit" in text)
        assert over == "Hours without food or rest over the limit: Ash 4/2, Bryn 4/3"
        last = texts.index("lantern1: last turn of light")
        assert texts.index(exhausted) < last
        assert texts.index(over) < last
        assert exhausted in screen_text(app).splitlines()[1]
        # The time pane gives way to the header at 80×24: it says the clock, and more.
        assert not table.query_one(TimeDice).display
        assert "day 1 12:00 ⚅⚅ afternoon" in screen_text(app).splitlines()[0]
