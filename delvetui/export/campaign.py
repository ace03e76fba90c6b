"""The campaign view: expeditions grouped by campaign, in chains, in calendar order.

Each expedition is a small record (``Voyage``, read from its file by
``campaign_reading``); the grouping (``assemble``) works over those records only, so the
view of a campaign of any length holds no expedition's log.

Chains follow the links each expedition recorded when it was started ``--after`` another
(``ExpeditionContinued``: the predecessor's id and the checksum of its log then). A
predecessor that is not in the folder, or whose log changed since, is a gap; a character
in two expeditions at overlapping dates is an overlap. Both are pointed out, never mended.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from delvetui.core.calendar import moment
from delvetui.core.state import MINUTES_PER_DAY
from delvetui.errors import DelveError
from delvetui.procedure.model import Calendar
from delvetui.text import counted, minutes_words, visible

#: A day in minutes: the campaign's clock counts minutes from day 1, 00:00.
DAY = MINUTES_PER_DAY
#: The most rooms of a route an expedition's record keeps, and the view shows.
MAX_ROUTE = 500
ROUTE_SHOWN = 40


def day_words(clock: int, calendar: Calendar | None = None) -> str:
    """A moment of the campaign's clock in words, in its calendar when it has one:
    '3rd of Greenmist, day 41, 08:20', else 'day 41, 08:20'."""
    return moment(calendar, max(0, clock))


@attrs.frozen
class Link:
    """What an expedition recorded of the one it continues."""

    predecessor: str
    predecessor_id: str
    predecessor_digest: str
    ended_clock: int
    downtime_minutes: int
    notes: tuple[str, ...] = ()


@attrs.frozen
class Death:
    """A member marked ``dead`` in an expedition, and when: the turn and the clock."""

    name: str
    turn: int
    clock: int


@attrs.frozen
class Voyage:
    """One expedition as the campaign view tells it."""

    name: str
    path: str
    id: str
    digest: str
    #: The campaign it was named into (or inherited); '' when never given one.
    campaign: str
    link: Link | None
    procedure: str
    start: int
    end: int
    ended: bool
    sessions: int
    turns: int
    #: Each member at the end: 'Ash 4/6 HP, wounded'.
    party: tuple[str, ...]
    #: Everyone who was in the party at any moment of the expedition.
    members: tuple[str, ...]
    joined: tuple[str, ...]
    died: tuple[str, ...]
    left: tuple[str, ...]
    light_used: tuple[str, ...]
    supplies_used: tuple[str, ...]
    #: When each of the dead was marked ``dead`` (one who died at 0 HP, where the game
    #: counts that as death, has no date of their own: the expedition's end stands).
    deaths: tuple[Death, ...] = ()
    #: The dungeon at its end: '30 rooms', '24 explored', '10 cleared', '1 restocked'.
    dungeon: tuple[str, ...] = ()
    #: The rooms the party went to, in order (the first ``MAX_ROUTE``; ``steps`` counts all).
    route: tuple[str, ...] = ()
    steps: int = 0
    #: The rooms restocked in the downtime before it, with what moved in.
    restocked: tuple[str, ...] = ()
    #: The fights fought to their end, and the foes they defeated (down, fled, surrendered).
    fights: int = 0
    foes_defeated: int = 0
    #: The calendar it keeps (its own, else its procedure's), for its dates; None: 'day N'.
    calendar: Calendar | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def route_words(self) -> tuple[str, ...]:
        """Its route in one line: '1 → 2 → 3 → 2 → 5', the first rooms of a long one."""
        if not self.route:
            return ()
        shown = self.route[:ROUTE_SHOWN]
        more = self.steps - len(shown)
        tail = f" → … ({more} more)" if more > 0 else ""
        return (" → ".join(shown) + tail,)

    @property
    def dates(self) -> str:
        """Its start and end: 'day 1, 08:00 → day 2, 14:30'."""
        return f"{day_words(self.start, self.calendar)} → {day_words(self.end, self.calendar)}"

    def died_clock(self, name: str) -> int:
        """When the member died: when they were marked dead, else the expedition's end."""
        return next((d.clock for d in self.deaths if d.name == name), self.end)

    def died_words(self) -> tuple[str, ...]:
        """Each of the dead with when: 'Dain (turn 8, day 1, 09:20)', or 'Dain (by the
        end)' for one who died at 0 HP without being marked."""
        dated = {death.name: death for death in self.deaths}
        told = []
        for name in self.died:
            death = dated.get(name)
            if death is None:
                told.append(f"{name} (by the end)")
            else:
                told.append(f"{name} (turn {death.turn}, {day_words(death.clock, self.calendar)})")
        return tuple(told)


