"""A layout that fits: at 80×24 and 120×40 the next action and the hazard table are in view
in every shipped procedure; time dice only where the game has them (in the header where the
table is short); the lights in the order added; the width used at 200 columns; a one-row
footer where the keys fit in one."""

from __future__ import annotations

import re

import pytest
from textual.widget import Widget

from delvetui.procedure.registry import find
from delvetui.ui.app import DelveApp
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.panes.action_pane import ActionPane
from delvetui.ui.panes.counters import Counters
from delvetui.ui.panes.hazard_table import HazardTable
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.party_roster import PartyRoster
from delvetui.ui.panes.side_column import share
from delvetui.ui.panes.time_dice import TimeDice
from delvetui.ui.panes.turn_log import TurnLog
from delvetui.ui.start_screen import StartScreen
from delvetui.ui.table.panes import has_time_dice
from tests.ui_support import (
    ANY_PROCEDURE_PARTY,
    SHIPPED,
    expedition,
    make,
    ready,
    screen_text,
    settle,
    settled,
    sized,
)


def in_view(widget: Widget, screen_height: int) -> bool:
    """The whole widget is on screen, not scrolled away or under the footer."""
    region = widget.region
    footer = widget.screen.query_one(KeyFooter).region
    return region.height > 0 and region.y >= 0 and region.bottom <= min(footer.y, screen_height)


#: Cairn rolls the day's weather on the first watch, and foul weather asks the party's
#: choice of its toll on the first Travel: the day is typed fair here.
FIRST_TURN = {"cairn": "turn weather-spring=2 hazard=6"}


@pytest.mark.parametrize("procedure", SHIPPED)
async def test_the_action_and_the_hazard_table_are_in_view(procedure: str) -> None:
    """At 80×24 and at 120×40, and again when the game master resizes the terminal."""
    played = list(ANY_PROCEDURE_PARTY)
    played[played.index("turn")] = FIRST_TURN.get(procedure, "turn")
    app = DelveApp(make(f"fit-{procedure}", played, procedure=procedure))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        for size in ((80, 24), (120, 40), (80, 24)):
            await sized(pilot, size)
            await settle(pilot)
            where = f"{procedure} at {size[0]}x{size[1]}"
            action = table.query_one(ActionPane)
            hazard = table.query_one(HazardTable)
            assert in_view(action, size[1]), where
            assert in_view(hazard, size[1]), where
            assert "Next:" in screen_text(app), where
            # Every line of the roster is a row of its own (a member's details go on
            # indented lines as the width needs, never wrapped back to the pane's edge).
            roster = table.query_one(PartyRoster)
            assert roster.size.height == len(roster._rows), where
            shown = table.query_one(LightInventory)
            assert shown.size.height == len(shown._rows), where
            time = table.query_one(TimeDice)
            header = screen_text(app).splitlines()[0]
            within = time.clock_parts()[2]
            if has_time_dice(expedition(app).procedure) and size[1] >= 32:
                assert time.display, where
                assert time.compact, where
                assert time.region.height <= 3, where
            else:
                # Too short for the time pane: the header says the part of the day and
                # the turn within the hour after the clock.
                assert not time.display, where
                assert time.region.height == 0, where
                if has_time_dice(expedition(app).procedure) and within:
                    assert within in header, where
        lights = table.query_one(LightInventory)
        state = table.state
        ids = [row for row in lights._rows if row is not None]
        # The lights in the order they were added, lit or not: the unlit lantern before
        # the lit torch (where both have a row).
        added = [light.id for light in state.lights if not light.spent and light.id in ids]
        assert ids == added


async def test_the_panes_use_the_width_and_the_footer_takes_the_rows_it_needs() -> None:
    """At 200 columns the side panes widen; the footer takes one row, two or three, as the
    keys need at each width, with every key inside it (the terminal resized between)."""
    app = DelveApp(make("wide", ANY_PROCEDURE_PARTY))
    async with app.run_test(size=(200, 50)) as pilot:
        table = await ready(pilot)
        await pilot.pause()
        side = table.query_one("#side")
        log = table.query_one(TurnLog)
        assert side.region.width >= 80
        assert log.region.width + side.region.width >= 198
        assert not table.query_one(HazardTable).compact
        footer = table.query_one(KeyFooter)
        for size, rows in (((200, 50), 1), ((120, 40), 2), ((80, 24), 3), ((200, 50), 1)):
            await sized(pilot, size)
            await pilot.pause()
            assert footer.region.height == rows, size
            # Every key fits in the width: none is cut at the right edge.
            for key in footer.children:
                assert key.region.right <= size[0], (size, key)


