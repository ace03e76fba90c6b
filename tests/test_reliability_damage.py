"""Torn and damaged files: cut at every byte of the last record, bytes flipped, foreign files.

For every damaged copy: opening it (for reading and for writing) gives a clear DelveError or,
where SQLite's page layout makes the damage harmless, exactly the state of a valid file; never
a traceback, never a silently different state or procedure, and the file's bytes and folder are
never changed. What can be saved is offered read-only: ``Expedition.open_salvage`` replays the
batches before the damage, and that state equals the original's after as many batches.

Files made by hand with valid checksums (fields of the wrong type, undoing what does not exist)
are refused the same way, and files of other kinds and of newer versions get their own message.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from delvetui.core import events as ev
from delvetui.core.state import State
from delvetui.core.timeline import replay
from delvetui.errors import (
    DamagedFile,
    DelveError,
    ExpeditionNotFound,
    ForeignFile,
    ReadOnlyExpedition,
    StoreError,
)
from delvetui.export import export, import_file
from delvetui.procedure.registry import find
from delvetui.session import Expedition, encode
from delvetui.store import NewEvent, Store
from tests.cli_support import delvetui
from tests.faults.harness import fast_folder, fingerprint, scaled, seed

PLAY = (
    "pc add Ash hp=6 STR=12",
    "pc add 'Old Tom' hp=5",
    "light add torch count=3 carrier=Ash lit",
    "turn",
    "turn walk hazard=3",
    "note the [b]door[/b] is barred",
    "roll 3d6 treasure",
    "turn crawl hazard=1",
    "undo",
    "time set 21:40",
)
LAST = "note LAST-RECORD " + "ä" * 250 + "z" * 300


class Original:
    """A played expedition, the state after each of its batches, and its bytes."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "x.delve"
        with Expedition.create(self.path, find("delving"), seed=5) as x:
            for command in PLAY:
                x.execute(command)
            self.before_last = self.path.read_bytes()
            x.execute(LAST)
            batches = list(x.batches())
            self.procedure = x.procedure
        self.data = self.path.read_bytes()
        timeline = replay([])
        self.states: list[State] = [timeline.state]
        for batch in batches:
            self.states.append(timeline.apply(batch))

    @property
    def final(self) -> State:
        return self.states[-1]


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Original:
    return Original(tmp_path_factory.mktemp("original"))


def attempt(
    path: Path,
    original: Original,
    tally: Counter[str],
    context: str,
    salvaging: bool = True,
    valid: tuple[State, ...] = (),
) -> None:
    """Open a damaged copy every way; check what it may and may not do.

    It may open only as the original (or as one of ``valid``): anything else is a silent change.
    """
    before = fingerprint(path)
    for write in (False, True):
        try:
            with Expedition.open(path, write=write) as x:
                assert x.state in (original.final, *valid), context
                assert x.procedure == original.procedure, context
                outcome = "harmless"
        except (DamagedFile, ForeignFile) as error:
            assert str(path) in str(error), context
            outcome = type(error).__name__
        except StoreError as error:
            # SQLite itself refused the file (e.g. an unsupported page format): still clear.
            assert str(path) in str(error) and "failed" in str(error), context
            outcome = "StoreError"
        assert fingerprint(path) == before, f"{context}: the file was modified"
        tally[f"{'write' if write else 'read'}: {outcome}"] += 1
    if outcome != "harmless" and salvaging:
        salvage(path, original, tally, context)
        assert fingerprint(path) == before, f"{context}: salvage modified the file"


def salvage(path: Path, original: Original, tally: Counter[str], context: str) -> None:
    try:
        x = Expedition.open_salvage(path)
    except DelveError:
        tally["nothing to salvage"] += 1
        return
    with x:
        assert x.readonly and "read-only" in (x.store.readonly_reason or ""), context
        assert x.state == original.states[x.batch_count], context
        assert [b.seq for b in x.batches()] == list(range(1, x.batch_count + 1)), context
        with pytest.raises(ReadOnlyExpedition):
            x.execute("note more")
    tally["salvaged batches"] += x.batch_count
    tally["salvages"] += 1


