"""Real-time light in the core: set, counted by steps, paused, replayed, audited, imported."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from delvetui.cli import status_data
from delvetui.core import realtime
from delvetui.core.log import batch_lines
from delvetui.core.timeline import replay
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export, import_file
from delvetui.export.json_format import ImportRefused
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui, made
from tests.conftest import Factory, reopened

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)


def said(x: Expedition, command: str) -> list[str]:
    """Run a command and return the log lines it wrote."""
    before = x.state
    batch = x.execute(command, now=MOMENT)
    return [line.text for line in batch_lines(batch, x.procedure, before)]


def left(x: Expedition, light_id: str) -> int | None:
    light = x.state.light(light_id)
    assert light is not None
    return light.real_seconds


@pytest.fixture
def torch(expedition: Factory) -> Expedition:
    """Exploration (a torch of six turns) with Ash carrying a lit torch set to one real hour."""
    x = expedition("exploration", name="crypt")
    for command in ("pc add Ash hp=6", "light add torch carrier=Ash lit"):
        x.execute(command, now=MOMENT)
    assert said(x, "light realtime torch1 60m") == [
        "torch1 burns in real time: 1:00:00 left (set by the game master)."
    ]
    return x


def test_real_time_counts_down_and_the_light_goes_out_with_a_line(torch: Expedition) -> None:
    assert said(torch, "realtime pass 1m") == []  # a step of the countdown says nothing
    assert left(torch, "torch1") == 59 * 60
    torch.execute("realtime pass 58m30s", now=MOMENT)
    assert left(torch, "torch1") == 30
    assert said(torch, "realtime pass 30s") == ["torch1 burns out."]
    light = torch.state.light("torch1")
    assert light is not None and not light.lit and light.spent
    assert torch.state.light_level == "dark"


def test_turns_do_not_burn_a_real_time_light(torch: Expedition) -> None:
    minutes = torch.state.lights[0].minutes
    for _ in range(3):
        torch.execute("turn cautious hazard=6", now=MOMENT)
    assert torch.state.lights[0].minutes == minutes
    assert left(torch, "torch1") == 3600
    torch.execute("light realtime torch1 off", now=MOMENT)
    torch.execute("turn cautious hazard=6", now=MOMENT)
    assert minutes == 60
    assert torch.state.lights[0].minutes == 50
    assert left(torch, "torch1") is None


def test_pausing_stops_every_real_time_light_and_says_what_is_left(torch: Expedition) -> None:
    torch.execute("light add lantern carrier=Ash lit", now=MOMENT)
    torch.execute("light realtime lantern1 4h", now=MOMENT)
    assert said(torch, "realtime pause 2m5s the table closed") == [
        "The real-time clock is paused (the table closed): torch1 57:55 left; "
        "lantern1 3:57:55 left."
    ]
    assert torch.state.realtime_paused
    assert torch.state.burning_in_real_time == ()
    count = torch.store.batch_count()
    for refused in ("realtime pass 1m", "realtime pause"):
        with pytest.raises(CommandError, match="paused"):
            torch.execute(refused, now=MOMENT)
    assert torch.store.batch_count() == count
    assert said(torch, "realtime resume") == [
        "The real-time clock runs again: torch1 57:55 left; lantern1 3:57:55 left."
    ]
    with pytest.raises(CommandError, match="not paused"):
        torch.execute("realtime resume", now=MOMENT)


def test_undo_takes_back_the_last_command_never_the_real_time(torch: Expedition) -> None:
    torch.execute("note the door creaks", now=MOMENT)
    torch.execute("realtime pass 1m", now=MOMENT)
    torch.execute("realtime pass 1m", now=MOMENT)
    assert said(torch, "undo") == ["Undone: the command note the door creaks."]
    assert left(torch, "torch1") == 58 * 60  # the two minutes still passed
    torch.execute("redo", now=MOMENT)
    torch.execute("realtime pass 1m", now=MOMENT)
    torch.execute("undo", now=MOMENT)
    torch.execute("undo", now=MOMENT)  # the real-time setting itself
    assert left(torch, "torch1") is None
    again = reopened(torch)
    try:
        assert again.state == torch.state
    finally:
        again.close()


def test_a_replay_of_the_file_gives_the_same_state(torch: Expedition) -> None:
    for command in (
        "realtime pass 1m",
        "turn cautious hazard=5",
        "realtime pass 10m torch1",
        "light add candle count=2 carrier=Ash",
        "light on candle",
        "light realtime candle1 45s",
        "realtime pass 45s",
        "realtime pause 20s",
        "undo",
        "realtime resume",
    ):
        torch.execute(command, now=MOMENT)
    live = torch.state
    assert left(torch, "torch1") == 3600 - 60 - 600 - 45 - 20
    assert torch.state.light("candle1") is not None
    replayed = replay(torch.batches()).state
    assert replayed == live
    again = reopened(torch)
    try:
        assert again.state == live
    finally:
        again.close()


def test_bad_real_time_commands_say_why_and_write_nothing(torch: Expedition) -> None:
    count = torch.store.batch_count()
    for command, message in (
        ("light realtime torch1 soon", "'soon' is not a span of time; write 60m"),
        ("light realtime torch1 0s", "Give 1 second to 24 hours"),
        ("light realtime torch1 25h", "Give 1 second to 24 hours"),
        ("light realtime lamp9 60m", "There is no light 'lamp9'"),
        ("realtime pass 1m candle1", "'candle1' is not a light burning in real time"),
        ("realtime stop", "Say realtime pause, realtime resume or realtime pass"),
    ):
        with pytest.raises(CommandError, match=message):
            torch.execute(command, now=MOMENT)
    torch.execute("light off torch1", now=MOMENT)
    with pytest.raises(CommandError, match="No light burns in real time now"):
        torch.execute("realtime pass 1m", now=MOMENT)
    assert torch.store.batch_count() == count + 1


def test_due_in_is_the_next_step_or_a_light_running_out(torch: Expedition) -> None:
    procedure = torch.procedure
    assert realtime.due_in(torch.state, procedure) == 60
    torch.execute("realtime pass 59m20s", now=MOMENT)
    assert realtime.due_in(torch.state, procedure) == 40
    torch.execute("realtime pause", now=MOMENT)
    assert realtime.due_in(torch.state, procedure) is None


REAL_TORCH = """
[lights.torch]
label = "Torch"
brightness = "bright"
turns = 6
real_minutes = 60  # one real hour at the table
real_step = 5      # kept every five real minutes
"""


def _with_real_torch(home: Path) -> Path:
    text = find("exploration").text
    start = text.index("[lights.torch]")
    end = text.index("\n[", start + 1)
    changed = text[:start] + REAL_TORCH.strip() + "\n" + text[end:]
    path = home / "real-torch.toml"
    path.write_text(changed, encoding="utf-8")
    return path


def test_a_procedure_can_make_a_kind_burn_in_real_time(home: Path) -> None:
    procedure = load_text(_with_real_torch(home).read_text(encoding="utf-8"))
    assert procedure.lights["torch"].real_minutes == 60
    with Expedition.create(home / "real.delve", procedure, seed=3, now=MOMENT) as x:
        lines = said(x, "light add torch count=2 lit")
        assert "torch2 burns in real time: 1:00:00 left." not in lines
        assert "torch1 burns in real time: 1:00:00 left." in lines
        assert x.state.light("torch2") is not None
        assert left(x, "torch2") == 3600  # lit from the stack, with its own hour
        assert realtime.due_in(x.state, x.procedure) == 300


def test_a_procedure_with_a_bad_real_time_says_where(home: Path) -> None:
    text = _with_real_torch(home).read_text(encoding="utf-8")
    text = text.replace("real_minutes = 60", "real_minutes = 0").replace(
        "real_step = 5", "real_step = 90"
    )
    with pytest.raises(ProcedureError) as problem:
        load_text(text)
    message = str(problem.value)
    assert "lights.torch.real_minutes" in message and "lights.torch.real_step" in message


def test_status_json_tells_seconds_left_and_the_pause(torch: Expedition) -> None:
    torch.execute("realtime pass 2m", now=MOMENT)
    data = status_data(torch)
    light = data["lights"][0]
    assert light["real_seconds_left"] == 3480
    assert light["remaining_turns"] is not None  # every key kept as it was
    assert data["realtime_paused"] is False
    torch.execute("realtime pause", now=MOMENT)
    assert status_data(torch)["realtime_paused"] is True


def test_status_json_of_an_expedition_without_real_time_has_no_new_keys(
    expedition: Factory,
) -> None:
    x = expedition("delving")
    x.execute("light add torch lit", now=MOMENT)
    data = status_data(x)
    assert "realtime_paused" not in data
    assert "real_seconds_left" not in data["lights"][0]


def test_the_exports_tell_real_time(torch: Expedition) -> None:
    torch.execute("realtime pass 59m", now=MOMENT)
    torch.execute("realtime pause 10s the table closed", now=MOMENT)
    text = export(torch, "txt", now=MOMENT)
    assert "torch1 burns in real time: 1:00:00 left (set by the game master)." in text
    assert "The real-time clock is paused (the table closed): torch1 00:50 left." in text
    torch.execute("realtime resume", now=MOMENT)
    torch.execute("realtime pass 50s", now=MOMENT)
    assert "torch1 burns out." in export(torch, "md", now=MOMENT)


# The import check -------------------------------------------------------------------------


@pytest.fixture
def exported(torch: Expedition, home: Path) -> dict[str, Any]:
    for command in ("realtime pass 1m", "realtime pause 30s", "realtime resume"):
        torch.execute(command, now=MOMENT)
    data: dict[str, Any] = json.loads(export(torch, "json"))
    torch.close()
    (home / "crypt.delve").unlink()
    return data


def _import(home: Path, data: dict[str, Any]) -> Path:
    document = home / "crypt.json"
    document.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return import_file(document, "copy")


def _events(data: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [
        event["payload"]
        for batch in data["batches"]
        for event in batch["events"]
        if event["type"] == type_
    ]


def test_a_sound_real_time_log_imports_identical(exported: dict[str, Any], home: Path) -> None:
    path = _import(home, exported)
    with Expedition.open(path) as copy:
        light = copy.state.light("torch1")
        assert light is not None and light.real_seconds == 3600 - 90
        assert not copy.state.realtime_paused


def _time_in_another_batch(data: dict[str, Any]) -> None:
    note = {"type": "Noted", "version": 1, "payload": {"text": "x"}}
    batch = next(b for b in data["batches"] if b["events"][0]["type"] == "RealTimePassed")
    batch["events"].insert(0, note)


def _passed(field: str, value: object) -> Any:
    def change(data: dict[str, Any]) -> None:
        _events(data, "RealTimePassed")[0][field] = value

    return change


def _paused_twice(data: dict[str, Any]) -> None:
    _events(data, "RealTimePaused")[1]["paused"] = True


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_passed("seconds", 0), "seconds is 0; it must be from 1 to 86400"),
        (_passed("seconds", 90000), "seconds is 90000; it must be from 1 to 86400"),
        (_passed("ids", ["torch9"]), "'torch9' is not a lit light burning in real time"),
        (_passed("ids", ["torch1", "torch1"]), "one light twice"),
        (_paused_twice, "the real-time clock is already paused"),
        (_time_in_another_batch, "real time passes in a batch of its own"),
    ],
    ids=["no time", "over a day", "no such light", "twice", "paused twice", "mixed batch"],
)
def test_an_unsound_real_time_log_is_refused(
    exported: dict[str, Any], home: Path, change: Any, message: str
) -> None:
    change(exported)
    with pytest.raises(ImportRefused, match=message):
        _import(home, exported)
    assert not (home / "copy.delve").exists()


# The command line ------------------------------------------------------------------------


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return delvetui(home, *args)


def test_the_cli_runs_real_time_and_status_tells_it(home: Path) -> None:
    path = made(home, "crypt", "exploration", seed=4)
    script = "\n".join(
        (
            "pc add Ash hp=6",
            "light add torch carrier=Ash lit",
            "light realtime torch1 1h",
            "realtime pass 90s",
            "realtime pause",
        )
    )
    done = delvetui(home, "act", "crypt", "-", stdin=script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].endswith("realtime pause")
    data = json.loads(_cli(home, "status", "crypt", "--json").stdout)
    assert data["realtime_paused"] is True
    assert data["lights"][0]["real_seconds_left"] == 3600 - 90
    refused = _cli(home, "act", "crypt", "realtime", "pause")
    assert refused.returncode == 2
    assert "The real-time clock is already paused" in refused.stderr
    with Expedition.open(path, write=False) as crypt:
        assert crypt.event_count == data["events"]  # the refusal wrote nothing


def test_the_documented_one_hour_torch_burns_in_real_time(home: Path) -> None:
    from tests.test_docs_procedures import COMPLETE

    text = next(text for _, text in COMPLETE if 'id = "one-hour-torch"' in text)
    with Expedition.create(home / "doc.delve", load_text(text), seed=1, now=MOMENT) as x:
        x.execute("light add torch lit", now=MOMENT)
        assert left(x, "torch1") == 3600
        assert realtime.due_in(x.state, x.procedure) == 60
        x.execute("turn explore hazard=4", now=MOMENT)
        assert left(x, "torch1") == 3600  # turns do not burn it


def test_a_lantern_out_of_real_time_is_refuelled_with_real_time(torch: Expedition) -> None:
    torch.execute("light add lantern carrier=Ash lit", now=MOMENT)
    torch.execute("light realtime lantern1 10m", now=MOMENT)
    assert "lantern1 runs out of fuel." in said(torch, "realtime pass 10m")
    with pytest.raises(CommandError, match="no real time left"):
        torch.execute("light on lantern1", now=MOMENT)
    assert said(torch, "light refuel lantern1")[-1] == (
        "lantern1 burns in real time: 6:00:00 left (a new flask of oil)."
    )
    torch.execute("light on lantern1", now=MOMENT)
    assert left(torch, "lantern1") == 6 * 3600
