"""The dungeon across a campaign (issue 41): the next expedition carries the rooms and their
marks, each cleared room rolls to restock in the downtime, and the campaign view, the
chronicle and the map agree on what the party explored, cleared and found restocked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from delvetui.application.campaign import create_next, next_plan
from delvetui.core import log
from delvetui.core.areas import areas
from delvetui.core.room_map import drawing, plain
from delvetui.core.rooms import counts
from delvetui.errors import DelveError
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui

DUNGEON = Path(__file__).resolve().parent.parent / "docs" / "examples" / "ash-king-dungeon.toml"

#: The first expedition: the whole chapel and most of the ossuary, clearing as it goes.
FIRST = [str(n) for n in (1, 2, 3, 4, 8, 9, 12, 11, 7, 3, 2, 5, 2, 6, 10, 6, 2, 3, 4, 8, 9)]
FIRST += [str(n) for n in (13, 14, 15, 18, 21, 22, 20, 17, 16, 19)]
CLEARED = ("2", "3", "4", "7", "8", "11", "12", "14", "15", "18")
#: The second, a month later: down through the well of bones to the Ash-King.
SECOND = [str(n) for n in (1, 2, 3, 4, 8, 9, 13, 14, 17, 20, 23, 24, 26, 28, 26, 27, 29, 30)]
SECOND += [str(n) for n in (29, 27, 25, 23)]


def play(made: Expedition, route: list[str], cleared: tuple[str, ...] = ()) -> None:
    """A turn in each room of the route, as a game master plays it."""
    for room in route:
        made.execute(f"go {room}")
        made.execute("turn")
        if room in cleared and "cleared" not in made.state.find_room(room).marks:  # type: ignore[union-attr]
            made.execute(f"room {room} +cleared")


def entered(made: Expedition) -> list[str]:
    """The rooms the log says the party went to, in order."""
    words = [line.text for line in log.lines(made.batches(), made.procedure) if not line.voided]
    return [m.group(1) for w in words if (m := re.match(r"The party goes to room (\w+)", w))]


@pytest.mark.long
def test_a_dungeon_of_thirty_rooms_played_through_two_expeditions_a_month_apart(
    home: Path,
) -> None:
    first = Expedition.create(home / "crypt-1.delve", find("ose"), seed=7)
    first.execute(f"tables add {DUNGEON}")
    first.execute("pc add Ash hp=8")
    first.execute("pc add Bryn hp=6")
    play(first, FIRST, CLEARED)
    first.execute("room 4 +looted")
    first.execute("room 18 note the finger bone is taken")
    first.execute("end the party is back in town")
    went = entered(first)
    first.close()

    plan = next_plan(home / "crypt-1.delve", "crypt-2", downtime="30d", seed=3, restock="1-in-2")
    second = Expedition.open(create_next(plan))
    state = second.state
    # The dungeon came along: every room, its marks and notes; no visit, no room the party is in.
    assert len(state.rooms) == 30 and state.room == ""
    door = state.find_room("4")
    assert door is not None and "looted" in door.marks and door.visits == ()
    reliquary = state.find_room("18")
    assert reliquary is not None and reliquary.notes == ("the finger bone is taken",)
    restocked = [room.id for room in state.rooms if "restocked" in room.marks]
    still = [room.id for room in state.rooms if "cleared" in room.marks]
    assert restocked and sorted(restocked + still, key=int) == sorted(CLEARED, key=int)
    moved_in = [room.restocked for room in state.rooms if room.id in restocked]
    assert all(what.startswith(("Monsters", "A trap", "Treasure")) for what in moved_in)
    # The rolls are in the new expedition's log, one for each cleared room.
    words = [line.text for line in log.lines(second.batches(), second.procedure)]
    assert sum(w.startswith("Restocking room ") for w in words) == len(CLEARED)
    assert any(w.startswith("In the downtime room ") for w in words)

    play(second, SECOND)
    second.execute("end")
    # Every room of the dungeon was gone to, as the two logs say.
    assert went == FIRST
    assert set(went) | set(entered(second)) == {str(n) for n in range(1, 31)}
    final = second.state
    second.close()

    # The map of the second expedition: every room known, each restocked one marked so.
    drawn = "\n".join(plain(drawing(final, areas(final))))
    for room in final.rooms:
        sign = "!" if "restocked" in room.marks else "×" if "cleared" in room.marks else ""
        assert f"[{room.id.ljust(2)}{sign or ' '}]" in drawn or f"[{room.id.ljust(2)}@]" in drawn
    assert "?" not in drawn.split("\n@")[0]  # the party explored them all

    # The campaign view says the same: the dungeon at the end, and each route.
    done = delvetui(home, "campaign", "crypt-1", "--json")
    assert done.returncode == 0, done.stderr
    campaign = json.loads(done.stdout)["campaigns"][0]
    one, two = campaign["chains"][0]["expeditions"]
    assert one["route"] == FIRST and two["route"] == SECOND
    assert two["restocked"] and len(two["restocked"]) == len(restocked)
    found = counts(final)
    said = f"30 rooms, 30 explored, {found['cleared']} cleared, 1 looted"
    assert campaign["dungeon"][0].startswith(f"after crypt-2: {said}")
    assert f"{len(restocked)} room" in campaign["dungeon"][0]


def test_without_a_rule_a_cleared_room_stays_cleared_and_the_notes_say_how_to_give_one(
    home: Path, tmp_path: Path
) -> None:
    plain_file = tmp_path / "plain.toml"
    text = DUNGEON.read_text(encoding="utf-8")
    plain_file.write_text(
        text[: text.index("[restock]")] + text[text.index("# Level 1: the chapel") :]
    )
    first = Expedition.create(home / "a.delve", find("ose"), seed=7)
    first.execute(f"tables add {plain_file}")
    first.execute("go 1")
    first.execute("room 1 +cleared")
    first.execute("end")
    first.close()
    plan = next_plan(home / "a.delve", "b", downtime="7d", seed=1)
    assert plan.notes[-1] == (
        "1 cleared room had no rule to restock by and stayed cleared (give one with "
        "--restock 1-in-6)"
    )
    assert plan.state.find_room("1").marks == ("explored", "cleared")  # type: ignore[union-attr]
    # No time passed: no room rolls, whatever the rule.
    plan = next_plan(home / "a.delve", "b", seed=1, restock="6-in-6")
    assert plan.notes[-1] == "no time passed, so no cleared room restocked"
    plan = next_plan(home / "a.delve", "b", downtime="1d", seed=1, restock="6-in-6")
    assert plan.state.find_room("1").marks == ("explored", "restocked")  # type: ignore[union-attr]
    with pytest.raises(DelveError, match="--restock: 'often' is not a chance; write X-in-N"):
        next_plan(home / "a.delve", "b", downtime="1d", restock="often")


def test_the_procedures_downtime_restock_is_the_rule_where_the_file_gives_none(
    home: Path, tmp_path: Path
) -> None:
    from delvetui.procedure.loader import load_text

    ose = find("ose")
    own = load_text(
        ose.text + '\n[downtime]\nrestock = "6-in-6"\n'
        if "[downtime]" not in ose.text
        else ose.text.replace("[downtime]\n", '[downtime]\nrestock = "6-in-6"\n', 1)
    )
    assert own.downtime.restock == "6-in-6"
    first = Expedition.create(home / "a.delve", own, seed=7)
    first.execute("room add 1 label=Cellar")
    first.execute("go 1")
    first.execute("room 1 +cleared")
    first.execute("end")
    first.close()
    plan = next_plan(home / "a.delve", "b", downtime="2d", seed=1)
    assert "by 6-in-6 (Old-School Essentials's downtime): restocked 1" in plan.notes[-1]
    room = plan.state.find_room("1")
    assert room is not None and room.marks == ("explored", "restocked") and room.tables == ""


@pytest.mark.long
def test_new_after_on_the_command_line_carries_the_dungeon_and_takes_restock(home: Path) -> None:
    made = delvetui(
        home, "new", "c1", "--procedure", "ose", "--seed", "2", "--tables", str(DUNGEON)
    )
    assert made.returncode == 0, made.stderr
    act = delvetui(home, "act", "c1", "-", stdin="go 1\nroom 1 +cleared\ngo 2\nend\n")
    assert act.returncode == 0, act.stderr
    bad = delvetui(home, "new", "c2", "--after", "c1", "--restock", "sometimes")
    assert bad.returncode == 2 and "--restock: 'sometimes' is not a chance" in bad.stderr
    assert not (home / "c2.delve").exists()
    # The same tables file given again is the one carried: not added twice.
    done = delvetui(
        home, "new", "c2", "--after", "c1", "--downtime", "30d", "--seed", "4",
        "--restock", "6-in-6", "--tables", str(DUNGEON),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "The dungeon carries: 30 rooms, 2 explored, 1 cleared" in done.stdout
    assert "1 cleared room rolled to restock by 6-in-6 (given with --restock): restocked 1" in (
        done.stdout
    )
    again = delvetui(home, "new", "c3", "--procedure", "ose", "--restock", "1-in-6")
    assert again.returncode == 2 and "--restock go with --after" in again.stderr
