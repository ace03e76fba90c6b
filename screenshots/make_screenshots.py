"""Regenerate the pictures in screenshots/: the table for each procedure, start, the form,
the players' screen at 160x45 and 80x24, the campaign screen and the next expedition's form,
and a dungeon of rooms (the rooms pane at 80x24, the map).

Run from the repository root::

    python screenshots/make_screenshots.py [--size 120x40]

Every expedition is built the way a game master would, through the table's own creation
and the command language, with fixed seeds and typed-in hazard rolls where it matters, in
a scratch DELVETUI_HOME, so the pictures come out the same on every run. A procedure that
is not installed is skipped (and said so).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

HERE = Path(__file__).resolve().parent
HOME = Path(tempfile.gettempdir()) / "delvetui-screenshots"

#: Each procedure's expedition: name, seed and the play that brings it mid-expedition.
EXPEDITIONS: dict[str, tuple[str, int, Sequence[str]]] = {
    "delving": (
        "sunken-crypt",
        11,
        (
            "turn crawl hazard=4",
            "turn crawl hazard=5",
            "turn walk hazard=1",
            "pc Bryn hp=-2",
            "note Claw marks on the door: the sign was a ghoul.",
            "turn search hazard=6",
            "turn crawl hazard=3",
            "light on candle",
        ),
    ),
    "exploration": (
        "mines-of-ash",
        12,
        (
            "turn cautious",
            "turn cautious",
            "turn listen by=Cora",
            "turn search dc=12 by=Ash",
            "pc Bryn hp=-3",
            "turn rushing",
            "note Rubble blocks the west passage.",
            "turn cautious",
        ),
    ),
    "dungeon-turn": (
        "fungal-halls",
        13,
        (
            "turn explore",
            "turn explore",
            "turn search",
            "turn explore",
            "turn explore",
            "turn explore",
            "turn explore",
            "note A ring of pale mushrooms, humming.",
            "turn rest",
        ),
    ),
    "trespasser": (
        "the-tower",
        14,
        (
            "turn advance",
            "turn advance",
            "turn hide stealth=failure",
            "turn stay",
            "turn advance",
            "note Bells ring somewhere above.",
            "turn advance",
        ),
    ),
    "travel-turn": (
        "salt-road",
        15,
        (
            "turn cautious",
            "turn cautious",
            "turn careless",
            "turn cautious",
            "note The road forks at a dead tree.",
            "turn cautious",
        ),
    ),
}
#: Names, hit points and ability scores of the party in every picture.
PARTY = (("Ash", 8, 14), ("Bryn", 6, 12), ("Cora", 5, 10))
#: When each expedition was "last played" on the start screen (fixed, so pictures repeat).
PLAYED = dt.datetime(2026, 11, 20, 21, 30)


def party_commands(abilities: Sequence[str]) -> list[str]:
    """The party, with a score for every ability the procedure uses."""
    out = []
    for number, (name, hp, score) in enumerate(PARTY):
        scores = [
            f"{ability.lower()}={2 if ability.upper() == 'PROF' else score - number}"
            for ability in abilities
        ]
        out.append(" ".join(["pc", "add", name, f"hp={hp}", *scores]))
    return out


def light_commands(kinds: Sequence[str]) -> list[str]:
    """One stack of the first light kind (one of them lit) and one of each other kind."""
    out = []
    for number, kind in enumerate(kinds):
        carrier = PARTY[number % len(PARTY)][0]
        count = 4 if number == 0 else 1
        lit = " lit" if number == 0 else ""
        out.append(f"light add {kind} count={count} carrier={carrier}{lit}")
    return out


#: A real party at 80x24 (four characters, four lights), for the README's before and after.
#: The "before-" pictures beside them were made once by the release before, and are kept.
REAL_PARTIES: dict[str, Sequence[str]] = {
    "trespasser": (
        "pc add Ash hp=6 MIGHT=2 AGILITY=1 INTELLECT=0 SPIRIT=1 ENDURANCE=3",
        "pc add Bryn hp=5 MIGHT=0 AGILITY=3 INTELLECT=1 SPIRIT=0 ENDURANCE=2",
        "pc add Cora hp=4 MIGHT=1 AGILITY=0 INTELLECT=3 SPIRIT=2 ENDURANCE=1",
        "pc add Dag hp=7 MIGHT=3 AGILITY=1 INTELLECT=0 SPIRIT=0 ENDURANCE=3",
        "light add torch carrier=Ash",
        "light add lantern carrier=Bryn",
        "light add candle carrier=Cora",
        "light add torch carrier=Dag",
        "light on torch1",
        "turn advance",
        "turn advance",
        "counter set alarm 9",
    ),
    "travel-turn": (
        "pc add Ash hp=8 STR=12 DEX=11 CON=9 INT=10 WIS=10 CHA=10 PROF=2",
        "pc add Bryn hp=6 STR=9 DEX=14 CON=10 INT=12 WIS=11 CHA=9 PROF=2",
        "pc add Cora hp=4 STR=8 DEX=10 CON=8 INT=14 WIS=13 CHA=12 PROF=2",
        "pc add Dag hp=9 STR=15 DEX=9 CON=14 INT=8 WIS=9 CHA=8 PROF=2",
        "light add torch carrier=Ash",
        "light add lantern carrier=Bryn",
        "light add torch carrier=Cora",
        "light add torch carrier=Dag",
        "light on lantern1",
        "turn cautious",
        "turn cautious",
        "turn careless",
        "pc Cora +exhausted",
        "light on torch1",
    ),
}


def real_party(procedure_id: str) -> Path:
    """A four-character expedition of the procedure, played a few turns."""
    from delvetui.procedure import registry
    from delvetui.session import Expedition

    path = HOME / f"party-{procedure_id}.delve"
    with Expedition.create(path, registry.find(procedure_id), seed=7) as expedition:
        for command in REAL_PARTIES[procedure_id]:
            expedition.execute(command)
    return path


def build(procedure_id: str) -> Path | None:
    """Create and play one procedure's expedition; None when the procedure is missing."""
    from delvetui.application import creation
    from delvetui.errors import DelveError
    from delvetui.procedure import registry

    try:
        procedure = registry.find(procedure_id)
    except DelveError as error:
        print(f"skipped {procedure_id}: {error}", file=sys.stderr)
        return None
    name, seed, play = EXPEDITIONS[procedure_id]
    kinds = [kind for kind in procedure.lights if kind != "daylight"]
    setup = [*party_commands(procedure.party.abilities), *light_commands(kinds)]
    path = creation.create(name, procedure, setup, seed=seed)
    from delvetui.session import Expedition

    with Expedition.open(path) as expedition:
        for command in play:
            try:
                expedition.execute(command)
            except DelveError as error:
                print(f"{procedure_id}: '{command}' refused: {error}", file=sys.stderr)
    return path