@attrs.frozen
class Refused:
    """A file in the folder that could not be read, with the sentence saying why."""

    name: str
    path: str
    reason: str


@attrs.frozen
class Gap:
    """An expedition whose predecessor is missing, or changed since it was continued."""

    expedition: str
    predecessor: str
    kind: str  # 'missing' or 'changed'
    sentence: str


@attrs.frozen
class Overlap:
    """A character in two expeditions at overlapping dates."""

    member: str
    first: str
    second: str
    sentence: str


@attrs.frozen
class Chain:
    """Expeditions each started after the one before, in calendar order."""

    voyages: tuple[Voyage, ...]
    #: The expedition a chain that branched off another one continues ('' for none).
    branches_from: str = ""


@attrs.frozen
class Campaign:
    """A named set of chains on one calendar."""

    name: str
    chains: tuple[Chain, ...]
    gaps: tuple[Gap, ...]
    overlaps: tuple[Overlap, ...]

    @property
    def voyages(self) -> Iterator[Voyage]:
        """Every expedition of the campaign, chain by chain."""
        for chain in self.chains:
            yield from chain.voyages

    @property
    def lone(self) -> bool:
        """An expedition on its own: the only one, never named into a campaign nor
        following another (it is told as an expedition, not as a campaign)."""
        only = [*self.voyages]
        return len(only) == 1 and not only[0].campaign and only[0].link is None

    @property
    def calendar(self) -> Calendar | None:
        """The campaign's calendar: the one its first expedition keeps."""
        return self.chains[0].voyages[0].calendar if self.chains else None

    @property
    def start(self) -> int:
        """The earliest start of its expeditions."""
        return min(v.start for v in self.voyages)

    @property
    def end(self) -> int:
        """The latest end of its expeditions."""
        return max(v.end for v in self.voyages)

    @property
    def dates(self) -> str:
        """From its first start to its last end, in its calendar."""
        return f"{day_words(self.start, self.calendar)} → {day_words(self.end, self.calendar)}"


# Grouping --------------------------------------------------------------------------------


def assemble(voyages: Sequence[Voyage]) -> list[Campaign]:
    """The campaigns these expeditions make: their chains, gaps and overlaps, by date."""
    by_id: dict[str, list[Voyage]] = {}
    for voyage in voyages:
        by_id.setdefault(voyage.id, []).append(voyage)
    after: dict[str, list[Voyage]] = {}
    before: dict[str, Voyage] = {}
    gaps: dict[str, Gap] = {}
    roots: list[Voyage] = []
    for voyage in sorted(voyages, key=_when):
        link = voyage.link
        if link is None:
            roots.append(voyage)
            continue
        found = [v for v in by_id.get(link.predecessor_id, []) if v is not voyage]
        if not found:
            roots.append(voyage)
            gaps[voyage.path] = (
                _itself(voyage) if link.predecessor_id == voyage.id else _missing(voyage, link)
            )
            continue
        same = [v for v in found if v.digest == link.predecessor_digest]
        predecessor = (same or found)[0]
        if not same:
            gaps[voyage.path] = _changed(voyage, predecessor)
        after.setdefault(predecessor.path, []).append(voyage)
        before[voyage.path] = predecessor
    chains = _chains(roots, after, voyages, gaps)
    grouped: dict[str, list[Chain]] = {}
    for chain in chains:
        grouped.setdefault(_campaign_of(chain.voyages[0], before), []).append(chain)
    campaigns = []
    for name, its_chains in grouped.items():
        members = [v for chain in its_chains for v in chain.voyages]
        campaigns.append(
            Campaign(
                name=name,
                chains=tuple(sorted(its_chains, key=lambda c: _when(c.voyages[0]))),
                gaps=tuple(gaps[v.path] for v in sorted(members, key=_when) if v.path in gaps),
                overlaps=tuple(overlaps(members)),
            )
        )
    return sorted(campaigns, key=lambda c: (c.start, c.name))


