"""The delving procedure (seed 000) as a game master plays it."""

from __future__ import annotations

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.hazard_table import HazardTable
from tests.conftest import Factory, reopened, run
from tests.ui_support import make, ready, screen_text


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    x = expedition("delving", seed=5)
    run(
        x,
        "pc add Ash hp=6",
        "pc add Bryn hp=4",
        "light add torch count=3 carrier=Ash",
        "light on torch",
    )
    return x


def test_hazard_die_is_rolled_at_the_end_of_every_turn(party: Expedition) -> None:
    batch = party.execute("turn crawl")
    kinds = [type(e).__name__ for e in batch.events]
    assert kinds[0] == "TurnStarted" and kinds[-1] == "TurnEnded"
    rolled = [e for e in batch.events if isinstance(e, ev.DiceRolled)]
    assert [r.key for r in rolled] == ["hazard"]
    assert rolled[0].expression == "d6" and 1 <= rolled[0].total <= 6
    assert party.state.turn == 1 and party.state.clock_text == "08:10"


def test_burn_puts_out_every_lit_torch_and_nothing_else(party: Expedition) -> None:
    run(party, "light add candle lit carrier=Bryn", "light on torch carrier=Bryn")
    party.execute("turn crawl hazard=3")
    lit = {light.id: light.lit for light in party.state.lights}
    assert lit == {"torch1": False, "torch2": False, "candle1": True, "torch3": False}
    spent = {light.id for light in party.state.lights if light.spent}
    assert spent == {"torch2", "torch3"}
    stack = party.state.light("torch1")
    assert stack is not None and stack.count == 1  # one torch left, unlit, for later
    assert party.state.last_hazard is not None and party.state.last_hazard.result == "Burn"


def test_torches_have_no_timer_candles_and_lanterns_last_8_hours(party: Expedition) -> None:
    run(party, "light add candle", "light add lantern")
    minutes = {light.kind: light.minutes for light in party.state.lights}
    assert minutes == {"torch": None, "candle": 480, "lantern": 480}


def test_fatigue_damages_each_member_unless_they_rest_next_turn(party: Expedition) -> None:
    party.execute("turn crawl hazard=2")
    assert [m.hp for m in party.state.party] == [6, 4]
    assert party.state.pending  # waiting for next turn
    party.execute("turn crawl hazard=6")
    assert [m.hp for m in party.state.party] == [5, 3]
    party.execute("turn crawl hazard=2")
    batch = party.execute("turn rest hazard=6")
    assert [m.hp for m in party.state.party] == [5, 3]
    assert any(isinstance(e, ev.DeferredResolved) and not e.applied for e in batch.events)


def test_fatigue_in_a_harsh_dungeon_deals_its_harshness(party: Expedition) -> None:
    """Hazard die › 2 Fatigue: "the damage may be higher in dungeons with harsh conditions":
    the GM rates the dungeon once, and every FATIGUE result deals that much."""
    party.execute("counter set harshness 3")
    party.execute("turn crawl hazard=2")
    party.execute("turn crawl hazard=6")
    assert [m.hp for m in party.state.party] == [3, 1]
    with pytest.raises(CommandError, match="Harshness goes from 1 to 6"):
        party.execute("counter set harshness 7")


def test_checks_of_movement_or_coordination_take_ten_off_in_the_dark(
    party: Expedition,
) -> None:
    """Darkness: "-10 to checks involving movement or coordination": the dark level gives
    those kinds of check -10, and the lights pane says so in the dark."""
    from delvetui.core.level_rules import check_modifier, modifiers_text

    dark = party.procedure.light_levels["dark"]
    assert modifiers_text(dark.check_modifier, dark.check_modifiers) == (
        "movement, coordination -10"
    )
    party.execute("light off torch2")
    member = party.state.party[0]
    for kind in ("movement", "coordination"):
        assert check_modifier(party.procedure, party.state, member, kind)[0] == -10
    assert check_modifier(party.procedure, party.state, member, "sight")[0] == 0


