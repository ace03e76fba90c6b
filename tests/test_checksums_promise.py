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


@pytest.mark.parametrize(
    ("found", "forged"),
    [
        (r'"clock":\d+', '"clock":NaN'),
        (r'"clock":\d+', '"clock":1e400'),
        (r'"clock":\d+', '"clock":490.5'),
        (r'"hp":\d+', '"hp":"6"'),
        (r'"turn":\d+', '"turn":true'),
    ],
)
def test_a_snapshot_made_by_hand_is_never_the_state(home: Path, found: str, forged: str) -> None:
    """A snapshot with a fresh checksum holding what no delvetui writes (``NaN``, an
    infinity, a float or a text for a count, a bool for a number) is set aside and the log
    replayed: ``status`` and ``act`` show the true state. Before: ``status`` and ``act``
    ended in a traceback (``Unknown format code 'd' for object of type 'float'``)."""
    import re
    import zlib

    from tests.cli_support import delvetui

    path = played(home)
    with Expedition.open(path) as opened:
        for _ in range(30):
            opened.execute("turn crawl hazard=6")
        truth = opened.state
    with sqlite3.connect(path) as conn:
        for batch, data in conn.execute("SELECT batch, data FROM snapshots").fetchall():
            changed = re.sub(found, forged, data, count=1)
            assert changed != data
            crc = zlib.crc32(b"\x1f".join((str(batch).encode(), changed.encode())))
            conn.execute(
                "UPDATE snapshots SET data = ?, crc = ? WHERE batch = ?", (changed, crc, batch)
            )
    shown = delvetui(home, "status", "crypt", "--json")
    assert shown.returncode == 0, shown.stderr
    assert '"turn": 31' in shown.stdout
    done = delvetui(home, "act", "crypt", "turn", "crawl", "hazard=6")
    assert done.returncode == 0, done.stderr
    with Expedition.open(path, write=False) as again:
        assert again.state.turn == truth.turn + 1
        again.verify()