async def shoot_app(out: Path, size: tuple[int, int], keys: Sequence[str]) -> None:
    """Start the app with no expedition, press keys, and save the screen."""
    from delvetui.ui.app import DelveApp

    app = DelveApp(None)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.5)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.2)
        await pilot.pause()
        out.write_text(app.export_screenshot(title="delvetui"), encoding="utf-8")
    app.close_expedition()


async def shoot_key(
    path: Path, out: Path, size: tuple[int, int], key: str, shown: Callable[[App[Any]], bool]
) -> None:
    """The table on an expedition with the dialog a key opens (once ``shown`` says so)."""
    from delvetui.ui.app import DelveApp

    app = DelveApp(path)
    async with app.run_test(size=size) as pilot:
        while app.table is None or not app.table.loaded:
            await pilot.pause(0.1)
        await pilot.press(key)
        while not shown(app):
            await pilot.pause(0.1)
        await pilot.pause()
        out.write_text(app.export_screenshot(title="delvetui"), encoding="utf-8")
    app.close_expedition()


def odds_shown(app: App[Any]) -> bool:
    """The odds (the o key) are open and counted."""
    from delvetui.ui.dialogs.odds_dialog import OddsDialog

    return isinstance(app.screen, OddsDialog) and app.screen.odds is not None


def map_shown(app: App[Any]) -> bool:
    """The map of the rooms (the M key) is open."""
    from delvetui.ui.dialogs.map_screen import MapScreen

    return isinstance(app.screen, MapScreen)


