"""The shipped shadowdark procedure, rule by rule, as a GM would check it against the book.

The text is the Shadowdark RPG (The Arcane Library), its Quickstart Set's Player and Game
Master guides: crawling rounds; a d6 random encounter check, an encounter on a 1, every 3
rounds while unsafe, every 2 while risky, every round while deadly or in total darkness;
torches and lanterns burning one hour of real time (ten rounds when real time is not
kept); the starting distance close, near or far; what the creatures are doing; the 2d6
reaction check with the speaker's CHA modifier; rests of eight hours on a ration, spoiled
by a failed CON check after an interruption, checked for encounters by hours. Each test's
docstring names the section and rule it follows. The book is not under an open licence:
the procedure keeps its mechanics only, in delvetui's words.
"""

from __future__ import annotations

import datetime as dt

import pytest

from delvetui.core import events as ev
from delvetui.core import players
from delvetui.errors import CommandError
from delvetui.session import Expedition
from tests.conftest import Factory, of, replays_the_same, rolled, run

MOMENT = dt.datetime(2026, 11, 26, 20, 0, tzinfo=dt.UTC)


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    made = expedition("shadowdark", seed=7)
    run(
        made,
        "enter crawl",
        "pc add Ash hp=8 CHA=14 CON=12 DEX=15 WIS=11",
        "pc add Bo hp=5 CHA=4 CON=8",
        "light add torch count=6 carrier=Ash",
        "light add lantern carrier=Bo",
        "light on torch",
    )
    return made


def labels(batch: object, key: str = "hazard") -> list[str]:
    return [r.label for r in of(batch, ev.ResultRead) if r.key == key]  # type: ignore[arg-type]


def quiet(x: Expedition, count: int) -> list[int]:
    """Take `count` crawling rounds typing a 6 on every check that comes; say which did."""
    made = []
    for _ in range(count):
        try:
            x.execute("turn crawl hazard=6")
            made.append(x.state.turn)
        except CommandError:
            x.execute("turn crawl")
    return made


# ---- Crawling and time -------------------------------------------------------------------


def test_a_crawling_round_is_the_turn_below_ground(party: Expedition) -> None:
    """Crawling: characters are in crawling rounds while not in combat; Time, Real Time:
    without real time an hour is ten rounds, so a round moves the clock six minutes."""
    started = of(party.execute("turn crawl"), ev.TurnStarted)[0]
    assert (started.action, started.turn_type) == ("crawl", "crawl")
    quiet(party, 9)
    assert party.state.clock_text == "09:00"


# ---- Random encounters -------------------------------------------------------------------


def test_unsafe_checks_every_three_rounds(party: Expedition) -> None:
    """Random Encounters, How Often?: unsafe, a check every 3 crawling rounds."""
    assert party.state.counter("danger") == 1  # unsafe
    assert quiet(party, 9) == [3, 6, 9]


def test_risky_checks_every_two_rounds(party: Expedition) -> None:
    """Random Encounters, How Often?: risky, a check every 2 crawling rounds."""
    party.execute("counter set danger risky")
    assert quiet(party, 6) == [2, 4, 6]


def test_deadly_checks_every_round(party: Expedition) -> None:
    """Random Encounters, How Often?: deadly, a check every crawling round."""
    party.execute("counter set danger deadly")
    assert quiet(party, 4) == [1, 2, 3, 4]


def test_total_darkness_is_deadly(party: Expedition) -> None:
    """Crawling, Total Darkness: the environment becomes deadly, a check every round; the
    unsafe count starts again when the light comes back."""
    quiet(party, 2)
    party.execute("light off torch2")
    assert party.state.light_level == "dark"
    assert quiet(party, 3) == [3, 4, 5]
    party.execute("light on torch2")
    assert quiet(party, 4) == [8]


def test_a_safe_place_has_no_checks(party: Expedition) -> None:
    """Random Encounters, How Often? (reading): a place the GM judges safe has no checks."""
    party.execute("counter set danger safe")
    assert quiet(party, 6) == []


