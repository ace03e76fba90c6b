"""The shipped cairn-modular procedure, rule by rule, as a Warden would check it.

The text is "Modular Rules & Procedures" from the Cairn Adventurer's Guide (CC-BY-SA 4.0):
10-minute dungeon turns, a loaded d6 encounter die every 2 turns or on noise, moving
carefully (200 ft) or quickly (600 ft), torches of about 6 turns; hex crawling in six
4-hour turns a day, getting lost off-road (1-in-6, 2-in-6 in difficult terrain), the event
die with its d4 expiration, the 2d6 reaction and the d10 of what they want, and two turns
of sleep a day or the party is deprived.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.timeline import Batch
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.cli_support import played
from tests.conftest import Factory, of, replays_the_same, rolled, run


def labels(batch: Batch) -> list[str]:
    """What each roll of a command read, in order."""
    return [r.label for r in of(batch, ev.ResultRead)]


def conditions(made: Expedition) -> dict[str, tuple[str, ...]]:
    """Each member's conditions."""
    return {m.name: m.conditions for m in made.state.party}


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    made = expedition("cairn-modular", seed=3)
    run(
        made,
        "pc add Ash hp=4 WIL=12",
        "pc add Bryn hp=3",
        "light add torch count=3 carrier=Ash",
        "light on torch",
    )
    return made


@pytest.fixture
def wilds(party: Expedition) -> Expedition:
    party.execute("enter wilderness")
    return party


def test_a_dungeon_turn_is_ten_minutes(party: Expedition) -> None:
    assert party.state.turn_type == "dungeon"
    party.execute("turn careful")
    assert party.state.minutes == 10


def test_careful_and_quick_movement(party: Expedition) -> None:
    careful = of(party.execute("turn careful"), ev.TurnStarted)[0]
    quick = of(party.execute("turn quick hazard=6"), ev.TurnStarted)[0]
    assert (careful.distance, quick.distance) == ("200 feet", "600 feet")
    assert "spots signs of all traps" in careful.flags
    assert "may trigger concealed traps (1-2 on d6)" in quick.flags


def test_the_encounter_die_every_second_turn(party: Expedition) -> None:
    checked = ["hazard" in rolled(party.execute("turn careful")) for _ in range(6)]
    assert checked == [False, True] * 3


def test_noise_rolls_the_encounter_die_at_once(party: Expedition) -> None:
    batch = party.execute("do noise hazard=3")
    assert labels(batch) == ["Locality"] and party.state.turn == 0


@pytest.mark.parametrize(
    ("face", "label"),
    [(1, "Encounter"), (2, "Sign"), (3, "Locality"), (4, "Exhaustion"), (5, "Expiration"),
     (6, "Discovery")],
)  # fmt: skip
def test_the_loaded_encounter_die(party: Expedition, face: int, label: str) -> None:
    party.execute("turn careful")
    batch = party.execute(f"turn careful hazard={face}")
    assert labels(batch)[0] == label
    assert bool(of(batch, ev.EncounterBegan)) is (face == 1)


def test_an_encounter_rolls_reaction_and_what_they_want(party: Expedition) -> None:
    party.execute("turn careful")
    batch = party.execute("turn careful hazard=1 reaction=12 wants=10")
    assert labels(batch) == ["Encounter", "Helpful", "Directions"]


def test_exhaustion_deprives_unless_the_party_rests_next_turn(party: Expedition) -> None:
    run(party, "turn careful", "turn careful hazard=4", "turn rest")
    assert conditions(party) == {"Ash": (), "Bryn": ()}
    run(party, "turn careful hazard=4", "turn careful")
    assert conditions(party) == {"Ash": ("deprived",), "Bryn": ("deprived",)}


def test_a_torch_lasts_about_six_turns(party: Expedition) -> None:
    for turn in range(1, 7):
        party.execute("turn careful hazard=6" if turn % 2 == 0 else "turn careful")
    assert party.state.light_level == "dark"
    with pytest.raises(CommandError, match="Detailed search is not possible in darkness"):
        party.execute("turn search")


def test_a_wilderness_turn_is_four_hours_six_a_day(wilds: Expedition) -> None:
    for _ in range(6):
        wilds.execute("turn road events=6")
    assert wilds.state.minutes == 24 * 60 and wilds.state.day == 2


