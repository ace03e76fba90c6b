"""The players' screen against the game master's turns, side by side.

Run from the repository root::

    python bench/bench_players.py            # 12 rounds of 10 turns each way
    python bench/bench_players.py --rounds 4 # quicker

In rounds, one turn after another is committed on a fresh copy of the Delving demo
expedition (``Expedition.execute("turn")``, each a real commit to disk), alternately with
no players' screen and with one watching: the real ``PlayersApp`` running headless in a
second process, as ``delvetui players`` runs it, a turn every 0.3 s both ways. It reports
the median time of one turn each way, and how long after each commit the players'
screen showed that turn (the screen prints the moment each fresh view is on screen; the
commit's moment is taken when ``execute`` returns, both on the same clock).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The watcher: the players' screen, printing when each fresh view is shown.
WATCHER = """
import sys, time
from pathlib import Path
from delvetui.ui.players.app import PlayersApp

class Timed(PlayersApp):
    def show(self, shown, stamp):
        super().show(shown, stamp)
        print(f"{time.time():.6f} {shown.clock}", flush=True)

Timed(Path(sys.argv[1])).run(headless=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--turns", type=int, default=10)
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="delvetui-bench-players-"))
    os.environ["DELVETUI_HOME"] = str(scratch)
    from delvetui.application import creation
    from delvetui.procedure.registry import find
    from delvetui.session import Expedition

    template = creation.create("demo", find("delving"), creation.DEMO_COMMANDS, seed=5)
    alone: list[float] = []
    watched: list[float] = []
    lags: list[float] = []
    for round_number in range(args.rounds * 2):
        with_screen = round_number % 2 == 1
        path = scratch / f"round{round_number}.delve"
        shutil.copyfile(template, path)
        watcher = None
        if with_screen:
            watcher = subprocess.Popen(
                [sys.executable, "-c", WATCHER, str(path)],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            assert watcher.stdout is not None
            watcher.stdout.readline()  # the first view is on screen
        commits: dict[str, float] = {}
        with Expedition.open(path) as table:
            for _ in range(args.turns):
                start = time.perf_counter()
                table.execute("turn hazard=6")
                took = time.perf_counter() - start
                commits[table.state.clock_text] = time.time()
                (watched if with_screen else alone).append(took)
                # A game master's pace, the same both ways (the screen catches up between;
                # turns back to back without it ran on a warmer processor than with it).
                time.sleep(0.3)
        if watcher is not None:
            assert watcher.stdout is not None
            last = max(commits)
            seen: dict[str, float] = {}
            deadline = time.time() + 10
            while last not in seen and time.time() < deadline:
                line = watcher.stdout.readline()
                if not line:
                    break
                moment, _, words = line.strip().partition(" ")
                # "Day 1, 08:10 (morning)": the clock is the third word.
                clock = words.split(" ")[2] if words.count(" ") >= 2 else ""
                seen.setdefault(clock, float(moment))
            watcher.terminate()
            watcher.wait()
            lags += [seen[clock] - commits[clock] for clock in commits if clock in seen]
    shutil.rmtree(scratch, ignore_errors=True)

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:.1f} ms"

    print(f"one turn, no players' screen:      {ms(alone)} (median of {len(alone)})")
    print(f"one turn, a players' screen open:  {ms(watched)} (median of {len(watched)})")
    print(
        f"commit to the players' screen:     {ms(lags)} median, "
        f"{max(lags) * 1000:.0f} ms at most ({len(lags)} commits)"
    )


if __name__ == "__main__":
    main()