@pytest.mark.parametrize(("die", "met"), [(1, True), (2, False), (6, False)])
def test_an_encounter_comes_on_a_1(party: Expedition, die: int, met: bool) -> None:
    """Random Encounters, How Often?: the GM rolls 1d6; an encounter on a 1."""
    run(party, "turn crawl", "turn crawl")
    extra = " how-far=3 activity=7 reaction=9" if met else ""
    batch = party.execute(f"turn crawl hazard={die}{extra}")
    assert bool(of(batch, ev.EncounterBegan)) is met
    assert labels(batch) == ["Encounter" if met else "No encounter"]


def test_a_check_typed_on_a_round_without_one_is_refused(party: Expedition) -> None:
    """Random Encounters, How Often?: no check between the danger level's rounds; a typed
    result for one is refused and saves nothing."""
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="hazard="):
        party.execute("turn crawl hazard=1")
    assert (party.state, party.event_count) == before


@pytest.mark.parametrize(("die", "distance"), [(1, "close"), (2, "near"), (4, "near"), (5, "far")])
def test_the_starting_distance_is_close_near_or_far(
    party: Expedition, die: int, distance: str
) -> None:
    """Random Encounters, Starting Distance: 1d6, 1 close, 2-4 near, 5-6 far."""
    party.execute("counter set danger deadly")
    batch = party.execute(f"turn crawl hazard=1 how-far={die} activity=7 reaction=9")
    assert of(batch, ev.EncounterBegan)[0].distance == distance


@pytest.mark.parametrize(
    ("total", "doing"),
    [
        (2, "Hunting"),
        (5, "Eating"),
        (8, "Building or nesting"),
        (9, "Socializing or playing"),
        (11, "Guarding"),
        (12, "Sleeping"),
    ],
)
def test_what_the_creatures_are_doing(party: Expedition, total: int, doing: str) -> None:
    """Random Encounters, What is it Doing?: 2d6 for the creatures' activity."""
    party.execute("counter set danger deadly")
    batch = party.execute(f"turn crawl hazard=1 how-far=3 activity={total} reaction=9")
    assert labels(batch, "activity") == [doing]


@pytest.mark.parametrize(
    ("total", "attitude"),
    [
        (2, "Hostile"),
        (6, "Hostile"),
        (7, "Suspicious"),
        (8, "Suspicious"),
        (9, "Neutral"),
        (10, "Curious"),
        (11, "Curious"),
        (12, "Friendly"),
    ],
)
def test_the_reaction_check(party: Expedition, total: int, attitude: str) -> None:
    """Random Encounters, Reaction Check: 2d6, 0-6 hostile, 7-8 suspicious, 9 neutral,
    10-11 curious, 12 or more friendly."""
    party.execute("counter set danger deadly")
    batch = party.execute(f"turn crawl hazard=1 how-far=3 activity=7 reaction={total}")
    assert labels(batch, "reaction") == [attitude]


@pytest.mark.parametrize(
    ("cha", "face", "total", "attitude"),
    [
        (14, 5, 7, "Suspicious"),
        (18, 8, 12, "Friendly"),
        (10, 9, 9, "Neutral"),
        (8, 10, 9, "Neutral"),
        (6, 2, 0, "Hostile"),
    ],
)
def test_the_speakers_charisma_modifier_is_added(
    party: Expedition, cha: int, face: int, total: int, attitude: str
) -> None:
    """Random Encounters, Reaction Check: a character who speaks to the creatures at once
    adds their CHA modifier to the 2d6."""
    party.execute(f"pc add Cole hp=4 CHA={cha}")
    batch = party.execute(f"do parley by=Cole reaction={face}")
    result = of(batch, ev.ResultRead)[0]
    assert (result.total, result.label) == (total, attitude)