def test_no_getting_lost_on_a_road(wilds: Expedition) -> None:
    assert rolled(wilds.execute("turn road events=6")) == ["events"]


@pytest.mark.parametrize(
    ("action", "key", "face", "lost"),
    [
        ("travel", "lost", 1, True),
        ("travel", "lost", 2, False),
        ("difficult", "lost-hard", 2, True),
        ("treacherous", "lost-hard", 2, True),
        ("difficult", "lost-hard", 3, False),
    ],
)
def test_getting_lost_off_road(
    wilds: Expedition, action: str, key: str, face: int, lost: bool
) -> None:
    batch = wilds.execute(f"turn {action} {key}={face} events=6")
    assert labels(batch)[0] == ("lost" if lost else "on course")


@pytest.mark.parametrize(
    ("action", "odds"), [("explore", "4-in-6"), ("locate", "5-in-6"), ("forage", "3-in-6")]
)
def test_explore_locate_and_forage_chances(wilds: Expedition, action: str, odds: str) -> None:
    batch = wilds.execute(f"turn {action} by=Ash events=6")
    assert next(r for r in of(batch, ev.DiceRolled) if r.key == action).expression == odds


def test_the_event_die_and_its_d4_expiration(wilds: Expedition) -> None:
    wilds.execute("pc Bryn rations=0")
    hunger = wilds.execute("turn road events=4 expiration=3 hunger=ration")
    assert labels(hunger) == ["Expiration", "Hunger"]
    rations = {m.name: dict(m.resources)["rations"] for m in wilds.state.party}
    assert rations == {"Ash": 2, "Bryn": 0}
    fatigue = {m.name: dict(m.tracks)["fatigue"] for m in wilds.state.party}
    assert fatigue == {"Ash": 0, "Bryn": 1}  # nothing to eat: a Fatigue instead
    tired = wilds.execute("turn road events=4 expiration=2")
    assert labels(tired) == ["Expiration", "Exhaustion"]
    wilds.execute("turn road events=6")
    fatigue = {m.name: dict(m.tracks)["fatigue"] for m in wilds.state.party}
    assert fatigue == {"Ash": 1, "Bryn": 2}


def test_foraging_finds_1d4_rations_for_the_forager(wilds: Expedition) -> None:
    wilds.execute("turn forage by=Bryn forage=3 supply.Bryn=4 events=6")
    rations = {m.name: dict(m.resources)["rations"] for m in wilds.state.party}
    assert rations == {"Ash": 3, "Bryn": 7}


def test_sixteen_hours_without_camp_leave_the_party_deprived(wilds: Expedition) -> None:
    for _ in range(4):
        wilds.execute("turn road events=6")
    assert conditions(wilds) == {"Ash": (), "Bryn": ()}
    wilds.execute("turn road events=6")  # a fifth turn awake: 20 hours
    assert conditions(wilds) == {"Ash": ("deprived",), "Bryn": ("deprived",)}
    run(wilds, "turn camp events=6", "turn camp events=6")
    assert conditions(wilds) == {"Ash": (), "Bryn": ()}


def test_two_turns_of_camp_a_day_keep_the_party_rested(wilds: Expedition) -> None:
    for command in [
        "turn road",
        "turn road",
        "turn road",
        "turn road",
        "turn camp",
        "turn camp",
    ] * 2:
        wilds.execute(f"{command} events=6")
    assert conditions(wilds) == {"Ash": (), "Bryn": ()}


def test_the_dungeons_die_is_not_rolled_in_the_wilds(wilds: Expedition) -> None:
    wilds.execute("turn road events=6")
    with pytest.raises(CommandError, match="hazard="):
        wilds.execute("turn road events=6 hazard=1")


def test_replay_gives_the_live_state(party: Expedition) -> None:
    run(
        party,
        "turn careful",
        "turn quick",
        "do noise",
        "turn rest",
        "enter wilderness",
        "turn travel",
        "turn difficult",
        "turn camp",
    )
    replays_the_same(party)


