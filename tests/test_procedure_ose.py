"""The shipped ose procedure, rule by rule, as a GM would check it against the SRD.

The text is the Old-School Essentials System Reference Document (OGL 1.0a): 10-minute
dungeon turns, exploring at the base movement rate per turn, a wandering monster on 1-in-6
checked every second turn, 2d6 × 10 feet away, surprise on 1-2 for each side, a turn's rest
each hour, searching and listening on 1-in-6, forcing doors by Strength, the 2d6 reaction
adjusted by the speaker's Charisma; outdoors, days of travel by terrain, losing direction
and wandering monsters by terrain, 4d6 × 10 yards, a ration a day, foraging and hunting.
Each test's docstring names the SRD page and rule it follows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core import log, players
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.conftest import Factory, of, replays_the_same, rolled, run


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    made = expedition("ose", seed=11)
    run(
        made,
        "pc add Ash hp=6 STR=16 CHA=13 MV=120",
        "pc add Bo hp=4 STR=7 CHA=9 MV=120",
        "light add torch count=3 carrier=Ash",
        "light add lantern carrier=Bo",
        "light on torch",
    )
    return made


def labels(batch: object) -> list[str]:
    return [r.label for r in of(batch, ev.ResultRead)]  # type: ignore[arg-type]


def conditions(x: Expedition, name: str) -> tuple[str, ...]:
    member = x.state.member(name)
    assert member is not None
    return member.conditions


def outdoors(x: Expedition, terrain: str = "clear") -> None:
    run(x, "enter wilderness", f"do terrain terrain={terrain}")


# ---- Time and movement -----------------------------------------------------------------------


def test_a_dungeon_turn_is_ten_minutes(party: Expedition) -> None:
    """Time, Weight and Movement: a turn is 10 minutes; six make an hour."""
    party.execute("enter dungeon")
    for _ in range(6):
        party.execute("turn explore hazard=6" if party.state.turn % 2 == 1 else "turn explore")
    assert party.state.turn_type == "dungeon"
    assert party.state.minutes == 60 and party.state.clock_text == "09:00"


def test_exploring_unknown_areas_covers_the_base_rate_per_turn(party: Expedition) -> None:
    """Dungeon Adventuring, Movement: in unknown areas, the base movement rate in feet a turn."""
    started = of(party.execute("turn explore"), ev.TurnStarted)[0]
    assert started.distance == "120 feet"
    assert "maps" in started.flags


def test_familiar_areas_allow_three_times_the_base_rate(party: Expedition) -> None:
    """Dungeon Adventuring, Movement: in familiar areas the referee may allow three times."""
    started = of(party.execute("turn familiar"), ev.TurnStarted)[0]
    assert started.distance == "360 feet"


def test_the_party_moves_at_its_slowest_members_rate(party: Expedition) -> None:
    """Time, Weight and Movement: a party moves at the rate of its slowest member."""
    party.execute("pc add Cole hp=5 MV=90")
    started = of(party.execute("turn explore"), ev.TurnStarted)[0]
    assert started.distance.startswith("90 feet")


# ---- Wandering monsters and encounters in the dungeon -----------------------------------------


def test_wandering_monsters_are_checked_every_second_turn(party: Expedition) -> None:
    """Dungeon Adventuring, Wandering Monsters: a check usually every 2 turns; Sequence of
    Play Per Turn: the check comes first, before the party's action."""
    checked = ["hazard" in rolled(party.execute("turn search")) for _ in range(6)]
    assert checked == [False, True] * 3
    assert rolled(party.execute("turn search search=3")) == ["search"]
    assert rolled(party.execute("turn search search=3")) == ["hazard", "search"]


def test_a_check_typed_on_a_turn_without_one_is_refused(party: Expedition) -> None:
    """Dungeon Adventuring, Wandering Monsters: no check on the odd turns; a typed result
    for one is refused and saves nothing."""
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="hazard="):
        party.execute("turn explore hazard=1")
    assert (party.state, party.event_count) == before


@pytest.mark.parametrize(("die", "met"), [(1, True), (2, False), (6, False)])
def test_a_wandering_monster_comes_on_1_in_6(party: Expedition, die: int, met: bool) -> None:
    """Dungeon Adventuring, Wandering Monsters: the chance is 1-in-6."""
    party.execute("turn explore")
    extra = " distance=5 surprise-party=4" if met else ""
    batch = party.execute(f"turn explore hazard={die}{extra}")
    assert bool(of(batch, ev.EncounterBegan)) is met
    assert labels(batch)[0] == ("Encounter" if met else "No encounter")


def players_see(x: Expedition) -> list[str]:
    return players.view(x.state, x.procedure).lines()


