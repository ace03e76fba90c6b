"""The shipped procedures as the tests name them, read from the procedures folder once.

A test that runs for every shipped procedure takes its list from here, so a new procedure
(its TOML in ``procedures/``) is tried by every such test without naming it anywhere else.
"""

from __future__ import annotations

from pathlib import Path

from delvetui.procedure.registry import shipped_dir

#: Every shipped procedure's id (its file's name), sorted.
SHIPPED = sorted(path.stem for path in shipped_dir().glob("*.toml"))
#: Every shipped procedure's file, then every shipped adventure's tables file.
SHIPPED_FILES: list[Path] = [shipped_dir() / f"{name}.toml" for name in SHIPPED] + sorted(
    shipped_dir().glob("adventures/*.toml")
)


def shipped_text(name: str) -> str:
    """The text of the shipped procedure ``name``."""
    return (shipped_dir() / f"{name}.toml").read_text(encoding="utf-8")
