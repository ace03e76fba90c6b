"""One line where one line will do (issue #43, item 8): the like steps of several members
in one turn (a track counted on, a condition given or taken, a step of the fatigue ladder)
are one line, in the log, `act`, the exports and the chronicle; the compact view is one
row a turn, and leaves out the steps that cross no threshold."""

from __future__ import annotations

import re
from pathlib import Path

from delvetui.core.compact_log import compact_lines
from delvetui.core.log import lines
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.turn_log import TurnLog
from tests.cli_support import delvetui, made
from tests.conftest import Factory, run
from tests.ui_support import make, ready, screen_text, settled

FOUR = ("pc add Ash hp=6", "pc add Bo hp=5", "pc add Cy hp=4", "pc add Dain hp=3")
OSE = (*FOUR, "light add torch count=3 carrier=Ash lit")
#: Six turns of exploring; the wandering monster check (every second turn) typed as a 6.
SIX = ("turn explore", "turn explore hazard=6") * 3


def _texts(x: object) -> list[str]:
    return [line.text for line in lines(x.batches(), x.procedure)]  # type: ignore[attr-defined]


def test_a_track_counted_for_the_party_is_one_line_a_turn(expedition: Factory) -> None:
    """OSE: four members' Turns without rest, one line; the threshold crossed is one line
    more, for all four; the rest that clears it one line."""
    x = expedition("ose", seed=3)
    run(x, *OSE, *SIX, "turn rest")
    said = _texts(x)
    assert "Turns without rest: 2 for all four (a turn's exploring)." in said
    assert not [text for text in said if text.startswith("Ash: Turns without rest")]
    assert "All four gain a condition: unrested (Turns without rest)." in said
    assert "All four lose a condition: unrested (Rest)." in said
    assert "Turns without rest: 0 for all four (Rest)." in said
    turn_two = said[said.index(next(t for t in said if t.startswith("Turn 2 "))) :]
    block = turn_two[1 : turn_two.index(next(t for t in turn_two if t.startswith("Turn 3 ")))]
    assert sum("Turns without rest" in text for text in block) == 1


def test_different_counts_and_the_dead_are_said_as_they_are(expedition: Factory) -> None:
    """A member who joined later is counted apart on the same line; the dead are not in
    the count, so three living members are "all three"."""
    x = expedition("ose", seed=3)
    run(x, *FOUR[:3], "light add torch carrier=Ash lit", "turn explore", "pc add Eve hp=4")
    run(x, "turn explore hazard=6")
    assert "Turns without rest: 2 for Ash, Bo and Cy, 1 for Eve (a turn's exploring)." in _texts(x)
    run(x, "pc Eve +dead", "turn explore")
    assert "Turns without rest: 3 for all three (a turn's exploring)." in _texts(x)


def test_act_and_the_exports_say_it_once(home: Path) -> None:
    """`delvetui act` prints the turn's lines, one for the party's track; the text and
    Markdown exports and the chronicle say it the same way."""
    made(home, "crypt", "ose", OSE, seed=3)
    acted = delvetui(home, "act", "crypt", "turn", "explore")
    assert acted.returncode == 0, acted.stderr
    assert "Turns without rest: 1 for all four (a turn's exploring)." in acted.stdout
    assert "Ash: Turns without rest" not in acted.stdout
    for fmt in ("txt", "md"):
        told = delvetui(home, "export", "crypt", "--format", fmt).stdout
        assert "Turns without rest: 1 for all four (a turn's exploring)." in told, fmt
        assert "Ash: Turns without rest" not in told, fmt
    delvetui(home, "act", "crypt", "end")
    chronicle = delvetui(home, "export", "--campaign", "crypt", "--format", "md", "-o", "-")
    assert chronicle.returncode == 0, chronicle.stderr
    assert "Turns without rest: 1 for all four (a turn's exploring)." in chronicle.stdout
    assert "Ash: Turns without rest" not in chronicle.stdout


def test_the_compact_view_leaves_out_what_crosses_no_threshold(expedition: Factory) -> None:
    """A compact turn: its title, the result with its roll, what changed; no track count,
    but the condition the count set off."""
    x = expedition("ose", seed=3)
    run(x, *OSE, *SIX)
    compact = [line for line in compact_lines(lines(x.batches(), x.procedure)) if line.one_row]
    assert len(compact) == 6
    assert compact[1].text == "#2 d1 08:10 Explore · No encounter 6"
    assert "Turns without rest" not in " ".join(line.text for line in compact)
    assert "All four gain a condition: unrested" in compact[5].text


async def test_the_compact_view_is_one_row_a_turn_at_80x24() -> None:
    """At 80×24, `v`: each turn takes one row of the log, cut at its end."""
    played = (*OSE, *SIX, "turn rest", "turn rest hazard=1")
    app = DelveApp(make("compact-rows", played, procedure="ose"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        log = table.query_one(TurnLog)
        await pilot.press("v")
        await settled(pilot, lambda: any(line.one_row for line in log.lines))
        turns = [line for line in log.lines if line.one_row]
        assert len(turns) == 8
        shown = screen_text(app)
        rows = [i for i, row in enumerate(shown.splitlines()) if re.search(r"#\d+ d1 ", row)]
        assert len(rows) == 8 and rows == list(range(rows[0], rows[0] + 8))  # a row each
        assert "#8 d1 09:10 Rest · Encounter! A w" in shown
        assert "…" in shown
