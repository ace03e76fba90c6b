"""The shipped errant procedure, rule by rule, as a GM would check it against the SRD.

The text is the Errant SRD (Ava Islam, Kill Jester Publishing; CC BY-SA 4.0): travel turns
of about four hours, six to a day; exploration turns of about ten minutes; downtime turns
of about a month; a d6 Event Die each turn, read on the table of its kind of turn
(encounter, rest or Exhaustion, burn or deplete, local effect, encounter sign, free);
moving slowly or quickly adds a positive or negative Event Die; Burn, the Depletion of
torches, candles and lanterns, lowered by the die; Supply spent when no light burns or no
ration is left; Exhaustion from forgoing rest, marching past four travel turns a day, a
watch kept alone, starving and severe weather; two travel turns of sleep remove one; an
encounter sign becomes an encounter without a watch or at an open campsite; the weather
by season; combat distance, surprise and the 2d6 Reaction Roll. Each test's docstring
names the section and the rule.
"""

from __future__ import annotations

import pytest

from delvetui.core import events as ev
from delvetui.core.member_light import member_levels, party_level
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.conftest import Factory, of, replays_the_same, run


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    made = expedition("errant", seed=7)
    run(
        made,
        "pc add Ash hp=6 PHYS=12 SKILL=9 MIND=8 PRES=10",
        "pc add Bryn hp=4 PHYS=9 SKILL=13 MIND=11 PRES=8",
        "pc add Cob hp=5 PHYS=11 SKILL=8 MIND=13 PRES=9",
        "pc Ash +4 supply",
        "pc Bryn +4 supply",
        "pc Cob +4 supply",
        "light add torch count=3 carrier=Ash",
        "light on torch",
    )
    return made


def event_die(batch: object) -> list[str]:
    return [r.label for r in of(batch, ev.ResultRead) if r.key == "hazard"]  # type: ignore[arg-type]


def track(x: Expedition, name: str, which: str = "exhaustion") -> int:
    found = x.state.member(name)
    assert found is not None
    return dict(found.tracks).get(which, 0)


def supply(x: Expedition, name: str, which: str = "supply") -> int:
    found = x.state.member(name)
    assert found is not None
    return found.resource(which)


def travel(x: Expedition) -> None:
    """Into the wilderness with the torch put out, the clock at dawn."""
    run(x, "light off torch2", "enter travel")


def level(x: Expedition) -> str:
    return party_level(x.state, x.procedure)


def weather(x: Expedition) -> str:
    return x.procedure.counters["weather"].shown(x.state.counter("weather"))


# ---- Core Procedures: Turns ----------------------------------------------------------------


def test_an_exploration_turn_is_about_ten_minutes(party: Expedition) -> None:
    """Core Procedures, Turns: Exploration Turns are about 10 minutes, in sites of adventure;
    the Company takes one significant action (Exploration Turns, actions)."""
    started = of(party.execute("turn explore hazard=6"), ev.TurnStarted)[0]
    assert (started.action, started.turn_type) == ("explore", "exploration")
    for _ in range(5):
        party.execute("turn act hazard=6")
    assert party.state.clock_text == "07:00"


def test_a_travel_turn_is_four_hours_six_to_a_day(party: Expedition) -> None:
    """Core Procedures, Turns: Travel Turns are about four hours; Travel Turns, Day & Night:
    six of them in a day."""
    travel(party)
    for _ in range(6):
        party.execute("turn orient hazard=6")
    assert (party.state.day, party.state.clock_text) == (2, "06:00")


def test_a_downtime_turn_is_about_a_month(party: Expedition) -> None:
    """Core Procedures, Turns: Downtime Turns are about one month, between adventures."""
    run(party, "enter downtime", "turn downtime hazard=6")
    assert party.state.day == 31


def test_the_kinds_of_turn_are_kept_apart(party: Expedition) -> None:
    """Core Procedures, Turns: each kind of turn has its own actions; one of another kind is
    refused and nothing changes."""
    run(party, "enter travel")
    with pytest.raises(CommandError, match="enter exploration"):
        party.execute("turn explore")
    assert party.state.turn == 0


