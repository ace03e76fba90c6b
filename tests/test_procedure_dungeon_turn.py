"""The dungeon-turn procedure (seed 002) as a game master plays it."""

from __future__ import annotations

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError
from delvetui.procedure.registry import find, shipped_dir
from delvetui.session import Expedition
from tests.conftest import Factory, reopened, run
from tests.conftest import of as events

EXHAUSTED = "exhausted"


def labels(expedition: Expedition) -> dict[str, str]:
    """Each member's step on the fatigue ladder, by name."""
    ladder = expedition.procedure.party.fatigue
    return {member.name: ladder[member.fatigue] for member in expedition.state.party}


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    """Ash (STR 14, INT 12, WIS 16) and Bo (no scores) with a lit torch."""
    x = expedition("dungeon-turn", seed=2)
    run(
        x,
        "pc add Ash hp=10 STR=14 INT=12 WIS=16",
        "pc add Bo hp=6",
        "light add torch count=3 carrier=Ash",
        "light on torch",
    )
    return x


def free_turns(expedition: Expedition, count: int, action: str = "explore") -> None:
    """Turns where the hazard die shows 6: nothing happens."""
    for _ in range(count):
        expedition.execute(f"turn {action} hazard=6")


def past_the_first_hour(expedition: Expedition) -> None:
    """Six quiet turns: the torch still burns (only the die puts lights out)."""
    free_turns(expedition, 6)


# The file ---------------------------------------------------------------------------------


def test_the_file_names_its_source_and_its_defaults() -> None:
    procedure = find("dungeon-turn")
    assert procedure.source == "Dungeon Turn"
    assert list(procedure.actions) == [
        "explore",
        "walk",
        "run",
        "search",
        "rest",
        "harvest",
        "leave",
    ]
    assert procedure.default_action == "explore"
    assert procedure.summary and "\n" not in procedure.summary
    text = (shipped_dir() / "dungeon-turn.toml").read_text(encoding="utf-8")
    assert text.startswith("#") and "002_67113adfbcb86313.txt" in text
    assert "default" in text


def test_the_hazard_die_is_rolled_after_the_action_every_turn(party: Expedition) -> None:
    batch = party.execute("turn harvest hd=2 by=Ash harvest=15 hazard=6")
    kinds = [type(event).__name__ for event in batch.events]
    assert kinds.index("CheckMade") < kinds.index("ResultRead")
    assert [r.key for r in events(batch, ev.DiceRolled)] == ["harvest", "hazard"]
    assert party.state.turn == 1 and party.state.clock_text == "08:10"


def test_exploring_moves_3_zones(party: Expedition) -> None:
    started = events(party.execute("turn hazard=6"), ev.TurnStarted)[0]
    assert (started.action, started.distance) == ("explore", "3 zones")
    assert "maps" in started.flags


def test_walking_and_running_cover_20_and_200_zones_and_spring_surprises(
    party: Expedition,
) -> None:
    """002, Movement: "a character could cover 20 zones walking at a normal pace or 200
    zones while running ... moving through unknown areas will trigger surprises and traps"."""
    for action, zones in (("walk", "20 zones"), ("run", "200 zones")):
        started = events(party.execute(f"turn {action} hazard=6"), ev.TurnStarted)[0]
        assert started.distance == zones
        assert "unknown areas trigger surprises and traps" in started.flags
        assert "maps" not in started.flags
    assert party.state.turn == 2 and party.state.clock_text == "08:20"


def test_a_search_takes_one_turn_and_the_hazard_die_follows(party: Expedition) -> None:
    """002, Searching: the text gives a search no length; it is one dungeon turn, and the
    hazard die is rolled after it like any action."""
    batch = party.execute("turn search hazard=6")
    assert sum(isinstance(e, ev.TurnEnded) for e in batch.events) == 1
    assert [r.key for r in events(batch, ev.DiceRolled)] == ["hazard"]
    assert party.state.clock_text == "08:10"


# The Dungeon Hazard Die -------------------------------------------------------------------


def test_an_encounter_appears_far_away_moving_toward_the_party(party: Expedition) -> None:
    """002: "1 Encounter. A wandering monster appears at a far distance, moving toward the
    party." The distance is in the log and on the players' screen."""
    batch = party.execute("turn hazard=1 disposition=7")
    began = events(batch, ev.EncounterBegan)[0]
    assert began.distance == "far" and "moving toward the party" in began.text
    assert party.state.encounter_distance == "far"


