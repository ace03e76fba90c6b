"""What import and replay accept: only what a command could have written.

An export or a copied expedition file is replayed through the checks a command goes
through; the first event no command could have written is refused, naming its batch,
event and line, and nothing is created. ``verify`` reports the same of a file on disk.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import random
import shutil
import sqlite3
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from delvetui.core import commands as cmd
from delvetui.core.decide import decide, start_events
from delvetui.core.timeline import Batch, Timeline
from delvetui.export import export, export_chunks, import_file
from delvetui.export import json_format as jf
from delvetui.export.json_format import ImportRefused
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition, encode
from delvetui.store import NewEvent, Store
from delvetui.store.rows import event_crc
from tests.cli_support import delvetui
from tests.conftest import Factory

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)
PLAY = (
    "pc add Ash hp=6",
    "pc add Bex hp=5",
    "light add torch count=3 carrier=Ash",
    "light on torch",
    "session start",
    "turn explore hazard=6",
    "turn hazard=3",
    "pc Ash fatigue=+1",
    "note here",
    "roll 2d6 reaction",
)


@pytest.fixture
def played(expedition: Factory) -> Expedition:
    """A short expedition on dungeon-turn (a three-step fatigue ladder), still open."""
    x = expedition("dungeon-turn", name="crypt")
    for text in PLAY:
        x.execute(text, now=MOMENT)
    return x


@pytest.fixture
def exported(played: Expedition, home: Path) -> dict[str, Any]:
    """The played expedition as parsed JSON; its file is gone, so only the import remains."""
    data: dict[str, Any] = json.loads(export(played, "json"))
    played.close()
    (home / "crypt.delve").unlink()
    return data


def events_of(data: dict[str, Any], type_: str) -> Iterator[dict[str, Any]]:
    """Every event of a type in an export, in order, as the mutable dicts they are."""
    for batch in data["batches"]:
        for event in batch["events"]:
            if event["type"] == type_:
                yield event


def first(data: dict[str, Any], type_: str) -> dict[str, Any]:
    """The payload of the first event of a type."""
    payload: dict[str, Any] = next(events_of(data, type_))["payload"]
    return payload


def refused(home: Path, text: str, message: str) -> str:
    """Import a damaged export: refused with the message, naming a line, nothing created."""
    document = home / "crypt.json"
    document.write_text(text, encoding="utf-8")
    with pytest.raises(ImportRefused, match=message) as refusal:
        import_file(document, "copy")
    said = str(refusal.value)
    assert said.startswith(f"{document} cannot be imported: ")
    assert said.endswith("Nothing was created.")
    assert sorted(p.name for p in home.iterdir()) == ["crypt.json"]
    return said


Change = Callable[[dict[str, Any]], None]


def _set(type_: str, field: str, value: object, nth: int = 0) -> Change:
    def change(data: dict[str, Any]) -> None:
        list(events_of(data, type_))[nth]["payload"][field] = value

    return change


def _second_start(data: dict[str, Any]) -> None:
    start = data["batches"][0]["events"][0]
    data["batches"][1]["events"].append(json.loads(json.dumps(start)))
    data["counts"]["events"] += 1


def _burn_upwards(data: dict[str, Any]) -> None:
    """A burn of minus ten hours: it would leave the torch far above its hour."""
    light = first(data, "LightLit")["id"]
    data["batches"][-1]["events"].append(
        {"type": "LightsBurned", "version": 1, "payload": {"ids": [light], "minutes": -600}}
    )
    data["counts"]["events"] += 1


def _turn_type_changed(data: dict[str, Any]) -> None:
    data["batches"][-1]["events"].append(
        {"type": "TurnTypeChanged", "version": 1, "payload": {"turn_type": "space"}}
    )
    data["counts"]["events"] += 1


# Point 12: each thing import accepted before, and the sentence that now refuses it.
IMPOSSIBLE: list[tuple[str, Change, str]] = [
    ("max_hp -10", _set("MemberJoined", "max_hp", -10), "max_hp is -10; it must be from 1"),
    ("light count -5", _set("LightAdded", "count", -5), "count is -5; it must be from 1 to 999"),
    ("light count 0", _set("LightAdded", "count", 0), "count is 0; it must be from 1 to 999"),
    ("negative minutes", _set("LightAdded", "minutes", -60), "minutes is -60"),
    ("negative turn", _set("TurnEnded", "minutes", -10), "minutes is -10"),
    ("burn upwards", _burn_upwards, "minutes is -600"),
    ("turn backwards", _set("TurnStarted", "number", 1, nth=1), "turn 1 starts after turn 1"),
    ("hp 10^18", _set("MemberJoined", "hp", 10**18), "hp is 1000000000000000000, beyond"),
    ("clock 10^300", _set("ExpeditionStarted", "clock", 10**300), "clock is a 301-digit number"),
    ("d6 shows 99", _set("DiceRolled", "faces", [99]), "a d6 shows 1 to 6, not 99"),
    ("total not the faces", _set("DiceRolled", "total", 5), "do not give the total 5"),
    ("no such row", _set("ResultRead", "row", 42), "has rows 0 to 5, not row 42"),
    ("row not on its roll", _set("ResultRead", "total", 1), "row 5 of .* is read on 6 to 6"),
    ("unknown light", _set("LightAdded", "kind", "lightsaber"), "'lightsaber' is not a light of"),
    ("unknown action", _set("TurnStarted", "action", "teleport"), "'teleport' is not an action"),
    ("unknown turn type", _turn_type_changed, "'space' is not a kind of turn"),
    ("turn of another type", _set("TurnStarted", "turn_type", "space"), "party is in 'turn'"),
    ("two starts", _second_start, "an expedition starts once"),
    ("session -3", _set("SessionStarted", "number", -3), "session -3 follows session 0"),
    (
        "same name twice",
        _set("MemberJoined", "name", "Ash", nth=1),
        "'Ash' is already in the party",
    ),
    ("fatigue -5", _set("FatigueChanged", "level", -5), r"fatigue level -5 is not a step"),
    ("fatigue 3", _set("FatigueChanged", "level", 3), r"fatigue level 3 is not a step"),
    ("nobody's fatigue", _set("FatigueChanged", "name", "Cor"), "no party member 'Cor'"),
    ("hp change", _set("MemberJoined", "hp", 60), "hp is 60; it must be from 0 to 6"),
    ("a note longer than a command", _set("Noted", "text", "a" * 1996), "at most 1,995"),
    (
        "a distance longer than any",
        _set("TurnStarted", "distance", "a" * 40_001),
        "its distance is 40,001 characters long; no command writes more than 40,000",
    ),
    (
        "a result longer than any",
        _set("ResultRead", "text", "a" * 40_001),
        "its text is 40,001 characters long",
    ),
]


@pytest.mark.parametrize(
    ("change", "message"), [c[1:] for c in IMPOSSIBLE], ids=[c[0] for c in IMPOSSIBLE]
)
def test_what_no_command_could_have_written_is_refused_naming_batch_event_and_line(
    exported: dict[str, Any], home: Path, change: Change, message: str
) -> None:
    change(exported)
    said = refused(home, json.dumps(exported, indent=1), message)
    assert "no command could have written it" in said
    assert ", on line " in said and "batch " in said


def test_the_line_named_is_the_line_the_batch_starts_on(
    exported: dict[str, Any], home: Path
) -> None:
    _set("FatigueChanged", "level", -5)(exported)
    text = json.dumps(exported, indent=1)
    said = refused(home, text, "fatigue level -5")
    line = int(said.split(", on line ")[1].split(":")[0])
    batch = next(b for b in exported["batches"] if b["command"] == "pc Ash fatigue=+1")
    assert text.splitlines()[line - 1].strip() == "{"
    assert f'"seq": {batch["seq"]}' in text.splitlines()[line]


def accepted_after(
    exported: dict[str, Any], home: Path, values: Callable[[object], list[object]]
) -> list[str]:
    """Each field of the first event of each kind set in turn to each of ``values(value)``
    (none for a field it does not apply to): the changes that were imported."""
    document = home / "crypt.json"
    accepted = []
    kinds = {e["type"] for b in exported["batches"] for e in b["events"]}
    for kind in sorted(kinds):
        for field, value in first(exported, kind).items():
            for new in values(value):
                damaged = json.loads(json.dumps(exported))
                first(damaged, kind)[field] = new
                document.write_text(json.dumps(damaged), encoding="utf-8")
                try:
                    import_file(document, "copy")
                except ImportRefused:
                    continue
                accepted.append(f"{kind}.{field}={str(new)[:20]}")
                (home / "copy.delve").unlink()
    return accepted


def test_every_number_is_bounded(exported: dict[str, Any], home: Path) -> None:
    """10^18 and 10^300 in every whole-number field of every kind of event are refused."""

    def huge(value: object) -> list[object]:
        if isinstance(value, list) and value and isinstance(value[0], int):
            return [[number] * len(value) for number in (10**18, -(10**18), 10**300)]
        if isinstance(value, int) and not isinstance(value, bool):
            return [10**18, -(10**18), 10**300]
        return []

    assert not accepted_after(exported, home, huge)


def test_every_text_is_bounded(exported: dict[str, Any], home: Path) -> None:
    """A text of 40,001 characters in any text field of any kind of event is refused: no
    command writes one (a command line holds 2,000, a procedure's text 10,000)."""

    def long(value: object) -> list[object]:
        if isinstance(value, str):
            return ["a" * 40_001]
        if isinstance(value, list) and value and isinstance(value[0], str):
            return [["a" * 40_001] * len(value)]
        return []

    assert not accepted_after(exported, home, long)


def test_duplicate_keys_are_refused(exported: dict[str, Any], home: Path) -> None:
    text = json.dumps(exported, indent=1).replace('"hp": 6,', '"hp": 6, "hp": 60,', 1)
    refused(home, text, r'the key "hp" is given twice in one object')
    text = json.dumps(exported, indent=1).replace('"format": ', '"format": "x", "format": ', 1)
    refused(home, text, r'its key "format" is given twice')


def test_a_procedure_change_must_name_its_own_text(expedition: Factory, home: Path) -> None:
    x = expedition("delving", name="crypt")
    x.execute("turn hazard=6", now=MOMENT)
    newer = load_text(x.procedure.text.replace('name = "Delving"', 'name = "Delving v2"'))
    x.change_procedure(newer, now=MOMENT)
    data = json.loads(export(x, "json"))
    x.close()
    (home / "crypt.delve").unlink()
    change = first(data, "ProcedureChanged")
    change["digest"] = "0123456789ab"
    refused(home, json.dumps(data), "its digest '0123456789ab' does not name its procedure text")
    change["digest"] = jf_digest(change["text"])
    change["procedure_id"] = "trespasser"
    refused(home, json.dumps(data), "it names the procedure 'trespasser' but its text is 'delving'")
    change["procedure_id"] = "delving"
    (home / "crypt.json").write_text(json.dumps(data), encoding="utf-8")
    assert import_file(home / "crypt.json", "fine").exists()


def jf_digest(text: str) -> str:
    from delvetui.core.audit import digest_of

    return digest_of(text)


def test_a_command_line_that_no_one_could_type_is_refused(
    exported: dict[str, Any], home: Path
) -> None:
    exported["batches"][-1]["command"] = "roll 2d6 \x1b]0;owned\x07"
    refused(home, json.dumps(exported), 'a "command" no command line could have typed')


# Point 7: lone surrogates ------------------------------------------------------------------


def test_a_lone_surrogate_is_refused_with_a_sentence(exported: dict[str, Any], home: Path) -> None:
    first(exported, "Noted")["text"] = "the \ud800 door"
    text = json.dumps(exported)  # ASCII: the surrogate is the escape \ud800
    assert "\\ud800" in text
    refused(home, text, r"lone surrogate \(\\ud800\)")
    exported["meta"]["name"] = "\udfff"
    document = home / "crypt.json"
    document.write_text(json.dumps(exported), encoding="utf-8")
    result = delvetui(home, "import", str(document), "copy")
    assert result.returncode == 2
    assert "lone surrogate" in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in home.iterdir()) == ["crypt.json"]


