"""Who died at the end of an expedition: the one rule the next expedition and the campaign
view share (issue #32; docs/procedures.md 3.4 ``[party] dies_at_zero_hp`` and 3.23b).

A member with the condition ``dead`` died, in any game. A member at 0 HP or less died only
where the game counts 0 HP as death (Old-School Essentials, Basic Fantasy); in Cairn damage
past 0 HP goes to STR, so a member at 0 HP comes home, is healed by the downtime and comes
along, and ``new`` says so with the way to leave them or to mark a death. The campaign view
reads each expedition by its own procedure, so it never lists as died a member the next
expedition carried.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from delvetui.application.campaign import create_next, next_plan
from delvetui.core.campaign import died
from delvetui.errors import ProcedureError
from delvetui.export.campaign import Voyage
from delvetui.export.campaign_reading import read
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find, shipped_dir
from tests.cli_support import delvetui, status
from tests.conftest import Factory, run
from tests.shipped import SHIPPED, ledger


def _zero_hp_is_death(name: str) -> bool | None:
    """What the procedure's ledger says its text makes of a member at 0 HP, the reading it
    chose (``[party] dies_at_zero_hp = true`` or ``false``), or None where it says nothing."""
    said = re.search(r"dies_at_zero_hp = (true|false)", ledger(name))
    return None if said is None else said.group(1) == "true"


#: What each shipped procedure's text says of a member at 0 HP, as its ledger (which gives
#: the reasons) says it: True where 0 HP is death.
ZERO_HP_IS_DEATH = {
    name: death for name in SHIPPED if (death := _zero_hp_is_death(name)) is not None
}


def _ok(home: Path, *args: str, stdin: str | None = None) -> list[str]:
    result = delvetui(home, *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def _ended(expedition: Factory, procedure: str, *commands: str) -> Path:
    """An expedition of ``procedure`` named barrow: Ash hurt, then ``commands``, ended."""
    x = expedition(procedure, name="barrow", seed=4)
    run(x, "pc add Ash hp=6", "pc add Bryn hp=4", "pc Ash hp=-2", *commands, "end")
    path = x.path
    x.close()
    return path


def _voyage(path: Path) -> Voyage:
    found = read(path)
    assert isinstance(found, Voyage), found
    return found


def test_cairn_a_member_at_0_hp_comes_along_healed_and_did_not_die(home: Path) -> None:
    """Cairn 2e, Core Rules › Damage: damage past 0 HP goes to STR, and death comes from
    STR 0 or untreated critical damage, not from 0 HP. Bryn ends barrow at 0 HP: `new`
    carries Bryn, healed by Cairn's downtime (all HP after a day in safety), and says how
    to leave Bryn or mark a death; the campaign view lists no death."""
    _ok(home, "new", "barrow", "--procedure", "cairn", "--seed", "3")
    script = "pc add Ash hp=6 STR=12\npc add Bryn hp=4 STR=9\npc Bryn hp=0 STR=6\nend\n"
    _ok(home, "act", "barrow", "-", stdin=script)
    said = _ok(home, "new", "barrow-2", "--after", "barrow", "--downtime", "2d")
    assert (
        "Bryn was at 0 HP when barrow ended; in Cairn (second edition) that is not death, so "
        "Bryn comes along (to leave Bryn behind: `--leave Bryn`, or untick on the form; to "
        "record a death: `reopen` barrow, `pc Bryn +dead`, `end`)"
    ) in said[1:]
    assert not any("died" in line for line in said)
    party = {m["name"]: m for m in status(home, "barrow-2")["party"]}
    assert sorted(party) == ["Ash", "Bryn"]
    assert party["Bryn"]["hp"] == 4 and party["Bryn"]["abilities"] == {"STR": 6}
    view = json.loads("\n".join(_ok(home, "campaign", "barrow", "--json")))
    voyages = [v for c in view["campaigns"] for ch in c["chains"] for v in ch["expeditions"]]
    assert [(v["name"], v["died"]) for v in voyages] == [("barrow", []), ("barrow-2", [])]


def test_ose_a_member_at_0_hp_died_and_stays_behind(expedition: Factory, home: Path) -> None:
    """Old-School Essentials, Combat › Death: a character brought to 0 hit points or fewer
    is dead. Bryn stays behind, the note says so, and the campaign view lists Bryn as died."""
    path = _ended(expedition, "ose", "pc Bryn hp=0")
    plan = next_plan(path, "barrow-2", downtime="3d", seed=2)
    assert "Bryn died in barrow and stays behind" in plan.notes
    assert not any("comes along" in note for note in plan.notes)
    created = create_next(plan)
    assert _voyage(path).died == ("Bryn",)
    assert _voyage(created).members == ("Ash",)


@pytest.mark.parametrize("procedure", ["cairn", "ose", "mausritter"])
def test_the_condition_dead_means_died_in_any_game(
    expedition: Factory, home: Path, procedure: str
) -> None:
    """docs/procedures.md 3.23b: `pc NAME +dead` marks a death whatever the game says of
    0 HP: Bryn, dead with HP left, stays behind and the campaign view lists Bryn as died."""
    path = _ended(expedition, procedure, "pc Bryn +dead")
    plan = next_plan(path, "barrow-2", downtime="1d", seed=2)
    assert "Bryn died in barrow and stays behind" in plan.notes
    assert [m.name for m in plan.state.party] == ["Ash"]
    created = create_next(plan)
    assert _voyage(path).died == ("Bryn",)
    assert _voyage(created).members == ("Ash",)


def test_leave_takes_a_fallen_member_out_without_a_death(expedition: Factory, home: Path) -> None:
    """docs/procedures.md 3.23b: where 0 HP is not death, `--leave Bryn` leaves Bryn behind;
    the note says Bryn was left, not that Bryn died."""
    path = _ended(expedition, "mausritter", "pc Bryn hp=0")
    plan = next_plan(path, "barrow-2", downtime="1d", leave=("Bryn",), seed=2)
    assert plan.notes == ("Bryn was left behind",)
    assert _voyage(path).died == ()


def test_each_shipped_game_says_whether_0_hp_is_death(home: Path) -> None:
    """Each shipped procedure sets `[party] dies_at_zero_hp` as its text says (the rule
    ledgers, docs/rules/ID.md, give the source and the reading), and the one rule reads it:
    0 HP is death where the key says so, `dead` everywhere."""
    from delvetui.core.state import Member

    shipped = sorted(path.stem for path in shipped_dir().glob("*.toml"))
    assert shipped == sorted(ZERO_HP_IS_DEATH)
    fallen = Member(name="Bryn", hp=0, max_hp=4)
    marked = Member(name="Cy", hp=3, max_hp=4, conditions=("dead",))
    for procedure_id, death in ZERO_HP_IS_DEATH.items():
        procedure = find(procedure_id)
        assert procedure.party.dies_at_zero_hp is death, procedure_id
        assert died(fallen, procedure) is death, procedure_id
        assert died(marked, procedure), procedure_id


def test_the_key_takes_only_true_or_false() -> None:
    """docs/procedures.md 3.4: `dies_at_zero_hp` is true or false; anything else is refused
    with its key and line."""
    text = find("delving").text.replace("[party]\n", '[party]\ndies_at_zero_hp = "yes"\n', 1)
    text = text.replace("dies_at_zero_hp = false", "", 1)
    with pytest.raises(ProcedureError) as refused:
        load_text(text, source="delving-changed.toml")
    assert "party.dies_at_zero_hp: should be true or false, not the text 'yes'." in str(
        refused.value
    )
