"""A picture of a campaign: its expeditions on the calendar, one row per chain, as an SVG.

Days run along the bottom. Each chain is a row: its expeditions as bars from their start
to their end, each named with its length under it however short its bar ("barrow, 3 h":
a few hours on an axis of weeks is a sliver), the downtime between them as a dashed line
with its length over it ("7 days"), a death as a cross at the end of
the expedition it happened in, a gap (a predecessor missing or changed) as a red mark at
the start of the expedition that continues it. Two bars that share a character at
overlapping dates are outlined in red. Like the expedition's timeline it is
self-contained, dark on white, and every text from a file goes through ``picture.text``.
"""

from __future__ import annotations

from collections.abc import Callable

from delvetui.export.campaign import DAY, Campaign, Voyage, downtime_words
from delvetui.export.picture import text
from delvetui.text import counted, minutes_words

_LEFT = 150
_RIGHT = 24
#: A chain's row: its bars, and the line of words under them.
_ROW = 46
#: A bar's height.
_BAR = 20
_FONT = "font-family:Helvetica,Arial,sans-serif"


def render(campaign: Campaign) -> str:
    """The campaign as a standalone SVG document."""
    first_day = campaign.start // DAY
    days = campaign.end // DAY - first_day + 1
    step = max(4.0, min(60.0, 900 / days))
    width = max(_LEFT + days * step + _RIGHT, _LEFT + 460)
    overlapping = {o.first for o in campaign.overlaps} | {o.second for o in campaign.overlaps}
    gaps = {gap.expedition: gap.sentence for gap in campaign.gaps}
    rows: list[str] = []
    y = 46

    def x(clock: int) -> float:
        return _LEFT + (clock - first_day * DAY) / DAY * step

    for number, chain in enumerate(campaign.chains, start=1):
        label = text(f"{number}. {chain.voyages[0].name}")
        rows.append(
            f'<text x="{_LEFT - 8}" y="{y + 19}" text-anchor="end" font-size="12" '
            f'fill="#000">{label}</text>'
        )
        labels, reach = _labels(chain.voyages, x, y)
        rows += labels
        width = max(width, reach + _RIGHT)
        for voyage in chain.voyages:
            rows += _voyage(voyage, x, y, voyage.name in overlapping, gaps.get(voyage.name))
        y += _ROW
    y += 6
    rows.append(f'<line x1="{_LEFT}" y1="{y}" x2="{x(campaign.end):.1f}" y2="{y}" stroke="#000"/>')
    every = next(n for n in (1, 2, 5, 7, 10, 14, 28, 50, 100, 10**9) if n * step >= 40)
    for day in range(days):
        if day % every == 0:
            middle = _LEFT + (day + 0.5) * step
            rows.append(
                f'<line x1="{middle:.1f}" y1="{y}" x2="{middle:.1f}" y2="{y + 4}" stroke="#000"/>'
                f'<text x="{middle:.1f}" y="{y + 16}" text-anchor="middle" font-size="11" '
                f'fill="#000">{first_day + day + 1}</text>'
            )
    rows.append(
        f'<text x="{_LEFT - 8}" y="{y + 16}" text-anchor="end" font-size="12" '
        'fill="#000">Day</text>'
    )
    y += 26
    rows.append(_legend(y))
    y += 24
    count = sum(1 for _ in campaign.voyages)
    heading = f"{campaign.name} — {counted(count, 'expedition')}, {campaign.dates}"
    return "\n".join(
        [
            '<svg xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="0 0 {width:.0f} {y}" width="{width:.0f}" height="{y}" '
            f'style="{_FONT};background:#fff">',
            f"<title>{text('Timeline of the campaign ' + campaign.name)}</title>",
            f'<rect x="0" y="0" width="{width:.0f}" height="{y}" fill="#fff"/>',
            f'<text x="10" y="24" font-size="16" font-weight="bold" fill="#000">'
            f"{text(heading)}</text>",
            *rows,
            "</svg>",
            "",
        ]
    )