@pytest.mark.long
def test_cut_at_every_byte_of_the_last_record(original: Original, tmp_path: Path) -> None:
    data = original.data
    page = int.from_bytes(data[16:18], "big")
    body = LAST.removeprefix("note ").encode()
    # Every byte of the last record: its command (in the batches table) and its event's
    # payload (in the events table), plus every page boundary and a random sample.
    cuts: set[int] = set()
    start = data.find(body)
    while start >= 0:
        cuts |= set(range(start, start + len(body) + 1))
        start = data.find(body, start + 1)
    assert len(cuts) > 2 * len(body)
    cuts |= set(range(0, len(data) + 1, page))
    cuts |= set(random.Random(seed()).sample(range(len(data)), scaled(100)))
    tally: Counter[str] = Counter()
    with fast_folder(tmp_path) as folder:
        path = folder / "cut.delve"
        for number, cut in enumerate(sorted(cuts)):
            path.write_bytes(data[:cut])
            # Salvage (a full replay each) on every page boundary and every 8th cut.
            salvaging = cut % page == 0 or number % 8 == 0
            # A cut that SQLite's page layout made harmless may leave the file as it was
            # before the last command, a valid state; never anything else.
            where = f"cut at byte {cut} of {len(data)}"
            attempt(path, original, tally, where, salvaging, (original.states[-2],))
    print(f"{len(cuts)} cuts of a {len(data)}-byte file: {dict(tally)}")
    assert tally["read: DamagedFile"] + tally["read: ForeignFile"] > 0.9 * len(cuts)


def test_a_flipped_bit_anywhere(original: Original, tmp_path: Path) -> None:
    rng = random.Random(seed())
    data = original.data
    record = data.index(b"LAST-RECORD")
    spots = [rng.randrange(len(data)) for _ in range(scaled(160))]
    spots += [rng.randrange(100) for _ in range(scaled(20))]  # the header
    # The last record, every byte of it from its marker on (two-byte letters included).
    size = len(LAST[LAST.index("LAST-RECORD") :].encode())
    spots += [record + rng.randrange(size) for _ in range(scaled(20))]
    tally: Counter[str] = Counter()
    with fast_folder(tmp_path) as folder:
        path = folder / "flip.delve"
        for spot in spots:
            bit = rng.randrange(8)
            damaged = bytearray(data)
            damaged[spot] ^= 1 << bit
            path.write_bytes(bytes(damaged))
            attempt(path, original, tally, f"bit {bit} of byte {spot} flipped")
    print(f"{len(spots)} flipped bits: {dict(tally)}")


