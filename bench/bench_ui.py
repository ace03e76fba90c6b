"""Table-screen benchmarks: first paint against a bare app, and one turn against log length.

Run from the repository root::

    python bench/bench_ui.py            # 1,000 and 100,000 events, about 5 minutes
    python bench/bench_ui.py --quick    # 1,000 and 10,000 events
    python bench/bench_ui.py --verbose  # also every round's first paint

It reuses the expeditions ``bench_core.py`` generates (and caches, in the same folder),
copies each to a scratch folder (written out to disk before anything is timed), and drives
the real app headless (``App.run_test``, 120x40), side by side in one run:

- first paint: from creating the app to the first refresh after the table is mounted, each
  in a fresh process with the imports done, in rounds that paint the bare app and then the
  table on each file; the bare app composes the same widgets with an empty state and no
  file at all, and the table starts as ``delvetui`` starts it (``settle_imports`` first;
  one row without it). The files are the 1,000- and 100,000-event expeditions as a game
  master leaves them (closed, so their snapshot is current) and the large one as a crash
  leaves it (24 commands after its last snapshot);
- log loaded: when the whole turn log has been read in (the table is usable before);
- one turn: from asking for ``turn`` to the state on screen, the median of many turns.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import SEED, cached, copy_synced
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen

from delvetui import session
from delvetui.core.state import State
from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui import table_screen
from delvetui.ui.action_pane import ActionPane
from delvetui.ui.app import DelveApp, settle_imports
from delvetui.ui.command_line import CommandLine
from delvetui.ui.counters import Counters
from delvetui.ui.hazard_table import HazardTable
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.light_inventory import LightInventory
from delvetui.ui.party_roster import PartyRoster
from delvetui.ui.session_bar import SessionBar
from delvetui.ui.status_bar import StatusBar
from delvetui.ui.time_dice import TimeDice
from delvetui.ui.turn_log import TurnLog

SIZE = (120, 40)
CSS = Path(table_screen.__file__).with_name("delvetui.tcss")


class BareScreen(Screen[None]):
    """The table's widgets and keys with the same styles, an empty state, no expedition."""

    BINDINGS = table_screen.TableScreen.BINDINGS

    def __init__(self, procedure: Procedure) -> None:
        super().__init__()
        self.procedure = procedure

    def compose(self) -> ComposeResult:
        procedure = self.procedure
        yield StatusBar(procedure)
        yield SessionBar(id="session-offer")
        with Horizontal(id="body"):
            yield TurnLog(id="log")
            with VerticalScroll(id="side"):
                yield PartyRoster(procedure, id="roster")
                yield LightInventory(procedure, id="lights")
                yield TimeDice(procedure, id="time")
                yield HazardTable(procedure, id="hazard")
                yield Counters(procedure, id="counters")
                yield ActionPane(procedure, id="action")
        yield CommandLine(lambda: (State(), procedure), id="command")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.call_after_refresh(self._mark)

    def _mark(self) -> None:
        app = self.app
        assert isinstance(app, BareApp)
        app.painted = time.perf_counter()


class BareApp(App[None]):
    """A bare Textual app showing the bare table screen."""

    CSS_PATH = str(CSS)

    def __init__(self, procedure: Procedure) -> None:
        super().__init__()
        self.procedure = procedure
        self.painted = 0.0

    def on_mount(self) -> None:
        self.push_screen(BareScreen(self.procedure))


async def bare_paint() -> float:
    procedure = find("delving")  # a bare app reads no procedure: found before the clock starts
    start = time.perf_counter()
    app = BareApp(procedure)
    async with app.run_test(size=SIZE):
        while not app.painted:
            await asyncio.sleep(0.001)  # polled as the table's paint is
    return app.painted - start


