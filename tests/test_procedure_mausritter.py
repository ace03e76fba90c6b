"""The shipped mausritter procedure, rule by rule, as a GM would check it against the SRD.

The text is the Mausritter System Reference Document 2.3.1 (Isaac Williams, Losing Games;
CC BY 4.0): exploration turns of about ten minutes in adventure sites, one major action
each; a d6 encounter roll every three turns and on noise, an encounter on a 1 and an omen
on a 2; six-hour watches, four to a day, one hex a watch (two in difficult terrain),
encounter rolls at the start of the Morning and the Evening watch with a d12 for the hour;
the 2d6 reaction table; torches and lanterns marking usage every six turns lit, three
dots (six for an electric lantern); short, long and full rests; foraging; a day without a
watch of rest (Exhausted) or without eating (Hungry); the 2d6 weather by season and the
STR save of travel in poor weather. Each test's docstring names the section and the rule.
"""

from __future__ import annotations

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.conftest import Factory, of, replays_the_same, run


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    made = expedition("mausritter", seed=7)
    run(
        made,
        "pc add Ash hp=4 STR=12 DEX=9 WIL=8",
        "pc add Bryn hp=3 STR=8 DEX=11 WIL=10",
        "light add torch count=2 carrier=Ash",
        "light on torch",
    )
    return made


#: The Conditions of the cards (the procedure's own bookkeeping ones left out).
CARDS = {"exhausted", "hungry", "frightened", "injured", "drained"}


def labels(batch: object, key: str = "hazard") -> list[str]:
    return [r.label for r in of(batch, ev.ResultRead) if r.key == key]  # type: ignore[arg-type]


def quiet(x: Expedition, count: int, action: str = "explore") -> list[int]:
    """Take `count` turns typing a 6 on every encounter roll that comes; say which had one."""
    made = []
    for _ in range(count):
        try:
            x.execute(f"turn {action} hazard=6")
            made.append(x.state.turn)
        except CommandError:
            x.execute(f"turn {action}")
    return made


def watches(x: Expedition, count: int, action: str = "travel") -> list[str]:
    """Take `count` watches typing a 6 on every wilderness roll; the clock of those rolled."""
    rolled_at = []
    for _ in range(count):
        clock = x.state.clock_text
        try:
            x.execute(f"turn {action} watch-encounter=6 weather-spring=7")
            rolled_at.append(clock)
        except CommandError:
            try:
                x.execute(f"turn {action} watch-encounter=6")
                rolled_at.append(clock)
            except CommandError:
                x.execute(f"turn {action}")
    return rolled_at


def member(x: Expedition, name: str) -> tuple[int, frozenset[str], int]:
    """A member's HP, conditions and rations."""
    found = x.state.member(name)
    assert found is not None
    return found.hp, frozenset(found.conditions), dict(found.resources).get("rations", 0)


# ---- Time --------------------------------------------------------------------------------


def test_an_exploration_turn_is_about_ten_minutes(party: Expedition) -> None:
    """How to play, Time: in an adventure site a Turn is about ten minutes, one major action
    (Running Mausritter, Exploration and time)."""
    started = of(party.execute("turn explore"), ev.TurnStarted)[0]
    assert (started.action, started.turn_type) == ("explore", "site")
    quiet(party, 5, "act")
    assert party.state.clock_text == "07:00"


def test_a_watch_is_six_hours_four_to_a_day(party: Expedition) -> None:
    """How to play, Time: a Watch is 36 Turns, about six hours; four watches in a day."""
    run(party, "light off torch2", "enter wilds")
    watches(party, 4)
    assert (party.state.day, party.state.clock_text) == (2, "06:00")


def test_the_kinds_of_turn_are_kept_apart(party: Expedition) -> None:
    """How to play, Time: Turns for adventure sites, Watches for the wilderness; an action of
    one is refused in the other and changes nothing."""
    run(party, "enter wilds")
    with pytest.raises(CommandError, match="enter site"):
        party.execute("turn explore")
    assert party.state.turn == 0


