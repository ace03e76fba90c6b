"""The story as Markdown: for campaign notes (Obsidian and the like), and as plain text.

A heading per session, a smaller heading per turn with its entries as a list, then the
session's summary. Every text is escaped so that what a player named a character, or what
a note says, shows literally: ``**bold**``, ``# heading``, ``[link](x)``, ``<script>`` and
Obsidian's ``[[links]]``, ``#tags``, ``==highlights==`` and ``$math$`` stay text. Dice
faces (``d6 [3, 4]``) are left unescaped so the file still reads well as plain text.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence

from delvetui.export.story import Entry, Fact, Part, Story, lines_of
from delvetui.text import visible

# Characters that mean something inline, in CommonMark or in Obsidian, wherever they are.
_INLINE = re.compile(r"[\\`*_<>&|~#$]")
# An opening bracket, unless it opens a list of dice faces that cannot become a link.
_BRACKET = re.compile(r"\[(?![\d, ]+\](?![(\[:]))")
# Doubled marks that Obsidian reads: ==highlight== and %%comment%%.
_DOUBLED = re.compile(r"=(?==)|(?<==)=|%(?=%)|(?<=%)%")
# What would start a list item, a heading underline or a numbered list at a line's start.
_LEADING = re.compile(r"^([-+=]|\d+(?=[.)]))")


def escape(text: str) -> str:
    """Text that Markdown shows exactly as it is written, every control character shown as
    a symbol (``text.visible``, the terminal's rule), whatever the text came from."""
    text = visible(" ".join(text.split()))
    text = _INLINE.sub(lambda m: "\\" + m.group(), text)
    text = _BRACKET.sub(r"\\[", text)
    if text.startswith("["):
        text = "\\" + text  # a link reference definition starts a line with [
    text = _DOUBLED.sub(lambda m: "\\" + m.group(), text)
    leading = _LEADING.match(text)
    if leading:
        end = leading.end()
        text = text[:end] + "\\" + text[end:] if text[:end].isdigit() else "\\" + text
    return text


def render(story: Story, timeline: str = "", room_map: Sequence[str] = ()) -> str:
    """The whole story as one Markdown document, the timeline's SVG embedded as an image
    (and the map of the rooms the party knows, as lines of text in a fenced block).

    The SVG goes in as a base64 ``data:`` address, so the file stays one file and nothing
    in the picture can be read as Markdown; the map's fence is longer than any run of
    backticks in it, so nothing in it ends the block.
    """
    out = [f"# {escape(story.title)}", "", f"*{escape(story.byline)}*", ""]
    if timeline:
        encoded = base64.b64encode(timeline.encode("utf-8")).decode("ascii")
        out += [f"![Timeline of the expedition](data:image/svg+xml;base64,{encoded})", ""]
    if room_map:
        longest = max((len(run) for line in room_map for run in re.findall("`+", line)), default=0)
        fence = "`" * max(3, longest + 1)
        out += ["**The map of the rooms the party knows**", "", fence, *room_map, fence, ""]
    return lines_of(story, out, part_lines)


def part_lines(part: Part, depth: int = 0) -> list[str]:
    """One part of the story: a ``##`` heading (deeper by ``depth`` levels), its turns and
    its summary; the chronicle puts an expedition's parts under its own heading."""
    mark = "#" * depth
    out = [f"{mark}## {escape(part.heading)}", "", f"*{escape(part.about)}*", ""]
    for turn in part.turns:
        if turn.number is not None:
            out += [f"{mark}### {escape(turn.heading)}", ""]
        out += [_entry(entry) for entry in turn.entries]
        if turn.entries:
            out.append("")
    if part.summary:
        out += [f"{mark}### {part.summary_title}", ""]
        for fact in part.summary:
            out += fact_lines(fact)
        out.append("")
    return out


def _entry(entry: Entry) -> str:
    text = escape(entry.text)
    if entry.result:
        roll = f"{text} → " if text else "→ "
        space = " " if entry.detail[:1].isspace() else ""
        return f"- {roll}**{escape(entry.result)}**{space}{escape(entry.detail)}"
    if entry.kind == "encounter":
        return f"- **{text}**"
    if entry.kind == "note":
        return f"- *{text}*"
    return f"- {text}"


def fact_lines(fact: Fact) -> list[str]:
    """A summary row as a list item, its items under it when there are several."""
    label = f"**{escape(fact.label)}:**"
    if len(fact.items) == 1:
        return [f"- {label} {escape(fact.items[0])}"]
    return [f"- {label}", *(f"  - {escape(item)}" for item in fact.items)]