def test_adding_fatigue_says_delving_keeps_no_fatigue_levels(party: Expedition) -> None:
    """Hazard die › 2 Fatigue (docs/rules/delving.md): Delving's fatigue costs hit points;
    the game keeps no fatigue levels. `pc NAME fatigue=+1` is refused with that said, not
    with "fatigue goes from 0 (fresh) to 0 (fresh)", and nothing is written."""
    batches = party.batch_count
    name = party.state.party[0].name
    with pytest.raises(CommandError) as refused:
        party.execute(f"pc {name} fatigue=+1")
    assert "Delving keeps no fatigue levels but fresh" in str(refused.value)
    assert "goes from 0 (fresh) to 0 (fresh)" not in str(refused.value)
    assert party.batch_count == batches


def test_fatigue_is_ignored_while_resting(party: Expedition) -> None:
    batch = party.execute("turn rest hazard=2")
    result = next(e for e in batch.events if isinstance(e, ev.ResultRead))
    assert result.ignored == "while resting"
    assert not party.state.pending
    party.execute("turn crawl hazard=6")
    assert [m.hp for m in party.state.party] == [6, 4]


def test_a_sign_makes_the_next_encounter_that_creature(party: Expedition) -> None:
    party.execute("turn crawl hazard=5 sign=owlbear-feathers")
    assert party.state.sign == "owlbear-feathers"
    batch = party.execute("turn crawl hazard=1")
    encounter = next(e for e in batch.events if isinstance(e, ev.EncounterBegan))
    assert encounter.creature == "owlbear-feathers"
    assert party.state.sign is None


def test_running_blows_out_candles_but_not_lanterns(party: Expedition) -> None:
    run(party, "light add candle lit", "light add lantern lit")
    party.execute("turn run hazard=6")
    lit = {light.id: light.lit for light in party.state.lights}
    assert lit == {"torch1": False, "torch2": True, "candle1": False, "lantern1": True}
    candle = party.state.light("candle1")
    assert candle is not None and not candle.spent  # can be lit again
    party.execute("light on candle1")


def test_movement_modes_and_their_distances(party: Expedition) -> None:
    for action, distance in (("crawl", "36 m"), ("walk", "720 m"), ("run", "1500 m")):
        batch = party.execute(f"turn {action} hazard=6")
        started = batch.events[0]
        assert isinstance(started, ev.TurnStarted)
        assert started.distance == distance
        flags = started.flags
    assert "cannot map" in flags


def test_searching_takes_two_turns_in_dim_light(party: Expedition) -> None:
    run(party, "light off torch2", "light add lantern lit")
    assert party.state.light_level == "dim"
    batch = party.execute("turn search hazard=6 hazard=4")
    assert sum(isinstance(e, ev.TurnEnded) for e in batch.events) == 2
    assert party.state.turn == 2
    with pytest.raises(CommandError, match="rolls it 2 times"):
        party.execute("turn search hazard=6 hazard=4 hazard=1")


def test_darkness_and_what_it_means(party: Expedition) -> None:
    party.execute("light off torch2")
    assert party.state.light_level == "dark"
    batch = party.execute("turn crawl hazard=6")
    started = batch.events[0]
    assert isinstance(started, ev.TurnStarted)
    assert "surprised by all encounters" in started.flags


def test_replay_gives_the_live_state(party: Expedition) -> None:
    run(party, "turn", "turn walk", "turn rest", "undo", "turn run", "note done")
    live = party.state
    assert reopened(party).state == live


def test_spent_lights_leave_the_state_but_their_numbers_are_never_reused(
    party: Expedition,
) -> None:
    for _ in range(14):
        run(party, "light add torch lit", "turn crawl hazard=3")
    spent = [light.id for light in party.state.lights if light.spent]
    assert len(spent) == 10
    assert spent[-1] == "torch16"
    party.execute("light add torch")
    assert party.state.lights[-1].id == "torch17"
    assert reopened(party).state.lights[-1].id == "torch17"


