"""The shipped cairn procedure, rule by rule, as a Warden would check it against the text.

The text is the "Procedures" chapter of the Cairn 2e Player's Guide (CC-BY-SA 4.0): dungeon
cycles that roll the Dungeon Events only when the party lingers, hurries, enters a new area
or is loud; three 8-hour watches a day in the wilds, getting lost by the path, the
Wilderness Events after every watch, and Make Camp clearing Fatigue.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.cli_support import played
from tests.conftest import Factory, of, replays_the_same, rolled, run

#: The day's weather, typed on the day's first watch in the morning: fair, or unpleasant.
FAIR = "weather-spring=2"
FOUL = "weather-spring=4"


def fatigue(made: Expedition) -> dict[str, int]:
    """Each member's Fatigue."""
    return {m.name: dict(m.tracks).get("fatigue", 0) for m in made.state.party}


def rations(made: Expedition) -> dict[str, int]:
    """The uses of Rations each member carries."""
    return {m.name: dict(m.resources).get("rations", 0) for m in made.state.party}


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    made = expedition("cairn", seed=7)
    run(
        made,
        "pc add Ash hp=4 STR=10 DEX=12 WIL=9",
        "pc add Bryn hp=3",
        "light add torch count=3 carrier=Ash",
        "light on torch",
    )
    return made


@pytest.fixture
def delving(party: Expedition) -> Expedition:
    party.execute("enter dungeon")
    return party


def test_a_watch_is_eight_hours_and_a_day_has_three(party: Expedition) -> None:
    assert party.state.turn_type == "wilderness" and party.state.clock_text == "06:00"
    run(party, f"turn travel path=road hazard=6 {FAIR}", "turn travel path=road hazard=6")
    run(party, "turn camp hazard=6")
    assert party.state.minutes == 3 * 8 * 60
    assert party.state.day == 2 and party.state.clock_text == "06:00"


def test_a_dungeon_cycle_takes_ten_minutes(delving: Expedition) -> None:
    delving.execute("turn move")
    assert delving.state.minutes == 10 and delving.state.clock_text == "06:10"


@pytest.mark.parametrize(
    ("path", "face", "lost"),
    [("trail", 2, True), ("trail", 3, False), ("wilderness", 3, True), ("wilderness", 4, False)],
)
def test_getting_lost_depends_on_the_path(
    party: Expedition, path: str, face: int, lost: bool
) -> None:
    batch = party.execute(f"turn travel path={path} lost={face} hazard=6 {FAIR}")
    check = next(r for r in of(batch, ev.DiceRolled) if r.key == "lost")
    assert check.expression == "d6"
    result = next(r for r in of(batch, ev.ResultRead) if r.key == "lost")
    assert result.label == ("lost" if lost else "on course")
    said = [e.text for e in of(batch, ev.Logged)]
    assert any("lost" in text for text in said) is lost


def test_no_roll_to_get_lost_on_a_road(party: Expedition) -> None:
    batch = party.execute(f"turn travel path=road hazard=6 {FAIR}")
    assert rolled(batch) == ["weather-spring", "hazard"]
    with pytest.raises(CommandError, match="lost="):
        party.execute("turn travel path=road lost=1")


def test_the_path_holds_until_the_warden_names_another(party: Expedition) -> None:
    party.execute(f"turn travel path=wilderness lost=4 hazard=6 {FAIR}")
    assert dict(party.state.counters)["path"] == 3
    batch = party.execute("turn travel lost=3 hazard=6")  # still in the wilds: 3-in-6
    assert next(r for r in of(batch, ev.ResultRead) if r.key == "lost").label == "lost"


