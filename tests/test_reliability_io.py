"""Disk full and I/O errors: saving fails at the Nth operation, for every N, once and for good.

Two ways in, since SQLite writes through C where Python cannot reach:

- RLIMIT_FSIZE in a forked ``delvetui act X -``: every write past byte N fails with EFBIG, a
  disk full at byte N, for N rising through the file (and its journal).
- tests/faults/faultshim.c, compiled here and preloaded: the Nth write, fsync, journal delete
  or truncate on the expedition file fails with EIO or ENOSPC, once or from then on, or the
  process is SIGKILLed exactly there, for every N the commands reach.

Each time: nothing reported as saved is lost and nothing reported as failed is saved; the
program says what happened ("Saving to X failed (...); nothing of this command was saved."),
stays usable for reading, and a fresh open gives the replayed state.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.faults.harness import (
    PROJECT,
    Mirror,
    build_shim,
    fast_folder,
    fork_act,
    needs_fork,
    parse_acks,
    scaled,
)

pytestmark = pytest.mark.long  # spread through the run: see tests/conftest.py

START = ("pc add Ash hp=6", "light add torch count=3 carrier=Ash lit", "turn", "note " + "x" * 900)
COMMANDS = [
    "turn walk hazard=3",
    "note " + "é" * 1500,
    "pc add 'Old Tom' hp=5",
    "note " + "z" * 1900,
    "undo",
]
#: The shim's trials run every N for every configuration, so they take fewer commands.
SHIM_COMMANDS = COMMANDS[:2] + COMMANDS[-1:]
SEED = 11
SAVE_FAILED = re.compile(
    r"Saving to .+\.delve failed \((.+)\); nothing of this command was saved\.$"
)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    path = tmp_path / "base" / "x.delve"
    path.parent.mkdir()
    with Expedition.create(path, find("delving"), seed=SEED) as x:
        for command in START:
            x.execute(command)
    return path


class Expected:
    """The state after any subsequence of COMMANDS, from an in-process mirror (cached)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.cache: dict[tuple[str, ...], Any] = {}

    def state(self, commands: list[str]) -> Any:
        key = tuple(commands)
        if key not in self.cache:
            mirror = Mirror(self.folder / str(len(self.cache)), "x", find("delving"), SEED)
            mirror.play([*START, *commands])
            self.cache[key] = mirror.expedition.state
            mirror.close()
        return self.cache[key]


def reopened(path: Path) -> tuple[list[str], Any]:
    """The commands after START and the state, as a fresh open (with recovery) gives them."""
    with Expedition.open(path) as x:
        commands = [b.command for b in x.batches()][1 + len(START) :]
        return commands, x.state


# -- disk full at byte N (RLIMIT_FSIZE) ------------------------------------------------------------