def fresh_paint(target: str) -> tuple[float, float]:
    """First paint (and log loaded) in a process of its own: ``bare`` or an expedition."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", target],
        check=True,
        capture_output=True,
        text=True,
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return float(found["paint"]), float(found.get("loaded", 0.0))


def child(target: str) -> None:
    """What a fresh process measures: imports are done, the app is not created yet.

    ``bare``, or ``settled:PATH`` (the table started as ``delvetui`` starts it, with
    ``settle_imports`` first) or ``unsettled:PATH`` (without it).
    """
    if target == "bare":
        print(json.dumps({"paint": asyncio.run(bare_paint())}))
        return
    how, path = target.split(":", 1)
    if how == "settled":
        settle_imports()
    paint, loaded, _times = asyncio.run(table(Path(path), 0))
    print(json.dumps({"paint": paint, "loaded": loaded}))


def crashed(path: Path) -> None:
    """Play commands the way a crash leaves them: after the last snapshot, none at closing."""
    expedition = Expedition.open(path, snapshot=True)
    try:
        while expedition.batch_count - expedition.snapshot_batch < session.SNAPSHOT_EVERY - 1:
            expedition.execute("turn")
    finally:
        expedition.close(snapshot=False)


async def table(path: Path, turns: int) -> tuple[float, float, list[float]]:
    """First paint, log loaded (seconds from start) and the time of each turn."""
    painted: list[float] = []
    mount = table_screen.TableScreen.on_mount

    def on_mount(screen: table_screen.TableScreen) -> None:
        mount(screen)
        screen.call_after_refresh(lambda: painted.append(time.perf_counter()))

    table_screen.TableScreen.on_mount = on_mount  # type: ignore[method-assign, assignment]
    try:
        start = time.perf_counter()
        app = DelveApp(path)
        async with app.run_test(size=SIZE) as pilot:
            while not painted:
                await asyncio.sleep(0.001)
            screen = app.table
            assert screen is not None and app.expedition is not None
            while not screen.loaded:
                await asyncio.sleep(0.005)
            loaded = time.perf_counter()
            times = []
            for _ in range(turns):
                before = app.expedition.state.turn
                begin = time.perf_counter()
                screen.run("turn")
                while app.expedition.state.turn == before:
                    await pilot.pause(0)
                await pilot.pause(0)
                times.append(time.perf_counter() - begin)
        app.close_expedition()
    finally:
        table_screen.TableScreen.on_mount = mount  # type: ignore[method-assign]
    return painted[0] - start, loaded - start, times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 events instead of 100,000")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(
            os.environ.get("DELVETUI_BENCH_CACHE")
            or Path(tempfile.gettempdir()) / "delvetui-bench-cache"
        ),
        help="folder of generated files, shared with bench_core.py",
    )
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--turns", type=int, default=20, help="turns timed in each of 3 rounds")
    parser.add_argument("--verbose", action="store_true", help="print every first paint")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    args.cache.mkdir(parents=True, exist_ok=True)
    small, large = 1_000, 10_000 if args.quick else 100_000
    work = Path(tempfile.mkdtemp(prefix="delvetui-bench-ui-"))
    try:
        after_crash = work / "crashed.delve"
        copy_synced(cached(args.cache, large, seed=SEED)[0], after_crash)
        crashed(after_crash)
        cases = {
            f"{small:,} events": cached(args.cache, small, seed=SEED)[0],
            f"{large:,} events": cached(args.cache, large, seed=SEED)[0],
            f"{large:,} events, after a crash": after_crash,
        }
        # The table only reads a file until a command is played, so the first-paint rounds
        # share one copy of each, made before any timing: copying 17 MB just before a run
        # leaves the kernel writing it out during the run, which slowed the large file by
        # tens of milliseconds that no game master opening an expedition ever pays.
        copies = {}
        for number, (case, source) in enumerate(cases.items()):
            copies[case] = work / f"paint-{number}.delve"
            copy_synced(source, copies[case])
        # Side by side: each round paints the bare app and then the table on every file,
        # so a slow moment of the machine falls on all of them alike. Each paint is a fresh
        # process, as a game master's start is: no run inherits another's heap or threads.
        bare: list[float] = []
        paints: dict[str, list[float]] = {case: [] for case in cases}
        ratios: dict[str, list[float]] = {case: [] for case in cases}
        loads: dict[str, list[float]] = {case: [] for case in cases}
        unsettled = f"{small:,} events, without settle_imports (gc.freeze) at start"
        paints[unsettled], ratios[unsettled], loads[unsettled] = [], [], []
        for _ in range(args.repeats):
            bare.append(fresh_paint("bare")[0])
            paint, loaded = fresh_paint(f"unsettled:{copies[f'{small:,} events']}")
            paints[unsettled].append(paint)
            ratios[unsettled].append(paint / bare[-1])
            loads[unsettled].append(loaded)
            for case in cases:
                paint, loaded = fresh_paint(f"settled:{copies[case]}")
                paints[case].append(paint)
                ratios[case].append(paint / bare[-1])
                loads[case].append(loaded)
        # Turns change the file: each round plays on a fresh copy.
        turn_times: dict[str, list[float]] = {case: [] for case in cases}
        for _ in range(3):
            for case, source in cases.items():
                copy = work / "turns.delve"
                copy_synced(source, copy)
                gc.collect()
                turn_times[case].extend(asyncio.run(table(copy, args.turns))[2])
        median_bare = statistics.median(bare)
        print(f"first paint, median of {args.repeats} rounds (the bare app first in each):")
        print(f"  bare app, same widgets: {median_bare * 1000:.0f} ms")
        if args.verbose:
            print("    every round:", " ".join(f"{t * 1000:.0f}" for t in bare))
        for case in paints:
            paint = statistics.median(paints[case])
            print(
                f"  {case}: {paint * 1000:.0f} ms, {paint / median_bare:.2f}× bare"
                f" (each round's own ratio: median {statistics.median(ratios[case]):.2f}×);"
                f" log loaded {statistics.median(loads[case]) * 1000:.0f} ms"
            )
            if args.verbose:
                print("    every round:", " ".join(f"{t * 1000:.0f}" for t in paints[case]))
        print(f"one turn, median of {3 * args.turns} turns:")
        for case in cases:
            print(f"  {case}: {statistics.median(turn_times[case]) * 1000:.1f} ms")
        first, last = (statistics.median(turn_times[case]) for case in list(cases)[:2])
        print(f"  one turn at {large:,} / at {small:,} events: {last / first:.2f}×")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
