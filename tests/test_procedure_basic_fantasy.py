"""The shipped basic-fantasy procedure, rule by rule, as a GM would check it against the text.

The text is Basic Fantasy RPG, 4th edition (CC-BY-SA 4.0): 10-minute turns, exploring at
three times the round's movement, a wandering monster on a 1 on 1d6 checked every third
turn, torches of 1d4+4 turns and a lantern's flask of 1d6+18, searching and listening on a
1 on 1d6, surprise on 1-2 and the 2d6 reaction; in the wilds a check every four hours.
"""

from __future__ import annotations

import pytest

from delvetui.application.runner import execute
from delvetui.core import events as ev
from delvetui.errors import CommandError, RollNeeded
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.conftest import Factory, of, replays_the_same, rolled, run


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    made = expedition("basic-fantasy", seed=9)
    run(
        made,
        "pc add Darion hp=7 CHA=13",
        "pc add Morningstar hp=5",
        "light add torch count=4 carrier=Darion",
        "light add lantern carrier=Morningstar",
        "light on torch",
    )
    return made


def test_a_turn_is_ten_minutes_in_the_dungeon(party: Expedition) -> None:
    assert party.state.turn_type == "dungeon"
    party.execute("turn explore")
    assert party.state.minutes == 10 and party.state.clock_text == "08:10"


@pytest.mark.parametrize(("speed", "feet"), [("40", 120), ("30", 90), ("20", 60), ("10", 30)])
def test_exploring_covers_three_times_the_rounds_movement(
    party: Expedition, speed: str, feet: int
) -> None:
    started = of(party.execute(f"turn explore speed={speed}"), ev.TurnStarted)[0]
    assert started.distance == f"{feet} feet"


def test_wandering_monsters_are_checked_every_third_turn(party: Expedition) -> None:
    checked = []
    for _ in range(9):
        batch = party.execute("turn explore")
        checked.append("hazard" in rolled(batch))
    assert checked == [False, False, True] * 3
    check = next(r for r in of(batch, ev.DiceRolled) if r.key == "hazard")
    assert check.expression == "1-in-6"


def test_a_check_typed_on_a_turn_without_one_is_refused(party: Expedition) -> None:
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="hazard="):
        party.execute("turn explore hazard=1")
    assert (party.state, party.event_count) == before


def test_a_wandering_monster_on_a_1_with_surprise_and_reaction(party: Expedition) -> None:
    run(party, "turn explore", "turn explore")
    batch = party.execute("turn explore hazard=1 monster_surprise=4 surprise=1 reaction=6")
    assert len(of(batch, ev.EncounterBegan)) == 1
    labels = [r.label for r in of(batch, ev.ResultRead)]
    # Darion leads (CHA 13: +1), so the 6 reads 7.
    assert labels == ["wandering monster", "Monsters not surprised", "Surprised", "Unfavorable"]


def test_surprise_is_rolled_for_each_side(party: Expedition) -> None:
    """Encounter › Surprise: "roll 1d6 for each side which might be surprised", 1-2 on
    1d6; the monsters' die first, then one die for the party, which a 2 surprises but for
    its Elves (their range is one less)."""
    run(party, "turn explore", "turn explore")
    batch = party.execute("turn explore hazard=1 monster_surprise=2 surprise=2 reaction=8")
    assert rolled(batch) == ["hazard", "monster_surprise", "surprise", "reaction"]
    read = {r.key: r.label for r in of(batch, ev.ResultRead)}
    assert read["monster_surprise"] == "Monsters surprised"
    assert read["surprise"] == "Surprised, but not the Elves"
    party.execute("enter wilderness")
    batch = party.execute("turn travel outdoors=1 monster_surprise=5 surprise=3 reaction=8")
    read = {r.key: r.label for r in of(batch, ev.ResultRead)}
    assert read["monster_surprise"] == "Monsters not surprised"
    assert read["surprise"] == "Not surprised"


