"""The encounter carried through to the end of the fight: foes, rounds, initiative, morale,
the time it cost, and the sentences bad input gets.

Each test plays a real expedition file through ``Expedition.execute``, as the table and
``delvetui act`` do, on a procedure of its own (or the format's example in
docs/procedures.md), and asserts what a game master would check: who acts first, who is
down or fled, the clock, the log's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core import log, players
from delvetui.errors import CommandError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.conftest import of, replays_the_same, run
from tests.docs_examples import doc_example

DOC = (Path(__file__).resolve().parent.parent / "docs" / "procedures.md").read_text("utf-8")

BASE = """
id = "brawl"
name = "Brawl"
source = "a test"
summary = "fights"
default_action = "explore"

[time]
turn_minutes = 10

[party]
abilities = ["DEX", "WIL", "ML"]

[actions.explore]
label = "Explore"

[lights.torch]
label = "Torch"
brightness = "bright"
turns = 6

[rolls.hazard]
label = "Hazard"
dice = "d6"
hit_at_most = 1
hit_label = "Encounter"
miss_label = "Nothing"
on_hit = [{ do = "encounter" }, { do = "roll", table = "surprise" }]

[tables.surprise]
label = "Surprise"
dice = "d6"
rows = [
  { roll = "1-2", label = "Party surprised", effects = [{ do = "surprise", side = "party" }] },
  { roll = "3-6", label = "Ready" },
]
"""

FIGHT_TURN = """
[actions.fight]
label = "The fight's turn"
kind = "fight"
"""

SIDES = (
    FIGHT_TURN
    + """
