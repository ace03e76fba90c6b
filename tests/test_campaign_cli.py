"""A campaign from the shell (issue #32): `new NAME --after PRED`, run as a real subprocess.

The rules (docs/commands.md "end"; docs/procedures.md 3.23b; the command-line contract in
docs/design.md): the next expedition starts where the last one ended plus the downtime, with
the party as it ended (the dead stay behind), healed by whole days of rest, the lights
unlit; it is refused when the predecessor has not ended or it would start before that end;
each file stands alone, so an exported one imports without its predecessor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from delvetui.core import events as ev
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui, status

#: A procedure like Delving whose downtime heals by dice: 1d3 HP a day of rest.
DICE_DOWNTIME = '\n[downtime]\nheal = "1d3"\ntext = "1d3 HP a day in town."\n'


def _ok(home: Path, *args: str, stdin: str | None = None) -> list[str]:
    result = delvetui(home, *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def _healing_rolled(path: Path) -> list[int]:
    """The downtime's dice kept in batch 1 of the file."""
    with Expedition.open(path, write=False) as x:
        first = next(x.batches())
    return [e.total for e in first.events if isinstance(e, ev.DiceRolled)]


def test_a_chain_of_three_expeditions_across_two_procedures(home: Path, tmp_path: Path) -> None:
    """Delving, then Cairn, then Delving healing by dice: a death, a new member, bought
    torches, and each status as the game master would check it."""
    base = re.sub(r"\n\[downtime\]\n(?:[^\[].*\n)*", "\n", find("delving").text)
    rested = tmp_path / "delving-rested.toml"
    rested.write_text(base + DICE_DOWNTIME, encoding="utf-8")

    _ok(home, "new", "barrow", "--procedure", "delving", "--seed", "3", "--campaign", "marches")
    script = (
        "pc add Ash hp=8 STR=14\npc add Bryn hp=5\npc add Cy hp=6\n"
        "light add torch count=3 carrier=Ash lit\nsession start\nturn hazard=6\n"
        "pc Ash hp=-5\npc Bryn hp=0 +dead\nend the party is back in town\n"
    )
    _ok(home, "act", "barrow", "-", stdin=script)
    first = status(home, "barrow")
    assert first["ended"] is True and first["campaign"] == "marches"
    assert first["predecessor"] is None and first["day"] == 1

    # Three days in town, then Cairn: Bryn stays behind; Cairn's downtime heals all HP.
    said = _ok(home, "new", "barrow-2", "--after", "barrow", "--downtime", "3d", "--procedure",
               "cairn", "--start", "09:00")  # fmt: skip
    assert said[0] == str(home / "barrow-2.delve")
    assert "Bryn died in barrow and stays behind" in said[1:]
    second = status(home, "barrow-2")
    assert second["procedure"] == "cairn" and second["predecessor"] == "barrow"
    assert second["campaign"] == "marches" and second["ended"] is False
    assert second["day"] == 4 and second["clock"] == "09:00" and second["turn"] == 0
    party = {m["name"]: m for m in second["party"]}
    assert sorted(party) == ["Ash", "Cy"]
    assert party["Ash"]["hp"] == 8 and party["Ash"]["max_hp"] == 8  # a day heals all
    assert party["Ash"]["abilities"] == {"STR": 14} and party["Cy"]["hp"] == 6
    assert second["lights"] and not any(light["lit"] for light in second["lights"])
    carried = sum(light["count"] for light in second["lights"])
    assert carried == 3  # the lit torch came home unlit, with the two in the stack

    script = (
        "pc add Dax hp=4 STR=10\nlight add torch count=3\nturn weather-spring=2 hazard=6\n"
        "pc Ash hp=-4\nend\n"
    )
    _ok(home, "act", "barrow-2", "-", stdin=script)

    # Back to a Delving that heals by dice: the rolls are in the file, the HP their sum.
    said = _ok(home, "new", "barrow-3", "--after", "barrow-2", "--downtime", "2d",
               "--procedure", str(rested), "--seed", "11")  # fmt: skip
    third = status(home, "barrow-3")
    assert third["procedure"] == "delving" and third["predecessor"] == "barrow-2"
    assert third["campaign"] == "marches"
    assert third["day"] == second["day"] + 2
    party = {m["name"]: m for m in third["party"]}
    assert sorted(party) == ["Ash", "Cy", "Dax"]
    rolls = _healing_rolled(home / "barrow-3.delve")
    assert len(rolls) == 2 and all(1 <= roll <= 3 for roll in rolls)
    assert party["Ash"]["hp"] == min(8, 4 + sum(rolls))
    assert sum(light["count"] for light in third["lights"]) == 6
    assert not any(light["lit"] for light in third["lights"])


