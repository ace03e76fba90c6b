"""Every example docs/procedures.md shows runs and gives what the text says.

Each complete TOML example is played by a test, and every command the paragraph after it
shows is typed by one of the tests that play it (``test_every_example_is_played``), so a
command the text shows and no test types fails here, naming it. The plays below are those
no other test module holds; the others play theirs where their subject is tested
(``docs_examples.players`` finds them). The transcripts (`$ delvetui ...` and what each
prints) run through the real command line and must print what the page shows; the
problems the page shows a file getting are what the check says of such a file.
"""

from __future__ import annotations

import shlex
from fractions import Fraction
from pathlib import Path

import pytest

from delvetui.cli import status_data
from delvetui.core import commands, odds
from delvetui.core import events as ev
from delvetui.core.alerts import alerts
from delvetui.core.log import batch_lines
from delvetui.core.member_light import member_levels, party_level
from delvetui.core.outcomes import outcomes
from delvetui.core.timeline import Batch
from delvetui.core.turn import preview
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.docs_examples import (
    doc_example,
    examples,
    page,
    players,
    printed_as_shown,
    shown,
    transcripts,
    typed_by,
)

PAGE = page("procedures.md")
EXAMPLES = examples(PAGE)


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.id for example in EXAMPLES])
def test_every_example_is_played(example: object) -> None:
    """Each complete example is loaded by a test that plays it, and every command its
    paragraph shows is typed in one of those tests."""
    from tests.docs_examples import Example

    assert isinstance(example, Example)
    modules = players(example.id)
    assert modules, f"line {example.line}: no test plays the example '{example.id}'"
    typed = typed_by(modules)
    missing = [said for said in shown(example.paragraph) if said not in typed]
    where = ", ".join(module.name for module in modules)
    assert not missing, f"line {example.line}: {missing} are shown but not typed in {where}"


def test_the_page_has_its_examples_and_transcripts() -> None:
    assert len(EXAMPLES) >= 40
    assert len(transcripts(PAGE)) == 2


def start(home: Path, example_id: str, *party: str, name: str = "") -> Expedition:
    """A new expedition on a complete example of the page, with its party added."""
    expedition = Expedition.create(
        home / f"{name or example_id}.delve", load_text(doc_example(example_id)), seed=7
    )
    for member in party:
        expedition.execute(f"pc add {member}")
    return expedition


def rolls(batch: Batch) -> list[ev.DiceRolled]:
    return [e for e in batch.events if isinstance(e, ev.DiceRolled)]


def read(batch: Batch) -> list[str]:
    return [e.label for e in batch.events if isinstance(e, ev.ResultRead | ev.HazardRead)]


def told(expedition: Expedition, batch: Batch) -> list[str]:
    return [line.text for line in batch_lines(batch, expedition.procedure, expedition.state)]


# The transcripts ---------------------------------------------------------------------------


#: The file whose problems 'The commands' lists: a misspelt key, a number in quotes and an
#: effect that is not one.
MISTAKES = """id = "mygame"
name = "My game"
sumary = "A test."
source = "my notes"
default_action = "walk"
[time]
turn_minutes = "10"

[actions.rest]
label = "Rest"
kind = "rest"

[actions.walk]
label = "Walk"
kind = "move"
effects = [
  { do = "blowout" },
]
"""


@pytest.mark.long
def test_each_transcript_prints_what_the_page_shows(home: Path, tmp_path: Path) -> None:
    """Each `$ delvetui ...` of a block, run in a folder holding the block's mygame.toml
    (the file with mistakes of 'The commands', then the tutorial's file for 'Try it'),
    prints the lines shown ("…" stands for what the page leaves out)."""
    mistakes, tutorial = transcripts(PAGE)
    for transcript, text in ((mistakes, MISTAKES), (tutorial, doc_example("gloamdeep"))):
        (tmp_path / "mygame.toml").write_text(text, encoding="utf-8")
        for said, lines in transcript.steps:
            ran = delvetui(home, *shlex.split(said), cwd=tmp_path)
            printed = (ran.stdout + ran.stderr).splitlines()
            assert printed_as_shown(lines, printed), f"$ delvetui {said}\n" + "\n".join(printed)


def test_the_numbers_out_of_range_are_told_as_the_page_shows() -> None:
    """'3.24 Limits': nan and a number past a key's range, with the range."""
    text = doc_example("tiny").replace(
        "[actions.explore]",
        '[time]\nturn_hours = nan\n\n[lights.candle]\nlabel = "Candle"\nhours = 1e300\n\n'
        "[actions.explore]",
    )
    with pytest.raises(ProcedureError) as refused:
        load_text(text)
    said = {problem.path: problem.message for problem in refused.value.problems}
    limits = PAGE.split("### 3.24 Limits", 1)[1]
    assert said["time.turn_hours"] in limits
    assert said["lights.candle.hours"] in limits


