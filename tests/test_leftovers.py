"""What a killed write leaves, the next write removes (docs/reliability.md, "Leftovers").

The finding: an export killed mid-way left its temporary file (``.delvetui-XXXX.tmp``, up
to 14 MB) in the folder it wrote to, and later exports never removed it. A temporary file
is now locked while it is written; the next write into the same folder removes each one
whose writer is gone (unlocked) once it is older than ``fileio.STALE_SECONDS``, and
nothing else: not a live write's, not a fresh one, not anything that is not a regular file
named as delvetui names its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from delvetui import fileio
from delvetui.errors import StorageFailed
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui

#: A process that writes a file through ``fileio.write_file`` and stops half way, holding
#: its temporary file open (and locked) until it is killed.
_STALLED = """
import sys, time
from pathlib import Path
from delvetui import fileio

def pieces():
    yield "x" * 100_000
    print("half", flush=True)
    time.sleep(120)
    yield "never"

fileio.write_file(Path(sys.argv[1]), pieces())
"""


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith(".delvetui-"))


def age(path: Path, seconds: float) -> None:
    """Make a file look as if it was last written ``seconds`` ago."""
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def stalled(target: Path) -> subprocess.Popen[str]:
    """A writer of ``target`` stopped half way, its temporary file on disk."""
    writer = subprocess.Popen(
        [sys.executable, "-c", _STALLED, str(target)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None and writer.stdout.readline() == "half\n"
    return writer


def test_an_export_killed_half_way_leaves_a_file_the_next_export_removes(
    home: Path, tmp_path: Path
) -> None:
    with Expedition.create(home / "crypt.delve", find("delving"), seed=1) as made:
        made.execute("pc add Ash hp=6")
    out = tmp_path / "out"
    out.mkdir()
    writer = stalled(out / "crypt.md")
    (left,) = leftovers(out)
    # While its writer lives, the temporary file is its own, however old it looks.
    age(out / left, 3600)
    assert delvetui(home, "export", "crypt", "-o", str(out / "one.md")).returncode == 0
    assert leftovers(out) == [left]
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    assert leftovers(out) == [left] and (out / left).stat().st_size == 100_000
    done = delvetui(home, "export", "crypt", "-o", str(out / "two.md"))
    assert done.returncode == 0, done.stderr
    assert leftovers(out) == []
    assert sorted(p.name for p in out.iterdir()) == ["one.md", "two.md"]


def test_a_sweep_removes_only_a_killed_writers_own_files(tmp_path: Path) -> None:
    names = {
        "old": ".delvetui-0123456789ab.tmp",
        "fresh": ".delvetui-aaaaaaaaaaaa.tmp",
        "creating": ".delvetui-bbbbbbbbbbbb.creating",
        "its journal": ".delvetui-bbbbbbbbbbbb.creating-journal",
        "a journal of a file still there": ".delvetui-cccccccccccc.creating-journal",
        "not ours": ".delvetui-zz.tmp",
        "a user's": "notes.tmp",
    }
    for name in names.values():
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / ".delvetui-cccccccccccc.creating").mkdir()  # not a regular file: kept
    (tmp_path / ".delvetui-dddddddddddd.tmp").symlink_to(tmp_path / "notes.tmp")
    for path in tmp_path.iterdir():
        if path.name != names["fresh"]:
            age(path, fileio.STALE_SECONDS + 5)
    removed = fileio.sweep(tmp_path)
    assert sorted(p.name for p in removed) == sorted(
        [names["old"], names["creating"], names["its journal"]]
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [
            names["fresh"],
            names["a journal of a file still there"],
            names["not ours"],
            names["a user's"],
            ".delvetui-cccccccccccc.creating",
            ".delvetui-dddddddddddd.tmp",
        ]
    )
    assert (tmp_path / "notes.tmp").read_text(encoding="utf-8") == "x"


def test_a_new_expedition_removes_what_a_killed_creation_left(home: Path) -> None:
    """A creation killed mid-way leaves its file and SQLite's journal under temporary
    names in the data folder; the next one made there removes both."""
    made = home / ".delvetui-0123456789ab.creating"
    made.write_bytes(b"SQLite format 3\x00half a file")
    journal = home / ".delvetui-0123456789ab.creating-journal"
    journal.write_bytes(b"a journal")
    for path in (made, journal):
        age(path, fileio.STALE_SECONDS + 1)
    done = delvetui(home, "new", "crypt", "--procedure", "delving")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in home.iterdir()) == ["crypt.delve"]


def test_a_failed_write_leaves_nothing(tmp_path: Path) -> None:
    def pieces() -> object:
        yield "half"
        raise OSError(28, "No space left on device")

    with pytest.raises(StorageFailed, match="No space left on device"):
        fileio.write_file(tmp_path / "log.md", pieces())  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
