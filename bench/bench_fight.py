"""A fight of 50 rounds against 20 foes: the table's key to repaint and ``act``, by round.

Run from the repository root::

    python bench/bench_fight.py            # 50 rounds, both measures: about two minutes
    python bench/bench_fight.py --rounds 20

Each measure plays the same fight on a fresh Old-School Essentials expedition: a party of
four, a lit torch, twenty goblins (``foe add goblin count=20 hp=999 morale=12``: none
falls or breaks, so every round has all twenty on the pane) and ``fight``. Then, round
after round:

- the table (the real ``DelveApp``, headless at 80x24): ``F`` pressed for the next round,
  timed from the key to the new round on screen, and a goblin hurt through the table's
  command (``foe goblinN hp=-1``), timed from the command to its line in the pane;
- ``act``: ``delvetui act X round initiative=3,4`` and ``delvetui act X foe goblinN hp=-1``
  as whole processes, as another tool scripts it.

It prints the median of the first ten rounds and of the last ten for each, and their
ratio: flat in rounds is a ratio near 1. Each is given as wall time and as CPU time (the
process's own for the table, the child's for ``act``): on a machine shared with other
work the wall times move with the load, the CPU times far less.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZE = (80, 24)
SETUP = (
    "pc add Ash hp=8 STR=16 MV=120",
    "pc add Bryn hp=6 MV=120",
    "pc add Cora hp=5 MV=120",
    "pc add Dag hp=7 MV=120",
    "light add torch count=4 carrier=Ash",
    "light on torch",
    "foe add goblin count=20 hp=999 morale=12",
    "fight initiative=4,2",
)


def make(home: Path, name: str) -> Path:
    from delvetui.procedure.registry import find
    from delvetui.session import Expedition

    path = home / f"{name}.delve"
    with Expedition.create(path, find("ose"), seed=40) as expedition:
        for command in SETUP:
            expedition.execute(command)
    return path


Timings = tuple[list[float], list[float]]  # wall, CPU


def timings() -> Timings:
    return [], []


async def table(path: Path, rounds: int) -> tuple[Timings, Timings]:
    """Each round's key-to-repaint (F) and a foe hurt through the table, in seconds."""
    from delvetui.ui.app import DelveApp
    from delvetui.ui.panes.encounter_pane import EncounterPane

    app = DelveApp(path)
    keys, hurts = timings(), timings()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.table
        while screen is None or not screen.loaded:
            await pilot.pause(0.005)
            screen = app.table
        screen.table_dice = False
        expedition = app.expedition
        assert expedition is not None
        pane = screen.query_one(EncounterPane)
        for number in range(rounds):
            fight = expedition.state.fight
            assert fight is not None
            begin, cpu = time.perf_counter(), time.process_time()
            await pilot.press("F")
            while pane.state.fight is None or pane.state.fight.round == fight.round:
                await pilot.pause(0)
            await pilot.pause(0)
            keys[0].append(time.perf_counter() - begin)
            keys[1].append(time.process_time() - cpu)
            name = f"goblin{number % 20 + 1}"
            hp = expedition.state.foe(name).hp  # type: ignore[union-attr]
            begin, cpu = time.perf_counter(), time.process_time()
            screen.run(f"foe {name} hp=-1")
            while pane.state.foe(name).hp == hp:  # type: ignore[union-attr]
                await pilot.pause(0)
            await pilot.pause(0)
            hurts[0].append(time.perf_counter() - begin)
            hurts[1].append(time.process_time() - cpu)
    app.close_expedition()
    return keys, hurts


def _children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def act(path: Path, rounds: int, env: dict[str, str]) -> tuple[Timings, Timings]:
    """Each round's ``act … round`` and ``act … foe NAME hp=-1``, whole processes."""
    command = [sys.executable, "-m", "delvetui", "act", str(path)]
    rounds_taken, hurts = timings(), timings()
    for number in range(rounds):
        for words, times in (
            (["round", "initiative=3,4"], rounds_taken),
            (["foe", f"goblin{number % 20 + 1}", "hp=-1"], hurts),
        ):
            begin, cpu = time.perf_counter(), _children()
            done = subprocess.run([*command, *words], env=env, capture_output=True, text=True)
            times[0].append(time.perf_counter() - begin)
            times[1].append(_children() - cpu)
            if done.returncode:
                raise SystemExit(done.stderr)
    return rounds_taken, hurts


def line(what: str, times: Timings) -> str:
    cells = []
    for kind in times:
        first = statistics.median(kind[:10]) * 1000
        last = statistics.median(kind[-10:]) * 1000
        cells.append(f"{first:.1f} → {last:.1f} ms | {last / first:.2f}")
    return f"| {what} | {' | '.join(cells)} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="delvetui-bench-fight-"))
    os.environ["DELVETUI_HOME"] = str(home)
    env = {**os.environ, "DELVETUI_HOME": str(home)}
    try:
        keys, hurts = asyncio.run(table(make(home, "at-the-table"), args.rounds))
        rounds, foes = act(make(home, "from-the-shell"), args.rounds, env)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"A fight of {args.rounds} rounds against 20 foes (median of the first and last ten)")
    print()
    print("| measure | wall, rounds 1-10 → last 10 | ratio | CPU, 1-10 → last 10 | ratio |")
    print("|---|---:|---:|---:|---:|")
    print(line("table: F, key to the new round on screen", keys))
    print(line("table: a foe hurt, command to its line in the pane", hurts))
    print(line("`delvetui act X round initiative=3,4`", rounds))
    print(line("`delvetui act X foe goblinN hp=-1`", foes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