async def test_the_start_screen_lines_up_its_list() -> None:
    """At 80, 120 and 200 columns (the terminal resized between)."""
    make("a", ("pc add Ash hp=6",))
    make("a-much-longer-name", ("pc add Ash hp=6",), procedure="exploration")
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        for size in ((80, 24), (120, 40), (200, 50)):
            await sized(pilot, size)
            await settled(pilot, lambda: screen_text(app).count("turn 0 ·") == 2)
            rows = [line for line in screen_text(app).splitlines() if "turn 0 ·" in line]
            # Each saved expedition on one line, its procedure in the same column.
            starts = {row.index(" Delving ·" if "Delving" in row else " Dungeon") for row in rows}
            assert len(starts) == 1, size
            assert all(re.search(r"\d\d:\d\d\s+\d\d-\d\d \d\d:\d\d", row) for row in rows), size
            # The list's box: its top and bottom edges start and end in the same columns.
            lines = screen_text(app).splitlines()
            tops = [line for line in lines if "╭" in line and "╮" in line]
            bottoms = [line for line in lines if "╰" in line and "╯" in line]
            assert tops and bottoms, size
            assert tops[0].index("╭") == bottoms[-1].index("╰"), size
            assert tops[0].index("╮") == bottoms[-1].index("╯"), size


def real_party(procedure: str) -> tuple[str, ...]:
    """Four characters and four lights, one of each kind the procedure has (then again
    from the first), the first lit, and two turns."""
    kinds = find(procedure).lights
    lights = [list(kinds)[index % len(kinds)] for index in range(4)]
    names = ("Ash", "Bryn", "Cora", "Dag")
    return (
        *(f"pc add {name} hp={6 + index}" for index, name in enumerate(names)),
        *(
            # A light made of others (a campfire of torches) takes them from the party.
            f"light add {made} count={count}"
            for kind in lights
            for made, count in kinds[kind].made_from.items()
        ),
        *(
            f"light add {kind} carrier={names[index]}" + (" lit" if index == 0 else "")
            for index, kind in enumerate(lights)
        ),
        "turn",
        "turn",
    )


@pytest.mark.long
@pytest.mark.parametrize("procedure", SHIPPED)
async def test_a_real_party_keeps_every_pane_on_screen(procedure: str) -> None:
    """The table with a real party: four characters, four lights and the procedure's
    counters. At 80×24, 100×30 and 120×40 every pane the procedure needs (the party, the
    lights, its counters, the time where it has time dice or watches, its hazard table,
    the next action) is on screen with at least one line of its own; every member has a
    line; each light not spent has a row, or is counted in the line under them ("+2 more,
    unlit")."""
    app = DelveApp(make(f"real-{procedure}", real_party(procedure), procedure=procedure))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        shown = expedition(app).procedure
        needed: list[Widget] = [
            table.query_one(PartyRoster),
            table.query_one(LightInventory),
            table.query_one(HazardTable),
            table.query_one(ActionPane),
        ]
        if shown.counters:
            needed.append(table.query_one(Counters))
        for size in ((80, 24), (100, 30), (120, 40)):
            await sized(pilot, size)
            await settle(pilot)
            # The time pane where it has time dice or watches and the table is tall
            # enough; shorter, the header says the time instead.
            time = [table.query_one(TimeDice)] if has_time_dice(shown) and size[1] >= 32 else []
            for pane in [*needed, *time]:
                where = f"{procedure} at {size[0]}x{size[1]}: {pane.id}"
                assert pane.display, where
                assert in_view(pane, size[1]), where
                assert pane.content_region.height >= 1, where
                assert pane.content_region.bottom <= pane.region.bottom, where
            roster = table.query_one(PartyRoster)
            members = [row for row in roster._rows if row is not None]
            assert set(members) == {"Ash", "Bryn", "Cora", "Dag"}, size
            assert roster.content_region.height == len(roster._rows), size
            lights = table.query_one(LightInventory)
            assert lights.content_region.height == len(lights._rows), size
            rows = [row for row in lights._rows if row is not None]
            text = lights._drawn(lights.content_size.width, lights.budget)[0].plain
            # "+2 more, unlit: …" under the lights shown, or "3 lights, unlit: …" alone.
            more = re.search(r"^(?:\+(\d+) more|(\d+) lights),", text, re.MULTILINE)
            usable = [light for light in table.state.lights if not light.spent]
            counted = int(more.group(1) or more.group(2)) if more else 0
            assert len(rows) + counted == len(usable), (size, text)
            assert "Next:" in screen_text(app), size


def test_the_column_gives_each_pane_a_line_then_what_matters_then_the_rest() -> None:
    """The side column's share: a line each; then the lines that say what matters (the
    action and the counters before the party and the lights); then the rest, the party
    and the lights first. Short of room, no pane is left without a line."""
    wants = {"roster": (4, 8), "lights": (2, 5), "counters": (1, 1), "action": (1, 2)}
    assert share(6, wants) == {"roster": 3, "lights": 1, "counters": 1, "action": 1}
    assert share(8, wants) == {"roster": 4, "lights": 2, "counters": 1, "action": 1}
    assert share(12, wants) == {"roster": 8, "lights": 2, "counters": 1, "action": 1}
    assert share(16, wants) == {"roster": 8, "lights": 5, "counters": 1, "action": 2}
    assert share(2, wants) == {"roster": 1, "lights": 1, "counters": 1, "action": 1}
