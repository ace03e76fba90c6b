"""Shared fixtures: an isolated data folder and a way to open real expeditions."""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from delvetui.core import events as ev
from delvetui.core.timeline import Batch
from delvetui.procedure.registry import find
from delvetui.session import Expedition

Factory = Callable[..., Expedition]
E = TypeVar("E", bound=ev.Event)


def pytest_configure(config: pytest.Config) -> None:
    """Keep the tests' temporary folders in memory where the system has a RAM disk.

    Every commit waits for the disk (``synchronous=FULL``); on /dev/shm that wait is free,
    so the suite's time is its own work, not the disk's. The files are the same real SQLite
    files either way. ``--basetemp`` or PYTEST_DEBUG_TEMPROOT still choose another place.
    """
    shm = "/dev/shm"
    if (
        config.option.basetemp is None
        and "PYTEST_DEBUG_TEMPROOT" not in os.environ
        and os.path.isdir(shm)
        and os.access(shm, os.W_OK)
    ):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = shm
        # At exit, after pytest's own clean-up of the run's folder (registered later).
        atexit.register(_remove_empty_roots, Path(shm))
    _keep_bytecode(config)
    _collect_less_often()


def _remove_empty_roots(folder: Path) -> None:
    """Take away pytest's folder for the user (``pytest-of-NAME``) once it is empty.

    pytest removes the run's own folder inside it when every test passed, but leaves the
    folder itself; the run leaves nothing behind on the RAM disk. A folder still holding
    something (a failed test's files, another run's) stays.
    """
    for root in folder.glob("pytest-of-*"):
        with contextlib.suppress(OSError):
            root.rmdir()


def _collect_less_often() -> None:
    """Run Python's cycle collector less often in the test processes.

    The table's tests make Textual build and drop great numbers of small objects (styles,
    strips, segments, messages) with every key; with the default thresholds the collector
    ran over them again and again, about a sixth of those tests' processor time (the UI
    tests: 124.5 s to 106 s of CPU). Garbage is still collected, in larger rounds; nothing
    a test checks depends on when.
    """
    gc.set_threshold(*_TEST_COLLECTOR)


#: Python's own thresholds (read before the change above), and the test processes' own.
_PYTHON_COLLECTOR = gc.get_threshold()
_TEST_COLLECTOR = (50_000, 50, 100)


@pytest.fixture
def python_collector() -> Iterator[None]:
    """Python's own collector thresholds for one test: a test that measures memory.

    The peak a game master's program reaches is measured as the program runs, collector
    and all; the larger rounds of the test processes would count garbage as held.
    """
    gc.set_threshold(*_PYTHON_COLLECTOR)
    try:
        yield
    finally:
        gc.set_threshold(*_TEST_COLLECTOR)


#: The folder of this run's compiled modules, handed from the controller to its workers.
_BYTECODE = "DELVETUI_TEST_BYTECODE"


def _keep_bytecode(config: pytest.Config) -> None:
    """Let every ``python -m delvetui`` the tests start reuse the compiled modules.

    Where PYTHONDONTWRITEBYTECODE is set (as on this machine), each of the suite's hundreds
    of command-line runs compiled delvetui from source again, which no installed delvetui
    does. The bytecode goes to a folder of this run (PYTHONPYCACHEPREFIX for the processes
    the tests start), never beside the sources, and is removed at the end. A prefix the
    caller chose is left alone.

    The parallel workers themselves start without the prefix: with one, Python looks for
    every module's bytecode there only, so each worker compiled Textual, Rich, pytest and
    the standard library again (about 5 s of processor each). The controller names the
    folder in DELVETUI_TEST_BYTECODE and each worker sets the prefix for its children.
    """
    if "PYTHONPYCACHEPREFIX" in os.environ:
        return
    folder = os.environ.get(_BYTECODE)
    if folder is None:
        folder = tempfile.mkdtemp(prefix="delvetui-test-bytecode-")
        os.environ[_BYTECODE] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
        if config.getoption("dist", "no") != "no":
            return  # the controller: its workers set the prefix for what they start
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: three workers for every two processors.

    A UI test spends much of its time waiting (Pilot lets the app go idle after each key,
    a follow test waits on the app's timer) and a reliability test waits on the processes
    it starts; with one worker per processor those waits leave the processor idle, and
    one worker's wait is another's turn. Two per processor were too many: every worker
    collects the whole suite again, and each test took longer, with its app's timers
    running meanwhile. A whole run on two cores: 3:47 with two workers, 3:21 with three,
    3:49 with four.
    """
    processors = os.cpu_count() or 1
    return processors + (processors + 1) // 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long tests (``@pytest.mark.long``: several seconds each) are spread evenly.

    In collection order they sat together (the keys-only sessions, the kill tests, the
    fault trials), and pytest-xdist hands each worker a run of consecutive tests: one
    worker got them all and played on long after the others had finished. Spread out,
    every worker's share holds its part of them. The order is the same in every worker,
    as pytest-xdist requires.
    """
    long = [item for item in items if item.get_closest_marker("long")]
    if not long:
        return
    short = [item for item in items if not item.get_closest_marker("long")]
    step = len(short) / len(long)
    spread: list[pytest.Item] = []
    for index, item in enumerate(long):
        spread.append(item)
        spread.extend(short[round(index * step) : round((index + 1) * step)])
    items[:] = spread


def pytest_collection_finish(session: pytest.Session) -> None:
    """Set aside what collection made (the modules, their classes and functions, the tests).

    Those objects live as long as the process; without this, every full round of the cycle
    collector went over all of them again (``gc.freeze``: about a fifth of the collector's
    time in a whole run). Garbage made by the tests is collected as before.
    """
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own DELVETUI_HOME, so no test touches the user's files."""
    folder = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DELVETUI_HOME", str(folder))
    return folder


@pytest.fixture(autouse=True)
def notices_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A notification stays up for the whole of a UI test, however slowly a loaded machine
    runs it (Textual's default is 5 s): tests check what was said, not for how long. What
    each app says is noted for ``tests.ui_support.notices``."""
    from textual.app import App

    from tests.ui_support import keep_notices

    monkeypatch.setattr(App, "NOTIFICATION_TIMEOUT", 300.0)
    keep_notices(monkeypatch)


@pytest.fixture
def expedition(home: Path) -> Iterator[Factory]:
    """Make a real expedition file for a shipped procedure: expedition("delving", seed=1)."""
    opened: list[Expedition] = []

    def make(
        procedure: str, *, seed: int = 1, start: str | None = None, name: str = "test"
    ) -> Expedition:
        created = Expedition.create(home / f"{name}.delve", find(procedure), seed=seed, start=start)
        opened.append(created)
        return created

    yield make
    for item in opened:
        item.close()


def run(expedition: Expedition, *commands: str) -> None:
    """Apply commands one after another, as a game master would type them."""
    for command in commands:
        expedition.execute(command)


def of(batch: Batch, kind: type[E]) -> list[E]:
    """The events of one type in a command's batch, in order."""
    return [event for event in batch.events if isinstance(event, kind)]


def rolled(batch: Batch) -> list[str]:
    """The keys of the dice a command rolled, in order."""
    return [roll.key for roll in of(batch, ev.DiceRolled)]


def reopened(expedition: Expedition) -> Expedition:
    """Close and open the file again, replaying it from disk."""
    path = expedition.path
    expedition.close()
    return Expedition.open(path)


def replays_the_same(expedition: Expedition) -> None:
    """The file, closed and replayed from disk, gives the state the live expedition has."""
    state = expedition.state
    again = reopened(expedition)
    try:
        assert again.state == state
    finally:
        again.close()
