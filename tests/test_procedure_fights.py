"""Each shipped procedure's fight, as its text says (its `[encounter]` section), rule by rule.

The ledgers' rows on rounds, initiative, morale and the time a fight takes name these tests
(docs/rules/ID.md). Each plays a real expedition of the shipped procedure with the dice
typed as a game master reads them off the table, and checks who acts first, who breaks and
what the clock says against the book.
"""

from __future__ import annotations

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.conftest import Factory, of, run
from tests.shipped import SHIPPED


def party(expedition: Factory, procedure: str, *members: str) -> Expedition:
    made = expedition(procedure, seed=7)
    run(made, *(members or ("pc add Ash hp=6", "pc add Bo hp=5")))
    return made


def state_of(x: Expedition, name: str) -> str:
    foe = x.state.foe(name)
    assert foe is not None
    return foe.state


@pytest.mark.parametrize("procedure", SHIPPED)
def test_every_shipped_procedure_declares_its_fight(procedure: str, expedition: Factory) -> None:
    """Every shipped procedure says how its fights go ([encounter] text), and a fight runs."""
    x = expedition(procedure, seed=7)
    scores = " ".join(f"{ability}=12" for ability in x.procedure.party.abilities)
    x.execute(f"pc add Ash hp=6 {scores}")
    assert x.procedure.encounter.text
    run(x, "foe add goblin count=2 hp=3", "fight", "round", "foe goblin1 hp=-3")
    x.execute("fight end")
    assert x.state.fights == 1 and x.state.fight is None


# ---- Old-School Essentials ----------------------------------------------------------------


def test_ose_each_side_rolls_a_d6_each_round_the_higher_first(expedition: Factory) -> None:
    """Combat: 1d6 for each side at the start of each round; the higher acts first; a tie
    is rolled again."""
    x = party(expedition, "ose")
    run(x, "foe add goblin count=2 hp=3", "fight initiative=2,5")
    assert x.state.fight is not None and x.state.fight.first == "foes"
    x.execute("round initiative=4,4,6,1")
    assert x.state.fight.first == "party"


def test_ose_surprise_at_the_encounter_loses_the_first_round(expedition: Factory) -> None:
    """Encounters: a surprised side loses the first round (the surprise roll of 1-2)."""
    x = party(expedition, "ose")
    run(x, "turn explore", "light add torch carrier=Ash")
    x.execute("turn explore hazard=1 distance=4 surprise-party=2")
    assert x.state.surprised == ("party",)
    run(x, "foe add orc count=3 hp=5", "fight")
    fight = x.state.fight
    assert fight is not None and (fight.first, fight.lost) == ("foes", "party")


def test_ose_morale_2d6_at_the_first_death_and_at_half(expedition: Factory) -> None:
    """Morale: 2d6 over the score flees; at the first death and when half are out; a monster
    that held twice fights to the death."""
    x = party(expedition, "ose")
    run(x, "foe add goblin count=4 hp=3 morale=7", "fight initiative=5,1")
    batch = x.execute("foe goblin1 hp=-3 morale=7")  # 7 is not over 7: all hold
    assert of(batch, ev.MoraleChecked)[0].trigger == "first-down"
    batch = x.execute("foe goblin2 hp=-3 morale=4")
    assert of(batch, ev.MoraleChecked)[0].trigger == "half-down"
    assert state_of(x, "goblin3") == "fighting"
    assert x.state.foe("goblin3").held == 2  # type: ignore[union-attr]
    with pytest.raises(CommandError, match="held its morale 2 times and fights on"):
        x.execute("morale morale=12")


def test_ose_an_encounter_takes_a_turn(expedition: Factory) -> None:
    """Encounters: an encounter takes at least a turn (rest, regrouping, binding wounds)."""
    x = party(expedition, "ose")
    run(x, "light add torch carrier=Ash", "light on torch", "foe add rat hp=2", "fight")
    clock = x.state.clock
    x.execute("fight end")
    assert x.state.clock - clock == 10
    assert x.state.lights[0].minutes == 50


def test_ose_a_retainers_loyalty_is_checked_as_morale(expedition: Factory) -> None:
    """Retainers: loyalty is checked as morale (2d6 against the retainer's score)."""
    x = party(expedition, "ose", "pc add Ash hp=6", "pc add Cy hp=4 ML=7")
    batch = x.execute("morale Cy morale=8")
    assert of(batch, ev.MoraleChecked)[0].failed == ("Cy",)


# ---- Basic Fantasy ---------------------------------------------------------------------------


