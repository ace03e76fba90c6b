"""The shipped Trespasser procedure, rule by rule, as a Judge would run it at the table.

Every die is typed (``KEY=N``) so each outcome is exact: ``hazard`` is the d10 encounter
check, ``usage.ID`` a light's usage die, ``CHECK.NAME`` a character's d20.
"""

from __future__ import annotations

import pytest

from delvetui.core import events as ev
from delvetui.core.log import lines
from delvetui.core.timeline import Batch
from delvetui.errors import CommandError, InputNeeded
from delvetui.session import Expedition
from tests.conftest import Factory, of, reopened, run


def said_of(expedition: Expedition, batch: Batch) -> list[str]:
    """The turn log's lines for one command."""
    return [
        line.text
        for line in lines(expedition.batches(), expedition.procedure)
        if line.batch == batch.seq
    ]


def alarm(expedition: Expedition) -> int:
    return expedition.state.counter("alarm")


def with_alarm(expedition: Factory, value: int) -> Expedition:
    """A two-member party with the alarm raised to ``value`` by staying put."""
    made = expedition("trespasser")
    run(made, "pc add Ash hp=10 MIGHT=14 AGILITY=12 ENDURANCE=3", "pc add Bryn hp=8")
    for _ in range(value):
        made.execute("turn stay")
    assert alarm(made) == value
    return made


def test_a_dungeon_round_is_ten_minutes_and_advance_is_the_default(expedition: Factory) -> None:
    made = expedition("trespasser", start="09:00")
    procedure = made.procedure
    assert procedure.time.turn_name == "dungeon round"
    assert procedure.source == "Trespasser Dungeon Procedure"
    batch = made.execute("turn hazard=10")
    assert of(batch, ev.TurnStarted)[0].action == "advance"
    assert made.state.turn == 1
    assert made.state.clock_text == "09:10"


def test_advance_raises_the_alarm_then_an_encounter_on_d10_at_most_alarm_resets_it(
    expedition: Factory,
) -> None:
    made = with_alarm(expedition, 2)
    batch = made.execute("turn advance hazard=3")
    changes = of(batch, ev.CounterChanged)
    # The alarm goes to 3 before the d10 is read, so a 3 is an encounter.
    assert [c.value for c in changes] == [3, 0]
    kinds = [type(e) for e in batch.events]
    assert kinds.index(ev.CounterChanged) < kinds.index(ev.DiceRolled)
    assert of(batch, ev.ResultRead)[0].label == "Encounter"
    assert len(of(batch, ev.EncounterBegan)) == 1
    assert alarm(made) == 0
    assert made.state.last_hazard is not None
    assert made.state.last_hazard.roll == 3


def test_advance_with_the_d10_above_the_alarm_has_no_encounter(expedition: Factory) -> None:
    made = with_alarm(expedition, 2)
    batch = made.execute("turn advance hazard=4")
    assert of(batch, ev.ResultRead)[0].label == "No encounter"
    assert of(batch, ev.EncounterBegan) == []
    assert alarm(made) == 3


def test_advance_at_alarm_zero_still_raises_it_first_so_a_one_is_an_encounter(
    expedition: Factory,
) -> None:
    made = expedition("trespasser")
    batch = made.execute("turn advance hazard=1")
    assert len(of(batch, ev.EncounterBegan)) == 1
    assert alarm(made) == 0


def test_stay_raises_the_alarm_without_a_check(expedition: Factory) -> None:
    made = with_alarm(expedition, 0)
    batch = made.execute("turn stay")
    assert alarm(made) == 1
    assert of(batch, ev.DiceRolled) == []
    assert of(batch, ev.EncounterBegan) == []
    # The encounter check is Advance's and Backtrack's: a result typed for it is refused.
    with pytest.raises(CommandError, match="made only by the actions that call for it"):
        made.execute("turn stay hazard=1")
    assert alarm(made) == 1


