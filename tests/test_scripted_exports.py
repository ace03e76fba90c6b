"""A scripted 200-command expedition of each shipped procedure, kept byte for byte.

Each script is the forty-turn session of ``test_procedure_sessions`` followed by turns the
program rolls itself (from the expedition's seed), undo and redo, notes, party and light
changes and a few commands that are refused. The transcript (what each command said, or
the sentence it was refused with), ``status --json`` and every export format are kept
under ``tests/fixtures/scripted/``. A change to the code's structure must leave every one
of them byte-identical; a deliberate change of behaviour writes them again with
``DELVETUI_WRITE_FIXTURES=1 pytest tests/test_scripted_exports.py`` and shows the
difference in its commit.
"""

from __future__ import annotations

import json
import os
from itertools import cycle, islice
from pathlib import Path

import pytest

from delvetui.cli import status_data
from delvetui.core.log import batch_lines
from delvetui.errors import DelveError
from delvetui.export import export
from delvetui.procedure.registry import find
from delvetui.session import Expedition

from .test_procedure_sessions import NOW as NOW
from .test_procedure_sessions import SCRIPTS as SCRIPTS

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "scripted"
LENGTH = 200
#: The file's id, fixed so the JSON export is the same every run (a new file's is random).
EXPEDITION_ID = "0123456789abcdef" * 2

#: After the forty-turn session, each procedure goes on with these commands in turn until
#: the script is 200 commands long. Turns without dice are rolled from the seed.
MORE: dict[str, list[str]] = {
    "delving": [
        "session start",
        "light on torch",
        "turn crawl",
        "turn search",
        "undo",
        "redo",
        "turn crawl",
        "note A draught from the north.",
        "turn walk",
        "turn rest",
        "pc Ash hp=-2",
        "pc Ash hp=+3",
        "turn crawl",
        "light add torch count=1 carrier=Bryn",
        "turn run",
        "undo",
        "turn dance",
        "turn crawl",
        "session end",
    ],
    "dungeon-turn": [
        "session start",
        "light on torch",
        "turn explore",
        "turn search",
        "undo",
        "redo",
        "turn rest",
        "note Scratches on the door.",
        "pc Bo hp=-3",
        "pc Bo hp=+3",
        "turn explore",
        "turn harvest hd=1 by=Bo",
        "light add torch count=1 carrier=Bo",
        "turn explore",
        "undo",
        "turn fly",
        "turn explore",
        "session end",
    ],
    "exploration": [
        "session start",
        "light on torch",
        "turn cautious",
        "turn rushing",
        "undo",
        "redo",
        "turn search dc=12 by=Bo",
        "note The floor slopes down.",
        "turn rest",
        "pc Bo hp=-2",
        "pc Bo hp=+3",
        "turn listen by=Ash",
        "light add torch count=1 carrier=Bo",
        "turn cautious",
        "undo",
        "turn swim",
        "turn cautious",
        "session end",
    ],
    "trespasser": [
        "session start",
        "light on torch",
        "turn advance",
        "turn stay",
        "do search by=Ash what=room",
        "undo",
        "redo",
        "turn backtrack",
        "note Footsteps above.",
        "turn hide stealth=failure",
        "pc Bryn hp=-1",
        "pc Bryn hp=+3",
        "turn advance",
        "light add torch count=1 carrier=Bryn",
        "undo",
        "turn sing",
        "turn advance",
        "session end",
    ],
    "basic-fantasy": [
        "session start",
        "turn travel",
        "turn camp",
        "undo",
        "redo",
        "note Smoke on the ridge.",
        "pc Ari hp=-1",
        "pc Ari hp=+3",
        "enter dungeon",
        "light on torch",
        "turn explore",
        "turn search",
        "do listen by=Ari",
        "light add torch count=1 carrier=Morningstar",
        "undo",
        "turn fly",
        "turn explore",
        "light off torch",
        "enter wilderness",
        "turn forced-march",
        "session end",
    ],
    "ose": [
        "session start",
        "enter dungeon",
        "light on torch",
        "turn explore",
        "turn search",
        "undo",
        "redo",
        "note Water drips in the dark.",
        "do listen by=Ash",
        "do force by=Bo",
        "pc Bo hp=-1",
        "pc Bo hp=+2",
        "turn rest",
        "turn fly",
        "light off torch",
        "enter wilderness",
        "turn travel",
        "turn hunt",
        "undo",
        "turn rest-day",
        "session end",
    ],
    "shadowdark": [
        "session start",
        "enter crawl",
        "light on torch",
        "turn crawl",
        "turn crawl",
        "undo",
        "redo",
        "note Cold air from a crack in the wall.",
        "do sneak by=Ash dc=12",
        "do spot by=Cole dc=12",
        "pc Bo hp=-1",
        "pc Bo hp=+2",
        "turn pass-time minutes=20",
        "turn fly",
        "light off torch",
        "enter camp",
        "turn rest",
        "turn crawl",
        "enter crawl",
        "counter set danger risky",
        "session end",
    ],
    "errant": [
        "session start",
        "enter exploration",
        "light on torch",
        "turn explore",
        "turn act",
        "undo",
        "redo",
        "note Bones under the flagstones.",
        "turn explore-slowly",
        "do surprise",
        "do react",
        "do tire by=Cob",
        "pc Cob hp=-2",
        "pc Cob hp=+2",
        "turn rest",
        "turn fly",
        "turn peregrinate",
        "enter travel",
        "turn peregrinate",
        "turn forage",
        "do foraged by=Bryn",
        "do weather",
        "turn camp",
        "turn camp watch=one by=Ash",
        "turn peregrinate-quickly nav=failure",
        "pc Ash +1 rations",
        "session end",
    ],
    "mausritter": [
        "session start",
        "light on torch",
        "turn explore",
        "turn act",
        "undo",
        "redo",
        "note Flour dust hangs in the air.",
        "do noise",
        "do reaction",
        "pc Cob hp=-1",
        "pc Cob hp=+2",
        "turn short-rest",
        "turn fly",
        "light off torch",
        "enter wilds",
        "turn travel",
        "turn forage by=Cob",
        "do eat by=Bryn",
        "turn long-rest",
        "turn explore",
        "enter site",
        "session end",
    ],
    "travel-turn": [
        "session start",
        "light on torch",
        "turn cautious",
        "turn careless",
        "undo",
        "redo",
        "turn rest",
        "note Rain since dawn.",
        "pc Bo hp=-1",
        "pc Bo hp=+3",
        "turn cautious",
        "light add torch count=2 carrier=Bo",
        "turn cautious",
        "undo",
        "turn fly",
        "turn cautious",
        "session end",
    ],
    "cairn": [
        "session start",
        "turn travel path=trail",
        "turn camp",
        "undo",
        "redo",
        "enter dungeon",
        "light on torch",
        "turn move",
        "turn linger",
        "note Water drips from the vault.",
        "pc Ash hp=-1",
        "pc Ash hp=+3",
        "turn rest",
        "turn travel",
        "enter wilderness",
        "turn fly",
        "turn camp",
        "session end",
    ],
    "cairn-modular": [
        "session start",
        "turn road",
        "turn camp",
        "turn camp",
        "undo",
        "redo",
        "enter dungeon",
        "light on torch",
        "turn careful",
        "do noise",
        "turn search",
        "note Bones under the stair.",
        "pc Ash hp=-1",
        "pc Ash hp=+3",
        "turn travel",
        "enter wilderness",
        "turn fly",
        "turn forage by=Bryn",
        "session end",
    ],
}


