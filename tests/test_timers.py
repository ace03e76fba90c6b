"""Timers: what else runs out besides the lights (docs/commands.md, docs/procedures.md §3.22a).

The game master starts a named timer for turns, in-world minutes or hours; it counts down
with the turns (a turn timer by one a turn, the others by each turn's minutes), warns a
turn before it runs out (the log and the attention strip) and ends by itself (the log and
the strip). Timers are events: undone and redone like everything else, replayed to the
same state, checked on import, and in ``status --json`` only where there are timers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from delvetui.application.realtime import RealTimeClock
from delvetui.core import events as ev
from delvetui.core import snapshot
from delvetui.core.alerts import alerts
from delvetui.core.event_checks import problem
from delvetui.core.log import lines
from delvetui.core.state import State, Timer
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export, import_file
from delvetui.export.json_format import ImportRefused
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.panes.alert_strip import AlertStrip
from tests.cli_support import delvetui
from tests.conftest import Factory
from tests.test_docs_procedures import COMPLETE
from tests.ui_support import expedition as opened
from tests.ui_support import make, ready, screen_text, settled

SPELLS = next(text for _, text in COMPLETE if 'id = "spells-and-potions"' in text)


def _log(expedition: Expedition) -> list[str]:
    return [line.text for line in lines(list(expedition.batches()), expedition.procedure)]


def _left(expedition: Expedition, name: str) -> int | None:
    timer = expedition.state.timer(name)
    return None if timer is None else timer.left


def test_a_turn_timer_counts_turns_and_a_minute_timer_each_turns_minutes(
    expedition: Factory,
) -> None:
    """A timer in turns loses one a turn whatever the turn's length; one in minutes or
    hours loses the turn's minutes (Shadowdark: 6-minute crawling rounds, hours of travel)."""
    x = expedition("shadowdark", seed=4)
    x.execute("pc add Ash hp=6")
    x.execute("timer add bless 3t")
    x.execute("timer add fuse 90m")
    x.execute("timer add potion 3h")
    x.execute("turn crawl")
    assert (_left(x, "bless"), _left(x, "fuse"), _left(x, "potion")) == (2, 84, 174)
    x.execute("enter travel")
    x.execute("turn travel")
    # An hour of travel takes an hour off the minute timers, and one turn off bless.
    assert (_left(x, "bless"), _left(x, "fuse"), _left(x, "potion")) == (1, 24, 114)
    log = _log(x)
    assert "Timer bless runs out next turn (1 hour of travel left)." in log
    assert "Timer fuse runs out next turn (24 minutes left)." in log
    assert not any("Timer potion runs out" in line for line in log)
    x.execute("turn travel")
    assert [t.name for t in x.state.timers] == ["potion"]
    assert x.state.ran_out == ("bless", "fuse")
    assert _log(x)[-3:] == [
        "Timer bless has run out.",
        "Timer fuse has run out.",
        "Timer potion runs out next turn (54 minutes left).",
    ]


def test_the_warning_comes_one_turn_before_the_end_and_the_end_is_told(
    expedition: Factory,
) -> None:
    """Warned a turn before it ends, once; told when it does; the strip says both."""
    x = expedition("delving")
    x.execute("timer add bless 3t")
    x.execute("timer add fuse 25m")
    assert [line for line in _log(x) if "Timer" in line] == [
        "Timer bless started: 3 turns.",
        "Timer fuse started: 25 minutes.",
    ]
    x.execute("turn")  # bless 2, fuse 15
    assert not any("runs out next turn" in line for line in _log(x))
    x.execute("turn")  # bless 1, fuse 5: both run out in the next turn
    warned = [line for line in _log(x) if "Timer" in line and "next turn" in line]
    assert warned == [
        "Timer bless runs out next turn (1 turn left).",
        "Timer fuse runs out next turn (5 minutes left).",
    ]
    strip = [alert.text for alert in alerts(x.state, x.procedure)]
    assert "Timer bless: runs out next turn" in strip
    x.execute("turn")
    assert x.state.timers == ()
    assert _log(x)[-2:] == ["Timer bless has run out.", "Timer fuse has run out."]
    strip = [alert.text for alert in alerts(x.state, x.procedure)]
    assert "Timer bless has run out" in strip and "Timer fuse has run out" in strip
    x.execute("turn")  # the next turn begins: the strip lets it go
    assert not any("Timer" in a.text for a in alerts(x.state, x.procedure))