@needs_fork
def test_disk_full_at_every_byte_offset(base: Path, tmp_path: Path) -> None:
    size = base.stat().st_size
    step = max(64, 4096 // max(1, scaled(4)))
    limits = sorted({*range(0, 16384, 4096), *range(size - 4096, size + 10 * 4096, step), 10**9})
    outcomes: Counter[str] = Counter()
    with fast_folder(tmp_path) as scratch:
        expected = Expected(scratch)
        for limit in limits:
            home = tmp_path / f"full{limit}"
            home.mkdir()
            path = home / "x.delve"
            shutil.copyfile(base, path)
            child = fork_act(home, "x", file_size_limit=limit)
            child.send(COMMANDS)
            child.close_stdin()
            status = child.wait()
            lines, errors = child.finish()
            acked = [text for _, text in parse_acks(lines)]
            context = f"limit {limit}: printed {lines}, stderr {errors!r}"
            assert "Traceback" not in errors, context
            if status == 0:
                assert acked == COMMANDS and errors == "", context
            else:
                assert status == 2, context
                message = errors.strip().splitlines()
                assert len(message) == 1, context
                found = SAVE_FAILED.search(message[0])
                assert found is not None, context
                assert message[0].startswith(f"delvetui: line {len(acked) + 1}: "), context
                outcomes[found.group(1)] += 1
            commands, state = reopened(path)
            assert commands == acked, context  # nothing lost, nothing failed kept
            assert state == expected.state(acked), context
            outcomes[f"{len(acked)} of {len(COMMANDS)} saved"] += 1
    print(f"{len(limits)} file size limits: {dict(outcomes)}")
    assert outcomes[f"{len(COMMANDS)} of {len(COMMANDS)} saved"] > 0
    assert outcomes["0 of 5 saved"] > 0  # the disk was full from the start for some


# -- the fault shim --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shim() -> Path:
    built = build_shim()
    if built is None:
        pytest.skip("tests/faults/faultshim.c needs Linux and a C compiler (cc or gcc)")
    return built


def drive(shim: Path, base: Path, folder: Path, configs: list[dict[str, Any]]) -> list[Any]:
    plan = {"base": str(base), "folder": str(folder), "commands": SHIM_COMMANDS, "configs": configs}
    result = subprocess.run(
        [sys.executable, "-m", "tests.faults.io_driver"],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env={**os.environ, "LD_PRELOAD": str(shim), "DELVETUI_FAULT_SHIM": str(shim)},
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


FAIL_CONFIGS = [
    {"ops": ops, "persist": persist, "errno": number}
    for ops, errnos in (
        ("write", (errno.EIO, errno.ENOSPC)),
        ("sync", (errno.EIO, errno.ENOSPC)),
        ("unlink", (errno.EIO,)),  # the journal's deletion is the commit in DELETE mode
        ("write,sync,unlink,truncate", (errno.EIO,)),  # every operation counted together
    )
    for persist in (0, 1)
    for number in errnos
]


#: The fault configurations by kind of operation: each kind is its own test, so that a
#: parallel run spreads them over the processors.
FAIL_KINDS = sorted({config["ops"] for config in FAIL_CONFIGS})


@pytest.mark.parametrize("ops", FAIL_KINDS)
def test_every_failing_write_and_fsync_loses_nothing_saved(
    shim: Path, base: Path, tmp_path: Path, ops: str
) -> None:
    outcomes: Counter[str] = Counter()
    with fast_folder(tmp_path) as scratch:
        trials = drive(shim, base, scratch, [c for c in FAIL_CONFIGS if c["ops"] == ops])
        expected = Expected(scratch / "expected")
        totals = {(t["ops"], t["persist"], t["errno"]): t["total"] for t in trials}
        print(totals)
        # The shim really reached SQLite's writes: every kind of operation was counted.
        if ops == "write":
            assert totals[("write", 0, errno.EIO)] > 10, totals
        if ops == "sync":
            assert totals[("sync", 0, errno.EIO)] > 4, totals
        assert all(total > 0 for total in totals.values()), totals
        for trial in trials:
            context = json.dumps({k: v for k, v in trial.items() if k != "path"})[:2000]
            assert trial["crashes"] == [], context
            assert trial["status"] is True, context  # still usable for reading
            for message in trial["failures"]:
                assert SAVE_FAILED.match(message), context
            assert len(trial["acked"]) + len(trial["failures"]) == len(SHIM_COMMANDS), context
            if trial["at"] > trial["total"]:
                assert trial["failures"] == [], context  # past the last operation: no fault
            elif trial["failed_ops"]:
                assert trial["failures"], context  # a fault that struck was reported
            commands, state = reopened(Path(trial["path"]))
            assert commands == trial["acked"], context
            assert state == expected.state(trial["acked"]), context
            mode = "from then on" if trial["persist"] else "once"
            name = errno.errorcode[trial["errno"]]
            outcomes[f"{trial['ops']} {name} {mode}"] += 1
            outcomes["failed commands"] += len(trial["failures"])
    print(f"{len(trials)} fault trials: {dict(outcomes)}")


def test_a_kill_at_every_file_operation_loses_nothing_saved(
    shim: Path, base: Path, tmp_path: Path
) -> None:
    killed = 0
    with fast_folder(tmp_path) as scratch:
        trials = drive(shim, base, scratch, [{"ops": "write,sync,unlink,truncate", "kill": 1}])
        expected = Expected(scratch / "expected")
        for trial in trials:
            context = json.dumps({k: v for k, v in trial.items() if k != "path"})[:2000]
            assert trial["crashes"] == [], context
            assert trial["killed"] == (trial["at"] <= trial["total"]), context
            commands, state = reopened(Path(trial["path"]))
            acked = trial["acked"]
            assert commands[: len(acked)] == acked, context
            assert commands == SHIM_COMMANDS[: len(commands)], context
            assert len(acked) <= len(commands) <= len(acked) + 1, context
            assert state == expected.state(commands), context
            killed += trial["killed"]
    print(f"killed at each of {killed} file operations of {len(SHIM_COMMANDS)} commands")
    assert killed > 30


def test_the_command_line_reports_a_failed_save_and_keeps_what_was_saved(
    shim: Path, base: Path, tmp_path: Path
) -> None:
    for number, said in ((errno.EIO, "disk I/O error"), (errno.ENOSPC, "database or disk is full")):
        home = tmp_path / errno.errorcode[number]
        home.mkdir()
        shutil.copyfile(base, home / "x.delve")
        # Count the writes of the first command, then fail the first write of the second.
        result = delvetui(
            home,
            "act",
            "x",
            "-",
            stdin="note one\nnote two\nnote three\n",
            env={
                "LD_PRELOAD": str(shim),
                "DELVETUI_FAULT_OPS": "write",
                "DELVETUI_FAULT_AT": str(first_command_writes(shim, base, tmp_path) + 1),
                "DELVETUI_FAULT_ERRNO": str(number),
            },
        )
        assert result.returncode == 2, result.stderr
        assert result.stdout.splitlines() == ["ok 6 note one"]
        assert result.stderr == (
            f"delvetui: line 2: Saving to {home / 'x.delve'} failed ({said}); "
            "nothing of this command was saved.\n"
        )
        commands, _ = reopened(home / "x.delve")
        assert commands == ["note one"]


def first_command_writes(shim: Path, base: Path, tmp_path: Path) -> int:
    folder = tmp_path / "count"
    folder.mkdir(exist_ok=True)
    code = (
        "import ctypes, os, shutil, sys\n"
        "from pathlib import Path\n"
        "from delvetui.session import Expedition\n"
        "lib = ctypes.CDLL(os.environ['LD_PRELOAD'])\n"
        "lib.fault_seen.restype = ctypes.c_long\n"
        "lib.fault_arm.argtypes = [ctypes.c_uint, ctypes.c_long] + [ctypes.c_int] * 3\n"
        "target = Path(sys.argv[2])\n"
        "shutil.copyfile(sys.argv[1], target)\n"
        "with Expedition.open(target) as x:\n"
        "    lib.fault_arm(1, 2**62, 0, 5, 0)\n"
        "    x.execute('note one')\n"
        "    print(lib.fault_seen())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(base), str(folder / "x.delve")],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env={**os.environ, "LD_PRELOAD": str(shim)},
        timeout=60,
        check=True,
    )
    return int(result.stdout)