def test_a_6_is_free_nothing_happens(party: Expedition) -> None:
    """002: "6 Free. Nothing happens." (after the first six turns too)."""
    past_the_first_hour(party)
    before = party.state
    batch = party.execute("turn hazard=6")
    kinds = {type(e).__name__ for e in batch.events}
    assert kinds <= {"TurnStarted", "DiceRolled", "ResultRead", "TurnEnded", "LightsBurned"}
    assert party.state.party == before.party and party.state.lights == before.lights
    assert party.state.encounter is None and party.state.sign is None


DISPOSITIONS = {
    2: "Hostile",
    3: "Hostile",
    4: "Unfriendly",
    5: "Unfriendly",
    6: "Uninterested",
    7: "Uninterested",
    8: "Uninterested",
    9: "Polite",
    10: "Polite",
    11: "Friendly",
    12: "Friendly",
}


def test_an_encounter_rolls_2d6_for_disposition(party: Expedition) -> None:
    for total, disposition in DISPOSITIONS.items():
        batch = party.execute(f"turn hazard=1 disposition={total}")
        assert len(events(batch, ev.EncounterBegan)) == 1
        read = {r.key: r for r in events(batch, ev.ResultRead)}
        assert read["disposition"].label == disposition, total
        rolled = {r.key: r for r in events(batch, ev.DiceRolled)}
        assert rolled["disposition"].expression == "2d6"
        hazard = party.state.last_hazard
        assert hazard is not None and hazard.result == "Encounter"


def test_disposition_2d6_of_7_is_uninterested(party: Expedition) -> None:
    batch = party.execute("turn hazard=1 disposition=7")
    read = events(batch, ev.ResultRead)
    assert [(r.key, r.total, r.label) for r in read] == [
        ("hazard", 1, "Encounter"),
        ("disposition", 7, "Uninterested"),
    ]


def test_an_encounter_in_the_first_turn_happens(party: Expedition) -> None:
    batch = party.execute("turn hazard=1 disposition=7")
    assert events(batch, ev.ResultRead)[0].ignored == ""
    assert party.state.encounter is not None


def test_a_2_makes_everyone_tired_unless_the_party_rests_next_turn(party: Expedition) -> None:
    party.execute("turn hazard=2")
    assert labels(party) == {"Ash": "fresh", "Bo": "fresh"}
    assert len(party.state.pending) == 1
    batch = party.execute("turn hazard=6")
    assert [r.applied for r in events(batch, ev.DeferredResolved)] == [True]
    assert labels(party) == {"Ash": "tired", "Bo": "tired"}


def test_a_fatigue_result_is_cancelled_when_the_party_rests_next_turn(
    party: Expedition,
) -> None:
    party.execute("turn hazard=2")
    batch = party.execute("turn rest hazard=6")
    assert [r.applied for r in events(batch, ev.DeferredResolved)] == [False]
    assert labels(party) == {"Ash": "fresh", "Bo": "fresh"}


def test_a_2_while_resting_is_ignored(party: Expedition) -> None:
    batch = party.execute("turn rest hazard=2")
    assert events(batch, ev.ResultRead)[0].ignored == "while resting"
    assert party.state.pending == ()


def test_tired_becomes_exhausted_which_rolls_at_disadvantage(party: Expedition) -> None:
    run(party, "turn hazard=2", "turn hazard=2", "turn hazard=6")
    assert labels(party) == {"Ash": EXHAUSTED, "Bo": EXHAUSTED}
    run(party, "turn hazard=2", "turn hazard=6")
    assert labels(party) == {"Ash": EXHAUSTED, "Bo": EXHAUSTED}  # the ladder ends
    batch = party.execute("turn harvest hd=0 by=Ash harvest=18,3 hazard=6")
    roll = events(batch, ev.DiceRolled)[0]
    assert roll.expression == "2d20kl1+1" and roll.total == 4
    assert not events(batch, ev.CheckMade)[0].success


def test_a_tired_member_rolls_normally(party: Expedition) -> None:
    run(party, "turn hazard=2", "turn hazard=6")
    batch = party.execute("turn harvest hd=0 by=Ash harvest=9 hazard=6")
    assert events(batch, ev.DiceRolled)[0].expression == "d20+1"


def test_a_3_is_a_sign_the_game_master_may_describe(party: Expedition) -> None:
    batch = party.execute("turn hazard=3 sign=kobold-spoor")
    assert [sign.text for sign in events(batch, ev.SignFound)] == ["kobold-spoor"]
    assert party.state.sign is None  # the text does not carry it to the next encounter


