"""A track's ``over`` happens whenever the track crosses its limit, by an effect or by time.

docs/procedures.md §3.11: an effect that takes a track over its limit sets ``over`` off at
once, once per crossing; time passing sets it off every turn it grows while over, but
never twice in one turn; ``over`` is a list of effects, and a single table still loads.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.test_docs_procedures import COMPLETE

HUNGER = next(text for _, text in COMPLETE if 'id = "hunger"' in text)


def _hp_lost(batch_events: tuple[ev.Event, ...], name: str) -> list[int]:
    return [e.change for e in batch_events if isinstance(e, ev.HpChanged) and e.name == name]


def test_the_docs_example_starves_a_member_once_per_crossing(home: Path) -> None:
    with Expedition.create(home / "hunger.delve", load_text(HUNGER), seed=3) as expedition:
        expedition.execute("pc add Ash hp=5")
        expedition.execute("pc add Bo hp=5")
        expedition.execute("turn march")
        expedition.execute("turn march")
        assert expedition.state.member("Ash").hp == 5  # type: ignore[union-attr]
        third = expedition.execute("turn march")
        # Both members crossed from 2 to 3 meals skipped: over happened at once for each.
        assert _hp_lost(third.events, "Ash") == [-1]
        assert _hp_lost(third.events, "Bo") == [-1]
        ash = expedition.state.member("Ash")
        assert ash is not None and ash.hp == 4 and "weak" in ash.conditions
        assert ash.track("hunger") == 3
        # Still over the limit: a fourth meal skipped is no new crossing.
        fourth = expedition.execute("turn march")
        assert _hp_lost(fourth.events, "Ash") == []
        assert expedition.state.member("Ash").hp == 4  # type: ignore[union-attr]
        # A meal sets the count back (reset_by) and ends the weakness; three more marches
        # cross again.
        expedition.execute("turn eat")
        ash = expedition.state.member("Ash")
        assert ash is not None and ash.track("hunger") == 0 and "weak" not in ash.conditions
        for _ in range(2):
            expedition.execute("turn march")
        again = expedition.execute("turn march")
        assert _hp_lost(again.events, "Ash") == [-1]


SHRINE = """\
id = "shrine"
name = "Shrine"
source = "a test"
summary = "A dread track that grows with time and with sights."
default_action = "wait"

[tracks.dread]
label = "Dread"
per_turn = 1
limit = 3

[tracks.dread.over]
do = "damage"
amount = 1
target = "by"
text = "dread"

[actions.wait]
label = "Wait"

[actions.gaze]
label = "Gaze at the idol"
effects = [{ do = "track", track = "dread", add = 2 }]
"""


def test_a_single_table_over_still_loads_as_a_list_of_one() -> None:
    procedure = load_text(SHRINE)
    over = procedure.tracks["dread"].over
    assert len(over) == 1 and over[0].do == "damage"


def test_time_passing_fires_every_turn_over_but_not_twice_in_the_turn_an_effect_did(
    home: Path,
) -> None:
    with Expedition.create(home / "shrine.delve", load_text(SHRINE), seed=3) as expedition:
        expedition.execute("pc add Ash hp=9")
        expedition.execute("turn wait")
        expedition.execute("turn wait")  # dread 2
        # The gaze takes dread from 2 to 4 (over 3) at once; time then adds 1 (5), and the
        # end of the same turn does not hurt Ash again.
        gaze = expedition.execute("turn gaze")
        assert _hp_lost(gaze.events, "Ash") == [-1]
        kinds = [type(e).__name__ for e in gaze.events]
        passed = next(
            i
            for i, e in enumerate(gaze.events)
            if isinstance(e, ev.TrackChanged) and e.reason == "time passed"
        )
        assert kinds.index("HpChanged") < passed  # at once, before time passed
        assert expedition.state.member("Ash").track("dread") == 5  # type: ignore[union-attr]
        # Still over while time passes: the game's "each turn it is over".
        wait = expedition.execute("turn wait")
        assert _hp_lost(wait.events, "Ash") == [-1]
        assert expedition.state.member("Ash").hp == 7  # type: ignore[union-attr]


def test_an_over_that_pushes_its_own_track_does_not_run_again_from_inside(home: Path) -> None:
    text = SHRINE.replace(
        '[tracks.dread.over]\ndo = "damage"\namount = 1\ntarget = "by"\ntext = "dread"\n',
        'over = [\n  { do = "track", track = "dread", set = 0, target = "by" },\n'
        '  { do = "track", track = "dread", add = 9, target = "by" },\n'
        '  { do = "damage", amount = 1, target = "by" },\n]\n',
    )
    # The list form must sit inside [tracks.dread], before the next section.
    text = text.replace("limit = 3\n\nover = [", "limit = 3\nover = [")
    procedure = load_text(text)
    assert len(procedure.tracks["dread"].over) == 3
    with Expedition.create(home / "loop.delve", procedure, seed=3) as expedition:
        expedition.execute("pc add Ash hp=9")
        batch = expedition.execute("turn gaze")  # 0 -> 2, then time: 3; not over
        assert _hp_lost(batch.events, "Ash") == []
        batch = expedition.execute("turn gaze")  # 3 -> 5: over, which re-crosses inside
        assert _hp_lost(batch.events, "Ash") == [-1]


def test_a_wrong_effect_in_an_over_list_is_reported_with_its_place_and_line() -> None:
    text = SHRINE.replace(
        '[tracks.dread.over]\ndo = "damage"\namount = 1\ntarget = "by"\ntext = "dread"\n',
        "",
    ).replace(
        "limit = 3\n",
        'limit = 3\nover = [{ do = "damage", amount = 1 }, { do = "damage", amont = 1 }]\n',
    )
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    problems = raised.value.problems
    assert any(
        p.path == "tracks.dread.over[1].amont"
        and p.line == 11
        and "Did you mean 'amount'" in p.message
        for p in problems
    ), problems
