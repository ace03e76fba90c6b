"""The story as one self-contained HTML page: to read on a phone, send, or print.

Styles are inline, there is no script and no outside resource, and a Content-Security-Policy
forbids both, so the page looks the same offline and nothing in it can run. Every text is
written through ``escape``: its control characters shown as symbols (``text.visible``, the
terminal's rule), then ``html.escape``.
"""

from __future__ import annotations

import html

from delvetui.export.story import NOTHING_YET, Entry, Fact, Part, Story
from delvetui.text import visible

_CSS = """
:root { color-scheme: light dark; --ink: #1d1b18; --paper: #fbf8f1; --muted: #6b645a;
  --rule: #d9d1c3; --encounter: #b3261e; --sign: #9a6700; --note: #2f5d8a;
  --light: #c26a00; --party: #2e7d32; --alarm: #7b3fa0; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #ece6da; --paper: #1c1b19; --muted: #a39b8e; --rule: #3d3933;
    --encounter: #ff8a80; --sign: #f2c14e; --note: #8ab4f8; --light: #ffb74d;
    --party: #81c995; --alarm: #d7aefb; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 44rem; padding: 1rem 1rem 3rem; background: var(--paper);
  color: var(--ink); font: 1rem/1.5 Georgia, "Iowan Old Style", "Palatino Linotype", serif;
  overflow-wrap: anywhere; }
h1 { font-size: 1.7rem; margin: 0.5rem 0 0; }
figure.timeline { margin: 1rem 0; overflow-x: auto; }
figure.timeline svg { max-width: 100%; height: auto; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 0; padding-top: 0.6rem;
  border-top: 2px solid var(--rule); }
h3 { font-size: 1rem; margin: 1.2rem 0 0.2rem; font-family: system-ui, sans-serif; }
.byline, .about { color: var(--muted); margin: 0.2rem 0 0.8rem; font-style: italic; }
ul { margin: 0; padding-left: 1.1rem; }
li { margin: 0.15rem 0; }
li.roll { font-variant-numeric: tabular-nums; }
li.encounter { color: var(--encounter); font-weight: bold; }
li.sign { color: var(--sign); }
li.note { color: var(--note); font-style: italic; list-style: "✎ "; }
li.light { color: var(--light); }
li.party { color: var(--party); }
li.alarm { color: var(--alarm); }
.summary { margin-top: 1.2rem; padding: 0.6rem 0.9rem; border: 1px solid var(--rule);
  border-radius: 6px; }
.summary h3 { margin-top: 0.2rem; }
dl { margin: 0; display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.8rem; }
dt { font-weight: bold; font-family: system-ui, sans-serif; font-size: 0.9rem;
  padding-top: 0.1rem; }
dd { margin: 0; }
dd ul { padding-left: 1rem; }
@media (max-width: 30rem) {
  dl { grid-template-columns: 1fr; }
  dd { margin-bottom: 0.4rem; }
}
@media print {
  :root { --ink: #000; --paper: #fff; --muted: #444; }
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; }
  h3 { break-after: avoid; }
  ul, .summary, figure.timeline { break-inside: avoid; }
}
"""

#: The map's styles, in the page only where it has a map of rooms.
_MAP_CSS = """
figure.map { margin: 1rem 0; overflow-x: auto; }
figure.map svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-style: italic; font-size: 0.9rem; }
@media print { figure.map { break-inside: avoid; } }
"""

_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def escape(text: str) -> str:
    """A text from a file or a name, safe in the page: controls shown, markup escaped."""
    return html.escape(visible(text))


def head(title: str, style: str = "") -> list[str]:
    """The page's head, up to and with the opening of its body: styles (the story's, then
    ``style``) and the policy inside."""
    return [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="delvetui">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}{style}</style>",
        "</head>",
        "<body>",
    ]


def render(story: Story, timeline: str = "", room_map: str = "") -> str:
    """The whole story as one HTML document, with the timeline's SVG drawn at the top (and
    the map of the rooms the party knows, an SVG too, after it)."""
    out = [
        *head(story.title, _MAP_CSS if room_map else ""),
        "<header>",
        f"<h1>{escape(story.title)}</h1>",
        f'<p class="byline">{escape(story.byline)}</p>',
        "</header>",
    ]
    if timeline:
        out += ['<figure class="timeline">', timeline, "</figure>"]
    if room_map:
        caption = "The map of the rooms the party knows"
        out += [
            '<figure class="map">',
            room_map,
            f"<figcaption>{caption}</figcaption>",
            "</figure>",
        ]
    if not story.parts:
        out.append(f"<p>{NOTHING_YET}</p>")
    for part in story.parts:
        out += part_lines(part)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def part_lines(part: Part, depth: int = 0) -> list[str]:
    """One part of the story as a section: an ``h2`` heading (deeper by ``depth`` levels),
    its turns and its summary; the chronicle puts an expedition's parts under its own."""
    h2, h3 = f"h{2 + depth}", f"h{3 + depth}"
    out = [
        f'<section class="part {part.kind}">',
        f"<{h2}>{escape(part.heading)}</{h2}>",
        f'<p class="about">{escape(part.about)}</p>',
    ]
    for turn in part.turns:
        if turn.number is not None:
            out.append(f"<{h3}>{escape(turn.heading)}</{h3}>")
        if turn.entries:
            out += ["<ul>", *(_entry(entry) for entry in turn.entries), "</ul>"]
    if part.summary:
        title = escape(part.summary_title)
        out += ['<div class="summary">', f"<{h3}>{title}</{h3}>", "<dl>"]
        for fact in part.summary:
            out += fact_lines(fact)
        out += ["</dl>", "</div>"]
    out.append("</section>")
    return out


def _entry(entry: Entry) -> str:
    text = escape(entry.text)
    if entry.result:
        roll = f"{text} → " if text else "→ "
        text = f"{roll}<strong>{escape(entry.result)}</strong>{escape(entry.detail)}"
    return f'<li class="{entry.kind}">{text}</li>'


def fact_lines(fact: Fact) -> list[str]:
    """A summary row as a term and its description (a list when it has several items)."""
    out = [f"<dt>{escape(fact.label)}</dt>"]
    if len(fact.items) == 1:
        out.append(f"<dd>{escape(fact.items[0])}</dd>")
    else:
        items = "".join(f"<li>{escape(item)}</li>" for item in fact.items)
        out.append(f"<dd><ul>{items}</ul></dd>")
    return out
