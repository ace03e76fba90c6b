"""The exploration procedures (seed 001) as a game master plays them.

``exploration`` is the text's main procedure: the d6 hazard die, the movement table, light
by the clock, a rest every 6 turns and the quick-reference checks. ``exploration-traditional``
is the text's "traditional bookkeeping" variant: a 1-in-6 encounter roll, light and rest
tracked separately.
"""

from __future__ import annotations

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError
from delvetui.procedure.registry import find, shipped_dir
from delvetui.session import Expedition
from tests.conftest import Factory, reopened, run
from tests.conftest import of as events

ACTIONS = ["cautious", "rushing", "search", "rest", "listen", "force-door", "pick-lock"]


def fatigue(expedition: Expedition) -> dict[str, int]:
    return {member.name: member.fatigue for member in expedition.state.party}


@pytest.fixture
def party(expedition: Factory) -> Expedition:
    """Two adventurers with a lit torch and a spare; Ash has scores, Bo has none (+0)."""
    x = expedition("exploration", seed=3)
    run(
        x,
        "pc add Ash hp=8 STR=12 DEX=16 CON=14 WIS=14",
        "pc add Bo hp=6",
        "light add torch count=2 carrier=Ash",
        "light on torch",
    )
    return x


def quiet_turns(expedition: Expedition, count: int, action: str = "cautious") -> None:
    """Turns where the hazard die shows 5: nothing happens."""
    for _ in range(count):
        expedition.execute(f"turn {action} hazard=5")


# The file ---------------------------------------------------------------------------------


@pytest.mark.parametrize("procedure_id", ["exploration", "exploration-traditional"])
def test_the_file_names_its_source_and_its_defaults(procedure_id: str) -> None:
    procedure = find(procedure_id)
    assert procedure.source == "Dungeon Exploration"
    assert list(procedure.actions) == ACTIONS
    assert procedure.default_action == "cautious"
    assert procedure.summary and "\n" not in procedure.summary
    text = (shipped_dir() / f"{procedure_id}.toml").read_text(encoding="utf-8")
    opening = text.split("\n\n", 1)[0]  # the comment block the file starts with
    assert text.startswith("#") and "001_7648530b3e0278a7.txt" in opening
    assert "# default" in text or "default:" in text


def test_a_turn_is_10_minutes_and_the_hazard_happens_once_the_action_is_resolved(
    party: Expedition,
) -> None:
    """Turn procedure: roll the hazard die, resolve actions — "the Referee decides when the
    hazard occurs". Reading: the action is resolved first, in the light it was declared in,
    and the hazard happens after it."""
    batch = party.execute("turn search dc=12 by=Ash hazard=5 search=10")
    kinds = [type(event).__name__ for event in batch.events]
    assert kinds.index("CheckMade") < kinds.index("ResultRead")
    assert [roll.key for roll in events(batch, ev.DiceRolled)] == ["search", "hazard"]
    assert party.state.turn == 1 and party.state.clock_text == "08:10"
    assert party.state.last_hazard is not None and party.state.last_hazard.roll == 5


def test_a_bare_turn_takes_the_default_action(party: Expedition) -> None:
    batch = party.execute("turn hazard=5")
    assert events(batch, ev.TurnStarted)[0].action == "cautious"


# Movement ---------------------------------------------------------------------------------


MOVEMENT_TABLE = [
    ("cautious", "slow", "45 yards"),
    ("cautious", "normal", "90 yards"),
    ("cautious", "fast", "135 yards"),
    ("rushing", "slow", "90 yards"),
    ("rushing", "normal", "180 yards"),
    ("rushing", "fast", "270 yards"),
]


def test_the_movement_table(party: Expedition) -> None:
    for action, speed, distance in MOVEMENT_TABLE:
        batch = party.execute(f"turn {action} speed={speed} hazard=5")
        assert events(batch, ev.TurnStarted)[0].distance == distance, (action, speed)