# ---- Core Procedures: the Event Die ----------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "result"),
    [
        (1, "Encounter"),
        (2, "Rest or Exhaustion"),
        (3, "Burn"),
        (4, "Local effect"),
        (5, "Encounter sign"),
        (6, "Free"),
    ],
)
def test_the_exploration_event_die(party: Expedition, face: int, result: str) -> None:
    """Core Procedures, Event Die – Exploration Turns: a d6 each turn, 1 encounter, 2 rest or
    Exhaustion, 3 burn, 4 local effect, 5 encounter sign, 6 free."""
    chosen = " choice=exhaustion" if face == 2 else ""
    batch = party.execute(f"turn explore hazard={face}{chosen}")
    assert event_die(batch) == [result]
    assert bool(of(batch, ev.EncounterBegan)) is (face == 1)
    assert bool(of(batch, ev.SignFound)) is (face == 5)


@pytest.mark.parametrize(
    ("face", "result"),
    [
        (1, "Encounter"),
        (2, "Rest or Exhaustion"),
        (3, "Deplete"),
        (4, "Local effect"),
        (5, "Encounter sign"),
        (6, "Free"),
    ],
)
def test_the_travel_event_die(party: Expedition, face: int, result: str) -> None:
    """Core Procedures, Event Die – Travel Turns: 1 encounter, 2 rest or Exhaustion, 3
    deplete rations or Supply, 4 local effect, 5 encounter sign, 6 free."""
    travel(party)
    chosen = " choice=exhaustion" if face == 2 else ""
    batch = party.execute(f"turn peregrinate hazard={face}{chosen}")
    assert event_die(batch) == [result]
    assert bool(of(batch, ev.EncounterBegan)) is (face == 1)


@pytest.mark.parametrize(
    ("face", "result"),
    [(1, "Encounter"), (2, "Complication"), (3, "Expiration"), (4, "Trend"), (5, "Intimation")],
)
def test_the_downtime_event_die(party: Expedition, face: int, result: str) -> None:
    """Core Procedures, Event Die – Downtime Turns: 1 encounter, 2 complication, 3
    expiration, 4 trend, 5 intimation, 6 free."""
    run(party, "enter downtime")
    assert event_die(party.execute(f"turn downtime hazard={face}")) == [result]


def test_moving_slowly_rolls_a_positive_event_die(party: Expedition) -> None:
    """Exploration Turns, Pace: moving slowly is x/+1 and +1 positive Event Die (Core
    Procedures, Event Die: roll both, take the highest)."""
    batch = party.execute("turn explore-slowly hazard=1,5")
    assert event_die(batch) == ["Encounter sign"]
    assert not of(batch, ev.EncounterBegan)
    assert of(batch, ev.TurnStarted)[0].distance == "0.5 locations"


def test_moving_quickly_rolls_a_negative_event_die(party: Expedition) -> None:
    """Exploration Turns, Pace: moving quickly is +2/x (three locations a turn), +1 negative
    Event Die (take the lowest), and no mapping."""
    batch = party.execute("turn explore-quickly hazard=1,5")
    assert event_die(batch) == ["Encounter"]
    started = of(batch, ev.TurnStarted)[0]
    assert started.distance == "3 locations"
    assert "no mapping" in started.flags


def test_explored_areas_are_crossed_at_plus_three(party: Expedition) -> None:
    """Exploration Turns, Pace: explored areas +3/x: four locations a turn."""
    batch = party.execute("turn explore-known hazard=6")
    assert of(batch, ev.TurnStarted)[0].distance == "4 locations"


def test_breaking_down_a_door_takes_two_turns_and_a_negative_die(party: Expedition) -> None:
    """Exploration Turns, Doors: a wooden door takes two Exploration Turns to break down, and
    the noise adds +1 negative Event Die."""
    batch = party.execute("turn break-door hazard=6,2 choice=exhaustion")
    assert party.state.turn == 2
    assert event_die(batch)[0] == "Rest or Exhaustion"


def test_forgoing_rest_brings_exhaustion(party: Expedition) -> None:
    """Core Procedures, Event Die: on a Rest result the Company rests, forgoing its action,
    or else each Errant gains 1 Exhaustion: the Company's choice, asked for."""
    with pytest.raises(CommandError, match="add choice=rest or choice=exhaustion"):
        party.execute("turn explore hazard=2")
    assert party.state.turn == 0
    batch = party.execute("turn explore hazard=2 choice=exhaustion")
    assert "Rest or Exhaustion: exhaustion (the party's choice)" in [
        e.text for e in of(batch, ev.Logged)
    ]
    assert [track(party, n) for n in ("Ash", "Bryn", "Cob")] == [1, 1, 1]


