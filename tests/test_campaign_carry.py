"""Carrying a party to the next expedition (issue #32): ``core.campaign.carry``.

The rules (docs/procedures.md, 3.23b ``[downtime]``): the party comes as the last
expedition ended, healed by the whole days of rest as the new procedure's ``[downtime]``
says (dice rolled and kept in batch 1); the dead and those left behind stay; the lights
come unlit, the spent ones gone; what the new procedure has no place for is said in the
link's notes. The new file replays and passes the import's audit on its own.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from attrs import evolve as attrs_evolve

from delvetui.core import events as ev
from delvetui.core.campaign import Link, carry
from delvetui.core.evolve import fold
from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.errors import CommandError
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.conftest import Factory, of, rolled, run

DAY = MINUTES_PER_DAY
DOCS = Path(__file__).resolve().parent.parent / "docs" / "procedures.md"


def _link(x: Expedition) -> Link:
    return Link(name=x.state.name, id=x.expedition_id, digest=x.digest(), campaign="marches")


def barrow(expedition: Factory) -> Expedition:
    """A Delving expedition played and ended: Ash hurt, Bryn dead, Cy fine; torches used."""
    x = expedition("delving", name="barrow", seed=5)
    run(
        x,
        "pc add Ash hp=8 STR=14 CHA=9",
        "pc add Bryn hp=5",
        "pc add Cy hp=4",
        "light add torch count=3 carrier=Ash lit",
        "light add candle count=2 carrier=Cy",
        "turn hazard=6",
        "pc Ash hp=-5 +poisoned:6 +cursed",
        "pc Bryn hp=0 +dead",
        "end the party is back in town",
    )
    return x


def continued(home: Path, name: str, first: list[ev.Event], procedure: Procedure) -> Expedition:
    return Expedition.create(home / f"{name}.delve", procedure, first=first)


def test_the_party_lights_and_healing_carry_into_a_file_that_stands_alone(
    expedition: Factory, home: Path
) -> None:
    x = barrow(expedition)
    before, old = x.state, x.procedure
    delving = find("delving")
    first = carry(
        "barrow-2", 9, before, old, delving, _link(x), downtime=3 * DAY + 300, rng=random.Random(1)
    )
    y = continued(home, "barrow-2", first, delving)
    try:
        state = y.state
        assert state.predecessor == "barrow" and state.campaign == "marches"
        assert state.clock == before.clock + 3 * DAY + 300 and state.day == before.day + 3
        assert state.turn == 0 and state.minutes == 0 and not state.ended
        assert [m.name for m in state.party] == ["Ash", "Cy"]
        ash = state.member("Ash")
        assert ash is not None
        # Delving's default downtime: 1 HP a day, 3 whole days; the timed poison ended.
        assert ash.hp == 3 + 3 and ash.max_hp == 8 and ash.conditions == ("cursed",)
        assert dict(ash.abilities) == {"STR": 14, "CHA": 9}
        # The lights come home unlit; the lit torch was taken from the stack and carried.
        assert not state.lit_lights
        kinds = sorted((light.kind, light.count) for light in state.lights)
        assert kinds == [("candle", 2), ("torch", 1), ("torch", 2)]
        assert all(light.carrier in ("Ash", "Cy") for light in state.lights)
        link = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
        assert "Bryn died in barrow and stays behind" in link.notes
        y.verify()  # every event is one a command could have written where it stands
    finally:
        y.close()
    again = Expedition.open(home / "barrow-2.delve")
    try:
        assert again.state == state
    finally:
        again.close()


def test_another_procedure_says_what_it_has_no_place_for(expedition: Factory, home: Path) -> None:
    x = barrow(expedition)
    cairn = find("cairn")
    first = carry(
        "cairn-1", 9, x.state, x.procedure, cairn, _link(x), downtime=DAY, rng=random.Random(2)
    )
    link = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert "Ash's CHA is not used by Cairn (second edition) and was left behind" in link.notes
    assert (
        "The 2 candles are not a light of Cairn (second edition) and were left behind"
    ) in link.notes
    y = continued(home, "cairn-1", first, cairn)
    try:
        ash = y.state.member("Ash")
        assert ash is not None and dict(ash.abilities) == {"STR": 14}
        # Cairn counts rations per member: each starts with the procedure's start.
        assert ash.resource("rations") == 3
        assert {light.kind for light in y.state.lights} == {"torch"}
        y.verify()
        y.execute("turn")  # the carried party plays on
    finally:
        y.close()


DOCS_DOWNTIME = re.search(r"```toml\n(\[downtime\]\n.*?)```", DOCS.read_text(), re.DOTALL)


def test_the_documented_downtime_heals_by_dice_each_day(expedition: Factory, home: Path) -> None:
    """The example of docs/procedures.md 3.23b, played: 1d3 a day per member, rolled and
    kept as DiceRolled events; a day of rest clears exhaustion; the rolls replay."""
    assert DOCS_DOWNTIME is not None
    base = find("exploration")
    rested = load_text(base.text + "\n" + DOCS_DOWNTIME.group(1), source="the docs' example")
    assert rested.downtime.heal == "1d3" and rested.downtime.clear == ("exhausted",)
    x = expedition("exploration", name="crypt", seed=3)
    run(x, "pc add Ash hp=12", "pc Ash hp=-10 +exhausted fatigue=2", "end")
    first = carry(
        "crypt-2", 4, x.state, x.procedure, rested, _link(x), downtime=2 * DAY, rng=random.Random(7)
    )
    rolls = [e for e in first if isinstance(e, ev.DiceRolled)]
    assert [r.purpose for r in rolls] == ["Ash's healing, day 1", "Ash's healing, day 2"]
    assert all(r.expression == "d3" and 1 <= r.total <= 3 for r in rolls)
    y = continued(home, "crypt-2", first, rested)
    try:
        ash = y.state.member("Ash")
        assert ash is not None
        assert ash.hp == 2 + sum(r.total for r in rolls)
        assert ash.conditions == () and ash.fatigue == 0
        y.verify()
    finally:
        y.close()


def test_all_heals_in_a_day_and_no_whole_day_heals_nothing(expedition: Factory) -> None:
    x = expedition("exploration", name="crypt")
    run(x, "pc add Ash hp=12", "pc Ash hp=-10", "end")
    text = find("exploration").text + '\n[downtime]\nheal = "all"\n'
    rested = load_text(text, source="test")

    def hp(downtime: int) -> int:
        first = carry(
            "n", 1, x.state, x.procedure, rested, _link(x), downtime=downtime, rng=random.Random()
        )
        state = State()
        from delvetui.core.evolve import fold

        found = fold(state, first).member("Ash")
        assert found is not None
        return found.hp

    assert hp(DAY) == 12
    assert hp(DAY - 1) == 2  # 23 hours is no whole day of rest


def test_leaving_a_member_behind_and_an_unknown_one(expedition: Factory) -> None:
    x = barrow(expedition)
    first = carry(
        "n", 1, x.state, x.procedure, x.procedure, _link(x), downtime=0, rng=random.Random(),
        leave=["cy"],
    )  # fmt: skip
    joined = [e.name for e in first if isinstance(e, ev.MemberJoined)]
    assert joined == ["Ash"]
    # Cy's candles come home with the party, carried by no one now.
    assert {e.carrier for e in first if isinstance(e, ev.LightAdded) and e.kind == "candle"} == {
        None
    }
    link = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert "Cy was left behind" in link.notes
    # With no time passed nothing heals and the poison lasts on.
    assert any(isinstance(e, ev.ConditionTimed) and e.condition == "poisoned" for e in first)
    with pytest.raises(CommandError, match="no member 'Dax' in barrow's party"):
        carry(
            "n", 1, x.state, x.procedure, x.procedure, _link(x), downtime=0, rng=random.Random(),
            leave=["Dax"],
        )  # fmt: skip


def test_a_torchs_strikes_carry_and_the_adventures_tables_come_along() -> None:
    """Cairn counts the lightings a torch has used: they carry with it. The adventure's own
    tables come along with the dungeon (its rooms, tests/test_rooms_campaign.py), its first
    area in use."""
    from delvetui.core.evolve import fold
    from delvetui.core.state import Light

    cairn = find("cairn")
    torch = Light(id="torch1", kind="torch", carrier=None, brightness="bright", strikes=2)
    before = State(name="barrow", clock=DAY, lights=(torch,), ended=True)
    tables = (
        'id = "crypt"\nname = "Crypt"\n[areas.hall]\nlabel = "Hall"\ndice = "d4"\n'
        'rows = [{ roll = "1-4", creature = "Rats" }]\n'
    )
    before = attrs_evolve(before, adventures=(("crypt", tables),), area="hall")
    link = Link(name="barrow", id="0" * 32, digest="0" * 64, campaign="barrow")
    first = carry("n", 1, before, cairn, cairn, link, downtime=DAY, rng=random.Random())
    after = fold(State(), first)
    carried = after.light("torch1")
    assert carried is not None and carried.strikes == 2 and not carried.lit
    assert after.adventures == before.adventures and after.area == "hall"
    continued = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert not any("tables" in note for note in continued.notes)
    assert not any("counter" in note for note in continued.notes)  # the path is at its start


def test_what_the_next_procedure_does_not_keep_is_said(expedition: Factory) -> None:
    """Cairn's rations are each member's; Delving keeps none: they are said to stay."""
    x = expedition("cairn", name="road")
    run(x, "pc add Ash hp=6 STR=12", "counter set path 3", "end")
    first = carry(
        "n", 1, x.state, x.procedure, find("delving"), _link(x), downtime=DAY,
        rng=random.Random(),
    )  # fmt: skip
    continued = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert "Ash's rations (3): Delving keeps none for each member, so they were left behind" in (
        continued.notes
    )
    assert "The party's path counter (3) does not carry" in continued.notes


def test_a_campfire_and_the_daylight_stay_where_they_were(expedition: Factory) -> None:
    """Shadowdark, Resting › Campfire: a campfire cannot be moved once lit, and daylight is
    no light anyone carries (`carried = false`): neither comes home to the next expedition,
    and the link says so; the torches the party carried do. Travel-turn's daylight (Light ›
    Well Lit) likewise."""
    x = expedition("shadowdark", name="crypt")
    run(
        x,
        "pc add Ash hp=6",
        "light add torch count=5 carrier=Ash",
        "enter camp",
        "light add campfire lit",
        "light add daylight lit",
        "end",
    )
    first = carry(
        "n", 1, x.state, x.procedure, x.procedure, _link(x), downtime=DAY, rng=random.Random()
    )
    assert [e.kind for e in first if isinstance(e, ev.LightAdded)] == ["torch"]
    continued = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert "campfire1 stays where it was (not a light the party carries)" in continued.notes
    assert "daylight1 stays where it was (not a light the party carries)" in continued.notes
    # The d20 gameplay chapter's daylight (travel-turn) is the same.
    y = expedition("travel-turn", name="road")
    run(y, "pc add Ash hp=6", "light add daylight lit", "light add torch", "end")
    first = carry(
        "n", 1, y.state, y.procedure, y.procedure, _link(y), downtime=DAY, rng=random.Random()
    )
    assert [e.kind for e in first if isinstance(e, ev.LightAdded)] == ["torch"]


def test_the_link_says_the_downtime_follows_the_end() -> None:
    """The next expedition starts at the predecessor's end plus the downtime (issue #32,
    the calendar): the log line ties the downtime to the new expedition, never reading as
    if the predecessor ended after it."""
    from delvetui.core.log import continued_text

    link = ev.ExpeditionContinued(
        predecessor="keep",
        predecessor_id="0" * 32,
        predecessor_digest="0" * 64,
        campaign="Borderlands",
        ended_clock=9 * DAY + 680,
        downtime_minutes=3 * DAY,
        notes=("Bryn died in keep and stays behind",),
    )
    assert continued_text(link) == (
        "The expedition continues keep (campaign Borderlands) after 3 days of downtime; keep "
        "ended day 10, 11:20. Bryn died in keep and stays behind."
    )


def test_a_torch_burning_by_rounds_keeps_burning_by_rounds(expedition: Factory) -> None:
    """Shadowdark, Time › Real Time: a table that keeps no real time counts a torch's hour
    as ten rounds (`light realtime ID off`). Carried home with four rounds left, the torch
    burns those four rounds in the next expedition, not a fresh real hour; a torch still
    on the real-time clock keeps its seconds left."""
    x = expedition("shadowdark", name="crypt")
    run(
        x,
        "pc add Ash hp=6",
        "light add torch carrier=Ash",
        "light add torch carrier=Ash",
        "light realtime torch1 off",
        "light on torch1",
        *["turn crawl"] * 6,
        "light off torch1",
        "light realtime torch2 25m",
        "end",
    )
    first = carry(
        "n", 1, x.state, x.procedure, x.procedure, _link(x), downtime=DAY, rng=random.Random()
    )
    from delvetui.core.evolve import fold

    state = fold(State(), first)
    by_rounds, real = state.light("torch1"), state.light("torch2")
    assert by_rounds is not None and real is not None
    assert (by_rounds.real_time, by_rounds.minutes) == (False, 24)
    assert (real.real_time, real.real_seconds) == (True, 25 * 60)


def test_a_torch_from_a_game_of_turns_burns_its_time_left_in_real_time(
    expedition: Factory,
) -> None:
    """Shadowdark's torch burns one real hour (Crawling › Light Sources): an OSE torch
    carried into it with three turns (30 minutes) left burns 30 real minutes, not an hour."""
    x = expedition("ose", name="barrow")
    run(x, "pc add Ash hp=6", "light add torch carrier=Ash lit", *["turn"] * 3, "end")
    first = carry(
        "n", 1, x.state, x.procedure, find("shadowdark"), _link(x), downtime=DAY,
        rng=random.Random(),
    )  # fmt: skip
    from delvetui.core.evolve import fold

    torch = fold(State(), first).light("torch1")
    assert torch is not None and torch.real_seconds == 30 * 60


def test_a_torch_burned_in_the_last_expedition_is_not_rolled_again(
    expedition: Factory, home: Path
) -> None:
    """Basic Fantasy, Light: a torch burns 1d4+4 turns, rolled when it is first lit; lit
    again later it burns what it has left. A torch and a lantern carried home part-burned
    burn their time left in the next expedition, rolling nothing; a fresh one from the
    stack still rolls."""
    x = expedition("basic-fantasy", name="keep", seed=2)
    run(
        x,
        "pc add Ash hp=5",
        "light add torch count=3 carrier=Ash",
        "light add lantern carrier=Ash",
        "light on torch burn=1",  # torch2: 5 turns
        "light on lantern1 burn=2",  # 20 turns
        "turn explore",
        "turn explore",
        "light off torch2",
        "light on torch burn=4",  # torch3: 8 turns, more than an unlit torch shows (6)
        "turn explore",
        "end",
    )
    bf = x.procedure
    first = carry("keep-2", 3, x.state, bf, bf, _link(x), downtime=DAY, rng=random.Random(1))
    y = continued(home, "keep-2", first, bf)
    try:
        for light_id, turns in (("torch2", 3), ("lantern1", 17), ("torch3", 7)):
            batch = y.execute(f"light on {light_id}")
            assert not rolled(batch), light_id
            lit = y.state.light(light_id)
            assert lit is not None and lit.minutes == turns * 10
            y.execute(f"light off {light_id}")
        batch = y.execute("light on torch1")
        assert [e.purpose for e in of(batch, ev.DiceRolled)] == ["how long torch1 burns, in turns"]
    finally:
        y.close()


def test_a_torch_dimmed_by_a_depletion_comes_home_dim(expedition: Factory, home: Path) -> None:
    """Dungeon Turn's Depletion (docs/rules/dungeon-turn.md, Dungeon Hazard Die › 5): a
    torch dims at the first, and a dim light goes out at the next. A dimmed torch carried
    home unlit is still half burnt: lit again in the next expedition it gives dim light, and
    the next Depletion puts it out."""
    x = expedition("dungeon-turn", name="deep", seed=2)
    run(x, "pc add Ash hp=6", "light add torch count=2 carrier=Ash", "light on torch")
    run(x, *["turn hazard=6"] * 6, "turn hazard=5", "end")  # the first 6 turns ignore a 5
    assert x.state.light("torch2") is not None and x.state.light("torch2").dimmed  # type: ignore[union-attr]
    procedure = find("dungeon-turn")
    first = carry(
        "deep-2", 3, x.state, x.procedure, procedure, _link(x), downtime=DAY, rng=random.Random(1)
    )
    y = continued(home, "deep-2", first, procedure)
    try:
        run(y, "light on torch2")
        torch = y.state.light("torch2")
        assert torch is not None and torch.state == "dim"
        assert y.state.light("torch1") is not None and not y.state.light("torch1").dimmed  # type: ignore[union-attr]
        run(y, *["turn hazard=6"] * 6, "turn hazard=5")
        torch = y.state.light("torch2")
        assert torch is not None and not torch.lit and torch.spent
        y.verify()
    finally:
        y.close()


def test_a_single_light_left_behind_is_named_as_its_id_reads(
    expedition: Factory, home: Path
) -> None:
    """A light the next procedure has no place for is said, not silently dropped (issue #32,
    The next expedition): a lone candle is named by its id as the log and `status` show it
    ('candle2'), and the log's sentence does not turn it into 'Candle2'."""
    from delvetui.core.log import continued_text

    x = expedition("delving", name="crypt", seed=5)
    run(x, "pc add Ash hp=6", "light add candle count=3 carrier=Ash", "light on candle", "end")
    travel = find("travel-turn")
    first = carry(
        "road", 9, x.state, x.procedure, travel, _link(x), downtime=DAY, rng=random.Random(2)
    )
    link = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert "The candle candle2 is not a light of Travel Turns and was left behind" in link.notes
    assert " The candle candle2 is not a light of Travel Turns" in continued_text(link)


