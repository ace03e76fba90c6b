"""Two at once: two processes on one expedition, started together, again and again.

The second writer is told the expedition is open elsewhere (with the holder's process id);
the log never holds interleaved or doubled batches; readers during writes see a whole prefix
of the log; two ``new`` of one name at once make exactly one file.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from delvetui.core.timeline import replay
from delvetui.errors import DamagedFile, ExpeditionExists, ExpeditionLocked
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.store import Store
from tests.cli_support import delvetui
from tests.faults.harness import fork_act, needs_fork, scaled

LOCKED = "is open in another delvetui (process {pid}); close it there first."


@needs_fork
def test_the_second_writer_is_told_and_nothing_interleaves(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    Expedition.create(path, find("delving"), seed=3).close()
    expected = ["new"]
    for round_ in range(scaled(40)):
        first, second = fork_act(tmp_path, "x"), fork_act(tmp_path, "x")
        mine = {first.pid: f"note A{round_}", second.pid: f"note B{round_}"}
        for child in (first, second):
            child.send([mine[child.pid]])
        answers = {child.pid: child.read_line(timeout=30) for child in (first, second)}
        winners = [pid for pid, line in answers.items() if line is not None]
        assert len(winners) == 1, answers
        winner = winners[0]
        loser = second if winner == first.pid else first
        assert answers[winner] == f"ok {len(expected) + 1} {mine[winner]}"
        # The loser was told, named the holder, and ended; it wrote nothing.
        assert loser.wait() == 2
        _, errors = loser.finish()
        assert errors == f"delvetui: {path} " + LOCKED.format(pid=winner) + "\n", errors
        holder = first if winner == first.pid else second
        holder.send([f"{mine[winner]} again"])
        assert holder.read_line() == f"ok {len(expected) + 2} {mine[winner]} again"
        holder.close_stdin()
        assert holder.wait() == 0
        holder.finish()
        expected += [mine[winner], f"{mine[winner]} again"]
    with Expedition.open(path) as x:
        assert [b.command for b in x.batches()] == expected
        assert len({b.seq for b in x.batches()}) == len(expected)


def test_the_lock_holder_is_named_and_readers_are_welcome(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    with Expedition.create(path, find("delving"), seed=3) as holder:
        holder.execute("note mine")
        result = delvetui(None, "act", str(path), "note", "theirs")
        assert result.returncode == 2
        assert result.stderr == f"delvetui: {path} " + LOCKED.format(pid=os.getpid()) + "\n"
        status = delvetui(None, "status", str(path))
        assert status.returncode == 0, status.stderr
        try:
            Expedition.open(path)
        except ExpeditionLocked as error:
            assert "already open for writing in this delvetui" in str(error)
        else:
            raise AssertionError("a second writer in the same process was let in")
        holder.execute("note still mine")
    with Expedition.open(path) as x:
        assert [b.command for b in x.batches()] == ["new", "note mine", "note still mine"]


@needs_fork
def test_readers_during_writes_see_a_whole_prefix(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    Expedition.create(path, find("delving"), seed=3).close()
    writer = fork_act(tmp_path, "x")
    commands = [f"note reader race {i}" for i in range(scaled(40))] + ["turn"] * scaled(20)
    seen: list[list[str]] = []
    for command in commands:
        # Hand the writer one command, then read while it commits it.
        writer.send([command])
        with Expedition.open(path, write=False) as reader:
            # The reader's counts and state are one snapshot, whatever it reads later.
            batches = list(reader.batches())[: reader.batch_count]
            assert len(batches) == reader.batch_count
            assert reader.event_count == sum(len(b.events) for b in batches)
            assert replay(batches).state == reader.state
            seen.append([b.command for b in batches])
    writer.close_stdin()
    assert writer.wait() == 0
    writer.finish()
    final = ["new", *commands]
    assert len(seen) > 3
    for commands_seen in seen:
        assert commands_seen == final[: len(commands_seen)]
    with Expedition.open(path) as x:
        assert [b.command for b in x.batches()] == final


def test_two_creators_of_one_name_make_one_file(tmp_path: Path) -> None:
    procedure = find("delving")
    for round_ in range(scaled(25)):
        path = tmp_path / f"race{round_}.delve"
        read, write = os.pipe()
        pids = []
        for seed in (1, 2):
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child
                code = 1
                try:
                    os.close(write)
                    os.read(read, 1)  # both start when the parent closes its end
                    Expedition.create(path, procedure, seed=seed).close()
                    code = 0
                except ExpeditionExists:
                    code = 3
                finally:
                    os._exit(code)
            pids.append(pid)
        os.close(read)
        os.close(write)
        codes = sorted(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids)
        assert codes == [0, 3], codes
        with Expedition.open(path) as x:
            assert [b.command for b in x.batches()] == ["new"]
            assert x.state.seed in (1, 2)
        assert sorted(p.name for p in tmp_path.glob(f"*race{round_}*")) == [path.name]


@pytest.mark.parametrize("moment", ["before the stray-event check", "after it"])
def test_a_commit_as_a_reader_finishes_is_neither_damage_nor_miscounted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """The moments the readers test hits by chance, made to happen every time."""
    path = tmp_path / "x.delve"
    with Expedition.create(path, find("delving"), seed=3) as writer:
        writer.execute("pc add Ash hp=6")
        state, batches, events = writer.state, writer.batch_count, writer.event_count
        real = Store._read
        done: list[bool] = []

        def read(store: Store, sql: str, params: Sequence[object] = ()) -> list[Any]:
            # The reader has read its last batch; another process commits one more just
            # before, or just after, the reader checks for events that belong to no batch.
            check = store is not writer.store and "LIMIT 1" in sql and not done
            if check and moment.startswith("before"):
                done.append(True)
                writer.execute("note meanwhile")
            rows = real(store, sql, params)
            if check and not done:
                done.append(True)
                writer.execute("note meanwhile")
            return rows

        monkeypatch.setattr(Store, "_read", read)
        with Expedition.open(path, write=False) as reader:
            assert done
            assert (reader.batch_count, reader.event_count) == (batches, events)
            assert reader.state == state
            monkeypatch.undo()
            assert [b.command for b in reader.batches()][-1] == "note meanwhile"


def test_stray_events_are_still_damage(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    Expedition.create(path, find("delving"), seed=3).close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO events (seq, batch, type, version, payload, crc)"
            " VALUES (99, 7, 'Noted', 1, '{}', 0)"
        )
    db.close()
    with pytest.raises(DamagedFile, match=r"event 99 \(it belongs to no batch\)"):
        Expedition.open(path, write=False)
