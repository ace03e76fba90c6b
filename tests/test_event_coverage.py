"""Every event type is covered everywhere an event's meaning lives, and old payloads are
read through upcasters.

What an event means is spread over four packages, a module for each family of events in
each: ``core/events/`` (the class, its version and how an older payload is read),
``core/evolve/`` (what it does to the state), ``core/event_checks/`` (whether a command
could have written it, for imports) and ``core/log/`` (its words in the turn log). A new
event type, or a version bump, that misses one of them fails here, by name.
"""

from __future__ import annotations

import json
import shutil
import types
import typing
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest

from delvetui.cli import status_data
from delvetui.core import event_checks, evolve, log
from delvetui.core import events as ev
from delvetui.core.state import State
from delvetui.export import export
from delvetui.procedure.registry import find
from delvetui.session import Expedition, to_batch
from delvetui.store import Store
from tests.conftest import Factory

from .test_import_meaning import MOMENT, PLAY, refused
from .test_old_files import OLD, kept
from .test_procedure_sessions import NOW

NAMES = sorted(ev.EVENT_TYPES)


def sample_value(hint: Any) -> Any:
    """A plain value of a field's type: words, a positive number, true, an empty tuple."""
    if hint is str:
        return "sample"
    if hint is int:
        return 3
    if hint is bool:
        return True
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return sample_value(next(arg for arg in typing.get_args(hint) if arg is not type(None)))
    if origin is tuple:
        return ()
    raise AssertionError(f"no sample for {hint}")


#: Fields that plain words cannot fill: what the log reads them as.
SAMPLE_FIELDS: dict[str, dict[str, Any]] = {
    "DiceRolled": {"expression": "d6", "faces": (3,), "kept": (3,)},
}


def sample(cls: type[ev.Event]) -> ev.Event:
    """An event of this type with every field given a plain value."""
    hints = typing.get_type_hints(cls)
    values = {field.name: sample_value(hints[field.name]) for field in attrs.fields(cls)}
    return cls(**{**values, **SAMPLE_FIELDS.get(cls.__name__, {})})


@pytest.mark.parametrize("name", NAMES)
def test_every_event_type_has_an_evolve_rule(name: str) -> None:
    """A replay raises ReplayError on an event with no rule: every type has one."""
    cls = ev.EVENT_TYPES[name]
    no_rule = evolve._apply.registry[object]
    assert evolve._apply.dispatch(cls) is not no_rule, f"{name} has no rule in core/evolve/"


@pytest.mark.parametrize("name", NAMES)
def test_every_event_type_has_an_import_check(name: str) -> None:
    """An import asks ``problem`` of every event: each type is registered in event_checks,
    with a check that says there is nothing to check when that is so."""
    cls = ev.EVENT_TYPES[name]
    assert cls in event_checks.CHECKED, f"{name} has no check in core/event_checks/"


@pytest.mark.parametrize("name", NAMES)
def test_every_event_type_has_its_words_in_the_log(name: str) -> None:
    """The turn log says an event in words, never by its class name; a bookkeeping event
    that deliberately prints nothing is named in ``log.NO_LINE``."""
    cls = ev.EVENT_TYPES[name]
    said = log.event_line(sample(cls), find("delving"), State())
    if cls in log.NO_LINE:
        assert said is None, f"{name} is in log.NO_LINE but has a line: {said}"
        return
    assert said is not None, f"{name} gives no log line; name it in log.NO_LINE if meant"
    _, text = said
    assert text.strip() and text != name, f"{name} has no words in core/log/"


#: Events that had no import check: each now refuses what no command could have written.
UNCHECKED_BEFORE = [
    ("ShownToPlayers", {"what": "treasure", "shown": True}, "players' screen has no 'treasure'"),
    ("LightFlickered", {"id": "lantern-9", "reason": "lit"}, "no light 'lantern-9'"),
    ("EffectDeferred", {"ref": "r", "label": "a fall", "member": "Cor"}, "no party member 'Cor'"),
]


@pytest.fixture
def crypt(expedition: Factory, home: Path) -> dict[str, Any]:
    """A short expedition exported as parsed JSON, its file gone (as in test_import_meaning)."""
    x = expedition("dungeon-turn", name="crypt")
    for text in PLAY:
        x.execute(text, now=MOMENT)
    data: dict[str, Any] = json.loads(export(x, "json"))
    x.close()
    (home / "crypt.delve").unlink()
    return data