@pytest.mark.parametrize(
    ("face", "label"),
    [
        (1, "Encounter"),
        (2, "Sign"),
        (3, "Environment"),
        (4, "Loss"),
        (5, "Exhaustion"),
        (6, "Discovery"),
    ],
)
def test_the_wilderness_events_after_every_watch(party: Expedition, face: int, label: str) -> None:
    extra = " barrier=fatigue" if face == 5 else ""
    batch = party.execute(f"turn explore hazard={face}{extra}")
    read = [r for r in of(batch, ev.ResultRead) if r.key == "hazard"]
    assert read[0].table == "wilderness-events" and read[0].label == label
    assert bool(of(batch, ev.EncounterBegan)) is (face == 1)


def test_an_encounter_rolls_the_2d6_reaction(party: Expedition) -> None:
    batch = party.execute(f"turn explore hazard=1 reaction=12 {FAIR}")
    labels = [r.label for r in of(batch, ev.ResultRead)][1:]
    assert labels == ["Encounter", "Helpful"]
    batch = party.execute("turn explore hazard=1 reaction=2")
    assert [r.label for r in of(batch, ev.ResultRead)][-1] == "Hostile"


def test_night_travel_rolls_the_wilderness_events_twice(party: Expedition) -> None:
    batch = party.execute(f"turn night-travel lost=6 wilderness-events=2 hazard=6 {FAIR}")
    tables = [r.table for r in of(batch, ev.ResultRead) if r.key not in ("lost", "weather-spring")]
    assert tables == ["wilderness-events", "wilderness-events"]


def test_make_camp_eats_a_ration_each_and_clears_all_fatigue(party: Expedition) -> None:
    run(party, "pc Ash rations=1", "pc Bryn rations=0", "enter dungeon")
    run(party, "turn linger events=5 exhaustion=ration", "turn linger events=5 exhaustion=ration")
    assert fatigue(party) == {"Ash": 1, "Bryn": 2} and rations(party) == {"Ash": 0, "Bryn": 0}
    run(party, "pc Ash +3 rations", "enter wilderness", "turn camp hazard=6")
    assert rations(party) == {"Ash": 2, "Bryn": 0}
    # Bryn, with nothing to eat, is deprived and cannot recover from Fatigue.
    assert fatigue(party) == {"Ash": 0, "Bryn": 2}
    assert [m.conditions for m in party.state.party] == [(), ("deprived",)]
    run(party, "pc Bryn +3 rations", "turn camp hazard=6")
    assert fatigue(party) == {"Ash": 0, "Bryn": 0}
    assert [m.conditions for m in party.state.party] == [(), ()]


def test_supply_brings_1d4_rations_of_three_uses_a_bigger_die_with_more_hands(
    party: Expedition,
) -> None:
    batch = party.execute("turn supply by=Ash bounty=4 hazard=6")
    found = next(r for r in of(batch, ev.DiceRolled) if r.key == "bounty")
    assert found.expression == "d4" and rations(party) == {"Ash": 3 + 12, "Bryn": 3}
    batch = party.execute("turn supply by=Bryn hunters=3 bounty=7 hazard=6")
    found = next(r for r in of(batch, ev.DiceRolled) if r.key == "bounty")
    assert found.expression == "d8" and rations(party) == {"Ash": 15, "Bryn": 3 + 21}


def test_a_can_of_oil_gives_the_lantern_its_six_lightings_back(delving: Expedition) -> None:
    run(delving, "light off torch", "light add lantern carrier=Bryn lit", "party +1 oil")
    delving.execute("turn enter events=4")
    lantern = delving.state.light("lantern1")
    assert lantern is not None and lantern.strikes == 1 and not lantern.lit
    delving.execute("light refuel lantern1")
    lantern = delving.state.light("lantern1")
    assert lantern is not None and lantern.strikes == 0
    assert dict(delving.state.resources).get("oil", 0) == 0
    with pytest.raises(CommandError):
        delving.execute("light refuel lantern1")


def test_careful_movement_rolls_nothing_in_the_dungeon(delving: Expedition) -> None:
    batch = delving.execute("turn move")
    assert rolled(batch) == [] and not of(batch, ev.ResultRead)