[encounter]
initiative = "sides"
morale_dice = "2d6"
morale_default = 7
morale_settles = 2
morale_when = ["first-down", "half-down"]
retainer_morale = "ML"
surrender = true
end_action = "fight"
end_turns = 1
"""
)


def make(home: Path, encounter: str = SIDES, *, seed: int = 4, name: str = "brawl") -> Expedition:
    procedure = load_text(BASE + encounter)
    made = Expedition.create(home / f"{name}.delve", procedure, seed=seed)
    run(made, "pc add Ash hp=6 DEX=14 WIL=12", "pc add Bo hp=5 DEX=9 WIL=8 ML=8")
    return made


def log_text(x: Expedition) -> str:
    """The whole log, as the table and the exports say it."""
    return "\n".join(line.text for line in log.lines(x.batches(), x.procedure))


def refused(x: Expedition, command: str, words: str) -> None:
    """The command is refused with a sentence saying ``words``, and nothing is saved."""
    before = x.event_count
    with pytest.raises(CommandError, match=re.escape(words)):
        x.execute(command)
    assert x.event_count == before


@pytest.fixture
def brawl(home: Path) -> Iterator[Expedition]:
    made = make(home)
    yield made
    made.close()


# ---- The opposition ---------------------------------------------------------------------------


def test_foes_join_numbered_with_hit_points_typed_or_rolled(brawl: Expedition) -> None:
    """count=N makes NAME1…NAMEn; hp= one value for all or one each; hd= rolls them."""
    batch = brawl.execute("foe add goblin count=3 hp=4,5,6 morale=8 note=guards")
    foes = brawl.state.foes
    assert [(f.name, f.hp, f.max_hp, f.morale, f.kind) for f in foes] == [
        ("goblin1", 4, 4, 8, "goblin"),
        ("goblin2", 5, 5, 8, "goblin"),
        ("goblin3", 6, 6, 8, "goblin"),
    ]
    assert len(of(batch, ev.FoeJoined)) == 3
    brawl.execute("foe add ogre hd=4+1 hit-dice=19")
    ogre = brawl.state.foe("ogre")
    assert ogre is not None and ogre.hp == 20 and ogre.state == "fighting"  # 19 + 1
    batch = brawl.execute("foe add rat count=2 hp=3")
    assert [f.hp for f in brawl.state.foes[-2:]] == [3, 3]
    rolls = brawl.execute("foe add bat count=2")  # one hit die of d8 each, rolled
    assert [r.expression for r in of(rolls, ev.DiceRolled)] == ["d8", "d8"]


def test_bad_foes_are_a_sentence_and_no_event(brawl: Expedition) -> None:
    """A taken foe name, damage to nobody, hp= that does not fit: a sentence, nothing saved."""
    brawl.execute("foe add goblin count=2 hp=4")
    refused(brawl, "foe add goblin count=2", "There is already a foe named goblin1")
    refused(
        brawl, "foe kobold hp=-3", "There is no foe named 'kobold' (the foes: goblin1, goblin2)"
    )
    refused(brawl, "foe add orc count=3 hp=4,5", "hp= gives one value for all the foes or one")
    refused(brawl, "foe add orc hp=4 hd=2", "not both")
    refused(brawl, "foe goblin1 hp=9", "goblin1 has at most 4 HP")
    refused(brawl, "foe goblin1 -down", "goblin1 is not down; it is fighting")
    refused(brawl, "foe goblin1 +down +fled", "one change of state at a time")


def test_damage_to_nobody_when_no_foe_is_there(brawl: Expedition) -> None:
    refused(brawl, "foe goblin hp=-3", "no foe is in the encounter (foe add NAME")


def test_a_foe_at_0_hp_is_down_and_healing_does_not_raise_it(brawl: Expedition) -> None:
    run(brawl, "foe add troll hp=8")
    brawl.execute("foe troll hp=-10")
    troll = brawl.state.foe("troll")
    assert troll is not None and (troll.hp, troll.state) == (0, "down")
    brawl.execute("foe troll hp=+3")
    assert brawl.state.foe("troll").state == "down"  # type: ignore[union-attr]
    brawl.execute("foe troll -down")
    assert brawl.state.foe("troll").state == "fighting"  # type: ignore[union-attr]


def test_surrender_only_where_the_game_has_it(home: Path) -> None:
    plain = make(home, SIDES.replace("surrender = true", "surrender = false"))
    run(plain, "foe add bandit hp=4")
    refused(plain, "foe bandit +surrendered", "Foes do not surrender in Brawl")
    plain.close()


# ---- Rounds and initiative --------------------------------------------------------------------


def test_a_round_with_no_fight_is_a_sentence(brawl: Expedition) -> None:
    refused(brawl, "round", "There is no fight to take a round of: fight begins one.")
    refused(brawl, "fight end", "There is no fight to end.")
    refused(brawl, "fight", "There is no one to fight: no foe is in the encounter.")


def test_a_d6_each_side_each_round_the_higher_first(brawl: Expedition) -> None:
    """sides: the party's die, then the foes'; typed as initiative=P,F."""
    run(brawl, "foe add goblin count=2 hp=4")
    brawl.execute("fight initiative=2,5")
    fight = brawl.state.fight
    assert fight is not None and (fight.round, fight.first) == (1, "foes")
    assert (fight.party_roll, fight.foes_roll) == (2, 5)
    brawl.execute("round initiative=6,1")
    assert (brawl.state.fight.round, brawl.state.fight.first) == (2, "party")  # type: ignore[union-attr]
    refused(brawl, "fight", "A fight is already under way (round 2)")


def test_a_tie_is_rolled_again(brawl: Expedition) -> None:
    run(brawl, "foe add goblin hp=4")
    refused(brawl, "fight initiative=3,3", "is a tie, and Brawl rolls a tie again")
    brawl.execute("fight initiative=3,3,2,4")
    assert brawl.state.fight.first == "foes"  # type: ignore[union-attr]


def test_surprise_at_the_encounter_gives_the_surprised_side_a_lost_round(
    brawl: Expedition,
) -> None:
    """The hazard's encounter rolls surprise; the surprised party loses the first round."""
    brawl.execute("turn explore hazard=1 surprise=1")
    assert brawl.state.surprised == ("party",)
    run(brawl, "foe add wolf count=2 hp=5")
    batch = brawl.execute("fight")
    fight = brawl.state.fight
    assert fight is not None and (fight.first, fight.lost) == ("foes", "party")
    assert not of(batch, ev.DiceRolled)  # nobody rolls for a lost round
    brawl.execute("round initiative=4,1")
    assert brawl.state.fight.first == "party"  # type: ignore[union-attr]