# ---- Encounters --------------------------------------------------------------------------


def test_an_encounter_roll_every_three_turns(party: Expedition) -> None:
    """Running Mausritter, Encounters: in an adventure site, roll for encounters every three
    Turns (Exploration and time: when a double-outlined box of the turn tracker is marked)."""
    assert quiet(party, 9) == [3, 6, 9]


def test_a_roll_typed_on_a_turn_without_one_is_refused(party: Expedition) -> None:
    """Running Mausritter, Encounters: no encounter roll between the third turns; a typed
    one is refused and nothing is saved."""
    with pytest.raises(CommandError):
        party.execute("turn explore hazard=1")
    assert party.state.turn == 0


@pytest.mark.parametrize(
    ("die", "result"), [(1, "Encounter"), (2, "Omen"), (3, "Nothing"), (6, "Nothing")]
)
def test_a_1_is_an_encounter_and_a_2_an_omen(party: Expedition, die: int, result: str) -> None:
    """Running Mausritter, Encounters: roll d6; on a 1 an encounter, on a 2 an omen (signs
    or hints of an encounter)."""
    run(party, "turn explore", "turn explore")
    batch = party.execute(f"turn explore hazard={die}")
    assert labels(batch) == [result]
    assert bool(of(batch, ev.EncounterBegan)) is (result == "Encounter")
    assert bool(of(batch, ev.SignFound)) is (result == "Omen")


def test_noise_brings_a_roll_at_once(party: Expedition) -> None:
    """Running Mausritter, Encounters: roll whenever the mice create noise or mayhem that
    could draw attention; no time passes, and the third-turn roll keeps its count."""
    batch = party.execute("do noise noise=1")
    assert labels(batch, "noise") == ["Encounter"] and of(batch, ev.EncounterBegan)
    assert party.state.turn == 0
    assert quiet(party, 3) == [3]


def test_the_wilds_roll_at_the_morning_and_evening_watches(party: Expedition) -> None:
    """Running Mausritter, Encounters: in the wilderness, roll at the start of the Morning
    Watch and of the Evening watch only."""
    run(party, "light off torch2", "enter wilds")
    assert watches(party, 8) == ["06:00", "18:00", "06:00", "18:00"]


def test_a_wilderness_encounter_rolls_its_hour_on_a_d12(party: Expedition) -> None:
    """Running Mausritter, Encounters: if an encounter occurs in the wilderness, roll d12
    for the hour it occurs in."""
    run(party, "light off torch2", "enter wilds")
    batch = party.execute("turn travel watch-encounter=1 hour=9 weather-spring=7")
    assert of(batch, ev.EncounterBegan)
    assert labels(batch, "hour") == ["In the next watch, in the hour the die shows less 6"]
    batch = party.execute("turn travel")
    assert labels(batch, "watch-encounter") == []


@pytest.mark.parametrize(
    ("total", "disposition"),
    [
        (2, "Hostile"),
        (3, "Unfriendly"),
        (5, "Unfriendly"),
        (6, "Unsure"),
        (8, "Unsure"),
        (9, "Talkative"),
        (11, "Talkative"),
        (12, "Helpful"),
    ],
)
def test_the_reaction_is_2d6(party: Expedition, total: int, disposition: str) -> None:
    """Running Mausritter, Reactions: 2d6 for a creature whose reaction is not obvious: 2
    hostile, 3-5 unfriendly, 6-8 unsure, 9-11 talkative, 12 helpful."""
    batch = party.execute(f"do reaction reaction={total}")
    assert [label.split(":")[0] for label in labels(batch, "reaction")] == [disposition]


# ---- Light -------------------------------------------------------------------------------


