"""The table's own small files: its preferences, and where exports go.

The preferences are written through :mod:`delvetui.fileio` (a temporary file, fsync,
rename), so a crash mid-write leaves the old file or the new one, never half of either.
The expedition itself is only ever changed through :class:`delvetui.session.Expedition`.
Exports go to a folder of their own, apart from the preferences.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs

from delvetui import fileio, paths
from delvetui.errors import DelveError, StorageFailed

PREFS_NAME = "delvetui-table.json"
#: The folder in the data folder the table's exports go to.
EXPORTS = "exports"
#: Preferences larger than this are not read (they are a few hundred bytes).
MAX_PREFS_BYTES = 1_000_000


def export_path(expedition_path: Path, fmt: str) -> Path:
    """Where the table exports an expedition: the ``exports`` folder in the data folder.

    A folder of their own, so that no expedition's name can make an export's file name
    the preferences' (an expedition called 'delvetui-table' exported to JSON).
    """
    folder = paths.data_dir() / EXPORTS
    if fmt == "json":
        return folder / f"{expedition_path.stem}.json"
    return folder / f"{expedition_path.stem}-log.{fmt}"


def chronicle_path(campaign: str, fmt: str) -> Path:
    """Where the campaign screen writes a campaign's chronicle: the exports folder, under a
    name made of the campaign's plain letters only ('barrow-chronicle.md'), so that no
    campaign's name can name another folder or file."""
    plain = re.sub(r"[^\w-]+", "-", campaign, flags=re.ASCII).strip("-")[:60] or "campaign"
    return paths.data_dir() / EXPORTS / f"{plain}-chronicle.{fmt}"


def write_export(path: Path, text: str) -> None:
    """Write (or write again) one of the table's exports, making its folder when missing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageFailed(
            f"Cannot make the folder {path.parent} ({fileio.reason(error)}); "
            "the log was not exported."
        ) from None
    fileio.write_file(path, text, replace=True)


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
            data: Any = json.loads(fileio.read_regular(path, MAX_PREFS_BYTES).decode("utf-8"))
        except (OSError, ValueError, DelveError):
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
        """Write the preferences atomically; StoreError or FileRefused saying why they were not."""
        fileio.write_file(
            paths.ensure_data_dir() / PREFS_NAME,
            json.dumps(attrs.asdict(self), indent=2, sort_keys=True, ensure_ascii=False) + "\n",
            replace=True,
        )
