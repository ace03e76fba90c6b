"""Expeditions written by an earlier delvetui open and replay unchanged.

``tests/fixtures/made-by-0.1.0/`` holds the scripted 200-command expedition of each
shipped procedure as delvetui 0.1.0 (commit d12f569) wrote it: its own events, event
versions, snapshots and stored procedure text. Opened by today's code, each must tell the
same story as 0.1.0 told when it wrote them (``NAME.status.json``, ``NAME.export.txt``):
the same state in ``status --json`` (keys added since may be added) and the same session
log. A change to the format that breaks an old
file fails here; the files themselves are never written again. A deliberate change of the
log's words (and only that) writes the ``.export.txt`` beside them again, and its commit
says so.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from delvetui.cli import status_data
from delvetui.errors import ProcedureError
from delvetui.export import export, import_file
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui

from .test_procedure_sessions import NOW

OLD = Path(__file__).resolve().parent / "fixtures" / "made-by-0.1.0"


def kept(told: Any, now: Any) -> Any:
    """``now`` with only the keys ``told`` has, at every depth (new keys may be added)."""
    if isinstance(told, dict) and isinstance(now, dict):
        return {key: kept(value, now.get(key)) for key, value in told.items()}
    if isinstance(told, list) and isinstance(now, list) and len(told) == len(now):
        return [kept(a, b) for a, b in zip(told, now, strict=True)]
    return now


@pytest.mark.parametrize("procedure_id", sorted(path.stem for path in OLD.glob("*.delve")))
def test_an_old_expedition_replays_to_the_same_state_and_log(
    tmp_path: Path, procedure_id: str
) -> None:
    path = tmp_path / f"{procedure_id}.delve"
    shutil.copyfile(OLD / f"{procedure_id}.delve", path)
    with Expedition.open(path) as old:
        status = json.dumps(status_data(old), indent=2, sort_keys=True) + "\n"
        story = export(old, "txt", now=NOW)
        replayed = old.state
    with Expedition.open(path, write=False, snapshot=True) as resumed:
        # The snapshot the old program kept resumes to the state a full replay reaches.
        assert resumed.state == replayed
        resumed.verify()
    told = json.loads((OLD / f"{procedure_id}.status.json").read_text(encoding="utf-8"))
    assert kept(told, json.loads(status)) == told
    assert story == (OLD / f"{procedure_id}.export.txt").read_text(encoding="utf-8")
    assert (OLD / f"{procedure_id}.delve").read_bytes() == path.read_bytes()


def test_an_old_expedition_takes_new_commands(tmp_path: Path) -> None:
    path = tmp_path / "delving.delve"
    shutil.copyfile(OLD / "delving.delve", path)
    with Expedition.open(path) as old:
        before = old.state.turn
        old.execute("turn crawl hazard=6", now=NOW)
        after = old.state
    with Expedition.open(path, write=False) as again:
        assert again.state == after
        assert again.state.turn == before + 1


#: A procedure a game master wrote for 0.1.0: its chance roll does nothing on a hit, which
#: today's ``procedures check`` calls half written, as advice.
HALF_WRITTEN = find("delving").text.replace('id = "delving"', 'id = "my-delving"') + (
    '\n[rolls.omen]\nlabel = "Omen"\ndice = "1-in-6"\n'
)


def test_an_expedition_keeps_a_procedure_that_todays_advice_would_refuse(
    tmp_path: Path, home: Path
) -> None:
    with pytest.raises(ProcedureError, match="no on_hit"):
        load_text(HALF_WRITTEN)
    path = tmp_path / "mine.delve"
    with Expedition.create(path, load_text(HALF_WRITTEN, stored=True), seed=1, now=NOW) as x:
        x.execute("turn crawl hazard=6 omen=1", now=NOW)
    with Expedition.open(path) as again:
        assert again.procedure.id == "my-delving"
        again.execute("turn crawl hazard=6", now=NOW)
        assert again.state.turn == 2
        exported = export(again, "json", now=NOW)
    document = tmp_path / "mine.json"
    document.write_text(exported, encoding="utf-8")
    with Expedition.open(import_file(document, "copy")) as copy:
        assert copy.state.turn == 2
    written = tmp_path / "mine.toml"
    written.write_text(HALF_WRITTEN, encoding="utf-8")
    checked = delvetui(home, "procedures", "check", str(written))
    assert checked.returncode != 0 and "no on_hit" in checked.stdout + checked.stderr