def test_a_torch_marks_usage_every_six_turns_and_has_three_dots(party: Expedition) -> None:
    """Inventory, Usage and Torches and lanterns: a light source marks usage every 6 Turns;
    most items have three usage dots, and with all three marked it is spent: 18 turns."""
    quiet(party, 6)
    torch = party.state.light("torch2")
    assert torch is not None and torch.minutes == 120  # one dot marked of three
    quiet(party, 11)
    assert party.state.light_level == "bright"
    quiet(party, 1)
    assert party.state.light_level == "dark"
    torch = party.state.light("torch2")
    assert torch is not None and torch.spent


def test_a_torch_is_spent_within_a_watch(party: Expedition) -> None:
    """How to play, Time, and Inventory, Usage: a watch is 36 turns, so a torch lit through
    one marks all three dots and is spent."""
    run(party, "enter wilds")
    watches(party, 1)
    torch = party.state.light("torch2")
    assert torch is not None and torch.spent and party.state.light_level == "dark"


def test_a_lantern_is_refilled_by_oil(party: Expedition) -> None:
    """Inventory, Torches and lanterns: lanterns mark usage as torches do and must be
    refilled by oil; without oil the refill is refused."""
    run(party, "light off torch2", "light add lantern carrier=Bryn", "light on lantern")
    quiet(party, 18)
    assert party.state.light_level == "dark"
    with pytest.raises(CommandError, match="oil"):
        party.execute("light refuel lantern1")
    run(party, "pc Bryn +1 oil", "light refuel lantern1")
    lantern = party.state.light("lantern1")
    assert lantern is not None and lantern.minutes == 180


def test_an_electric_lantern_has_six_usage_dots(party: Expedition) -> None:
    """Inventory, Torches and lanterns: electric lanterns have six usage dots instead of
    three (36 turns) and are recharged by batteries."""
    run(party, "light off torch2", "light add electric-lantern carrier=Bryn")
    run(party, "light on electric-lantern")
    quiet(party, 35)
    assert party.state.light_level == "bright"
    quiet(party, 1)
    assert party.state.light_level == "dark"
    run(party, "pc Bryn +1 batteries", "light refuel electric-lantern1")
    lantern = party.state.light("electric-lantern1")
    assert lantern is not None and lantern.minutes == 360


# ---- Rest --------------------------------------------------------------------------------


def test_a_short_rest_takes_a_turn_and_restores_d6_plus_1(party: Expedition) -> None:
    """How to play, Rest and healing: a short rest takes 1 Turn and restores d6+1 HP."""
    run(party, "pc Ash hp=0")
    batch = party.execute("turn short-rest heal.Ash=2 heal.Bryn=5")
    assert of(batch, ev.TurnStarted)[0].resting
    assert member(party, "Ash")[0] == 3
    assert party.state.clock_text == "06:10"


def test_a_long_rest_is_a_watch_a_meal_and_all_hp(party: Expedition) -> None:
    """How to play, Rest and healing: a long rest takes 1 Watch; a meal and some sleep
    restore all HP (Inventory, Rations: eating a ration marks a usage dot)."""
    run(party, "light off torch2", "enter wilds", "pc Ash hp=1", "pc Bryn hp=0")
    party.execute("turn long-rest watch-encounter=6 weather-spring=7")
    assert member(party, "Ash")[0::2] == (4, 2)
    assert member(party, "Bryn")[0::2] == (3, 2)
    assert party.state.clock_text == "12:00"


def test_a_long_rest_without_a_ration_heals_nothing(party: Expedition) -> None:
    """How to play, Rest and healing (reading): the long rest's HP come from a meal and
    sleep; a mouse with no ration to eat sleeps but does not heal."""
    run(party, "light off torch2", "enter wilds", "pc Ash hp=1", "pc Ash rations=0")
    party.execute("turn long-rest watch-encounter=6 weather-spring=7")
    hp, conditions, rations = member(party, "Ash")
    assert (hp, rations) == (1, 0) and "fed-today" not in conditions
    assert "rested-today" in conditions