def test_the_game_master_says_who_is_surprised(brawl: Expedition) -> None:
    run(brawl, "foe add wolf hp=5", "fight surprised=foes")
    fight = brawl.state.fight
    assert fight is not None and (fight.first, fight.lost) == ("party", "foes")


def test_characters_first_and_a_save_to_act_in_the_first_round(home: Path) -> None:
    """party, with first_round_save: each character saves under DEX to act in round 1."""
    x = make(home, '[encounter]\ninitiative = "party"\nfirst_round_save = "DEX"\n')
    run(x, "foe add rat hp=2")
    x.execute("fight save=3 save=15")  # Ash (DEX 14) passes, Bo (DEX 9) fails
    fight = x.state.fight
    assert fight is not None and fight.first == "party"
    assert (fight.before, fight.idle) == (("Ash",), ("Bo",))
    x.execute("round")
    assert x.state.fight.before == ("Ash", "Bo") and not x.state.fight.idle  # type: ignore[union-attr]
    refused(x, "round initiative=4,2", "initiative is not rolled: the characters act first")
    x.close()


def test_each_characters_roll_against_one_for_the_foes_fixed_for_the_fight(home: Path) -> None:
    """each: d20 + DEX modifier each, one roll for the foes, held for the fight."""
    rules = (
        '[encounter]\ninitiative = "each"\ninitiative_dice = "d20"\n'
        'initiative_ability = "DEX"\ninitiative_each_round = false\n'
    )
    x = make(home, rules)
    run(x, "foe add orc count=2 hp=6")
    x.execute("fight initiative=10,12,11")  # Ash 10+2=12, Bo 12-1=11, the foes 11
    fight = x.state.fight
    assert fight is not None and (fight.before, fight.after) == (("Ash", "Bo"), ())
    x.execute("fight end")
    run(x, "foe add orc count=2 hp=6")
    x.execute("fight initiative=3,4,15")
    assert (x.state.fight.before, x.state.fight.after) == ((), ("Ash", "Bo"))  # type: ignore[union-attr]
    assert x.state.fight.first == "foes"  # type: ignore[union-attr]
    x.execute("round")
    assert x.state.fight.after == ("Ash", "Bo")  # type: ignore[union-attr]
    refused(x, "round initiative=20,20,1", "initiative holds for the whole fight")
    x.close()


def test_a_save_to_act_before_the_foes_and_a_score_order(home: Path) -> None:
    x = make(home, '[encounter]\ninitiative = "save"\ninitiative_ability = "DEX"\n')
    run(x, "foe add cat hp=6")
    x.execute("fight initiative=14,12")  # Ash's save 14 holds (DEX 14); Bo's 12 fails (DEX 9)
    assert (x.state.fight.before, x.state.fight.after) == (("Ash",), ("Bo",))  # type: ignore[union-attr]
    x.close()
    y = make(home, '[encounter]\ninitiative = "score"\ninitiative_ability = "DEX"\n', name="y")
    run(y, "foe add cat hp=6")
    y.execute("fight initiative=12")
    fight = y.state.fight
    assert fight is not None and (fight.before, fight.after) == (("Ash",), ("Bo",))
    y.close()


def test_odd_or_even_by_the_partys_call(home: Path) -> None:
    x = make(home, '[encounter]\ninitiative = "odd-even"\n')
    run(x, "foe add spider hp=6")
    x.execute("fight initiative=2,3 call=even")
    assert x.state.fight.first == "foes"  # type: ignore[union-attr]
    x.execute("round initiative=2,3 call=odd")
    assert x.state.fight.first == "party"  # type: ignore[union-attr]
    x.close()


# ---- Morale -----------------------------------------------------------------------------------