@pytest.mark.parametrize(
    "command", ["turn hurry", "turn enter", "turn linger", "turn rest", "do noise"]
)
def test_lingering_hurrying_entering_resting_or_noise_roll_the_dungeon_events(
    delving: Expedition, command: str
) -> None:
    batch = delving.execute(f"{command} events=6")
    assert rolled(batch) == ["events"]
    assert [r.label for r in of(batch, ev.ResultRead)] == ["Quiet"]


def test_hurrying_goes_three_times_as_far(delving: Expedition) -> None:
    careful = of(delving.execute("turn move"), ev.TurnStarted)[0]
    hurried = of(delving.execute("turn hurry events=6"), ev.TurnStarted)[0]
    assert (careful.distance, hurried.distance) == ("40 feet", "120 feet")


def test_loss_blows_out_the_torch_which_can_be_lit_three_times(delving: Expedition) -> None:
    lit = next(light for light in delving.state.lights if light.lit)
    for lighting in (1, 2):
        delving.execute("turn enter events=4")
        torch = delving.state.light(lit.id)
        assert torch is not None and not torch.lit and not torch.spent
        assert torch.strikes == lighting
        delving.execute(f"light on {lit.id}")
    delving.execute("turn enter events=4")
    torch = delving.state.light(lit.id)
    assert torch is not None and torch.spent and torch.strikes == 3  # degraded for good
    assert delving.state.light_level == "dark"


def test_exhaustion_eats_a_ration_or_adds_a_fatigue_unless_the_party_rests(
    delving: Expedition,
) -> None:
    """Procedures › Dungeon Events, 5: the party must rest (rolling the table again), add a
    Fatigue, or consume a ration: the party's choice, asked for and nothing saved without
    it. A member with no ration to eat adds a Fatigue instead; a rest chosen and then not
    taken costs the Fatigue after all."""
    delving.execute("pc Bryn rations=0")
    with pytest.raises(CommandError, match="add exhaustion=rest or exhaustion=fatigue or"):
        delving.execute("turn linger events=5")
    assert delving.state.turn == 0
    delving.execute("turn linger events=5 exhaustion=ration")
    assert rations(delving) == {"Ash": 2, "Bryn": 0}
    assert fatigue(delving) == {"Ash": 0, "Bryn": 1}
    delving.execute("turn linger events=5 exhaustion=fatigue")
    assert rations(delving) == {"Ash": 2, "Bryn": 0}
    assert fatigue(delving) == {"Ash": 1, "Bryn": 2}
    delving.execute("turn linger events=5 exhaustion=rest")
    batch = delving.execute("turn rest events=6")
    assert rolled(batch) == ["events"]  # the rest rolls the Dungeon Events again
    assert fatigue(delving) == {"Ash": 1, "Bryn": 2}
    delving.execute("turn linger events=5 exhaustion=rest")
    delving.execute("turn move")  # no rest after all: the Fatigue each
    assert fatigue(delving) == {"Ash": 2, "Bryn": 3}


def test_a_rest_restores_all_hp_but_not_fatigue(delving: Expedition) -> None:
    run(delving, "pc Ash hp=-3", "pc Bryn hp=-1", "pc Ash rations=0", "pc Bryn rations=0")
    run(delving, "turn linger events=5 exhaustion=fatigue", "turn move")
    delving.execute("turn rest events=6")
    assert [(m.hp, m.max_hp) for m in delving.state.party] == [(4, 4), (3, 3)]
    assert fatigue(delving) == {"Ash": 1, "Bryn": 1}


def test_no_rest_without_a_light_and_nothing_is_written(delving: Expedition) -> None:
    delving.execute("light off torch")
    before = (delving.state, delving.event_count)
    with pytest.raises(CommandError, match="Rest is not possible in darkness"):
        delving.execute("turn rest")
    assert (delving.state, delving.event_count) == before


