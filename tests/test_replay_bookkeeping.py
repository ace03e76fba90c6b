"""Replay bookkeeping, written once: what counts, what is undone, which procedure, which batch.

The table, the story, the timeline picture and the import all read a log through these, so
they must agree with the timeline that plays the expedition.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from delvetui.core.evolve import fold
from delvetui.core.state import State
from delvetui.core.timeline import (
    Timeline,
    counting,
    is_undo_or_redo,
    procedure_at,
    voided_batches,
)
from delvetui.errors import ReplayError
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)


def _played(path: Path) -> Expedition:
    """An expedition with turns, an undo, a redo, an undo whose redo a new command cleared."""
    x = Expedition.create(path, find("delving"), seed=4, now=MOMENT)
    for command in (
        "pc add Ash hp=6",
        "light add torch carrier=Ash lit",
        "turn",
        "turn",
        "undo",  # the second turn
        "redo",  # back again
        "note the stair is cracked",
        "undo",  # the note
        "turn search",  # clears the note's redo: it stays undone
        "turn",
        "undo",
    ):
        x.execute(command, now=MOMENT)
    return x


def test_what_counts_is_what_the_timeline_plays(tmp_path: Path) -> None:
    with _played(tmp_path / "x.delve") as x:
        batches = list(x.batches())
        counted = counting(batches)
        by_command = {b.seq: b.command for b in batches}
        # The note (undone, its redo cleared) and the last turn (undone) do not count; the
        # turn undone and redone does; undo and redo themselves never count.
        assert [by_command[b.seq] for b in counted] == [
            "new",
            "pc add Ash hp=6",
            "light add torch carrier=Ash lit",
            "turn",
            "turn",
            "turn search",
        ]
        assert voided_batches(batches) == {8, 11}
        assert not any(is_undo_or_redo(b) for b in counted)
        assert [b.seq for b in counted] == sorted(x.timeline.base + x.timeline.active)
        state = State()
        for batch in counted:
            state = fold(state, batch.events)
        assert state == x.state


def test_the_procedure_at_each_batch_follows_a_change_and_its_undo(tmp_path: Path) -> None:
    original = find("delving")
    newer = load_text(original.text + "\n# a later printing\n", source="the newer delving")
    with Expedition.create(tmp_path / "x.delve", original, seed=4, now=MOMENT) as x:
        x.execute("turn", now=MOMENT)
        x.change_procedure(newer, now=MOMENT)
        x.execute("turn", now=MOMENT)
        x.execute("undo", now=MOMENT)
        x.execute("undo", now=MOMENT)  # the change itself
        x.execute("turn", now=MOMENT)
        followed = []
        timeline = Timeline(load=x.load)
        for batch in x.batches():
            before = timeline.state
            followed.append((batch.command, x.procedure_at(before).text == newer.text))
            timeline.apply(batch)
        assert followed == [
            ("new", False),
            ("turn", False),
            ("procedure delving", False),
            ("turn", True),  # played under the newer printing
            ("undo", True),
            ("undo", True),
            ("turn", False),  # the change was undone: the original again
        ]
        assert procedure_at(x.state, x.procedures, original) is x.procedures[""]
        assert x.procedure.text == original.text


def test_a_batch_is_read_back_by_its_number(tmp_path: Path) -> None:
    with _played(tmp_path / "x.delve") as x:
        assert x.batch(4).command == "turn"
        assert [b.seq for b in x.load([2, 3, 9])] == [2, 3, 9]
        assert x.batch(9).command == "undo"
        with pytest.raises(ReplayError, match="batch 99 is not in the log"):
            x.batch(99)


def test_an_expedition_tells_what_the_exports_read_without_its_store(tmp_path: Path) -> None:
    path = tmp_path / "crypt.delve"
    with _played(path) as x:
        assert x.readonly_reason is None
        assert x.meta()["name"] == "crypt" and x.meta()["procedure"] == "delving"
        assert x.procedure_text() == find("delving").text
        saved = list(x.saved(after=10))
        assert [(s.seq, s.command, s.at) for s in saved] == [
            (11, "turn", MOMENT.isoformat(timespec="seconds")),
            (12, "undo", MOMENT.isoformat(timespec="seconds")),
        ]
        assert x.last_saved_at() == MOMENT.isoformat(timespec="seconds")
    with Expedition.open(path, write=False) as reader:
        assert reader.readonly_reason is not None and "opened for reading only" in (
            reader.readonly_reason
        )