@pytest.mark.parametrize(
    ("first", "second"),
    [("do listen by=Bo listen=1", "do listen by=Bo listen=2"),
     ("turn search search=1", "turn search search=6")],
)  # fmt: skip
def test_the_referee_rolls_listening_and_searching_in_secret(
    party: Expedition, first: str, second: str
) -> None:
    """Dungeon Adventuring, Listening and Searching: the referee rolls, so a success and a
    failure look alike to the players: their screen shows no roll and no result."""
    party.execute(first)
    found = players_see(party)
    party.execute("undo")
    party.execute(second)
    assert players_see(party) == found


def test_the_gm_raises_the_odds_for_a_noisy_party(party: Expedition) -> None:
    """Hazards and Challenges, Wandering Monsters: noise or light may raise the chance; a
    party hiding quietly may lower it (the counter of the dungeon's odds)."""
    run(party, "counter set monster-odds 2", "turn explore")
    batch = party.execute("turn explore hazard=2 distance=5 surprise-party=4")
    assert len(of(batch, ev.EncounterBegan)) == 1


def test_a_wandering_monster_is_2d6_times_10_feet_away(party: Expedition) -> None:
    """Dungeon Adventuring, Wandering Monsters; Encounters, Encounter Distance: 2d6 × 10
    feet in the dungeon, coming towards the party."""
    party.execute("turn explore")
    batch = party.execute("turn explore hazard=1 distance=7 surprise-party=4")
    encounter = of(batch, ev.EncounterBegan)[0]
    assert encounter.distance == "70 feet"
    assert "moving towards the party" in encounter.text
    distance = next(r for r in of(batch, ev.DiceRolled) if r.key == "distance")
    assert distance.expression == "2d6"


@pytest.mark.parametrize(
    ("party_die", "monster_die", "seen"),
    [(1, 2, ["Party surprised", "Monsters surprised"]),
     (2, 3, ["Party surprised", "Monsters ready"]),
     (3, 1, ["Party ready", "Monsters surprised"]),
     (6, 6, ["Party ready", "Monsters ready"])],
)  # fmt: skip
def test_surprise_is_a_d6_for_each_side_surprised_on_1_or_2(
    party: Expedition, party_die: int, monster_die: int, seen: list[str]
) -> None:
    """Encounters, Surprise: each side unaware of the other rolls 1d6; 1 or 2 is surprised
    (in the dark, where the party's light does not give it away)."""
    run(party, "light off torch", "turn explore")
    batch = party.execute(
        f"turn explore hazard=1 distance=4 surprise-party={party_die} "
        f"surprise-monsters={monster_die}"
    )
    assert labels(batch)[1:] == seen


def test_a_party_carrying_light_cannot_surprise_monsters(party: Expedition) -> None:
    """Hazards and Challenges, Light and Surprise: a light in the dark gives its bearers
    away, so they cannot surprise: the monsters' surprise is not rolled."""
    party.execute("turn explore")
    batch = party.execute("turn explore hazard=1 distance=4 surprise-party=5")
    assert "surprise-monsters" not in rolled(batch)
    started = of(batch, ev.TurnStarted)[0]
    assert any("cannot surprise" in flag for flag in started.flags)
    with pytest.raises(CommandError, match="surprise-monsters="):
        party.execute("turn explore")  # keep the turn count moving
        party.execute("turn explore hazard=1 distance=4 surprise-party=5 surprise-monsters=1")


@pytest.mark.parametrize(
    ("total", "label"),
    [(2, "Hostile, attacks"), (3, "Unfriendly, may attack"), (5, "Unfriendly, may attack"),
     (6, "Neutral, uncertain"), (8, "Neutral, uncertain"), (9, "Indifferent, uninterested"),
     (11, "Indifferent, uninterested"), (12, "Friendly, helpful")],
)  # fmt: skip
def test_the_reaction_table(party: Expedition, total: int, label: str) -> None:
    """Encounters, Monster Reactions: 2d6 on the table when the monsters' behaviour is not
    obvious."""
    batch = party.execute(f"do react reaction={total}")
    roll = of(batch, ev.DiceRolled)[0]
    assert roll.expression == "2d6" and roll.total == total
    assert labels(batch) == [label]


@pytest.mark.parametrize(
    ("cha", "dice", "total", "label"),
    [(3, "2d6-2", 5, "Unfriendly, may attack"), (5, "2d6-1", 6, "Neutral, uncertain"),
     (8, "2d6-1", 6, "Neutral, uncertain"), (9, "2d6", 7, "Neutral, uncertain"),
     (12, "2d6", 7, "Neutral, uncertain"), (13, "2d6+1", 8, "Neutral, uncertain"),
     (17, "2d6+1", 8, "Neutral, uncertain"), (18, "2d6+2", 9, "Indifferent, uninterested")],
)  # fmt: skip
def test_the_speakers_charisma_adjusts_the_reaction(
    party: Expedition, cha: int, dice: str, total: int, label: str
) -> None:
    """Encounters, Monster Reactions; Ability Scores, Charisma: when a character speaks to
    the monsters, their NPC reactions adjustment (3: -2; 4-8: -1; 13-17: +1; 18: +2) is
    added to the 2d6."""
    party.execute(f"pc add Dara hp=4 CHA={cha}")
    batch = party.execute("do parley by=Dara reaction=7")
    roll = of(batch, ev.DiceRolled)[0]
    assert (roll.expression, roll.total) == (dice, total)
    assert labels(batch) == [label]


