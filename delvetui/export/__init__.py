"""Exports: the session log as Markdown, HTML or plain text, and the JSON interchange format.

``export(expedition, "md")`` returns the text (``export_saved(path, "md")`` does the same
through a read-only connection of its own, for a worker thread); :mod:`delvetui.fileio`
puts it in a file so a reader never sees half of it (``export_chunks`` gives the text in
pieces, JSON a batch at a time). ``import_file`` brings a JSON export or a copied ``.delve``
file back as an expedition. The formats are described in ``docs/export.md``.

Each format's module is imported when that format is asked for, and ``import_file`` and
``ImportRefused`` on first use (PEP 562, as in ``core.commands``): one export, or an
import, needs none of the others, and the JSON format, the timeline picture and the
import's checks (``core.audit``) were most of what ``delvetui export`` imported.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from delvetui import lazy
from delvetui.errors import DelveError
from delvetui.session import Expedition, to_batch

if TYPE_CHECKING:
    from delvetui.export import story
    from delvetui.export.importing import import_file
    from delvetui.export.json_format import ImportRefused

__all__ = [
    "FORMATS",
    "ImportRefused",
    "export",
    "export_chunks",
    "export_saved",
    "format_for",
    "import_file",
    "picture_of",
    "story_of",
]

#: Every format, by the name ``--format`` takes, with its usual file suffix.
FORMATS = {"md": ".md", "html": ".html", "txt": ".txt", "json": ".json", "svg": ".svg"}
_SUFFIXES = {
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
    ".txt": "txt",
    ".json": "json",
    ".svg": "svg",
}


#: The module of the package that defines each name imported on first use.
_HOME = {"import_file": "importing", "ImportRefused": "json_format"}


def __getattr__(name: str) -> Any:
    """A name of the package, imported from its module the first time it is asked for."""
    return lazy.attribute(__name__, _HOME, name, globals())


def format_for(path: str | Path) -> str | None:
    """The format a file name asks for by its suffix ('log.html': 'html'), if any."""
    return _SUFFIXES.get(Path(path).suffix.lower())


def story_of(
    expedition: Expedition, *, session: int | None = None, now: dt.datetime | None = None
) -> story.Story:
    """The story of an expedition (or of one session), as every exporter tells it."""
    from delvetui.export import story

    played = [story.Played(to_batch(s), s.at) for s in expedition.saved()]
    told = story.build(
        played,
        expedition.procedure_at,
        title=expedition.state.name or expedition.path.stem,
        exported=now or dt.datetime.now().astimezone(),
    )
    return told if session is None else story.only_session(told, session)


def picture_of(expedition: Expedition) -> str:
    """The timeline of the whole expedition as an SVG document."""
    from delvetui.export import picture

    batches = expedition.batches()
    title = expedition.state.name or expedition.path.stem
    return picture.render(picture.build(batches, title))


def export(
    expedition: Expedition,
    fmt: str,
    *,
    session: int | None = None,
    now: dt.datetime | None = None,
) -> str:
    """The expedition in a format: 'md', 'html', 'txt' or 'json'.

    ``session`` tells one session only (0: what came before the first). JSON always holds
    the whole expedition, so that importing it brings the same expedition back; asking it
    for one session is refused.
    """
    if fmt == "json":
        if session is not None:
            raise DelveError(
                "A JSON export always holds the whole expedition, so that importing it "
                "brings the same expedition back; leave out --session, or choose md, html "
                "or txt for one session's log."
            )
        from delvetui.export import json_format

        return json_format.render(expedition, now=now)
    if fmt == "svg":
        if session is not None:
            raise DelveError(
                "The timeline always shows the whole expedition, each session as a span; "
                "leave out --session."
            )
        return picture_of(expedition)
    if fmt not in ("md", "html", "txt"):
        raise DelveError(f"There is no export format '{fmt}'; choose md, html, txt, json or svg.")
    told = story_of(expedition, session=session, now=now)
    drawn = _room_map(expedition, fmt)
    if fmt == "txt":
        from delvetui.export import text

        return text.render(told, drawn)
    timeline = picture_of(expedition)
    if fmt == "md":
        from delvetui.export import markdown

        return markdown.render(told, timeline, drawn)
    from delvetui.export import html

    return html.render(told, timeline, "".join(drawn))


def _room_map(expedition: Expedition, fmt: str) -> list[str]:
    """The map of the rooms the party knows at the end: an SVG for HTML (one item), lines
    of text for Markdown and plain text; none where the expedition has no rooms."""
    state = expedition.state
    if not state.rooms:
        return []
    from delvetui.core.areas import areas
    from delvetui.export import room_map

    if fmt == "html":
        drawn = room_map.render(state, areas(state))
        return [drawn] if drawn else []
    return room_map.map_lines(state, areas(state))


def export_chunks(
    expedition: Expedition,
    fmt: str,
    *,
    session: int | None = None,
    now: dt.datetime | None = None,
) -> Iterator[str]:
    """The expedition in a format, in pieces: JSON a batch at a time, in constant memory."""
    if fmt == "json" and session is None:
        from delvetui.export import json_format

        yield from json_format.chunks(expedition, now=now)
    else:
        yield export(expedition, fmt, session=session, now=now)


def export_saved(
    path: Path, fmt: str, *, session: int | None = None, now: dt.datetime | None = None
) -> str:
    """Export a saved expedition through a read-only connection of its own.

    Safe in a worker thread while the table has the expedition open for writing: nothing
    is locked or changed.
    """
    with Expedition.open(path, write=False) as expedition:
        return export(expedition, fmt, session=session, now=now)
