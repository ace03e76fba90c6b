"""Moving an expedition to a newer procedure is an explicit, undoable event."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from delvetui.errors import CommandError
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests import cli_support
from tests.cli_support import delvetui, status

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)


#: The shipped delving's version; the newer one is the next.
BASE = find("delving").version


def newer_delving() -> str:
    text = find("delving").text
    newer = text.replace(f"version = {BASE}", f"version = {BASE + 1}")
    return newer.replace("hours = 8\n", "hours = 6\n", 1)


def test_a_newer_procedure_takes_over_and_undo_goes_back(tmp_path: Path) -> None:
    path = tmp_path / "x.delve"
    with Expedition.create(path, find("delving"), seed=1, now=MOMENT) as x:
        x.execute("pc add Ash hp=6", now=MOMENT)
        x.change_procedure(load_text(newer_delving()), now=MOMENT)
        assert x.procedure.version == BASE + 1
        x.execute("light add candle", now=MOMENT)
        assert x.state.lights[-1].minutes == 360
        x.execute("undo", now=MOMENT)
        x.execute("undo", now=MOMENT)
        assert x.procedure.version == BASE
        x.execute("redo", now=MOMENT)
        live = x.state
    with Expedition.open(path) as again:
        assert again.state == live
        assert again.procedure.version == BASE + 1


def test_a_procedure_that_cannot_hold_the_inventory_is_refused(tmp_path: Path) -> None:
    with Expedition.create(tmp_path / "x.delve", find("delving"), seed=1, now=MOMENT) as x:
        x.execute("light add candle", now=MOMENT)
        with pytest.raises(CommandError, match="no light kind 'candle'"):
            x.change_procedure(find("travel-turn"), now=MOMENT)
        with pytest.raises(CommandError, match="already follows"):
            x.change_procedure(find("delving"), now=MOMENT)


def test_upgrade_from_the_shell(home: Path, tmp_path: Path) -> None:
    cli_support.made(home, "crypt", "delving")
    newer = tmp_path / "delving-v2.toml"
    newer.write_text(newer_delving())
    result = delvetui(home, "upgrade", "crypt", "--procedure", str(newer))
    assert result.returncode == 0, result.stderr
    assert "now follows Delving" in result.stdout
    assert status(home, "crypt")["events"] == 3  # the start's two and the move
    again = delvetui(home, "upgrade", "crypt", "--procedure", str(newer))
    assert again.returncode == 2 and "already follows" in again.stderr