def test_the_wilderness_events_are_not_rolled_in_the_dungeon(delving: Expedition) -> None:
    with pytest.raises(CommandError, match="hazard="):
        delving.execute("turn move hazard=1")


def test_replay_gives_the_live_state(party: Expedition) -> None:
    run(
        party,
        f"turn travel path=wilderness lost=3 hazard=5 barrier=fatigue toll=watch {FOUL}",
        "turn night-travel lost=6 hazard=1 wilderness-events=2 reaction=4",
        "turn camp hazard=6",
        "enter dungeon",
        "turn enter events=4",
        "light on torch",
        "turn linger events=5 exhaustion=rest",
        "turn rest events=3",
        "do noise events=6",
    )
    replays_the_same(party)


#: A played session of 20 turns: two days' walk to a barrow, a delve, and the walk home.
SESSION = [
    "pc add Ash hp=4 STR=11 DEX=13 WIL=8",
    "pc add Bryn hp=5 STR=14 DEX=9 WIL=12",
    "pc Bryn rations=1",
    "light add torch count=3 carrier=Ash",
    "light add lantern carrier=Bryn",
    "turn travel path=trail lost=4 hazard=2 weather-spring=5 toll=fatigue",  # 1: rain; a sign
    "turn travel lost=1 hazard=5 barrier=action",  # 2: afternoon, lost; a barrier
    "turn camp hazard=6",  # 3: night in camp
    "turn supply by=Ash bounty=1 hazard=3 weather-spring=1",  # 4: day 2, nice: Ash finds a Ration
    "turn travel path=wilderness lost=5 hazard=1 reaction=7",  # 5: curious wolves
    "turn camp hazard=6",  # 6: the afternoon in camp at the barrow's door
    "enter dungeon",
    "light on torch",
    "turn move",  # 7
    "turn enter events=2",  # 8: a sign
    "turn move",  # 9
    "turn linger events=5 exhaustion=rest",  # 10: exhaustion: the party will rest
    "turn rest events=4",  # 11: rested (no Fatigue), but the torch blows out
    "light on lantern",
    "turn move",  # 12
    "turn hurry events=1 reaction=3",  # 13: wary ghouls
    "turn linger events=5 exhaustion=ration",  # 14: exhaustion: a ration, or a Fatigue
    "turn move",  # 15
    "turn enter events=6",  # 16
    "enter wilderness",
    "turn travel path=trail lost=6 hazard=3 weather-spring=3",  # 17: morning, fair, on course
    "turn travel lost=3 hazard=4",  # 18: on course; a loss
    "turn travel path=road hazard=6",  # 19: the road home
    "turn camp hazard=6",  # 20: camp clears the Fatigue
]


def test_a_played_session_of_twenty_turns_follows_the_text(home: Path) -> None:
    state, text = played(home, "barrow", "cairn", SESSION)
    assert state["turn"] == 20
    # Ten watches of 8 hours and ten dungeon cycles of 10 minutes: 81 h 40 min from 06:00.
    assert state["minutes"] == 10 * 480 + 10 * 10
    assert state["day"] == 4 and state["clock"] == "15:40"
    ash, bryn = state["party"]
    assert (ash["hp"], bryn["hp"]) == (4, 5)
    # Ash: 3 uses, a meal at each of three camps and one at cycle 15, 3 found: 2 left.
    # Bryn ate the last at the first camp: at the second and the last, deprived; cycle 14's
    # exhaustion cost a Fatigue, which a deprived member cannot clear, and so did the day
    # from the camp of watch 6 to watch 19 without Make Camp (Ash's went at the last camp),
    # and the last camp found Bryn deprived for more than a day, still with nothing to eat.
    assert state["resources"]["members"] == {"Ash": {"rations": 2}, "Bryn": {"rations": 0}}
    # The last camp set both members' hours since Make Camp back to 0; Bryn went without
    # food at two camps running.
    assert ash["tracks"] == {"awake": 0, "fatigue": 0, "hungry": 0}
    assert bryn["tracks"] == {"awake": 0, "fatigue": 3, "hungry": 2}
    assert ash["conditions"] == [] and bryn["conditions"] == ["deprived"]
    lights = {light["id"]: light for light in state["lights"]}
    assert lights["lantern1"]["lit"] is True
    assert lights["torch2"]["lit"] is False  # blown out while resting, one lighting used
    assert state["counters"] == {"path": 0, "season": 0, "weather": 1, "toll": 0}
    assert text.count("Encounter!") == 2
    assert "Reaction: 2d6 [7] = 7 (table dice) → Curious" in text
    assert "Reaction: 2d6 [3] = 3 (table dice) → Wary" in text
    assert "Getting lost: d6 [1] = 1 (table dice) → lost" in text
    assert "torch2 is blown out" in text
    assert "Bryn: Fatigue 1 (exhaustion, no ration)." in text  # cycle 14: none to eat
    assert "Fatigue: 1 for Ash, 2 for Bryn (Make Camp skipped)." in text
    assert "Ash: Rations (uses) -1 → 3 (exhaustion)." in text
    assert "Bryn: Fatigue 3 (deprived of food for more than a day)." in text
    assert "The weather's toll: fatigue (the party's choice)" in text
    assert "Fatigue: 1 for both (the weather)." in text