@pytest.mark.parametrize(
    ("cha", "face", "attitude"),
    [(4, 12, "Neutral"), (4, 10, "Suspicious"), (3, 10, "Hostile"), (3, 11, "Suspicious")],
)
def test_a_speaker_of_very_low_charisma(
    party: Expedition, cha: int, face: int, attitude: str
) -> None:
    """Random Encounters, Reaction Check: CHA 4-5 subtracts 3 and CHA 3 or less 4, on a
    2d6 read on the table moved by the modifier."""
    party.execute(f"pc add Cole hp=4 CHA={cha}")
    key = "reaction-cha-3" if cha == 4 else "reaction-cha-4"
    batch = party.execute(f"do parley by=Cole {key}={face}")
    assert labels(batch, key) == [attitude]


def test_minutes_passing_check_once_on_1_to_3(party: Expedition) -> None:
    """Time, Time Passes: when minutes pass, one encounter check that comes on 1-3."""
    batch = party.execute(
        "turn pass-time minutes=10 time-passes=3 how-far=6 activity=12 reaction=12"
    )
    assert labels(batch, "time-passes") == ["Encounter"]
    assert of(batch, ev.EncounterBegan)[0].distance == "far"
    batch = party.execute("turn pass-time minutes=10 time-passes=4")
    assert labels(batch, "time-passes") == ["No encounter"]


def test_minutes_passing_on_a_due_round_make_only_the_one_check(party: Expedition) -> None:
    """Time, Time Passes: one encounter check covers the minutes that pass, even on a round
    the danger level's check would come."""
    run(party, "turn crawl", "turn crawl")
    assert rolled(party.execute("turn pass-time minutes=10 time-passes=6")) == ["time-passes"]
    assert quiet(party, 3) == [6]


def test_minutes_pass_take_the_time_the_gm_says(party: Expedition) -> None:
    """Time, Time Passes: the table agrees how much time passes, and the GM and players
    move every timer down by that amount: the clock, a torch's real hour, a light burning
    by rounds and a timer in minutes all move on by the 30 minutes said."""
    party.execute("timer add rope 50m")
    party.execute("turn pass-time minutes=30 time-passes=6")
    state = party.state
    assert state.clock_text == "08:30" and state.minutes == 30
    torch2 = state.light("torch2")
    assert torch2 is not None and torch2.real_seconds == 30 * 60
    rope = state.timer("rope")
    assert rope is not None and rope.left == 20
    # A table that keeps no real time: the torch burns by rounds, and loses the 30 minutes.
    run(party, "light off torch2", "light realtime torch1 off", "light on torch1")
    party.execute("turn pass-time minutes=30 time-passes=6")
    torch3 = party.state.light("torch3")
    assert torch3 is not None and torch3.real_seconds is None and torch3.minutes == 30


def test_minutes_passing_asks_how_long_and_writes_nothing_without_it(
    party: Expedition,
) -> None:
    """Time, Time Passes: how long is the table's to say; a command without it is refused
    and nothing is saved."""
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="minutes=N"):
        party.execute("turn pass-time time-passes=6")
    assert (party.state, party.event_count) == before


def test_minutes_passing_end_effects_lasting_rounds(party: Expedition) -> None:
    """Time, Time Passes, Minutes Pass: effects with a duration of rounds expire."""
    run(party, "pc Ash +blinded:3", "timer add web 4t", "timer add bell 2h")
    batch = party.execute("turn pass-time minutes=10 time-passes=6")
    ash = party.state.member("Ash")
    assert ash is not None and "blinded" not in ash.conditions
    assert party.state.timer("web") is None and party.state.timer("bell") is not None
    assert [e.name for e in of(batch, ev.TimerEnded)] == ["web"]


def test_minutes_passing_can_burn_a_real_hour_out(party: Expedition) -> None:
    """Time, Time Passes; Crawling, Light Sources: a torch's real hour runs out when more
    minutes pass than it has left, and the party is in the dark."""
    party.execute("realtime pass 40m", now=MOMENT)
    batch = party.execute("turn pass-time minutes=30 time-passes=6")
    assert [e.id for e in of(batch, ev.LightPutOut)] == ["torch2"]
    assert party.state.light_level == "dark"