def test_an_adjusted_reaction_reaches_past_2_and_12(party: Expedition) -> None:
    """Encounters, Monster Reactions: 2 or less is hostile, 12 or more friendly."""
    party.execute("pc add Dara hp=4 CHA=3")
    assert labels(party.execute("do parley by=Dara reaction=2")) == ["Hostile, attacks"]
    party.execute("pc add Eli hp=4 CHA=18")
    assert labels(party.execute("do parley by=Eli reaction=12")) == ["Friendly, helpful"]


# ---- Searching, listening, doors, traps ------------------------------------------------------


def test_searching_takes_a_turn_and_finds_on_1_in_6(party: Expedition) -> None:
    """Dungeon Adventuring, Searching: a 10' × 10' area takes 1 turn; 1-in-6 finds a
    secret door or room trap that is there."""
    found = party.execute("turn search search=1")
    assert party.state.minutes == 10
    assert labels(found) == ["found, if it is there"]
    assert labels(party.execute("turn search search=2 hazard=6")) == [
        "No encounter",  # the check comes first in the turn
        "nothing found",
    ]


def test_a_searcher_with_better_odds(party: Expedition) -> None:
    """Dungeon Adventuring, Searching: some kinds of adventurer have a better chance (an elf
    seeking secret doors: 2-in-6), typed as odds=2."""
    assert labels(party.execute("turn search odds=2 search=2")) == ["found, if it is there"]
    assert labels(party.execute("turn search search=2 hazard=6"))[-1] == "nothing found"


def test_listening_takes_no_time_and_hears_on_1_in_6(party: Expedition) -> None:
    """Dungeon Adventuring, Listening at Doors: 1-in-6 to hear subtle sounds; demihumans
    better (odds=2); it takes no turn of its own."""
    heard = party.execute("do listen by=Bo listen=1")
    assert party.state.turn == 0 and party.state.minutes == 0
    assert labels(heard) == ["sounds beyond, if any"]
    assert labels(party.execute("do listen by=Bo listen=2")) == ["nothing heard"]
    assert labels(party.execute("do listen by=Bo odds=2 listen=2")) == ["sounds beyond, if any"]


@pytest.mark.parametrize(
    ("strength", "odds"),
    [(3, 1), (8, 1), (9, 2), (12, 2), (13, 3), (15, 3), (16, 4), (17, 4), (18, 5)],
)  # fmt: skip
def test_forcing_a_door_follows_the_forcers_strength(
    party: Expedition, strength: int, odds: int
) -> None:
    """Dungeon Adventuring, Stuck Doors; Ability Scores, Open Doors: STR 3-8 1-in-6, 9-12
    2-in-6, 13-15 3-in-6, 16-17 4-in-6, 18 5-in-6."""
    party.execute(f"pc add Gorm hp=6 STR={strength}")
    opened = party.execute(f"do force by=Gorm force={odds}")
    assert party.state.counter("door-odds") == odds
    assert labels(opened) == ["forced open"]
    if odds < 6:
        assert labels(party.execute(f"do force by=Gorm force={odds + 1}")) == ["still stuck"]


def test_a_failed_forcing_spoils_surprise(party: Expedition) -> None:
    """Dungeon Adventuring, Stuck Doors: a failed attempt removes any chance of surprising
    the monsters beyond."""
    batch = party.execute("do force by=Bo force=6")
    logged = [e.text for e in of(batch, ev.Logged)]
    assert any("spoils any surprise" in text for text in logged)


def test_a_trap_is_sprung_on_2_in_6(party: Expedition) -> None:
    """Dungeon Adventuring, Traps: each action that could spring a trap springs it on
    2-in-6, its harm automatic."""
    assert labels(party.execute("do trap trap=2")) == ["sprung"]
    assert labels(party.execute("do trap trap=3")) == ["not sprung"]


# ---- Rest and running ------------------------------------------------------------------------


def test_a_turn_of_rest_is_owed_each_hour(party: Expedition) -> None:
    """Dungeon Adventuring, Resting: one turn of rest every hour; without it, -1 to attack
    and damage. Five turns of exploring are fine; the sixth without rest is not."""
    for _ in range(5):
        party.execute("turn explore")
        assert "unrested" not in conditions(party, "Ash")
    batch = party.execute("turn explore")
    assert {e.name for e in of(batch, ev.ConditionGained)} == {"Ash", "Bo"}
    assert "unrested" in conditions(party, "Ash")