def test_a_full_rest_is_a_week_and_restores_everything(party: Expedition) -> None:
    """How to play, Rest and healing: a full rest takes a week in safety, fully restores the
    mouse and removes most long-term Conditions."""
    run(party, "enter haven", "pc Ash hp=0", "pc Ash +exhausted", "pc Ash +injured")
    party.execute("turn full-rest")
    hp, conditions, _ = member(party, "Ash")
    assert hp == 4 and not conditions & {"exhausted", "injured"}
    assert party.state.day == 8


def test_a_week_in_safety_leaves_the_day_it_ends_in_rested_and_fed(party: Expedition) -> None:
    """Running Mausritter, Rest; Inventory, Conditions: a day without a watch of rest brings
    Exhausted, one without a meal Hungry. The week of a full rest is rest and food and
    board: the first watch out of it that ends the day finds the mice neither."""
    run(party, "light off torch2", "enter haven", "turn full-rest", "enter wilds")
    assert (party.state.day, party.state.clock_text) == (8, "06:00")
    party.execute("turn stay watch-encounter=6 weather-spring=7")
    party.execute("turn stay")
    party.execute("turn stay watch-encounter=6")  # 18:00 to midnight: day 8 ends
    assert party.state.day == 9
    assert not member(party, "Ash")[1] & {"exhausted", "hungry"}
    assert not member(party, "Bryn")[1] & {"exhausted", "hungry"}


def test_each_condition_is_cleared_by_its_own_requirement(party: Expedition) -> None:
    """Inventory, Conditions: a Condition is removed only by meeting its clear requirement,
    usually a short, long or full rest; the Condition cards give each: Frightened after a
    short rest, Exhausted after a long rest, Hungry after a meal, Injured and Drained after a
    full rest."""
    run(party, "pc Ash +frightened +exhausted +hungry +injured +drained")
    party.execute("turn short-rest")
    assert member(party, "Ash")[1] & CARDS == {"exhausted", "hungry", "injured", "drained"}
    run(party, "light off torch2", "enter wilds")
    party.execute("turn long-rest watch-encounter=6 weather-spring=7")
    assert member(party, "Ash")[1] & CARDS == {"injured", "drained"}
    run(party, "enter haven", "turn full-rest")
    assert member(party, "Ash")[1] & CARDS == set()


def test_a_meal_clears_hunger_and_a_long_rest_exhaustion_and_fright(party: Expedition) -> None:
    """Inventory, Conditions (the Condition cards): Hungry is cleared by a meal (`do eat`,
    or the long rest's); Exhausted and Frightened by the long rest's sleep, for a mouse
    with no ration too; Hungry stays for one with nothing to eat."""
    run(party, "pc Ash +hungry", "pc Bryn +hungry +exhausted +frightened", "pc Bryn rations=0")
    party.execute("do eat by=Ash")
    assert "hungry" not in member(party, "Ash")[1]
    run(party, "light off torch2", "enter wilds")
    party.execute("turn long-rest watch-encounter=6 weather-spring=7")
    assert member(party, "Bryn")[1] & CARDS == {"hungry"}


def test_a_day_without_a_watch_of_rest_is_exhausting(party: Expedition) -> None:
    """Running Mausritter, Rest: mice who do not spend at least one Watch a day resting
    gain an Exhausted Condition (settled at midnight)."""
    run(party, "light off torch2", "enter wilds")
    watches(party, 2)
    watches(party, 1, "long-rest")  # 18:00 to midnight: the day's watch of rest
    assert "exhausted" not in member(party, "Ash")[1]
    watches(party, 4)
    assert {"exhausted", "hungry"} <= member(party, "Ash")[1]


def test_a_day_without_a_meal_brings_hunger(party: Expedition) -> None:
    """Inventory, Rations: a mouse who does not eat for a day gains a Hungry Condition; a
    meal eaten during the day (`do eat`) keeps it off."""
    run(party, "light off torch2", "enter wilds")
    watches(party, 1)
    party.execute("do eat by=Ash")
    watches(party, 3)
    assert "hungry" not in member(party, "Ash")[1]
    assert "hungry" in member(party, "Bryn")[1]
    assert member(party, "Ash")[2] == 2


