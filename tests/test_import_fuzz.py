"""A valid export changed field by field: refused in one sentence, or imported sound and shown.

Each example takes one field of a real export (anywhere: the head, the meta, a batch, an
event's payload) and replaces it with a value of another type, an out-of-range number,
text with control characters or a lone surrogate, or something very large, or removes
it. Then either the import is refused with a sentence and nothing is created, or the new
expedition is one ``verify`` calls sound and that ``status``, every export and (for a
sample) the table's screenshot show without a traceback.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delvetui.cli import _status_text, status_data
from delvetui.errors import DelveError
from delvetui.export import FORMATS, export, import_file
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.strategies import hostile_values

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)
PLAY = (
    "pc add Ash hp=6",
    "pc add Bex hp=5 STR=13",
    "light add torch count=3 carrier=Ash",
    "light on torch",
    "session start",
    "turn explore hazard=6",
    "turn hazard=3",
    "turn rest hazard=2",
    "pc Ash fatigue=+1 +poisoned",
    "note the door is stuck",
    "roll 2d6 reaction",
    "undo",
    "turn explore hazard=1",  # an encounter, its distance and disposition
    "light realtime torch2 30m",  # a light burning by the real clock
    "realtime pause 5m lunch",
    "light off torch2",
)
#: How many accepted imports get the table's screenshot too (it takes a second or two).
SCREENSHOTS = 2
_shots: list[str] = []
#: What happened to the examples of one run (printed with -s, for docs/reliability.md).
_tally = {"refused": 0, "imported": 0}

Path_ = tuple[str | int, ...]


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """A real export of a short expedition on dungeon-turn, parsed."""
    with tempfile.TemporaryDirectory() as folder:
        x = Expedition.create(Path(folder) / "crypt.delve", find("dungeon-turn"), seed=5)
        with x:
            for text in PLAY:
                x.execute(text, now=MOMENT)
            data: dict[str, Any] = json.loads(export(x, "json"))
    return data


@pytest.fixture(scope="module", autouse=True)
def tally() -> Iterator[None]:
    yield
    print(f"\nchanged exports: {_tally}, screenshots: {len(_shots)}")


def places(value: object, at: Path_ = ()) -> Iterator[Path_]:
    """The path of every value inside a document (not the document itself)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*at, key)
            yield from places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*at, index)
            yield from places(item, (*at, index))


def changed(data: dict[str, Any], where: Path_, how: str, new: object) -> dict[str, Any]:
    """A copy of the document with one value replaced, removed, or its text added to."""
    copy: dict[str, Any] = json.loads(json.dumps(data))
    parent: Any = copy
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    if how == "remove":
        parent.pop(last)
    elif how == "append" and isinstance(parent[last], str) and isinstance(new, str):
        parent[last] = parent[last] + new
    else:
        parent[last] = new
    return copy


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@pytest.mark.long
@given(data=st.data())
def test_a_changed_export_is_refused_in_a_sentence_or_imported_sound_and_shown(
    document: dict[str, Any], data: st.DataObject
) -> None:
    where = data.draw(st.sampled_from(list(places(document))), label="where")
    how = data.draw(st.sampled_from(["replace", "remove", "append"]), label="how")
    new = data.draw(hostile_values(), label="new")
    text = json.dumps(changed(document, where, how, new))  # ASCII: surrogates as \u escapes
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        source = home / "given.json"
        source.write_text(text, encoding="ascii")
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("DELVETUI_HOME", str(home))
            try:
                path = import_file(source, "copy")
            except DelveError as error:
                said = str(error)
                assert said.strip() and "Traceback" not in said
                assert said.startswith(f"{source} cannot be imported: "), said
                assert said.endswith("Nothing was created."), said
                assert sorted(p.name for p in home.iterdir()) == ["given.json"]
                _tally["refused"] += 1
                return
            shown_by_every_reader(path, home)
            _tally["imported"] += 1


def shown_by_every_reader(path: Path, home: Path) -> None:
    """verify calls it sound; status, every export and a sample of screenshots show it."""
    with Expedition.open(path, write=False, snapshot=True) as x:
        x.verify()
        data = status_data(x)
        json.dumps(data, ensure_ascii=False).encode("utf-8")
        _status_text(x.state, x.procedure, data).encode("utf-8")
        for fmt in FORMATS:
            export(x, fmt).encode("utf-8")
    if len(_shots) < SCREENSHOTS:
        from delvetui.ui.app import screenshot

        out = home / "table.svg"
        screenshot(path, out, (120, 40))
        _shots.append(out.read_text(encoding="utf-8"))
        assert "Traceback" not in _shots[-1]


def test_the_fuzzing_reaches_both_outcomes(document: dict[str, Any], tmp_path: Path) -> None:
    """A harmless change imports (and is shown); a harmful one is refused."""
    home = tmp_path
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DELVETUI_HOME", str(home))
        note = next(
            tuple(p)
            for p in places(document)
            if len(p) == 6 and p[-1] == "text" and p[2] == "events"
        )
        source = home / "given.json"
        source.write_text(json.dumps(changed(document, note, "append", " (mended)")), "ascii")
        shown_by_every_reader(import_file(source, "copy"), home)
        hp = next(p for p in places(document) if p[-1] == "max_hp")
        source.write_text(json.dumps(changed(document, hp, "replace", -10)), "ascii")
        with contextlib.suppress(FileNotFoundError):
            (home / "other.delve").unlink()
        with pytest.raises(DelveError, match="max_hp is -10"):
            import_file(source, "other")