def test_each_action_takes_one_ten_minute_turn(party: Expedition) -> None:
    """000, Turns: "Most actions (moving, searching, fighting, resting, etc.) take up one
    turn", of 10 minutes; searching in torchlight is one turn too."""
    for number, action in enumerate(("crawl", "walk", "run", "search", "rest"), start=1):
        batch = party.execute(f"turn {action} hazard=6")
        assert sum(isinstance(e, ev.TurnEnded) for e in batch.events) == 1, action
        assert party.state.turn == number
    assert party.state.clock_text == "08:50"


def test_a_1_is_an_encounter_the_game_master_names(party: Expedition) -> None:
    """000: "1 ENCOUNTER ... The GM determines the encounter's reaction, activity, distance
    from the party": the GM types the creature and the distance."""
    batch = party.execute("turn crawl hazard=1 creature=ghouls distance='across the hall'")
    began = next(e for e in batch.events if isinstance(e, ev.EncounterBegan))
    assert (began.creature, began.distance) == ("ghouls", "across the hall")
    assert "The GM determines whether the party is surprised." in began.text
    assert party.state.encounter is not None


def test_a_new_torch_is_lit_from_the_embers_of_the_last(party: Expedition) -> None:
    """000: "3 BURN: Lit torches burn out. New torches can be lit from the embers of the
    previous ones": the next torch lights at once, nothing else needed."""
    party.execute("turn crawl hazard=3")
    assert party.state.light_level == "dark"
    party.execute("light on torch")
    assert party.state.light_level == "bright"


def test_a_4_is_a_dungeon_shift_the_game_master_describes(party: Expedition) -> None:
    """000: "4 DUNGEON SHIFT: The dungeon environment changes"; what changes is the GM's."""
    batch = party.execute("turn crawl hazard=4")
    assert [e.text for e in batch.events if isinstance(e, ev.Logged)] == ["The dungeon shifts."]
    assert party.state.last_hazard is not None
    assert party.state.last_hazard.result == "Dungeon shift"


def test_a_6_is_free(party: Expedition) -> None:
    """000: "6 FREE: No effect."""
    before = party.state
    batch = party.execute("turn crawl hazard=6")
    assert {type(e).__name__ for e in batch.events} <= {
        "TurnStarted",
        "DiceRolled",
        "ResultRead",
        "TurnEnded",
        "LightsBurned",
    }
    assert party.state.party == before.party and party.state.lights == before.lights


def test_torches_give_bright_light_candles_and_lanterns_dim(party: Expedition) -> None:
    """000: torches reveal shapes within 12 m and "let the party search areas faster";
    candles (6 m) and lanterns are dim light, "like candlelight or lantern light"."""
    assert party.state.light_level == "bright"
    run(party, "light off torch2", "light add candle lit")
    assert party.state.light_level == "dim"
    run(party, "light off candle1", "light add lantern lit")
    assert party.state.light_level == "dim"


def test_searching_in_total_darkness_takes_two_turns(party: Expedition) -> None:
    """000 says searching takes two turns in dim light and nothing of the dark. Reading:
    searching in the dark is no quicker than by candlelight, two turns."""
    party.execute("light off torch2")
    assert party.state.light_level == "dark"
    batch = party.execute("turn search hazard=6 hazard=6")
    assert sum(isinstance(e, ev.TurnEnded) for e in batch.events) == 2


@pytest.mark.long
async def test_the_rolled_hazard_is_marked_in_the_hazard_table() -> None:
    """000: "Rolled Dungeon hazard is highlighted in the table": the hazard pane marks the
    row the die landed on, with the roll."""
    app = DelveApp(make("marked", ("pc add Ash hp=6", "light add torch lit", "turn hazard=4")))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        assert table.query_one(HazardTable).display
        assert "▶ 4  Dungeon shift  (rolled 4)" in screen_text(app)