def test_resting_instead_owes_the_next_turn_a_negative_event_die(party: Expedition) -> None:
    """Core Procedures, Event Die: Rest, the Company spends the turn Resting, forgoing its
    declared action, and incurs a negative Event Die on the next turn (and only that one);
    a positive die that turn cancels it (one of each cancels)."""
    travel(party)
    party.execute("turn peregrinate hazard=2 choice=rest nav=failure")
    assert track(party, "Ash") == 0
    assert track(party, "Ash", "marches") == 0  # the peregrination was forgone: no hex, no lost
    owed = party.execute("turn peregrinate hazard=5,1")
    assert event_die(owed) == ["Encounter"]  # the lower of two
    assert event_die(party.execute("turn peregrinate hazard=1")) == ["Encounter"]  # one die
    party.execute("turn explore-hex hazard=2 choice=rest")
    cancelled = party.execute("turn peregrinate-slowly hazard=1")
    assert event_die(cancelled) == ["Encounter"]  # positive and negative: a single die


# ---- Light and Burn --------------------------------------------------------------------------


def test_a_torch_has_burn_2(party: Expedition) -> None:
    """Items & Equipment, Burn, and Goods & Services, Light: a torch has Burn 2; a Burn
    result of the Event Die lowers the Burn of every lit light by 1; at 0 it is out."""
    party.execute("turn explore hazard=3")
    assert party.state.light_level == "bright"
    party.execute("turn explore hazard=3")
    torch = party.state.light("torch2")
    assert torch is not None and torch.spent and party.state.light_level == "dark"


def test_only_the_event_die_burns_a_light(party: Expedition) -> None:
    """Items & Equipment, Burn: Burn is lowered by the Event Die, not by the clock: a torch
    lit through twenty free turns still burns."""
    for _ in range(20):
        party.execute("turn explore hazard=6")
    assert party.state.light_level == "bright"


def test_a_burn_result_without_a_lit_light_lowers_supply(party: Expedition) -> None:
    """Core Procedures, Event Die – Exploration Turns: with no lit light, a Burn result
    lowers each Errant's Supply by 1 instead; a light burning spares it."""
    party.execute("turn explore hazard=3")
    assert supply(party, "Ash") == 4
    run(party, "light off torch2")
    party.execute("turn explore hazard=3")
    assert [supply(party, n) for n in ("Ash", "Bryn", "Cob")] == [3, 3, 3]


def test_a_candle_has_burn_1_and_a_dim_light_for_one(expedition: Factory) -> None:
    """Exploration Turns, Illumination: a single Errant with a discreet light such as a
    candle is in dim light; Goods & Services: a candle has Burn 1."""
    alone = expedition("errant", seed=7)
    run(alone, "pc add Ash hp=6 PHYS=12", "light add candle carrier=Ash lit")
    assert level(alone) == "dim"
    alone.execute("turn explore hazard=3")
    assert level(alone) == "dark"


def test_the_company_is_in_bright_light_when_its_total_burn_is_its_number(
    party: Expedition,
) -> None:
    """Exploration Turns, Illumination: bright light when the total Burn of the lit lights is
    at least the number of the Company; below it, dim (Burn: a point of Burn lights one
    person). A torch (Burn 2) for three is dim; a lantern (4) more is bright; as the Event
    Die burns them down to 1 and 3 it stays bright, and at 0 and 2 it is dim."""
    assert level(party) == "dim"
    run(party, "light add lantern carrier=Bryn lit")
    assert level(party) == "bright"
    party.execute("turn explore hazard=3")
    assert level(party) == "bright"
    party.execute("turn explore hazard=3")
    assert level(party) == "dim"
    assert member_levels(party.state, party.procedure) == {
        "Ash": "dim",
        "Bryn": "dim",
        "Cob": "dim",
    }


def test_a_torch_snuffed_on_purpose_cannot_be_relit(party: Expedition) -> None:
    """Items & Equipment, Burn: a torch or candle deliberately snuffed falls to Burn 0 and
    cannot be relit; a lantern can be snuffed and relit at will."""
    party.execute("light off torch2")
    torch = party.state.light("torch2")
    assert torch is not None and torch.spent
    with pytest.raises(CommandError):
        party.execute("light on torch2")
    run(party, "light add lantern carrier=Bryn lit", "light off lantern1", "light on lantern1")
    assert level(party) == "bright"


