"""The shipped travel-turn procedure, rule by rule, as a GM would run it at the table.

Every die is typed (``KEY=N``) so each outcome is exact: ``hazard`` is the d20 threat roll
(both faces with advantage: ``hazard=5,17``), ``return.NAME`` a PC's d20 to return,
``resilience.NAME`` a resilience check, ``time`` the time dice.
"""

from __future__ import annotations

import pytest

from delvetui.cli import status_data
from delvetui.core import events as ev
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.conftest import Factory, of, reopened, run


def time_dice(made: Expedition) -> tuple[int, ...]:
    """The hour as the time dice show it now."""
    return made.state.time_dice


def travel(made: Expedition, turns: int) -> None:
    """Travel cautiously for some hours with nothing bad happening."""
    for _ in range(turns):
        made.execute("turn cautious hazard=20,20")


def test_a_travel_turn_is_one_hour(expedition: Factory) -> None:
    made = expedition("travel-turn", start="10:00")
    assert made.procedure.time.turn_name == "travel turn"
    assert made.procedure.source == "the gameplay chapter of a d20 rules-light game"
    batch = made.execute("turn")
    assert of(batch, ev.TurnStarted)[0].action == "cautious"
    assert of(batch, ev.TurnEnded)[0].minutes == 60
    assert made.state.clock_text == "11:00"


@pytest.mark.parametrize(
    ("face", "label", "encounter"),
    [
        (1, "Terrible", True),
        (2, "Something bad soon", False),
        (10, "Something bad soon", False),
        (11, "Threat worsens", False),
        (19, "Threat worsens", False),
        (20, "Nothing bad", False),
    ],
)
def test_the_travel_turn_table(expedition: Factory, face: int, label: str, encounter: bool) -> None:
    made = expedition("travel-turn")
    batch = made.execute(f"turn careless hazard={face},20")
    assert of(batch, ev.ResultRead)[0].label == label
    assert bool(of(batch, ev.EncounterBegan)) is encounter
    assert made.state.last_hazard is not None
    assert made.state.last_hazard.result == label


def test_cautious_rolls_two_d20_and_keeps_the_highest(expedition: Factory) -> None:
    made = expedition("travel-turn")
    batch = made.execute("turn cautious hazard=5,17")
    rolled = of(batch, ev.DiceRolled)[0]
    assert (rolled.key, rolled.expression, rolled.kept, rolled.total) == (
        "hazard",
        "2d20kh1",
        (17,),
        17,
    )
    assert of(batch, ev.ResultRead)[0].label == "Threat worsens"


def test_careless_rolls_two_d20_and_keeps_the_lowest(expedition: Factory) -> None:
    made = expedition("travel-turn")
    batch = made.execute("turn careless hazard=5,17")
    rolled = of(batch, ev.DiceRolled)[0]
    assert (rolled.expression, rolled.total) == ("2d20kl1", 5)
    assert of(batch, ev.ResultRead)[0].label == "Something bad soon"


def test_a_torch_burns_out_after_one_travel_turn_and_casts_dim_light(expedition: Factory) -> None:
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8", "light add torch carrier=Ash lit")
    assert made.state.light_level == "dim"
    batch = made.execute("turn hazard=20,20")
    out = of(batch, ev.LightPutOut)
    assert [(e.id, e.reason, e.spent) for e in out] == [("torch1", "burnt out", True)]
    assert made.state.light_level == "dark"


def test_a_lantern_lasts_three_travel_turns(expedition: Factory) -> None:
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8", "light add lantern carrier=Ash lit")
    travel(made, 2)
    assert made.state.lights[0].lit
    assert made.state.lights[0].minutes == 60
    travel(made, 1)
    assert not made.state.lights[0].lit
    assert made.state.light_level == "dark"


def test_light_levels_say_what_each_does(expedition: Factory) -> None:
    made = expedition("travel-turn")
    procedure = made.procedure
    assert procedure.light_level("dark").label == "Darkness"
    assert "sight impossible" in procedure.light_level("dark").flags
    assert "advantage" in procedure.light_level("dim").text.lower()
    assert procedure.light_level("bright").label == "Well lit"
    batch = made.execute("turn hazard=20,20")
    assert "sight impossible" in of(batch, ev.TurnStarted)[0].flags
    made.execute("light add daylight lit")
    assert made.state.light_level == "bright"