def test_backtrack_leaves_the_alarm_and_checks_for_an_encounter(expedition: Factory) -> None:
    made = with_alarm(expedition, 4)
    batch = made.execute("turn backtrack hazard=5")
    assert of(batch, ev.CounterChanged) == []
    assert of(batch, ev.DiceRolled)[0].key == "hazard"
    assert alarm(made) == 4
    batch = made.execute("turn backtrack hazard=4")
    assert len(of(batch, ev.EncounterBegan)) == 1
    assert alarm(made) == 0


def test_hide_with_success_lowers_the_alarm_by_two_plus_one_per_spark(expedition: Factory) -> None:
    made = with_alarm(expedition, 7)
    batch = made.execute("turn hide stealth=success sparks=2")
    assert [c.change for c in of(batch, ev.CounterChanged)] == [-4]
    assert alarm(made) == 3
    assert of(batch, ev.DiceRolled) == []  # the Stealth check stands in for the d10
    made.execute("turn hide stealth=success sparks=0")  # no sparks: by two
    assert alarm(made) == 1


def test_hide_with_success_and_two_sparks_never_goes_below_zero(expedition: Factory) -> None:
    made = with_alarm(expedition, 3)
    made.execute("turn hide stealth=success sparks=2")
    assert alarm(made) == 0


def test_hide_with_failure_is_an_encounter_which_resets_the_alarm(expedition: Factory) -> None:
    made = with_alarm(expedition, 5)
    batch = made.execute("turn hide stealth=failure")
    assert len(of(batch, ev.EncounterBegan)) == 1
    assert alarm(made) == 0
    assert made.state.encounter is not None


def test_hide_without_stealth_is_refused_with_a_clear_message_and_writes_nothing(
    expedition: Factory,
) -> None:
    made = with_alarm(expedition, 3)
    before = (made.state, made.batch_count, made.event_count, len(list(made.batches())))
    with pytest.raises(CommandError) as refused:
        made.execute("turn hide sparks=1")
    assert "Hide needs the group Stealth check" in refused.value.message
    assert "stealth=success or stealth=failure" in refused.value.message
    with pytest.raises(CommandError, match="stealth=maybe is not allowed"):
        made.execute("turn hide stealth=maybe")
    # The table asks for it instead: the same sentence, with what to ask.
    with pytest.raises(InputNeeded) as asked:
        made.execute("turn hide sparks=1", ask_inputs=True)
    assert (asked.value.key, asked.value.expression) == ("stealth", "success|failure")
    assert asked.value.message == refused.value.message
    after = (made.state, made.batch_count, made.event_count, len(list(made.batches())))
    assert after == before


def test_the_alarm_stops_at_ten(expedition: Factory) -> None:
    made = with_alarm(expedition, 10)
    batch = made.execute("turn stay")
    assert of(batch, ev.CounterChanged) == []
    assert alarm(made) == 10


def test_a_torch_usage_die_steps_down_on_a_one_or_two_and_is_spent_after_the_d4(
    expedition: Factory,
) -> None:
    made = expedition("trespasser")
    run(made, "pc add Ash hp=10", "light add torch carrier=Ash lit")
    assert made.state.lights[0].usage_die == 6
    batch = made.execute("turn stay usage.torch1=3")
    assert of(batch, ev.UsageDieStepped) == []
    # The depletion check comes at the start of the round, before the navigation.
    kinds = [type(e) for e in batch.events]
    assert kinds.index(ev.DiceRolled) < kinds.index(ev.CounterChanged)
    made.execute("turn stay usage.torch1=2")
    assert made.state.lights[0].usage_die == 4
    made.execute("turn stay usage.torch1=4")
    assert made.state.lights[0].lit
    batch = made.execute("turn stay usage.torch1=1")
    assert [e.die for e in of(batch, ev.UsageDieStepped)] == [None]
    assert of(batch, ev.LightPutOut)[0].spent
    light = made.state.lights[0]
    assert (light.lit, light.spent) == (False, True)
    assert made.state.light_level == "dark"
    batch = made.execute("turn stay")  # nothing left burning: no depletion check
    assert of(batch, ev.DiceRolled) == []