def test_rushing_means_no_searching_no_mapping_and_setback_to_spot_traps(
    party: Expedition,
) -> None:
    started = events(party.execute("turn rushing hazard=5"), ev.TurnStarted)[0]
    assert "no searching" in started.flags and "no mapping" in started.flags
    assert any("setback" in flag and "traps" in flag for flag in started.flags)
    cautious = events(party.execute("turn cautious hazard=5"), ev.TurnStarted)[0]
    assert "maps" in cautious.flags


def test_without_light_movement_is_halved_and_every_roll_has_setback(party: Expedition) -> None:
    party.execute("light off torch2")
    assert party.state.light_level == "dark"
    started = events(party.execute("turn cautious hazard=5"), ev.TurnStarted)[0]
    assert started.distance == "45 yards"
    assert "setback on all rolls" in started.flags
    rushing = events(party.execute("turn rushing speed=fast hazard=5"), ev.TurnStarted)[0]
    assert rushing.distance == "135 yards"


def test_searching_in_the_dark_is_refused_with_a_clear_message(party: Expedition) -> None:
    party.execute("light off torch2")
    before = party.event_count
    with pytest.raises(CommandError) as refused:
        party.execute("turn search dc=12 by=Ash hazard=5")
    assert "Search is not possible in darkness" in refused.value.message
    assert "Light a source first" in refused.value.message
    assert party.event_count == before and party.state.turn == 0


# Checks: search, listen, force a door, pick a lock ----------------------------------------


def test_search_is_wis_against_the_dc_the_referee_sets(party: Expedition) -> None:
    hard = party.execute("turn search dc=16 by=Ash hazard=5 search=13")
    check = events(hard, ev.CheckMade)[0]
    assert (check.name, check.dc, check.total, check.success) == ("Ash", 16, 15, False)
    assert "finds nothing" in events(hard, ev.Logged)[0].text
    easy = party.execute("turn search dc=8 by=Bo hazard=5 search=8")
    check = events(easy, ev.CheckMade)[0]
    assert (check.name, check.dc, check.total, check.success) == ("Bo", 8, 8, True)
    assert "referee reveals" in events(easy, ev.Logged)[0].text


def test_search_rolled_by_the_program_adds_the_wis_modifier(party: Expedition) -> None:
    batch = party.execute("turn search dc=12 by=Ash hazard=5")
    roll = next(r for r in events(batch, ev.DiceRolled) if r.key == "search.Ash")
    assert roll.expression == "d20+2" and not roll.entered
    assert events(batch, ev.CheckMade)[0].total == roll.total


def test_search_asks_for_the_dc_and_the_searcher(party: Expedition) -> None:
    with pytest.raises(CommandError, match="dc=N"):
        party.execute("turn search by=Ash hazard=5")
    with pytest.raises(CommandError, match="by=NAME"):
        party.execute("turn search dc=12 hazard=5")
    assert party.state.turn == 0


@pytest.mark.parametrize(
    ("action", "check_id", "expression"),
    [("force-door", "force", "d20+1"), ("pick-lock", "lock", "d20+3")],
)
def test_forcing_a_door_is_str_and_picking_a_lock_is_dex(
    party: Expedition, action: str, check_id: str, expression: str
) -> None:
    batch = party.execute(f"turn {action} dc=14 by=Ash hazard=5 {check_id}=13")
    roll = next(e for e in events(batch, ev.DiceRolled) if e.key == check_id)
    assert roll.expression == expression
    check = events(batch, ev.CheckMade)[0]
    assert check.dc == 14 and check.success == (roll.total >= 14)
    assert party.state.turn == 1  # each takes 1 turn


def test_listening_at_a_door_is_a_normal_wis_check_dc_12(party: Expedition) -> None:
    heard = events(party.execute("turn listen by=Ash hazard=5 listen=10"), ev.CheckMade)[0]
    assert (heard.dc, heard.total, heard.success) == (12, 12, True)
    silent = events(party.execute("turn listen by=Bo hazard=5 listen=11"), ev.CheckMade)[0]
    assert (silent.dc, silent.total, silent.success) == (12, 11, False)