def test_a_lantern_is_relit_and_refilled_with_oil(party: Expedition) -> None:
    """Items & Equipment, Burn: a lantern can be snuffed and relit at will; Goods &
    Services: a flask of oil (Depletion 4) gives it its Burn; without oil, no refill."""
    run(party, "light off torch2", "light add lantern carrier=Bryn", "light on lantern")
    for _ in range(4):
        party.execute("turn explore hazard=3")
    assert party.state.light_level == "dark"
    with pytest.raises(CommandError, match="oil"):
        party.execute("light refuel lantern1")
    run(party, "pc Bryn +1 oil", "light refuel lantern1", "light on lantern1")
    assert party.state.light_level == "bright"


# ---- Travel Turns ----------------------------------------------------------------------------


def test_a_deplete_result_uses_a_ration_each(party: Expedition) -> None:
    """Core Procedures, Event Die – Travel Turns: Deplete, each Errant's rations by 1."""
    travel(party)
    party.execute("turn peregrinate hazard=3")
    assert [supply(party, n, "rations") for n in ("Ash", "Bryn", "Cob")] == [1, 1, 1]
    assert supply(party, "Ash") == 4


def test_without_rations_supply_then_starving(party: Expedition) -> None:
    """Event Die – Travel Turns: with no ration to Deplete, Supply by 1 instead; Travel
    Turns, Eating & Drinking: with neither, the Errant starves and gains 1 Exhaustion."""
    travel(party)
    run(party, "pc Ash rations=0", "pc Bryn rations=0 supply=0")
    party.execute("turn peregrinate hazard=3")
    assert (supply(party, "Ash"), track(party, "Ash")) == (3, 0)
    assert track(party, "Bryn") == 1
    assert (supply(party, "Cob", "rations"), track(party, "Cob")) == (1, 0)


def test_pace_in_the_wilderness(party: Expedition) -> None:
    """Travel Turns, Pace: a hex a turn (1/1); slowly x/+1 with a positive Event Die;
    quickly +1/x with a negative one."""
    travel(party)
    slow = party.execute("turn peregrinate-slowly hazard=1,6")
    assert (of(slow, ev.TurnStarted)[0].distance, event_die(slow)) == ("0.5 locations", ["Free"])
    quick = party.execute("turn peregrinate-quickly hazard=1,6")
    assert of(quick, ev.TurnStarted)[0].distance == "2 locations"
    assert event_die(quick) == ["Encounter"]


def test_a_failed_navigation_check_sends_the_company_astray(party: Expedition) -> None:
    """Travel Turns, Navigation & Getting Lost: a failed navigation Check when peregrinating
    and the Company is lost; a d6 gives the direction, 1 north, 2 north-east, clockwise."""
    travel(party)
    batch = party.execute("turn peregrinate nav=failure hazard=6 lost=2")
    assert [r.label for r in of(batch, ev.ResultRead) if r.key == "lost"] == ["North-east"]
    calm = party.execute("turn peregrinate hazard=6")
    assert not [r for r in of(calm, ev.ResultRead) if r.key == "lost"]


def test_a_fifth_travel_turn_of_peregrinating_is_exhausting(party: Expedition) -> None:
    """Travel Turns, Day & Night: four travel turns of peregrinating a day, before night
    falls; each one beyond brings each Errant 1 Exhaustion, through the night (the sixth,
    after midnight, too); the count starts again at dawn."""
    travel(party)
    for _ in range(4):
        party.execute("turn peregrinate hazard=6")
    assert track(party, "Ash") == 0
    party.execute("turn peregrinate hazard=6")  # 22:00: the fifth
    assert [track(party, n) for n in ("Ash", "Bryn", "Cob")] == [1, 1, 1]
    party.execute("turn peregrinate hazard=6")  # 02:00 on day 2: still the night's, the sixth
    assert [track(party, n) for n in ("Ash", "Bryn", "Cob")] == [2, 2, 2]
    party.execute("turn peregrinate hazard=6")  # 06:00: dawn, the first of the new day
    assert (track(party, "Ash"), track(party, "Ash", "marches")) == (2, 1)


def test_night_falls_with_the_fourth_travel_turn(party: Expedition) -> None:
    """Travel Turn Procedure: on the fourth Travel Turn of a day the Guide announces that it
    is night-time (Day & Night: Pace and navigation suffer)."""
    travel(party)
    announced = []
    for _ in range(4):
        batch = party.execute("turn peregrinate hazard=6")
        announced.append(any("Night-time" in e.text for e in of(batch, ev.Logged)))
    assert announced == [False, False, False, True]