def test_the_lead_characters_charisma_bonus_adjusts_the_reaction(
    expedition: Factory,
) -> None:
    """Encounter › Monster Reactions: 2d6 "adding the Charisma bonus of the lead
    character" (or its penalty), by the text's bonus table: CHA 16 adds 2 (not 3), so
    Ari's 2d6 of 10 is a 12, very favourable; a 9 is an 11, favourable. Another lead is
    named with by=NAME; a penalty below 2 still reads an immediate attack."""
    made = expedition("basic-fantasy", seed=3)
    run(made, "pc add Ari hp=6 CHA=16", "pc add Bo hp=5 CHA=4", "enter wilderness")
    batch = made.execute("turn travel outdoors=1 monster_surprise=5 surprise=5 reaction=4,6")
    reaction = of(batch, ev.DiceRolled)[-1]
    assert (reaction.total, reaction.modifier) == (12, 2)
    assert reaction.purpose == "Reaction, Ari's CHA"
    assert of(batch, ev.ResultRead)[-1].label == "Very favorable"
    batch = made.execute("turn travel outdoors=1 monster_surprise=5 surprise=5 reaction=9")
    assert of(batch, ev.ResultRead)[-1].label == "Favorable"
    batch = made.execute(
        "turn travel by=Bo outdoors=1 monster_surprise=5 surprise=5 reaction=3"
    )  # Bo's CHA 4: -2, and 3 - 2 = 1
    assert of(batch, ev.DiceRolled)[-1].total == 1
    assert of(batch, ev.ResultRead)[-1].label == "Immediate attack"


def test_no_wandering_monster_on_2_to_6(party: Expedition) -> None:
    run(party, "turn explore", "turn explore")
    batch = party.execute("turn explore hazard=2")
    assert not of(batch, ev.EncounterBegan) and rolled(batch) == ["hazard"]


@pytest.mark.parametrize(
    ("total", "label"),
    [(2, "Immediate attack"), (3, "Unfavorable"), (7, "Unfavorable"), (8, "Favorable"),
     (11, "Favorable"), (12, "Very favorable")],
)  # fmt: skip
def test_the_reaction_table(party: Expedition, total: int, label: str) -> None:
    run(party, "turn explore", "turn explore")
    # Morningstar has no Charisma score: no bonus.
    command = f"turn explore by=Morningstar hazard=1 monster_surprise=5 surprise=5 reaction={total}"
    batch = party.execute(command)
    assert of(batch, ev.ResultRead)[-1].label == label


def test_searching_takes_a_turn_and_finds_on_a_1(party: Expedition) -> None:
    found = party.execute("turn search search=1")
    assert party.state.minutes == 10
    assert [r.label for r in of(found, ev.ResultRead)] == ["found, if there is one"]
    missed = party.execute("turn search search=2")
    assert [r.label for r in of(missed, ev.ResultRead)] == [
        "nothing found (but a 2 is found by INT 15+ or an Elf, a 3 by an Elf of INT 15+)"
    ]


def test_listening_takes_no_time_and_hears_on_a_1(party: Expedition) -> None:
    batch = party.execute("do listen by=Darion listen=1")
    assert party.state.minutes == 0 and party.state.turn == 0
    assert [r.label for r in of(batch, ev.ResultRead)] == [
        "sounds beyond the door, if there are any"
    ]


def test_a_torch_burns_1d4_plus_4_turns_rolled_when_it_is_lit(expedition: Factory) -> None:
    """Adventure › Light: "Normal torches burn for 1d4+4 turns": rolled when a torch is
    first lit, or typed (burn=N, the d4's face); lit again later, it burns what is left."""
    made = expedition("basic-fantasy", seed=5)
    run(made, "pc add Darion hp=7", "light add torch count=6 carrier=Darion")
    batch = made.execute("light on torch burn=3")
    torch = of(batch, ev.LightLit)[0].id
    assert rolled(batch) == ["burn"] and of(batch, ev.DiceRolled)[0].total == 7
    lit = made.state.light(torch)
    assert lit is not None and lit.minutes == 7 * 10
    for _ in range(6):
        made.execute("turn explore hazard=6" if made.state.turn % 3 == 2 else "turn explore")
    made.execute(f"light off {torch}")
    assert rolled(made.execute(f"light on {torch}")) == []  # no new roll: 1 turn left
    made.execute("turn explore")
    assert made.state.light(torch) is None or made.state.light(torch).spent  # type: ignore[union-attr]
    spans = set()
    for _ in range(5):
        batch = made.execute("light on torch")
        spans.add(of(batch, ev.DiceRolled)[0].total)
        made.execute(f"light off {of(batch, ev.LightLit)[0].id}")
    assert spans <= set(range(5, 9)) and spans