def test_checks_in_the_dark_roll_with_setback(party: Expedition) -> None:
    party.execute("light off torch2")
    typed = party.execute("turn force-door dc=10 by=Ash hazard=5 force=15,4")
    roll = events(typed, ev.DiceRolled)[0]
    assert roll.expression == "2d20kl1+1" and roll.total == 5
    assert not events(typed, ev.CheckMade)[0].success
    rolled = party.execute("turn listen by=Bo hazard=5")
    assert events(rolled, ev.DiceRolled)[0].expression == "2d20kl1"
    party.execute("light on torch1")
    lit = party.execute("turn listen by=Bo hazard=5 listen=12")
    assert events(lit, ev.DiceRolled)[0].expression == "d20"


@pytest.mark.parametrize("procedure", ["exploration", "exploration-traditional"])
def test_darkvision_sees_darkness_as_dim_and_checks_without_setback(
    expedition: Factory, procedure: str
) -> None:
    """Light › Darkvision: sees darkness as dim light, so a member with it (`pc NAME
    +darkvision`) has no setback in the dark; the rest of the party is still blind, and
    the party still cannot search without light."""
    made = expedition(procedure)
    run(made, "pc add Ash hp=6 WIS=12", "pc add Bo hp=6 WIS=12", "pc Bo +darkvision")
    assert made.state.light_level == "dark"
    batch = made.execute("do surprise surprise.Ash=15,4 surprise.Bo=15")
    expressions = {e.key: e.expression for e in events(batch, ev.DiceRolled)}
    assert expressions == {"surprise.Ash": "2d20kl1+1", "surprise.Bo": "d20+1"}
    with pytest.raises(CommandError, match="not possible in darkness"):
        made.execute("turn search dc=10 by=Bo hazard=5")


def test_surprise_is_a_wis_check_dc_12_for_each_character(party: Expedition) -> None:
    batch = party.execute("do surprise surprise.Ash=10 surprise.Bo=11")
    checks = {check.name: check.success for check in events(batch, ev.CheckMade)}
    assert checks == {"Ash": True, "Bo": False}
    surprised = [log.text for log in events(batch, ev.Logged) if log.label == "Surprised"]
    assert surprised == ["Bo is surprised: cannot act in the first round of combat."]
    assert party.state.turn == 0  # it happens within the turn


# Light ------------------------------------------------------------------------------------


def test_a_torch_burns_for_6_turns(party: Expedition) -> None:
    quiet_turns(party, 5)
    torch = party.state.light("torch2")
    assert torch is not None and torch.lit and torch.minutes == 10
    party.execute("turn hazard=5")
    torch = party.state.light("torch2")
    assert torch is not None and not torch.lit and torch.spent
    assert party.state.light_level == "dark"


def test_a_candle_lasts_1_hour_and_a_lantern_6_hours(party: Expedition) -> None:
    run(party, "light add candle", "light add lantern")
    minutes = {light.kind: light.minutes for light in party.state.lights}
    assert minutes == {"torch": 60, "candle": 60, "lantern": 360}


def test_a_lantern_refuels_to_6_hours(party: Expedition) -> None:
    run(party, "light add lantern carrier=Bo", "light on lantern1", "light set lantern1 turns=1")
    party.execute("turn hazard=5")
    lantern = party.state.light("lantern1")
    assert lantern is not None and not lantern.lit and lantern.minutes == 0
    party.execute("light refuel lantern1")
    lantern = party.state.light("lantern1")
    assert lantern is not None and lantern.minutes == 360 and not lantern.spent
    party.execute("light on lantern1")
    assert party.state.light("lantern1") is not None


# The hazard die ---------------------------------------------------------------------------


def test_a_1_is_an_encounter(party: Expedition) -> None:
    batch = party.execute("turn hazard=1")
    assert len(events(batch, ev.EncounterBegan)) == 1
    assert party.state.encounter == "A wandering monster appears."
    assert party.state.last_hazard is not None and party.state.last_hazard.result == "Encounter"


def test_a_2_is_a_sign_the_game_master_may_describe(party: Expedition) -> None:
    batch = party.execute("turn hazard=2 sign=goblin-tracks")
    assert [sign.text for sign in events(batch, ev.SignFound)] == ["goblin-tracks"]
    assert party.state.sign is None  # it hints at danger; it names no later encounter


