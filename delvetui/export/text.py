"""The story as plain text: for a terminal, a printout or the body of an e-mail.

Lines are wrapped at 78 columns with the continuation indented under the line it belongs
to. The story's texts are already free of control characters, so nothing in the file can
act on a terminal it is printed on.
"""

from __future__ import annotations

import textwrap

from delvetui.export.story import Fact, Part, Story

WIDTH = 78


def render(story: Story) -> str:
    """The whole story as plain text."""
    out = [*_wrap(story.title), "#" * min(len(story.title), WIDTH), *_wrap(story.byline), ""]
    if not story.parts:
        out += ["Nothing has happened in this expedition yet.", ""]
    for part in story.parts:
        out += _part(part)
    return "\n".join(out).rstrip("\n") + "\n"


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
        title = f"Summary of session {part.number}" if part.kind == "session" else "Summary"
        out += [title, ""]
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
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=first,
        subsequent_indent=rest or first,
        break_long_words=True,
        break_on_hyphens=False,
    ) or [first.rstrip()]