#: What a procedure with no commands of its own above goes on with: turns the program rolls,
#: undo and redo, a note and a refused command, which any procedure takes.
ANY = [
    "session start",
    "turn",
    "turn",
    "undo",
    "redo",
    "note A draught from the north.",
    "turn",
    "turn dance",
    "turn",
    "session end",
]


def script(procedure_id: str) -> list[str]:
    opening = SCRIPTS[procedure_id]
    more = MORE.get(procedure_id, ANY)
    return [*opening, *islice(cycle(more), LENGTH - len(opening))]


def played(home: Path, procedure_id: str) -> tuple[Expedition, str]:
    """The 200 commands on a real file, and what each said (or why it was refused)."""
    made = Expedition.create(
        home / f"{procedure_id}.delve",
        find(procedure_id),
        seed=200,
        now=NOW,
        name=procedure_id,
        expedition_id=EXPEDITION_ID,
    )
    told: list[str] = []
    for number, command in enumerate(script(procedure_id), 1):
        told.append(f"{number:03} > {command}")
        before = made.state
        try:
            batch = made.execute(command, now=NOW)
        except DelveError as refused:
            told.append(f"    refused: {refused}")
            continue
        told.extend(
            f"    {line.kind}: {line.text}" for line in batch_lines(batch, made.procedure, before)
        )
    return made, "\n".join(told) + "\n"


FORMATS = ("txt", "md", "html", "json", "svg")


@pytest.mark.parametrize("procedure_id", sorted(SCRIPTS))
def test_two_hundred_commands_tell_the_same_story(home: Path, procedure_id: str) -> None:
    made, transcript = played(home, procedure_id)
    with made:
        assert len(script(procedure_id)) == LENGTH
        kept = {
            "transcript.txt": transcript,
            "status.json": json.dumps(status_data(made), indent=2, sort_keys=True) + "\n",
            **{f"export.{fmt}": export(made, fmt, now=NOW) for fmt in FORMATS},
        }
    folder = FIXTURES / procedure_id
    if os.environ.get("DELVETUI_WRITE_FIXTURES"):
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in kept.items():
            (folder / name).write_text(text, encoding="utf-8")
    for name, text in kept.items():
        assert text == (folder / name).read_text(encoding="utf-8"), (
            f"{procedure_id}/{name} no longer matches; see this module's docstring."
        )