def test_set_changes_a_timer_and_cancel_stops_it(expedition: Factory) -> None:
    x = expedition("delving")
    x.execute("timer add 'hold portal' 2h")
    x.execute("turn")
    assert _left(x, "hold portal") == 110
    x.execute("timer set 'HOLD PORTAL' 3t")  # names are matched ignoring case
    timer = x.state.timer("hold portal")
    assert timer == Timer(name="hold portal", unit="turns", left=3)
    x.execute("timer cancel 'hold portal'")
    assert x.state.timers == ()
    assert _log(x)[-2:] == ["Timer hold portal set to 3 turns.", "Timer hold portal cancelled."]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("timer add bless 6t", "A timer called bless is running already"),
        ("timer set shield 3t", "There is no timer called 'shield' (running: bless)"),
        ("timer cancel shield", "There is no timer called 'shield'"),
        ("timer add fuse", "Say how long the timer fuse runs"),
        ("timer add fuse 30x", "'30x' is not a timer's length"),
        ("timer add ritual 2000rm", "A timer runs from 1 to 1440 real minutes"),
        ("timer add fuse 0t", "A timer runs from 1 to 999999 turns"),
        ("timer add fuse 9999999m", "A timer runs from 1 to 999999 minutes"),
        ("timer set bless", "Say how long: timer set bless 3t"),
        ("timer add a=b 3t", "looks like KEY=VALUE"),
        ("timer frob bless", "Say timer add NAME 6t"),
    ],
)
def test_a_bad_timer_command_says_why_and_writes_nothing(
    expedition: Factory, line: str, said: str
) -> None:
    x = expedition("delving")
    x.execute("timer add bless 6t")
    before = x.event_count
    with pytest.raises(CommandError, match=said.replace("(", r"\(").replace(")", r"\)")):
        x.execute(line)
    assert x.event_count == before


def test_undo_and_redo_take_timers_back_and_a_replay_gives_the_same_state(
    expedition: Factory, home: Path
) -> None:
    """Undoable like everything else; replay (and a snapshot) equals the live state."""
    x = expedition("delving", name="undo")
    x.execute("timer add bless 2t")
    x.execute("turn")
    x.execute("timer cancel bless")
    x.execute("undo")
    assert _left(x, "bless") == 1
    x.execute("turn")
    assert x.state.timers == () and x.state.ran_out == ("bless",)
    x.execute("undo")
    assert _left(x, "bless") == 1
    assert not x.state.ran_out
    x.execute("redo")
    assert x.state.timers == ()
    x.execute("timer add fuse 1h")
    live = x.state
    data = json.loads(json.dumps(snapshot.state_to_data(live)))
    assert snapshot.state_from_data(data) == live
    x.close()
    with Expedition.open(home / "undo.delve", snapshot=False) as again:
        assert again.state == live


def test_a_declared_timer_starts_at_its_usual_length_with_its_label(home: Path) -> None:
    """``[timers.ID]``: ``timer add ID`` takes its usual length; a length typed wins."""
    with Expedition.create(home / "spells.delve", load_text(SPELLS), seed=1) as x:
        x.execute("timer add light")
        x.execute("timer add potion 2h")
        assert x.state.timer("light") == Timer("light", "turns", 6, label="Light spell")
        assert x.state.timer("potion") == Timer("potion", "hours", 120, label="Potion of heroism")
        assert "Timer light (Light spell) started: 6 turns." in _log(x)
        with pytest.raises(CommandError, match="declares light, potion"):
            x.execute("timer add shield")


def test_the_loader_names_each_bad_timer_with_its_key_and_line() -> None:
    text = SPELLS.replace("turns = 6", "turns = 6\nminutes = 10")
    text += '\n[timers.Bad]\nlabel = "x"\nturns = 2\n'
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    said = str(refused.value)
    assert "timers.light" in said and "give one of turns, minutes or hours" in said
    assert "timers.Bad" in said and "lower-case" in said
    assert all(problem.line for problem in refused.value.problems)
    # A length out of its range is refused as the file is read, before the checks above.
    with pytest.raises(ProcedureError) as refused:
        load_text(SPELLS.replace("hours = 1", "hours = 0"))
    (problem,) = refused.value.problems
    assert problem.path == "timers.potion.hours" and problem.line
    assert problem.message == "is 0; it should be 1 to 999,999 hours."


