"""Snapshots of the key screens at fixed sizes, with fixed seeds.

Each SVG is compared with ``tests/snapshots/NAME.svg``: the delving table played a while in
both themes, and every shipped procedure at 80×24, 120×40 and 200×50. A missing snapshot
is written (and the test passes); to accept a deliberate change, run
``DELVETUI_UPDATE_SNAPSHOTS=1 pytest tests/test_ui_snapshots.py`` and look at the new
pictures before committing them (``cairosvg NAME.svg -o NAME.png`` makes one viewable).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from delvetui.ui.app import DelveApp
from delvetui.ui.key_footer import KeyFooter
from tests.ui_support import ANY_PROCEDURE_PARTY, PARTY, PROCEDURES, make, ready, settled, sized

SNAPSHOTS = Path(__file__).parent / "snapshots"
#: Mid-expedition on delving: turns, a search, a light handed over, a note, some damage.
PLAYED = (
    *PARTY,
    "turn crawl hazard=4",
    "turn crawl hazard=5",
    "turn walk hazard=1",
    "pc Bryn hp=-2",
    "light give lantern1 Cora",
    "note The sign: claw marks on the door.",
    "turn search hazard=6",
    "turn rest hazard=2",
    "turn crawl hazard=3",
    "light on candle1",
)


def stable(svg: str) -> str:
    """The SVG without the id Rich derives from per-run widget ids."""
    return re.sub(r"terminal-[0-9]+", "terminal", svg)


def check(name: str, svg: str) -> None:
    """Compare with the stored snapshot (write it when missing or asked to)."""
    svg = stable(svg)
    path = SNAPSHOTS / f"{name}.svg"
    if not path.exists() or os.environ.get("DELVETUI_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
        return
    if svg != path.read_text(encoding="utf-8"):
        path.with_suffix(".new.svg").write_text(svg, encoding="utf-8")
    assert svg == path.read_text(encoding="utf-8"), (
        f"{name} no longer looks the same; if that is meant, run with "
        "DELVETUI_UPDATE_SNAPSHOTS=1 and look at tests/snapshots/"
    )


#: The shared party, its three turns, and a note.
EVERY = (*ANY_PROCEDURE_PARTY, "note Rubble blocks the west passage.")


@pytest.mark.parametrize("procedure", PROCEDURES)
async def test_each_procedure(procedure: str) -> None:
    """At 80×24, then resized to 120×40 and 200×50: each the picture of a table opened at
    that size (the snapshots are the same either way)."""
    app = DelveApp(make(f"snap-{procedure}", EVERY, procedure=procedure, seed=21))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        for size in ((80, 24), (120, 40), (200, 50)):
            await sized(pilot, size)
            await settled(pilot, lambda: bool(table.query_one(KeyFooter).keys))
            await pilot.pause()
            svg = app.export_screenshot()
            assert str(Path.home()) not in svg and "/tmp/" not in svg
            check(f"{procedure}-{size[0]}x{size[1]}", svg)
    app.close_expedition()


async def test_table() -> None:
    """Mid-expedition at 120×40 in both themes, then resized to 80×24."""
    app = DelveApp(make("crypt", PLAYED, seed=11))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        for size, theme in (
            ((120, 40), "textual-dark"),
            ((120, 40), "textual-light"),
            ((80, 24), "textual-dark"),
        ):
            app.theme = theme
            await sized(pilot, size)
            await settled(pilot, lambda: bool(table.query_one(KeyFooter).keys))
            await pilot.pause()
            name = f"table-{theme.removeprefix('textual-')}-{size[0]}x{size[1]}"
            check(name, app.export_screenshot())
    app.close_expedition()