def test_a_3_takes_the_torch_with_the_least_time_left(party: Expedition) -> None:
    quiet_turns(party, 1)
    run(party, "light set torch2 turns=2", "light on torch1")  # torch2 is nearly done
    batch = party.execute("turn hazard=3")
    out = events(batch, ev.LightPutOut)
    assert [(light.id, light.spent) for light in out] == [("torch2", True)]
    torch1 = party.state.light("torch1")
    assert torch1 is not None and torch1.lit and torch1.minutes == 50
    assert party.state.last_hazard is not None and party.state.last_hazard.result == "Light"


def test_a_3_empties_a_lantern_which_a_new_flask_relights(party: Expedition) -> None:
    run(
        party,
        "light off torch2",
        "light add lantern carrier=Bo",
        "light on lantern1",
        "light add candle lit carrier=Ash",
    )
    run(party, "turn hazard=3", "turn hazard=5")  # runs low, then dry at the next turn's end
    lantern = party.state.light("lantern1")
    assert lantern is not None and not lantern.lit and lantern.minutes == 0
    candle = party.state.light("candle1")
    assert candle is not None and candle.lit  # candles are not touched
    with pytest.raises(CommandError, match="no time left"):
        party.execute("light on lantern1")
    run(party, "light refuel lantern1", "light on lantern1")
    lantern = party.state.light("lantern1")
    assert lantern is not None and lantern.lit and lantern.minutes == 360


def test_a_3_that_puts_out_the_only_torch_leaves_the_turns_search_made_in_the_light(
    party: Expedition,
) -> None:
    """Turn procedure: "resolve actions (Referee decides when hazard occurs)"; Light: no
    light means no searching. A search made in darkness with setback is neither reading.
    Reading chosen: the search is resolved in the light it was declared in (a plain d20),
    then the 3 puts the only torch out; the next search is refused in the dark."""
    party.execute("turn cautious hazard=5")  # the torch is no longer just lit
    batch = party.execute("turn search dc=12 by=Ash hazard=3 search=10")
    search = next(e for e in events(batch, ev.DiceRolled) if e.key == "search")
    assert search.expression == "d20+2"  # WIS 14, no setback
    assert [(c.total, c.success) for c in events(batch, ev.CheckMade)] == [(12, True)]
    kinds = [type(event).__name__ for event in batch.events]
    assert kinds.index("CheckMade") < kinds.index("LightPutOut")
    assert party.state.light_level == "dark"
    with pytest.raises(CommandError, match="Search is not possible in darkness"):
        party.execute("turn search dc=12 by=Ash hazard=5 search=10")


def test_a_3_with_no_torch_or_lantern_lit_does_nothing(party: Expedition) -> None:
    run(party, "light off torch2", "light add candle lit")
    batch = party.execute("turn hazard=3")
    assert events(batch, ev.LightPutOut) == []


def test_a_4_is_cancelled_when_the_party_rests_next_turn(party: Expedition) -> None:
    party.execute("turn hazard=4")
    assert len(party.state.pending) == 1
    batch = party.execute("turn rest hazard=5")
    resolved = events(batch, ev.DeferredResolved)
    assert [r.applied for r in resolved] == [False]
    assert events(batch, ev.CheckMade) == []
    assert fatigue(party) == {"Ash": 0, "Bo": 0}


def test_a_4_asks_each_character_a_con_save_dc_12_next_turn(party: Expedition) -> None:
    party.execute("turn hazard=4")
    batch = party.execute("turn hazard=5 con.Ash=10 con.Bo=11")
    checks = {c.name: (c.dc, c.total, c.success) for c in events(batch, ev.CheckMade)}
    assert checks == {"Ash": (12, 12, True), "Bo": (12, 11, False)}
    assert fatigue(party) == {"Ash": 0, "Bo": 1}


