"""The chronicle: a whole campaign as one document, written expedition by expedition.

The campaign's records (``export.campaign``) say what is in it and in what order; then
each expedition is opened on its own, read-only, its story built with the same story
model and writers as its own export (``export.story``, ``markdown``, ``html``), written
out, and let go before the next is opened. So memory follows the longest expedition, not
their number. Between two expeditions of a chain the downtime is told (how long, from
when to when, and what did not carry over); before each expedition's sessions, what befell
the party in it. The campaign's picture (``campaign_picture``) heads the Markdown and HTML
and is the whole of the SVG.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import attrs

from delvetui import __version__
from delvetui.errors import DelveError
from delvetui.export import campaign_picture, html, markdown
from delvetui.export.campaign import (
    Campaign,
    Chain,
    Voyage,
    day_words,
    downtime_words,
    dungeon,
    fortunes,
    voyage_json,
)
from delvetui.export.story import NOTHING_YET, Fact, Story
from delvetui.session import Expedition
from delvetui.text import counted, dumps

#: What a chronicle's JSON says it is, and the version of its layout.
FORMAT = "delvetui-chronicle"
FORMAT_VERSION = 1
#: The formats a chronicle is written in.
FORMATS = ("md", "html", "json", "svg")

_STYLE = """
h4, h5 { font-size: 1rem; margin: 1.2rem 0 0.2rem; font-family: system-ui, sans-serif; }
section.expedition > h3 { font-size: 1.15rem; margin-top: 1.6rem; }
section.downtime { color: var(--party); }
.summary h4 { margin-top: 0.2rem; }
@media print { h4, h5 { break-after: avoid; } }
"""


def picture_beside(target: Path) -> Path:
    """Where a Markdown chronicle's timeline goes: beside it, 'barrow-timeline.svg' for
    'barrow.md'."""
    return target.with_name(f"{target.stem}-timeline.svg")


def chunks(
    campaign: Campaign, fmt: str, *, now: dt.datetime | None = None, picture: str = ""
) -> Iterator[str]:
    """The chronicle of a campaign in a format, in pieces: one expedition at a time. In
    Markdown the timeline is a picture of its own, linked by its file's name ``picture``
    (written beside the chronicle); without one, the chronicle says how to make it."""
    if fmt not in FORMATS:
        raise DelveError(
            f"There is no chronicle format '{fmt}'; choose md, html, json or svg "
            "(txt is for one expedition's log)."
        )
    moment = now or dt.datetime.now().astimezone()
    if fmt == "svg":
        yield campaign_picture.render(campaign)
    elif fmt == "json":
        yield from _json(campaign, moment)
    elif fmt == "md":
        yield from _markdown(campaign, moment, picture)
    else:
        yield from _html(campaign, moment)


def _stories(campaign: Campaign, now: dt.datetime) -> Iterator[tuple[Chain, Voyage, Story]]:
    """Each expedition with its story, in chain and calendar order, one open at a time.

    Nothing here keeps a story once it is handed over; the writers let go of it before
    they hand over its text, so one story at most is in memory while the next is built.
    """
    for chain in campaign.chains:
        for voyage in chain.voyages:
            yield chain, voyage, _story(voyage, now)


def _story(voyage: Voyage, now: dt.datetime) -> Story:
    from delvetui.export import story_of

    with Expedition.open(Path(voyage.path), write=False, snapshot=True) as expedition:
        return story_of(expedition, now=now)


def _byline(campaign: Campaign, now: dt.datetime) -> str:
    count = sum(1 for _ in campaign.voyages)
    fights = sum(voyage.fights for voyage in campaign.voyages)
    defeated = sum(voyage.foes_defeated for voyage in campaign.voyages)
    fought = (
        f"{counted(fights, 'fight')} ({counted(defeated, 'foe')} defeated) · " if fights else ""
    )
    return (
        f"{counted(count, 'expedition')} in {counted(len(campaign.chains), 'chain')} · "
        f"{fought}{campaign.dates} · the chronicle, exported "
        f"{now.date().isoformat()}"
    )


def _chain_title(number: int, chain: Chain) -> str:
    names = " → ".join(v.name for v in chain.voyages)
    branch = f" (branches off after {chain.branches_from})" if chain.branches_from else ""
    return f"Chain {number}: {names}{branch}"


def _about(voyage: Voyage) -> str:
    state = "ended" if voyage.ended else "not ended"
    sessions = counted(voyage.sessions, "session")
    return f"{voyage.procedure} · {state} · {sessions} · {counted(voyage.turns, 'turn')}"


def _befell(voyage: Voyage) -> list[Fact]:
    """What befell the party in an expedition, as summary rows."""
    rows = [
        Fact("Party at the end" if voyage.ended else "Party so far", voyage.party or ("nobody",)),
        Fact("Joined", voyage.joined),
        Fact("Died", voyage.died_words()),
        Fact("Left", voyage.left),
        Fact("Light used", voyage.light_used or ("none",)),
        Fact("Supplies used", voyage.supplies_used or ("none",)),
        Fact("Restocked before it", voyage.restocked),
        Fact("The dungeon at the end" if voyage.ended else "The dungeon so far", voyage.dungeon),
        Fact("Route", voyage.route_words),
        Fact("Fights", (_fights(voyage),) if voyage.fights else ()),
    ]
    return [row for row in rows if row.items]


def _fights(voyage: Voyage) -> str:
    """'3 fights, 11 foes defeated'."""
    return f"{counted(voyage.fights, 'fight')}, {counted(voyage.foes_defeated, 'foe')} defeated"


def _downtime(voyage: Voyage, first: bool) -> tuple[str, tuple[str, ...]] | None:
    """The downtime before an expedition, and the notes its start recorded (what did not
    carry over, who came along at 0 HP), when it has one."""
    link = voyage.link
    if link is None:
        return None
    rest = downtime_words(link, voyage.calendar)
    title = f"Downtime · {rest}"
    if first:
        title = f"After {link.predecessor} (not in this chronicle) · {rest}"
    return title, link.notes


def _closing(campaign: Campaign) -> list[tuple[str, tuple[str, ...]]]:
    """What closes the chronicle: the party's fortunes, then the gaps and overlaps."""
    found = [("The party's fortunes", tuple(fortunes(campaign)))]
    if rooms := dungeon(campaign):
        found.append(("The dungeon", tuple(rooms)))
    if campaign.gaps:
        found.append(("Gaps", tuple(gap.sentence for gap in campaign.gaps)))
    if campaign.overlaps:
        found.append(("Overlaps", tuple(o.sentence for o in campaign.overlaps)))
    return found