@pytest.mark.parametrize(("type_", "payload", "message"), UNCHECKED_BEFORE)
def test_an_event_that_had_no_check_is_refused_when_no_command_could_write_it(
    crypt: dict[str, Any], home: Path, type_: str, payload: dict[str, Any], message: str
) -> None:
    """Import accepts only what a command could have written, for every event type: the
    players' screen shows a sign, an encounter or hit points; a light that flickers and the
    member an effect waits for are there."""
    crypt["batches"][-1]["events"].append({"type": type_, "version": 1, "payload": payload})
    crypt["counts"]["events"] += 1
    said = refused(home, json.dumps(crypt, indent=1), message)
    assert "no command could have written it" in said


def test_every_version_bump_has_an_upcaster() -> None:
    """A payload of any older version is brought up one version at a time: every step from
    version 1 to the one written has its upcaster, and no upcaster reads a version that is
    not older than the one written."""
    missing = [
        (name, version)
        for name, written in ev.SCHEMA_VERSIONS.items()
        for version in range(1, written)
        if (name, version) not in ev.UPCASTERS
    ]
    assert missing == []
    stray = [
        (name, version)
        for name, version in ev.UPCASTERS
        if name not in ev.SCHEMA_VERSIONS or not 1 <= version < ev.SCHEMA_VERSIONS[name]
    ]
    assert stray == []


def counting(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, int]]:
    """Count every upcaster's runs, by (type name, version)."""
    runs: Counter[tuple[str, int]] = Counter()
    for key, step in list(ev.UPCASTERS.items()):

        def counted(payload: dict[str, Any], key: Any = key, step: Any = step) -> dict[str, Any]:
            runs[key] += 1
            return typing.cast(dict[str, Any], step(payload))

        monkeypatch.setitem(ev.UPCASTERS, key, counted)
    return runs


def test_a_version_1_encounter_is_brought_up_step_by_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each step runs once, in order; version 1 named a creature only from a sign, so the
    creature it names is the one foretold."""
    runs = counting(monkeypatch)
    read = ev.Event.from_payload(
        "EncounterBegan", 1, {"text": "Ghouls in the dark.", "creature": "ghouls"}
    )
    assert read == ev.EncounterBegan(
        text="Ghouls in the dark.",
        creature="ghouls",
        foretold=True,
        distance="",
        area="",
        appearing=0,
        reaction="",
        players="",
    )
    assert runs == {
        ("EncounterBegan", 1): 1,
        ("EncounterBegan", 2): 1,
        ("EncounterBegan", 3): 1,
        ("EncounterBegan", 4): 1,
    }


def test_a_current_payload_runs_no_upcaster(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = counting(monkeypatch)
    written = ev.EncounterBegan(text="Bats.", creature="bats", distance="far")
    version = ev.SCHEMA_VERSIONS["EncounterBegan"]
    assert ev.Event.from_payload(written.type, version, written.to_payload()) == written
    assert runs == {}


def test_a_redo_of_version_1_names_no_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = counting(monkeypatch)
    read = ev.Event.from_payload("BatchRestored", 1, {"batch": 4, "command": "turn crawl"})
    assert read == ev.BatchRestored(batch=4, command="turn crawl", turns="")
    assert runs == {("BatchRestored", 1): 1}


@pytest.mark.parametrize("procedure_id", ["delving", "dungeon-turn"])
def test_an_old_file_is_read_through_the_upcasters_and_tells_the_same_story(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, procedure_id: str
) -> None:
    """0.1.0 wrote EncounterBegan at version 2: each is read through the version 2 and 3
    upcasters, once, and the expedition replays to the state and log 0.1.0 told; the same
    as when the class's defaults filled the fields the upcasters now fill."""
    path = tmp_path / f"{procedure_id}.delve"
    shutil.copyfile(OLD / f"{procedure_id}.delve", path)
    with Store.open(path, write=False) as store:
        stored = list(store.batches())
    old = [e for batch in stored for e in batch.events if e.type == "EncounterBegan"]
    assert old and {e.version for e in old} == {2}

    runs = counting(monkeypatch)
    read = [e for batch in stored for e in to_batch(batch).events]
    assert runs[("EncounterBegan", 2)] == runs[("EncounterBegan", 3)] == len(old)
    met = [e for e in read if isinstance(e, ev.EncounterBegan)]
    assert [(e.distance, e.area, e.appearing, e.reaction) for e in met] == [("", "", 0, "")] * len(
        old
    )
    # By the class's defaults alone, as before there were upcasters: the same events.
    by_default = [ev.EncounterBegan(**e.payload) for e in old]
    assert met == by_default

    with Expedition.open(path) as opened:
        status = json.loads(json.dumps(status_data(opened)))
        story = export(opened, "txt", now=NOW)
    told = json.loads((OLD / f"{procedure_id}.status.json").read_text(encoding="utf-8"))
    assert kept(told, status) == told
    assert story == (OLD / f"{procedure_id}.export.txt").read_text(encoding="utf-8")