def test_the_last_hazard_is_the_dungeon_events_below_and_the_wilderness_events_above(
    delving: Expedition,
) -> None:
    delving.execute("turn enter events=2")
    assert delving.state.last_hazard is not None and delving.state.last_hazard.result == "Sign"
    run(delving, "enter wilderness", "turn explore hazard=3")
    assert delving.state.last_hazard is not None
    assert delving.state.last_hazard.result == "Environment"


def conditions(made: Expedition) -> dict[str, tuple[str, ...]]:
    """Each member's conditions."""
    return {m.name: m.conditions for m in made.state.party}


def test_skipping_make_camp_costs_each_a_fatigue_and_leaves_them_deprived(
    party: Expedition,
) -> None:
    """Procedures › Sleep: a party that skips Make Camp each adds a Fatigue and is deprived;
    each further day without it costs another Fatigue."""
    party.execute(f"turn travel path=road hazard=6 {FAIR}")
    party.execute("turn travel path=road hazard=6")
    assert fatigue(party) == {"Ash": 0, "Bryn": 0} and conditions(party)["Ash"] == ()
    party.execute("turn travel path=road hazard=6")  # the night watch, spent travelling
    assert fatigue(party) == {"Ash": 1, "Bryn": 1}
    assert conditions(party) == {"Ash": ("deprived",), "Bryn": ("deprived",)}
    for typed in (FAIR, "", "", FAIR):
        party.execute(f"turn travel path=road hazard=6 {typed}")
    assert fatigue(party) == {"Ash": 2, "Bryn": 2}  # seven watches: two days without camp


def test_a_day_in_the_dungeon_without_camp_is_a_day_without_camp(delving: Expedition) -> None:
    """Procedures › Sleep, with Core Rules › Deprivation: the hours of dungeon cycles count
    towards a day without Make Camp (24 hours, here 144 cycles)."""
    for _ in range(143):
        delving.execute("turn move")
    assert fatigue(delving) == {"Ash": 0, "Bryn": 0}
    delving.execute("turn move")
    assert fatigue(delving) == {"Ash": 1, "Bryn": 1}


def test_make_camp_sets_the_count_of_hours_back(party: Expedition) -> None:
    """Procedures › Make Camp: a night in camp is the sleep the party needs."""
    run(party, f"turn travel path=road hazard=6 {FAIR}", "turn travel hazard=6")
    run(party, "turn camp hazard=6", f"turn travel hazard=6 {FAIR}", "turn travel hazard=6")
    assert fatigue(party) == {"Ash": 0, "Bryn": 0} and conditions(party)["Ash"] == ()


