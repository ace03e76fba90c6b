"""What the checksums promise and what ``verify`` adds, as docs/reliability.md says it
("What the checksums promise"): damage is found; a value no command could have written is
found by ``verify``; a forgery of plausible values with fresh checksums is not found, and
the doc says so rather than claim it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from delvetui.errors import DamagedFile
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.store.rows import event_crc


def played(home: Path) -> Path:
    with Expedition.create(home / "crypt.delve", find("delving"), seed=1) as made:
        made.execute("pc add Ash hp=6")
        made.execute("turn crawl hazard=6")
    return home / "crypt.delve"


def rewrite_joined(path: Path, payload: bytes, *, fresh: bool) -> None:
    """Put ``payload`` in place of Ash's MemberJoined, its checksum made afresh or left,
    and the snapshots (derived data a forger would drop too) taken out."""
    with sqlite3.connect(path) as conn:
        seq, batch, version, old = conn.execute(
            "SELECT seq, batch, version, crc FROM events WHERE type = 'MemberJoined'"
        ).fetchone()
        crc = event_crc(batch, b"MemberJoined", version, payload) if fresh else old
        conn.execute(
            "UPDATE events SET payload = ?, crc = ? WHERE seq = ?", (payload.decode(), crc, seq)
        )
        conn.execute("DELETE FROM snapshots")


JOINED = b'{"abilities":{},"hp":%d,"max_hp":%d,"name":"Ash","tracks":{}}'


def test_damage_is_found(home: Path) -> None:
    path = played(home)
    rewrite_joined(path, JOINED % (5, 6), fresh=False)  # a changed byte, its checksum old
    with pytest.raises(DamagedFile, match="checksum"):
        Expedition.open(path, write=False)


def test_verify_finds_what_no_command_could_have_written(home: Path) -> None:
    path = played(home)
    rewrite_joined(path, JOINED % (7, 6), fresh=True)  # more HP than the most: impossible
    with Expedition.open(path, write=False) as opened, pytest.raises(DamagedFile) as refused:
        opened.verify()
    assert "holds what no command could have written" in refused.value.message


def test_a_plausible_forgery_with_fresh_checksums_is_not_a_thing_a_checksum_finds(
    home: Path,
) -> None:
    """Ash joined with 5 HP, not 6: a value a command could have written. The file reads,
    and ``verify`` calls it sound; nothing short of a signature could tell."""
    path = played(home)
    rewrite_joined(path, JOINED % (5, 5), fresh=True)
    with Expedition.open(path, write=False) as opened:
        opened.verify()
        assert opened.state.party[0].hp == 5
