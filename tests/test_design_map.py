"""docs/design.md maps every room below the UI, a line a module, and the map is the tree.

Between its ``rooms`` markers the design lists each folder of the package below the UI
(``core/``, ``core/events/``, ``procedure/``, ``export/story/``...) and under it each
module with what it holds. A module added, moved or taken out without its line fails here,
so a reader can find a behaviour from the tree and the design alone.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "delvetui"
DESIGN = ROOT / "docs" / "design.md"
#: The folders the map covers: every room but the UI's, which has its own map.
ROOMS = ("core", "procedure", "store", "application", "export")


def mapped() -> list[str]:
    """Every module the map names, as a path under ``delvetui/``, in its order."""
    text = DESIGN.read_text(encoding="utf-8")
    found = re.search(r"<!-- rooms:begin -->\n```\n(.*?)```\n<!-- rooms:end -->", text, re.S)
    assert found, "docs/design.md has no map between <!-- rooms:begin/end --> markers"
    names: list[str] = []
    folder = ""
    for line in found.group(1).splitlines():
        head = re.fullmatch(r"(\S+/)\s+\S.*", line)
        if head is not None:
            folder = "" if head.group(1) == "delvetui/" else head.group(1)
            continue
        module = re.fullmatch(r"  (\S+\.py)\s+\S.*", line)
        assert module is not None, f"the map's line {line!r} is neither a folder nor a module"
        names.append(f"{folder}{module.group(1)}")
    return names


def modules() -> set[str]:
    """Every module of the package below the UI, as a path under ``delvetui/``."""
    found = {path.name for path in PACKAGE.glob("*.py")}
    for room in ROOMS:
        found |= {path.relative_to(PACKAGE).as_posix() for path in (PACKAGE / room).rglob("*.py")}
    return found


def test_the_map_names_every_module_below_the_ui_once() -> None:
    names = mapped()
    twice = sorted({name for name in names if names.count(name) > 1})
    assert twice == []
    assert sorted(modules() - set(names)) == [], "modules the map does not name"
    assert sorted(set(names) - modules()) == [], "lines the map has for no module"