def test_two_travel_turns_of_sleep_remove_an_exhaustion(party: Expedition) -> None:
    """Travel Turns, Resting: two Travel Turns sleeping are a full night's Rest, removing a
    point of Exhaustion; one is not enough."""
    travel(party)
    run(party, "turn peregrinate hazard=2 choice=exhaustion", "pc Ash exhaustion=+1")
    run(party, "pc Bryn exhaustion=+1", "pc Cob exhaustion=+1")
    party.execute("turn camp hazard=6")
    assert track(party, "Ash") == 2
    party.execute("turn camp hazard=6")
    assert [track(party, n) for n in ("Ash", "Bryn", "Cob")] == [1, 1, 1]


def test_an_uncomfortable_campsite_removes_no_exhaustion(party: Expedition) -> None:
    """Travel Turns, Unsuitable Campsites: uncomfortable, no Exhaustion removed there."""
    travel(party)
    run(party, "turn peregrinate hazard=2 choice=exhaustion")
    run(party, "turn camp campsite=uncomfortable hazard=6")
    run(party, "turn camp campsite=uncomfortable hazard=6")
    assert track(party, "Ash") == 1


def test_a_watch_kept_alone_is_exhausting(party: Expedition) -> None:
    """Travel Turns, Take watch: one character keeping watch a whole Travel Turn gains a
    point of Exhaustion; two keep it without any."""
    travel(party)
    party.execute("turn camp watch=one by=Cob hazard=6")
    assert (track(party, "Cob"), track(party, "Ash")) == (1, 0)
    party.execute("turn orient hazard=6")
    party.execute("turn camp watch=two hazard=6")
    assert (track(party, "Cob"), track(party, "Ash")) == (1, 0)


@pytest.mark.parametrize("action", ["camp-unwatched", "camp-open"])
def test_without_a_watch_a_sign_is_an_encounter(party: Expedition, action: str) -> None:
    """Travel Turns, Take watch, and Unsuitable Campsites, open: an Event Die of 5
    (encounter sign) is read as a 1 (encounter) when no one keeps watch, or at an open
    campsite even with a watch."""
    travel(party)
    watched = party.execute("turn camp hazard=5")
    assert of(watched, ev.SignFound) and not of(watched, ev.EncounterBegan)
    batch = party.execute(f"turn {action} hazard=5 combat-distance=2")
    assert of(batch, ev.EncounterBegan) and not of(batch, ev.SignFound)


def test_foraging_finds_two_supply(party: Expedition) -> None:
    """Travel Turns, Forage: each Errant whose navigation Check succeeds gains 2 Supply."""
    travel(party)
    run(party, "turn forage hazard=6", "do foraged by=Bryn")
    assert (supply(party, "Bryn"), supply(party, "Ash")) == (6, 4)


def test_a_beautiful_day_needs_one_turn_of_sleep(party: Expedition) -> None:
    """Travel Turns, Weather: a beautiful day, only one Travel Turn of sleep is needed."""
    travel(party)
    run(party, "turn peregrinate hazard=4", "do weather weather-spring=12")
    run(party, "pc Ash exhaustion=+1")
    party.execute("turn camp hazard=6")
    assert track(party, "Ash") == 0


def test_severe_weather_exhausts_each_turn_not_camping(party: Expedition) -> None:
    """Travel Turns, Weather: severe weather gives every member 1 Exhaustion each Travel
    Turn not spent resting at a suitable campsite; a Deplete result returns the weather to
    the season's middle band (spring's is cloudy)."""
    travel(party)
    run(party, "turn orient hazard=4", "do weather weather-spring=12")
    run(party, "counter set weather severe")
    party.execute("turn peregrinate hazard=6")
    assert track(party, "Ash") == 1
    party.execute("turn camp hazard=3")
    assert track(party, "Ash") == 1 and weather(party) == "normal"


