"""What a story is made of: its parts (sessions), their turns, each turn's entries, and each
part's summary, every text made visible on the way in; a text format writes these."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

import attrs

from delvetui.core.log import Kind
from delvetui.core.state import State
from delvetui.core.timeline import Batch
from delvetui.procedure.model import Procedure
from delvetui.text import visible


def _visible_all(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(visible(item) for item in items)


@attrs.frozen
class Entry:
    """One line of the story: a roll and what it read, a light going out, a note...

    A table result is kept apart so a format can make it stand out: ``result`` is its
    label ('Encounter') and ``detail`` what follows it (' — A wandering monster appears.').
    """

    kind: Kind
    text: str = attrs.field(converter=visible)
    result: str = attrs.field(default="", converter=visible)
    detail: str = attrs.field(default="", converter=visible)

    @property
    def plain(self) -> str:
        """The whole line as plain words."""
        if not self.result:
            return self.text
        told = f"{self.text} → " if self.text else "→ "
        return f"{told}{self.result}{self.detail}"


@attrs.frozen
class Turn:
    """One turn and what happened in it; ``number`` None for what came before any turn."""

    number: int | None
    heading: str = attrs.field(converter=visible)
    entries: tuple[Entry, ...]


@attrs.frozen
class Fact:
    """One row of a summary: a label and its items ('Encounters': two texts)."""

    label: str = attrs.field(converter=visible)
    items: tuple[str, ...] = attrs.field(converter=_visible_all)


PartKind = Literal["before", "session", "between", "all"]


#: The procedure an expedition followed in a state (it may move to a newer one).
ProcedureAt = Callable[[State], Procedure]


@attrs.frozen
class Part:
    """A session, or the play before, between or (when none was marked) outside sessions."""

    kind: PartKind
    number: int | None
    title: str = attrs.field(converter=visible)
    date: str = attrs.field(converter=visible)
    about: str = attrs.field(converter=visible)
    turns: tuple[Turn, ...]
    summary: tuple[Fact, ...]

    @property
    def heading(self) -> str:
        """Title and date in one line: 'Session 2 · Sunday 22 November 2026'."""
        return f"{self.title} · {self.date}" if self.date else self.title

    @property
    def summary_title(self) -> str:
        """The heading of the part's summary: 'Summary of session 2', or 'Summary'."""
        return f"Summary of session {self.number}" if self.kind == "session" else "Summary"


@attrs.frozen
class Story:
    """The whole story: the expedition's title, and its parts in order."""

    title: str = attrs.field(converter=visible)
    byline: str = attrs.field(converter=visible)
    parts: tuple[Part, ...]


#: What every format says of an expedition where nothing was played yet.
NOTHING_YET = "Nothing has happened in this expedition yet."


def lines_of(story: Story, head: list[str], part: Callable[[Part], list[str]]) -> str:
    """A text format's document: its head, then each part's lines, ending in one newline."""
    out = list(head)
    if not story.parts:
        out += [NOTHING_YET, ""]
    for each in story.parts:
        out += part(each)
    return "\n".join(out).rstrip("\n") + "\n"


@attrs.frozen
class Played:
    """A batch as the story reads it: the batch and the wall-clock time it was committed."""

    batch: Batch
    at: str