def _voyage(
    voyage: Voyage, x: Callable[[int], float], y: int, overlaps: bool, gap: str | None
) -> list[str]:
    out = []
    link = voyage.link
    if link is not None and link.downtime_minutes > 0 and gap is None:
        left, right = x(link.ended_clock), x(voyage.start)
        rest = f"Downtime before {voyage.name}: {downtime_words(link, voyage.calendar)}"
        out.append(
            f'<line x1="{left:.1f}" y1="{y + 15}" x2="{right:.1f}" y2="{y + 15}" '
            f'stroke="#2e7d32" stroke-width="2" stroke-dasharray="4 3"><title>'
            f"{text(rest)}</title></line>"
        )
    left = x(voyage.start)
    right = max(x(voyage.end), left + 4)
    stroke = ' stroke="#c62828" stroke-width="2.5"'
    if not overlaps:
        stroke = ' stroke="#000" stroke-width="0.6"'
    about = f"{voyage.name} ({voyage.procedure}): {voyage.dates}, " + ", ".join(
        [counted(voyage.sessions, "session"), counted(voyage.turns, "turn")]
    )
    if voyage.died:
        about += f"; died: {', '.join(voyage.died_words())}"
    out.append(
        f'<rect x="{left:.1f}" y="{y + 5}" width="{right - left:.1f}" height="{_BAR}" '
        f'rx="3" fill="#dbe7f5"{stroke}><title>{text(about)}</title></rect>'
    )
    for index, name in enumerate(voyage.died):
        # At the moment of the death where it was marked, else at the expedition's end.
        middle = min(max(x(voyage.died_clock(name)), left + 4), right - 6 - index * 9)
        out.append(
            f'<path d="M{middle - 4:.1f},{y + 11} l8,8 M{middle + 4:.1f},{y + 11} l-8,8" '
            f'stroke="#000" stroke-width="2"><title>{text(name + " died in " + voyage.name)}'
            "</title></path>"
        )
    if gap is not None:
        out.append(
            f'<polygon points="{left:.1f},{y + 2} {left + 6:.1f},{y + 2} {left:.1f},{y + 12}" '
            f'fill="#c62828" stroke="#000" stroke-width="0.6"><title>{text(gap)}</title>'
            "</polygon>"
        )
    return out


def _labels(
    voyages: tuple[Voyage, ...], x: Callable[[int], float], y: int
) -> tuple[list[str], float]:
    """Under each bar its name and length ("barrow, 3 h"), over each downtime its length
    ("7 days"); a label that would run into the one before it is moved on past it. With
    them, how far right the words reach."""
    out = []
    free = 0.0  # where the line of words under the bars is free again
    for voyage in voyages:
        link = voyage.link
        if link is not None and link.downtime_minutes > 0:
            middle = (x(link.ended_clock) + x(voyage.start)) / 2
            out.append(
                f'<text x="{middle:.1f}" y="{y + 12}" text-anchor="middle" font-size="10" '
                f'fill="#2e7d32">{text(minutes_words(link.downtime_minutes))}</text>'
            )
        words = f"{voyage.name}, {minutes_words(voyage.end - voyage.start)}"
        left = max(x(voyage.start), free)
        out.append(
            f'<text x="{left:.1f}" y="{y + _BAR + 17}" font-size="10" fill="#000">'
            f"{text(words)}</text>"
        )
        free = left + len(words) * 6 + 8  # about 6 points a letter at this size
    return out, free


def _legend(y: int) -> str:
    return (
        f'<g font-size="11" fill="#000">'
        f'<rect x="{_LEFT}" y="{y}" width="18" height="12" rx="3" fill="#dbe7f5" stroke="#000" '
        f'stroke-width="0.6"/><text x="{_LEFT + 22}" y="{y + 10}">an expedition</text>'
        f'<line x1="{_LEFT + 100}" y1="{y + 6}" x2="{_LEFT + 124}" y2="{y + 6}" stroke="#2e7d32" '
        f'stroke-width="2" stroke-dasharray="4 3"/><text x="{_LEFT + 128}" y="{y + 10}">downtime'
        f"</text>"
        f'<path d="M{_LEFT + 190},{y + 2} l8,8 M{_LEFT + 198},{y + 2} l-8,8" stroke="#000" '
        f'stroke-width="2"/><text x="{_LEFT + 204}" y="{y + 10}">a death</text>'
        f'<polygon points="{_LEFT + 256},{y} {_LEFT + 262},{y} {_LEFT + 256},{y + 10}" '
        f'fill="#c62828"/><text x="{_LEFT + 266}" y="{y + 10}">a gap</text>'
        f'<rect x="{_LEFT + 306}" y="{y}" width="18" height="12" rx="3" fill="#dbe7f5" '
        f'stroke="#c62828" stroke-width="2.5"/><text x="{_LEFT + 328}" y="{y + 10}">a character '
        f"in two at once</text></g>"
    )
