"""Table-screen benchmarks: first paint against a bare app, and one turn against log length.

Run from the repository root::

    python bench/bench_ui.py            # 1,000 and 100,000 events, about a minute
    python bench/bench_ui.py --quick    # 1,000 and 10,000 events

It reuses the expeditions ``bench_core.py`` generates (and caches), copies each to a
scratch folder, and drives the real app headless (``App.run_test``), side by side in one
run:

- first paint: from creating the app to the first refresh after the table is mounted;
  the bare app composes the same widgets with an empty state and no file at all;
- log loaded: when the whole turn log has been read in (the table is usable before);
- one turn: from asking for ``turn`` to the state on screen, the median of many turns.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import cached
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen

from delvetui.core.state import State
from delvetui.procedure.registry import find
from delvetui.ui import table_screen
from delvetui.ui.action_pane import ActionPane
from delvetui.ui.app import DelveApp
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

    def compose(self) -> ComposeResult:
        procedure = find("delving")
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

    def __init__(self) -> None:
        super().__init__()
        self.painted = 0.0

    def on_mount(self) -> None:
        self.push_screen(BareScreen())


async def bare_paint() -> float:
    start = time.perf_counter()
    app = BareApp()
    async with app.run_test(size=SIZE) as pilot:
        while not app.painted:
            await pilot.pause(0.001)
    return app.painted - start


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
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "delvetui-bench"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--turns", type=int, default=20)
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    sizes = [1_000, 10_000 if args.quick else 100_000]
    work = Path(tempfile.mkdtemp(prefix="delvetui-bench-ui-"))
    try:
        asyncio.run(bare_paint())  # warm up: imports, the first parse of the styles
        bare = statistics.median(asyncio.run(bare_paint()) for _ in range(args.repeats))
        print(f"bare app, same widgets: first paint {bare * 1000:.0f} ms")
        results = {}
        for events in sizes:
            source, _, _ = cached(args.cache, events, seed=1)
            paints, loads, turn_times = [], [], []
            for _ in range(args.repeats):
                copy = work / f"b{events}.delve"
                shutil.copyfile(source, copy)
                paint, loaded, times = asyncio.run(table(copy, args.turns))
                paints.append(paint)
                loads.append(loaded)
                turn_times.extend(times)
            results[events] = statistics.median(turn_times)
            print(
                f"{events:>7,} events: first paint {statistics.median(paints) * 1000:.0f} ms "
                f"({statistics.median(paints) / bare:.2f}× bare), log loaded "
                f"{statistics.median(loads) * 1000:.0f} ms, one turn "
                f"{statistics.median(turn_times) * 1000:.1f} ms"
            )
        small, large = results[sizes[0]], results[sizes[-1]]
        print(f"one turn at {sizes[-1]:,} / at {sizes[0]:,} events: {large / small:.2f}×")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
