"""Import: an exported expedition comes back identical, and a damaged file is refused."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delvetui.errors import DelveError, ExpeditionExists, StorageFailed
from delvetui.export import export, import_file
from delvetui.export.json_format import ImportRefused
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.store import Store
from tests.conftest import Factory
from tests.shipped import SHIPPED
from tests.strategies import commands

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)


def stored(x: Expedition) -> list[tuple[int, str, str, list[tuple[str, int, Any]]]]:
    """Every batch as the file holds it."""
    return [
        (b.seq, b.command, b.at, [(e.type, e.version, e.payload) for e in b.events])
        for b in x.store.batches()
    ]


# The round trip ---------------------------------------------------------------------------


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    procedure=st.sampled_from(SHIPPED),
    seed=st.integers(0, 2**31 - 1),
    data=st.data(),
)
def test_export_then_import_gives_the_same_events_and_state(
    procedure: str, seed: int, data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        original = Expedition.create(home / "a.delve", find(procedure), seed=seed, now=MOMENT)
        with original:
            texts = data.draw(st.lists(commands(original.procedure), max_size=25))
            for number, text in enumerate(texts):
                with contextlib.suppress(DelveError):  # a refused command writes nothing
                    original.execute(text, now=MOMENT + dt.timedelta(minutes=number))
            document = home / "a.json"
            document.write_text(export(original, "json"), encoding="utf-8")
            with mock.patch.dict(os.environ, {"DELVETUI_HOME": folder}):
                path = import_file(document, "b")  # an import goes to the data folder
            with Expedition.open(path) as copy:
                assert stored(copy) == stored(original)
                assert copy.store.meta() == original.store.meta()
                assert copy.store.procedure_text() == original.store.procedure_text()
                assert copy.state == original.state
                assert copy.timeline.history() == original.timeline.history()


def test_import_takes_the_exported_name_and_prints_where(expedition: Factory, home: Path) -> None:
    x = expedition("delving", name="crypt")
    x.execute("pc add Ash hp=6")
    document = home / "crypt.json"
    document.write_text(export(x, "json"), encoding="utf-8")
    with pytest.raises(ExpeditionExists, match="give the import another name"):
        import_file(document)
    x.close()
    (home / "crypt.delve").rename(home / "elsewhere.delve.bak")
    assert import_file(document) == home / "crypt.delve"
    assert import_file(document, "copy") == home / "copy.delve"
    with Expedition.open(home / "copy.delve") as copy:
        assert copy.state.name == "crypt"
        assert [m.name for m in copy.state.party] == ["Ash"]


def test_an_imported_expedition_can_be_played_on(expedition: Factory, home: Path) -> None:
    x = expedition("delving", name="crypt")
    for text in ("pc add Ash hp=6", "turn hazard=6", "turn hazard=5", "undo"):
        x.execute(text, now=MOMENT)
    document = home / "crypt.json"
    document.write_text(export(x, "json"), encoding="utf-8")
    with Expedition.open(import_file(document, "copy")) as copy:
        assert copy.timeline.history().redo is not None
        copy.execute("redo", now=MOMENT)
        x.execute("redo", now=MOMENT)
        assert copy.state == x.state


# Refusals --------------------------------------------------------------------------------


@pytest.fixture
def exported(expedition: Factory, home: Path) -> dict[str, Any]:
    """A small exported expedition as parsed JSON, to be damaged by each test."""
    x = expedition("delving", name="crypt")
    for text in ("pc add Ash hp=6", "session start", "turn hazard=6", "note here"):
        x.execute(text, now=MOMENT)
    data: dict[str, Any] = json.loads(export(x, "json"))
    x.close()
    (home / "crypt.delve").unlink()
    return data


def damage(change: Callable[[dict[str, Any]], object]) -> Callable[[dict[str, Any]], str]:
    def damaged(data: dict[str, Any]) -> str:
        change(data)
        return json.dumps(data)

    return damaged


def _set(path: list[str | int], value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


REFUSALS: list[tuple[str, Callable[[dict[str, Any]], str], str]] = [
    ("cut off", lambda d: json.dumps(d)[:2000], "not valid JSON .*; it looks cut off"),
    ("empty", lambda d: "", "it is empty"),
    ("not JSON", lambda d: "name,procedure\ncrypt,delving\n", "not valid JSON"),
    ("a list", lambda d: "[1, 2]", "not a delvetui expedition export"),
    ("other format", damage(_set(["format"], "other-app")), r'its "format" is "other-app"'),
    ("newer", damage(_set(["format_version"], 9)), "format version 9; this delvetui"),
    ("no meta", damage(lambda d: d.pop("meta")), '"meta" is missing'),
    ("meta number", damage(_set(["meta", "seed"], 7)), '"meta" value for "seed" is not text'),
    (
        "unknown event",
        damage(_set(["batches", 1, "events", 0, "type"], "DragonSummoned")),
        'batch 2, event 1 has the unknown event type "DragonSummoned"',
    ),
    (
        "newer event",
        damage(_set(["batches", 1, "events", 0, "version"], 99)),
        "schema version 99, newer than this delvetui reads",
    ),
    (
        "missing field",
        damage(lambda d: d["batches"][1]["events"][0]["payload"].pop("hp")),
        r"batch 2, event 1 \(MemberJoined\) cannot be read",
    ),
    (
        "wrong type",
        damage(_set(["batches", 1, "events", 0, "payload", "hp"], "six")),
        r"batch 2, event 1 \(MemberJoined\) has a wrong value for 'hp': \"six\"",
    ),
    (
        "gap in seq",
        damage(_set(["batches", 2, "seq"], 5)),
        "batch 3 is numbered 5; batches must be numbered 1, 2, 3",
    ),
    (
        "lost batch",
        damage(lambda d: d["batches"].pop()),
        "says it holds 5 batches and .* but holds 4",
    ),
    (
        "broken procedure",
        damage(_set(["procedure", "text"], "id = 'x'\nname = [")),
        "its procedure text is broken",
    ),
    (
        "other procedure id",
        damage(_set(["procedure", "id"], "trespasser")),
        'procedure says its id is "trespasser" but the text is "delving"',
    ),
    (
        "bad time",
        damage(_set(["batches", 1, "at"], "yesterday")),
        'batch 2 has no "at" time',
    ),
    (
        "no start",
        damage(lambda d: d["batches"][0]["events"].clear()),
        "batch 1 does not start the expedition",
    ),
    (
        "a note edited by hand",  # an interchange format: a mended typo imports
        damage(_set(["batches", 4, "events", 0, "payload", "text"], "mended")),
        "",
    ),
    ("infinite", lambda d: json.dumps(d).replace('"hp": 6', '"hp": 1e999'), "too large"),
    ("NaN", lambda d: json.dumps(d).replace('"hp": 6', '"hp": NaN'), "NaN is not a number"),
]


@pytest.mark.parametrize(
    ("change", "message"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_a_damaged_or_foreign_file_is_refused_and_nothing_is_created(
    exported: dict[str, Any],
    home: Path,
    change: Callable[[dict[str, Any]], str],
    message: str,
) -> None:
    document = home / "crypt.json"
    document.write_text(change(exported), encoding="utf-8")
    if not message:  # a harmless change: imported as it is
        assert import_file(document).exists()
        return
    with pytest.raises(ImportRefused, match=message) as refused:
        import_file(document, "copy")
    assert str(refused.value).startswith(f"{document} cannot be imported: ")
    assert str(refused.value).endswith("Nothing was created.")
    assert sorted(p.name for p in home.iterdir()) == ["crypt.json"]


def test_a_log_that_does_not_replay_is_refused(exported: dict[str, Any], home: Path) -> None:
    batches = exported["batches"]
    undo = {"type": "BatchVoided", "version": 1, "payload": {"batch": 2, "command": "pc"}}
    batches.append({"seq": len(batches) + 1, "command": "undo", "at": batches[-1]["at"]})
    batches[-1]["events"] = [undo]
    exported.pop("counts")
    document = home / "crypt.json"
    document.write_text(json.dumps(exported), encoding="utf-8")
    with pytest.raises(
        ImportRefused, match=r"batch 6.*cannot be replayed \(batch 2 is not the last one counting"
    ):
        import_file(document)
    assert sorted(p.name for p in home.iterdir()) == ["crypt.json"]


def test_a_missing_file_is_named(home: Path) -> None:
    with pytest.raises(DelveError, match=r"There is no file .*nothing\.json to import"):
        import_file(home / "nothing.json")


def test_a_failure_while_writing_leaves_nothing_behind(
    exported: dict[str, Any], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = home / "crypt.json"
    document.write_text(json.dumps(exported), encoding="utf-8")
    calls = 0
    insert = Store._insert

    def failing(self: Store, *args: Any) -> int:
        nonlocal calls
        calls += 1
        if calls == 3:  # the third batch, inside the import's one transaction
            raise sqlite3.OperationalError("database or disk is full")
        return insert(self, *args)

    monkeypatch.setattr(Store, "_insert", failing)
    with pytest.raises(StorageFailed, match="disk is full"):
        import_file(document, "copy")
    assert sorted(p.name for p in home.iterdir()) == ["crypt.json"]
    assert not any(name.startswith(".") for name in os.listdir(home))


def test_an_expedition_that_moved_to_a_newer_procedure_comes_back(
    expedition: Factory, home: Path
) -> None:
    x = expedition("delving", name="crypt")
    x.execute("turn hazard=6", now=MOMENT)
    newer = load_text(x.procedure.text.replace('name = "Delving"', 'name = "Delving v2"'))
    x.change_procedure(newer, now=MOMENT)
    x.execute("turn hazard=6", now=MOMENT)
    data = json.loads(export(x, "json"))
    assert data["procedure"]["id"] == "delving"
    assert "Delving v2" in export(x, "md")
    document = home / "crypt.json"
    document.write_text(json.dumps(data), encoding="utf-8")
    with Expedition.open(import_file(document, "copy")) as copy:
        assert stored(copy) == stored(x) and copy.state == x.state
        assert copy.procedure.name == "Delving v2"
    changed = next(b for b in data["batches"] if b["command"].startswith("procedure"))
    changed["events"][0]["payload"]["text"] = "name = ["
    document.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ImportRefused, match="the procedure it moved to in batch 3 is broken"):
        import_file(document, "again")