def test_a_track_that_starts_from_a_score_the_member_lacks_is_said(
    expedition: Factory, home: Path
) -> None:
    """Trespasser's endurance starts at the character's ENDURANCE (docs/rules/trespasser.md,
    Moment's Rest, Reading). A Delving party has no such score: carried into Trespasser,
    each member's endurance would start at 0 without a word. What the next procedure needs
    and the party lacks is said (issue #32: said, not silently dropped), with the command
    that sets it; a member who has the score is not named."""
    x = expedition("delving", name="crypt", seed=5)
    run(x, "pc add Ash hp=6", "pc add Bo hp=5 ENDURANCE=3", "end")
    trespasser = find("trespasser")
    first = carry(
        "halls", 9, x.state, x.procedure, trespasser, _link(x), downtime=DAY, rng=random.Random(2)
    )
    link = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert (
        "Ash has no ENDURANCE, where Trespasser's Endurance starts: set it with "
        "`pc Ash ENDURANCE=N`"
    ) in link.notes
    assert not any(note.startswith("Bo ") for note in link.notes)
    y = continued(home, "halls", first, trespasser)
    try:
        run(y, "pc Ash ENDURANCE=4")
        ash = y.state.member("Ash")
        assert ash is not None and ash.track("endurance") == 4
        y.verify()
    finally:
        y.close()