def test_a_deprived_member_recovers_no_hp_by_resting(delving: Expedition) -> None:
    """Core Rules › Deprivation & Fatigue: a deprived PC cannot recover HP."""
    run(delving, "pc Ash +deprived", "pc Ash hp=-3", "pc Bryn hp=-2")
    batch = delving.execute("turn rest events=6")
    assert [(m.name, m.hp) for m in delving.state.party] == [("Ash", 1), ("Bryn", 3)]
    assert not [e for e in of(batch, ev.HpChanged) if e.name == "Ash"]


def test_dungeon_actions_are_refused_in_a_watch_and_nothing_is_written(
    party: Expedition,
) -> None:
    """Modes are kept apart: lingering is a dungeon cycle's action, and a watch is not one;
    the Warden enters the dungeon first (`enter dungeon`)."""
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="Linger is a dungeon action; this is a watch"):
        party.execute("turn linger")
    with pytest.raises(CommandError, match=r"a dungeon activity; .*`enter dungeon` first"):
        party.execute("do noise")
    assert (party.state, party.event_count) == before


def test_wilderness_actions_are_refused_in_a_dungeon_cycle(delving: Expedition) -> None:
    """Modes are kept apart: Travel and Make Camp are Wilderness Actions."""
    for action in ("travel path=road", "camp", "night-travel", "supply", "explore"):
        with pytest.raises(CommandError, match="is a wilderness action; this is a dungeon"):
            delving.execute(f"turn {action}")
    delving.execute("enter wilderness")
    delving.execute("turn camp hazard=6")
    assert delving.state.minutes == 480


@pytest.mark.parametrize(
    ("face", "label"),
    [
        (1, "Encounter"),
        (2, "Sign"),
        (3, "Environment"),
        (4, "Loss"),
        (5, "Exhaustion"),
        (6, "Quiet"),
    ],
)
def test_the_dungeon_events_table(delving: Expedition, face: int, label: str) -> None:
    """Procedures › Dungeon Events: a d6, from Encounter (possibly hostile) to Quiet."""
    extra = {1: " reaction=7", 5: " exhaustion=fatigue"}.get(face, "")
    batch = delving.execute(f"turn enter events={face}{extra}")
    read = of(batch, ev.ResultRead)
    assert read[0].table == "dungeon-events" and read[0].label == label
    assert bool(of(batch, ev.EncounterBegan)) is (face == 1)
    assert bool(of(batch, ev.SignFound)) is (face == 2)


def test_a_torch_burns_until_something_puts_it_out(delving: Expedition) -> None:
    """Procedures › Light: torches last until a character or their surroundings put them
    out; no number of cycles burns one down."""
    for _ in range(60):
        delving.execute("turn move")
    torch = next(light for light in delving.state.lights if light.lit)
    assert torch.minutes is None and torch.lit and delving.state.light_level == "bright"


def test_the_warden_adds_a_fatigue_by_hand(party: Expedition) -> None:
    """Wilderness Events › Exhaustion (and Weather): the party may add a Fatigue each; the
    Warden types it, `pc NAME fatigue=+1`, and it fills the Fatigue count, not a ladder."""
    party.execute(f"turn travel path=road hazard=5 barrier=action {FAIR}")
    run(party, "pc Ash fatigue=+1", "pc Bryn fatigue=+1")
    assert fatigue(party) == {"Ash": 1, "Bryn": 1}
    party.execute("pc Ash awake=0")
    assert dict(party.state.party[0].tracks)["awake"] == 0
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="Nothing changed: Ash: Fatigue is 1 already"):
        party.execute("pc Ash fatigue=1")
    assert (party.state, party.event_count) == before