def test_a_rolled_burn_is_refused_for_a_light_not_rolled(party: Expedition) -> None:
    """A typed result nothing rolls is refused, and nothing is saved: a torch already lit
    once rolls nothing when lit again; a fresh torch takes one d4 face, no more."""
    torch = next(light for light in party.state.lights if light.lit)
    party.execute(f"light off {torch.id}")
    before = (party.state, party.event_count)
    with pytest.raises(CommandError, match="burn"):
        party.execute(f"light on {torch.id} burn=2")
    assert (party.state, party.event_count) == before
    for typed, why in (("burn=4 burn=2", "2 times"), ("burn=5", "not 5"), ("burn=x", "not a roll")):
        with pytest.raises(CommandError, match=why):
            party.execute(f"light on torch {typed}")
        assert (party.state, party.event_count) == before


def test_a_lantern_flask_burns_1d6_plus_18_turns_and_is_refuelled(party: Expedition) -> None:
    """Adventure › Light: a flask of oil burns 1d6+18 turns; the first is rolled when the
    lantern is lit (burn=N typed), a new flask is 21 turns for the GM to correct."""
    lantern = party.state.light("lantern1")
    assert lantern is not None and lantern.minutes == 21 * 10
    run(party, "light off torch", "light on lantern1 burn=6")
    lit = party.state.light("lantern1")
    assert lit is not None and lit.minutes == 24 * 10
    for _ in range(5):
        party.execute("turn explore hazard=6" if party.state.turn % 3 == 2 else "turn explore")
    party.execute("light refuel lantern1")
    refilled = party.state.light("lantern1")
    assert refilled is not None and refilled.minutes == 21 * 10


def test_a_wilderness_watch_is_four_hours_with_a_check_each(party: Expedition) -> None:
    party.execute("enter wilderness")
    for command in ("turn travel", "turn travel", "turn camp", "turn camp"):
        batch = party.execute(command)
        assert rolled(batch)[0] == "outdoors"
    assert party.state.minutes == 4 * 240
    assert party.state.clock_text == "00:00" and party.state.day == 2


def test_a_wilderness_encounter_on_a_1(party: Expedition) -> None:
    party.execute("enter wilderness")
    batch = party.execute("turn travel outdoors=1 surprise=3 reaction=12")
    assert len(of(batch, ev.EncounterBegan)) == 1
    assert "hazard" not in rolled(batch)  # the dungeon's check is not made outdoors
    assert [r.label for r in of(batch, ev.ResultRead)][-1] == "Very favorable"


def test_replay_gives_the_live_state(party: Expedition) -> None:
    run(
        party,
        "turn explore",
        "turn search",
        "turn explore speed=20",
        "do listen by=Morningstar",
        "enter wilderness",
        "turn travel",
        "turn camp",
    )
    replays_the_same(party)


def test_a_days_rations_are_eaten_each_day_however_the_day_is_spent(
    party: Expedition,
) -> None:
    """Adventure › Dungeon Survival: "one day's worth of rations ... per day". Twenty-four
    watches (four days) of travel with two camps a day eat four days' food each; a night
    in the dungeon eats one too, when its clock passes midnight."""
    party.execute("enter wilderness")
    for _ in range(4):
        run(party, *["turn travel"] * 2, *["turn camp"] * 2, *["turn travel"] * 2)
    assert party.state.day == 5
    rations = {m.name: dict(m.resources)["rations"] for m in party.state.party}
    assert rations == {"Darion": 7 - 4, "Morningstar": 7 - 4}
    run(party, "enter dungeon", "time set 23:50")
    batch = party.execute("turn explore")
    assert [(r.name, r.value) for r in of(batch, ev.ResourceChanged)] == [
        ("Darion", 2),
        ("Morningstar", 2),
    ]
    assert not of(party.execute("turn explore"), ev.ResourceChanged)