@pytest.mark.parametrize(
    "action",
    [
        "camp-open",
        "camp campsite=uncomfortable",
        "camp-unwatched campsite=uncomfortable",
        "rest-travel",
        "forage",
        "explore-hex",
    ],
)
def test_severe_weather_exhausts_unless_resting_at_a_suitable_campsite(
    party: Expedition, action: str
) -> None:
    """Travel Turns, Weather: severe weather, "each Travel Turn not spent Resting at a
    suitable campsite or other form of shelter": an open or uncomfortable campsite, a Rest
    in the open, foraging or exploring the hex all cost each Errant 1 Exhaustion; a
    suitable campsite, watched or not, none."""
    travel(party)
    run(party, "counter set weather severe")
    party.execute("turn camp-unwatched hazard=6")
    party.execute("turn camp hazard=6")
    assert [track(party, n) for n in ("Ash", "Bryn", "Cob")] == [0, 0, 0]
    party.execute(f"turn {action} hazard=6")
    assert [track(party, n) for n in ("Ash", "Bryn", "Cob")] == [1, 1, 1]


@pytest.mark.parametrize("action", ["forage", "explore-hex", "peregrinate", "camp-open"])
def test_inclement_weather_asks_a_dv_2_phys_saving_throw(party: Expedition, action: str) -> None:
    """Travel Turns, Weather: inclement weather, each Travel Turn not spent resting at a
    suitable campsite: every member makes a DV 2 phys Saving Throw (a Check: above the DV,
    at most phys) or gains 1 Exhaustion; at a suitable campsite, no Saving Throw."""
    travel(party)
    run(party, "counter set weather inclement")
    batch = party.execute(f"turn {action} hazard=6 exposure.Ash=7 exposure.Bryn=2 exposure.Cob=12")
    made = {e.name: e.success for e in of(batch, ev.CheckMadeUnder)}
    assert made == {"Ash": True, "Bryn": False, "Cob": False}  # 2 not above 2; 12 over phys 11
    assert [track(party, n) for n in ("Ash", "Bryn", "Cob")] == [0, 1, 1]
    calm = party.execute("turn camp hazard=6")
    assert not of(calm, ev.CheckMadeUnder)


def test_the_season_sets_the_weather_to_its_middle_band(party: Expedition) -> None:
    """Travel Turns, Weather: weather begins in the middle range (6-8) of each season:
    cloudy, sunny, overcast, and in winter sleet, which is inclement weather."""
    assert weather(party) == "normal"
    run(party, "counter set season winter")
    assert weather(party) == "inclement"
    run(party, "counter set season summer")
    assert weather(party) == "normal"


def test_the_weather_returns_to_the_season_as_the_day_ends(party: Expedition) -> None:
    """Travel Turns, Weather: most weather returns to normal at the start of a new day (the
    GM who keeps it types it again); winter's normal is its middle band, sleet."""
    travel(party)
    run(party, "counter set season winter", "counter set weather severe")
    for _ in range(4):
        party.execute("turn camp hazard=6")
    assert weather(party) == "severe"  # 22:00
    party.execute("turn camp hazard=6")  # to 02:00: the day ends at midnight
    assert weather(party) == "inclement"


def test_clear_skies_and_overcast_shift_the_next_weather_roll(party: Expedition) -> None:
    """Travel Turns, Weather: clear skies add 2 to the next weather roll, overcast takes 2
    off."""
    travel(party)
    run(party, "counter set season autumn")
    read = []
    for typed in (12, 10, 7, 7):
        batch = party.execute(f"do weather weather-autumn={typed}")
        read += [r.label for r in of(batch, ev.ResultRead)]
    assert read == [
        "Clear skies (+2 to the next weather roll)",
        "Clear skies (+2 to the next weather roll)",  # 10 + 2
        "Cloudy",  # 7 + 2
        "Overcast (-2 to the next weather roll)",
    ]
    batch = party.execute("do weather weather-autumn=7")  # 7 - 2
    assert [r.label for r in of(batch, ev.ResultRead)] == ["Inclement weather (fog)"]


def test_exhaustion_equal_to_phys_kills(party: Expedition) -> None:
    """Items & Equipment, Exhaustion: an Errant whose Exhaustion reaches their phys dies."""
    run(party, "pc Bryn exhaustion=8")
    assert "dead" not in party.state.member("Bryn").conditions  # type: ignore[union-attr]
    party.execute("turn explore hazard=2 choice=exhaustion")
    bryn = party.state.member("Bryn")
    assert bryn is not None and "dead" in bryn.conditions  # 9 of PHYS 9
    ash = party.state.member("Ash")
    assert ash is not None and "dead" not in ash.conditions


