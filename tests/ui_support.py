"""Helpers for the UI tests: ready expeditions, waiting on the app, and the screen as text."""

from __future__ import annotations

import asyncio
import atexit
import io
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot

from delvetui import paths
from delvetui.application import creation
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.table_screen import TableScreen

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


async def until(pilot: Pilot[None], condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait until condition() holds, then until the app has handled what that set off.

    There is no fixed sleep: between checks the app handles every message it has queued
    and waits for the process to go idle (``pilot.pause()``, Textual's own wait), so a
    check is made once per step of the app, not once per tick of a clock. ``timeout`` only
    bounds a test that is going to fail, so it is generous: a loaded machine running the
    suite in parallel is slow, not wrong.
    """
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError("the condition did not come true in time")
        await pilot.pause()
    # The condition holds: let the screen it concerns finish composing and painting.
    await pilot.pause()


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
    await until(
        pilot,
        lambda: app.table is not None and app.table.loaded and bool(app.table.query("FooterKey")),
    )
    await pilot.pause(0)
    return table(app)


def screen_text(app: DelveApp) -> str:
    """What the screen shows, as plain text (the same render as a screenshot)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
    )
    screen = app.screen
    console.print(screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def notices(app: DelveApp) -> list[str]:
    """The messages of the notifications raised so far."""
    return [notification.message for notification in app._notifications]