def test_without_food_hunger_hurts_from_the_third_day(party: Expedition) -> None:
    """Adventure › Dungeon Survival: no food does no harm for the first two days, then 1
    damage a day; a day's food again ends the count."""
    run(party, "pc Morningstar rations=1", "enter wilderness")
    hp = []
    for _ in range(4):  # four days of six watches
        run(party, *["turn travel"] * 2, *["turn camp"] * 4)
        hp.append({m.name: m.hp for m in party.state.party})
    # Morningstar ate on the first day; two days without food do no harm, the third does.
    assert [day["Morningstar"] for day in hp] == [5, 5, 5, 4]
    assert [day["Darion"] for day in hp] == [7, 7, 7, 7]
    run(party, "pc Morningstar rations=2", *["turn camp"] * 6)
    fed = party.state.member("Morningstar")
    assert fed is not None and fed.track("hungry") == 0 and fed.hp == 4


def test_torch_and_lantern_light_brightly_a_candle_dimly(party: Expedition) -> None:
    """Adventure › Light: a torch or lantern lights a 30' radius (bright), a candle only 5'
    (dim); with none lit, only Darkvision sees."""
    assert party.state.light_level == "bright"
    run(party, "light off torch", "light add candle carrier=Morningstar", "light on candle")
    assert party.state.light_level == "dim"
    run(party, "light off candle1")
    assert party.state.light_level == "dark"
    run(party, "light on lantern1 burn=1")
    assert party.state.light_level == "bright"


def test_exploring_maps_as_it_goes(party: Expedition) -> None:
    """Adventure › Movement and Mapping: the exploring rate includes drawing maps and
    watching for traps; the turn carries the reminder that the party maps."""
    started = of(party.execute("turn explore"), ev.TurnStarted)[0]
    assert "maps" in started.flags


async def test_with_table_dice_lighting_a_torch_asks_for_its_1d4(party: Expedition) -> None:
    """Adventure › Light: with table dice on, lighting a torch asks for the 1d4 of its
    1d4+4 turns (the key burn), and the answer sets its time."""
    asked: list[tuple[str, str]] = []

    async def ask(need: RollNeeded) -> str:
        asked.append((need.key, need.expression))
        return "2"

    batch = await execute(party, "light on torch", table_dice=True, ask=ask)
    assert asked == [("burn", "d4+4")]
    torch = of(batch, ev.LightLit)[0].id
    lit = party.state.light(torch)
    assert lit is not None and lit.minutes == 6 * 10
    # A torch added lit is lit as it is added: the same question, the same answer.
    batch = await execute(party, "light add torch lit carrier=Darion", table_dice=True, ask=ask)
    assert asked == [("burn", "d4+4")] * 2
    added = party.state.light(of(batch, ev.LightLit)[0].id)
    assert added is not None and added.lit and added.minutes == 6 * 10
    batch = party.execute("light add torch lit burn=4")
    typed = party.state.light(of(batch, ev.LightLit)[0].id)
    assert typed is not None and typed.minutes == 8 * 10


def test_outdoors_the_last_hazard_is_the_wilderness_check(party: Expedition) -> None:
    """Wandering Monsters › Wilderness Encounters: outdoors the check each watch is the
    turn's hazard roll, so the last hazard the table and status show is the wild's, not
    the dungeon's from before."""
    run(
        party,
        "turn explore",
        "turn explore",
        "turn explore hazard=1 monster_surprise=5 surprise=5 reaction=7",
    )
    party.execute("enter wilderness")
    party.execute("turn travel outdoors=4")
    last = party.state.last_hazard
    assert last is not None and (last.roll, last.result) == (4, "no encounter")


def test_a_search_says_who_finds_on_more_than_a_1(party: Expedition) -> None:
    """Adventure › Secret Doors: INT 15+ finds on 1-2 and Elves add 1, so a search's
    result reminds the GM of the wider ranges the die is read against."""
    batch = party.execute("turn search search=2")
    (read,) = of(batch, ev.ResultRead)
    assert read.label.startswith("nothing found") and "a 2 is found by INT 15+" in read.label
    assert "a 3 by an Elf" in read.label