def test_a_loud_disturbance_may_bring_a_check(party: Expedition) -> None:
    """Random Encounters, How Often?: the GM might also check after a loud disturbance."""
    batch = party.execute("do disturbance disturbance=1 how-far=1 activity=2 reaction=2")
    assert of(batch, ev.EncounterBegan)[0].distance == "close"
    assert party.state.turn == 0


def test_half_the_creatures_carry_no_treasure(party: Expedition) -> None:
    """Random Encounters, Treasure: a 50% chance the creatures met have no treasure."""
    assert labels(party.execute("do treasure treasure=1"), "treasure") == ["no treasure"]
    assert labels(party.execute("do treasure treasure=2"), "treasure") == ["treasure"]


# ---- Stealth and surprise ----------------------------------------------------------------


def test_sneaking_is_a_dex_check_against_the_gms_dc(party: Expedition) -> None:
    """Stealth and Surprise, Hiding and Sneaking: a DEX check to go undetected; Surprise:
    the undetected has surprise."""
    batch = party.execute("do sneak by=Ash dc=12 sneak=10")
    assert any("undetected" in e.text for e in of(batch, ev.Logged))
    with pytest.raises(CommandError, match="dc="):
        party.execute("do sneak by=Ash")


def test_the_gm_may_roll_the_sneaking_check_in_secret(party: Expedition) -> None:
    """Stealth and Surprise, Hiding and Sneaking: the GM may make the check in secret: the
    players' screen shows no roll, so a success and a failure look alike there."""
    party.execute("do sneak by=Ash dc=12 sneak=18")
    seen = players.view(party.state, party.procedure).lines()
    party.execute("undo")
    party.execute("do sneak by=Ash dc=12 sneak=2")
    assert players.view(party.state, party.procedure).lines() == seen


def test_total_darkness_gives_disadvantage(party: Expedition) -> None:
    """Crawling, Total Darkness: disadvantage on most tasks."""
    party.execute("light off torch2")
    batch = party.execute("do spot by=Ash dc=12 spot=5,15")
    assert of(batch, ev.DiceRolled)[0].expression.startswith("2d20kl1")


# ---- Light -------------------------------------------------------------------------------


def test_a_torch_burns_one_hour_of_real_time(party: Expedition) -> None:
    """Crawling, Light Sources; Gear, Torch: a torch burns one hour of real time, and the
    rounds taken do not burn it."""
    quiet(party, 12)
    torch = party.state.light("torch2")
    assert torch is not None and torch.lit and torch.real_seconds == 3600
    party.execute("realtime pass 59m", now=MOMENT)
    assert party.state.light_level == "bright"
    party.execute("realtime pass 1m", now=MOMENT)
    assert party.state.light_level == "dark"
    torch = party.state.light("torch2")
    assert torch is not None and torch.spent


def test_a_lanterns_flask_of_oil_burns_one_hour_of_real_time(party: Expedition) -> None:
    """Gear, Lantern and Oil flask: a flask keeps a lantern lit one hour of real time."""
    run(party, "light off torch2", "pc Bo +1 oil", "light on lantern1")
    party.execute("realtime pass 60m", now=MOMENT)
    lantern = party.state.light("lantern1")
    assert lantern is not None and not lantern.lit
    party.execute("light refuel lantern1")
    lantern = party.state.light("lantern1")
    assert lantern is not None and lantern.real_seconds == 3600
    bo = party.state.member("Bo")
    assert bo is not None and dict(bo.resources).get("oil", 0) == 0


def test_without_real_time_a_torch_burns_ten_rounds(party: Expedition) -> None:
    """Time, Real Time: a table that cannot keep real time counts an hour as ten rounds
    (`light realtime ID off` on the stack before lighting)."""
    run(party, "light off torch2", "light realtime torch1 off", "light on torch1")
    lit = party.state.lit_lights[0]
    quiet(party, 9)
    assert party.state.light(lit.id) is not None and party.state.light_level == "bright"
    quiet(party, 1)
    assert party.state.light_level == "dark"