def test_status_says_each_members_fatigue_not_fresh(home: Path) -> None:
    """Core Rules › Fatigue: Cairn counts Fatigue as slots filled, not as a ladder, so the
    status a Warden reads says "Fatigue 1" for a member who skipped camp, never "fresh"."""
    from tests.cli_support import delvetui, made

    made(
        home,
        "road",
        "cairn",
        ["pc add Ash hp=4", f"turn travel path=road hazard=6 {FAIR}"]
        + ["turn travel path=road hazard=6"] * 2,
        seed=2,
    )
    said = delvetui(home, "status", "road")
    assert said.returncode == 0, said.stderr
    assert "  Ash: 4/4 HP, deprived, Fatigue 1, Hours since Make Camp 0/23" in said.stdout
    assert "fresh" not in said.stdout


# ---- The weather, the choices the text leaves the party, panic ------------------------------


def weather(made: Expedition) -> str:
    return made.procedure.counters["weather"].shown(made.state.counter("weather"))


@pytest.mark.parametrize(
    ("season", "face", "kind"),
    [
        ("spring", 1, "nice"),
        ("spring", 3, "fair"),
        ("summer", 2, "nice"),
        ("summer", 4, "unpleasant"),
        ("fall", 3, "unpleasant"),
        ("fall", 5, "inclement"),
        ("winter", 2, "unpleasant"),
        ("winter", 5, "extreme"),
    ],
)
def test_the_days_weather_is_rolled_on_the_seasons_column(
    party: Expedition, season: str, face: int, kind: str
) -> None:
    """Procedures › Weather: each day the Warden rolls the season's weather, a d6 from Nice
    to Extreme; here on the day's first watch in the wilds, in the morning."""
    if season != "spring":
        party.execute(f"counter set season {season}")
    batch = party.execute(f"turn explore hazard=6 weather-{season}={face}")
    assert weather(party) == kind
    assert [r.key for r in of(batch, ev.ResultRead)] == [f"weather-{season}", "hazard"]
    later = party.execute("turn explore hazard=6")  # the afternoon: no second roll today
    assert [r.key for r in of(later, ev.ResultRead)] == ["hazard"]


def test_unpleasant_weather_costs_a_fatigue_or_a_watch_on_the_days_first_travel(
    party: Expedition,
) -> None:
    """Procedures › Weather Difficulty: Unpleasant (and Inclement) weather, add a Fatigue or
    add a watch to the journey: the party's choice, asked on the day's first Travel, once."""
    with pytest.raises(CommandError, match="add toll=fatigue or toll=watch"):
        party.execute(f"turn travel path=road hazard=6 {FOUL}")
    party.execute(f"turn travel path=road hazard=6 toll=fatigue {FOUL}")
    assert fatigue(party) == {"Ash": 1, "Bryn": 1}
    party.execute("turn travel hazard=6")  # the toll is paid for the day
    assert fatigue(party) == {"Ash": 1, "Bryn": 1}
    party.execute("turn camp hazard=6")
    run(party, "turn explore hazard=6 weather-spring=4")  # unpleasant; no travel, no toll
    assert fatigue(party) == {"Ash": 0, "Bryn": 0}
    run(party, "turn explore hazard=6", "turn camp hazard=6")
    batch = party.execute("turn travel path=road hazard=6 toll=watch weather-spring=5")
    assert "The journey takes another watch." in [e.text for e in of(batch, ev.Logged)]
    assert "The terrain is a step harder (Easy becomes Tough)." in [
        e.text for e in of(batch, ev.Logged)
    ]
    assert fatigue(party) == {"Ash": 0, "Bryn": 0}  # the camp cleared the first


def test_extreme_weather_costs_both_and_twice_in_a_row_is_catastrophic(
    party: Expedition,
) -> None:
    """Procedures › Weather: Extreme, a Fatigue and another watch, the terrain a step harder;
    Extreme rolled twice in a row becomes Catastrophic, when most cannot travel."""
    run(party, "counter set season winter", "turn explore hazard=6 weather-winter=6")
    assert weather(party) == "extreme"
    batch = party.execute("turn travel path=road hazard=6")  # no choice: both
    assert fatigue(party) == {"Ash": 1, "Bryn": 1}
    assert "The journey takes another watch, and the terrain is a step harder." in [
        e.text for e in of(batch, ev.Logged)
    ]
    run(party, "turn camp hazard=6", "turn explore hazard=6 weather-winter=5")
    assert weather(party) == "catastrophic"
    batch = party.execute("turn travel path=road hazard=6")
    assert "Catastrophic weather: most parties cannot travel today." in [
        e.text for e in of(batch, ev.Logged)
    ]