def test_salvage_offers_the_batches_before_the_damage(original: Original, tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    data = original.data
    # The note's text is in its command (batches table) and its event (events table).
    where = data.rfind(b"barred")
    path.write_bytes(data[:where] + b"barrel" + data[where + 6 :])
    before = fingerprint(path)
    with pytest.raises(DamagedFile, match=r"damaged at (batch|event) \d+ \(its checksum"):
        Expedition.open(path)
    with Expedition.open_salvage(path) as x:
        assert x.readonly and x.batch_count == 6
        reason = x.store.readonly_reason or ""
        assert reason.startswith(f"The expedition file {path} is damaged at ")
        assert reason.endswith(
            "(its checksum does not match); it was not modified. "
            "The 6 batches before the damage are shown, read-only."
        )
        assert x.state == original.states[6]
        assert [b.command for b in x.batches()] == ["new", *PLAY[:5]]
        with pytest.raises(ReadOnlyExpedition, match="damaged at"):
            x.execute("turn")
    assert fingerprint(path) == before


def test_salvage_of_one_batch_says_so_in_the_singular(original: Original, tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    data = original.data
    # The second batch's command (Ash joins) damaged: only the expedition's start is whole.
    where = data.find(b"pc add Ash hp=6")
    assert data.count(b"pc add Ash hp=6") == 1
    path.write_bytes(data[:where] + b"pc add Asx hp=6" + data[where + 15 :])
    with Expedition.open_salvage(path) as x:
        assert x.batch_count == 1
        reason = x.store.readonly_reason or ""
        assert reason.endswith("The batch before the damage is shown, read-only."), reason


def test_what_is_salvaged_can_be_exported_and_imported_as_a_sound_expedition(
    original: Original, tmp_path: Path
) -> None:
    path = tmp_path / "x.delve"
    data = original.data
    where = data.rfind(b"barred")
    path.write_bytes(data[:where] + b"barrel" + data[where + 6 :])
    with Expedition.open_salvage(path) as x:
        exported = tmp_path / "rescued.json"
        exported.write_text(export(x, "json"), encoding="utf-8")
        assert "[b]door[/b]" not in export(x, "txt")  # the damaged batch is not told
    with Expedition.open(import_file(exported, "rescued")) as rescued:
        assert not rescued.readonly and rescued.state == original.states[6]
        rescued.execute("turn")


def test_salvage_of_a_sound_file_reads_it_all(original: Original) -> None:
    with Expedition.open_salvage(original.path) as x:
        assert x.state == original.final and x.readonly
        assert "all 12 of its batches could be read" in (x.store.readonly_reason or "")


# -- files made by hand, with valid checksums ------------------------------------------------------


JUNK: tuple[object, ...] = (None, "x", "", 0, -1, 2**70, 1.5, True, [], {}, [1, "a"], {"a": "b"})


def rewrite(original: Original, path: Path, change: Callable[[list[list[NewEvent]]], None]) -> None:
    """A copy of the original written event by event with valid checksums, after ``change``."""
    with Store.open(original.path, write=False) as source:
        meta, text = source.meta(), source.procedure_text()
        stored = list(source.batches())
    batches = [[NewEvent(e.type, e.version, dict(e.payload)) for e in b.events] for b in stored]
    change(batches)
    with Store.create(path, meta=meta, procedure_text=text) as store:
        for b, events in zip(stored, batches, strict=True):
            store.append(b.command, b.at, events)


def test_hand_made_events_of_the_wrong_shape_are_refused(
    original: Original, tmp_path: Path
) -> None:
    rng = random.Random(seed())
    tally: Counter[str] = Counter()
    with fast_folder(tmp_path) as folder:
        for trial in range(scaled(100)):
            hand_made(original, folder / f"hand{trial}.delve", rng, tally)
    print(f"{sum(tally.values())} hand-made files: {dict(tally)}")


def hand_made(original: Original, path: Path, rng: random.Random, tally: Counter[str]) -> None:
    """One file with one event changed by hand (checksums made to match); play a little."""
    how = rng.choice(("junk value", "missing field", "extra field", "moved event", "unknown"))

    def change(batches: list[list[NewEvent]]) -> None:
        b = rng.choice([b for b in batches if b])
        i = rng.randrange(len(b))
        payload = dict(b[i].payload)
        if how == "junk value" and payload:
            payload[rng.choice(sorted(payload))] = rng.choice(JUNK)
        elif how == "missing field" and payload:
            payload.pop(rng.choice(sorted(payload)))
        elif how == "extra field":
            payload["surplus"] = 1
        elif how == "moved event":
            rng.choice(batches).append(b.pop(i))
            return
        elif how == "unknown":
            b[i] = NewEvent("DragonSummoned", 1, payload)
            return
        b[i] = NewEvent(b[i].type, b[i].version, payload)

    rewrite(original, path, change)
    try:
        with Expedition.open(path) as x:
            for command in ("turn", "undo", "redo", "pc Ash hp=-1", "light off torch"):
                # Playing on from whatever the file says: refused or done, never a crash.
                with contextlib.suppress(DelveError):
                    x.execute(command)
        tally[f"{how}: opened"] += 1
    except DamagedFile as error:
        assert "was not modified" in str(error)
        tally[f"{how}: refused"] += 1


def test_an_undo_of_a_batch_that_is_not_last_is_refused(original: Original, tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    voided = encode([ev.BatchVoided(batch=2, command="pc add Ash hp=6 STR=12")])

    def change(batches: list[list[NewEvent]]) -> None:
        batches[-1][:] = voided

    rewrite(original, path, change)
    with pytest.raises(DamagedFile, match=r"Batch 12 of the expedition cannot be replayed"):
        Expedition.open(path)


# -- other kinds of file, and a newer version ------------------------------------------------------


def sqlite_file(path: Path, *statements: str) -> None:
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)
    db.close()


FOREIGN: dict[str, Callable[[Path], object]] = {
    "zero bytes": lambda p: p.write_bytes(b""),
    "random bytes": lambda p: p.write_bytes(random.Random(1).randbytes(9000)),
    "a text file": lambda p: p.write_text("Dear diary, today the party was eaten.\n"),
    "a PNG image": lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200)),
    "a SQLite header and nothing else": lambda p: p.write_bytes(b"SQLite format 3\x00"),
    "another program's database": lambda p: sqlite_file(
        p, "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"
    ),
    "our id, no tables": lambda p: sqlite_file(
        p, "PRAGMA application_id = 1145392214", "PRAGMA user_version = 1"
    ),
}