def test_a_played_session_of_twenty_turns_follows_the_text(home: Path) -> None:
    commands = [
        "pc add Ash hp=4",
        "pc add Bryn hp=5",
        "light add torch count=2 carrier=Ash",
        "light on torch",
        "turn careful",  # 1
        "turn careful hazard=2",  # 2: a sign
        "turn search",  # 3
        "turn quick hazard=4",  # 4: exhaustion...
        "turn rest",  # 5: ...answered by a rest
        "turn careful hazard=1 reaction=4 wants=6",  # 6: wary, wanting news; the torch is out
        "do noise hazard=6",
        "light on torch",
        "turn careful",  # 7
        "turn careful hazard=5",  # 8
        "enter wilderness",
        "turn travel lost=4 events=2",  # 9: 06:00+80 min
        "turn difficult lost-hard=1 off-course=2 events=3",  # 10: lost, to the north-east
        "turn reorient events=4 expiration=4 hunger=ration",  # 11: hungry: a ration each
        "turn difficult lost-hard=5 events=6",  # 12
        "turn camp events=6",  # 13
        "turn camp events=1 reaction=11 wants=8",  # 14: traders by the fire
        "turn explore explore=3 events=5",  # 15: the main location
        "turn forage forage=5 events=4 expiration=1",  # 16: nothing to eat; exhaustion
        "turn road events=6",  # 17: no rest: each adds a Fatigue
        "turn road events=3",  # 18
        "turn road events=6",  # 19: a fifth turn awake since camp: deprived
        "turn road events=6",  # 20
    ]
    state, text = played(home, "tomb", "cairn-modular", commands)
    assert state["turn"] == 20
    assert state["minutes"] == 8 * 10 + 12 * 240
    assert state["day"] == 3 and state["clock"] == "07:20"
    ash, bryn = state["party"]
    assert ash["tracks"]["fatigue"] == 1 and bryn["tracks"]["fatigue"] == 1
    assert ash["conditions"] == ["deprived"] and bryn["conditions"] == ["deprived"]
    # Three rations each, one eaten to the hunger of turn 11.
    assert state["resources"]["members"] == {"Ash": {"rations": 2}, "Bryn": {"rations": 2}}
    assert text.count("Loaded encounter die: d6") == 5  # turns 2, 4, 6, 8 and the noise
    assert text.count("Event die: d6") == 12
    assert "What do they want?: d10 [6] = 6 (table dice) → Info" in text
    assert "What do they want?: d10 [8] = 8 (table dice) → Trade" in text
    assert "Getting lost: 2-in-6 [1] = 1 (table dice) → lost" in text
    assert "Off course: d6 [2] = 2 (table dice) → North-east" in text
    assert "Hunger: ration (the party's choice)" in text
    assert "The party rests: Deprived is cancelled." in text


def test_the_last_hazard_is_the_event_die_in_the_wilds(wilds: Expedition) -> None:
    wilds.execute("turn road events=5")
    assert wilds.state.last_hazard is not None
    assert wilds.state.last_hazard.result == "Discovery"


def test_noise_rolls_the_encounter_die_when_the_turn_does_not(party: Expedition) -> None:
    """Dungeon › Loaded Encounter Roll: the die is rolled every 2 turns or when the players
    make noise; noise on dungeon turn 1 (no roll due) rolls it."""
    party.execute("turn careful")
    batch = party.execute("do noise hazard=2")
    assert labels(batch) == ["Sign"]


def test_one_camp_turn_a_day_is_not_a_nights_sleep(wilds: Expedition) -> None:
    """Wilderness › Hex Crawling: two 4-hour phases of sleep a day, or deprived. Four travel
    turns and one camp a day leave the party deprived on the second day."""
    for day in range(2):
        for _ in range(4):
            wilds.execute("turn road events=6")
        wilds.execute("turn camp events=6")
        if day == 0:
            assert conditions(wilds) == {"Ash": (), "Bryn": ()}
    assert conditions(wilds) == {"Ash": ("deprived",), "Bryn": ("deprived",)}
    assert dict(wilds.state.party[0].tracks)["awake"] == 32


def test_hours_in_the_dungeon_count_towards_sleep(party: Expedition) -> None:
    """Wilderness › Hex Crawling: 16 hours awake is the most; the dungeon's 10-minute turns
    count as the clock passes each hour."""
    for _ in range(3):
        run(party, "turn careful", "turn careful hazard=6")
    assert dict(party.state.party[0].tracks)["awake"] == 1


def test_travel_is_refused_in_the_dungeon(party: Expedition) -> None:
    """Modes are kept apart: travel is a wilderness turn's action; `enter wilderness` first."""
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="Travel is a wilderness action; this is a dungeon"):
        party.execute("turn travel")
    assert (party.state, party.event_count) == before
    with pytest.raises(CommandError, match="Move carefully is a dungeon action"):
        run(party, "enter wilderness", "turn careful")