def test_a_turn_of_rest_ends_the_penalty(party: Expedition) -> None:
    """Dungeon Adventuring, Resting: the penalty lasts until the party rests for a turn, and
    the hour starts again."""
    for _ in range(6):
        party.execute("turn explore")
    party.execute("turn rest")
    assert "unrested" not in conditions(party, "Ash")
    for _ in range(5):
        party.execute("turn explore")
    assert "unrested" not in conditions(party, "Bo")


def test_thirty_minutes_of_running_exhausts(party: Expedition) -> None:
    """Evasion and Pursuit, Running: characters are exhausted after 30 minutes of running:
    -2 to attack, damage and AC; mapping is impossible while running."""
    first = of(party.execute("turn run"), ev.TurnStarted)[0]
    assert "cannot map" in first.flags
    party.execute("turn run")
    assert "exhausted" not in conditions(party, "Ash")
    party.execute("turn run")
    assert "exhausted" in conditions(party, "Ash")


def test_three_turns_of_rest_end_exhaustion(party: Expedition) -> None:
    """Evasion and Pursuit, Running: exhaustion lasts until three full turns of rest."""
    run(party, "turn run", "turn run", "turn run", "turn rest hazard=6", "turn rest")
    assert "exhausted" in conditions(party, "Bo")
    party.execute("turn rest hazard=6")
    assert "exhausted" not in conditions(party, "Bo")


# ---- Light -------------------------------------------------------------------------------------


def test_a_torch_burns_six_turns(party: Expedition) -> None:
    """Adventuring Gear, Torch: burns for 1 hour (6 turns)."""
    torch = party.state.lit_lights[0]
    for _ in range(5):
        party.execute("turn explore hazard=6" if party.state.turn % 2 == 1 else "turn explore")
    lit = party.state.light(torch.id)
    assert lit is not None and lit.lit
    party.execute("turn explore hazard=6")
    out = party.state.light(torch.id)
    assert out is not None and not out.lit


def test_a_lantern_flask_burns_24_turns_and_is_refilled_from_oil(party: Expedition) -> None:
    """Adventuring Gear, Lantern and Oil: a flask burns 4 hours (24 turns); refilling takes
    a flask of oil, refused when there is none."""
    lantern = party.state.light("lantern1")
    assert lantern is not None and lantern.minutes == 24 * 10
    run(party, "light off torch", "light on lantern1")
    for _ in range(4):
        party.execute("turn explore hazard=6" if party.state.turn % 2 == 1 else "turn explore")
    with pytest.raises(CommandError, match="oil"):
        party.execute("light refuel lantern1")
    run(party, "pc Bo +1 oil", "light refuel lantern1")
    refilled = party.state.light("lantern1")
    member = party.state.member("Bo")
    assert refilled is not None and refilled.minutes == 24 * 10
    assert member is not None and member.resource("oil") == 0


# ---- The wilderness ----------------------------------------------------------------------------


def test_a_wilderness_turn_is_a_day(party: Expedition) -> None:
    """Wilderness Adventuring, Sequence of Play Per Day: time outdoors goes by the day."""
    outdoors(party)
    party.execute("turn travel wandering=6 lost=6")
    assert party.state.turn_type == "wilderness"
    assert party.state.day == 2 and party.state.clock_text == "08:00"


@pytest.mark.parametrize(
    ("terrain", "lost", "wild"),
    [("clear", 1, 1), ("grassland", 1, 1), ("settled", 1, 1), ("barren", 2, 2), ("hills", 2, 2),
     ("woods", 2, 2), ("mountains", 2, 3), ("desert", 3, 2), ("jungle", 3, 3), ("swamp", 3, 3)],
)  # fmt: skip
def test_the_terrain_sets_the_odds(party: Expedition, terrain: str, lost: int, wild: int) -> None:
    """Wilderness Adventuring, Losing Direction (clear, grasslands 1; barren, hills,
    mountains, woods 2; desert, jungle, swamp 3) and Wandering Monsters (clear, grassland,
    settled 1; barren, desert, forest, hills 2; jungle, mountains, swamp 3)."""
    outdoors(party, terrain)
    assert party.state.counter("lost-odds") == lost
    assert party.state.counter("wild-odds") == wild


def test_losing_direction_is_rolled_each_day(party: Expedition) -> None:
    """Wilderness Adventuring, Losing Direction: at the start of each day, by the terrain's
    odds (woods: 2-in-6); Hazards and Challenges: the referee picks the real direction."""
    outdoors(party, "woods")
    lost = party.execute("turn travel-rough lost=2 wandering=6")
    assert labels(lost)[0] == "lost"
    assert any("off course" in e.text for e in of(lost, ev.Logged))
    assert labels(party.execute("turn travel-rough lost=3 wandering=6"))[0] == "on course"


