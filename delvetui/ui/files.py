"""The table's own small files: its preferences, and where exports go.

The preferences are written atomically (a temporary file, fsync, rename), so a crash
mid-write leaves the old file or the new one, never half of either. The expedition
itself is only ever changed through :class:`delvetui.session.Expedition`.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import attrs

from delvetui import paths
from delvetui.errors import StorageFailed

PREFS_NAME = "delvetui-table.json"


def write_atomically(path: Path, text: str) -> None:
    """Write text to path through a temporary file, fsync and rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        raise StorageFailed(f"{path} could not be written ({error.strerror or error}).") from None
    try:
        folder = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def export_path(expedition_path: Path, fmt: str) -> Path:
    """Where the table exports an expedition: beside the saved expeditions."""
    if fmt == "json":
        return paths.data_dir() / f"{expedition_path.stem}.json"
    return paths.data_dir() / f"{expedition_path.stem}-log.{fmt}"


@attrs.define
class Prefs:
    """What the table remembers between runs that is not part of the expedition.

    The theme, the keymap (binding id to keys) and, per expedition file, whether table dice
    are on and which movement speed is chosen.
    """

    theme: str = "textual-dark"
    keys: dict[str, str] = attrs.field(factory=dict)
    table_dice: dict[str, bool] = attrs.field(factory=dict)
    speed: dict[str, str] = attrs.field(factory=dict)
    #: Ask before a turn into total darkness or with a member at 0 HP.
    confirm_trouble: bool = True

    @classmethod
    def load(cls) -> Prefs:
        """The saved preferences; defaults when there are none or they cannot be read."""
        path = paths.data_dir() / PREFS_NAME
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        prefs = cls()
        if isinstance(data.get("theme"), str):
            prefs.theme = data["theme"]
        if isinstance(data.get("confirm_trouble"), bool):
            prefs.confirm_trouble = data["confirm_trouble"]
        for name in ("keys", "table_dice", "speed"):
            value = data.get(name)
            if isinstance(value, dict):
                setattr(prefs, name, dict(value))
        return prefs

    def save(self) -> None:
        """Write the preferences atomically."""
        write_atomically(
            paths.data_dir() / PREFS_NAME,
            json.dumps(attrs.asdict(self), indent=2, sort_keys=True, ensure_ascii=False) + "\n",
        )