@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_a_file_of_another_kind_gets_a_clear_message_and_stays_unchanged(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "x.delve"
    FOREIGN[kind](path)
    before = fingerprint(path)
    for write in (False, True):
        with pytest.raises((ForeignFile, DamagedFile)) as caught:
            Expedition.open(path, write=write)
        assert str(path) in str(caught.value) and "not modified" in str(caught.value)
    with pytest.raises(DelveError):
        Expedition.open_salvage(path)
    for args in (["status", str(path)], ["act", str(path), "note", "x"]):
        result = delvetui(tmp_path, *args)
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode == 2
        assert result.stderr.startswith(f"delvetui: {path}") or "damaged" in result.stderr
    assert fingerprint(path) == before


def test_list_names_every_file_of_another_kind_as_one_it_cannot_open(tmp_path: Path) -> None:
    """``delvetui list`` in a data folder holding one file of each kind above (one process
    for all of them): each gets its line, and none is changed."""
    files = {kind: tmp_path / f"{kind.replace(' ', '-')}.delve" for kind in FOREIGN}
    for kind, path in files.items():
        FOREIGN[kind](path)
    before = {kind: fingerprint(path) for kind, path in files.items()}
    result = delvetui(tmp_path, "list")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    for kind, path in files.items():
        assert f"{path.stem}: cannot be opened" in result.stdout, (kind, result.stdout)
        assert fingerprint(path) == before[kind], kind


def test_a_folder_named_like_an_expedition(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    path.mkdir()
    with pytest.raises(ForeignFile, match="is not a file"):
        Expedition.open(path)
    with pytest.raises(ExpeditionNotFound):
        Expedition.open(tmp_path / "none.delve")


def test_a_file_from_a_newer_version_opens_read_only(original: Original, tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    shutil.copyfile(original.path, path)
    sqlite_file(path, "PRAGMA user_version = 7")
    before = fingerprint(path)
    with Expedition.open(path) as x:
        assert x.readonly and x.state == original.final
        assert "newer delvetui (file version 7" in (x.store.readonly_reason or "")
        with pytest.raises(ReadOnlyExpedition, match="newer delvetui"):
            x.execute("turn")
    status = delvetui(tmp_path, "status", str(path), "--json")
    assert status.returncode == 0 and json.loads(status.stdout)["readonly"] is True
    acted = delvetui(tmp_path, "act", str(path), "turn")
    assert acted.returncode == 2 and "newer delvetui" in acted.stderr
    assert fingerprint(path) == before


def test_an_event_from_a_newer_version_is_named_as_such(original: Original, tmp_path: Path) -> None:
    path = tmp_path / "x.delve"

    def change(batches: list[list[NewEvent]]) -> None:
        event = batches[-1][0]
        batches[-1][0] = NewEvent(event.type, event.version + 1, event.payload)

    rewrite(original, path, change)
    with pytest.raises(DamagedFile, match="is newer than this program"):
        Expedition.open(path)
    with Expedition.open_salvage(path) as x:
        assert x.batch_count == len(original.states) - 2


# -- each bug these tests found, pinned down -------------------------------------------------------


def test_unreadable_table_definitions_are_damage_not_a_traceback(
    original: Original, tmp_path: Path
) -> None:
    data = original.data
    key = b"PRIMARY KEY,\n    command"  # in the table definitions on page 1
    assert data.count(key) == 1
    for damaged, said in (
        # Not UTF-8 inside SQL: SQLite's own message about it quotes bytes that are not text.
        (data.replace(key, b"PRIMARY K\xffY,\n    command"), "cannot be read"),
        # A column renamed: every query on it would fail.
        (data.replace(b"command TEXT", b"commanx TEXT", 1), "lacks a column"),
        (data.replace(b"command TEXT", b"comman\xff TEXT", 1), "lacks a column"),
    ):
        path = tmp_path / "x.delve"
        path.write_bytes(damaged)
        before = fingerprint(path)
        for write in (False, True):
            with pytest.raises(DamagedFile, match=said):
                Expedition.open(path, write=write)
        assert fingerprint(path) == before


def test_a_changed_procedure_text_is_damage_not_a_new_rule(
    original: Original, tmp_path: Path
) -> None:
    path = tmp_path / "x.delve"
    # Still a valid procedure, with other words: without its checksum it would be followed.
    path.write_bytes(original.data.replace(b"Usually used when", b"Usually used whan", 1))
    with pytest.raises(DamagedFile, match=r"at its procedure text \(its checksum does not match"):
        Expedition.open(path)
    with pytest.raises(DamagedFile, match="procedure text"):
        Expedition.open_salvage(path)


def test_salvage_reads_a_file_cut_short_of_its_page_count(
    original: Original, tmp_path: Path
) -> None:
    path = tmp_path / "x.delve"
    page = int.from_bytes(original.data[16:18], "big")
    path.write_bytes(original.data[: len(original.data) - page])
    with pytest.raises(DamagedFile, match="is damaged"):
        Expedition.open(path)
    with Expedition.open_salvage(path) as x:
        assert x.batch_count > 0 and x.state == original.states[x.batch_count]


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("MemberJoined", {"name": "Eve", "hp": "lots", "max_hp": 3}),
        ("MemberJoined", {"name": None, "hp": 3, "max_hp": 3}),
        ("MemberJoined", {"name": "Eve", "hp": 3, "max_hp": 3, "abilities": {"STR": "x"}}),
        ("Noted", {"text": ["a", "list"]}),
        ("LightLit", {"id": "torch9", "source": "no-such-light", "carrier": None}),
        ("DeferredResolved", {"ref": "nothing-pending", "label": "x", "applied": True}),
    ],
)
def test_a_hand_made_event_is_refused_as_damage(
    original: Original, tmp_path: Path, kind: str, payload: dict[str, object]
) -> None:
    path = tmp_path / "x.delve"
    assert set(payload) <= {f.name for f in attrs.fields(ev.EVENT_TYPES[kind])}

    def change(batches: list[list[NewEvent]]) -> None:
        batches[-1][:] = [NewEvent(kind, ev.SCHEMA_VERSIONS[kind], payload)]

    rewrite(original, path, change)
    with pytest.raises(DamagedFile, match="Batch 12 of the expedition"):
        Expedition.open(path)