def test_a_starving_errant_gains_exhaustion_each_day_without_food(party: Expedition) -> None:
    """Travel Turns, Eating & Drinking: neither rations nor Supply when the Event Die
    depletes, and the Errant starves: 1 Exhaustion, another each day without food (at each
    midnight while they have none) and each Deplete result."""
    travel(party)
    run(party, "pc Bryn rations=0 supply=0")
    party.execute("turn orient hazard=3")
    assert track(party, "Bryn") == 1
    for _ in range(3):
        party.execute("turn orient hazard=6")
    assert track(party, "Bryn") == 1
    party.execute("turn orient hazard=6")  # to 02:00: the day ends without food
    assert (track(party, "Bryn"), track(party, "Ash")) == (2, 0)
    run(party, "pc Bryn +1 rations")
    for _ in range(6):
        party.execute("turn orient hazard=6")
    assert track(party, "Bryn") == 2  # fed: no more for the days


def test_the_weather_is_read_by_season(party: Expedition) -> None:
    """Travel Turns, Weather: 2d6 on the season's column: a 2 in spring is inclement, in
    summer severe; the roll is the GM's on a Local effect."""
    travel(party)
    run(party, "turn orient hazard=4", "do weather weather-spring=2")
    assert party.state.counter("weather") == 1
    run(party, "counter set season summer", "do weather weather-summer=2")
    assert party.state.counter("weather") == 2


def test_downtime_removes_supply(party: Expedition) -> None:
    """Items & Equipment, Supply: at the start of the next Downtime Turn any Supply left is
    removed."""
    run(party, "enter downtime", "turn downtime hazard=6")
    assert [supply(party, n) for n in ("Ash", "Bryn", "Cob")] == [0, 0, 0]


def test_a_downtime_turn_restores_every_errants_hp(party: Expedition) -> None:
    """Downtime Turns, Recovery: when a Downtime Turn begins, every member of the Company has
    their HP restored to its maximum."""
    run(party, "pc Ash hp=-5", "pc Bryn hp=-2", "enter downtime", "turn downtime hazard=6")
    assert [(m.name, m.hp) for m in party.state.party] == [("Ash", 6), ("Bryn", 4), ("Cob", 5)]


# ---- Encounters ------------------------------------------------------------------------------


def test_an_encounter_begins_d6_times_ten_apart(party: Expedition) -> None:
    """Initiative Turns, Combat Distance: a D6 × 10 feet or yards apart, when not known."""
    batch = party.execute("turn explore hazard=1 combat-distance=4")
    read = [r.label for r in of(batch, ev.ResultRead) if r.key == "combat-distance"]
    assert read == ["40 feet or yards apart"]


def test_a_sign_foretells_the_next_encounter(party: Expedition) -> None:
    """Event Die, Encounter sign: the next encounter (or sign) rolled is the one the sign
    presaged."""
    run(party, "turn explore hazard=5 sign=ghouls")
    batch = party.execute("turn explore hazard=1")
    assert "ghouls" in of(batch, ev.EncounterBegan)[0].creature


@pytest.mark.parametrize(
    ("face", "result"), [(1, "NPCs surprise"), (3, "No surprise"), (6, "Company surprises")]
)
def test_surprise_is_a_d6(party: Expedition, face: int, result: str) -> None:
    """Initiative Turns, Surprise: a D6, 1-2 the NPCs surprise, 5-6 the Company does."""
    batch = party.execute(f"do surprise surprise-roll={face}")
    assert result in next(r.label for r in of(batch, ev.ResultRead))


@pytest.mark.parametrize(
    ("total", "result"),
    [(2, "Hostile"), (5, "Unfriendly"), (8, "Unsure"), (9, "Amicable"), (12, "Friendly")],
)
def test_the_reaction_roll_is_2d6(party: Expedition, total: int, result: str) -> None:
    """Core Procedures, Reaction Rolls: 2D6 for an uncertain disposition: hostile (DV +8),
    unfriendly (+4), unsure, amicable (-2), friendly (-4)."""
    batch = party.execute(f"do react reaction-roll={total}")
    assert next(r.label for r in of(batch, ev.ResultRead)).startswith(result)


def test_a_replayed_file_gives_the_same_state(party: Expedition) -> None:
    """A site, the wilderness and a camp survive closing and opening the file."""
    run(party, "turn explore hazard=3", "turn explore hazard=2 choice=rest")
    travel(party)
    run(party, "turn peregrinate hazard=3", "turn camp hazard=6", "turn camp hazard=5")
    replays_the_same(party)
