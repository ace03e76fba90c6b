"""Which actions persist is the procedure's to say (issue #43, item 6): a movement mode goes
on with the next bare turn (`n`, `turn`); a one-off action (Shadowdark's Minutes pass,
Trespasser's Hide, a search) takes its turn, and the next bare turn goes back to the
movement mode. An action's ``persist`` says which it is."""

from __future__ import annotations

from pathlib import Path

from delvetui.core import events as ev
from delvetui.core.next_turn import next_action
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.action_pane import ActionPane
from tests.cli_support import delvetui, status
from tests.conftest import Factory, run
from tests.docs_examples import doc_example
from tests.ui_support import make, ready, settle

PARTY = ("pc add Ash hp=6", "light add torch carrier=Ash lit")


def _actions(x: Expedition) -> list[str]:
    return [
        e.action for batch in x.batches() for e in batch.events if isinstance(e, ev.TurnStarted)
    ]


def test_shadowdark_minutes_pass_once_then_the_party_crawls_on(home: Path) -> None:
    """`turn pass-time minutes=10` takes its span; the bare `turn` after it is a crawl."""
    made = delvetui(home, "new", "crypt", "--procedure", "shadowdark", "--seed", "2")
    assert made.returncode == 0, made.stderr
    script = "\n".join((*PARTY, "turn crawl", "turn pass-time minutes=10", "turn", "turn"))
    acted = delvetui(home, "act", "crypt", "-", stdin=script + "\n")
    assert acted.returncode == 0, acted.stderr
    with Expedition.open(home / "crypt.delve", write=False) as x:
        assert _actions(x) == ["crawl", "pass-time", "crawl", "crawl"]
    assert status(home, "crypt")["turn"] == 4


def test_trespasser_hide_is_one_round_and_stay_goes_on(expedition: Factory) -> None:
    """Hide takes its round; the next bare turn goes back to the last navigation that moved
    (Backtrack here); Stay is kept round after round."""
    x = expedition("trespasser", seed=2)
    run(x, *PARTY, "turn backtrack hazard=9", "turn hide stealth=success sparks=0")
    assert next_action(x.state, x.procedure) == ("backtrack", "after hide")
    run(x, "turn hazard=9")
    run(x, "turn stay", "turn", "turn")
    assert _actions(x) == ["backtrack", "hide", "backtrack", "stay", "stay", "stay"]


def test_ose_a_search_takes_one_turn_and_the_pace_goes_on(expedition: Factory) -> None:
    """Familiar ground, a search, then a bare turn: the party moves on at the familiar
    pace, not the default's; a rest is one turn too."""
    x = expedition("ose", seed=2)
    run(x, *PARTY, "turn familiar", "turn search", "turn", "turn rest", "turn")
    assert _actions(x) == ["familiar", "search", "familiar", "rest", "familiar"]


def test_a_search_before_any_move_goes_on_with_the_default(expedition: Factory) -> None:
    x = expedition("ose", seed=2)
    run(x, *PARTY, "turn search", "turn")
    assert _actions(x) == ["search", "explore"]


SMALL = """
id = "keeps"
name = "Keeps"
source = "a test"
summary = "persist on an action"
default_action = "walk"

[actions.walk]
label = "Walk"
kind = "move"

[actions.sneak]
label = "Sneak"
kind = "move"
persist = false

[actions.dig]
label = "Dig"
persist = true

[actions.look]
label = "Look"
"""


def test_the_format_says_which_persist(expedition: Factory, home: Path) -> None:
    """`persist = true` keeps an activity going; `persist = false` makes even a move one
    turn; without the key a move persists and any other action does not."""
    procedure = load_text(SMALL)
    assert [a.persists for a in procedure.actions.values()] == [True, False, True, False]
    x = Expedition.create(home / "keeps.delve", procedure, seed=1)
    run(x, "turn dig", "turn", "turn sneak", "turn", "turn look", "turn")
    assert _actions(x) == ["dig", "dig", "sneak", "dig", "look", "dig"]
    x.close()


def test_the_format_pages_example_keeps_a_mode_and_takes_a_search_once(home: Path) -> None:
    """docs/procedures.md "One turn, or a mode kept", played as its paragraph says."""
    x = Expedition.create(home / "keep.delve", load_text(doc_example("keep-or-once")), seed=1)
    run(x, "turn creep", "turn search")
    assert next_action(x.state, x.procedure) == ("creep", "after search")
    run(x, "turn", "turn hide", "turn", "turn stay", "turn", "turn", "turn search", "turn")
    assert _actions(x) == [
        *("creep", "search", "creep", "hide", "creep"),
        *("stay", "stay", "stay", "search", "stay"),
    ]
    x.close()


def test_a_version_1_turn_started_went_on() -> None:
    """Before ``persists`` every action went on with the next bare turn."""
    old = ev.Event.from_payload(
        "TurnStarted",
        1,
        {"number": 1, "action": "search", "turn_type": "dungeon", "resting": False},
    )
    assert isinstance(old, ev.TurnStarted) and old.persists


async def test_n_after_minutes_pass_crawls_and_the_pane_says_so() -> None:
    """At the table, after Minutes pass the action pane says the next round is a crawl
    (after minutes pass) and `n` takes it."""
    commands = (*PARTY, "turn crawl", "turn pass-time minutes=10")
    app = DelveApp(make("minutes", commands, procedure="shadowdark"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        pane = str(table.query_one(ActionPane).render())
        assert "Next: Crawl (after minutes pass)" in pane
        await pilot.press("n")
        await settle(pilot)
        assert table.state.action == "crawl" and table.state.turn == 3
        assert "(after" not in str(table.query_one(ActionPane).render())