def test_the_first_6_turns_ignore_4_to_6(party: Expedition) -> None:
    for turn, face in enumerate((4, 5, 6, 5, 4, 5), start=1):
        batch = party.execute(f"turn hazard={face}")
        assert events(batch, ev.ResultRead)[0].ignored == "during the first 6 turns", turn
        assert events(batch, ev.Logged) == [] and events(batch, ev.LightDimmed) == []
    assert not any(light.dimmed for light in party.state.lights)


def test_the_first_6_turns_ignore_a_5_then_depletion_dims_the_torch(party: Expedition) -> None:
    free_turns(party, 5)
    sixth = party.execute("turn hazard=5")
    assert events(sixth, ev.ResultRead)[0].ignored == "during the first 6 turns"
    assert events(sixth, ev.LightDimmed) == []
    batch = party.execute("turn hazard=5")
    assert events(batch, ev.ResultRead)[0].ignored == ""
    assert [d.id for d in events(batch, ev.LightDimmed)] == ["torch2"]
    assert party.state.light_level == "dim"


def test_a_4_after_the_first_hour_is_a_local_effect(party: Expedition) -> None:
    past_the_first_hour(party)
    batch = party.execute("turn hazard=4")
    assert [log.text for log in events(batch, ev.Logged)] == [
        "Something unique to the dungeon happens."
    ]


def test_depletion_dims_bright_lights_and_puts_dim_lights_out(party: Expedition) -> None:
    past_the_first_hour(party)
    run(party, "light add candle lit carrier=Bo", "light add lantern lit")
    party.execute("turn hazard=5")
    states = {light.id: light.state for light in party.state.lights if not light.spent}
    assert states == {"torch1": "out", "torch2": "dim"}  # torch1 is the unlit spare
    spent = {light.id for light in party.state.lights if light.spent}
    assert spent == {"candle1", "lantern1"}
    assert party.state.light_level == "dim"
    party.execute("turn hazard=5")
    assert party.state.light_level == "dark"


# Lights -----------------------------------------------------------------------------------


def test_light_kinds_their_brightness_and_no_timers(party: Expedition) -> None:
    lights = find("dungeon-turn").lights
    assert {kind: light.brightness for kind, light in lights.items()} == {
        "torch": "bright",
        "candle": "dim",
        "lantern": "dim",
    }
    assert lights["candle"].can_blow_out and not lights["lantern"].can_blow_out
    run(party, "light add candle", "light add lantern")
    minutes = {light.kind: light.minutes for light in party.state.lights}
    assert minutes == {"torch": None, "candle": None, "lantern": None}


def test_a_candle_alone_gives_dim_light(party: Expedition) -> None:
    run(party, "light off torch2", "light add candle lit")
    assert party.state.light_level == "dim"


# Resting ----------------------------------------------------------------------------------


def test_an_hour_of_rest_heals_1d8_plus_str_modifier(party: Expedition) -> None:
    run(party, "pc Ash hp=1", "pc Bo hp=1")
    for _ in range(5):
        batch = party.execute("turn rest hazard=6")
        assert events(batch, ev.HpChanged) == []
    batch = party.execute("turn rest hazard=6 heal.Ash=5 heal.Bo=3")
    rolls = {r.key: r.expression for r in events(batch, ev.DiceRolled)}
    assert rolls["heal.Ash"] == "d8+2" and rolls["heal.Bo"] == "d8"
    assert [(m.name, m.hp) for m in party.state.party] == [("Ash", 8), ("Bo", 4)]


def test_an_hour_of_rest_heals_no_more_than_maximum_hp(party: Expedition) -> None:
    party.execute("pc Ash hp=9")
    free_turns(party, 5, "rest")
    party.execute("turn rest hazard=6 heal.Ash=8 heal.Bo=8")
    assert [m.hp for m in party.state.party] == [10, 6]


def test_broken_rest_does_not_heal(party: Expedition) -> None:
    party.execute("pc Ash hp=1")
    free_turns(party, 5, "rest")
    party.execute("turn explore hazard=6")
    batch = party.execute("turn rest hazard=6")
    assert events(batch, ev.HpChanged) == [] and party.state.party[0].hp == 1


# Harvesting -------------------------------------------------------------------------------


def test_harvesting_is_int_against_10_plus_monster_hd(party: Expedition) -> None:
    batch = party.execute("turn harvest hd=4 by=Ash harvest=13 hazard=6")
    check = events(batch, ev.CheckMade)[0]
    assert (check.name, check.dc, check.total, check.success) == ("Ash", 14, 14, True)
    batch = party.execute("turn harvest hd=4 by=Bo harvest=13 hazard=6")
    check = events(batch, ev.CheckMade)[0]
    assert (check.name, check.dc, check.total, check.success) == ("Bo", 14, 13, False)
    with pytest.raises(CommandError, match="hd=N"):
        party.execute("turn harvest by=Ash hazard=6")