def test_the_texts_bonus_table_gives_every_modifier() -> None:
    """Character › Ability Scores: 3 is -3, 4-5 -2, 6-8 -1, 9-12 0, 13-15 +1, 16-17 +2, 18
    +3; a score the table does not reach (a monster's 20) takes its nearest end."""
    party = find("basic-fantasy").party
    by_score = {score: party.modifier_of(score) for score in (2, 3, 4, 5, 6, 8, 9, 12, 13)}
    by_score |= {score: party.modifier_of(score) for score in (15, 16, 17, 18, 20)}
    assert by_score == {
        2: -3, 3: -3, 4: -2, 5: -2, 6: -1, 8: -1, 9: 0, 12: 0, 13: 1,
        15: 1, 16: 2, 17: 2, 18: 3, 20: 3,
    }  # fmt: skip


def test_the_party_moves_at_its_slowest_members_rate(expedition: Factory) -> None:
    """Part 4, Movement and Encumbrance (p. 42): armour and load set a character's movement
    (40', 30', 20', 10' a round), and a turn's exploring is three times it; Wilderness
    Movement Rates (p. 45): any group travelling together moves at its slowest member's
    rate. Each member's MV is entered once; one without moves 40'."""
    party = expedition("basic-fantasy", seed=3)
    run(party, "pc add Ari hp=8 MV=40", "pc add Morningstar hp=5")
    started = of(party.execute("turn explore"), ev.TurnStarted)[0]
    assert started.distance == "120 feet"
    run(party, "pc add Cor hp=6 MV=20")
    started = of(party.execute("turn explore"), ev.TurnStarted)[0]
    assert started.distance == "60 feet at Cor's pace"


def test_each_forced_march_day_after_the_first_costs_1d6_unless_saved(
    party: Expedition,
) -> None:
    """Adventure › Overland Travel: each day of forced march after the first inflicts 1d6
    damage; a daily save vs. Death Ray with the Constitution bonus avoids it, but once it
    has failed it is not rolled again for that character; a day spent resting restarts the
    progression. The save's number is each character's DEATH, typed once."""
    run(
        party,
        "pc Darion CON=13 DEATH=12",
        "pc Morningstar CON=8 DEATH=14",
        "enter wilderness",
    )
    # Day 1, from 08:00: three watches of forced march and a camp to midnight. No save.
    first = [party.execute(c) for c in ("turn forced-march",) * 3 + ("turn camp",)]
    assert not any(of(batch, ev.CheckMade) for batch in first)
    assert party.state.counter("forced-days") == 1
    # Day 2: the second day of forced march. Darion saves (11 + 1 = 12); Morningstar does
    # not (14 - 1 = 13, under 14) and takes 3 of their 5.
    run(party, "turn camp", *["turn forced-march"] * 3, "turn camp")
    batch = party.execute("turn camp march.Darion=11 march.Morningstar=14 damage.Morningstar=3")
    made = {e.name: (e.dc, e.total, e.success) for e in of(batch, ev.CheckMade)}
    assert made == {"Darion": (12, 12, True), "Morningstar": (14, 13, False)}
    assert [m.hp for m in party.state.party] == [7, 2]
    # Day 3: Darion fails at last; Morningstar takes the 1d6 with no save.
    run(party, "turn camp", *["turn forced-march"] * 3, "turn camp")
    batch = party.execute("turn camp march.Darion=5 damage.Darion=2 damage.Morningstar=1")
    assert [e.name for e in of(batch, ev.CheckMade)] == ["Darion"]
    assert [m.hp for m in party.state.party] == [5, 1]
    # Day 4: ordinary travel neither adds a day nor restarts the count.
    run(party, *["turn camp"] * 2, *["turn travel"] * 2, *["turn camp"] * 2)
    assert party.state.counter("forced-days") == 3
    # Day 5: a day of rest restarts it, and the saves come back.
    run(party, *["turn camp"] * 6)
    assert party.state.counter("forced-days") == 0
    assert all("march-worn" not in m.conditions for m in party.state.party)
    replays_the_same(party)


def test_a_forced_marcher_without_a_save_number_is_asked_for_it(party: Expedition) -> None:
    """The save's target number is the class's, from the character sheet: a member without
    DEATH is refused with the command that gives it, and nothing is saved."""
    run(party, "enter wilderness", *["turn forced-march"] * 3, "turn camp", "turn camp")
    run(party, *["turn forced-march"] * 3, "turn camp")
    before = party.event_count
    with pytest.raises(CommandError, match=r"give it with `pc Darion DEATH=N`"):
        party.execute("turn camp")
    assert party.event_count == before
