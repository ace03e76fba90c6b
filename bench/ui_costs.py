"""What the table's tests pay for each app they open, each turn and each dialog.

Run from the repository root, with the test tools installed::

    python bench/ui_costs.py              # at 120x40, the size most table tests use
    python bench/ui_costs.py --size 80x24

Each figure is the processor time (user + system) of this one process, the median of
``--runs`` tries after one to warm up, measured the way the suite's table tests do it:
``App.run_test`` driven by Pilot, waiting with the suite's own ``settle`` and ``ready``
(tests/ui_support.py) on the demo party. With ``bench/suite_cpu.py``'s count of apps run
and dialogs opened in a whole run, it says how much of the suite's time is the table's.

- **an empty Textual app**: ``App()`` started and stopped, Textual's own floor;
- **the table opened**: the app on a saved expedition until the log is read and the keys
  are in the footer, then closed; and of that, Textual parsing its stylesheets
  (``Stylesheet.parse``, done again for every app);
- **a turn**: ``n`` until the turn is saved and drawn (a turn that asks, for a sign's
  creature or a roll, is answered; the median is a turn that does not);
- **a dialog**: ``l`` (the lights) and Escape; and of that, the dialog's screen drawing the
  dimmed table beneath it (Textual draws a modal screen over a translucent background
  from the whole screen under it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Processor time spent inside the wrapped calls, by name (reset for each try).
_inside: dict[str, float] = {}


def _timed(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """The method, adding the processor time spent in it to ``_inside[name]``."""

    def timed(*args: Any, **options: Any) -> Any:
        start = time.process_time()
        try:
            return method(*args, **options)
        finally:
            _inside[name] = _inside.get(name, 0.0) + time.process_time() - start

    return timed


async def _measure(
    runs: int, attempt: Callable[[], Awaitable[None]]
) -> tuple[float, dict[str, float]]:
    """The median processor time of one attempt, and of the wrapped calls inside it."""
    await attempt()  # warm up: the first try imports and builds caches
    totals: list[float] = []
    parts: dict[str, list[float]] = {}
    for _ in range(runs):
        _inside.clear()
        start = time.process_time()
        await attempt()
        totals.append(time.process_time() - start)
        for name, seconds in _inside.items():
            parts.setdefault(name, []).append(seconds)
    return statistics.median(totals), {k: statistics.median(v) for k, v in parts.items()}


async def _run(runs: int, size: tuple[int, int]) -> list[tuple[str, float, dict[str, float]]]:
    from textual.app import App
    from textual.css.stylesheet import Stylesheet
    from textual.widgets import Input

    from delvetui.ui.app import DelveApp
    from delvetui.ui.dialogs.light_dialog import LightDialog
    from delvetui.ui.dialogs.roll_prompt import RollPrompt
    from tests.ui_support import PARTY, make, ready, settle

    Stylesheet.parse = _timed("stylesheets parsed", Stylesheet.parse)  # type: ignore[method-assign]
    LightDialog.render_lines = _timed(  # type: ignore[method-assign]
        "the dimmed table drawn", LightDialog.render_lines
    )
    results: list[tuple[str, float, dict[str, float]]] = []

    async def empty() -> None:
        async with App[None]().run_test(size=size) as pilot:
            await pilot.pause()

    async def opened() -> None:
        async with DelveApp(make()).run_test(size=size) as pilot:
            await ready(pilot)

    results.append(("an empty Textual app", *await _measure(runs, empty)))
    results.append(("the table opened", *await _measure(runs, opened)))

    # A lit lantern as well as the torch: Delving's "burn" puts out torches, and a turn
    # into darkness would stop to ask.
    app = DelveApp(make("long", (*PARTY, "light add lantern carrier=Bryn lit")))
    async with app.run_test(size=size) as pilot:
        await ready(pilot)

        async def turn() -> None:
            await pilot.press("n")
            await settle(pilot)
            for _ in range(5):  # a sign may ask: the first choice, or a roll of 2
                screen = app.screen
                if screen is app.table:
                    return
                if not isinstance(screen, RollPrompt):
                    await pilot.press("1")
                elif screen.query_one(Input).value:
                    await pilot.press("enter")
                else:
                    await pilot.press("2", "enter")
                await settle(pilot)
            raise AssertionError(f"the turn still asks: {app.screen}")

        async def dialog() -> None:
            await pilot.press("l")
            await settle(pilot)
            assert isinstance(app.screen, LightDialog)
            await pilot.press("escape")
            await settle(pilot)

        results.append(("a turn", *await _measure(runs, turn)))
        results.append(("a dialog opened and closed", *await _measure(runs, dialog)))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="tries of each (the median)")
    parser.add_argument("--size", default="120x40", help="the terminal, WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    home = tempfile.mkdtemp(prefix="delvetui-ui-costs-")
    os.environ["DELVETUI_HOME"] = home
    try:
        results = asyncio.run(_run(args.runs, (width, height)))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"processor time, median of {args.runs}, at {width}x{height}:")
    for name, seconds, parts in results:
        print(f"  {name:<28} {seconds * 1000:7.1f} ms")
        for part, inside in parts.items():
            print(f"    of it, {part:<22}{inside * 1000:5.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
