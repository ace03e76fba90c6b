"""A dungeon of 10, 100 and 500 rooms: ``go``, the rooms pane and ``status``, side by side.

Run from the repository root::

    python bench/bench_rooms.py              # 9 rounds
    python bench/bench_rooms.py --rounds 3   # quicker

Each dungeon is an adventure's tables file of N rooms on three levels (each room leading
to the next, every fifth also to the one five on, as a map's corridors do), carried by a
Delving expedition with a party of three and 40 rooms explored. In rounds, the sizes
interleaved, it measures:

- ``go``: a real ``Expedition.execute("go ROOM")`` (decided, committed to disk, applied),
  from one room to its neighbour and back, 20 a round; the core alone (``decide`` of the
  command and the events folded into the state), 200 a round; and ``delvetui act X go
  ROOM`` as a whole process, there and back (its processor time);
- the rooms pane: drawing the room the party is in (``RoomsPane.render``, on the real
  table, headless at 80x24), 200 a round;
- ``status``: ``delvetui status X`` and ``status X --json`` as whole processes, a run each
  a round (the processor time each took, user and system: on a machine busy with other
  work the wall time swings by a fifth), and the JSON built in the process
  (``cli.status_data``), 20 a round.

It prints the median of each for each size, and the ratio of 500 rooms to 10. The results
are in docs/performance.md, section "A dungeon of rooms".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SIZES = (10, 100, 500)
REPO = Path(__file__).resolve().parent.parent


def tables_text(rooms: int) -> str:
    """A tables file of ``rooms`` rooms on three levels, as a map keys them."""
    lines = ['id = "bench"', 'name = "Bench dungeon"']
    for level in (1, 2, 3):
        lines += [
            f"[areas.level-{level}]",
            f'label = "Level {level}"',
            'dice = "d6"',
            'rows = [{ roll = "1-6", creature = "Rats", number = "2d4" }]',
        ]
    for n in range(1, rooms + 1):
        exits = [str(n + 1)] if n < rooms else []
        if n + 5 <= rooms and n % 5 == 0:
            exits.append(str(n + 5))
        level = 1 + 3 * (n - 1) // rooms
        lines += [
            f"[rooms.{n}]",
            f'label = "Room {n}"',
            f'area = "level-{level}"',
            f"exits = [{', '.join(repr(e).replace(chr(39), chr(34)) for e in exits)}]",
        ]
    return "\n".join(lines) + "\n"


def make(home: Path, rooms: int) -> Path:
    """An expedition carrying a dungeon of ``rooms`` rooms, 40 explored."""
    from delvetui.procedure.registry import find
    from delvetui.session import Expedition

    tables = home / f"dungeon-{rooms}.toml"
    tables.write_text(tables_text(rooms), encoding="utf-8")
    path = home / f"rooms-{rooms}.delve"
    with Expedition.create(path, find("delving"), seed=3) as made:
        for line in ("pc add Ash hp=8", "pc add Bo hp=6", "pc add Cy hp=5"):
            made.execute(line)
        made.execute("light add torch count=6 carrier=Ash lit")
        made.execute(f"tables add {tables}")
        for n in range(1, min(rooms, 40) + 1):
            made.execute(f"go {n}")
        made.execute("room 5 +cleared +looted")
        made.execute("go 6 anyway")
    return path


def timed(action: Callable[[], object], times: int) -> list[float]:
    found = []
    for _ in range(times):
        started = time.perf_counter()
        action()
        found.append(time.perf_counter() - started)
    return found


def go_times(path: Path) -> tuple[list[float], list[float]]:
    """``go`` back and forth: whole commands, and the core alone."""
    from delvetui.core import commands as cmd
    from delvetui.core.decide import decide
    from delvetui.core.evolve import fold
    from delvetui.session import Expedition

    with Expedition.open(path) as made:
        rooms = iter(["7", "6"] * 10)
        whole = timed(lambda: made.execute(f"go {next(rooms)}"), 20)
        state, procedure = made.state, made.procedure
        command = cmd.parse("go 7")
        rng = random.Random(1)
        core = timed(lambda: fold(state, decide(state, procedure, command, rng=rng)), 200)
        # Leave the expedition as it was: the party in room 6.
    return whole, core


def pane_times(path: Path) -> list[float]:
    """The rooms pane drawn on the real table at 80x24."""
    from delvetui.ui.app import DelveApp
    from delvetui.ui.panes.rooms_pane import RoomsPane

    found: list[float] = []

    async def run() -> None:
        app = DelveApp(path)
        async with app.run_test(size=(80, 24)) as pilot:
            while app.table is None or not app.table.loaded:
                await pilot.pause(0.05)
            pane = app.table.query_one(RoomsPane)
            found.extend(timed(pane.render, 200))
        if app.expedition is not None:
            app.expedition.close()  # the writer's lock, for the next round's go

    asyncio.run(run())
    return found


def cpu_of(argv: list[str], home: Path) -> float:
    """The processor time (user and system) of one ``delvetui`` process."""
    child = subprocess.Popen(
        [sys.executable, "-m", "delvetui", *argv],
        env=dict(os.environ, DELVETUI_HOME=str(home)),
        stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, argv
    return usage.ru_utime + usage.ru_stime


def act_times(path: Path, home: Path) -> list[float]:
    """``delvetui act X go ROOM`` as a process, there and back."""
    return [cpu_of(["act", str(path), "go", room], home) for room in ("7", "6")]


def status_times(path: Path, home: Path) -> tuple[list[float], list[float], list[float]]:
    """``status`` and ``status --json`` as processes (the processor time each took: the
    steadier figure on a busy machine); the JSON built in the process."""
    from delvetui.cli import status_data
    from delvetui.session import Expedition

    cpu = [cpu_of(["status", str(path), *extra], home) for extra in ([], ["--json"])]
    with Expedition.open(path, write=False, snapshot=True) as made:
        built = timed(lambda: status_data(made, odds=False), 20)
    return [cpu[0]], [cpu[1]], built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="delvetui-bench-rooms-"))
    os.environ["DELVETUI_HOME"] = str(home)
    try:
        paths = {n: make(home, n) for n in SIZES}
        figures: dict[str, dict[int, list[float]]] = {}

        def add(name: str, rooms: int, values: list[float]) -> None:
            figures.setdefault(name, {}).setdefault(rooms, []).extend(values)

        for round_number in range(args.rounds):
            order = list(SIZES) if round_number % 2 == 0 else list(reversed(SIZES))
            for rooms in order:
                whole, core = go_times(paths[rooms])
                add("go, a whole command (commit included)", rooms, whole)
                add("go, the core (decide and apply)", rooms, core)
                add(
                    "delvetui act X go ROOM, a process (processor time)",
                    rooms,
                    act_times(paths[rooms], home),
                )
                add("the rooms pane, drawn", rooms, pane_times(paths[rooms]))
                text, data, built = status_times(paths[rooms], home)
                add("delvetui status, a process (processor time)", rooms, text)
                add("delvetui status --json, a process (processor time)", rooms, data)
                add("status --json, built in the process", rooms, built)
            print(f"round {round_number + 1} of {args.rounds}", file=sys.stderr)
        head = " | ".join(f"{n} rooms" for n in SIZES)
        print(f"| | {head} | 500 / 10 |")
        print("|---|" + "---:|" * (len(SIZES) + 1))
        for name, by_size in figures.items():
            medians = {n: statistics.median(values) for n, values in by_size.items()}
            cells = " | ".join(_shown(medians[n]) for n in SIZES)
            print(f"| {name} | {cells} | {medians[SIZES[-1]] / medians[SIZES[0]]:.2f}× |")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _shown(seconds: float) -> str:
    if seconds >= 0.1:
        return f"{seconds * 1000:.0f} ms"
    if seconds >= 0.001:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds * 1_000_000:.0f} µs"


if __name__ == "__main__":
    main()
