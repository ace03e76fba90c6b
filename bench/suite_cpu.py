"""Where the test suite's processor time goes: each test's own CPU, added up by file.

Run from the repository root::

    python bench/suite_cpu.py              # the README's ``pytest -q -n auto``, measured
    python bench/suite_cpu.py --top 30     # and the thirty costliest tests

The suite runs as the README runs it, with this file loaded as a pytest plugin in every
worker (``-p suite_cpu``). A test's figure is its worker's user + system time over the
test (setup, call and teardown) and that of the child processes the test waited for.
The children of the workers' command servers (``tests/cli_server.py``) and the work
outside the tests (starting the workers, collecting) count only in the run's total. It also
counts the Textual apps the tests run (``App.run_test``) and the dialogs they open (modal
screens pushed): ``bench/ui_costs.py`` gives what one of each costs.

The machine's own speed moves these figures from run to run, by a quarter on the 2-core
machine of docs/performance.md: compare two versions in runs taken in turn.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

#: The folder each worker writes its figures to (set by the script for the run).
FOLDER = "DELVETUI_SUITE_CPU"
ROOT = Path(__file__).resolve().parent.parent

_rows: list[tuple[str, float, float, int, int]] = []
#: The apps run and the dialogs pushed so far in this process.
_counts = {"apps": 0, "dialogs": 0}


def pytest_configure(config: pytest.Config) -> None:
    """In the suite's processes, count the apps the tests run and the dialogs they open."""
    if os.environ.get(FOLDER):
        _count_apps_and_dialogs()


def _count_apps_and_dialogs() -> None:
    from textual.app import App
    from textual.screen import ModalScreen

    run_test, push_screen = App.run_test, App.push_screen

    def counted_run(self: Any, *args: Any, **options: Any) -> Any:
        _counts["apps"] += 1
        return run_test(self, *args, **options)

    def counted_push(self: Any, screen: Any, *args: Any, **options: Any) -> Any:
        if isinstance(screen, ModalScreen):
            _counts["dialogs"] += 1
        return push_screen(self, screen, *args, **options)

    App.run_test = counted_run  # type: ignore[method-assign]
    App.push_screen = counted_push  # type: ignore[method-assign]


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """Time one test, setup to teardown."""
    own, children = _cpu()
    apps, dialogs = _counts["apps"], _counts["dialogs"]
    yield
    own_after, children_after = _cpu()
    _rows.append(
        (
            item.nodeid,
            own_after - own,
            children_after - children,
            _counts["apps"] - apps,
            _counts["dialogs"] - dialogs,
        )
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Each process writes its tests' figures (the controller of a parallel run, none)."""
    folder = os.environ.get(FOLDER)
    if folder and _rows:
        path = Path(folder) / f"{os.getpid()}.json"
        path.write_text(json.dumps(_rows), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=0, help="also list the N costliest tests")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="delvetui-suite-cpu-")
    try:
        env = {**os.environ, FOLDER: folder}
        env["PYTHONPATH"] = os.pathsep.join(
            part for part in (str(ROOT / "bench"), env.get("PYTHONPATH", "")) if part
        )
        command = [sys.executable, "-m", "pytest", "-q", "-n", "auto", "-p", "suite_cpu"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([*command, *args.pytest_args], cwd=ROOT, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        rows: list[Any] = []
        for path in Path(folder).glob("*.json"):
            rows += json.loads(path.read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    user = after.ru_utime - before.ru_utime
    system = after.ru_stime - before.ru_stime
    own = sum(row[1] for row in rows)
    children = sum(row[2] for row in rows)
    print(f"\nwhole run: {wall:.1f} s wall, {user + system:.1f} s CPU ({system:.1f} s system)")
    print(f"{len(rows)} tests: {own + children:.1f} s CPU ({children:.1f} s in their children)")
    print(
        f"{sum(row[3] for row in rows)} Textual apps run, "
        f"{sum(row[4] for row in rows)} dialogs opened (bench/ui_costs.py: the cost of each)"
    )
    by_file: defaultdict[str, float] = defaultdict(float)
    for name, test_own, test_children, *_ in rows:
        by_file[name.split("::")[0]] += test_own + test_children
    print("\n  CPU (s)  file")
    for name, seconds in sorted(by_file.items(), key=lambda item: -item[1]):
        print(f"  {seconds:7.1f}  {name}")
    if args.top:
        print("\n  CPU (s)  test")
        for name, test_own, test_children, *_ in sorted(rows, key=lambda row: -(row[1] + row[2]))[
            : args.top
        ]:
            print(f"  {test_own + test_children:7.2f}  {name}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