def test_tiredness_typed_as_a_condition_ends_with_a_day_of_rest(
    expedition: Factory, home: Path
) -> None:
    """Dungeon Turn: a day in safety ends tiredness and exhaustion (docs/rules/dungeon-turn.md
    row 47, `fatigue = "all"`). A GM who typed them as conditions (`pc Dee +exhausted`,
    the ladder's own words) finds them gone too after the downtime, as the fatigue level
    is; another condition (poisoned) carries, and so does an exhaustion when no whole day
    of rest passed."""
    x = expedition("dungeon-turn", name="deep", seed=2)
    run(x, "pc add Dee hp=6", "pc Dee +exhausted +tired +poisoned fatigue=+1", "end")
    procedure = find("dungeon-turn")
    first = carry(
        "deep-2", 3, x.state, x.procedure, procedure, _link(x), downtime=DAY, rng=random.Random(1)
    )
    dee = fold(State(), first).member("Dee")
    assert dee is not None and dee.conditions == ("poisoned",) and dee.fatigue == 0
    first = carry(
        "deep-3", 3, x.state, x.procedure, procedure, _link(x), downtime=600, rng=random.Random(1)
    )
    dee = fold(State(), first).member("Dee")
    assert dee is not None and "exhausted" in dee.conditions and dee.fatigue == 1