@pytest.mark.parametrize(
    ("clock", "faces"),
    [("07:00", (6, 1)), ("20:00", (6, 6, 6, 2)), ("05:00", (5,)), ("12:00", (6, 6))],
)
def test_the_hour_shows_as_time_dice(
    expedition: Factory, clock: str, faces: tuple[int, ...]
) -> None:
    made = expedition("travel-turn")
    made.execute(f"time set {clock}")
    assert made.state.clock_text == clock
    assert made.state.time_dice == faces


def test_rolling_time_dice_and_turning_them_as_travel_turns_pass(expedition: Factory) -> None:
    # The text's example: 2d6 show (3, 2), so it is 05:00; an hour later the die turns to 6;
    # another hour and a second die comes out showing 1, for 07:00.
    made = expedition("travel-turn")
    batch = made.execute("time roll 2 time=3,2")
    assert of(batch, ev.DiceRolled)[0].faces == (3, 2)
    assert made.state.clock_text == "05:00"
    assert time_dice(made) == (5,)
    travel(made, 1)
    assert time_dice(made) == (6,)
    travel(made, 1)
    assert time_dice(made) == (6, 1)
    assert made.state.clock_text == "07:00"


def test_a_resilience_check_comes_once_hours_pass_the_con_score(expedition: Factory) -> None:
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 CON=10", "pc add Bryn hp=8 CON=14")
    travel(made, 10)
    ash = made.state.member("Ash")
    assert ash is not None and ash.track("resilience") == 10
    # Hour 11 is one beyond Ash's resilience of 10: d20 + 0 against DC 11.
    batch = made.execute("turn cautious hazard=20,20 resilience.Ash=11")
    checks = of(batch, ev.CheckMade)
    assert [(c.name, c.dc, c.total, c.success) for c in checks] == [("Ash", 11, 11, True)]
    # Hour 12: DC 12, and failing leaves Ash exhausted. Bryn (CON 14, +2) is not checked yet.
    batch = made.execute("turn cautious hazard=20,20 resilience.Ash=11")
    checks = of(batch, ev.CheckMade)
    assert [(c.name, c.dc, c.success) for c in checks] == [("Ash", 12, False)]
    ash = made.state.member("Ash")
    assert ash is not None and "exhausted" in ash.conditions


def test_resilience_checks_add_the_con_modifier(expedition: Factory) -> None:
    made = expedition("travel-turn")
    made.execute("pc add Cato hp=8 CON=6")
    travel(made, 6)
    batch = made.execute("turn cautious hazard=20,20 resilience.Cato=12")
    check = of(batch, ev.CheckMade)[0]
    assert (check.dc, check.total, check.success) == (11, 10, False)  # 12 - 2


def test_a_rest_and_meal_resets_the_hours_without_rest(expedition: Factory) -> None:
    made = expedition("travel-turn")
    made.execute("pc add Ash hp=8 CON=3")
    travel(made, 3)
    batch = made.execute("turn rest hazard=20")
    assert of(batch, ev.TurnStarted)[0].resting
    assert [e.expression for e in of(batch, ev.DiceRolled)] == ["d20"]  # a plain roll
    ash = made.state.member("Ash")
    assert ash is not None and ash.track("resilience") == 0
    assert of(batch, ev.CheckMade) == []
    batch = made.execute("turn cautious hazard=20,20")
    ash = made.state.member("Ash")
    assert ash is not None and ash.track("resilience") == 1


def test_rolling_to_return_the_worked_example(expedition: Factory) -> None:
    # Two PCs four hours from base (DC 14): +6 rolls a natural 11 (17) and makes it back;
    # +5 rolls a natural 7 (12) on an arduous path and drops 2 load.
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 MOD=6", "pc add Bryn hp=8 MOD=5")
    travel(made, 4)
    batch = made.execute("turn return path=arduous return.Ash=11 return.Bryn=7")
    checks = [(c.name, c.dc, c.total, c.success) for c in of(batch, ev.CheckMade)]
    assert checks == [("Ash", 14, 17, True), ("Bryn", 14, 12, False)]
    logged = [e.text for e in of(batch, ev.Logged)]
    assert any(text.startswith("Bryn drops 2 load") for text in logged)
    assert of(batch, ev.HpChanged) == []
    # Rolling to return takes no travel turn.
    assert of(batch, ev.TurnStarted) == []
    assert made.state.turn == 4


