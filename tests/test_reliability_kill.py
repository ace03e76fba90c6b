"""Killed mid-write: ``delvetui act X -`` is SIGKILLed at random moments, hundreds of times.

Each kill is checked the same way: every acknowledged command is in the file with the same
text and number; besides them at most the one command in flight when the kill came (it may
have committed just before; then it is whole); nothing half-written is (every row's checksum
and SQLite's page check pass); ``delvetui status`` run at once after the kill reads the last
committed state, rolling a hot journal back as SQLite does, and shows every acknowledged
command in it; and the replay equals a fresh in-process run of the same commands, event for
event.

The children are forked from this interpreter (imports done once, so a child starts in
milliseconds) and run the real ``delvetui.cli.main(["act", X, "-"])``; eight expeditions are
killed side by side. ``DELVETUI_RELIABILITY_ROUNDS`` sets the number of kills (240 in CI).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from delvetui.cli import status_data
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.faults.harness import (
    PROJECT,
    Child,
    Mirror,
    fast_folder,
    fork_act,
    fork_cli,
    needs_fork,
    parse_acks,
    popen_act,
    rounds,
    scaled,
    seed,
)

pytestmark = pytest.mark.long  # spread through the run: see tests/conftest.py

LANES = 8
#: The kills are made in this many independent parts (each with its own expeditions), so a
#: parallel run spreads them over the processors.
PARTS = 4
START = ("pc add Ash hp=6 STR=12", "light add torch count=3 carrier=Ash lit")
#: About how long one commit takes; only sets the range of the random delays.
COMMIT = 0.012


@attrs.define
class Lane:
    """One expedition that is played and killed again and again."""

    name: str
    path: Path
    mirror: Mirror
    rng: random.Random
    base: int = 0
    counter: int = 0
    sent: list[str] = attrs.field(factory=list)
    child: Child | None = None
    deadline: float = 0.0
    mode: str = ""

    def commands(self, count: int) -> list[str]:
        """Commands that are always valid here, so the child never stops on its own."""
        out: list[str] = []
        while len(out) < count:
            self.counter += 1
            n, pick = self.counter, self.rng.random()
            if pick < 0.25:
                size = self.rng.choice((0, 20, 400, 1900))
                body = "é" * (size // 2) + "x" * (size // 2)
                out.append(f"note {self.name} #{n} {body}".strip())
            elif pick < 0.5:
                hazard = self.rng.randint(1, 6)
                out.append(self.rng.choice(("turn", f"turn walk hazard={hazard}", "turn crawl")))
            elif pick < 0.6:
                out.append(f"roll {self.rng.randint(1, 30)}d6 loot {n}")
            elif pick < 0.7:
                out.append(f"pc add 'Hireling {n}' hp={self.rng.randint(1, 9)}")
            elif pick < 0.8:
                out.append(f"light add torch count={self.rng.randint(1, 6)}")
            elif pick < 0.9:
                out.append(f"time set {self.rng.randint(0, 23):02d}:{self.rng.randint(0, 59):02d}")
            else:
                out.extend(("undo", "redo"))  # something always counts, so undo is valid
        return out


@attrs.define
class Tally:
    kills: int = 0
    acknowledged: int = 0
    in_flight_committed: int = 0
    hot_journals: int = 0
    stale_journals: int = 0
    modes: Counter[str] = attrs.field(factory=Counter)

    def line(self) -> str:
        return (
            f"{self.kills} kills ({dict(self.modes)}), {self.acknowledged} acknowledged commands"
            f" all kept, {self.in_flight_committed} in-flight commands committed whole,"
            f" {self.hot_journals} half-saved files recovered by a reader,"
            f" {self.stale_journals} journals that never went live left alone"
        )


def make_lanes(folder: Path, mirrors: Path, rng: random.Random, count: int) -> list[Lane]:
    procedure = find("delving")
    lanes = []
    for i in range(count):
        name = f"lane{i}"
        lane_seed = rng.randrange(2**31)
        with Expedition.create(folder / f"{name}.delve", procedure, seed=lane_seed) as x:
            for command in START:
                x.execute(command)
            base = x.batch_count
        mirror = Mirror(mirrors, name, procedure, lane_seed)
        mirror.play(START)
        lanes.append(
            Lane(name, folder / f"{name}.delve", mirror, random.Random(rng.random()), base=base)
        )
    return lanes


def check(lane: Lane, tally: Tally) -> None:
    """Everything this kill may and may not have done to the file."""
    assert lane.child is not None
    status = lane.child.wait()
    lines, errors = lane.child.finish()
    context = (
        f"{lane.name} ({lane.mode}): sent {[text[:40] for text in lane.sent]}\n"
        f"printed {[text[:40] for text in lines]}\nstderr {errors}"
    )
    assert status == -9, f"the child was not killed but ended with {status}: {context}"
    acks = parse_acks(lines)
    assert [n for n, _ in acks] == list(range(lane.base + 1, lane.base + 1 + len(acks))), context
    assert [text for _, text in acks] == lane.sent[: len(acks)], context

    # Whatever the kill left, `delvetui status` reads the last committed state (rolling back
    # a save cut off mid-way, as SQLite does) and shows every acknowledged command in it.
    journal = Path(f"{lane.path}-journal")
    hot = journal.exists() and journal.stat().st_size > 0
    looker = fork_cli(lane.path.parent, ["status", str(lane.path), "--json"])
    read_status = looker.wait()
    read_lines, read_errors = looker.finish()
    assert read_status == 0, f"status after the kill: {read_errors}\n{context}"
    shown = json.loads("\n".join(read_lines))
    tally.hot_journals += hot and not journal.exists()

    # The next writer recovers it; the log holds exactly the acknowledged commands, and maybe
    # the one in flight, each whole.
    with Expedition.open(lane.path) as x:
        batches = list(x.batches(after=lane.base))
        commands = [b.command for b in batches]
        assert commands == lane.sent[: len(commands)], context
        assert len(acks) <= len(commands) <= len(acks) + 1, context
        lane.mirror.play(commands)
        assert [(b.command, b.events) for b in batches] == lane.mirror.events(lane.base), context
        assert x.state == lane.mirror.expedition.state, context
        # status showed this state, acknowledged commands and all (read-only, as it opens);
        # its odds are counted from the state alone, which is the mirror's (checked above)
        assert "odds" in shown, context
        shown.pop("odds")
        assert shown == {**status_data(x, odds=False), "readonly": True}, context
        lane.base = x.batch_count
    if journal.exists():
        # Nothing is left to recover: a journal stays behind only if it never went live (its
        # header unwritten); SQLite ignores it and the next commit replaces it.
        tally.stale_journals += 1
        with Expedition.open(lane.path, write=False) as reader:
            assert reader.state == lane.mirror.expedition.state, context
    tally.kills += 1
    tally.acknowledged += len(acks)
    tally.in_flight_committed += len(commands) - len(acks)
    tally.modes[lane.mode] += 1


def wave(
    lanes: list[Lane],
    spawn: Callable[[Lane], Child],
    rng: random.Random,
    modes: tuple[str, ...],
    tally: Tally,
) -> None:
    """Start every lane's child, kill each at its own random moment, then check them all."""
    for lane in lanes:
        lane.child = spawn(lane)
        lane.mode = rng.choice(modes)
        lane.sent = []
    for lane in lanes:
        assert lane.child is not None
        if lane.mode != "startup":
            # Wait until the child has the file open and has committed once.
            lane.sent = [f"note {lane.name} ready"]
            lane.child.send(lane.sent)
            line = lane.child.read_line(timeout=30)
            assert line is not None and line.startswith("ok "), (lane.name, line)
        if lane.mode == "ack-race":
            # One command, killed before (or just as) its acknowledgement is read.
            burst = lane.commands(1)
            delay = rng.choice((0.0, rng.uniform(0, 2 * COMMIT)))
        else:
            burst = lane.commands(rng.randint(1, 15))
            delay = rng.uniform(0, COMMIT * len(burst))
            if lane.mode == "startup":
                delay = rng.uniform(0, 0.08)  # during start-up, recovery and the first commits
        lane.sent += burst
        lane.child.send(burst)
        lane.deadline = time.monotonic() + delay
    for lane in sorted(lanes, key=lambda lane: lane.deadline):
        assert lane.child is not None
        time.sleep(max(0.0, lane.deadline - time.monotonic()))
        lane.child.kill()
    for lane in lanes:
        check(lane, tally)