def test_morale_at_the_first_death_and_at_half_down(brawl: Expedition) -> None:
    """2d6 over each foe's morale flees: checked at the first down and when half are out."""
    run(brawl, "foe add goblin count=4 hp=3 morale=7", "fight initiative=4,2")
    batch = brawl.execute("foe goblin1 hp=-3 morale=6")
    checked = of(batch, ev.MoraleChecked)
    assert [c.trigger for c in checked] == ["first-down"]
    assert checked[0].names == ("goblin2", "goblin3", "goblin4") and not checked[0].failed
    batch = brawl.execute("foe goblin2 +down morale=9")
    assert of(batch, ev.MoraleChecked)[0].trigger == "half-down"
    states = {f.name: f.state for f in brawl.state.foes}
    assert states == {"goblin1": "down", "goblin2": "down", "goblin3": "fled", "goblin4": "fled"}


def test_a_morale_roll_where_none_is_due_is_refused(brawl: Expedition) -> None:
    run(brawl, "foe add goblin count=4 hp=3")
    refused(brawl, "foe goblin1 hp=-1 morale=8", "No morale check is due: no fight is under way")
    brawl.execute("fight initiative=5,1")
    refused(brawl, "foe goblin1 hp=-1 morale=8", "No morale check is due: nothing that sets")


def test_a_foe_that_held_twice_fights_on(brawl: Expedition) -> None:
    run(brawl, "foe add orc count=2 hp=4 morale=7", "fight initiative=4,2")
    run(brawl, "morale orc2 morale=5", "morale orc2 morale=6")
    refused(brawl, "foe orc1 hp=-4 morale=12", "every foe still fighting has held its morale 2")


def test_a_morale_the_game_master_calls_and_a_retainers(brawl: Expedition) -> None:
    run(brawl, "foe add orc count=2 hp=4 morale=6", "fight initiative=4,2")
    brawl.execute("morale morale=7")
    assert all(f.state == "fled" for f in brawl.state.foes)
    batch = brawl.execute("morale Bo morale=9")  # Bo's ML is 8
    checked = of(batch, ev.MoraleChecked)[0]
    assert (checked.member, checked.failed) == ("Bo", ("Bo",))
    refused(brawl, "morale Ash", "Ash has no ML score to check: give one with pc Ash ML=N")


def test_morale_where_the_game_has_none(home: Path) -> None:
    x = make(home, "[encounter]\n")
    run(x, "foe add orc hp=4", "fight")
    refused(x, "morale", "Brawl has no morale roll")
    refused(x, "foe orc hp=-4 morale=7", "No morale check is due: Brawl has no morale roll")
    x.close()


def test_a_lone_foe_checks_at_half_its_hit_points_against_a_dc(home: Path) -> None:
    """lone-half-hp, at_least: d20 + the foe's modifier must reach the DC."""
    rules = (
        '[encounter]\nmorale_dice = "d20"\nmorale_pass = "at_least"\nmorale_dc = 15\n'
        'morale_default = 0\nmorale_when = ["half-down", "lone-half-hp"]\n'
    )
    x = make(home, rules)
    run(x, "foe add ogre hp=10 morale=2", "fight initiative=3,1", "foe ogre hp=-4")
    batch = x.execute("foe ogre hp=-1 morale=12")  # 5 of 10: 12 + 2 < 15
    assert of(batch, ev.MoraleChecked)[0].trigger == "lone-half-hp"
    assert x.state.foe("ogre").state == "fled"  # type: ignore[union-attr]
    x.close()


def test_a_save_under_wil_at_the_first_loss_and_a_lone_foe_at_0_hp(home: Path) -> None:
    """at_most with a d20: the foe's WIL; 0 HP is not down where down_at_zero_hp is false."""
    rules = (
        '[encounter]\nmorale_dice = "d20"\nmorale_default = 10\ndown_at_zero_hp = false\n'
        'morale_when = ["first-down", "half-down", "lone-zero-hp"]\n'
    )
    x = make(home, rules)
    run(x, "foe add wyrm hp=6 morale=12", "fight initiative=3,1")
    batch = x.execute("foe wyrm hp=-6 morale=13")
    assert x.state.foe("wyrm").state == "fled"  # type: ignore[union-attr]
    assert of(batch, ev.MoraleChecked)[0].trigger == "lone-zero-hp"
    x.close()


# ---- The time it cost -------------------------------------------------------------------------


