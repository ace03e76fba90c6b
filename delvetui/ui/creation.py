"""Creating an expedition from the table: all of it, or nothing.

The new-expedition form and the demo give a name, a procedure, a start and a list of
commands (party, lights). The expedition is built in a scratch folder beside the saved ones
and moved into place only when every command has gone through, so a failure halfway leaves
no half-made expedition behind.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from delvetui import paths
from delvetui.errors import ExpeditionExists, StorageFailed
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
    if final.exists():
        raise ExpeditionExists(f"An expedition called '{name}' already exists; pick another name.")
    final.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".new-", dir=final.parent))
    try:
        temp = scratch / final.name
        with Expedition.create(temp, procedure, name=name, seed=seed, start=start) as expedition:
            for command in commands:
                expedition.execute(command)
        try:
            os.link(temp, final)
        except FileExistsError:
            raise ExpeditionExists(
                f"An expedition called '{name}' already exists; pick another name."
            ) from None
        except OSError as error:
            raise StorageFailed(
                f"{final} could not be created ({error.strerror or error}); nothing was saved."
            ) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return final


def demo() -> Path:
    """The demo expedition: a ready party with lights on Delving (made on first use)."""
    path = paths.data_dir() / f"{DEMO_NAME}{paths.SUFFIX}"
    if path.exists():
        return path
    return create(DEMO_NAME, registry.find(DEMO_PROCEDURE), DEMO_COMMANDS, seed=DEMO_SEED)