@pytest.mark.parametrize(
    "command", ["turn travel path=trail", "turn travel path=guide", "turn travel-road"]
)
def test_a_trail_a_guide_or_a_road_is_never_lost(party: Expedition, command: str) -> None:
    """Hazards and Challenges, Losing Direction: following a trail, road or landmark, or a
    reliable guide, the party cannot get lost."""
    outdoors(party, "swamp")
    batch = party.execute(f"{command} wandering=6")
    assert "lost" not in rolled(batch)


@pytest.mark.parametrize(
    ("terrain", "die", "met"),
    [("clear", 1, True), ("clear", 2, False), ("swamp", 3, True), ("swamp", 4, False)],
)
def test_wilderness_monsters_come_by_the_terrains_odds(
    party: Expedition, terrain: str, die: int, met: bool
) -> None:
    """Wilderness Adventuring, Wandering Monsters: a check a day, on the terrain's odds."""
    outdoors(party, terrain)
    extra = " distance=8 surprise-party=4 surprise-monsters=4" if met else ""
    batch = party.execute(f"turn travel path=trail wandering={die}{extra}")
    assert bool(of(batch, ev.EncounterBegan)) is met


def test_a_wilderness_encounter_is_4d6_times_10_yards_away(party: Expedition) -> None:
    """Encounters, Encounter Distance: 4d6 × 10 yards outdoors when neither
    side is surprised; both sides roll for surprise first (Encounter Sequence), since no
    light gives the party away by day."""
    outdoors(party)
    batch = party.execute(
        "turn travel path=trail wandering=1 surprise-party=4 surprise-monsters=5 distance=10"
    )
    assert of(batch, ev.EncounterBegan)[0].distance == "100 yards"
    assert labels(batch)[1:] == ["Party ready", "Monsters ready"]


@pytest.mark.parametrize(
    ("party_die", "monster_die", "sides"),
    [(2, 5, ["Party surprised", "Monsters ready"]), (4, 1, ["Party ready", "Monsters surprised"]),
     (1, 2, ["Party surprised", "Monsters surprised"])],
)  # fmt: skip
def test_outdoors_either_side_surprised_meets_at_1d4_times_10_yards(
    party: Expedition, party_die: int, monster_die: int, sides: list[str]
) -> None:
    """Encounters, Encounter Distance (the SRD's Encounters page, revision of 31 January
    2020): wilderness encounters are 1d4 × 10 yards away if either side is surprised."""
    outdoors(party)
    batch = party.execute(
        f"turn travel path=trail wandering=1 surprise-party={party_die} "
        f"surprise-monsters={monster_die} distance=3"
    )
    began = of(batch, ev.EncounterBegan)
    assert len(began) == 1 and began[0].distance == "30 yards"
    assert labels(batch)[1:] == sides
    with pytest.raises(CommandError, match="d4"):
        party.execute(
            f"turn travel path=trail wandering=1 surprise-party={party_die} "
            f"surprise-monsters={monster_die} distance=10"
        )


def test_below_ground_the_days_ration_is_eaten_at_midnight(expedition: Factory) -> None:
    """Adventuring Gear, Rations; Wilderness Adventuring, End of Day: each character eats a
    day's ration each day, below ground too, where days pass in turns: the turn in which
    the clock passes midnight eats it."""
    late = expedition("ose", seed=11, start="23:30")
    run(late, "pc add Ash hp=6 MV=120", "light add torch carrier=Ash lit")
    run(late, "turn explore", "turn explore hazard=6")
    assert late.state.party[0].resource("rations") == 7
    batch = late.execute("turn explore")  # 23:50 to midnight
    eaten = [e for e in of(batch, ev.ResourceChanged) if e.resource == "rations"]
    assert [e.value for e in eaten] == [6]


def test_travellers_in_the_air_meet_wandering_monsters_on_2_in_6(party: Expedition) -> None:
    """Hazards and Challenges, Wandering Monsters: 2-in-6 for travellers in the air."""
    outdoors(party, "swamp")
    party.execute("do terrain terrain=air")
    assert party.state.counter("wild-odds") == 2 and party.state.counter("lost-odds") == 3
    batch = party.execute(
        "turn travel path=guide wandering=2 surprise-party=4 surprise-monsters=4 distance=9"
    )
    assert len(of(batch, ev.EncounterBegan)) == 1


def test_each_member_eats_a_ration_a_day(party: Expedition) -> None:
    """Wilderness Adventuring, End of Day: rations; each character eats one a day."""
    outdoors(party)
    batch = party.execute("turn travel path=trail wandering=6")
    eaten = {e.name: e.value for e in of(batch, ev.ResourceChanged) if e.resource == "rations"}
    assert eaten == {"Ash": 6, "Bo": 6}