#: A campaign of two parties on one calendar: barrow (Bryn dies), barrow-2 a week later
#: (Dag joins, torches bought), and the fens, where Cora travels with another party while
#: barrow-2 is under way (the campaign view points the overlap out).
CAMPAIGN: Sequence[tuple[str, str, str, Sequence[str]]] = (
    (
        "barrow",
        "",
        "",
        (
            "session start",
            "turn crawl hazard=4",
            "turn crawl hazard=5",
            "pc Bryn hp=0",
            "turn walk hazard=2",
            "session end",
            "end the party is back in town",
        ),
    ),
    (
        "barrow-2",
        "barrow",
        "7d",
        (
            "pc add Dag hp=7",
            "light add torch count=3 carrier=Dag",
            "light on torch1",
            "session start",
            "turn crawl hazard=6",
            "turn search hazard=3",
            "session end",
            "end",
        ),
    ),
)
#: The other party's expedition: on day 8 too, in the same campaign.
FENS = (
    "pc add Ewan hp=6",
    "pc add Cora hp=5",
    "light add torch carrier=Ewan",
    "session start",
    "turn cautious",
    "turn cautious",
    "session end",
)


def build_campaign() -> None:
    """The campaign's expeditions, each started after the one before as the form would."""
    from delvetui.application import campaign
    from delvetui.core import commands
    from delvetui.procedure import registry
    from delvetui.session import Expedition

    procedure = registry.find("delving")
    setup = [*party_commands(procedure.party.abilities), "light add torch count=4 carrier=Ash"]
    for number, (name, after, downtime, play) in enumerate(CAMPAIGN):
        if after:
            plan = campaign.next_plan(
                HOME / "campaign" / f"{after}.delve", name, downtime=downtime, seed=20 + number
            )
            path = campaign.create_next(plan)
        else:
            made = [commands.parse(line) for line in [*setup, "light on torch"]]
            path = campaign.first_in_campaign(
                name, procedure, campaign="west-marches", seed=20, commands=made
            )
        with Expedition.open(path) as expedition:
            for command in play:
                expedition.execute(command)
    fens = campaign.first_in_campaign(
        "the-fens", registry.find("travel-turn"), campaign="west-marches", day=8, seed=21
    )
    with Expedition.open(fens) as expedition:
        for command in FENS:
            expedition.execute(command)


async def shoot_campaigns(out: Path, size: tuple[int, int], *, form: bool = False) -> None:
    """The campaign screen (the start screen's c), or the next expedition's form after the
    last ended expedition of a chain (the start screen's "Next expedition after…")."""
    from textual.widgets import OptionList

    from delvetui.ui.app import DelveApp
    from delvetui.ui.campaign.screen import CampaignScreen
    from delvetui.ui.forms.next_expedition import NextExpeditionScreen
    from delvetui.ui.start_screen import NEXT, StartScreen

    app = DelveApp(None)
    async with app.run_test(size=size) as pilot:
        while not isinstance(app.screen, StartScreen) or not app.screen.continuable:
            await pilot.pause(0.1)
        if form:
            options = app.screen.query_one("#start-list")
            await pilot.press("down")
            assert isinstance(options, OptionList)
            assert str(options.highlighted_option and options.highlighted_option.id).startswith(
                NEXT
            )
            await pilot.press("enter")
            while not isinstance(app.screen, NextExpeditionScreen):
                await pilot.pause(0.1)
        else:
            await pilot.press("c")
            while not isinstance(app.screen, CampaignScreen) or app.screen.campaigns is None:
                await pilot.pause(0.1)
        await pilot.pause()
        out.write_text(app.export_screenshot(title="delvetui"), encoding="utf-8")
    app.close_expedition()


#: A party of Old-School Essentials in the Crypt of the Ash-King (docs/examples/): down the
#: chapel to the ossuary's stair foot, clearing and marking as it goes.
DUNGEON = HERE.parent / "docs" / "examples" / "ash-king-dungeon.toml"
DUNGEON_PLAY: Sequence[str] = (
    "go 1",
    "turn",
    "go 2",
    "room 2 +cleared",
    "turn",
    "go 3",
    "turn",
    "room 3 +cleared",
    "go 4",
    "room 4 +looted",
    "room 4 note the silver censer is taken",
    "turn",
    "go 8",
    "do force by=Ash force=1",
    "turn",
    "go 9",
    "go 12",
    "room 12 +cleared",
    "go 9",
    "turn",
    "light on torch",
    "go 13",
    "reveal room",
)