# The plays ---------------------------------------------------------------------------------


def test_tiny(home: Path) -> None:
    """3.1: the smallest procedure plays: a 1 is an encounter, the rest nothing."""
    with start(home, "tiny", "Ash hp=6") as tiny:
        tiny.execute("turn hazard=1")
        assert tiny.state.encounter is not None
        tiny.execute("turn hazard=4")
        assert tiny.state.encounter is None


def test_ashen_road(home: Path) -> None:
    """3.19: the bigger example plays a day on the road and a night in camp."""
    with start(home, "ashen-road", "Ash hp=10 CON=12 WIS=14", "Bo hp=8 CON=9") as road:
        road.execute("light add lamp carrier=Ash lit")
        road.execute("turn wary hazard=20")
        road.execute("turn hasty hazard=20 wolves=6")
        assert road.state.counter("dread") == 1
        road.execute("turn forage by=Ash terrain=2 hazard=20 forage=15")
        road.execute("enter camp")
        road.execute("turn camp watch=6 heal.Ash=2 heal.Bo=2")
        assert road.state.turn_type == "camp"


def test_owed_die(home: Path) -> None:
    """3.8: a rest owes the next turn a worse die; an action's advantage cancels it."""
    with start(home, "owed-die") as owed:
        owed.execute("turn hazard=2")
        worse = owed.execute("turn hazard=5,3")
        assert rolls(worse)[0].expression == "2d6kl1" and rolls(worse)[0].total == 3
        assert rolls(owed.execute("turn"))[0].expression == "d6"
    with start(home, "owed-die", name="creep") as owed:
        owed.execute("turn hazard=2")
        assert rolls(owed.execute("turn creep"))[0].expression == "d6"


def test_last_breath(home: Path) -> None:
    """3.11: the third march kills Ash at PHYS 3; the fourth tires Bo alone."""
    with start(home, "last-breath", "Ash hp=6 PHYS=3", "Bo hp=6 PHYS=5") as march:
        for _ in range(3):
            march.execute("turn march")
        ash, bo = march.state.party
        assert "dead" in ash.conditions and bo.track("exhaustion") == 3
        march.execute("turn march")
        ash, bo = march.state.party
        assert ash.track("exhaustion") == 3 and bo.track("exhaustion") == 4


def test_long_watch(home: Path) -> None:
    """3.11, dangers: a fatigue step from "spent" on names the member in the strip."""
    with start(home, "long-watch", "Ash hp=5 CON=2", "Bryn hp=5 CON=5") as watch:
        watch.execute("pc Bryn fatigue=+2")
        assert "Bryn spent" in [alert.text for alert in alerts(watch.state, watch.procedure)]


def test_marching_order(home: Path) -> None:
    """3.12: a candle lit by Dee brings Dee, last in the order, into dim light."""
    members = ("Ash hp=6 WIS=10", "Bo hp=6", "Cy hp=6", "Dee hp=6", "Eve hp=6 WIS=10")
    with start(home, "marching-order", *members) as order:
        order.execute("light add torch carrier=Bo lit")
        levels = member_levels(order.state, order.procedure)
        assert levels == {"Ash": "bright", "Bo": "bright", "Cy": "dim", "Dee": "dim", "Eve": "dark"}
        assert party_level(order.state, order.procedure) == "bright"
        order.execute("turn")
        assert "groping" in order.state.member("Eve").conditions  # type: ignore[union-attr]
        order.execute("party order Eve Ash Bo Cy Dee")
        assert member_levels(order.state, order.procedure)["Dee"] == "dark"
        order.execute("light add candle carrier=Dee lit")
        assert member_levels(order.state, order.procedure)["Dee"] == "dim"


def test_burn(home: Path) -> None:
    """3.13: light by the Burn left; a torch snuffed on purpose is gone for good."""
    with start(home, "burn", "Ash hp=6", "Bo hp=6", "Cy hp=6") as burn:
        burn.execute("light add torch lit")
        assert party_level(burn.state, burn.procedure) == "dim"
        burn.execute("light add lantern lit")
        assert party_level(burn.state, burn.procedure) == "bright"
        burn.execute("turn")
        burn.execute("turn")
        assert party_level(burn.state, burn.procedure) == "dim"
        burn.execute("light off lantern1")
        lantern = burn.state.light("lantern1")
        assert lantern is not None and not lantern.lit and not lantern.spent
        burn.execute("light add torch lit")
        burn.execute("light off torch2")
        torch = burn.state.light("torch2")
        assert torch is not None and torch.spent


