"""The table's real-time clock on a real expedition file, with a clock moved by hand."""

from __future__ import annotations

from delvetui.application.realtime import RealTimeClock
from delvetui.session import Expedition
from tests.conftest import Factory


class Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.time = 100.0

    def __call__(self) -> float:
        return self.time


def _torch(expedition: Factory) -> Expedition:
    x = expedition("exploration", name="crypt")
    for command in (
        "pc add Ash hp=6",
        "light add torch carrier=Ash lit",
        "light realtime torch1 1h",
        "session start",  # real time at the table runs while a session does
    ):
        x.execute(command)
    return x


def _left(x: Expedition, light_id: str) -> int | None:
    light = x.state.light(light_id)
    assert light is not None
    return light.real_seconds


def test_a_light_lit_between_steps_counts_from_then_and_the_others_keep_theirs(
    expedition: Factory,
) -> None:
    now = Clock()
    x = _torch(expedition)
    clock = RealTimeClock(x, now)
    now.time += 30
    assert clock.tick() == []  # within the step: nothing written
    x.execute("light add candle carrier=Ash lit")
    x.execute("light realtime candle1 10m")
    assert clock.seconds_left() == {"torch1": 3570, "candle1": 600}
    written = clock.tick()  # the torch's 30 seconds, owed
    assert [batch.command for batch in written] == ["realtime pass 30s torch1"]
    now.time += 60
    assert [batch.command for batch in clock.tick()] == ["realtime pass 60s"]
    assert (_left(x, "torch1"), _left(x, "candle1")) == (3510, 540)


def test_steps_are_whole_and_a_light_running_out_is_written_on_time(
    expedition: Factory,
) -> None:
    now = Clock()
    x = _torch(expedition)
    clock = RealTimeClock(x, now)
    now.time += 150.5
    assert [batch.command for batch in clock.tick()] == ["realtime pass 120s"]
    assert clock.seconds_left() == {"torch1": 3600 - 150}
    x.execute("light realtime torch1 40s")  # the game master's correction counts from now
    now.time += 45
    assert [batch.command for batch in clock.tick()] == ["realtime pass 45s"]
    light = x.state.light("torch1")
    assert light is not None and not light.lit and light.real_seconds == 0
    assert clock.close() is None  # nothing burns: closing writes nothing


def test_close_pauses_with_the_seconds_since_the_last_step(expedition: Factory) -> None:
    now = Clock()
    x = _torch(expedition)
    clock = RealTimeClock(x, now)
    now.time += 61
    clock.tick()
    now.time += 17
    batch = clock.close()
    assert batch is not None and batch.command == "realtime pause 18s the table closed"
    assert x.state.realtime_paused and _left(x, "torch1") == 3600 - 78
    assert clock._committed not in x.listeners


def test_real_time_runs_only_while_a_session_does(expedition: Factory) -> None:
    """A torch lit as the party is made ready does not burn before the session starts;
    the session's seconds are recorded when it ends, and nothing burns between sessions."""
    now = Clock()
    x = expedition("shadowdark", name="crawl")
    x.execute("pc add Ash hp=6")
    x.execute("light add torch carrier=Ash lit")
    light = x.state.light("torch1")
    assert light is not None and light.real_seconds == 3600  # Shadowdark's: a real hour
    clock = RealTimeClock(x, now)
    now.time += 600  # ten minutes of getting ready
    assert clock.tick() == [] and clock.seconds_left() == {"torch1": 3600}
    x.execute("session start")
    now.time += 90
    assert clock.seconds_left() == {"torch1": 3510}
    assert [batch.command for batch in clock.tick()] == ["realtime pass 60s"]
    now.time += 20
    x.execute("session end")  # 50 seconds since the step, owed to the torch
    now.time += 300  # the break: nothing burns
    assert [batch.command for batch in clock.tick()] == ["realtime pass 50s torch1"]
    now.time += 300
    assert clock.tick() == [] and _left(x, "torch1") == 3490
    assert clock.close() is None  # nothing was counting: closing writes nothing