def _campaign_of(voyage: Voyage, before: dict[str, Voyage]) -> str:
    """The campaign an expedition is in: the one it was named into, else its predecessor's,
    else the name of its chain's first expedition (as far as the folder holds the chain)."""
    seen = set()
    while not voyage.campaign and voyage.path in before and voyage.path not in seen:
        seen.add(voyage.path)
        voyage = before[voyage.path]
    if voyage.campaign:
        return voyage.campaign
    return voyage.link.predecessor if voyage.link is not None else voyage.name


def _when(voyage: Voyage) -> tuple[int, int, str]:
    return (voyage.start, voyage.end, voyage.name)


def _chains(
    roots: list[Voyage],
    after: dict[str, list[Voyage]],
    voyages: Sequence[Voyage],
    gaps: dict[str, Gap],
) -> list[Chain]:
    """Each root's chain; a second successor of one expedition starts a branch of its own."""
    seen: set[str] = set()
    chains: list[Chain] = []
    starts: list[tuple[Voyage, str]] = [(root, "") for root in roots]
    # A loop of links (only a file written by hand could make one) has no root: its
    # earliest expedition starts it, and the link that closes the loop is a gap.
    left = iter(sorted(voyages, key=_when))
    while True:
        if not starts:
            loop = next((v for v in left if v.path not in seen), None)
            if loop is None:
                return chains
            assert loop.link is not None
            gaps[loop.path] = _changed(loop, None)
            starts.append((loop, ""))
        first, branch = starts.pop(0)
        if first.path in seen:
            continue
        chain = [first]
        seen.add(first.path)
        while True:
            nexts = [v for v in after.get(chain[-1].path, []) if v.path not in seen]
            if not nexts:
                break
            starts.extend((other, chain[-1].name) for other in nexts[1:])
            chain.append(nexts[0])
            seen.add(nexts[0].path)
        chains.append(Chain(tuple(chain), branch))


def _missing(voyage: Voyage, link: Link) -> Gap:
    other = link.predecessor
    if other == voyage.name:
        other = f"another expedition also called {other}"
    return Gap(
        voyage.name,
        link.predecessor,
        "missing",
        f"{voyage.name} continues {other}, which is not in the data folder "
        "(moved, renamed by import, or deleted): what came before it is not shown.",
    )


def _itself(voyage: Voyage) -> Gap:
    """A file whose link names its own id: only a file written by hand could hold one."""
    return Gap(
        voyage.name,
        voyage.name,
        "changed",
        f"{voyage.name} names itself as the expedition it continues, which no command "
        "writes (the file was made or changed outside delvetui): what came before it is "
        "not known.",
    )


def _changed(voyage: Voyage, predecessor: Voyage | None) -> Gap:
    assert voyage.link is not None
    if predecessor is None:
        return Gap(
            voyage.name,
            voyage.link.predecessor,
            "changed",
            f"{voyage.name} continues {voyage.link.predecessor}, which comes after it in the "
            "same chain: the links go round in a loop.",
        )
    return Gap(
        voyage.name,
        predecessor.name,
        "changed",
        f"{predecessor.name} changed after {voyage.name} was started from it (its log is "
        "not the one recorded then): what carried over may differ from how it ended.",
    )


