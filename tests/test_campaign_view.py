"""The campaign view's grouping, over plain records: chains, campaigns, gaps and overlaps.

Issue #32, deliverable 5: each chain of expeditions in calendar order, several parties of
one campaign each with their chain on the same calendar, a character in two expeditions
at overlapping dates pointed out; deliverable 7: a predecessor missing or changed since
is a gap the view shows.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import attrs
import pytest

from delvetui.core import events as ev
from delvetui.export import campaign_picture, campaign_reading, chronicle
from delvetui.export.campaign import DAY, Link, Voyage, assemble, choose, lines, tally
from delvetui.session import Expedition
from tests.cli_support import made

HOUR = 60


def voyage(
    name: str,
    start: int,
    end: int,
    *,
    after: Voyage | None = None,
    digest: str = "",
    campaign: str = "",
    members: tuple[str, ...] = ("Ash",),
    died: tuple[str, ...] = (),
) -> Voyage:
    """An expedition's record as the view reads it from its file."""
    link = None
    if after is not None:
        link = Link(
            after.name,
            after.id,
            digest or after.digest,
            after.end,
            start - after.end,
            (f"{died[0]} stays behind",) if died else (),
        )
        campaign = campaign or after.campaign
    return Voyage(
        name=name,
        path=f"/data/{name}.delve",
        id=f"id-{name}",
        digest=f"digest-{name}",
        campaign=campaign,
        link=link,
        procedure="Delving",
        start=start,
        end=end,
        ended=True,
        sessions=1,
        turns=12,
        party=tuple(f"{m} 6/6 HP" for m in members),
        members=members,
        joined=(),
        died=died,
        left=(),
        light_used=("Torch: burned 2 h",),
        supplies_used=(),
    )


def test_a_chain_is_told_in_calendar_order_with_its_downtime() -> None:
    """Deliverable 5: the chain in calendar order, each with its dates, and the downtime."""
    first = voyage("barrow", 8 * HOUR, 14 * HOUR)
    second = voyage("barrow-2", 7 * DAY + 9 * HOUR, 7 * DAY + 15 * HOUR, after=first)
    third = voyage("barrow-3", 20 * DAY, 21 * DAY, after=second)
    [found] = assemble([third, first, second])
    assert found.name == "barrow"
    assert [v.name for v in found.chains[0].voyages] == ["barrow", "barrow-2", "barrow-3"]
    assert found.gaps == () and found.overlaps == ()
    text = "\n".join(lines(found))
    assert "Chain 1: barrow → barrow-2 → barrow-3" in text
    assert "barrow-2 (Delving): day 8, 09:00 → day 8, 15:00, ended" in text
    assert "downtime: 6 days 19 h (day 1, 14:00 → day 8, 09:00)" in text


def test_two_parties_of_one_campaign_and_a_character_in_both_at_once() -> None:
    """Deliverable 5: a West Marches campaign has a chain per party on one calendar; Ash,
    in both parties' expeditions on day 3, is pointed out."""
    north = voyage("north", 2 * DAY, 3 * DAY, campaign="marches", members=("Ash", "Bryn"))
    south = voyage("south", 2 * DAY + 12 * HOUR, 2 * DAY + 20 * HOUR, campaign="marches")
    other = voyage("crypt", 0, HOUR, members=("Ash",))
    campaigns = assemble([south, north, other])
    assert [c.name for c in campaigns] == ["crypt", "marches"]
    marches = choose(campaigns, "south")
    assert [[v.name for v in c.voyages] for c in marches.chains] == [["north"], ["south"]]
    [overlap] = marches.overlaps
    assert (overlap.member, overlap.first, overlap.second) == ("Ash", "north", "south")
    assert "Ash is in north (day 3, 00:00 → day 4, 00:00) and in south" in overlap.sentence


def test_an_expedition_not_ended_tells_its_party_so_far() -> None:
    """Issue #32, the campaign view and the chronicle tell "the party's fortunes": an
    expedition still being played has no end yet, so its party is told as it is so far,
    never "at the end"."""
    first = voyage("barrow", 8 * HOUR, 14 * HOUR)
    second = attrs.evolve(voyage("barrow-2", 3 * DAY, 3 * DAY + HOUR, after=first), ended=False)
    [found] = assemble([first, second])
    text = "\n".join(lines(found))
    assert "Ash: 2 expeditions (barrow, barrow-2); so far in barrow-2: 6/6 HP" in text
    facts = {fact.label for fact in chronicle._befell(second)}
    assert "Party so far" in facts and "Party at the end" not in facts
    assert "Party at the end" in {fact.label for fact in chronicle._befell(first)}


