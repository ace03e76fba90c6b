"""Creating an expedition from the table: all of it, or nothing.

The new-expedition form and the demo give a name, a procedure, a start and a list of
commands (party, lights). The expedition is built under a temporary name beside the saved
ones and given its name only when every command has gone through, so a failure halfway leaves
no half-made expedition behind.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from delvetui import fileio, paths
from delvetui.errors import ExpeditionExists
from delvetui.procedure import registry
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition

DEMO_NAME = "demo"
DEMO_PROCEDURE = "delving"
DEMO_SEED = 7
#: The demo party and its lights, as a game master would type them.
DEMO_COMMANDS = (
    "pc add Ash hp=6",
    "pc add Bryn hp=5",
    "pc add Cora hp=4",
    "light add torch count=6 carrier=Ash lit",
    "light add lantern carrier=Bryn",
    "light add candle count=3 carrier=Cora",
    "note The party stands at the top of the stairs. Press n to take the first turn.",
)


def create(
    name: str,
    procedure: Procedure,
    commands: Sequence[str] = (),
    *,
    start: str | None = None,
    seed: int | None = None,
) -> Path:
    """Create the expedition NAME with these commands applied; return its path.

    Raises ExpeditionExists when the name is taken, DelveError when a command is refused
    (nothing is left behind), StorageFailed when the disk refuses.
    """
    final = paths.new_expedition_path(name)
    taken = f"An expedition called '{name}' already exists; pick another name."
    if os.path.lexists(final):
        raise ExpeditionExists(taken)

    def build(temp: Path) -> None:
        with Expedition.create(temp, procedure, name=name, seed=seed, start=start) as expedition:
            for command in commands:
                expedition.execute(command)

    fileio.create_expedition(final, build, taken=taken)
    return final


def demo() -> Path:
    """The demo expedition: a ready party with lights on Delving (made on first use)."""
    path = paths.data_dir() / f"{DEMO_NAME}{paths.SUFFIX}"
    if os.path.exists(path):
        return path
    return create(DEMO_NAME, registry.find(DEMO_PROCEDURE), DEMO_COMMANDS, seed=DEMO_SEED)