def test_a_day_without_food_leaves_a_member_hungry_until_fed(party: Expedition) -> None:
    """Hazards and Challenges, Starvation: a whole day without food lets the referee give
    penalties; the member is marked until a day they eat."""
    outdoors(party)
    run(party, "pc Bo rations=0", "turn travel path=trail wandering=6")
    assert "hungry" in conditions(party, "Bo") and "hungry" not in conditions(party, "Ash")
    run(party, "pc Bo +1 rations", "turn travel path=trail wandering=6")
    assert "hungry" not in conditions(party, "Bo")


def test_foraging_finds_food_for_1d6_on_1_in_6(party: Expedition) -> None:
    """Wilderness Adventuring, Foraging: alongside a day's travel, 1-in-6 to find food for
    1d6 human-sized beings."""
    outdoors(party)
    found = party.execute("turn travel path=trail wandering=6 forage=yes foraging=1 supply=4")
    assert labels(found)[:2] == ["food found", "No encounter"]
    missed = party.execute("turn travel path=trail wandering=6 forage=yes foraging=2")
    assert labels(missed)[:2] == ["nothing found", "No encounter"]
    quiet = party.execute("turn travel path=trail wandering=6")
    assert "foraging" not in rolled(quiet)


def test_foraged_food_feeds_the_party_not_the_foragers_pack(party: Expedition) -> None:
    """Wilderness Adventuring, Foraging: food for 1d6 human-sized beings is the party's: it
    is shared out, whoever holds fewest first, before the day's rations are eaten."""
    outdoors(party)
    run(party, "pc Ash rations=1", "pc Bo rations=0", "pc add Cole hp=4 MV=120 rations=3")
    party.execute("turn travel path=trail wandering=6 forage=yes foraging=1 supply=4")
    held = {m.name: m.resource("rations") for m in party.state.party}
    # Bo 0→1, then Ash and Bo 1→2, then Ash (first of the fewest) 2→3; then each eats one.
    assert held == {"Ash": 2, "Bo": 1, "Cole": 2}
    assert all("hungry" not in m.conditions for m in party.state.party)


def test_foraging_goes_with_a_days_travel_only(party: Expedition) -> None:
    """Wilderness Adventuring, Foraging and Hunting: foraging is done alongside travel,
    once a day; a day of hunting or of rest has no foraging of its own."""
    outdoors(party)
    for day in ("hunt hunt=6 wandering=6", "rest-day wandering=6"):
        before = (party.state, party.event_count)
        with pytest.raises(CommandError, match="forage="):
            party.execute(f"turn {day} forage=yes")
        assert (party.state, party.event_count) == before


def test_hunting_takes_the_day_and_finds_game_on_1_in_6(party: Expedition) -> None:
    """Wilderness Adventuring, Hunting: the whole day, no travel; 1-in-6 to meet animals fit
    to eat, besides the day's wandering monster check."""
    outdoors(party)
    batch = party.execute("turn hunt hunt=1 distance=6 wandering=6")
    started = of(batch, ev.TurnStarted)[0]
    assert started.distance == "" and not started.resting
    assert rolled(batch)[:2] == ["hunt", "distance"] and "wandering" in rolled(batch)
    assert "fit to eat" in of(batch, ev.EncounterBegan)[0].text


def test_a_forced_march_owes_a_day_of_rest(party: Expedition) -> None:
    """Wilderness Adventuring, Forced March: half as far again, then a full day of rest."""
    outdoors(party)
    batch = party.execute("turn travel path=trail speed=forced wandering=6")
    assert of(batch, ev.TurnStarted)[0].distance == "36 miles"
    assert "forced-march" in conditions(party, "Ash")
    for day in ("travel path=trail", "travel-road", "hunt"):
        before = (party.state, party.event_count)
        with pytest.raises(CommandError, match="must rest a whole day first"):
            party.execute(f"turn {day} wandering=6")
        assert (party.state, party.event_count) == before
    party.execute("turn rest-day wandering=6")
    assert "forced-march" not in conditions(party, "Ash")


def test_a_day_of_rest_is_owed_every_six_days_of_travel(party: Expedition) -> None:
    """Wilderness Adventuring, Resting: one day in seven; pressing on without it, -1 to
    attack and damage until a day's rest."""
    outdoors(party)
    for _ in range(6):
        party.execute("turn travel path=trail wandering=6")
    assert "travel-worn" not in conditions(party, "Ash")
    party.execute("turn travel path=trail wandering=6")
    assert "travel-worn" in conditions(party, "Ash")
    party.execute("turn rest-day wandering=6")
    assert "travel-worn" not in conditions(party, "Ash")