# Leaving the dungeon ----------------------------------------------------------------------


def test_leaving_takes_no_turn_and_rolls_no_hazard(party: Expedition) -> None:
    batch = party.execute("turn leave path=arduous length=1 rooms=1 leave.Ash=20 leave.Bo=20")
    assert events(batch, ev.TurnStarted) == []
    assert [r.key for r in events(batch, ev.DiceRolled)] == ["leave.Ash", "leave.Bo"]
    assert party.state.turn == 0 and party.state.last_hazard is None
    assert all("returns to camp" in log.text for log in events(batch, ev.Logged))


def test_leaving_asks_for_the_kind_of_journey(party: Expedition) -> None:
    with pytest.raises(CommandError, match="path=dangerous or path=arduous"):
        party.execute("turn leave length=1 rooms=1")
    with pytest.raises(CommandError, match="use one of: dangerous, arduous"):
        party.execute("turn leave path=easy length=1 rooms=1")


def test_leaving_dc_is_10_plus_length_plus_rooms(party: Expedition) -> None:
    batch = party.execute("turn leave path=arduous length=2 rooms=3 leave.Ash=20 leave.Bo=20")
    assert {check.dc for check in events(batch, ev.CheckMade)} == {15}


def test_leaving_each_rolls_their_best_modifier(party: Expedition) -> None:
    party.execute("pc add Cy hp=5 DEX=14 PROF=2")
    batch = party.execute(
        "turn leave path=arduous length=0 rooms=0 leave.Ash=10 leave.Bo=10 leave.Cy=10"
    )
    expressions = {r.key: r.expression for r in events(batch, ev.DiceRolled)}
    assert expressions == {"leave.Ash": "d20+3", "leave.Bo": "d20", "leave.Cy": "d20+4"}


def test_leaving_dc_capped_at_20_and_arduous_failure_by_3_loses_3_items(
    party: Expedition,
) -> None:
    batch = party.execute("turn leave path=arduous length=8 rooms=9 leave.Ash=14 leave.Bo=20")
    checks = {c.name: (c.dc, c.total, c.success) for c in events(batch, ev.CheckMade)}
    assert checks == {"Ash": (20, 17, False), "Bo": (20, 20, True)}
    lost = [log.text for log in events(batch, ev.Logged) if log.label == "Items lost"]
    assert len(lost) == 1 and lost[0].startswith("Ash returns to camp but loses 3 item(s)")
    assert events(batch, ev.HpChanged) == []


def test_dangerous_failure_deals_1d6_per_point_missed(party: Expedition) -> None:
    batch = party.execute(
        "turn leave path=dangerous length=3 rooms=2 leave.Ash=10 damage.Ash=7 leave.Bo=20"
    )
    rolls = {r.key: r.expression for r in events(batch, ev.DiceRolled)}
    assert rolls["damage.Ash"] == "2d6"  # DC 15, rolled 13: missed by 2
    hurt = events(batch, ev.HpChanged)
    assert [(h.name, h.hp, h.change) for h in hurt] == [("Ash", 3, -7)]
    assert "omen" not in party.state.party[0].conditions
    assert not [log for log in events(batch, ev.Logged) if log.label == "Items lost"]


def test_reduced_to_0_hp_on_the_way_out_suffers_an_omen(party: Expedition) -> None:
    batch = party.execute(
        "turn leave path=dangerous length=5 rooms=5 leave.Ash=20 leave.Bo=16 damage.Bo=9"
    )
    assert [(h.name, h.hp) for h in events(batch, ev.HpChanged)] == [("Bo", 0)]
    bo = party.state.member("Bo")
    assert bo is not None and bo.conditions == ("omen",)
    omens = [log.text for log in events(batch, ev.Logged) if log.label == "Omen"]
    assert omens == [
        "Bo is reduced to 0 hit protection: they suffer an omen and must make an omen roll."
    ]
    ash = party.state.member("Ash")
    assert ash is not None and ash.conditions == ()


# Replay -----------------------------------------------------------------------------------


def test_replaying_the_file_gives_the_same_state(party: Expedition) -> None:
    run(
        party,
        "turn hazard=2",
        "turn rest hazard=1 disposition=9",
        "turn",
        "turn harvest hd=3 by=Ash",
        "turn explore",
        "turn explore hazard=5",
        "turn explore hazard=3",
        "turn explore hazard=5",
        "turn explore hazard=2",
        "turn leave path=dangerous length=4 rooms=4",
    )
    before = party.state
    assert reopened(party).state == before
