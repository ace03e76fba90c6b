"""What a day of rest between two expeditions does, for each shipped procedure, as its text
says (issue #32; each procedure's ``[downtime]`` and the rows of its ledger, docs/rules/).

Each test plays an expedition under the procedure, hurts and wearies its party, ends it,
and carries the party over a downtime into the next expedition under the same procedure
(``core.campaign.carry``), then reads the party a game master would check: HP, fatigue,
conditions, tracks and resources. The texts that say nothing of rest between expeditions
keep the format's default (1 HP a day, all fatigue), and their ledgers say so.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.campaign import Link, carry
from delvetui.core.evolve import fold
from delvetui.core.state import MINUTES_PER_DAY, Member, State
from delvetui.procedure.model import Downtime
from delvetui.procedure.registry import find
from tests.conftest import Factory, run
from tests.shipped import SHIPPED, ledger

ROOT = Path(__file__).resolve().parent.parent
_NUMBER = itertools.count(1)
#: The texts that say nothing of rest between expeditions: the format's default holds, as
#: their ledgers say ("the procedure has no `[downtime]` section").
SILENT = tuple(name for name in SHIPPED if "has no `[downtime]` section" in ledger(name))


def rested(
    expedition: Factory, procedure: str, *commands: str, days: int, seed: int = 1
) -> tuple[State, list[ev.Event]]:
    """The party after ``days`` whole days of rest: the expedition is played with
    ``commands`` and ended, and the next one's first batch is built and read."""
    before = expedition(procedure, name=f"{procedure}-{next(_NUMBER)}", seed=3)
    run(before, *commands, "end the party is back in town")
    link = Link(
        name=before.state.name,
        id=before.expedition_id,
        digest=before.digest(),
        campaign="marches",
    )
    first = carry(
        f"{before.state.name}-next",
        4,
        before.state,
        before.procedure,
        before.procedure,
        link,
        downtime=days * MINUTES_PER_DAY,
        rng=random.Random(seed),
    )
    return fold(State(), first), first


def member(state: State, name: str) -> Member:
    found = state.member(name)
    assert found is not None, f"{name} did not come along"
    return found


def _conditions_given(procedure: str) -> set[str]:
    """The conditions the procedure itself can give or declares (before its [downtime])."""
    text = find(procedure).text.split("\n[downtime]\n")[0]
    given = set(find(procedure).conditions)
    for name in text.split('condition = "')[1:]:
        given.add(name.split('"')[0])
    return given


@pytest.mark.parametrize("procedure", SHIPPED)
def test_every_shipped_procedure_says_what_a_day_of_rest_does(procedure: str) -> None:
    """Each shipped procedure says what a day of rest in safety does where its text does,
    in our words for the GM; where the text is silent the format's default holds. Every
    condition it clears is one the procedure gives."""
    downtime = find(procedure).downtime
    if procedure in SILENT:
        assert downtime == Downtime()
    else:
        assert downtime.text.strip(), f"{procedure} gives no [downtime] text"
    assert set(downtime.clear) <= _conditions_given(procedure)


def test_basic_fantasy_a_day_of_bedrest_heals_two(expedition: Factory) -> None:
    """Part 5, Healing and Rest: 1 HP a day of normal sleep and 1 more an evening of full
    bedrest, read as 2 a day in safety; Dungeon Survival: fed again, the starving heal, so
    the days without food go back to 0."""
    state, _ = rested(
        expedition, "basic-fantasy", "pc add Ash hp=8", "pc Ash hp=-6 hungry=3", days=2
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.track("hungry")) == (2 + 2 * 2, 0)
    state, _ = rested(expedition, "basic-fantasy", "pc add Ash hp=8", "pc Ash hp=-6", days=5)
    assert member(state, "Ash").hp == 8  # never past the maximum


def test_cairn_a_day_in_safety_restores_hp_fatigue_and_deprivation(expedition: Factory) -> None:
    """Core Rules: a short rest and a drink restore all lost HP; each Fatigue lasts until a
    full night's rest in a safe spot; a deprived PC recovers once fed and rested. Less than
    a whole day of rest heals and clears nothing."""
    commands = ("pc add Ash hp=4 STR=10", "pc Ash hp=-3 fatigue=+2 +deprived")
    state, _ = rested(expedition, "cairn", *commands, days=1)
    ash = member(state, "Ash")
    assert (ash.hp, ash.track("fatigue"), ash.conditions) == (4, 0, ())
    state, _ = rested(expedition, "cairn", *commands, days=0)
    assert (member(state, "Ash").hp, member(state, "Ash").conditions) == (1, ("deprived",))


