"""The story as plain text: for a terminal, a printout or the body of an e-mail.

Lines are wrapped at 78 columns with the continuation indented under the line it belongs
to. Every text is made visible (``text.visible``) as it is wrapped, so nothing in the file
can act on a terminal it is printed on. The wrap takes one pass over each text, so a note that
is one long word costs no more than one of many words.
"""

from __future__ import annotations

from collections.abc import Sequence

from delvetui.export.story import Fact, Part, Story, lines_of
from delvetui.text import visible, wrap

WIDTH = 78


def render(story: Story, room_map: Sequence[str] = ()) -> str:
    """The whole story as plain text (the map of the rooms the party knows after its
    title, as it is drawn: its lines are not wrapped)."""
    head = [*_wrap(story.title), "#" * min(len(story.title), WIDTH), *_wrap(story.byline), ""]
    if room_map:
        head += ["The map of the rooms the party knows", "", *room_map, ""]
    return lines_of(story, head, _part)


def _part(part: Part) -> list[str]:
    heading = _wrap(part.heading)
    rule = "=" if part.kind == "session" else "-"
    out = ["", *heading, rule * max(len(line) for line in heading), *_wrap(part.about), ""]
    for turn in part.turns:
        if turn.number is not None:
            out += _wrap(turn.heading)
        indent = "  " if turn.number is not None else ""
        for entry in turn.entries:
            out += _wrap(entry.plain, indent, indent + "  ")
        if turn.entries or turn.number is not None:
            out.append("")
    if part.summary:
        out += [part.summary_title, ""]
        for fact in part.summary:
            out += _fact(fact)
        out.append("")
    return out


def _fact(fact: Fact) -> list[str]:
    if len(fact.items) == 1:
        return _wrap(f"{fact.label}: {fact.items[0]}", "  ", "    ")
    out = [f"  {fact.label}:"]
    for item in fact.items:
        out += _wrap(item, "    - ", "      ")
    return out


def _wrap(text: str, first: str = "", rest: str = "") -> list[str]:
    rest = rest or first
    rows = wrap(visible(text).strip(" "), WIDTH - len(first), WIDTH - len(rest))
    out = [(first if n == 0 else rest) + row.strip(" ") for n, row in enumerate(rows)]
    return [line for line in out if line.strip()] or [first.rstrip()]
