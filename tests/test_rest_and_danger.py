"""Rest and danger agree (issue #43, item 4): an encounter that interrupts a rest before the
party has rested makes the turn no rest at all (the tracks it resets stay, its effects are
not applied, the ``[rest]`` count runs on), and the strip says when members need rest. A
procedure whose own rules say what an encounter does to a rest (``encounter_breaks =
false``: Shadowdark's CON check, Mausritter's watch) keeps its rest going."""

from __future__ import annotations

import json
from pathlib import Path

from delvetui.core import events as ev
from delvetui.core.alerts import alerts
from delvetui.core.log import lines
from delvetui.core.state import State
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.alert_strip import AlertStrip
from tests.cli_support import delvetui, status
from tests.conftest import Factory, of, run
from tests.ui_support import make, ready, screen_text

FOUR = ("pc add Ash hp=6", "pc add Bo hp=5", "pc add Cy hp=4", "pc add Dain hp=3")
#: OSE: four members, a torch, and six turns of exploring: everyone 6/5 and unrested.
UNRESTED = (*FOUR, "light add torch carrier=Ash lit", *("turn explore",) * 6)


def _log(x: Expedition) -> str:
    return "\n".join(line.text for line in lines(x.batches(), x.procedure))


def _strip(state: State, x: Expedition) -> list[str]:
    return [alert.text for alert in alerts(state, x.procedure)]


def test_ose_an_interrupted_rest_clears_nothing(expedition: Factory) -> None:
    """Turn 8's wandering monster check comes before the rest: with an encounter the turn
    is no rest. Turns without rest stays at 6, unrested stays, the strip says a rest is
    due; the next rest without an encounter clears both."""
    x = expedition("ose", seed=3)
    run(x, *UNRESTED, "turn explore")
    assert x.state.member("Ash").conditions == ("unrested",)  # type: ignore[union-attr]
    assert "Rest due: Turns without rest 7/5 for the party" in _strip(x.state, x)
    batch = x.execute("turn rest hazard=1")
    broken = of(batch, ev.RestBroken)
    assert broken and broken[0].since_rest is not None
    for member in x.state.party:
        assert member.track("unrested") == 7
        assert "unrested" in member.conditions
    assert not x.state.resting
    assert "The encounter interrupts the party's rest: this turn is no rest" in _log(x)
    assert "Rest due: Turns without rest 7/5 for the party" in _strip(x.state, x)
    x.execute("turn rest")  # turn 9: no check is due, the rest is taken
    for member in x.state.party:
        assert member.track("unrested") == 0
        assert "unrested" not in member.conditions
    assert not [text for text in _strip(x.state, x) if "Rest due" in text]


def test_ose_three_turns_of_rest_in_a_row_must_be_unbroken(expedition: Factory) -> None:
    """Exhaustion from running ends after three full turns of rest: an encounter on the
    third turn of rest breaks the three in a row, and three more are needed."""
    x = expedition("ose", seed=3)
    run(x, *FOUR, "light add torch carrier=Ash lit", "turn run", "turn run", "turn run")
    assert "exhausted" in x.state.member("Bo").conditions  # type: ignore[union-attr]
    run(x, "turn rest hazard=6", "turn rest", "turn rest hazard=1")
    assert "exhausted" in x.state.member("Bo").conditions  # type: ignore[union-attr]
    run(x, "turn rest", "turn rest hazard=6")
    assert "exhausted" in x.state.member("Bo").conditions  # type: ignore[union-attr]
    run(x, "turn rest")
    assert "exhausted" not in x.state.member("Bo").conditions  # type: ignore[union-attr]