@needs_fork
@pytest.mark.parametrize("part", range(PARTS))
def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path: Path, part: int) -> None:
    rng = random.Random(seed() + part)
    home = tmp_path
    tally = Tally()
    # This part's share of the kills (every part makes at least one).
    kills = max(1, rounds() // PARTS + (part < rounds() % PARTS))
    with fast_folder(tmp_path) as mirrors:
        lanes = make_lanes(home, mirrors, rng, LANES)
        try:
            while tally.kills < kills:
                now = lanes[: min(LANES, kills - tally.kills)]
                wave(
                    now,
                    lambda lane: fork_act(home, lane.name),
                    rng,
                    ("startup", "burst", "burst", "burst", "ack-race", "ack-race"),
                    tally,
                )
        finally:
            for lane in lanes:
                lane.mirror.close()
    print(tally.line())
    assert tally.kills >= kills
    assert tally.acknowledged > tally.kills  # the kills did land in the middle of play
    # How many kills landed inside a commit depends on the disk's speed; the shim's kill at
    # every file operation (test_reliability_io.py) covers each point of a commit for sure.


@needs_fork
def test_sigkill_of_python_m_delvetui_as_a_user_starts_it(tmp_path: Path) -> None:
    """The same with a fresh ``python -m delvetui act X -`` per kill, nothing pre-imported."""
    rng = random.Random(seed())
    home = tmp_path
    tally = Tally()
    kills = scaled(16)
    with fast_folder(tmp_path) as mirrors:
        lanes = make_lanes(home, mirrors, rng, LANES)
        try:
            while tally.kills < kills:
                wave(
                    lanes[: min(LANES, kills - tally.kills)],
                    lambda lane: popen_act(home, lane.name),
                    rng,
                    ("burst", "ack-race"),
                    tally,
                )
        finally:
            for lane in lanes:
                lane.mirror.close()
    print(tally.line())
    assert tally.kills >= kills


#: A writer that dies in the middle of a big command, leaving its journal hot.
CRASH_MID_SAVE = (
    "import os, sys\n"
    "from pathlib import Path\n"
    "from delvetui.store import NewEvent, Store\n"
    "store = Store.open(Path(sys.argv[1]))\n"
    "conn = store._conn\n"
    "conn.execute('PRAGMA cache_size = 1')  # spill pages into the file before commit\n"
    "conn.create_function('crash', 0, lambda: os._exit(9))\n"
    "conn.execute('CREATE TEMP TRIGGER t BEFORE INSERT ON events'\n"
    "             ' WHEN NEW.seq = (SELECT MAX(seq) FROM events) + 1 AND NEW.seq % 150 = 0'\n"
    "             ' BEGIN SELECT crash(); END')\n"
    "note = NewEvent('NoteTaken', 1, {'text': 'y' * 1000})\n"
    "store.append('big', 't', [note] * 400)\n"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["status", "x", "--json"],
        ["list"],
        ["export", "x", "--format", "txt"],
        ["open", "x", "--screenshot", "x.svg", "--size", "80x24"],
    ],
    ids=["status", "list", "export", "open"],
)
def test_reads_after_a_crash_mid_save_give_the_last_committed_state(
    tmp_path: Path, argv: list[str]
) -> None:
    path = tmp_path / "x.delve"
    with Expedition.create(path, find("delving"), seed=5) as x:
        for command in (*START, "note Grimhold"):
            x.execute(command)
        committed = status_data(x)
    crash = subprocess.run(
        [sys.executable, "-c", CRASH_MID_SAVE, str(path)], cwd=PROJECT, timeout=60
    )
    assert crash.returncode == 9
    journal = Path(f"{path}-journal")
    assert journal.stat().st_size > 0  # hot: pages of the cut-off save are in the file
    result = delvetui(tmp_path, *argv, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not journal.exists()  # rolled back, as SQLite does
    if argv[0] == "status":
        assert json.loads(result.stdout) == {**committed, "readonly": True}
    elif argv[0] == "list":
        assert "x" in result.stdout
    elif argv[0] == "export":
        assert "Grimhold" in result.stdout  # the last acknowledged command
    else:
        assert "Grimhold" in (tmp_path / "x.svg").read_text()
    with Expedition.open(path, write=False) as again:
        assert status_data(again) == {**committed, "readonly": True}
