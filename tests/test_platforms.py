"""Windows and macOS: nothing POSIX-only at import time, and the writer lock's Windows path.

The program runs on Linux, macOS and Windows. Linux is where the suite runs, so Windows is
stood in for: a fresh interpreter where ``import fcntl`` fails (as on Windows) and
``msvcrt.locking`` is a stand-in that keeps Windows' rules (a lock on one byte, taken from
the file's current position, refused with EACCES while another open of the file holds it).
Every delvetui module must import there, and ``new``, ``act`` and ``status`` must work,
taking the writer lock the Windows way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from delvetui import paths
from tests.faults.harness import PROJECT

#: Run before the program in the stand-in interpreter: fcntl gone, msvcrt in its place.
WINDOWS = r'''
import errno, importlib, os, sys, types
# The standard library tells Windows by whether msvcrt imports: let it see the real system
# before the stand-in below exists.
import asyncio, getpass, subprocess  # noqa: F401

_fcntl = importlib.import_module("fcntl")  # kept here only to play msvcrt's part
sys.modules["fcntl"] = None  # "import fcntl" now raises ImportError, as on Windows
calls = []

def locking(fd, mode, nbytes):
    """msvcrt.locking's rules: lock nbytes from the current position; EACCES when held."""
    from delvetui import lock
    where = os.lseek(fd, 0, os.SEEK_CUR)
    calls.append((where, mode, nbytes))
    assert (where, mode, nbytes) == (lock.WINDOWS_LOCK_OFFSET, msvcrt.LK_NBLCK, 1)
    try:
        _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)  # held per open file, like Windows'
    except BlockingIOError:
        raise PermissionError(errno.EACCES, "Permission denied") from None

msvcrt = types.ModuleType("msvcrt")
msvcrt.locking = locking
msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK = 0, 1, 2
sys.modules["msvcrt"] = msvcrt
'''

SCRIPT = (
    WINDOWS
    + r"""
import json, pkgutil
import delvetui
from delvetui import cli, lock
from delvetui.errors import ExpeditionLocked
from delvetui.session import Expedition

imported = []
for module in pkgutil.walk_packages(delvetui.__path__, "delvetui."):
    if module.name == "delvetui.__main__":
        continue  # importing it runs the command line; cli is what it runs
    importlib.import_module(module.name)
    imported.append(module.name)
assert sys.modules["fcntl"] is None and lock.KIND == "msvcrt", lock.KIND

codes = [
    cli.main(["new", "crypt", "--procedure", "delving", "--seed", "4"]),
    cli.main(["act", "crypt", "pc", "add", "Ash", "hp=6"]),
    cli.main(["act", "crypt", "turn"]),
]
with Expedition.open_named("crypt"):
    try:
        Expedition.open_named("crypt")
    except ExpeditionLocked as error:
        refused = str(error)
    else:
        refused = ""
    codes.append(cli.main(["status", "crypt", "--json"]))
print(json.dumps({"imported": imported, "codes": codes, "refused": refused,
                  "calls": len(calls)}))
"""
)


@pytest.mark.skipif(sys.platform == "win32", reason="stands in for Windows on other systems")
def test_without_fcntl_every_module_imports_and_new_act_status_lock_the_windows_way(
    tmp_path: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        env={**os.environ, "DELVETUI_HOME": str(tmp_path)},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    report = json.loads(lines[-1])
    status = json.loads("\n".join(lines[lines.index("{") : -1]))  # after new's and act's lines
    assert "delvetui.store" in report["imported"] and "delvetui.ui.app" in report["imported"]
    assert len(report["imported"]) > 40
    assert report["codes"] == [0, 0, 0, 0]
    assert status["turn"] == 1 and [m["name"] for m in status["party"]] == ["Ash"]
    assert "open in another delvetui" in report["refused"]
    # new, both acts, the open that held it and the one refused all locked the Windows way
    assert report["calls"] >= 5
    assert (tmp_path / "crypt.delve").exists()


def test_the_data_folder_is_the_platforms_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DELVETUI_HOME")
    assert paths.data_dir() == platformdirs.user_data_path("delvetui")
    assert paths.user_procedures_dir() == platformdirs.user_config_path("delvetui") / "procedures"