def test_a_failed_con_save_gains_one_fatigue(party: Expedition) -> None:
    party.execute("turn hazard=4")
    batch = party.execute("turn hazard=5 con.Ash=3 con.Bo=2")
    changed = events(batch, ev.FatigueChanged)
    assert [(c.name, c.level, c.label) for c in changed] == [
        ("Ash", 1, "1 fatigue"),
        ("Bo", 1, "1 fatigue"),
    ]
    party.execute("turn hazard=4")
    party.execute("turn hazard=5 con.Ash=3 con.Bo=20")
    assert fatigue(party) == {"Ash": 2, "Bo": 1}


def test_a_4_while_resting_is_ignored(party: Expedition) -> None:
    batch = party.execute("turn rest hazard=4")
    assert events(batch, ev.ResultRead)[0].ignored == "while resting"
    assert party.state.pending == ()


def test_fatigue_stops_at_6(party: Expedition) -> None:
    party.execute("pc Bo fatigue=6")
    party.execute("turn hazard=4")
    batch = party.execute("turn hazard=5 con.Ash=20 con.Bo=1")
    assert not events(batch, ev.CheckMade)[1].success
    assert events(batch, ev.FatigueChanged) == []
    assert fatigue(party)["Bo"] == 6
    assert find("exploration").party.fatigue[-1] == "6 fatigue"


def test_a_5_or_6_is_nothing(party: Expedition) -> None:
    for face in (5, 6):
        batch = party.execute(f"turn hazard={face}")
        kinds = {type(event).__name__ for event in batch.events}
        assert kinds == {"TurnStarted", "DiceRolled", "ResultRead", "LightsBurned", "TurnEnded"}
        hazard = party.state.last_hazard
        assert hazard is not None and (hazard.roll, hazard.result) == (face, "Nothing")


# Fatigue and rest -------------------------------------------------------------------------


def test_skipping_the_rest_after_6_turns_asks_a_con_save(party: Expedition) -> None:
    quiet_turns(party, 6)
    run(party, "light on torch1")
    batch = party.execute("turn hazard=5 con.Ash=9 con.Bo=12")
    assert events(batch, ev.RestSkipped)[0].turns == 6
    checks = {c.name: (c.dc, c.success) for c in events(batch, ev.CheckMade)}
    assert checks == {"Ash": (12, False), "Bo": (12, True)}
    assert fatigue(party) == {"Ash": 1, "Bo": 0}


def test_a_4_and_a_skipped_rest_in_one_turn_ask_two_saves_in_order(party: Expedition) -> None:
    quiet_turns(party, 5)
    party.execute("turn hazard=4")
    run(party, "light on torch1")
    # The hazard's save comes first (at the start of the turn), then the skipped rest's.
    batch = party.execute("turn hazard=5 con.Ash=2 con.Ash=20 con.Bo=20 con.Bo=1")
    checks = [(c.label, c.name, c.success) for c in events(batch, ev.CheckMade)]
    assert checks == [
        ("CON save (fatigue)", "Ash", False),
        ("CON save (fatigue)", "Bo", True),
        ("CON save (skipped rest)", "Ash", True),
        ("CON save (skipped rest)", "Bo", False),
    ]
    assert fatigue(party) == {"Ash": 1, "Bo": 1}


def test_resting_after_6_turns_asks_nothing(party: Expedition) -> None:
    quiet_turns(party, 6)
    run(party, "light on torch1")
    rest = party.execute("turn rest hazard=5")
    assert events(rest, ev.RestSkipped) == [] and events(rest, ev.CheckMade) == []
    quiet_turns(party, 6)
    assert fatigue(party) == {"Ash": 0, "Bo": 0}


def test_a_rest_is_a_turn_without_movement(party: Expedition) -> None:
    """Fatigue & Rest: "Rest means sitting, eating, drinking, catching breath — not moving";
    the quick reference: a rest takes 1 turn and needs no check."""
    batch = party.execute("turn rest hazard=5")
    started = events(batch, ev.TurnStarted)[0]
    assert started.resting and started.distance == ""
    assert events(batch, ev.CheckMade) == []
    assert party.state.turn == 1 and party.state.turns_since_rest == 0