def test_an_event_no_timer_command_could_write_is_named() -> None:
    procedure = find("delving")
    running = State(timers=(Timer("bless", "turns", 2),))
    assert problem(running, procedure, ev.TimerStarted("bless", "turns", 3)) is not None
    assert "unit 'weeks'" in (problem(State(), procedure, ev.TimerStarted("x", "weeks", 3)) or "")
    assert "left is 0" in (problem(State(), procedure, ev.TimerStarted("x", "turns", 0)) or "")
    assert "has 2 left" in (problem(running, procedure, ev.TimerEnded("bless")) or "")
    assert "no timer 'fuse'" in (problem(running, procedure, ev.TimerCancelled("fuse")) or "")
    assert "twice" in (problem(running, procedure, ev.TimersCounted(("bless", "bless"), 10)) or "")
    assert problem(running, procedure, ev.TimersCounted(("bless",), 10)) is None
    too_long = ev.TimerStarted("x" * 41, "turns", 3)
    assert "longer than 40" in (problem(State(), procedure, too_long) or "")


def test_an_import_with_a_timer_that_never_ran_out_is_refused(
    expedition: Factory, home: Path
) -> None:
    x = expedition("delving", name="crypt")
    x.execute("timer add bless 1t")
    x.execute("turn")
    data: dict[str, Any] = json.loads(export(x, "json"))
    x.close()
    (home / "crypt.delve").unlink()
    started = next(
        event
        for batch in data["batches"]
        for event in batch["events"]
        if event["type"] == "TimerStarted"
    )
    started["payload"]["left"] = 5  # it would still have 4 turns left when it "ran out"
    document = home / "crypt.json"
    document.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ImportRefused, match="has 4 left"):
        import_file(document, "copy")
    assert sorted(p.name for p in home.iterdir()) == ["crypt.json"]
    started["payload"]["left"] = 1  # as exported: it comes back whole
    document.write_text(json.dumps(data), encoding="utf-8")
    import_file(document, "copy")
    with Expedition.open(home / "copy.delve") as copy:
        assert copy.state.ran_out == ("bless",)
        assert "Timer bless has run out." in _log(copy)


@pytest.mark.long
def test_act_counts_timers_down_and_status_json_has_them_only_where_they_run(
    home: Path,
) -> None:
    assert delvetui(home, "new", "crypt", "--procedure", "delving", "--seed", "2").returncode == 0
    assert delvetui(home, "new", "plain", "--procedure", "delving", "--seed", "2").returncode == 0
    played = delvetui(
        home, "act", "crypt", "-", stdin="timer add bless 6t\ntimer add fuse 30m\nturn\nturn\n"
    )
    assert played.returncode == 0, played.stderr
    assert "timer add bless 6t" in played.stdout
    status = json.loads(delvetui(home, "status", "crypt", "--json").stdout)
    assert status["timers"] == [
        {"name": "bless", "label": "", "unit": "turns", "left": 4},
        {"name": "fuse", "label": "", "unit": "minutes", "left": 10},
    ]
    assert "timers" not in json.loads(delvetui(home, "status", "plain", "--json").stdout)
    text = delvetui(home, "status", "crypt").stdout
    assert "timer fuse: 10 minutes left, runs out next turn" in text
    bad = delvetui(home, "act", "crypt", "timer", "add", "bless", "2t")
    assert bad.returncode == 2 and "running already" in bad.stderr
    story = delvetui(home, "export", "crypt", "--format", "txt").stdout
    assert "Timer fuse runs out next turn (10 minutes left)." in story


@pytest.mark.long
async def test_the_timers_key_starts_a_timer_the_pane_shows_it_and_the_strip_warns() -> None:
    party = ("pc add Ash hp=6", "light add torch carrier=Ash lit")
    app = DelveApp(make(commands=party, procedure="delving"))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        strip = table.query_one(AlertStrip)
        await pilot.press("T")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("end", "enter")  # "+ New timer…" is last
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"bless 2t", "enter")
        await settled(pilot, lambda: opened(app).state.timer("bless") is not None)
        await settled(pilot, lambda: "⧗ bless 2 turns" in screen_text(app))
        await pilot.press("colon", *"turn hazard=6", "enter")  # a free turn: the torch burns on
        await settled(pilot, lambda: opened(app).state.turn == 1)
        warned = [alert.text for alert in strip.current()]
        assert warned == ["Timer bless: runs out next turn"]
        assert "Timer bless: runs out next turn" in screen_text(app)
        assert "⧗ bless 1 turn · next turn" in screen_text(app)
        # The same key changes it: choose the running timer, then Change its length.
        await pilot.press("T")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("home", "enter")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("home", "enter")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"5t", "enter")
        await settled(pilot, lambda: opened(app).state.timer("bless") == Timer("bless", "turns", 5))
        await settled(pilot, lambda: strip.current() == [])
        assert "⧗ bless 5 turns" in screen_text(app)