@pytest.mark.parametrize(("camp", "hour"), [("travel", "turn travel"), ("camp", "turn rest")])
def test_hours_passing_take_an_hour_off_a_torchs_real_hour(
    party: Expedition, camp: str, hour: str
) -> None:
    """Time, Time Passes, Hours Pass: the world jumps to the new time, and every timer moves
    down by it: an hour of travel or of rest takes an hour off a torch burning in real
    time, which goes out."""
    party.execute("realtime pass 20m", now=MOMENT)
    party.execute(f"enter {camp}")
    batch = party.execute(hour)
    assert [e.id for e in of(batch, ev.LightPutOut)] == ["torch2"]
    assert party.state.light_level == "dark"


def test_a_light_lit_while_another_burns_rides_along_on_its_timer(party: Expedition) -> None:
    """Crawling, Light Sources: new light sources lit while another is already active ride
    along on the current timer: the lantern lit 25 real minutes into the torch's hour goes
    out with it."""
    party.execute("realtime pass 25m", now=MOMENT)
    run(party, "pc Bo +1 oil", "light on lantern1")
    lantern = party.state.light("lantern1")
    assert lantern is not None and lantern.real_seconds == 35 * 60
    party.execute("realtime pass 35m", now=MOMENT)
    assert party.state.light_level == "dark"


def test_the_gm_may_snuff_the_old_lights_and_start_a_new_timer(party: Expedition) -> None:
    """Crawling, Light Sources: with little time left, the GM snuffs the old lights before
    the new torch is lit, which then starts a timer of its own, a whole hour."""
    party.execute("realtime pass 55m", now=MOMENT)
    run(party, "light off torch2", "light on torch")
    lit = party.state.lit_lights
    assert [light.real_seconds for light in lit] == [3600]


def test_three_torches_make_a_campfire(party: Expedition) -> None:
    """Resting, Campfire: a campfire is made of three torches: adding one takes three of
    the party's unlit torches, and with fewer it is refused and nothing changes."""
    assert party.state.light("torch1") is not None
    run(party, "enter camp", "light add campfire lit")
    stack = party.state.light("torch1")
    assert stack is not None and stack.count == 2
    assert party.state.light("campfire1") is not None
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="made of 3 torches; the party has 2 unlit"):
        party.execute("light add campfire")
    assert (party.state, party.event_count) == before


def test_a_campfire_lasts_eight_hours_of_rest(party: Expedition) -> None:
    """Resting, Campfire: three torches make a campfire that lasts up to 8 hours."""
    run(party, "light off torch2", "enter camp", "light add campfire lit")
    for hour in range(8):
        party.execute("turn rest hazard=6" if (hour + 1) % 3 == 0 else "turn rest")
        assert (party.state.light_level == "bright") is (hour < 7)


# ---- Resting -----------------------------------------------------------------------------


def rations(x: Expedition, name: str) -> int:
    member = x.state.member(name)
    assert member is not None
    return dict(member.resources).get("rations", 0)


def rest_hours(x: Expedition, count: int) -> None:
    for _ in range(count):
        try:
            x.execute("turn rest hazard=6")
        except CommandError:
            x.execute("turn rest")


def test_a_rest_is_eight_hours_on_a_ration_and_restores_all_hp(party: Expedition) -> None:
    """Resting: to rest, eat a ration and sleep 8 hours; success gives back all lost hit
    points."""
    run(party, "enter camp", "light add campfire lit", "pc Ash hp=2")
    rest_hours(party, 7)
    ash = party.state.member("Ash")
    assert ash is not None and ash.hp == 2 and rations(party, "Ash") == 2
    rest_hours(party, 1)
    ash = party.state.member("Ash")
    assert ash is not None and ash.hp == 8 and rations(party, "Ash") == 2


