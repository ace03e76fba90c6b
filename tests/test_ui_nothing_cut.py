"""Nothing a game master plays by is cut: every shipped procedure's table at 80×24 and at
120×40, with four members, four lights (burning in real time where the procedure's do),
every track, resource and counter at a two-digit value and a timer, shows each number
whole: no ellipsis in a row of the party, the lights or the counters."""

from __future__ import annotations

import re

import pytest

from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import find
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.counters import Counters
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.pane import Pane
from delvetui.ui.panes.party_roster import PartyRoster
from tests.ui_support import SHIPPED, make, ready, screen_text, settle, sized

NAMES = ("Aldric", "Bryn", "Cora", "Dain")


def crowded(procedure: Procedure) -> tuple[str, ...]:
    """Four members (one with two-digit hit points), every track and own resource at two
    digits, every counter near its top, four lights of the procedure's kinds (the first
    three lit), a timer, and a session started."""
    commands = [
        f"pc add {name} hp={12 if index == 0 else 5 + index}" for index, name in enumerate(NAMES)
    ]
    kinds = list(procedure.lights)
    for index, name in enumerate(NAMES):
        kind = kinds[index % len(kinds)]
        for made, count in procedure.lights[kind].made_from.items():
            commands.append(f"light add {made} count={count}")
        commands.append(f"light add {kind} carrier={name}" + (" lit" if index < 3 else ""))
    for name in NAMES:
        for track_id in procedure.tracks:
            commands.append(f"pc {name} {track_id}=11")
        for resource_id, resource in procedure.resources.items():
            if resource.per == "member":
                commands.append(f"pc {name} +12 {resource_id}")
    for resource_id, resource in procedure.resources.items():
        if resource.per == "party":
            commands.append(f"party +12 {resource_id}")
    for counter_id, counter in procedure.counters.items():
        start = counter.value_of(counter.start) if isinstance(counter.start, str) else counter.start
        top = counter.top() or 12
        value = top - 1 if top - 1 != start else top
        commands.append(f"counter set {counter_id} {max(counter.min, value)}")
    commands += ["timer add 'hold portal' 6t", "session start"]
    return tuple(commands)


def rows(app: DelveApp, pane: Pane) -> list[str]:
    """The pane's lines as the screen shows them."""
    lines = screen_text(app).splitlines()
    region = pane.content_region
    return [lines[y][region.x : region.right] for y in range(region.y, region.bottom)]


@pytest.mark.long
@pytest.mark.parametrize("procedure", SHIPPED)
async def test_every_number_is_whole_at_80x24_and_120x40(procedure: str) -> None:
    shown = find(procedure)
    app = DelveApp(make(f"crowded-{procedure}", crowded(shown), procedure=procedure))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        for size in ((80, 24), (120, 40)):
            await sized(pilot, size)
            await settle(pilot)
            where = f"{procedure} at {size[0]}×{size[1]}"
            party = rows(app, table.query_one(PartyRoster))
            lights = rows(app, table.query_one(LightInventory))
            counters = rows(app, table.query_one(Counters)) if shown.counters else []
            for line in [*party, *lights, *counters]:
                assert "…" not in line, f"{where}: {line!r}"
            said = "\n".join(party)
            assert all(name in said for name in NAMES), where
            assert "12/12" in said, where  # two-digit hit points, whole
            if shown.tracks or any(r.per == "member" for r in shown.resources.values()):
                assert said.count("11") + said.count("12") >= 4, where
            lit = [light for light in table.state.lights if light.lit]
            for light in lit:  # every lit light has a row, with its number and its id
                row = next((line for line in lights if f" {light.id} " in line), None)
                assert row is not None, f"{where}: {light.id} not in {lights}"
                if light.real_seconds is not None:  # its real time left, whole
                    assert re.search(r"[⏱⏸] (1:00:00|[0-5]\d:[0-5]\d)$", row.rstrip()), row
            assert any("hold portal" in line for line in lights), where
            for counter_id in shown.counters:
                value = table.query_one(Counters)._numbers(counter_id)[0].strip()
                assert any(value in line for line in counters), f"{where}: {counter_id}"