def test_cairn_modular_a_day_in_safety_restores_hp_fatigue_and_deprivation(
    expedition: Factory,
) -> None:
    """The modular rules lean on Cairn's Core Rules between adventures: a day in safety
    restores all lost HP, removes every Fatigue and ends deprivation."""
    state, _ = rested(
        expedition,
        "cairn-modular",
        "pc add Ash hp=5",
        "pc Ash hp=-4 fatigue=+3 +deprived",
        days=1,
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.track("fatigue"), ash.conditions) == (5, 0, ())


def test_delving_a_day_of_rest_heals_one_hit_point(expedition: Factory) -> None:
    """The text has no rule for rest between delves: the format's default, 1 HP a day."""
    state, _ = rested(expedition, "delving", "pc add Ash hp=8", "pc Ash hp=-5", days=2)
    assert member(state, "Ash").hp == 3 + 2


def test_dungeon_turn_a_day_in_safety_heals_all_and_ends_fatigue(expedition: Factory) -> None:
    """Resting: a dungeon's hour heals only 1d8 + STR and 8 hours cannot be had there; a
    day in safety is read as that long rest: all HP back, tired and exhausted gone. An
    omen stays."""
    state, _ = rested(
        expedition,
        "dungeon-turn",
        "pc add Ash hp=8 STR=12",
        "pc Ash hp=-6 fatigue=2 +omen",
        days=1,
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.fatigue, ash.conditions) == (8, 0, ("omen",))


def test_exploration_a_day_of_rest_removes_fatigue_and_heals_one(expedition: Factory) -> None:
    """The text says nothing of rest between expeditions: Fatigue, from skipped rest, is
    all gone after a day of rest, and a day heals 1 HP (the format's default)."""
    state, _ = rested(
        expedition, "exploration", "pc add Ash hp=10", "pc Ash hp=-6 fatigue=3", days=1
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.fatigue) == (4 + 1, 0)


def test_exploration_traditional_a_day_of_rest_removes_fatigue_and_heals_one(
    expedition: Factory,
) -> None:
    """As for exploration: the traditional bookkeeping's text is as silent."""
    state, _ = rested(
        expedition, "exploration-traditional", "pc add Ash hp=10", "pc Ash hp=-6 fatigue=6", days=3
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.fatigue) == (4 + 3, 0)


def test_errant_a_downtime_restores_all_hp_and_clears_exhaustion_and_supply(
    expedition: Factory,
) -> None:
    """Downtime Turns, Recovery: every Errant's HP back to its maximum; Resting: each night
    removes an Exhaustion; Supply: what is left is removed at the next Downtime Turn, and
    the link says so. Rations are not Supply and come along."""
    state, first = rested(
        expedition,
        "errant",
        "pc add Ash hp=6 PHYS=12",
        "pc Ash hp=-5 exhaustion=+2 +4 supply",
        days=30,
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.track("exhaustion")) == (6, 0)
    assert (ash.resource("supply"), ash.resource("rations")) == (0, 2)
    continued = next(e for e in first if isinstance(e, ev.ExpeditionContinued))
    assert continued.notes == ("Ash's supply (4) does not carry: the downtime sets it back to 0",)


def test_mausritter_each_day_in_safety_is_a_long_rest(expedition: Factory) -> None:
    """Rest and healing: a long rest (a meal and sleep) restores all HP; a day's meals and
    rests clear Exhausted, Hungry and Frightened (the Condition cards). Injured and Drained
    wait for the full rest, a week back in safety."""
    state, _ = rested(
        expedition,
        "mausritter",
        "pc add Ash hp=6 STR=9",
        "pc Ash hp=-4 +exhausted +hungry +frightened +drained +injured",
        days=1,
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.conditions) == (6, ("drained", "injured"))


def test_mausritter_a_week_in_safety_is_a_full_rest(expedition: Factory) -> None:
    """Rest and healing: a full rest, a week back in safety, removes the long-term
    Conditions: Injured and Drained (the Condition cards: "after full rest")."""
    state, _ = rested(
        expedition,
        "mausritter",
        "pc add Ash hp=6 STR=9",
        "pc Ash +drained +injured",
        days=7,
    )
    assert member(state, "Ash").conditions == ()


def test_ose_each_day_of_complete_rest_heals_1d3(expedition: Factory) -> None:
    """Healing, natural healing: each full day of complete rest heals 1d3, rolled for each
    hurt member each day and kept in the new file; rest and food end the penalties for
    want of them."""
    state, first = rested(
        expedition,
        "ose",
        "pc add Ash hp=10",
        "pc add Bryn hp=6",
        "pc Ash hp=-8 +unrested +travel-worn +exhausted +forced-march +hungry",
        days=3,
        seed=11,
    )
    rolls = [e for e in first if isinstance(e, ev.DiceRolled)]
    assert [r.purpose for r in rolls] == [f"Ash's healing, day {day}" for day in (1, 2, 3)]
    assert all(r.expression == "d3" and 1 <= r.total <= 3 for r in rolls)
    ash, bryn = member(state, "Ash"), member(state, "Bryn")
    assert (ash.hp, ash.conditions) == (min(10, 2 + sum(r.total for r in rolls)), ())
    assert bryn.hp == 6  # Bryn was whole: no die is rolled for them


