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


#: The rule ledgers, one for each shipped procedure (docs/rules/ID.md).
LEDGERS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def ledger(name: str) -> str:
    """The rule ledger of the shipped procedure ``name``: what its text says, rule by rule."""
    return (LEDGERS / f"{name}.md").read_text(encoding="utf-8")


def shipped_text(name: str) -> str:
    """The text of the shipped procedure ``name``."""
    return (shipped_dir() / f"{name}.toml").read_text(encoding="utf-8")