def test_gloom(home: Path) -> None:
    """3.13: in the dark, stealth with advantage and sight with disadvantage."""
    with start(home, "gloom", "Ash hp=6 DEX=10 WIS=10") as gloom:
        gloom.execute("light add torch lit")
        assert [r.expression for r in rolls(gloom.execute("turn creep"))] == ["d20"]
        gloom.execute("light off torch1")
        crept = gloom.execute("turn creep sneak.Ash=5,17")
        assert [(r.expression, r.total) for r in rolls(crept)] == [("2d20kh1", 17)]
        assert rolls(gloom.execute("do spot by=Ash"))[0].expression == "2d20kl1"


def test_harsh_dungeon(home: Path) -> None:
    """3.15, amounts from the table: the damage is the harshness; a camp eats the days."""
    with start(home, "harsh-dungeon", "Ash hp=8") as harsh:
        harsh.execute("turn hazard=1")
        assert harsh.state.party[0].hp == 7
        harsh.execute("counter set harshness 3")
        harsh.execute("turn delve hazard=1")
        assert harsh.state.party[0].hp == 4
        harsh.execute("turn camp days=2 hazard=6")
        assert harsh.state.party[0].resource("rations") == 2
        harsh.execute("turn camp hazard=6")
        assert harsh.state.party[0].resource("rations") == 1


def test_shifting_sky(home: Path) -> None:
    """3.15, roll: a counter's shift is added to the next weather roll."""
    with start(home, "shifting-sky") as sky:
        assert read(sky.execute("turn weather=10")) == ["Clear skies (+2 to the next)"]
        again = sky.execute("turn weather=7")
        assert rolls(again)[0].total == 9 and read(again) == ["Clear skies (+2 to the next)"]
        fair = sky.execute("turn weather=4")
        assert rolls(fair)[0].total == 6 and read(fair) == ["Fair"]
        assert sky.state.counter("shift") == 0


def test_countdown(home: Path) -> None:
    """3.15, counter: the die and the noise off the clock; below zero, an encounter."""
    with start(home, "countdown", "Ash hp=6") as count:
        turn = count.execute("turn clock=4")
        assert count.state.counter("clock") == 16
        assert "Encounter clock -4 → 16 (the danger die and the noise)." in told(count, turn)
        count.execute("turn bash clock=6")
        assert (count.state.counter("noise"), count.state.counter("clock")) == (2, 8)
        count.execute("turn explore clock=6")
        assert count.state.counter("clock") == 0
        out = count.execute("turn clock=1")
        values = [e.value for e in out.events if isinstance(e, ev.CounterChanged)]
        assert values == [-3, 20] and count.state.encounter == "The clock runs out."
        shown_clock = status_data(count, odds=False)["counters"]["clock"]
        assert shown_clock == 20


def test_countdown_on_the_players_screen(home: Path) -> None:
    """3.15: the players see the clock, never the noise."""
    from delvetui.core.players import view

    with start(home, "countdown", name="seen") as count:
        count.execute("turn clock=4")
        assert view(count.state, count.procedure).counters == (("Encounter clock", "16 of 20"),)


def test_long_climb(home: Path) -> None:
    """3.15, choose: a choice typed on a turn that asks none is refused."""
    with start(home, "long-climb", "Ash hp=6") as climb:
        with pytest.raises(CommandError, match="weary="):
            climb.execute("turn hazard=4 weary=ration")
        assert climb.state.turn == 0


def test_close_quarters(home: Path) -> None:
    """3.16, what a roll just gave: the distance follows the surprise."""
    with start(home, "close-quarters", "Ash hp=6") as near:
        near.execute("turn hazard=1 party-surprise=4 foe-surprise=5 distance=10")
        assert near.state.encounter_distance == "300 feet"
        near.execute("turn hazard=1 party-surprise=4 foe-surprise=2 distance=3")
        assert near.state.encounter_distance == "90 feet"


def test_rations_and_oil(home: Path) -> None:
    """3.20: foraging finds 1d3 rations for the forager."""
    with start(home, "rations-and-oil", "Ash hp=8") as food:
        food.execute("turn forage by=Ash")
        assert 4 <= food.state.party[0].resource("rations") <= 6


def test_fumes(home: Path) -> None:
    """3.21: poison hinders checks and halves the walk; a rest ends the shaking."""
    with start(home, "fumes", "Ash hp=6 WIS=10") as fumes:
        fumes.execute("turn hazard=1")
        assert preview(fumes.state, fumes.procedure, "walk").distance == "60 feet"
        assert rolls(fumes.execute("do look by=Ash"))[0].expression == "2d20kl1"
        fumes.execute("turn hazard=2")
        assert "shaken" in fumes.state.party[0].conditions
        fumes.execute("turn rest")
        assert "shaken" not in fumes.state.party[0].conditions