def test_sleeping_on_after_a_rest_eats_nothing(party: Expedition) -> None:
    """Resting (reading): a rest is eight hours on one ration; a character who sleeps on
    after it starts no new rest until the party takes up crawling or travel again."""
    run(party, "enter camp", "light add campfire lit")
    rest_hours(party, 10)
    assert rations(party, "Ash") == 2
    run(party, "enter crawl", "turn crawl", "enter camp")
    rest_hours(party, 1)
    assert rations(party, "Ash") == 1


def test_no_ration_no_rest(party: Expedition) -> None:
    """Resting: a character must eat a ration to rest."""
    run(party, "enter camp", "light add campfire lit", "pc Bo hp=1", "pc Bo rations=0")
    rest_hours(party, 8)
    bo = party.state.member("Bo")
    assert bo is not None and bo.hp == 1 and "unfed" in bo.conditions


def test_an_interruption_needs_a_con_check(party: Expedition) -> None:
    """Resting, Interruption: each stressful interruption needs a DC 12 CON check; on a
    failure the ration is eaten but the rest gives nothing."""
    run(party, "enter camp", "light add campfire lit", "pc Ash hp=2", "pc Bo hp=1")
    rest_hours(party, 2)
    batch = party.execute(
        "turn rest hazard=1 how-far=5 activity=12 reaction=3 interrupted.Ash=15 interrupted.Bo=4"
    )
    assert [e.name for e in of(batch, ev.ConditionGained)] == ["Bo"]
    rest_hours(party, 5)
    ash, bo = party.state.member("Ash"), party.state.member("Bo")
    assert ash is not None and ash.hp == 8 and rations(party, "Ash") == 2
    assert bo is not None and bo.hp == 1 and rations(party, "Bo") == 1


def test_any_stressful_interruption_needs_the_check(party: Expedition) -> None:
    """Resting, Interruption: every stressful interruption, not only an encounter, calls
    for the DC 12 CON check; a failure spoils that character's rest alone."""
    run(party, "enter camp", "light add campfire lit", "pc Ash hp=2", "pc Bo hp=1")
    rest_hours(party, 4)
    party.execute("do interrupt interrupted.Ash=3 interrupted.Bo=18")
    rest_hours(party, 4)
    ash, bo = party.state.member("Ash"), party.state.member("Bo")
    assert bo is not None and bo.hp == 5
    assert ash is not None and ash.hp == 2 and rations(party, "Ash") == 1


def test_resting_checks_for_encounters_by_hours(party: Expedition) -> None:
    """Resting, Danger Level: in a dangerous place, encounters are checked by the overland
    cadence: unsafe every 3 hours, risky every 2, deadly every hour."""
    run(party, "enter camp", "light add campfire lit")
    checked = []
    for _ in range(6):
        batch = (
            party.execute("turn rest hazard=6")
            if (party.state.turn + 1) % 3 == 0
            else (party.execute("turn rest"))
        )
        if "hazard" in rolled(batch):
            checked.append(party.state.clock_text)
    assert checked == ["11:00", "14:00"]  # the ends of hours 3 and 6


def test_travel_checks_by_hours(party: Expedition) -> None:
    """Random Encounters, How Often?: for overland travel, hours in place of rounds."""
    run(
        party,
        "enter travel",
        "light off torch2",
        "light add daylight lit",
        "counter set danger risky",
    )
    checked = []
    for _ in range(4):
        try:
            party.execute("turn travel hazard=6")
            checked.append(party.state.clock_text)
        except CommandError:
            party.execute("turn travel")
    assert checked == ["10:00", "12:00"]


def test_a_replayed_file_gives_the_same_state(party: Expedition) -> None:
    """The whole crawl, rest and light survive closing and opening the file."""
    quiet(party, 4)
    run(party, "enter camp", "light add campfire lit")
    rest_hours(party, 3)
    replays_the_same(party)
