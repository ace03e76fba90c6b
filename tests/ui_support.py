"""Helpers for the UI tests: ready expeditions, waiting on the app, and the screen as text."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import html
import re
import shutil
import tempfile
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.app import App
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerCancelled, WorkerError, WorkerFailed

from delvetui import paths
from delvetui.application import creation
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.table.screen import TableScreen
from tests.shipped import SHIPPED as SHIPPED

#: The five shipped procedures of the first release, for tests that run on each.
PROCEDURES = ["delving", "exploration", "dungeon-turn", "trespasser", "travel-turn"]
#: Every procedure that ships, for the checks a game master of any of them relies on.
#: A party any shipped procedure can take, with a lantern unlit before the lit torch, and
#: three turns with the expedition's own dice.
ANY_PROCEDURE_PARTY = (
    "pc add Ash hp=6",
    "pc add Bryn hp=5",
    "pc add Cora hp=4",
    "light add lantern carrier=Bryn",
    "light add torch count=6 carrier=Ash lit",
    "turn",
    "turn",
    "turn",
)

SIZES = [(120, 40), (80, 24)]
#: The party and lights most tests play with (the demo's, with a fixed seed).
PARTY = creation.DEMO_COMMANDS


_TEMPLATES: dict[tuple[str, tuple[str, ...], str, int], Path] = {}
_TEMPLATE_DIR = Path(tempfile.mkdtemp(prefix="delvetui-ui-templates-"))
atexit.register(shutil.rmtree, _TEMPLATE_DIR, ignore_errors=True)


def make(
    name: str = "crypt",
    commands: Sequence[str] = PARTY,
    *,
    procedure: str = "delving",
    seed: int = 3,
) -> Path:
    """A saved expedition with these commands already played.

    The first call builds it through the table's own creation; later calls copy that
    file, which keeps the suite quick (each commit waits for the disk).
    """
    key = (name, tuple(commands), procedure, seed)
    target = paths.new_expedition_path(name)
    template = _TEMPLATES.get(key)
    if template is None:
        made = creation.create(name, find(procedure), commands, seed=seed)
        template = _TEMPLATE_DIR / f"{len(_TEMPLATES)}.delve"
        shutil.copyfile(made, template)
        _TEMPLATES[key] = template
        return made
    shutil.copyfile(template, target)
    return target


def _busy(app: App[Any]) -> list[Worker[Any]]:
    """The workers the app is still running for what it was asked.

    While a dialog is up, only the dialog's own workers count: a command that asked the
    question waits for its answer, which a test gives after this wait.
    """
    workers = [worker for worker in app.workers if not worker.is_finished]
    screen = app.screen
    if isinstance(screen, ModalScreen):
        workers = [worker for worker in workers if _on(worker, screen)]
    return workers


def _on(worker: Worker[Any], screen: Screen[Any]) -> bool:
    node: DOMNode | None = worker.node
    while node is not None:
        if node is screen:
            return True
        node = node.parent
    return False


async def settle(pilot: Pilot[None], *, idle: bool = True) -> None:
    """Wait until the app has done what the last input set off, by Textual's own signals.

    Every message queued on the app and its screen is handled (``pilot.pause(0)``); every
    worker started for it finishes (``Worker.wait``), unless it pushes a dialog first
    (``App.screen_change_signal``) and waits for the answer; this repeats while finished
    work set off more (a command whose batch starts a redraw that starts a worker). Then
    ``pilot.pause()``: the process has gone idle, the screen is painted. With ``idle``
    false, the screen is painted once more (``pilot.pause(0)``) without waiting for the
    process to go idle: for a test that reads the app's state, not its screen, and whose
    next input (``pilot.press``) waits for idle itself.
    """
    app = pilot.app
    await pilot.pause(0)
    while busy := _busy(app):
        changed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        app.screen_change_signal.subscribe(app, functools.partial(_changed, changed))
        # Shielded: giving up the wait when a dialog comes up must not cancel the work.
        waits = [asyncio.shield(_finished(worker)) for worker in busy]
        pending: set[asyncio.Future[None]] = set(waits)
        try:
            while pending and not changed.done():
                _, pending = await asyncio.wait(
                    [*pending, changed], return_when=asyncio.FIRST_COMPLETED
                )
                pending.discard(changed)
        finally:
            app.screen_change_signal.unsubscribe(app)
        await pilot.pause(0)
    await (pilot.pause() if idle else pilot.pause(0))


def _changed(changed: asyncio.Future[None], screen: Screen[Any]) -> None:
    if not changed.done():
        changed.set_result(None)


async def _finished(worker: Worker[Any]) -> None:
    """Until the worker has ended, however it ended (its errors are the app's to report)."""
    with contextlib.suppress(WorkerError, WorkerCancelled, WorkerFailed, asyncio.CancelledError):
        await worker.wait()


async def sized(pilot: Pilot[None], size: tuple[int, int]) -> None:
    """The terminal at this size, as a game master resizing it (nothing when it already is)."""
    if pilot.app.size != size:
        await pilot.resize_terminal(*size)


async def settled(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    """Settle the app (``settle``), then the condition must hold."""
    await settle(pilot)
    assert condition(), "after the app settled, the condition does not hold"


async def palette_run(pilot: Pilot[None], text: str) -> None:
    """Open the command palette, type ``text`` and run the match it highlights.

    The palette searches in the background and may still be showing an older match when
    the typing ends, so this waits until the highlighted command holds the typed words
    (settling the app between looks, at most a few hundred times) before pressing Enter.
    """
    from textual.command import CommandList, CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await settled(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*text)
    found = app.screen.query_one(CommandList)
    for _ in range(300):
        await settle(pilot)
        option = found.highlighted_option
        if option is not None and text.lower() in str(option.prompt).lower():
            break
        await pilot.pause(0.01)
    else:
        raise AssertionError(f"the palette never highlighted a command holding {text!r}")
    await pilot.press("enter")


def table(app: DelveApp) -> TableScreen:
    """The table screen (the test fails when it is not showing)."""
    found = app.table
    assert found is not None
    return found


def expedition(app: DelveApp) -> Expedition:
    """The expedition open on the table."""
    assert app.expedition is not None
    return app.expedition


async def ready(pilot: Pilot[None]) -> TableScreen:
    """Wait for the table with its log read in and its keys in the footer."""
    app = pilot.app
    assert isinstance(app, DelveApp)
    await settled(
        pilot,
        lambda: (
            app.table is not None and app.table.loaded and bool(app.table.query_one(KeyFooter).keys)
        ),
    )
    return table(app)


#: One piece of text in a screenshot: its column (x), its row (the clip path's line) and text.
_SVG_TEXT = re.compile(
    r'<text class="[^"]*" x="([0-9.]+)" y="[0-9.]+" textLength="[0-9.]+" '
    r'clip-path="url\(#[^"]*-line-([0-9]+)\)">(.*?)</text>'
)
#: The width of one cell in Rich's SVG (its character height, 20, times its aspect, 0.61).
_CELL = 20 * 0.61


def screen_text(app: DelveApp) -> str:
    """What the screen shows, as plain text: read back from the app's own screenshot.

    ``App.export_screenshot`` renders the screen (and any dialog over it) as an SVG with
    every run of text at its cell; this puts the runs back in rows and columns.
    """
    width, height = app.size
    rows: list[str] = [""] * height
    for x, line, text in _SVG_TEXT.findall(app.export_screenshot()):
        row, column = int(line), round(float(x) / _CELL)
        if row >= height:
            continue
        shown = rows[row]
        rows[row] = shown + " " * (column - cell_len(shown)) + html.unescape(text)
    rows = [row.replace("\xa0", " ") for row in rows]
    return "\n".join(row + " " * (width - cell_len(row)) for row in rows)


#: What each app notified and has not cleared since (see ``keep_notices``).
_NOTICES: weakref.WeakKeyDictionary[App[Any], list[str]] = weakref.WeakKeyDictionary()


def keep_notices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Note every message an app raises (``App.notify``), and forget them when it clears
    its notifications (``App.clear_notifications``), as its screen does."""
    notify, clear = App.notify, App.clear_notifications

    def noting(self: App[Any], message: str, **options: Any) -> None:
        _NOTICES.setdefault(self, []).append(message)
        notify(self, message, **options)

    def clearing(self: App[Any]) -> None:
        _NOTICES.pop(self, None)
        clear(self)

    monkeypatch.setattr(App, "notify", noting)
    monkeypatch.setattr(App, "clear_notifications", clearing)


def dialog_says(app: App[Any]) -> str:
    """What the dialog on top says in itself (a notice would cover it): its keys' line
    when it holds a word to the game master, else ''."""
    from textual.widgets import Static

    said = app.screen.query(".dialog-hint.-error").results(Static)
    return " ".join(str(hint.render()) for hint in said)


def notices(app: DelveApp) -> list[str]:
    """The messages of the notifications raised so far and not cleared."""
    return list(_NOTICES.get(app, []))


async def followed(
    pilot: Pilot[None], condition: Callable[[], bool], every: float, *, ticks: int = 60
) -> None:
    """Wait for what the app picks up on its own timer: another process's writes to the file.

    Such a change comes from no input of the test: the app looks at the file every
    ``every`` seconds. This waits one such period at a time (``pilot.pause(every)``) and
    settles the app after each, until the condition holds, for at most ``ticks`` periods.
    """
    for _ in range(ticks):
        await pilot.pause(every)
        await settle(pilot)
        if condition():
            return
    raise AssertionError(f"the app did not pick the change up in {ticks} periods of {every} s")