def test_a_lone_surrogate_in_a_copied_expedition_file_is_refused(
    played: Expedition, home: Path
) -> None:
    played.close()
    source = home / "crypt.delve"
    with sqlite3.connect(source) as conn:
        seq, batch, version = conn.execute(
            "SELECT seq, batch, version FROM events WHERE type = 'Noted'"
        ).fetchone()
        payload = b'{"text":"the \\ud800 door"}'
        crc = event_crc(batch, b"Noted", version, payload)
        conn.execute(
            "UPDATE events SET payload = ?, crc = ? WHERE seq = ?", (payload.decode(), crc, seq)
        )
    before = source.read_bytes()
    with pytest.raises(ImportRefused, match=r"batch \d+: the text .* holds a lone surrogate"):
        import_file(source, "copy")
    assert source.read_bytes() == before
    assert sorted(p.name for p in home.iterdir()) == ["crypt.delve"]


# Point 8: a fatigue level off the ladder ---------------------------------------------------


def hand_made(path: Path, events: list[NewEvent]) -> None:
    """Append a batch to an expedition file as a hand or another program might."""
    with Store.open(path) as store:
        store.append("pc Ash fatigue=-5", MOMENT.isoformat(), events)


def test_verify_reports_a_fatigue_level_no_command_could_set_and_status_still_shows(
    played: Expedition, home: Path
) -> None:
    played.close()
    path = home / "crypt.delve"
    payload = {"name": "Ash", "level": -5, "label": "fresh", "reason": "by hand"}
    hand_made(path, [NewEvent("FatigueChanged", 1, payload)])
    result = delvetui(home, "verify", "crypt")
    assert result.returncode == 2, result.stdout
    assert "no command could have written" in result.stderr
    assert "fatigue level -5 is not a step" in result.stderr
    assert "all sound" not in result.stdout
    for args in (("status", "crypt"), ("status", "crypt", "--json")):
        shown = delvetui(home, *args)
        assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
    for fmt in ("md", "txt", "html", "json"):
        shown = delvetui(home, "export", "crypt", "--format", fmt)
        assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
    copied = home / "copy-of-crypt.delve"
    shutil.copyfile(path, copied)
    with pytest.raises(ImportRefused, match=r"batch 12, event 1 \(FatigueChanged\): fatigue"):
        import_file(copied, "again")