def test_shadowdark_a_day_in_safety_is_a_full_rest(expedition: Factory) -> None:
    """Resting: a ration and 8 hours' sleep give back all lost HP; the rest's bookkeeping
    (no ration, rested, rest spoiled) starts afresh."""
    state, _ = rested(
        expedition,
        "shadowdark",
        "pc add Ash hp=5",
        "pc Ash hp=-4 +unfed +rested +rest-spoiled",
        days=1,
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.conditions) == (5, ())


def test_travel_turn_safe_rest_heals_one_a_night_and_cures_exhaustion(
    expedition: Factory,
) -> None:
    """Healing From Rest: a night of safe rest heals 1 HP per level (levels are not kept:
    a first-level PC's 1); Exhaustion: enough safe rest and food cure it, and resilience
    counts from 0 again."""
    state, _ = rested(
        expedition,
        "travel-turn",
        "pc add Ash hp=6 CON=10",
        "pc Ash hp=-4 +exhausted resilience=12",
        days=3,
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.conditions, ash.track("resilience")) == (2 + 3, (), 0)


def test_trespasser_a_day_in_safety_heals_all_and_restores_endurance(
    expedition: Factory,
) -> None:
    """The text says nothing of rest between delves; its moment's rest heals a recovery
    die's highest face per die, so a day in safety heals all; endurance starts again at
    the member's ENDURANCE."""
    state, _ = rested(
        expedition,
        "trespasser",
        "pc add Ash hp=10 MIGHT=14 ENDURANCE=3",
        "pc Ash hp=-7 endurance=-2",
        days=1,
    )
    ash = member(state, "Ash")
    assert (ash.hp, ash.track("endurance"), ash.ability("ENDURANCE")) == (10, 3, 3)


def test_errant_hours_in_town_short_of_a_night_keep_the_exhaustion(expedition: Factory) -> None:
    """Travel Turns › Resting: each night's Rest removes a point of Exhaustion, so the
    Exhaustion track goes back to 0 only with a whole day of downtime (docs/procedures.md
    3.23b: tracks go back to their start on a downtime of a day or more); five hours in
    town keep it, and the marches counted today with it."""
    before = expedition("errant", name="errant-hours", seed=3)
    run(before, "pc add Ash hp=6 PHYS=12", "pc Ash exhaustion=+2 marches=+3", "end")
    link = Link(
        name=before.state.name, id=before.expedition_id, digest=before.digest(), campaign="m"
    )

    def after(minutes: int) -> Member:
        first = carry(
            "next", 4, before.state, before.procedure, before.procedure, link,
            downtime=minutes, rng=random.Random(1),
        )  # fmt: skip
        return member(fold(State(), first), "Ash")

    hours = after(5 * 60)
    assert (hours.track("exhaustion"), hours.track("marches")) == (2, 3)
    day = after(MINUTES_PER_DAY)
    assert (day.track("exhaustion"), day.track("marches")) == (0, 0)


#: What the next-expedition form holds for a carried member: whether they come, and HP.
#: Words that send the game master to the form for anything else (a score, a condition).
_NOT_ON_THE_FORM = re.compile(
    r"(attribute|abilit|stat\b|stats\b|constitution|injured)[^|]*?on the "
    r"(new-expedition )?form",
    re.IGNORECASE,
)


def test_no_downtime_text_or_ledger_sends_the_gm_to_the_form_for_scores() -> None:
    """The next-expedition form carries each member's HP; ability scores, conditions and
    tracks are set with commands once the expedition starts (issue #32: "on the form or
    with a command"). The downtime's text the GM reads (`procedures show`) and every
    ledger row say so (Cairn's lost attributes, docs/rules/cairn.md row 84; Basic Fantasy's
    Constitution, row 70; Mausritter's full rest, row 50), never "set them on the form"."""
    wrong = []
    for path in sorted((ROOT / "procedures").glob("*.toml")):
        procedure = find(path.stem)
        if procedure.downtime.text and _NOT_ON_THE_FORM.search(procedure.downtime.text):
            wrong.append(f"{path.stem}: {procedure.downtime.text}")
    for path in sorted((ROOT / "docs" / "rules").glob("*.md")):
        for line in path.read_text().splitlines():
            if line.startswith("| ") and _NOT_ON_THE_FORM.search(line):
                wrong.append(f"{path.name}: {line[:120]}")
    assert not wrong, "\n".join(wrong)