def test_a_usage_die_light_has_no_turns_to_set_and_its_die_is_corrected_instead(
    expedition: Factory,
) -> None:
    """Trespasser, light: a light's life is its depletion checks (the usage die), not a count
    of rounds. Setting turns on a torch would put a countdown on top of the die, so it is
    refused with what to do instead; ``light set torch1 die=d6`` corrects the die, and the
    depletion check then rolls that die."""
    made = expedition("trespasser")
    run(made, "pc add Ash hp=10", "light add torch carrier=Ash lit")
    made.execute("turn stay usage.torch1=1")
    assert made.state.lights[0].usage_die == 4
    before = (made.state, made.batch_count, made.event_count)
    with pytest.raises(CommandError) as refused:
        made.execute("light set torch1 turns=2")
    assert refused.value.message == (
        "torch1 burns down on its usage die (now d4), not by turns; set its die instead "
        "(light set torch1 die=d6)."
    )
    with pytest.raises(CommandError, match="not by turns"):
        made.execute("light set torch1 minutes=20")
    assert (made.state, made.batch_count, made.event_count) == before
    batch = made.execute("light set torch1 die=d6")
    assert [(e.id, e.die) for e in of(batch, ev.UsageDieSet)] == [("torch1", 6)]
    assert said_of(made, batch) == ["torch1's usage die is set to d6 (set by the game master)."]
    light = made.state.lights[0]
    assert (light.usage_die, light.minutes, light.lit) == (6, None, True)
    # Two rounds of sixes leave it burning: nothing counts down beside the die.
    for _ in range(2):
        batch = made.execute("turn stay usage.torch1=6")
        assert [e.expression for e in of(batch, ev.DiceRolled)] == ["d6"]
    assert made.state.lights[0].lit
    assert of(batch, ev.LightPutOut) == []


def test_a_spent_torch_corrected_to_a_die_burns_again_and_a_timed_light_has_no_die(
    expedition: Factory,
) -> None:
    """A correction undoes a mistake: a torch wrongly spent is given its die back. A light
    that counts time (exploration's torch, 6 turns) has no usage die to set."""
    made = expedition("trespasser")
    run(made, "pc add Ash hp=10", "light add torch carrier=Ash lit", "light add torch")
    for face in (1, 1):  # d6 steps to d4, and the d4 is spent
        made.execute(f"turn stay usage.torch1={face}")
    torch = made.state.light("torch1")
    assert torch is not None and torch.spent
    made.execute("light set torch1 die=d4")
    made.execute("light on torch1")
    torch = made.state.light("torch1")
    assert torch is not None and (torch.lit, torch.usage_die) == (True, 4)
    timed = expedition("exploration", name="timed")
    run(timed, "pc add Ash hp=8", "light add torch carrier=Ash lit")
    with pytest.raises(CommandError) as refused:
        timed.execute("light set torch1 die=d6")
    assert refused.value.message == (
        "torch1 has no usage die: it counts its time left; set that instead "
        "(light set torch1 turns=N)."
    )


def test_every_lit_light_makes_its_own_depletion_check(expedition: Factory) -> None:
    made = expedition("trespasser")
    run(
        made,
        "pc add Ash hp=10",
        "light add lantern carrier=Ash lit",
        "light add candle carrier=Ash lit",
        "light add torch count=3",
    )
    batch = made.execute("turn stay usage.lantern1=2 usage.candle1=1")
    rolled = {e.key: e.expression for e in of(batch, ev.DiceRolled)}
    assert rolled == {"usage.lantern1": "d10", "usage.candle1": "d4"}
    lantern, candle = made.state.light("lantern1"), made.state.light("candle1")
    assert lantern is not None and candle is not None
    assert lantern.usage_die == 8
    assert candle.spent


