"""Counters with named levels and roll intervals that depend on the state: the danger's
level sets how often the wandering monsters come, and the count starts again when it
changes; ``counter set`` at the table; the level shown by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.event_checks import problem
from delvetui.core.log import lines
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.counters import Counters
from delvetui.ui.table.palette import entries
from tests.cli_support import delvetui, made
from tests.test_docs_procedures import complete
from tests.ui_support import SIZES, ready, settled

HILL = complete("under-the-hill")


def _hill(home: Path) -> Expedition:
    expedition = Expedition.create(home / "hill.delve", load_text(HILL), seed=4)
    expedition.execute("pc add Ash hp=8")
    expedition.execute("light add torch lit")
    return expedition


def _rounds(expedition: Expedition, rounds: range, rolled: set[int]) -> None:
    """Take these rounds; the check must come on exactly the rounds in ``rolled``.

    A round with a check is typed with its die (wandering=6, nothing comes); a round
    without one cannot take the key, so each round proves whether the check came.
    """
    for number in rounds:
        assert expedition.state.turn + 1 == number
        if number in rolled:
            batch = expedition.execute("turn wandering=6")
            assert any(isinstance(e, ev.HazardRead) for e in batch.events), number
        else:
            with pytest.raises(CommandError, match="Wandering monsters is not rolled this turn"):
                expedition.execute("turn wandering=6")
            batch = expedition.execute("turn")
            assert not any(isinstance(e, ev.DiceRolled) for e in batch.events), number


def test_the_level_sets_the_interval_and_a_change_restarts_the_count(home: Path) -> None:
    with _hill(home) as expedition:
        _rounds(expedition, range(1, 8), {3, 6})  # unsafe: every 3 rounds
        expedition.execute("counter set danger risky")
        _rounds(expedition, range(8, 12), {9, 11})  # risky: every 2, counted from round 8
        expedition.execute("light off torch1")
        _rounds(expedition, range(12, 14), {12, 13})  # total darkness: every round
        expedition.execute("counter set danger safe")
        _rounds(expedition, range(14, 16), set())  # safe: no check at all
        expedition.execute("light on torch1")
        expedition.execute("counter set danger unsafe")
        _rounds(expedition, range(16, 20), {18})  # back to unsafe: counted again from 16
        state = expedition.state
        told = [line.text for line in lines(expedition.batches(), expedition.procedure)]
    assert "Wandering monsters: every 3 rounds now, counting from round 1." in told
    assert "Wandering monsters: every 2 rounds now, counting from round 8." in told
    assert "Wandering monsters: every round now, counting from round 12." in told
    assert "Danger is now risky (game master)." in told
    with Expedition.open(home / "hill.delve") as again:
        assert again.state == state


def test_a_fight_makes_it_deadly_and_the_check_comes_every_round(home: Path) -> None:
    with _hill(home) as expedition:
        _rounds(expedition, range(1, 3), set())
        batch = expedition.execute("turn fight")
        changed = [e for e in batch.events if isinstance(e, ev.CounterChanged)]
        assert [(e.value, e.reason) for e in changed] == [(3, "the din of battle")]
        assert any(isinstance(e, ev.HazardRead) for e in batch.events)  # round 3, deadly
        _rounds(expedition, range(4, 6), {4, 5})


def test_a_counter_is_set_at_the_table_by_level_number_or_change(home: Path) -> None:
    with _hill(home) as expedition:
        assert expedition.state.counter("danger") == 1  # starts "unsafe"
        expedition.execute("counter set danger RISKY")
        assert expedition.state.counter("danger") == 2
        expedition.execute("counter set danger +1")
        assert expedition.state.counter("danger") == 3
        expedition.execute("counter set danger 0")
        assert expedition.state.counter("danger") == 0
        count = expedition.event_count
        for command, message in [
            (
                "counter set danger riksy",
                "'riksy' is not a value of Danger: give a whole "
                "number (from 0 (safe) to 3 (deadly)), +N or -N or one of its levels (safe, "
                "unsafe, risky, deadly). Did you mean 'risky'?",
            ),
            ("counter set danger 4", "Danger goes from 0 (safe) to 3 (deadly), so it cannot be 4."),
            (
                "counter set danger -1",
                "Danger goes from 0 (safe) to 3 (deadly), so it cannot be -1.",
            ),
            ("counter set danger safe", "Danger is already safe; nothing was saved."),
            ("counter set noise 2", "'noise' is not a counter of Under the Hill (danger)."),
            ("counter danger 2", "Say counter set COUNTER VALUE, e.g. counter set alarm 3."),
        ]:
            with pytest.raises(CommandError) as error:
                expedition.execute(command)
            assert message in error.value.message, command
        assert expedition.event_count == count


@pytest.mark.parametrize(
    ("change", "found"),
    [
        (
            ('start = "unsafe"', 'start = "unsfe"'),
            "counters.danger.start: 'unsfe' is not a level of the counter (safe, unsafe, "
            "risky, deadly); give a level or a whole number. Did you mean 'unsafe'?",
        ),
        (
            ('"risky", "deadly"]\nstart', '"risky", "3"]\nstart'),
            "counters.danger.levels[3]: '3' should be one word of letters, digits and "
            "dashes (the game master types it), not a number.",
        ),
        (
            ('"risky", "deadly"]\nstart', '"risky", "Safe"]\nstart'),
            "counters.danger.levels[3]: 'Safe' is named twice.",
        ),
        (
            ('start = "unsafe"', 'start = "unsafe"\nmax = 10'),
            "counters.danger.max: is 10, but the 4 levels name 0 to 3; leave max out (the "
            "last level is the top) or name every value.",
        ),
        (
            ('level = "deadly"', 'level = "deadyl"'),
            "actions.fight.effects[0].level: 'deadyl' is not a level of Danger (safe, unsafe, "
            "risky, deadly). Did you mean 'deadly'?",
        ),
        (
            ('danger = ["risky"]', 'danger = ["riksy"]'),
            "rolls.wandering.intervals[2].when.counter_levels.danger: 'riksy' is not a level "
            "of Danger (safe, unsafe, risky, deadly). Did you mean 'risky'?",
        ),
        (
            ("{ every = 2,", "{ every = 0,"),
            "rolls.wandering.intervals[2].every: is 0; it should be 1 to 10,000 turns.",
        ),
        (
            ('{ counter_levels = { danger = ["unsafe"', '{ counter_levels = { dangr = ["unsafe"'),
            "rolls.wandering.only.counter_levels: names the counter 'dangr', which does not "
            "exist (danger).",
        ),
    ],
)
def test_a_bad_level_or_interval_is_reported_with_its_key_and_line(
    change: tuple[str, str], found: str
) -> None:
    text = HILL.replace(*change, 1)
    assert text != HILL
    with pytest.raises(ProcedureError) as error:
        load_text(text)
    shown = [str(p) for p in error.value.problems]
    assert any(line.startswith("line ") and line.endswith(found) for line in shown), shown


def test_the_import_check_refuses_an_interval_no_rule_could_have(home: Path) -> None:
    procedure = load_text(HILL)
    with _hill(home) as expedition:
        expedition.execute("turn")
        state = expedition.state
    good = ev.IntervalChanged(roll="wandering", choice=2, every=2, since=1)
    assert problem(state, procedure, good) is None
    assert "is every 2 turns, not 5" in str(
        problem(state, procedure, ev.IntervalChanged(roll="wandering", choice=2, every=5, since=1))
    )
    assert "not 7" in str(
        problem(state, procedure, ev.IntervalChanged(roll="wandering", choice=7, every=2, since=1))
    )
    assert "cannot start after 9 turns" in str(
        problem(state, procedure, ev.IntervalChanged(roll="wandering", choice=2, every=2, since=9))
    )
    too_high = ev.CounterChanged(counter="danger", value=4, change=1, reason="x")
    assert problem(state, procedure, too_high) is not None


def test_status_tells_the_level_by_name_and_keeps_the_numbers(home: Path) -> None:
    path = home / "hill.toml"
    path.write_text(HILL, encoding="utf-8")
    assert delvetui(home, "new", "hill", "--procedure", str(path)).returncode == 0
    played = delvetui(home, "act", "hill", "counter", "set", "danger", "risky")
    assert played.returncode == 0, played.stderr
    data = json.loads(delvetui(home, "status", "hill", "--json").stdout)
    assert data["counters"] == {"danger": 2}
    assert data["counter_levels"] == {"danger": "risky"}
    assert "  danger: risky (2)" in delvetui(home, "status", "hill").stdout
    refused = delvetui(home, "act", "hill", "counter", "set", "danger", "loud")
    assert refused.returncode == 2 and "'loud' is not a value of Danger" in refused.stderr
    assert delvetui(home, "act", "hill", "turn", "wandering=6").returncode == 0
    exported = delvetui(home, "export", "hill", "--format", "txt").stdout
    assert "Danger is now risky (game master)." in exported
    assert "Wandering monsters: every round now, counting from round 1." in exported
    assert "Danger: unsafe → risky" in exported  # the summary, by the levels' names


def test_a_procedure_without_levels_keeps_its_status_as_it_was(home: Path) -> None:
    made(home, "crypt", "trespasser")
    data = json.loads(delvetui(home, "status", "crypt", "--json").stdout)
    assert "counter_levels" not in data
    played = delvetui(home, "act", "crypt", "counter", "set", "alarm", "+2")
    assert played.returncode == 0, played.stderr
    data = json.loads(delvetui(home, "status", "crypt", "--json").stdout)
    assert data["counters"]["alarm"] == 2


async def test_the_counters_pane_shows_the_level_by_name(home: Path) -> None:
    _hill(home).close()
    app = DelveApp(home / "hill.delve")
    async with app.run_test(size=SIZES[1]) as pilot:
        await ready(pilot)
        pane = app.screen.query_one(Counters)
        assert str(pane.render()).endswith(" unsafe")
        await pilot.press("colon")
        await pilot.press(*"counter set danger deadly", "enter")
        await settled(
            pilot,
            lambda: app.expedition is not None and app.expedition.state.counter("danger") == 3,
        )
        assert str(pane.render()).endswith(" deadly")


async def test_the_palette_offers_each_other_level(home: Path) -> None:
    _hill(home).close()
    app = DelveApp(home / "hill.delve")
    async with app.run_test(size=SIZES[1]) as pilot:
        table = await ready(pilot)
        offered = {name: (usage, run) for name, usage, run in entries(table)}
        levels = [name for name in offered if name.startswith("Danger: ")]
        assert levels == ["Danger: safe", "Danger: risky", "Danger: deadly"]  # not unsafe
        assert offered["Danger: risky"][0] == "counter set danger risky"
        offered["Danger: risky"][1]()
        await settled(
            pilot,
            lambda: app.expedition is not None and app.expedition.state.counter("danger") == 2,
        )