# Point 13: a .delve file as the portable form, and streaming ---------------------------------


def test_a_copied_expedition_file_imports_checked_row_by_row(
    played: Expedition, home: Path, tmp_path: Path
) -> None:
    for text in ("undo", "turn hazard=2", "light off torch2"):
        played.execute(text, now=MOMENT)
    played.close()
    source = tmp_path / "sent-by-a-friend.delve"
    shutil.copyfile(home / "crypt.delve", source)
    before = source.read_bytes()
    result = delvetui(home, "import", str(source), "friend")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(home / "friend.delve")
    assert source.read_bytes() == before  # only read
    with (
        Expedition.open(home / "crypt.delve") as mine,
        Expedition.open(home / "friend.delve") as it,
    ):
        assert [(b.command, b.events) for b in it.batches()] == [
            (b.command, b.events) for b in mine.batches()
        ]
        assert it.state == mine.state
        assert it.store.meta() == mine.store.meta()
        assert it.store.latest_snapshot() is None  # nothing but the rows is taken
    assert delvetui(home, "verify", "friend").returncode == 0


def test_a_damaged_or_foreign_delve_file_is_refused(played: Expedition, home: Path) -> None:
    played.close()
    damaged = home / "damaged.delve"
    data = bytearray((home / "crypt.delve").read_bytes())
    # Over a stored event (not free space at the file's end, which moves as the texts do).
    at = data.rfind(b"TurnStarted")
    assert at > 0
    data[at : at + 100] = b"\xff" * 100
    damaged.write_bytes(bytes(data))
    with pytest.raises(ImportRefused, match="cannot be imported: it is not a sound expedition"):
        import_file(damaged, "copy")
    foreign = home / "foreign.delve"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(ImportRefused, match="another program"):
        import_file(foreign, "copy")
    assert not (home / "copy.delve").exists()