def test_fight_end_takes_a_turn_lights_burning(brawl: Expedition) -> None:
    """end_action: an encounter takes at least a turn on the clock; its torch burns."""
    run(brawl, "light add torch", "light on torch", "foe add goblin hp=4", "fight initiative=5,1")
    clock, turn = brawl.state.clock, brawl.state.turn
    batch = brawl.execute("fight end the goblin is slain")
    assert brawl.state.fight is None and brawl.state.foes == ()
    assert (brawl.state.clock - clock, brawl.state.turn - turn) == (10, 1)
    assert of(batch, ev.TurnStarted)[0].action == "fight"
    assert brawl.state.lights[0].minutes == 50
    assert (brawl.state.fights, brawl.state.foes_defeated) == (1, 0)


def test_a_long_fight_takes_the_turns_its_rounds_fill(brawl: Expedition) -> None:
    run(brawl, "foe add goblin hp=4", "fight initiative=5,1")
    for _ in range(64):
        brawl.execute("round initiative=5,1")
    turn = brawl.state.turn
    brawl.execute("fight end")
    assert brawl.state.turn - turn == 2  # 65 rounds of 10 seconds: two turns of 10 minutes


def test_the_fights_turn_is_never_taken_by_hand(brawl: Expedition) -> None:
    refused(brawl, "turn fight", "The fight's turn is the turn a fight takes")
    assert "fight" not in brawl.procedure.actions_in(brawl.state.turn_type)


def test_no_turn_is_taken_in_the_middle_of_a_fight(brawl: Expedition) -> None:
    """A fight's time is its rounds and its end: a turn between them is refused."""
    run(brawl, "foe add goblin hp=4", "fight initiative=5,1")
    refused(brawl, "turn", "A fight is under way (round 1): round takes the next, fight end")
    brawl.execute("fight end")
    brawl.execute("turn")  # and after it, the turns go on


def test_the_foes_are_counted_in_their_plural(brawl: Expedition) -> None:
    run(brawl, "foe add wolf count=3 hp=3", "foe add lizardman count=2 hp=4", "foe add Ox hp=9")
    brawl.execute("fight initiative=5,1")
    assert "the party against 3 wolves; 2 lizardmen; 1 Ox" in log_text(brawl)


def test_rounds_that_are_the_crawls_turns(home: Path) -> None:
    """round_action: each round is a turn of the fight's action: the clock, the torch."""
    x = make(home, FIGHT_TURN + '[encounter]\nround_action = "fight"\n')
    run(x, "light add torch", "light on torch", "foe add rat hp=2")
    x.execute("fight initiative=4,1")
    x.execute("round initiative=4,1")
    assert x.state.turn == 2 and x.state.lights[0].minutes == 40
    turn = x.state.turn
    x.execute("fight end")
    assert x.state.turn == turn
    x.close()


# ---- What it leaves ---------------------------------------------------------------------------


def test_the_log_tells_the_fight_round_by_round(brawl: Expedition) -> None:
    run(brawl, "foe add goblin count=2 hp=3 morale=7", "fight initiative=4,2")
    run(brawl, "foe goblin1 hp=-3 morale=9", "fight end they are routed")
    text = log_text(brawl)
    assert "Round 1: the party acts first (d6 each side: the party 4, the foes 2)." in text
    assert "goblin1 is down at 0 HP." in text
    assert "→ goblin2 breaks (9; to hold: at most their morale 7)." in text
    assert "goblin2 flees: its morale breaks." in text
    assert (
        "The fight ends after 1 round (10 seconds): they are routed. The foes: 2 goblins, "
        "1 down, 1 fled." in text
    )


def test_status_gives_the_foes_and_the_fight(brawl: Expedition) -> None:
    from delvetui.cli import status_data

    run(brawl, "foe add goblin count=2 hp=3 morale=6", "fight initiative=1,6")
    data = status_data(brawl, odds=False)
    assert data["fight"] == {
        "round": 1,
        "first": "foes",
        "lost": None,
        "before": [],
        "after": [],
    }
    assert data["foes"][0] == {
        "name": "goblin1",
        "kind": "goblin",
        "hp": 3,
        "max_hp": 3,
        "morale": 6,
        "state": "fighting",
        "note": "",
    }