def test_rolling_to_return_on_a_dangerous_path_deals_1d6_per_point_under(
    expedition: Factory,
) -> None:
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 MOD=6", "pc add Bryn hp=20 MOD=5")
    travel(made, 4)
    batch = made.execute("turn return path=dangerous return.Ash=11 return.Bryn=6 damage.Bryn=9")
    damage = [e for e in of(batch, ev.DiceRolled) if e.key == "damage.Bryn"]
    assert [e.expression for e in damage] == ["3d6"]  # 11 against DC 14
    bryn = made.state.member("Bryn")
    assert bryn is not None and bryn.hp == 11


def test_the_return_dc_counts_the_travel_turns_from_safety_not_the_rests(
    expedition: Factory,
) -> None:
    """Rolling To Return: "DC = 10 + 1 per travel turn" — "four hours away from base (DC
    14)". The DC measures how far the party is from safety: hours on the move count, an
    hour of rest takes them no farther. Four hours of travel and two of rest: DC 14."""
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 MOD=0")
    travel(made, 2)
    run(made, "turn rest hazard=20", "turn rest hazard=20")
    travel(made, 2)
    assert made.state.turn == 6
    assert made.state.counter("away") == 4
    batch = made.execute("turn return path=arduous return.Ash=14")
    assert [(c.dc, c.success) for c in of(batch, ev.CheckMade)] == [(14, True)]


def test_after_a_return_the_count_from_safety_starts_again(expedition: Factory) -> None:
    """Rolling To Return: success means the PC "returns to safety"; failure costs, but the
    PC still gets back. Setting out again, the DC counts from that return: a return at DC
    13, then one more travel turn, is DC 11, not 14."""
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 MOD=0", "pc add Bryn hp=30 MOD=0")
    travel(made, 3)
    batch = made.execute("turn return path=dangerous return.Ash=13 return.Bryn=12 damage.Bryn=3")
    assert [c.dc for c in of(batch, ev.CheckMade)] == [13, 13]
    assert made.state.counter("away") == 0
    travel(made, 1)
    batch = made.execute("turn return path=arduous return.Ash=11 return.Bryn=11")
    assert [(c.dc, c.success) for c in of(batch, ev.CheckMade)] == [(11, True), (11, True)]


def test_one_pc_rolls_to_return_alone_and_the_fallen_do_not_roll(expedition: Factory) -> None:
    """Rolling To Return: "each player" rolls — but a PC who escaped a battle alone "can
    roll to return" by themselves, and "a party with two surviving PCs" rolls as two. With
    by=A only A rolls, and the party's count from safety stays; a member at 0 HP does not
    roll."""
    made = expedition("travel-turn")
    run(made, "pc add A hp=20 MOD=2", "pc add B hp=8 MOD=0", "pc add C hp=8 MOD=0")
    travel(made, 3)
    made.execute("pc B hp=0")
    batch = made.execute("turn return path=dangerous by=A return.A=3 damage.A=8")
    assert [(c.name, c.dc, c.success) for c in of(batch, ev.CheckMade)] == [("A", 13, False)]
    b = made.state.member("B")
    assert b is not None and b.hp == 0
    assert made.state.counter("away") == 3  # the rest of the party is still out there
    with pytest.raises(CommandError, match=r"'return\.b=' was given but nothing"):
        made.execute("turn return path=arduous return.B=20 return.C=20")
    batch = made.execute("turn return path=arduous return.A=20 return.C=20")
    assert [c.name for c in of(batch, ev.CheckMade)] == ["A", "C"]
    assert made.state.counter("away") == 0


def test_the_best_modifier_includes_proficiency(expedition: Factory) -> None:
    made = expedition("travel-turn")
    made.execute("pc add Dara hp=8 STR=16 DEX=12 PROF=2")
    batch = made.execute("turn return path=arduous return.Dara=5")
    check = of(batch, ev.CheckMade)[0]
    assert (check.dc, check.total, check.success) == (10, 10, True)  # 5 + 3 + 2


def test_the_return_dc_stops_at_twenty(expedition: Factory) -> None:
    made = expedition("travel-turn")
    made.execute("pc add Ash hp=8 MOD=0")
    travel(made, 12)
    batch = made.execute("turn return path=arduous return=20")
    assert of(batch, ev.CheckMade)[0].dc == 20


def test_rolling_to_return_without_a_path_is_refused_and_writes_nothing(
    expedition: Factory,
) -> None:
    made = expedition("travel-turn")
    made.execute("pc add Ash hp=8 MOD=6")
    before = (made.state, made.batch_count, made.event_count)
    with pytest.raises(CommandError, match="path=dangerous or path=arduous"):
        made.execute("turn return return.Ash=11")
    assert (made.state, made.batch_count, made.event_count) == before