def _joined(lines: list[str]) -> str:
    """The lines as one piece of text, the list emptied so that only the text is kept."""
    text = "\n".join(lines) + "\n"
    lines.clear()
    return text


# Markdown ----------------------------------------------------------------------------------


def _markdown(campaign: Campaign, now: dt.datetime, picture: str) -> Iterator[str]:
    esc = markdown.escape
    if picture:
        # The file's name as a link: every character but a plain one is %-escaped, so
        # nothing in it is read as Markdown and it names a file beside the chronicle only.
        timeline = f"![Timeline of the campaign]({urllib.parse.quote(picture, safe='')})"
    else:
        command = f"delvetui export --campaign {campaign.name} --format svg"
        timeline = esc(f"The timeline is a picture of its own: {command}")
    yield "\n".join(
        [
            f"# {esc('Chronicle of ' + campaign.name)}",
            "",
            f"*{esc(_byline(campaign, now))}*",
            "",
            timeline,
            "",
            "",
        ]
    )
    number = 0
    for chain, voyage, told in _stories(campaign, now):
        out: list[str] = []
        if voyage is chain.voyages[0]:
            number += 1
            out += [f"## {esc(_chain_title(number, chain))}", ""]
        downtime = _downtime(voyage, voyage is chain.voyages[0])
        if downtime is not None:
            out += [f"### {esc(downtime[0])}", ""]
            out += [f"- {esc(note)}" for note in downtime[1]] + ([""] if downtime[1] else [])
        out += [f"### {esc(voyage.name + ' · ' + voyage.dates)}", "", f"*{esc(_about(voyage))}*"]
        out.append("")
        for fact in _befell(voyage):
            out += markdown.fact_lines(fact)
        out.append("")
        if not told.parts:
            out += [NOTHING_YET, ""]
        for part in told.parts:
            out += markdown.part_lines(part, depth=2)
        del told
        yield _joined(out)
    tail: list[str] = []
    for title, items in _closing(campaign):
        tail += [f"## {esc(title)}", "", *(f"- {esc(item)}" for item in items), ""]
    if tail:
        yield "\n".join(tail)