def test_darkvision(home: Path) -> None:
    """3.21, sight of one's own: who sees in the dark checks without disadvantage."""
    with start(home, "darkvision", "Ash hp=6 WIS=12", "Bo hp=6 WIS=12") as dark:
        dark.execute("pc Bo +darkvision")
        assert rolls(dark.execute("do spot by=Ash"))[0].expression == "2d20kl1+1"
        assert rolls(dark.execute("do spot by=Bo"))[0].expression == "d20+1"
        with pytest.raises(CommandError, match="not possible in darkness"):
            dark.execute("turn search")


def test_worn_down(home: Path) -> None:
    """3.21a, levels with teeth: every claim of its paragraph."""
    with start(home, "worn-down", "Ash hp=6 WIS=12") as worn:
        worn.execute("light add torch carrier=Ash lit")
        worn.execute("pc Ash fatigue=2")
        walked = worn.execute("turn explore")
        started = next(e for e in walked.events if isinstance(e, ev.TurnStarted))
        assert started.distance == "60 feet"
        note = preview(worn.state, worn.procedure, "explore").light_note
        assert note == "movement halved: Ash is exhausted"
        spot = worn.execute("do spot by=Ash spot=13")
        assert rolls(spot)[0].total == 12 and spot.events[-1].success  # type: ignore[attr-defined]
        worn.execute("counter set hunger starving")
        assert preview(worn.state, worn.procedure, "explore").distance == "30 feet"
        spot = worn.execute("do spot by=Ash spot=13")
        assert rolls(spot)[0].total == 10 and not spot.events[-1].success  # type: ignore[attr-defined]
        worn.execute("light off torch1")
        with pytest.raises(
            CommandError,
            match=r"Draw the map is not possible in darkness: no map can be drawn in the dark\. "
            r"Light a source first\.",
        ):
            worn.execute("do map")
        assert rolls(worn.execute("do spot by=Ash spot=13"))[0].total == 6  # 4 more off
        worn.execute("pc Ash +shaken")
        assert rolls(worn.execute("do spot by=Ash spot=13"))[0].total == 5
        worn.execute("do eat")
        assert worn.state.resource("supply") == 0 and worn.state.counter("hunger") == 0
        with pytest.raises(
            CommandError,
            match=r"Eat is refused: the party has no supply left\. Nothing was saved\.",
        ):
            worn.execute("do eat")
        worn.execute("enter haven")
        day = worn.state.day
        worn.execute("turn stay stay=2")
        assert worn.state.day == day + 3 and worn.state.party[0].fatigue == 0


def test_feet_and_miles(home: Path) -> None:
    """3.22: a forced march covers half as far again, at the slowest member's pace."""
    with start(home, "feet-and-miles", "Ash hp=6 MV=120", "Bo hp=5 MV=90") as road:
        road.execute("enter wilderness")
        forced = road.execute("turn travel speed=forced")
        started = next(e for e in forced.events if isinstance(e, ev.TurnStarted))
        assert started.distance.startswith("27 miles")


def test_spells_and_potions(home: Path) -> None:
    """3.22a: declared timers start at their usual length; the GM's own at theirs."""
    with start(home, "spells-and-potions") as timers:
        timers.execute("timer add light")
        timers.execute("timer add potion")
        timers.execute("timer add fuse 30m")
        timers.execute("timer set light 2t")
        left = {timer.name: (timer.unit, timer.left) for timer in timers.state.timers}
        assert left == {"light": ("turns", 2), "potion": ("hours", 60), "fuse": ("minutes", 30)}
        timers.execute("timer cancel potion")
        assert [timer.name for timer in timers.state.timers] == ["light", "fuse"]


def test_open_ended(home: Path) -> None:
    """4, exploding dice: the top row covers every total over 8; the odds are exact."""
    with start(home, "open-ended", "Ash hp=20") as dig:
        caved = dig.execute("turn hazard=6,3 damage.Ash=6,1")
        assert read(caved) == ["Cave-in"] and dig.state.party[0].hp == 13
        with pytest.raises(CommandError, match="never totals 12"):
            dig.execute("turn hazard=12")
        chance = odds.compute(dig.state, dig.procedure, ahead=1).encounter_this_turn
        assert chance == Fraction(1, 6)
        ways = outcomes(dig.state, dig.procedure, commands.TakeTurn(action=None, values=()))
        caves = sum(
            p
            for p, events, _ in ways
            if "Cave-in" in [e.label for e in events if isinstance(e, ev.ResultRead)]
        )
        assert caves == Fraction(5, 36)
    with start(home, "open-ended", name="quiet") as dig:
        assert read(dig.execute("turn hazard=6,3")) == ["Cave-in"]  # nobody to hurt
