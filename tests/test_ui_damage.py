"""A file whose pages are damaged: the table opens it (from its snapshot), finds the damage
with SQLite's page check, says so, and refuses every change without touching the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from delvetui.core import events as ev
from delvetui.errors import DamagedFile, DelveError
from delvetui.session import Expedition
from delvetui.store import NewEvent, Store
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.error_screen import ErrorScreen
from delvetui.ui.panes.session_bar import SessionBar
from delvetui.ui.table.command_line import CommandLine
from tests.ui_support import PARTY, expedition, make, notices, ready, screen_text, settled

#: Enough turns for a snapshot and a log spread over many pages.
TURNS = 300


def pages_pass(path: Path) -> bool:
    """True when SQLite's quick check finds nothing wrong with the file."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        return [tuple(row) for row in conn.execute("PRAGMA quick_check").fetchall()] == [("ok",)]
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()


def reads_without_the_page_check(path: Path) -> bool:
    """True when the expedition opens from its snapshot and every batch reads back whole."""
    try:
        with Expedition.open(path, write=False, snapshot=True) as opened:
            return sum(1 for _ in opened.batches()) == opened.batch_count
    except DelveError:
        return False


def damage_a_page(path: Path) -> None:
    """Overwrite a few bytes of a b-tree page in the middle of the file, so that the page check
    fails but everything else reads: the expedition opens from its snapshot, and every batch
    reads back (the damage is in a page of an index only the page check looks at)."""
    data = path.read_bytes()
    size = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        page = int(size.execute("PRAGMA page_size").fetchone()[0])
    finally:
        size.close()
    count = len(data) // page
    trial = path.with_suffix(".trial")
    for number in sorted(range(2, count + 1), key=lambda n: abs(n - count // 2)):
        start = (number - 1) * page
        if data[start] not in (0x02, 0x05, 0x0A, 0x0D):  # only b-tree pages
            continue
        for offset in (3, 8, page // 2):
            damaged = bytearray(data)
            damaged[start + offset : start + offset + 4] = b"\xff\xff\xff\xff"
            trial.write_bytes(bytes(damaged))
            if not pages_pass(trial) and reads_without_the_page_check(trial):
                trial.replace(path)
                return
    trial.unlink(missing_ok=True)
    raise AssertionError("no page could be damaged the way this test needs")


async def test_damaged_pages_make_the_table_read_only_and_leave_the_file_alone() -> None:
    path = make("long", [*PARTY, *["turn"] * TURNS])
    damage_a_page(path)
    written = path.read_bytes()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, ErrorScreen))
        shown = app.screen
        assert isinstance(shown, ErrorScreen)
        # The message as written: on screen it wraps where the file's path makes it wrap.
        assert "is damaged" in shown.message, shown.message
        assert "The table is read-only" in shown.message
        assert "The table is" in screen_text(app)
        await pilot.press("enter")
        table = await ready(pilot)
        await settled(pilot, lambda: app.screen is table)
        assert table.damage and table.readonly
        assert table.query_one(SessionBar).offer is None
        assert "READ-ONLY" in screen_text(app)
        assert table.check_action("next_turn", ()) is None  # greyed out in the footer
        turn = expedition(app).state.turn
        await pilot.press("n", "S")  # greyed out: nothing happens
        table.run("turn")  # as the palette would: refused with the reason
        await settled(pilot, lambda: any("read-only" in text for text in notices(app)))
        await pilot.press("colon", *"turn", "enter")
        await settled(pilot, lambda: "read-only" in table.query_one(CommandLine).message)
        await pilot.pause()
        assert expedition(app).state.turn == turn
        assert not expedition(app).state.in_session
        assert expedition(app).readonly  # the core refuses too, and closing writes nothing
    app.close_expedition()
    assert path.read_bytes() == written


#: Checksum-valid events that replay cannot apply, one of each kind: undoing a batch that is
#: not the last one counting, redoing one never undone, and naming a light, a pending effect
#: or a party member that is not there.
UNREPLAYABLE: dict[str, tuple[str, dict[str, Any]]] = {
    "undo of an earlier batch": ("BatchVoided", {"batch": 2, "command": "pc add Ash hp=6"}),
    "redo of nothing undone": ("BatchRestored", {"batch": 3, "command": "light"}),
    "a light that is not there": ("LightLit", {"id": "lamp9", "source": "x", "carrier": None}),
    "nothing pending": ("DeferredResolved", {"ref": "none", "label": "x", "applied": True}),
    "a member who is not there": (
        "HpChanged",
        {"name": "Nobody", "hp": 1, "change": -1, "reason": "x"},
    ),
}


def unreplayable(path: Path, kind: str) -> Path:
    """A copy of ``path`` with one command's events replaced by hand, checksums made to match.

    The copy keeps the original's snapshot (taken after the last batch), so the table opens
    quickly from it and meets the bad batch while it reads the history in the background.
    """
    type_name, payload = UNREPLAYABLE[kind]
    target = path.with_name(f"bad-{len(kind)}.delve")
    with Store.open(path, write=False) as source:
        meta, text = source.meta(), source.procedure_text()
        stored = list(source.batches())
        snapshot = source.latest_snapshot()
    assert snapshot is not None and snapshot[0] == len(stored)
    bad = len(stored) - 3  # a note of the party's play, well after the start
    with Store.create(target, meta=meta, procedure_text=text) as store:
        for batch in stored:
            events = [NewEvent(e.type, e.version, dict(e.payload)) for e in batch.events]
            if batch.seq == bad:
                events = [NewEvent(type_name, ev.SCHEMA_VERSIONS[type_name], payload)]
            store.append(batch.command, batch.at, events)
        store.save_snapshot(*snapshot)
    return target


@pytest.mark.parametrize("kind", sorted(UNREPLAYABLE))
async def test_an_unreplayable_file_shows_the_damage_screen(kind: str) -> None:
    source = make("whole", [*PARTY, "note one", "turn", "note two", "turn", "note three"])
    with Expedition.open(source) as x:  # a snapshot after the last batch
        x.execute("note closing")
    path = unreplayable(source, kind)
    written = path.read_bytes()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, ErrorScreen))
        shown = app.screen
        assert isinstance(shown, ErrorScreen)
        assert "cannot be replayed" in shown.message, shown.message
        assert "The table is read-only" in shown.message
        assert "The expedition file needs attention" in screen_text(app)
        await pilot.press("enter")
        table = await ready(pilot)
        assert table.damage and expedition(app).readonly
        table.run("turn")
        await settled(pilot, lambda: any("read-only" in text for text in notices(app)))
    app.close_expedition()
    assert path.read_bytes() == written
    with pytest.raises(DamagedFile, match="cannot be replayed"):
        Expedition.open(path, write=False)  # and a full replay says the same