def test_replay_undo_and_redo_give_the_same_fight(brawl: Expedition) -> None:
    run(brawl, "foe add goblin count=3 hp=3", "fight initiative=4,2", "foe goblin1 hp=-3")
    state = brawl.state
    run(brawl, "undo", "redo")
    assert brawl.state == state
    run(brawl, "fight end")
    replays_the_same(brawl)


def test_the_players_see_the_round_and_the_foes_revealed(brawl: Expedition) -> None:
    run(brawl, "foe add goblin count=3 hp=3", "fight initiative=2,5", "foe goblin1 +fled")
    seen = players.view(brawl.state, brawl.procedure)
    assert seen.fight is not None and seen.fight.lines() == ["Round 1: The foes act first"]
    brawl.execute("reveal foes")
    seen = players.view(brawl.state, brawl.procedure)
    assert seen.fight is not None and seen.fight.foes == "three goblins, one fled"
    assert "goblin1" not in " ".join(seen.lines())


# ---- The format's own example -----------------------------------------------------------------


SKIRMISH = (
    "light add torch",
    "light on torch",
    "foe add goblin count=2 hp=4 morale=7",
    "fight initiative=5,2",
    "foe goblin1 hp=-4 morale=8",
    "fight end",
)


def test_the_docs_example_loads_and_plays_as_it_says(home: Path) -> None:
    """docs/procedures.md 3.23c: the complete example, played as its walkthrough says."""
    start = DOC.index("### 3.23c")
    walk = re.search(r"Played at the table.*?```\n(.*?)```", DOC[start:], re.DOTALL)
    assert walk is not None
    assert tuple(line.split("→")[0].strip() for line in walk.group(1).splitlines()) == SKIRMISH
    x = Expedition.create(home / "skirmish.delve", load_text(doc_example("skirmish")), seed=1)
    run(x, *SKIRMISH)
    assert x.state.fights == 1 and x.state.foes_defeated == 2
    assert x.state.clock - x.state.start_clock == 10
    assert x.state.lights[0].minutes == 50
    x.close()


def test_the_commands_the_format_page_lists(home: Path, brawl: Expedition) -> None:
    """Each command docs/procedures.md lists for a fight, typed as it shows it."""
    run(brawl, "foe add goblin count=4 hp=5 morale=12", "fight initiative=5,2")
    brawl.execute("foe goblin2 hp=-4")
    brawl.execute("foe goblin2 hp=+2")
    assert brawl.state.foe("goblin2").hp == 3  # type: ignore[union-attr]
    batch = brawl.execute("foe goblin3 +down")  # the first down: each fighting foe checks
    assert brawl.state.foe("goblin3").state == "down"  # type: ignore[union-attr]
    assert of(batch, ev.MoraleChecked)[0].trigger == "first-down"
    checked = of(brawl.execute("morale goblin1"), ev.MoraleChecked)
    assert checked and checked[0].names == ("goblin1",)
    checked = of(brawl.execute("morale Bo"), ev.MoraleChecked)
    assert checked and checked[0].member == "Bo"
    brawl.execute("fight end the goblins are routed")
    assert brawl.state.fight is None and brawl.state.fights == 1
    odd_even = make(home, '[encounter]\ninitiative = "odd-even"\n', name="odd")
    run(odd_even, "foe add spider hp=6")
    odd_even.execute("fight call=even")
    assert odd_even.state.fight is not None
    odd_even.close()


def test_a_foe_that_fled_and_is_brought_to_0_hp_is_down(brawl: Expedition) -> None:
    """An arrow in a fleeing foe's back: at 0 HP it is down, and counted as defeated."""
    run(brawl, "foe add orc count=2 hp=5", "fight initiative=5,1", "foe orc2 +fled")
    run(brawl, "foe orc2 hp=-5")
    foe = brawl.state.foe("orc2")
    assert foe is not None and foe.state == "down"
    assert "orc2 is down at 0 HP" in log_text(brawl)