def test_an_export_read_in_tiny_pieces_imports_the_same(
    played: Expedition, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every value straddles the pieces the file is read in; lines still come out right."""
    document = home / "crypt.json"
    document.write_text(export(played, "json"), encoding="utf-8")
    monkeypatch.setattr(jf, "_CHUNK", 7)
    with Expedition.open(import_file(document, "copy")) as copy:
        assert copy.state == played.state
        assert copy.event_count == played.event_count
    data = json.loads(document.read_text())
    _set("FatigueChanged", "level", -5)(data)
    text = json.dumps(data, indent=1)
    document.write_text(text, encoding="utf-8")
    with pytest.raises(ImportRefused, match=", on line ") as refusal:
        import_file(document, "again")
    line = int(str(refusal.value).split(", on line ")[1].split(":")[0])
    assert text.splitlines()[line - 1].strip() == "{"
    document.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(ImportRefused, match="it looks cut off"):
        import_file(document, "again")


def long_expedition(path: Path, commands: int) -> None:
    """An expedition of many turns, decided for real and written in one transaction."""
    rules = find("delving")
    timeline = Timeline()
    first_batch = start_events("long", rules, seed=3)

    def batches() -> Iterator[tuple[str, str, list[NewEvent]]]:
        timeline.apply(Batch(1, "new", tuple(first_batch)))
        yield "new", MOMENT.isoformat(), encode(first_batch)
        lines = ["pc add Ash hp=6", "light add torch count=999", "light on torch"]
        for seq in range(2, commands + 1):
            line = lines[seq - 2] if seq - 2 < len(lines) else "note a long corridor"
            made = decide(
                timeline.state, rules, cmd.parse(line), rng=random.Random(seq), history=None
            )
            timeline.apply(Batch(seq, line, tuple(made)))
            yield line, MOMENT.isoformat(), encode(made)

    meta = {"name": "long", "procedure": rules.id, "seed": "3", "created": MOMENT.isoformat()}
    with Store.create(path, meta=meta, procedure_text=rules.text) as store:
        store.append_many(batches())


def peak_while(action: Callable[[], object]) -> int:
    """The peak of memory while the action runs (its test takes ``python_collector``)."""
    gc.collect()
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.long
@pytest.mark.usefixtures("python_collector")
def test_export_and_import_take_the_same_memory_for_a_longer_expedition(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pieces smaller than either file, so both are read the way a long one is (1 MiB).
    monkeypatch.setattr(jf, "_CHUNK", 16 * 1024)
    peaks: dict[int, tuple[int, int]] = {}
    for commands in (300, 3000):
        source = tmp_path / f"long{commands}.delve"
        long_expedition(source, commands)
        document = tmp_path / f"long{commands}.json"
        with Expedition.open(source, write=False) as x:

            def write(x: Expedition = x, document: Path = document) -> None:
                with document.open("w", encoding="utf-8") as out:
                    for piece in export_chunks(x, "json"):
                        out.write(piece)

            exporting = peak_while(write)

        def read(document: Path = document, commands: int = commands) -> None:
            import_file(document, f"back{commands}")

        importing = peak_while(read)
        peaks[commands] = (exporting, importing)
    small, large = peaks[300], peaks[3000]
    assert (home / "back3000.delve").exists()
    # Ten times the commands make a file ten times larger (some 150 bytes of JSON for each);
    # the memory grows by a few bytes a command (the numbers of the batches counting), where
    # holding the file, or its parsed objects, would take hundreds to thousands.
    per_command = [(big - few) / 2700 for few, big in zip(small, large, strict=True)]
    assert per_command[0] < 100, peaks
    assert per_command[1] < 400, peaks