def test_refused_starts_change_nothing(home: Path) -> None:
    """Not ended: refused with the command that ends it. Ended but the start is before its
    end: refused. Neither leaves a file, and the predecessor is never written."""
    _ok(home, "new", "barrow", "--procedure", "delving", "--start", "14:00")
    _ok(home, "act", "barrow", "pc add Ash hp=6")
    result = delvetui(home, "new", "barrow-2", "--after", "barrow")
    assert result.returncode == 2
    assert "barrow has not ended; end it first with `delvetui act barrow end`." in result.stderr
    _ok(home, "act", "barrow", "end")
    before = (home / "barrow.delve").read_bytes()
    result = delvetui(
        home, "new", "barrow-2", "--after", "barrow", "--day", "1", "--start", "08:00"
    )
    assert result.returncode == 2
    assert "barrow ended on day 1 at 14:00" in result.stderr
    assert "it would start on day 1 at 08:00" in result.stderr
    assert "cannot start before that" in result.stderr
    assert not (home / "barrow-2.delve").exists()
    assert (home / "barrow.delve").read_bytes() == before
    taken = delvetui(home, "new", "barrow", "--after", "barrow")
    assert taken.returncode == 2 and "already exists" in taken.stderr


def test_a_chained_expedition_imports_without_its_predecessor(home: Path, tmp_path: Path) -> None:
    _ok(home, "new", "barrow", "--procedure", "delving", "--seed", "2")
    _ok(home, "act", "barrow", "-", stdin="pc add Ash hp=6\npc Ash hp=-2\nend\n")
    before = (home / "barrow.delve").read_bytes()
    _ok(home, "new", "barrow-2", "--after", "barrow", "--downtime", "1d")
    assert (home / "barrow.delve").read_bytes() == before  # read, never written
    exported = tmp_path / "barrow-2.json"
    _ok(home, "export", "barrow-2", "--format", "json", "-o", str(exported))
    (home / "barrow.delve").unlink()
    (home / "barrow-2.delve").unlink()
    _ok(home, "import", str(exported))
    data = status(home, "barrow-2")
    assert data["predecessor"] == "barrow" and data["campaign"] == "barrow"
    assert [(m["name"], m["hp"]) for m in data["party"]] == [("Ash", 5)]
    said = _ok(home, "status", "barrow-2")
    assert "After barrow, in the campaign barrow" in said
    assert json.loads(exported.read_text())["meta"]["id"]


def test_a_name_after_leave_is_pointed_out(home: Path) -> None:
    """`new NAME --after PRED --leave NAME ...` (docs/commands.md): --leave takes every
    word after it, so a name typed last is read as one more member left behind; the
    refusal says so, and nothing is made."""
    _ok(home, "new", "barrow", "--procedure", "delving")
    _ok(home, "act", "barrow", "-", stdin="pc add Ash hp=5\npc add Bryn hp=4\nend\n")
    result = delvetui(home, "new", "--after", "barrow", "--downtime", "1d", "--leave", "Bryn", "b2")
    assert result.returncode == 2
    assert "--leave takes every word after it as a member who stays behind (Bryn, b2)" in (
        result.stderr
    )
    assert "put the name first" in result.stderr
    assert sorted(p.name for p in home.glob("*.delve")) == ["barrow.delve"]