class _Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.time = 100.0

    def __call__(self) -> float:
        return self.time


def test_a_real_minute_timer_runs_with_the_tables_clock_not_the_turns(
    expedition: Factory,
) -> None:
    """``10rm``: real minutes at the table, counted by its real-time clock like a real-time
    light (a record a minute, never one a second); turns leave it alone; it warns in its
    last minute and ends on time; a pause stops it."""
    now = _Clock()
    x = expedition("delving", name="ritual")
    x.execute("session start")  # real time at the table runs while a session does
    clock = RealTimeClock(x, now)
    x.execute("timer add ritual 3rm")
    assert x.state.timer("ritual") == Timer("ritual", "real", 180)
    x.execute("turn")
    assert _left(x, "ritual") == 180  # a turn is not real time
    now.time += 90.5
    assert [batch.command for batch in clock.tick()] == ["realtime pass 60s"]
    assert clock.seconds_left() == {"⧗ritual": 90}
    now.time += 30
    # Its last minute begins: written then, so the warning comes on time.
    assert [batch.command for batch in clock.tick()] == ["realtime pass 60s"]
    assert _log(x)[-1] == "Timer ritual runs out within a minute (1 real minute left)."
    assert "Timer ritual: runs out within a minute" in [
        a.text for a in alerts(x.state, x.procedure)
    ]
    x.execute("realtime pause")
    assert _log(x)[-1] == "The real-time clock is paused: timer ritual 01:00 left."
    now.time += 600
    assert clock.tick() == [] and _left(x, "ritual") == 60
    x.execute("realtime resume")
    clock.tick()
    now.time += 61
    assert [batch.command for batch in clock.tick()] == ["realtime pass 61s"]
    assert x.state.timers == () and _log(x)[-1] == "Timer ritual has run out."
    assert clock.close() is None  # nothing runs: closing writes nothing


def test_realtime_pass_counts_a_real_timer_and_its_events_are_checked(
    expedition: Factory,
) -> None:
    x = expedition("delving")
    x.execute("timer add ritual 10rm")
    x.execute("timer add bless 2t")
    x.execute("realtime pass 9m30s ritual")
    assert _left(x, "ritual") == 30 and _left(x, "bless") == 2
    with pytest.raises(CommandError, match="is not a light burning or a timer running"):
        x.execute("realtime pass 1m bless")
    running = x.state
    procedure = x.procedure
    assert "runs with the turns" in (
        problem(running, procedure, ev.TimersRealTimePassed(("bless",), 30)) or ""
    )
    assert "runs in real time" in (
        problem(running, procedure, ev.TimersCounted(("ritual",), 10)) or ""
    )
    too_long = ev.TimerStarted("x", "real", 24 * 3600 + 1)
    assert "from 1 to 86400" in (problem(State(), procedure, too_long) or "")


async def test_a_real_minute_timer_counts_down_in_the_lights_pane_and_pauses_with_b() -> None:
    now = _Clock()
    party = (
        "pc add Ash hp=6",
        "light add torch carrier=Ash lit",
        "timer add ritual 2rm",
        "session start",  # real time at the table runs while a session does
    )
    app = DelveApp(make(name="rite", commands=party, procedure="delving"))
    app.now = now
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await settled(pilot, lambda: "⧗ ritual ⏱ 02:00" in screen_text(app))
        assert "b Pause" in screen_text(app)  # the pause key comes with a real-time timer
        now.time += 30
        app.tick_realtime()
        await settled(pilot, lambda: "⧗ ritual ⏱ 01:30" in screen_text(app))
        await pilot.press("b")
        await settled(pilot, lambda: opened(app).state.realtime_paused)
        await settled(pilot, lambda: "⧗ ritual ⏸ 01:30" in screen_text(app))
        assert _left(opened(app), "ritual") == 90  # the pause records the time exactly


async def test_the_timers_dialog_offers_the_procedures_own_timers(home: Path) -> None:
    """A declared timer is one choice away, at its usual length, with its label."""
    path = home / "spells.delve"
    with Expedition.create(path, load_text(SPELLS), seed=1) as x:
        x.execute("pc add Ash hp=6")
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("T")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "+ Light spell (light, 6 turns)" in screen_text(app)
        assert "+ Potion of heroism (potion, 1 hour)" in screen_text(app)
        await pilot.press("home", "enter")
        await settled(pilot, lambda: opened(app).state.timer("light") is not None)
        assert opened(app).state.timer("light") == Timer("light", "turns", 6, "Light spell")
        await settled(pilot, lambda: "⧗ light 6 turns  Light spell" in screen_text(app))