@pytest.mark.parametrize(
    ("action", "at_120", "at_90"),
    [("travel", "24 miles", "18 miles"), ("travel-rough", "16 miles", "12 miles"),
     ("travel-hard", "12 miles", "9 miles"), ("travel-road", "36 miles", "27 miles")],
)  # fmt: skip
def test_the_days_travel_is_the_slowest_rate_over_5_in_miles_by_terrain(
    party: Expedition, action: str, at_120: str, at_90: str
) -> None:
    """Wilderness Adventuring, Overland Travel: the base movement rate ÷ 5 in miles a day
    (24 at 120'), at the slowest member's rate; Terrain: a third less in rough land, half in
    jungle, mountains and swamp, half again on a maintained road."""
    outdoors(party)
    way = "" if action == "travel-road" else " path=trail"  # a road is never lost
    batch = party.execute(f"turn {action}{way} wandering=6")
    assert of(batch, ev.TurnStarted)[0].distance == at_120
    party.execute("pc add Cole hp=4 MV=90")
    batch = party.execute(f"turn {action}{way} wandering=6")
    assert of(batch, ev.TurnStarted)[0].distance == f"{at_90} at Cole's pace"


def test_distances_outdoors_are_counted_in_yards_and_miles(party: Expedition) -> None:
    """Wilderness Adventuring, Distance and Measurement: outdoors, distances are in yards
    (the dungeon's feet, tripled) and a day's travel in miles; below ground, in feet."""
    assert of(party.execute("turn explore"), ev.TurnStarted)[0].distance == "120 feet"
    outdoors(party)
    batch = party.execute(
        "turn travel path=trail wandering=1 surprise-party=5 surprise-monsters=5 distance=4"
    )
    assert of(batch, ev.TurnStarted)[0].distance == "24 miles"
    assert of(batch, ev.EncounterBegan)[0].distance == "40 yards"


def test_outdoor_evasion_rolls_the_chance_the_gm_reads(party: Expedition) -> None:
    """Evasion and Pursuit, In the Wilderness: a percentile roll against the chance the
    table gives for the sizes of the two sides; a failure means pursuit."""
    outdoors(party)
    assert labels(party.execute("do evade chance=35 evade=35")) == ["evaded"]
    assert labels(party.execute("do evade chance=35 evade=36")) == ["pursued"]
    with pytest.raises(CommandError, match="chance"):
        party.execute("do evade evade=1")


def test_faster_pursuers_catch_up_on_an_even_chance(party: Expedition) -> None:
    """Evasion and Pursuit, In the Wilderness: faster pursuers catch the fleeing side on a
    50% chance each day."""
    assert labels(party.execute("do pursuit caught=1")) == ["caught"]
    assert labels(party.execute("do pursuit caught=2")) == ["still fleeing"]


def test_dropped_treasure_or_food_stops_pursuers_on_3_in_6(party: Expedition) -> None:
    """Evasion and Pursuit, In the Dungeon: pursuers may stop for dropped treasure or food,
    3-in-6."""
    assert labels(party.execute("do drop distracted=3")) == ["they stop for it"]
    assert labels(party.execute("do drop distracted=4")) == ["they keep coming"]


def test_the_procedure_names_its_source_and_licence(party: Expedition) -> None:
    """The SRD is Open Game Content under the OGL 1.0a; the procedure says so."""
    source = party.procedure.source
    assert "oldschoolessentials.necroticgnome.com/srd" in source
    assert "OGL 1.0a" in source and "product identity" in source


def test_replay_gives_the_live_state(party: Expedition) -> None:
    """Every roll is kept: replaying the file gives the state the table played to."""
    run(
        party,
        "turn explore",
        "turn search",
        "do force by=Ash",
        "do parley by=Ash",
        "turn run",
        "enter wilderness",
        "do terrain terrain=hills",
        "turn travel-rough forage=yes",
        "turn rest-day",
    )
    replays_the_same(party)


def test_the_forty_turn_example_tells_the_srd_rules() -> None:
    """The 40-turn session under docs/examples/ (tests/test_procedure_sessions.py plays it)
    reads as the SRD's rules: the light spoils surprise, the hour's rest, running to
    exhaustion, losing direction, a ration a day and a day's rest in seven."""
    path = Path(__file__).resolve().parent.parent / "docs" / "examples" / "ose.txt"
    text = " ".join(path.read_text(encoding="utf-8").split())
    assert "The party's light gives it away: the monsters are not surprised." in text
    assert "Surprise (the monsters): d6 [1] = 1 (table dice) → Monsters surprised" in text
    assert "All three gain a condition: unrested" in text
    assert "All three gain a condition: exhausted (Turns of running)." in text
    assert "Monster reaction: 2d6+1 [9] +1 = 10 (table dice) → Indifferent" in text
    assert "The party is lost: the referee picks the direction" in text
    assert "Bo gains a condition: hungry" in text
    assert "All three gain a condition: travel-worn" in text
    assert "(4d6 × 10 yards). Distance: 70 yards." in text
    assert "(1d4 × 10 yards). Distance: 20 yards." in text  # a side surprised
    assert "Travel by road, 40.5 miles at Cole's pace" in text  # forced, at MV 90
    assert "Ash: Rations (days) +1" in text  # foraged food shared with the party