def test_a_rest_within_the_hour_starts_the_count_again(party: Expedition) -> None:
    quiet_turns(party, 3)
    party.execute("turn rest hazard=5")
    quiet_turns(party, 3)
    run(party, "light on torch1")
    quiet_turns(party, 3)
    assert party.state.turns_since_rest == 6 and fatigue(party) == {"Ash": 0, "Bo": 0}


# Replay -----------------------------------------------------------------------------------


def test_replaying_the_file_gives_the_same_state(party: Expedition) -> None:
    run(
        party,
        "turn hazard=4",
        "turn rushing speed=fast con.Ash=2 con.Bo=19",
        "turn search dc=14 by=Ash",
        "turn cautious hazard=3",
        "light add lantern lit",
        "do surprise",
        "turn listen by=Bo",
        "turn rest",
        "turn",
    )
    before = party.state
    assert reopened(party).state == before


# Traditional bookkeeping ------------------------------------------------------------------


@pytest.fixture
def traditional(expedition: Factory) -> Expedition:
    x = expedition("exploration-traditional", seed=4)
    run(x, "pc add Ash hp=8 CON=14", "light add torch count=2", "light on torch")
    return x


def test_traditional_a_1_on_the_d6_is_an_encounter(traditional: Expedition) -> None:
    batch = traditional.execute("turn hazard=1")
    assert events(batch, ev.DiceRolled)[0].expression == "1-in-6"
    assert len(events(batch, ev.EncounterBegan)) == 1
    hazard = traditional.state.last_hazard
    assert hazard is not None and (hazard.roll, hazard.result) == (1, "Encounter")


def test_traditional_2_to_6_is_nothing_and_touches_no_light(traditional: Expedition) -> None:
    for face in (2, 3, 4, 5, 6):
        batch = traditional.execute(f"turn hazard={face}")
        assert events(batch, ev.EncounterBegan) == [] and events(batch, ev.LightPutOut) == []
        assert traditional.state.pending == ()
        hazard = traditional.state.last_hazard
        assert hazard is not None and (hazard.roll, hazard.result) == (face, "Nothing")


def test_traditional_torch_6_turns_lantern_1_watch_of_4_hours(traditional: Expedition) -> None:
    run(traditional, "light add lantern", "light add candle")
    minutes = {light.kind: light.minutes for light in traditional.state.lights}
    assert minutes == {"torch": 60, "lantern": 240, "candle": 60}
    run(traditional, "light set lantern1 turns=0", "light refuel lantern1")
    lantern = traditional.state.light("lantern1")
    assert lantern is not None and lantern.minutes == 240


def test_traditional_rest_is_tracked_once_an_hour(traditional: Expedition) -> None:
    quiet_turns(traditional, 6)
    run(traditional, "light on torch1")
    batch = traditional.execute("turn hazard=5 con=4")
    assert len(events(batch, ev.RestSkipped)) == 1
    assert traditional.state.party[0].fatigue == 1


def test_traditional_moves_by_the_same_table_and_darkness_halves_it(
    traditional: Expedition,
) -> None:
    """Movement and Light (no light) hold in the traditional variant too: the movement
    table, rushing's flags, and in darkness movement halved, setback and no searching."""
    for action, speed, distance in MOVEMENT_TABLE:
        batch = traditional.execute(f"turn {action} speed={speed} hazard=5")
        assert events(batch, ev.TurnStarted)[0].distance == distance, (action, speed)
    traditional.execute("light on torch1")  # torch2 burnt out after its 6 turns
    started = events(traditional.execute("turn rushing hazard=5"), ev.TurnStarted)[0]
    assert "no searching" in started.flags and "no mapping" in started.flags
    traditional.execute("light off torch1")
    started = events(traditional.execute("turn cautious hazard=5"), ev.TurnStarted)[0]
    assert started.distance == "45 yards" and "setback on all rolls" in started.flags
    with pytest.raises(CommandError, match="Search is not possible in darkness"):
        traditional.execute("turn search dc=12 by=Ash hazard=5")