def test_a_missing_or_changed_predecessor_is_a_gap() -> None:
    """Deliverable 7: imported without its predecessor, the view shows the gap; and a
    predecessor whose log changed since it was continued is told as changed."""
    first = voyage("barrow", 0, 10 * HOUR)
    lost = voyage("lost", 0, HOUR)
    second = voyage("barrow-2", DAY, DAY + 5 * HOUR, after=first, digest="older")
    orphan = voyage("after-lost", 2 * DAY, 2 * DAY + HOUR, after=lost)
    campaigns = assemble([first, second, orphan])
    barrow = choose(campaigns, "barrow")
    [gap] = barrow.gaps
    assert (gap.expedition, gap.kind) == ("barrow-2", "changed")
    assert [v.name for v in barrow.chains[0].voyages] == ["barrow", "barrow-2"]
    alone = choose(campaigns, "after-lost")
    assert alone.name == "lost"  # it inherited its lost predecessor's campaign name
    [missing] = alone.gaps
    assert missing.kind == "missing" and "lost, which is not in the data folder" in missing.sentence


def test_a_second_successor_starts_a_branch_and_a_loop_of_links_is_a_gap() -> None:
    """Two parties setting out from one expedition make two chains; links that go round in
    a loop (only a file written by hand could) still list every expedition once."""
    first = voyage("camp", 0, HOUR)
    left = voyage("left", DAY, DAY + HOUR, after=first)
    right = voyage("right", 2 * DAY, 2 * DAY + HOUR, after=first)
    [found] = assemble([first, left, right])
    assert [[v.name for v in c.voyages] for c in found.chains] == [["camp", "left"], ["right"]]
    assert found.chains[1].branches_from == "camp"
    a = voyage("a", 0, HOUR)
    b = voyage("b", DAY, DAY + HOUR, after=a)
    assert b.link is not None
    looped = attrs.evolve(a, link=attrs.evolve(b.link, predecessor="b", predecessor_id="id-b"))
    [loop] = assemble([looped, b])
    assert sorted(v.name for v in loop.voyages) == ["a", "b"]
    assert [g.kind for g in loop.gaps] == ["changed"]


def test_the_campaign_picture_draws_each_chain_and_escapes_what_files_hold() -> None:
    """The chronicle's picture: a row per chain, a bar per expedition, a cross per death,
    the downtime dashed; a name from a file never becomes markup."""
    first = voyage("<b>barrow</b>", 0, 10 * HOUR, died=("Bryn",))
    second = voyage("barrow-2", 7 * DAY, 7 * DAY + 5 * HOUR, after=first)
    svg = campaign_picture.render(assemble([first, second])[0])
    assert svg.startswith("<svg") and "<b>" not in svg and "&lt;b&gt;barrow" in svg
    assert svg.count("<rect") >= 3 and "Bryn died in" in svg
    assert 'stroke-dasharray="4 3"><title>Downtime before barrow-2' in svg
    # Issue #43, item 12: each expedition says its length and each downtime its own, so
    # five hours on an axis of a week read as more than a sliver.
    assert ">&lt;b&gt;barrow&lt;/b&gt;, 10 h</text>" in svg and ">barrow-2, 5 h</text>" in svg
    assert ">6 days 14 h</text>" in svg


def continued(before: Path, name: str, turns: int) -> Path:
    """An expedition started after ``before`` a day after its end, as ``new --after``
    writes its first batch (the start, the link, the party), then ``turns`` turns."""
    with Expedition.open(before, write=False) as done:
        state, procedure = done.state, done.procedure
        link = (done.expedition_id, done.digest())
    first = [
        ev.ExpeditionStarted(name, procedure.id, procedure.name, 7, state.clock + DAY, "turn"),
        ev.ExpeditionContinued(before.stem, *link, "deep", state.clock, DAY, ()),
        *(ev.MemberJoined(m.name, m.hp, m.max_hp) for m in state.party),
    ]
    path = before.with_name(f"{name}.delve")
    with Expedition.create(path, procedure, first=first) as made:
        for _ in range(turns):
            made.execute("note the long dark goes on")
        made.execute("end")
    return path


@pytest.mark.long
def test_the_chronicle_holds_one_expedition_at_a_time(home: Path) -> None:
    """Deliverable 6: the chronicle streams, so its memory does not grow with the number of
    expeditions: five take no more at their peak than two (tracemalloc, in this process)."""
    path = made(home, "deep-1", "delving", ["pc add Ash hp=6", *["turn"] * 60, "end"], seed=3)
    paths = [path]
    for number in range(2, 6):
        paths.append(continued(paths[-1], f"deep-{number}", 60))
    peaks = {}
    for count in (2, 5):
        [campaign], refused = campaign_reading.survey(paths[:count])
        assert refused == [] and len(list(campaign.voyages)) == count
        tracemalloc.start()
        size = sum(len(piece) for piece in chronicle.chunks(campaign, "md"))
        peaks[count] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert size > 3_000 * count  # each expedition told whole, its picture a file apart
    assert peaks[5] < peaks[2] * 1.2, peaks