@pytest.mark.parametrize("action", ["travel", "travel-rough", "travel-hard", "travel-road"])
def test_flying_covers_twice_the_miles_whatever_the_terrain(party: Expedition, action: str) -> None:
    """Wilderness Adventuring, Flying: twice the overland miles a day (48 at 120'),
    whatever the terrain."""
    outdoors(party, "air")
    way = "" if action == "travel-road" else " path=guide"
    batch = party.execute(f"turn {action}{way} speed=flying wandering=6")
    assert of(batch, ev.TurnStarted)[0].distance == "48 miles"


def test_the_penalties_of_rest_and_running_are_shown_beside_the_member(party: Expedition) -> None:
    """Resting, penalty; Running, exhaustion: -1 (unrested, travel-worn) and -2 (exhausted)
    to attack and damage (and AC): rolled at the table, so the party pane shows them beside
    the member; a check of such a kind the procedure rolls would take them."""
    from delvetui.core.level_rules import check_modifier, kind_modifiers

    party.execute("pc Ash +unrested")
    ash = party.state.member("Ash")
    assert ash is not None
    assert kind_modifiers(party.procedure, ash) == {"attack": -1, "damage": -1}
    assert check_modifier(party.procedure, party.state, ash, "attack")[0] == -1
    party.execute("pc Ash +exhausted")
    ash = party.state.member("Ash")
    assert ash is not None
    assert kind_modifiers(party.procedure, ash) == {"attack": -3, "damage": -3, "AC": -2}


# The dungeon's rooms (docs/examples/ash-king-dungeon.toml): what the rules mark on them ------

DUNGEON = Path(__file__).resolve().parent.parent / "docs" / "examples" / "ash-king-dungeon.toml"


def in_room(x: Expedition, room: str = "1") -> None:
    run(x, f"tables add {DUNGEON}", f"go {room}")


def test_a_door_forced_open_marks_its_room_and_a_failed_forcing_is_noted_on_it(
    party: Expedition,
) -> None:
    """Dungeon Adventuring, Stuck Doors: a forced door is marked on the room the party is
    in; a failure spoils surprise beyond it, and the room keeps that for the referee."""
    in_room(party)
    party.execute("do force by=Bo force=6")
    room = party.state.find_room("1")
    assert room is not None and "forced" not in room.marks
    assert room.notes == ("A forcing failed here: what lies beyond heard it and is not surprised.",)
    party.execute("do force by=Ash force=1")
    room = party.state.find_room("1")
    assert room is not None and "forced" in room.marks


def test_a_sprung_trap_marks_its_room_trapped(party: Expedition) -> None:
    """Dungeon Adventuring, Traps: a trap sprung is marked on the room, for the map."""
    in_room(party, "1")
    party.execute("do trap trap=3")
    assert "trapped" not in party.state.find_room("1").marks  # type: ignore[union-attr]
    party.execute("do trap trap=1")
    assert "trapped" in party.state.find_room("1").marks  # type: ignore[union-attr]


def test_a_second_listen_or_search_by_the_same_character_in_a_room_is_said(
    party: Expedition,
) -> None:
    """Dungeon Adventuring, Listening and Searching: each character listens at a door, and
    searches an area, only once. The room keeps who tried; a second try there is said in
    the log for the referee to judge (another door, another area of the room)."""
    in_room(party)
    party.execute("do listen by=Bo listen=6")
    first = party.execute("do listen by=Ash listen=6")
    assert not any(isinstance(e, ev.RoomTried) and e.by == "Bo" for e in first.events)
    again = party.execute("do listen by=Bo listen=6")
    said = [line.text for line in log_lines(party) if "tried in room 1" in line.text]
    assert said == [
        "Bo: Listen at a door was tried in room 1 (Chapel door) before; the game's text "
        "allows one try each: is it another door or place?"
    ]
    assert any(isinstance(e, ev.RoomTried) for e in again.events)
    party.execute("turn search by=Ash search=6")
    party.execute("go 2")
    party.execute("turn search by=Ash search=6 hazard=6")  # another room: a first try
    party.execute("go 1")
    party.execute("turn search by=Ash search=6")
    said = [line.text for line in log_lines(party) if "Search was tried" in line.text]
    assert said == [
        "Ash: Search was tried in room 1 (Chapel door) before (turn 1); the game's text "
        "allows one try each: is it another door or place?"
    ]
    room = party.state.find_room("1")
    assert room is not None and room.tried_on("search", "Ash") == 1


def log_lines(x: Expedition) -> list[log.Line]:
    return list(log.lines(x.batches(), x.procedure))