def fortunes(campaign: Campaign) -> list[str]:
    """Each character of the campaign across its expeditions, in the order they first
    appear: where they went, and where they died or were last seen, and how they were."""
    went: dict[str, list[Voyage]] = {}
    for voyage in sorted(campaign.voyages, key=_when):
        for member in voyage.members:
            went.setdefault(member, []).append(voyage)
    told = []
    for member, voyages in went.items():
        names = ", ".join(v.name for v in voyages)
        last = voyages[-1]
        if member in last.died:
            end = f"died in {last.name} ({day_words(last.died_clock(member), last.calendar)})"
        elif member in last.left:
            end = f"left the party in {last.name}"
        else:
            now = next((p for p in last.party if p.startswith(f"{member} ")), member)
            when = "at the end of" if last.ended else "so far in"
            end = f"{when} {last.name}: {now.removeprefix(member + ' ')}"
        told.append(f"{member}: {counted(len(voyages), 'expedition')} ({names}); {end}")
    return told


def overlaps(voyages: Iterable[Voyage]) -> Iterator[Overlap]:
    """Each character in two expeditions whose dates overlap, once for each pair."""
    ordered = sorted(voyages, key=_when)
    for index, first in enumerate(ordered):
        for second in ordered[index + 1 :]:
            if second.start >= first.end:
                break
            for member in first.members:
                if member in second.members:
                    yield Overlap(
                        member,
                        first.name,
                        second.name,
                        f"{member} is in {first.name} ({first.dates}) and in {second.name} "
                        f"({second.dates}) at overlapping dates.",
                    )


def choose(campaigns: Sequence[Campaign], name: str, refused: Sequence[Refused] = ()) -> Campaign:
    """The campaign named ``name``, or the one holding an expedition of that name."""
    for campaign in campaigns:
        if campaign.name == name:
            return campaign
    for campaign in campaigns:
        if any(v.name == name for v in campaign.voyages):
            return campaign
    for bad in refused:
        if bad.name == name:
            raise DelveError(f"The expedition {name} cannot be read: {bad.reason}")
    known = ", ".join(c.name for c in campaigns) or "none"
    raise DelveError(
        f"There is no campaign or expedition named {name!r} in the data folder; "
        f"its campaigns: {known}."
    )


# Telling it ------------------------------------------------------------------------------


def lines(campaign: Campaign) -> list[str]:
    """The campaign as the command line prints it."""
    count = sum(1 for _ in campaign.voyages)
    chains = len(campaign.chains)
    out = [
        f"Expedition {campaign.name}, on its own: {campaign.dates}"
        if campaign.lone
        else f"Campaign {campaign.name}: {counted(count, 'expedition')} in "
        f"{counted(chains, 'chain')}, {campaign.dates}"
    ]
    for number, chain in enumerate(campaign.chains, start=1):
        names = " → ".join(v.name for v in chain.voyages)
        branch = f" (branches off after {chain.branches_from})" if chain.branches_from else ""
        if not campaign.lone:
            out.append(f"  Chain {number}: {names}{branch}")
        for voyage in chain.voyages:
            if voyage.link is not None and voyage is not chain.voyages[0]:
                out.append(f"    downtime: {downtime_words(voyage.link, voyage.calendar)}")
            out += [f"    {line}" for line in voyage_lines(voyage)]
    out.append("  Fortunes:")
    out += [f"    {line}" for line in fortunes(campaign)]
    if found := dungeon(campaign):
        out.append("  The dungeon:")
        out += [f"    {line}" for line in found]
    if campaign.gaps:
        out.append("  Gaps:")
        out += [f"    {gap.sentence}" for gap in campaign.gaps]
    if campaign.overlaps:
        out.append("  Overlaps:")
        out += [f"    {overlap.sentence}" for overlap in campaign.overlaps]
    return out


def tally(campaigns: Sequence[Campaign]) -> str:
    """'1 campaign, 3 expeditions on their own (6 expeditions in all)': a lone expedition
    is not counted as a campaign."""
    lone = sum(1 for campaign in campaigns if campaign.lone)
    parts = [counted(len(campaigns) - lone, "campaign")] if len(campaigns) > lone else []
    if lone:
        parts.append(f"{counted(lone, 'expedition')} on {'its' if lone == 1 else 'their'} own")
    total = sum(1 for campaign in campaigns for _ in campaign.voyages)
    return f"{', '.join(parts)} ({counted(total, 'expedition')} in all)"