def test_battering_a_door_raises_the_alarm_and_is_a_might_check(expedition: Factory) -> None:
    made = with_alarm(expedition, 2)
    batch = made.execute("do batter-door by=Ash batter.Ash=8")
    assert alarm(made) == 3
    check = of(batch, ev.CheckMade)[0]
    assert (check.name, check.dc, check.total, check.success) == ("Ash", 10, 10, True)  # 8 + 2
    batch = made.execute("do batter-door by=Bryn batter.Bryn=20")
    assert alarm(made) == 4  # Loud even when it works


def test_picking_a_lock_with_an_improvised_pick_takes_minus_four(expedition: Factory) -> None:
    made = with_alarm(expedition, 0)
    batch = made.execute("do pick-lock by=Ash pick.Ash=12")
    assert [(c.dc, c.total, c.success) for c in of(batch, ev.CheckMade)] == [(10, 13, True)]
    made.execute("turn stay")
    batch = made.execute("do pick-lock by=Ash tools=improvised pick.Ash=12")
    assert [(c.dc, c.total, c.success) for c in of(batch, ev.CheckMade)] == [(14, 13, False)]
    assert alarm(made) == 1  # the round stayed raised it; picking is quiet


def test_the_endurance_score_is_kept_beside_the_track_it_starts(expedition: Factory) -> None:
    """ENDURANCE is one of the member's scores and where their endurance starts (the
    ledger's reading of Moment's Rest): the member keeps the score, so the track can start
    from it again (the next expedition sets it back), not from 0."""
    made = expedition("trespasser", seed=2)
    run(made, "pc add Ash hp=10 MIGHT=14 ENDURANCE=3")
    ash = made.state.member("Ash")
    assert ash is not None
    assert (ash.ability("ENDURANCE"), ash.ability("MIGHT"), ash.track("endurance")) == (3, 14, 3)


def test_a_moments_rest_without_eating_costs_one_endurance(expedition: Factory) -> None:
    made = with_alarm(expedition, 0)
    ash = made.state.member("Ash")
    assert ash is not None and ash.track("endurance") == 3
    made.execute("do moments-rest by=Ash ate=yes")
    ash = made.state.member("Ash")
    assert ash is not None and ash.track("endurance") == 3
    made.execute("turn stay")
    batch = made.execute("do moments-rest by=Ash ate=no")
    assert [(t.name, t.value) for t in of(batch, ev.TrackChanged)] == [("Ash", 2)]
    with pytest.raises(CommandError, match="ate=yes or ate=no"):
        made.execute("do moments-rest by=Bryn")


def test_search_rolls_intellect_for_a_room_but_a_specific_feature_always_yields(
    expedition: Factory,
) -> None:
    made = with_alarm(expedition, 0)
    batch = made.execute("do search by=Bryn search.Bryn=9")
    assert [(c.id, c.success) for c in of(batch, ev.CheckMade)] == [("search", False)]
    assert "learns nothing" in of(batch, ev.Logged)[-1].text
    made.execute("turn stay")
    batch = made.execute("do search by=Bryn what=feature")
    assert of(batch, ev.DiceRolled) == []
    assert "10 minutes" in of(batch, ev.Logged)[-1].text


def test_listening_and_casting_take_no_round_and_leave_the_alarm(expedition: Factory) -> None:
    made = with_alarm(expedition, 1)
    batch = made.execute("do listen by=Ash listen.Ash=15")
    assert of(batch, ev.CheckMade)[0].success
    made.execute("do cast-incantation by=Bryn")
    assert made.state.turn == 1
    assert alarm(made) == 1