def test_basic_fantasy_surprise_and_initiative(expedition: Factory) -> None:
    """Surprise on 1-2 for the monsters stands them flat-footed a round; then a d6 each side."""
    x = party(expedition, "basic-fantasy")
    run(x, "turn explore", "turn explore")
    x.execute("turn explore hazard=1 monster_surprise=1 surprise=5 reaction=7")
    assert x.state.surprised == ("foes",)
    run(x, "foe add kobold count=3 hp=2", "fight")
    fight = x.state.fight
    assert fight is not None and (fight.first, fight.lost) == ("party", "foes")
    x.execute("round initiative=1,6")
    assert x.state.fight.first == "foes"  # type: ignore[union-attr]


def test_basic_fantasy_morale_at_the_first_death_and_at_half(expedition: Factory) -> None:
    x = party(expedition, "basic-fantasy")
    run(x, "foe add kobold count=2 hp=2 morale=6", "fight initiative=4,1")
    batch = x.execute("foe kobold1 hp=-2 morale=9")
    assert [c.trigger for c in of(batch, ev.MoraleChecked)] == ["first-down,half-down"]
    assert state_of(x, "kobold2") == "fled"
    run(x, "pc add Cy hp=4 ML=9")
    batch = x.execute("morale Cy morale=9")  # a retainer's 9 is not over 9: holds
    assert of(batch, ev.MoraleChecked)[0].failed == ()


# ---- Shadowdark ------------------------------------------------------------------------------


def test_shadowdark_initiative_d20_dex_each_one_roll_for_the_foes(expedition: Factory) -> None:
    """Turn Order: everyone d20 + DEX, the GM once for the foes; the order holds."""
    x = party(expedition, "shadowdark", "pc add Ash hp=6 DEX=16", "pc add Bo hp=4 DEX=8")
    run(x, "foe add goblin count=2 hp=5", "fight initiative=9,14,12")  # 12, 13 vs 12
    fight = x.state.fight
    assert fight is not None and (fight.before, fight.after) == (("Bo", "Ash"), ())
    x.execute("round")
    assert x.state.fight.before == ("Bo", "Ash")  # type: ignore[union-attr]


def test_shadowdark_rounds_are_crawling_rounds_without_encounter_checks(
    expedition: Factory,
) -> None:
    """Time: combat rounds are rounds; checks are made in crawling rounds, not in combat."""
    x = party(expedition, "shadowdark", "pc add Ash hp=6 DEX=10")
    run(x, "counter set danger deadly", "foe add rat hp=2")
    turn = x.state.turn
    batch = x.execute("fight initiative=10,3")
    assert x.state.turn == turn + 1 and not any(r.key == "hazard" for r in of(batch, ev.DiceRolled))
    clock = x.state.clock
    x.execute("fight end")
    assert x.state.clock == clock  # the rounds already were the crawl's rounds


def test_shadowdark_morale_dc_15_wis_at_half_their_number(expedition: Factory) -> None:
    """Morale: reduced to half their number, a DC 15 WIS check or flee."""
    x = party(expedition, "shadowdark", "pc add Ash hp=6 DEX=10")
    run(x, "foe add goblin count=4 hp=4 morale=1", "fight initiative=15,2")
    x.execute("foe goblin1 hp=-4")
    batch = x.execute("foe goblin2 hp=-4 morale=13")  # 13 + 1 = 14 < 15
    assert of(batch, ev.MoraleChecked)[0].trigger == "half-down"
    assert {state_of(x, "goblin3"), state_of(x, "goblin4")} == {"fled"}


def test_shadowdark_a_lone_foe_at_half_its_hit_points(expedition: Factory) -> None:
    x = party(expedition, "shadowdark", "pc add Ash hp=6 DEX=10")
    run(x, "foe add ogre hp=20 morale=0", "fight initiative=15,2")
    batch = x.execute("foe ogre hp=-10 morale=15")
    assert of(batch, ev.MoraleChecked)[0].trigger == "lone-half-hp"
    assert state_of(x, "ogre") == "fighting"


# ---- Cairn -------------------------------------------------------------------------------------


@pytest.mark.parametrize("procedure", ["cairn", "cairn-modular"])
def test_cairn_the_characters_first_with_a_dex_save_in_the_first_round(
    procedure: str, expedition: Factory
) -> None:
    """Combat: the characters act first; in the first round each makes a DEX save to act."""
    x = party(expedition, procedure, "pc add Ash hp=6 DEX=13", "pc add Bo hp=4 DEX=8")
    run(x, "foe add wolf count=2 hp=4")
    x.execute("fight save=13 save=9")
    fight = x.state.fight
    assert fight is not None and (fight.first, fight.before, fight.idle) == (
        "party",
        ("Ash",),
        ("Bo",),
    )
    x.execute("round")
    assert x.state.fight.idle == () and x.state.fight.first == "party"  # type: ignore[union-attr]