def test_traditional_quick_reference_checks_and_setback_in_the_dark(
    traditional: Expedition,
) -> None:
    """Searching (WIS vs the referee's DC) and the quick reference (force a door STR, pick a
    lock DEX, listen WIS at DC 12), each 1 turn; in darkness they roll with setback."""
    traditional.execute("pc add Cy hp=6 STR=14 DEX=16 WIS=12")
    plays = [
        ("turn search dc=16 by=Cy hazard=5 search=15", "d20+1", (16, 16, True)),
        ("turn force-door dc=14 by=Cy hazard=5 force=12", "d20+2", (14, 14, True)),
        ("turn pick-lock dc=14 by=Cy hazard=5 lock=10", "d20+3", (14, 13, False)),
        ("turn listen by=Cy hazard=5 listen=11", "d20+1", (12, 12, True)),
    ]
    for command, expression, check in plays:
        batch = traditional.execute(command)
        rolled = [e.expression for e in events(batch, ev.DiceRolled) if e.key != "hazard"]
        assert rolled == [expression], command
        made = events(batch, ev.CheckMade)[0]
        assert (made.dc, made.total, made.success) == check, command
    assert traditional.state.turn == 4
    traditional.execute("light off torch2")
    batch = traditional.execute("turn listen by=Cy hazard=5 listen=15,4")
    assert [e.expression for e in events(batch, ev.DiceRolled) if e.key == "listen"] == [
        "2d20kl1+1"
    ]


def test_traditional_surprise_is_a_wis_check_dc_12_for_each_character(
    traditional: Expedition,
) -> None:
    """Surprise: a WIS check (DC 12) for each character; some may be surprised."""
    traditional.execute("pc add Cy hp=6 WIS=14")
    batch = traditional.execute("do surprise surprise.Ash=12 surprise.Cy=9")
    checks = {check.name: (check.total, check.success) for check in events(batch, ev.CheckMade)}
    assert checks == {"Ash": (12, True), "Cy": (11, False)}
    assert traditional.state.turn == 0


def test_traditional_the_encounter_roll_comes_first_and_no_light_depends_on_it(
    traditional: Expedition,
) -> None:
    """Turn procedure: roll the die, then resolve actions. The traditional roll touches no
    light, so the order the text gives is kept: the die, then the search, in the light."""
    traditional.execute("pc add Cy hp=6 WIS=12")
    batch = traditional.execute("turn search dc=10 by=Cy hazard=1 search=12")
    kinds = [type(event).__name__ for event in batch.events]
    assert kinds.index("ResultRead") < kinds.index("CheckMade")
    assert len(events(batch, ev.EncounterBegan)) == 1
    assert traditional.state.light_level == "bright"


def test_traditional_a_torch_goes_out_after_its_6_turns_of_10_minutes(
    traditional: Expedition,
) -> None:
    """Light: "torch = 6 Turns", tracked by the clock alone: a turn is 10 minutes, and the
    torch is out at the end of its sixth."""
    quiet_turns(traditional, 5)
    torch = traditional.state.light("torch2")
    assert torch is not None and torch.lit
    traditional.execute("turn hazard=5")  # the sixth turn
    torch = traditional.state.light("torch2")
    assert torch is not None and torch.spent and traditional.state.light_level == "dark"
    assert traditional.state.clock_text == "09:00"


def test_traditional_replaying_the_file_gives_the_same_state(traditional: Expedition) -> None:
    run(
        traditional,
        "pc add Cy hp=6 WIS=12 STR=14",
        "turn hazard=1",
        "turn rushing speed=fast",
        "turn search dc=14 by=Cy",
        "do surprise",
        "turn force-door dc=12 by=Cy",
        "light add lantern lit",
        "turn rest",
        "turn",
    )
    before = traditional.state
    assert reopened(traditional).state == before


def test_traditional_a_rest_is_a_turn_without_movement(traditional: Expedition) -> None:
    """Fatigue & Rest: resting is "not moving or doing anything strenuous", 1 turn, no
    check; it starts the hour's count again."""
    quiet_turns(traditional, 3)
    batch = traditional.execute("turn rest hazard=5")
    started = events(batch, ev.TurnStarted)[0]
    assert started.resting and started.distance == ""
    assert events(batch, ev.CheckMade) == [] and traditional.state.turns_since_rest == 0