def downtime_words(link: Link, calendar: Calendar | None = None) -> str:
    """The rest between two expeditions: '7 days (day 3, 14:00 → day 10, 14:00)'."""
    back = link.ended_clock + link.downtime_minutes
    return (
        f"{minutes_words(link.downtime_minutes) if link.downtime_minutes else 'none'} "
        f"({day_words(link.ended_clock, calendar)} → {day_words(back, calendar)})"
    )


def voyage_lines(voyage: Voyage) -> list[str]:
    """One expedition: its heading line, then what befell the party, indented."""
    state = "ended" if voyage.ended else "not ended"
    out = [
        f"{voyage.name} ({voyage.procedure}): {voyage.dates}, {state}; "
        f"{counted(voyage.sessions, 'session')}, {counted(voyage.turns, 'turn')}"
    ]
    rows = [
        ("party", voyage.party or ("nobody",)),
        ("joined", voyage.joined),
        ("died", voyage.died_words()),
        ("left", voyage.left),
        ("light used", voyage.light_used or ("none",)),
        ("supplies used", voyage.supplies_used or ("none",)),
        ("at its start", voyage.link.notes if voyage.link else ()),
        ("dungeon", voyage.dungeon),
        ("route", voyage.route_words),
    ]
    out += [f"  {label}: {'; '.join(items)}" for label, items in rows if items]
    return out


def dungeon(campaign: Campaign) -> list[str]:
    """The dungeon over the campaign: as each chain's last expedition left it (explored,
    cleared and restocked rooms, carried from one expedition to the next), and the rooms
    restocked between expeditions; none where no expedition has rooms."""
    out = []
    for number, chain in enumerate(campaign.chains, start=1):
        last = chain.voyages[-1]
        if not last.dungeon:
            continue
        restocked = sum(len(v.restocked) for v in chain.voyages)
        whose = f"chain {number}, " if len(campaign.chains) > 1 else ""
        out.append(
            f"{whose}after {last.name}: {', '.join(last.dungeon)}; "
            f"{counted(restocked, 'room')} restocked between expeditions"
        )
    return out


def report(campaigns: Sequence[Campaign], refused: Sequence[Refused]) -> list[str]:
    """The campaign view as the command line prints it: each campaign, then what was not
    read, each file with the sentence saying why; every line made visible, as the terminal
    shows any text from a file."""
    out: list[str] = []
    for campaign in campaigns:
        out += [*lines(campaign), ""]
    if refused:
        out += ["Not read:", *(f"  {r.name}: {r.reason}" for r in refused)]
    return [visible(line) for line in out] or ["No expeditions in the data folder."]


def document(campaigns: Sequence[Campaign], refused: Sequence[Refused]) -> dict[str, Any]:
    """The campaign view for scripts: ``campaigns`` and the files ``refused``."""
    return {
        "campaigns": [as_json(campaign) for campaign in campaigns],
        "refused": [attrs.asdict(r) for r in refused],
    }


def as_json(campaign: Campaign) -> dict[str, Any]:
    """The campaign for scripts: its chains of expeditions, its gaps and its overlaps."""
    return {
        "campaign": campaign.name,
        "start": campaign.start,
        "end": campaign.end,
        "start_date": day_words(campaign.start, campaign.calendar),
        "end_date": day_words(campaign.end, campaign.calendar),
        "chains": [
            {
                "branches_from": chain.branches_from or None,
                "expeditions": [voyage_json(v) for v in chain.voyages],
            }
            for chain in campaign.chains
        ],
        "gaps": [attrs.asdict(gap) for gap in campaign.gaps],
        "overlaps": [attrs.asdict(overlap) for overlap in campaign.overlaps],
        "fortunes": fortunes(campaign),
        "dungeon": dungeon(campaign),
    }


def voyage_json(voyage: Voyage) -> dict[str, Any]:
    """One expedition's record for scripts (clocks in minutes from day 1, 00:00)."""
    found = attrs.asdict(voyage, filter=lambda field, _: field.name != "calendar")
    found["start_date"] = day_words(voyage.start, voyage.calendar)
    found["end_date"] = day_words(voyage.end, voyage.calendar)
    found["predecessor"] = voyage.link.predecessor if voyage.link else None
    return found