@pytest.mark.parametrize("procedure", ["cairn", "cairn-modular"])
def test_cairn_a_wil_save_at_the_first_casualty_and_at_half(
    procedure: str, expedition: Factory
) -> None:
    """Morale: a WIL save to avoid fleeing at the first casualty and at half their number;
    0 HP is not the end of a foe (STR takes the rest)."""
    x = party(expedition, procedure, "pc add Ash hp=6 DEX=13")
    run(x, "foe add bandit count=4 hp=3 morale=9", "fight save=2")
    x.execute("foe bandit1 hp=-3")
    assert state_of(x, "bandit1") == "fighting"
    batch = x.execute("foe bandit1 +down morale=10")  # 10 over WIL 9: they flee
    assert of(batch, ev.MoraleChecked)[0].trigger == "first-down"
    assert [f.state for f in x.state.foes] == ["down", "fled", "fled", "fled"]


@pytest.mark.parametrize("procedure", ["cairn", "cairn-modular"])
def test_cairn_a_lone_foe_saves_at_0_hp(procedure: str, expedition: Factory) -> None:
    x = party(expedition, procedure, "pc add Ash hp=6 DEX=13")
    run(x, "foe add troll hp=8 morale=14", "fight save=2")
    batch = x.execute("foe troll hp=-8 morale=3")
    assert of(batch, ev.MoraleChecked)[0].trigger == "lone-zero-hp"
    assert state_of(x, "troll") == "fighting"
    with pytest.raises(CommandError, match="gives retainers no morale check"):
        x.execute("morale Ash")  # morale does not affect the characters


# ---- Mausritter --------------------------------------------------------------------------------


def test_mausritter_a_dex_save_to_act_before_the_foes_kept(expedition: Factory) -> None:
    """Combat: a DEX save to act before the opponents; the order is kept."""
    x = party(expedition, "mausritter", "pc add Pip hp=3 DEX=11", "pc add Tam hp=4 DEX=7")
    run(x, "foe add rat count=2 hp=3", "fight initiative=10,12")
    fight = x.state.fight
    assert fight is not None and (fight.before, fight.after) == (("Pip",), ("Tam",))
    x.execute("round")
    assert (x.state.fight.before, x.state.fight.after) == (("Pip",), ("Tam",))  # type: ignore[union-attr]
    x.execute("foe rat1 hp=-3")  # past HP, damage goes to STR: not down yet
    assert state_of(x, "rat1") == "fighting"


def test_mausritter_morale_when_an_ally_falls_and_a_fight_lasts_a_turn(
    expedition: Factory,
) -> None:
    """Morale: a WIL save when an ally flees or falls; a fight almost always lasts a turn."""
    x = party(expedition, "mausritter", "pc add Pip hp=3 DEX=11")
    run(x, "foe add beetle count=3 hp=3 morale=6", "fight initiative=2")
    batch = x.execute("foe beetle1 +down morale=5")
    assert of(batch, ev.MoraleChecked)[0].trigger == "each-down"
    batch = x.execute("foe beetle2 +down morale=7")
    assert of(batch, ev.MoraleChecked)[0].trigger == "each-down"
    assert state_of(x, "beetle3") == "fled"
    clock = x.state.clock
    x.execute("fight end")
    assert x.state.clock - clock == 10


def test_mausritter_a_hirelings_wil_save(expedition: Factory) -> None:
    x = party(expedition, "mausritter", "pc add Pip hp=3 DEX=11", "pc add Hob hp=2 WIL=6")
    batch = x.execute("morale Hob morale=7")
    assert of(batch, ev.MoraleChecked)[0].failed == ("Hob",)


# ---- Errant ------------------------------------------------------------------------------------


def test_errant_odd_or_even_each_initiative_turn(expedition: Factory) -> None:
    """Initiative: the Company's call of odd or even on two d6 decides who acts first."""
    x = party(expedition, "errant")
    run(x, "foe add gnoll hp=14", "fight initiative=3,4 call=odd")
    assert x.state.fight is not None and x.state.fight.first == "party"
    x.execute("round initiative=3,4 call=even")
    assert x.state.fight.first == "foes"


def test_errant_a_retainers_morale(expedition: Factory) -> None:
    """Retainers roll Morale too (their ML), in unfavourable situations."""
    x = party(expedition, "errant", "pc add Ash hp=6", "pc add Hob hp=4 ML=6")
    batch = x.execute("morale Hob morale=8")
    assert of(batch, ev.MoraleChecked)[0].failed == ("Hob",)