def build_dungeon() -> Path:
    """The dungeon's expedition: a party of four, the example's rooms, played a while."""
    from delvetui.application import creation
    from delvetui.procedure import registry
    from delvetui.session import Expedition

    procedure = registry.find("ose")
    setup = [
        *party_commands(procedure.party.abilities),
        f"tables add {DUNGEON}",
        "light add torch count=4 carrier=Ash lit",
        "light add lantern carrier=Bryn",
    ]
    path = creation.create("ash-king", procedure, setup, seed=41)
    with Expedition.open(path) as expedition:
        for command in DUNGEON_PLAY:
            expedition.execute(command)
    return path


def stable(svg: Path) -> None:
    """Name the SVG's styles after the file, not after per-run widget ids (no churn in git)."""
    text = re.sub(r"terminal-[0-9]+", f"delvetui-{svg.stem}", svg.read_text(encoding="utf-8"))
    svg.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Build every expedition and write the pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="120x40", help="COLSxROWS of the table pictures")
    args = parser.parse_args(argv)
    cols, rows = (int(part) for part in args.size.lower().split("x"))
    shutil.rmtree(HOME, ignore_errors=True)
    HOME.mkdir(parents=True)
    os.environ["DELVETUI_HOME"] = str(HOME)
    # The start screen shows the data folder from '~': with the scratch folder under HOME,
    # no picture shows a path of the machine that made it.
    os.environ["HOME"] = str(HOME.parent)

    from delvetui.ui.app import screenshot
    from delvetui.ui.players.app import screenshot as players_screenshot

    written: list[Path] = []
    for number, procedure_id in enumerate(EXPEDITIONS):
        path = build(procedure_id)
        if path is None:
            continue
        out = HERE / f"table-{procedure_id}.svg"
        screenshot(path, out, (cols, rows))
        stamp = (PLAYED - dt.timedelta(days=number)).timestamp()
        os.utime(path, (stamp, stamp))
        written.append(out)
    delving = HOME / f"{EXPEDITIONS['delving'][0]}.delve"
    if delving.exists():
        odds = HERE / "odds.svg"
        asyncio.run(shoot_key(delving, odds, (cols, rows), "o", odds_shown))
        from delvetui.session import Expedition

        with Expedition.open(delving) as expedition:
            expedition.execute('turn crawl hazard=5 "sign=fresh claw marks"')
            expedition.execute("reveal sign")
        written.append(odds)
        for cols_rows in ((160, 45), (80, 24)):
            players = HERE / f"players-{cols_rows[0]}x{cols_rows[1]}.svg"
            players_screenshot(delving, players, cols_rows)
            written.append(players)
    for procedure_id in REAL_PARTIES:
        party = HERE / f"table-{procedure_id}-party-80x24.svg"
        screenshot(real_party(procedure_id), party, (80, 24))
        written.append(party)
    start = HERE / "start.svg"
    asyncio.run(shoot_app(start, (100, 30), []))
    form = HERE / "new-expedition.svg"
    asyncio.run(shoot_app(form, (100, 40), ["n", *"crypt-of-the-ash-king", "tab"]))
    written += [start, form]
    # The dungeon in a folder of its own: the start screen above does not list it.
    os.environ["DELVETUI_HOME"] = str(HOME / "dungeon")
    dungeon = build_dungeon()
    for name, size in (("rooms-80x24", (80, 24)), ("rooms", (cols, rows))):
        out = HERE / f"table-{name}.svg"
        screenshot(dungeon, out, size)
        written.append(out)
    room_map = HERE / "map.svg"
    asyncio.run(shoot_key(dungeon, room_map, (100, 40), "M", map_shown))
    written.append(room_map)
    # The campaign in a folder of its own: the view shows its expeditions only.
    os.environ["DELVETUI_HOME"] = str(HOME / "campaign")
    build_campaign()
    for name, size in (("campaign", (120, 40)), ("campaign-80x24", (80, 24))):
        out = HERE / f"{name}.svg"
        asyncio.run(shoot_campaigns(out, size))
        written.append(out)
    next_form = HERE / "next-expedition.svg"
    asyncio.run(shoot_campaigns(next_form, (100, 48), form=True))
    written.append(next_form)
    for out in written:
        stable(out)
        print(out.relative_to(HERE.parent))
    shutil.rmtree(HOME, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