@pytest.mark.parametrize(
    ("face", "label"),
    [(1, "Encounter"), (2, "Sign"), (3, "Locality"), (4, "Expiration"), (5, "Discovery"),
     (6, "Hidden feature")],
)  # fmt: skip
def test_the_event_die_every_wilderness_turn(wilds: Expedition, face: int, label: str) -> None:
    """Wilderness › Event Roll: a d6 after each turn's action, from Encounter to a Hidden
    feature."""
    extra = {1: " reaction=7 wants=1", 4: " expiration=1"}.get(face, "")
    batch = wilds.execute(f"turn road events={face}{extra}")
    assert labels(batch)[0] == label
    assert bool(of(batch, ev.EncounterBegan)) is (face == 1)
    assert bool(of(batch, ev.SignFound)) is (face == 2)


def test_a_turn_of_camp_answers_the_exhaustion_of_expiration(wilds: Expedition) -> None:
    """Wilderness › Event Roll: Exhaustion, rest for a turn or add a Fatigue each."""
    run(wilds, "turn road events=4 expiration=1", "turn camp events=6")
    assert {m.name: dict(m.tracks)["fatigue"] for m in wilds.state.party} == {"Ash": 0, "Bryn": 0}


def test_a_detailed_search_takes_a_turn_and_a_quick_one_a_moment(party: Expedition) -> None:
    """Dungeon › Searching: a quick search is a minute and only the obvious; a detailed
    search is a whole 10-minute turn."""
    quick = party.execute("do quick-search")
    assert party.state.minutes == 0 and not of(quick, ev.TurnStarted)
    party.execute("turn search")
    assert party.state.minutes == 10


@pytest.mark.parametrize("action", ["reorient", "interact"])
def test_reorienting_or_staying_put_takes_a_turn_and_rolls_only_the_event_die(
    wilds: Expedition, action: str
) -> None:
    """Wilderness › Actions: Reorientation (a lost party spends the next turn) and Interact
    (staying where the party is) are a whole 4-hour turn each, with no chance to roll."""
    batch = wilds.execute(f"turn {action} events=6")
    assert rolled(batch) == ["events"] and wilds.state.minutes == 240


def test_hunger_is_a_ration_each_or_a_fatigue_each(wilds: Expedition) -> None:
    """Wilderness › Event Roll, Expiration 3-4, Hunger: eat a ration or add 1 Fatigue: the
    party's choice, asked, and nothing saved without it."""
    with pytest.raises(CommandError, match="add hunger=ration or hunger=fatigue"):
        wilds.execute("turn road events=4 expiration=3")
    wilds.execute("turn road events=4 expiration=3 hunger=fatigue")
    rations = {m.name: dict(m.resources)["rations"] for m in wilds.state.party}
    fatigue = {m.name: dict(m.tracks)["fatigue"] for m in wilds.state.party}
    assert rations == {"Ash": 3, "Bryn": 3} and fatigue == {"Ash": 1, "Bryn": 1}


@pytest.mark.parametrize(("face", "side"), [(1, "North"), (3, "South-east"), (6, "North-west")])
def test_a_lost_party_goes_off_course_by_a_d6_clockwise_from_north(
    wilds: Expedition, face: int, side: str
) -> None:
    """Wilderness › Actions, Off-Course: number the adjacent hexes from north clockwise and
    roll 1d6: the party moves one hex that way."""
    batch = wilds.execute(f"turn travel lost=1 off-course={face} events=6")
    read = [r.label for r in of(batch, ev.ResultRead) if r.key == "off-course"]
    assert read == [side]


def test_a_lost_party_reorients_before_it_travels_on(wilds: Expedition) -> None:
    """Wilderness › Actions, Reorientation: if the party gets lost, it needs to spend the
    next turn reorienting: no Travel is taken until it has, and nothing is saved."""
    wilds.execute("turn travel lost=1 off-course=4 events=6")
    for action in ("travel", "road", "difficult", "treacherous"):
        with pytest.raises(CommandError, match="refused: a lost party spends the next turn"):
            wilds.execute(f"turn {action} events=6")
    wilds.execute("turn reorient events=6")
    wilds.execute("turn travel lost=6 events=6")
    assert wilds.state.turn == 3
