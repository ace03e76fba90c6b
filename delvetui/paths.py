"""Where expeditions and user procedures live.

``DELVETUI_HOME`` names one folder for both (expeditions in it, procedures in its
``procedures`` folder); otherwise the platform's user data and config folders are used.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

from delvetui.errors import ExpeditionNotFound, StoreError
from delvetui.text import quoted, unseen_in

SUFFIX = ".delve"
_NAME = re.compile(r"^[^/\\]{1,80}$")


def data_dir() -> Path:
    """The folder saved expeditions live in."""
    home = os.environ.get("DELVETUI_HOME")
    if home:
        return Path(home)
    return platformdirs.user_data_path("delvetui")


def user_procedures_dir() -> Path:
    """The folder the game master's own procedures live in."""
    home = os.environ.get("DELVETUI_HOME")
    if home:
        return Path(home) / "procedures"
    return platformdirs.user_config_path("delvetui") / "procedures"


def is_path(name: str) -> bool:
    """True when the text names a file rather than a saved expedition."""
    return name.endswith(SUFFIX) or "/" in name or os.sep in name


def new_expedition_path(name: str) -> Path:
    """Where a new expedition called NAME (or at the path NAME.delve) is created."""
    if is_path(name):
        return Path(name)
    plain = _NAME.match(name) and unseen_in(name) is None
    if not plain or name.strip() != name or name in (".", ".."):
        raise StoreError(
            f"'{quoted(name, 40)}' cannot be an expedition name; use up to 80 letters, digits, "
            "spaces and dashes, or a path ending in .delve."
        )
    return data_dir() / f"{name}{SUFFIX}"


def find_expedition(name: str) -> Path:
    """The file of a saved expedition given by name or path."""
    path = Path(name) if is_path(name) else data_dir() / f"{name}{SUFFIX}"
    if not path.exists():
        saved = sorted(p.stem for p in data_dir().glob(f"*{SUFFIX}"))
        known = ", ".join(saved[:10]) or "none yet"
        raise ExpeditionNotFound(
            f"There is no expedition '{name}' (saved expeditions: {known}). "
            "Create one with: delvetui new NAME --procedure ID."
        )
    return path


def saved_expeditions() -> list[Path]:
    """Every saved expedition file in the data folder, most recently played first."""
    folder = data_dir()
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob(f"*{SUFFIX}") if p.is_file()]
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)
