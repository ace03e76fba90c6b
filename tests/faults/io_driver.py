"""Run expedition commands under injected I/O faults; started with the fault shim preloaded.

``LD_PRELOAD=faultshim.so python tests/faults/io_driver.py < plan.json`` prints one JSON line
per trial. The plan names a base expedition, a folder for trial copies, the commands, and the
fault configurations. For each configuration the driver first counts the file operations the
commands make, then for every N from 1 to that count plus one it copies the base file and runs
the commands through the real app service with the Nth operation failing (once, or from then
on), or with the process killed there (in a forked child). The test (which has no shim) then
checks each trial's file: tests/test_reliability_io.py.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import sys
import traceback
from pathlib import Path
from typing import Any

from delvetui.cli import status_data
from delvetui.errors import DelveError, StorageFailed
from delvetui.session import Expedition

OPS = {"write": 1, "sync": 2, "unlink": 4, "truncate": 8}


def shim() -> ctypes.CDLL:
    library = ctypes.CDLL(os.environ["DELVETUI_FAULT_SHIM"])
    library.fault_arm.argtypes = [
        ctypes.c_uint,
        ctypes.c_long,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
    ]
    library.fault_seen.restype = ctypes.c_long
    library.fault_failed.restype = ctypes.c_long
    return library


def fresh(base: Path, target: Path) -> Path:
    for leftover in (target, Path(f"{target}-journal")):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(base, target)
    return target


def count(lib: ctypes.CDLL, base: Path, target: Path, ops: int, commands: list[str]) -> int:
    """How many counted operations the commands make when nothing fails."""
    with Expedition.open(fresh(base, target)) as x:
        lib.fault_arm(ops, 2**62, 0, 5, 0)
        for command in commands:
            x.execute(command)
        seen = int(lib.fault_seen())
        lib.fault_disarm()
    return seen


def fail_trial(
    lib: ctypes.CDLL, path: Path, ops: int, at: int, persist: int, err: int, commands: list[str]
) -> dict[str, Any]:
    """Run the commands with the Nth operation failing; report what the program said."""
    result: dict[str, Any] = {"path": str(path), "acked": [], "failures": [], "crashes": []}
    x = Expedition.open(path)
    lib.fault_arm(ops, at, persist, err, 0)
    try:
        for command in commands:
            before = x.state
            try:
                x.execute(command)
                result["acked"].append(command)
            except StorageFailed as error:
                result["failures"].append(str(error))
                # Still usable: the state is as before, and the next command is taken
                # (status is read once the trial's commands are done).
                if x.state != before:
                    result["crashes"].append(f"the state changed after a failed {command!r}")
            except DelveError as error:
                result["crashes"].append(f"{type(error).__name__}: {error}")
        try:
            result["readable"] = len(list(x.batches()))
        except DelveError as error:
            result["readable"] = f"{type(error).__name__}: {error}"
        # Readable for status; its odds (counted from the state alone, no file read, and
        # tested on their own) are left out: counting them was most of a trial's time.
        result["status"] = status_data(x, odds=False)["events"] == x.event_count
    except Exception:
        result["crashes"].append(traceback.format_exc())
    finally:
        result["failed_ops"] = int(lib.fault_failed())
        lib.fault_disarm()
        try:
            x.close()
        except Exception:
            result["crashes"].append(traceback.format_exc())
    return result


def kill_trial(
    lib: ctypes.CDLL, path: Path, ops: int, at: int, commands: list[str]
) -> dict[str, Any]:
    """Run the commands in a forked child that is SIGKILLed at the Nth operation."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            os.close(read)
            x = Expedition.open(path)
            lib.fault_arm(ops, at, 0, 5, 1)
            for command in commands:
                x.execute(command)
                os.write(write, (command + "\n").encode())
        except BaseException:
            os.write(write, ("!" + traceback.format_exc().replace("\n", " | ") + "\n").encode())
            code = 70
        os._exit(code)
    os.close(write)
    output = b""
    while chunk := os.read(read, 65536):
        output += chunk
    os.close(read)
    _, status = os.waitpid(pid, 0)
    lines = output.decode().splitlines()
    return {
        "path": str(path),
        "acked": [line for line in lines if not line.startswith("!")],
        "crashes": [line for line in lines if line.startswith("!")],
        "killed": os.WIFSIGNALED(status),
    }


def main() -> None:
    plan = json.load(sys.stdin)
    lib = shim()
    base = Path(plan["base"])
    folder = Path(plan["folder"])
    commands: list[str] = plan["commands"]
    number = 0
    for config in plan["configs"]:
        ops = sum(OPS[name] for name in config["ops"].split(","))
        total = count(lib, base, folder / "count.delve", ops, commands)
        for at in range(1, total + 2):
            number += 1
            path = fresh(base, folder / f"t{number}.delve")
            if config.get("kill"):
                result = kill_trial(lib, path, ops, at, commands)
            else:
                result = fail_trial(
                    lib, path, ops, at, config["persist"], config["errno"], commands
                )
            print(json.dumps({**config, "at": at, "total": total, **result}), flush=True)


if __name__ == "__main__":
    main()