def test_errant_morale_below_half_hp_and_past_half_the_allies(expedition: Factory) -> None:
    """Morale: 2d6 over Morale when brought below half HP, or past half the allies down."""
    x = party(expedition, "errant")
    run(x, "foe add goblin count=3 hp=6 morale=7", "fight initiative=1,2")
    batch = x.execute("foe goblin1 hp=-4 morale=9")
    assert of(batch, ev.MoraleChecked)[0].trigger == "half-hp:goblin1"
    assert state_of(x, "goblin1") == "fled"
    batch = x.execute("foe goblin2 hp=-6 morale=5")
    assert of(batch, ev.MoraleChecked)[0].trigger == "most-down"


# ---- The seeds ----------------------------------------------------------------------------------


def test_travel_turn_initiative_by_dex_score_and_morale_dc_11(expedition: Factory) -> None:
    """Initiative: by DEX score, the same each round; morale: d20 + WIS + bonus vs DC 11."""
    x = party(expedition, "travel-turn", "pc add Ash hp=6 DEX=15", "pc add Bo hp=5 DEX=9")
    run(x, "foe add bandit count=2 hp=4 morale=1", "fight initiative=12")
    fight = x.state.fight
    assert fight is not None and (fight.before, fight.after) == (("Ash",), ("Bo",))
    batch = x.execute("foe bandit1 hp=-4 morale=9")  # 9 + 1 = 10 < 11
    assert of(batch, ev.MoraleChecked)[0].trigger == "first-down"
    assert state_of(x, "bandit2") == "fled"


def test_travel_turn_a_retainer_adds_their_wis_modifier(expedition: Factory) -> None:
    x = party(expedition, "travel-turn", "pc add Ash hp=6", "pc add Jo hp=4 WIS=14")
    batch = x.execute("morale Jo morale=9")  # 9 + 2 = 11 holds
    assert of(batch, ev.MoraleChecked)[0].failed == ()


SEEDS = ["delving", "dungeon-turn", "trespasser", "exploration", "exploration-traditional"]
#: The procedures whose text gives a fight no time of its own.
WITHIN = [
    "basic-fantasy",
    "cairn",
    "cairn-modular",
    "dungeon-turn",
    "errant",
    "exploration",
    "exploration-traditional",
    "travel-turn",
    "trespasser",
]


@pytest.mark.parametrize("procedure", SEEDS)
def test_a_seed_silent_on_combat_keeps_the_formats_defaults(
    procedure: str, expedition: Factory
) -> None:
    """The seed says nothing of initiative or morale: a d6 each side, no morale roll."""
    x = party(expedition, procedure)
    run(x, "foe add goblin count=2 hp=3", "fight initiative=3,4")
    assert x.state.fight is not None and x.state.fight.first == "foes"
    with pytest.raises(CommandError, match="has no morale roll"):
        x.execute("morale")


@pytest.mark.parametrize("procedure", WITHIN)
def test_a_fight_passes_within_the_turn_its_encounter_came_in(
    procedure: str, expedition: Factory
) -> None:
    """The text gives a fight no time of its own: fight end leaves the clock where it was."""
    x = party(expedition, procedure)
    run(x, "foe add goblin hp=3", "fight", "round")
    clock = x.state.clock
    x.execute("fight end")
    assert x.state.clock == clock and x.state.fights == 1


def test_delving_a_fight_takes_a_turn_and_its_hazard_die(expedition: Factory) -> None:
    """Turns: fighting takes a turn; the hazard die is rolled at the end of every turn."""
    x = party(expedition, "delving")
    run(x, "foe add ghoul hp=9", "fight initiative=5,2")
    turn, clock = x.state.turn, x.state.clock
    batch = x.execute("fight end hazard=6")
    assert (x.state.turn - turn, x.state.clock - clock) == (1, 10)
    assert [r.key for r in of(batch, ev.DiceRolled)] == ["hazard"]


@pytest.mark.parametrize("procedure", SHIPPED)
def test_foes_hit_dice_roll_the_games_hit_die(procedure: str, expedition: Factory) -> None:
    """A foe's hit dice are rolled with the game's own die ([encounter] hit_die)."""
    x = expedition(procedure, seed=3)
    batch = x.execute("foe add brute hd=2")
    die = x.procedure.encounter.hit_die
    assert [r.expression for r in of(batch, ev.DiceRolled)] == [f"2{die}"]


def test_delving_walking_or_running_the_party_is_surprised(expedition: Factory) -> None:
    """Speeds: walking and running, the PCs are surprised by all encounters."""
    x = party(expedition, "delving")
    run(x, "light add torch carrier=Ash", "light on torch")
    x.execute("turn walk hazard=1")
    assert x.state.surprised == ("party",)
    run(x, "foe add ghoul hp=9", "fight")
    assert x.state.fight is not None and x.state.fight.lost == "party"
