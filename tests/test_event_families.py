"""Each event's meanings sit in its family, and every table of them dispatches one way.

An event's class is in its family's module of ``core/events/`` (``party``, ``lights``,
``clock``...); its rule (``core/evolve/``), its check (``core/event_checks/``) and its
words (``core/log/``) are registered in the module of the same name in each package, and
what it adds to a story's summary in ``export/story/`` (the turn, the counters and the
encounters in ``summary``, the frame of every summary). Each of these is one
``functools.singledispatch`` registered per event type, as is the campaign's record
(``export/campaign_reading``); no module ``match``-es an event's class.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from delvetui.core import events as ev
from delvetui.core.event_checks.base import check
from delvetui.core.evolve.base import rule
from delvetui.core.log.words import words
from delvetui.export.story.tally import take

PACKAGE = Path(__file__).resolve().parent.parent / "delvetui"
FAMILIES = sorted(
    path.stem for path in (PACKAGE / "core" / "events").glob("*.py") if path.stem[0] != "_"
)
#: Each table of an event's meaning, and the modules of its package shared by every family.
TABLES: dict[str, tuple[Any, frozenset[str]]] = {
    "evolve": (rule, frozenset({"base"})),
    "event_checks": (check, frozenset({"base"})),
    "log": (words, frozenset({"words"})),
    "story": (take, frozenset({"tally", "summary"})),
}


def family(cls: type) -> str:
    return cls.__module__.rsplit(".", 1)[1]


def test_the_families_are_the_same_modules_in_each_package() -> None:
    assert "base" in FAMILIES and len(FAMILIES) == 10
    for package in ("evolve", "event_checks", "log"):
        found = {path.stem for path in (PACKAGE / "core" / package).glob("*.py")}
        assert set(FAMILIES) - {"base"} <= found, package


@pytest.mark.parametrize("name", sorted(ev.EVENT_TYPES))
def test_an_events_meanings_sit_in_its_family(name: str) -> None:
    cls = ev.EVENT_TYPES[name]
    assert family(cls) in FAMILIES and family(cls) != "base"
    for table, (dispatch, shared) in TABLES.items():
        registered: Callable[..., Any] | None = dispatch.registry.get(cls)
        if registered is None:
            continue  # read through its base class (a HazardRead is a ResultRead), or none
        home = registered.__module__.rsplit(".", 1)[1]
        assert home == family(cls) or home in shared, f"{name}'s {table} is in {home}"


def _matched_classes(path: Path) -> list[str]:
    """The event classes a ``match`` of the module tells apart by their class."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.MatchClass)
            and isinstance(node.cls, ast.Attribute)
            and node.cls.attr in ev.EVENT_TYPES
        ):
            found.append(f"{path.relative_to(PACKAGE.parent).as_posix()}:{node.lineno}")
    return found


def test_no_module_matches_an_events_class() -> None:
    """What each event means is registered on a singledispatch table, one function per
    type: a ``match`` over event classes was the log's and the checks' other way."""
    assert [
        where for path in sorted(PACKAGE.rglob("*.py")) for where in _matched_classes(path)
    ] == []