def test_the_rest_rule_counts_on_after_an_interrupted_rest(expedition: Factory) -> None:
    """Exploration (traditional): rest one turn in six, its encounter roll made at the
    turn's start. A rest turn with an encounter is no rest, so the next turn that is not a
    rest is the skipped rest: every member's CON save."""
    x = expedition("exploration-traditional", seed=2)
    run(x, *FOUR, "light add torch carrier=Ash lit", *("turn cautious hazard=6",) * 6)
    assert "Rest due (6 turns without)" in _strip(x.state, x)
    x.execute("turn rest hazard=1")
    assert x.state.turns_since_rest == 7
    assert "Rest due (7 turns without)" in _strip(x.state, x)
    after = x.execute("turn cautious hazard=6")
    assert of(after, ev.RestSkipped)
    assert len(of(after, ev.CheckMade)) == 4


def test_an_encounter_after_the_rest_only_restarts_the_rest_in_a_row(
    expedition: Factory,
) -> None:
    """The Dungeon Turn rolls its hazard at the end of the turn, after the party's action:
    the rest was taken; the encounter starts the hour of rest in a row again."""
    x = expedition("dungeon-turn", seed=2)
    run(x, *FOUR, "light add torch carrier=Ash lit", "turn explore hazard=4")
    batch = x.execute("turn rest hazard=1")
    broken = of(batch, ev.RestBroken)
    assert broken and broken[0].since_rest is None
    assert x.state.turns_since_rest == 0 and x.state.streak == 0


def test_shadowdark_the_con_check_says_who_loses_the_hour(expedition: Factory) -> None:
    """Shadowdark's rest keeps going through an encounter (``encounter_breaks = false``):
    each member's CON check says who loses the hours rested; a pass keeps the hour."""
    x = expedition("shadowdark", seed=2)
    run(x, "pc add Ash hp=6 CON=18", "pc add Bo hp=5 CON=3", "enter camp", "turn rest")
    batch = x.execute("turn rest hazard=1 interrupted.Ash=20 interrupted.Bo=1")
    assert not of(batch, ev.RestBroken)
    assert x.state.member("Ash").track("rested") == 2  # type: ignore[union-attr]
    assert x.state.member("Bo").track("rested") == 0  # type: ignore[union-attr]
    assert "is no rest" not in _log(x)


def test_a_version_1_rest_broken_keeps_its_meaning() -> None:
    """A file written before version 2 only restarted the rest in a row."""
    old = ev.Event.from_payload("RestBroken", 1, {"reason": "the encounter"})
    assert isinstance(old, ev.RestBroken) and old.since_rest is None
    from delvetui.core.evolve import evolve

    state = State(resting=True, streak=3, turns_since_rest=0)
    after = evolve(state, old)
    assert (after.streak, after.resting, after.turns_since_rest) == (0, True, 0)


def test_the_command_line_keeps_the_interrupted_rest(home: Path) -> None:
    """`delvetui act` with an interrupted rest: status still says unrested, 7/5."""
    made = delvetui(home, "new", "crypt", "--procedure", "ose", "--seed", "3")
    assert made.returncode == 0, made.stderr
    script = "\n".join((*UNRESTED, "turn explore", "turn rest hazard=1")) + "\n"
    acted = delvetui(home, "act", "crypt", "-", stdin=script)
    assert acted.returncode == 0, acted.stderr
    data = status(home, "crypt")
    assert all(m["tracks"]["unrested"] == 7 for m in data["party"])
    assert all("unrested" in m["conditions"] for m in data["party"])
    text = delvetui(home, "export", "crypt", "--format", "json").stdout
    payloads = [e for b in json.loads(text)["batches"] for e in b["events"]]
    assert any(e["type"] == "RestBroken" and e["version"] == 2 for e in payloads)


async def test_the_strip_says_the_party_needs_rest() -> None:
    """At 80×24, with the whole party past five turns without rest, the strip says so."""
    app = DelveApp(make("unrested", UNRESTED, procedure="ose"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        said = [alert.text for alert in table.query_one(AlertStrip).current()]
        assert "Rest due: Turns without rest 6/5 for the party" in said
        assert "Rest due" in screen_text(app)
        assert "Nothing needs attention" not in screen_text(app)