# ---- Overland travel ---------------------------------------------------------------------


def test_travel_is_one_hex_a_watch(party: Expedition) -> None:
    """How to play, Overland travel: the mice travel one hex (a mile) a Watch."""
    run(party, "light off torch2", "enter wilds")
    started = of(party.execute("turn travel watch-encounter=6 weather-spring=7"), ev.TurnStarted)
    assert started[0].distance == "1 miles"


def test_difficult_terrain_takes_two_watches_a_hex(party: Expedition) -> None:
    """How to play, Overland travel: difficult terrain (streams, human roads, large rocks,
    hills) takes two Watches a mile."""
    run(party, "light off torch2", "enter wilds")
    batch = party.execute("turn travel-difficult watch-encounter=6 weather-spring=7")
    assert [t.distance for t in of(batch, ev.TurnStarted)] == ["0.5 miles", "0.5 miles"]
    assert party.state.clock_text == "18:00"


def test_foraging_finds_d3_uses_of_rations(party: Expedition) -> None:
    """How to play, Foraging: a mouse who spends a Watch foraging finds d3 uses of rations."""
    run(party, "light off torch2", "enter wilds")
    party.execute("turn forage by=Bryn supply.Bryn=2 watch-encounter=6 weather-spring=7")
    assert member(party, "Bryn")[2] == 5 and member(party, "Ash")[2] == 3


@pytest.mark.parametrize(
    ("season", "total", "weather"),
    [
        ("spring", 2, "poor"),
        ("spring", 4, "fair"),
        ("summer", 4, "poor"),
        ("summer", 7, "fair"),
        ("autumn", 5, "poor"),
        ("autumn", 9, "fair"),
        ("winter", 8, "poor"),
        ("winter", 9, "fair"),
    ],
)
def test_the_weather_is_rolled_each_day_by_season(
    party: Expedition, season: str, total: int, weather: str
) -> None:
    """Running Mausritter, Weather, and Useful tables, Seasons: roll 2d6 for the weather each
    day on the season's table; the highlighted results are poor for travel."""
    run(party, "light off torch2", "enter wilds")
    if season != "spring":  # the season the expedition starts in
        party.execute(f"counter set season {season}")
    batch = party.execute(f"turn travel watch-encounter=6 weather-{season}={total}")
    assert len(labels(batch, f"weather-{season}")) == 1
    assert party.state.counter("weather") == (1 if weather == "poor" else 0)
    batch = party.execute(
        "turn travel weather.Ash=1 weather.Bryn=1" if weather == "poor" else "turn travel"
    )
    assert labels(batch, f"weather-{season}") == []  # once a day


@pytest.mark.parametrize(("face", "exhausted"), [(1, False), (12, False), (13, True), (20, True)])
def test_poor_weather_calls_for_a_str_save_each_watch_of_travel(
    party: Expedition, face: int, exhausted: bool
) -> None:
    """Running Mausritter, Weather, and How to play, Saves: each watch of travel in poor
    weather, a mouse makes a STR save (d20 at most STR) or gains an Exhausted Condition."""
    run(party, "light off torch2", "enter wilds")
    party.execute(
        f"turn travel watch-encounter=6 weather-spring=2 weather.Ash={face} weather.Bryn=1"
    )
    assert ("exhausted" in member(party, "Ash")[1]) is exhausted
    assert "exhausted" not in member(party, "Bryn")[1]


def test_fair_weather_needs_no_save(party: Expedition) -> None:
    """Running Mausritter, Weather: only the highlighted weather calls for the save."""
    run(party, "light off torch2", "enter wilds")
    batch = party.execute("turn travel watch-encounter=6 weather-spring=7")
    assert not of(batch, ev.CheckMade)


def test_a_replayed_file_gives_the_same_state(party: Expedition) -> None:
    """A site, the wilds and a rest survive closing and opening the file."""
    quiet(party, 4)
    run(party, "enter wilds")
    watches(party, 3)
    watches(party, 1, "long-rest")
    replays_the_same(party)