# HTML --------------------------------------------------------------------------------------


def _html(campaign: Campaign, now: dt.datetime) -> Iterator[str]:
    esc = html.escape
    title = f"Chronicle of {campaign.name}"
    yield "\n".join(
        [
            *html.head(title, _STYLE),
            "<header>",
            f"<h1>{esc(title)}</h1>",
            f'<p class="byline">{esc(_byline(campaign, now))}</p>',
            "</header>",
            '<figure class="timeline">',
            campaign_picture.render(campaign),
            "</figure>",
            "",
        ]
    )
    number = 0
    for chain, voyage, told in _stories(campaign, now):
        out: list[str] = []
        if voyage is chain.voyages[0]:
            if number:
                out.append("</section>")
            number += 1
            out += ['<section class="chain">', f"<h2>{esc(_chain_title(number, chain))}</h2>"]
        downtime = _downtime(voyage, voyage is chain.voyages[0])
        if downtime is not None:
            out += ['<section class="downtime">', f"<h3>{esc(downtime[0])}</h3>"]
            if downtime[1]:
                out += ["<ul>", *(f"<li>{esc(note)}</li>" for note in downtime[1]), "</ul>"]
            out.append("</section>")
        out += [
            '<section class="expedition">',
            f"<h3>{esc(voyage.name + ' · ' + voyage.dates)}</h3>",
            f'<p class="about">{esc(_about(voyage))}</p>',
            '<div class="summary"><dl>',
        ]
        for fact in _befell(voyage):
            out += html.fact_lines(fact)
        out.append("</dl></div>")
        if not told.parts:
            out.append(f"<p>{NOTHING_YET}</p>")
        for part in told.parts:
            out += html.part_lines(part, depth=2)
        out.append("</section>")
        del told
        yield _joined(out)
    tail = ["</section>"] if number else []
    for heading, items in _closing(campaign):
        tail += [
            f"<h2>{esc(heading)}</h2>",
            "<ul>",
            *(f"<li>{esc(i)}</li>" for i in items),
            "</ul>",
        ]
    yield "\n".join([*tail, "</body>", "</html>", ""])


# JSON --------------------------------------------------------------------------------------


def _json(campaign: Campaign, now: dt.datetime) -> Iterator[str]:
    """The chronicle for scripts: the campaign's records, each expedition with its story.

    Written one expedition at a time, each on a line of its own.
    """
    head = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "program": f"delvetui {__version__}",
        "exported": now.isoformat(timespec="seconds"),
        "campaign": campaign.name,
        "start": campaign.start,
        "end": campaign.end,
        "start_date": day_words(campaign.start, campaign.calendar),
        "end_date": day_words(campaign.end, campaign.calendar),
        "gaps": [attrs.asdict(gap) for gap in campaign.gaps],
        "overlaps": [attrs.asdict(overlap) for overlap in campaign.overlaps],
        "fortunes": fortunes(campaign),
    }
    text = dumps(head, indent=1)
    yield text[: -len("\n}")] + ',\n "chains": ['
    for chain, voyage, told in _stories(campaign, now):
        first = voyage is chain.voyages[0]
        if first:
            opening = "\n  " if chain is campaign.chains[0] else "\n  ]},\n  "
            branch = dumps(chain.branches_from or None, indent=None)
            yield f'{opening}{{"branches_from": {branch}, "expeditions": ['
        record = voyage_json(voyage)
        record["story"] = {
            "title": told.title,
            "parts": [attrs.asdict(part) for part in told.parts],
        }
        del told
        text = ("\n   " if first else ",\n   ") + dumps(record, indent=None)
        del record
        yield text
    yield "\n  ]}\n ]\n}\n" if campaign.chains else "]\n}\n"