def test_without_an_encounter_each_member_declares_an_action_but_not_during_one(
    expedition: Factory,
) -> None:
    """Trespasser, navigation: "Without an encounter, each member of the party declares their
    action". A round whose encounter check began an encounter has no character actions
    (the Encounters page takes over); the next round without one has them again."""
    made = with_alarm(expedition, 4)
    made.execute("turn advance hazard=2")  # alarm 5, d10 2: an encounter
    assert made.state.encounter is not None
    before = (made.state, made.batch_count, made.event_count)
    with pytest.raises(CommandError, match="encounter is under way this dungeon round"):
        made.execute("do search by=Ash")
    assert (made.state, made.batch_count, made.event_count) == before
    made.execute("turn stay")
    batch = made.execute("do search by=Ash search.Ash=15")
    assert [(c.name, c.success) for c in of(batch, ev.CheckMade)] == [("Ash", True)]


def test_hide_failing_is_an_encounter_so_no_character_acts_that_round(
    expedition: Factory,
) -> None:
    """Trespasser, Hide: the party "skips taking actions for the turn", and a failure is an
    encounter: either way, no character action that round."""
    made = with_alarm(expedition, 2)
    made.execute("turn hide stealth=failure")
    with pytest.raises(CommandError, match="Hide skips the characters' actions"):
        made.execute("do listen by=Bryn")


def test_each_trespasser_takes_one_action_a_round(expedition: Factory) -> None:
    """Trespasser: "within each dungeon round, each Trespasser will take an action" — one.
    Cy cannot take a Moment's rest and Listen in one round; Ash still has their own action,
    and the next round gives Cy another."""
    made = expedition("trespasser")
    run(made, "pc add Ash hp=10", "pc add Cy hp=8 ENDURANCE=3", "turn stay")
    made.execute("do moments-rest by=Cy ate=no")
    before = (made.state, made.batch_count, made.event_count)
    with pytest.raises(CommandError) as refused:
        made.execute("do listen by=Cy listen.Cy=12")
    assert refused.value.message == (
        "Cy has already taken their action this dungeon round: each member takes one action "
        "a dungeon round. Take the next dungeon round first."
    )
    assert (made.state, made.batch_count, made.event_count) == before
    made.execute("do listen by=Ash listen.Ash=12")
    made.execute("turn stay")
    batch = made.execute("do listen by=Cy listen.Cy=12")
    assert [c.name for c in of(batch, ev.CheckMade)] == ["Cy"]
    assert [e.by for e in of(batch, ev.ActivityDone)] == ["Cy"]


def test_a_character_action_names_who_takes_it(expedition: Factory) -> None:
    """Trespasser: each member declares their own action, so an action says whose it is
    (the table asks); with one member in the party, it is theirs."""
    made = expedition("trespasser")
    run(made, "pc add Ash hp=10", "pc add Cy hp=8", "turn stay")
    with pytest.raises(CommandError, match="Say who does it with by=NAME"):
        made.execute("do cast-incantation")
    with pytest.raises(InputNeeded):
        made.execute("do cast-incantation", ask_inputs=True)
    made.execute("do cast-incantation by=Cy")
    assert made.state.acted == ("Cy",)


def test_replaying_the_file_gives_the_same_state(expedition: Factory) -> None:
    made = expedition("trespasser", seed=7)
    run(
        made,
        "pc add Ash hp=10 MIGHT=14 ENDURANCE=3",
        "light add torch carrier=Ash count=2",
        "light on torch",
        "turn advance",
        "turn stay",
        "turn hide stealth=success sparks=1",
        "turn stay",
        "do batter-door by=Ash",
        "turn stay",
        "do moments-rest by=Ash ate=no",
        "turn backtrack",
        "turn",
        "undo",
    )
    state = made.state
    again = reopened(made)
    try:
        assert again.state == state
    finally:
        again.close()


def test_the_players_see_the_alarm(expedition: Factory) -> None:
    """The players choose Advance, Stay, Hide or Backtrack knowing the alarm: their screen
    shows it, as it rises."""
    from delvetui.core.players import view

    made = expedition("trespasser")
    made.execute("pc add Ash hp=8")
    assert view(made.state, made.procedure).counters == (("Alarm", "0 of 10"),)
    made.execute("counter set alarm 3")
    assert "Alarm: 3 of 10" in view(made.state, made.procedure).lines()