def test_a_barrier_costs_another_wilderness_action_or_a_fatigue_each(party: Expedition) -> None:
    """Procedures › Wilderness Events, 5: a barrier forces effort or delay: another
    Wilderness Action, or a Fatigue each: the party's choice."""
    with pytest.raises(CommandError, match="add barrier=action or barrier=fatigue"):
        party.execute(f"turn explore hazard=5 {FAIR}")
    party.execute(f"turn explore hazard=5 barrier=fatigue {FAIR}")
    assert fatigue(party) == {"Ash": 1, "Bryn": 1}
    batch = party.execute("turn explore hazard=5 barrier=action")
    assert fatigue(party) == {"Ash": 1, "Bryn": 1}
    assert any("another Wilderness Action" in e.text for e in of(batch, ev.Logged))


def test_a_wil_save_against_panic_and_another_to_overcome_it(delving: Expedition) -> None:
    """Procedures › Panic: surrounded, in darkness or facing their fears, a character makes
    a WIL save (a d20 at or under WIL) or panics; a panicked character spends their action
    on a WIL save to overcome it."""
    delving.execute("do panic by=Ash panic=9")  # WIL 9: at or under, a success
    assert "panicked" not in delving.state.party[0].conditions
    delving.execute("do panic by=Ash panic=10")
    assert "panicked" in delving.state.party[0].conditions
    delving.execute("do steady by=Ash steady=15")
    assert "panicked" in delving.state.party[0].conditions
    delving.execute("do steady by=Ash steady=1")
    assert "panicked" not in delving.state.party[0].conditions
    with pytest.raises(CommandError, match="Bryn has none: give it with `pc Bryn WIL=N`"):
        delving.execute("do panic by=Bryn")


def test_deprived_for_more_than_a_day_adds_a_fatigue(party: Expedition) -> None:
    """Core Rules › Deprivation & Fatigue: anyone deprived for more than a day adds a
    Fatigue, one for each day: a member deprived at one camp for want of food and still
    without it at the next."""
    run(party, "pc Bryn rations=0", f"turn explore hazard=6 {FAIR}", "turn explore hazard=6")
    party.execute("turn camp hazard=6")
    assert conditions(party)["Bryn"] == ("deprived",) and fatigue(party)["Bryn"] == 0
    run(party, "turn explore hazard=6 weather-spring=2", "turn explore hazard=6")
    party.execute("turn camp hazard=6")
    assert fatigue(party) == {"Ash": 0, "Bryn": 1}
    run(party, "pc Bryn +3 rations", "turn explore hazard=6 weather-spring=2")
    run(party, "turn explore hazard=6", "turn camp hazard=6")
    assert fatigue(party) == {"Ash": 0, "Bryn": 0} and conditions(party)["Bryn"] == ()


def test_a_first_camp_without_food_after_a_sleepless_day_adds_no_fatigue(
    party: Expedition,
) -> None:
    """Core Rules › Deprivation & Fatigue: the Fatigue is for being deprived more than a
    day. Deprived by a skipped camp, then with no food at the camp that follows, Bryn has
    gone without food for a day at most: the camp adds no Fatigue for it."""
    party.execute("pc Bryn rations=0")
    party.execute("pc Bryn +deprived")
    party.execute(f"turn camp hazard=6 {FAIR}")
    assert fatigue(party) == {"Ash": 0, "Bryn": 0}
    assert conditions(party)["Bryn"] == ("deprived",)