def test_the_party_at_the_end_says_the_fatigue_each_member_ended_with(home: Path) -> None:
    """Issue #32, the campaign view lists each expedition's party ("the party's fortunes"):
    a member's fatigue is part of how they came home. Dungeon Exploration's count (docs/rules/
    exploration.md, Fatigue & Rest) reads as its ladder's word ("3 fatigue"); Cairn's Fatigue,
    a track (docs/rules/cairn.md, Deprivation & Fatigue), as "Fatigue 2"; a fresh member
    shows none."""
    from delvetui.procedure.registry import find

    vault = Expedition.create(home / "vault.delve", find("exploration"), seed=1)
    barrow = Expedition.create(home / "barrow.delve", find("cairn"), seed=1)
    try:
        for command in ("pc add Ash hp=8", "pc add Bo hp=6", "pc Ash fatigue=+3", "end"):
            vault.execute(command)
        for command in ("pc add Cy hp=4", "pc Cy fatigue=+2 +deprived", "end"):
            barrow.execute(command)
    finally:
        vault.close()
        barrow.close()
    read = campaign_reading.read(home / "vault.delve")
    assert isinstance(read, Voyage)
    assert read.party == ("Ash 8/8 HP, 3 fatigue", "Bo 6/6 HP")
    read = campaign_reading.read(home / "barrow.delve")
    assert isinstance(read, Voyage)
    assert read.party == ("Cy 4/4 HP, Fatigue 2, deprived",)


def test_light_worn_by_depletion_or_a_usage_die_counts_as_light_used(home: Path) -> None:
    """The campaign view says the light each expedition used (issue #32). Dungeon Turn's
    lights have no time: only a Depletion wears them, dimming a torch (docs/rules/
    dungeon-turn.md, Hazard Die › 5); Trespasser's burn down a usage die (docs/rules/
    trespasser.md, light depletion). Both are light used, not "none"."""
    from delvetui.procedure.registry import find

    deep = Expedition.create(home / "deep.delve", find("dungeon-turn"), seed=1)
    halls = Expedition.create(home / "halls.delve", find("trespasser"), seed=1)
    try:
        for command in (
            "pc add Ash hp=6",
            "light add torch count=2 carrier=Ash",
            "light on torch",
            *["turn hazard=6"] * 6,
            "turn hazard=5",
            "end",
        ):
            deep.execute(command)
        halls.execute("pc add Ash hp=6 ENDURANCE=3")
        halls.execute("light add lantern lit")
        for _ in range(100):  # a 1-2 on the d10 steps it down; the seed gives one soon
            if halls.state.light("lantern1").usage_die != 10:  # type: ignore[union-attr]
                break
            halls.execute("turn stay")
        halls.execute("end")
    finally:
        deep.close()
        halls.close()
    read = campaign_reading.read(home / "deep.delve")
    assert isinstance(read, Voyage) and read.light_used == ("Torch: 1 dimmed",)
    read = campaign_reading.read(home / "halls.delve")
    assert isinstance(read, Voyage)
    assert read.light_used == ("Lantern: usage die down 1 step",)


def test_a_lone_expedition_is_an_expedition_not_a_campaign() -> None:
    """Issue #43, item 12: an expedition on its own (never named into a campaign, following
    none, followed by none) is told as an expedition, and the count says so. Before: "4
    campaigns, 6 expeditions" for one campaign of three and three lone expeditions."""
    first = voyage("barrow", 0, 10 * HOUR)
    second = voyage("barrow-2", DAY, DAY + 5 * HOUR, after=first)
    third = voyage("barrow-3", 2 * DAY, 2 * DAY + HOUR, after=second)
    lone = [voyage(name, 0, HOUR) for name in ("crypt", "keep", "fens")]
    named = voyage("marches", 0, HOUR, campaign="marches")  # the first of a campaign named
    campaigns = assemble([first, second, third, *lone, named])
    assert tally(campaigns) == "2 campaigns, 3 expeditions on their own (7 expeditions in all)"
    crypt = choose(campaigns, "crypt")
    assert crypt.lone and not choose(campaigns, "marches").lone
    assert lines(crypt)[0].startswith("Expedition crypt, on its own: ")
    assert not any("Chain" in line for line in lines(crypt))
    assert lines(choose(campaigns, "barrow"))[0].startswith("Campaign barrow: 3 expeditions")
    assert tally([crypt]) == "1 expedition on its own (1 expedition in all)"