def test_replaying_the_file_gives_the_same_state(expedition: Factory) -> None:
    made = expedition("travel-turn", seed=11)
    run(
        made,
        "pc add Ash hp=8 CON=4 MOD=3",
        "pc add Bryn hp=8 CON=12",
        "light add torch carrier=Ash count=3",
        "light on torch",
        "time roll 2",
        "turn cautious",
        "turn careless",
        "light on torch",
        "turn",
        "turn rest",
        "turn cautious",
        "turn cautious",
        "turn cautious",
        "turn cautious",
        "turn cautious",
        "turn return path=dangerous",
    )
    state = made.state
    again = reopened(made)
    try:
        assert again.state == state
    finally:
        again.close()


@pytest.mark.parametrize(
    ("clock", "quarter"),
    [("05:00", "pre-dawn"), ("07:00", "morning"), ("13:00", "afternoon"), ("20:00", "night")],
)
def test_each_time_die_is_a_quarter_of_the_day(
    expedition: Factory, clock: str, quarter: str
) -> None:
    """Timekeeping: "Each time die represents one quarter of the day and six hours of time:
    pre-dawn, morning, afternoon, and night" — status names the quarter the hour is in."""
    made = expedition("travel-turn")
    made.execute(f"time set {clock}")
    assert status_data(made)["quarter"] == quarter


def test_rest_does_not_cure_exhaustion(expedition: Factory) -> None:
    """Exhaustion: "only safe rest will" cure it, and not unsafe rest. An hour's rest on the
    road starts the hours without rest again but leaves the exhaustion; the GM takes it away
    when the party has safe rest and food (pc NAME -exhausted)."""
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 CON=10", "pc Ash +exhausted")
    made.execute("turn rest hazard=20")
    ash = made.state.member("Ash")
    assert ash is not None and "exhausted" in ash.conditions and ash.track("resilience") == 0
    made.execute("pc Ash -exhausted")
    ash = made.state.member("Ash")
    assert ash is not None and ash.conditions == ()


def test_dim_light_and_darkness_are_difficult_and_harsh_terrain(expedition: Factory) -> None:
    """Overland Travel: "Dim light counts as difficult terrain; darkness as harsh terrain" —
    half and a quarter of the distance. Light: the level's advantages and disadvantages
    are shown with each travel turn, for the GM to apply to the checks they call."""
    made = expedition("travel-turn")
    procedure = made.procedure
    assert procedure.light_level("dim").movement_factor == 0.5
    assert procedure.light_level("dark").movement_factor == 0.25
    run(made, "pc add Ash hp=8", "light add torch carrier=Ash lit")
    started = of(made.execute("turn cautious hazard=20,20"), ev.TurnStarted)[0]
    assert "advantage: stealth, hiding, listening" in started.flags
    assert made.state.light_level == "dark"  # the torch's hour is over
    started = of(made.execute("turn cautious hazard=20,20"), ev.TurnStarted)[0]
    assert "sight impossible" in started.flags


def test_a_night_of_unsafe_rest_heals_one_hit_point(expedition: Factory) -> None:
    """Healing From Rest: "A PC heals 1 HP per night of unsafe rest; such as when in a
    dungeon" (the expedition is out of safety). A night is eight travel turns of rest in a
    row (the text gives no length); fewer heal nothing, and a full member heals nothing."""
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 CON=10", "pc add Bo hp=6 CON=10", "pc Ash hp=5")
    for _ in range(7):
        made.execute("turn rest hazard=20")
    assert [m.hp for m in made.state.party] == [5, 6]
    batch = made.execute("turn rest hazard=20")
    assert [m.hp for m in made.state.party] == [6, 6]
    assert [e.name for e in of(batch, ev.HpChanged)] == ["Ash"]
    made.execute("turn cautious hazard=20,20")
    for _ in range(7):
        made.execute("turn rest hazard=20")
    assert made.state.party[0].hp == 6


def test_the_checks_delvetui_rolls_take_no_mode_from_the_light(expedition: Factory) -> None:
    """Light: darkness hinders sight, stealth and attacks; a resilience check is none of
    them, so in darkness it is a plain d20."""
    made = expedition("travel-turn")
    run(made, "pc add Ash hp=8 CON=1", "turn cautious hazard=20,20")
    assert made.state.light_level == "dark"
    batch = made.execute("turn cautious hazard=20,20 resilience=15")
    checks = [e.expression for e in of(batch, ev.DiceRolled) if e.key.startswith("resilience")]
    assert checks == ["d20-5"]
