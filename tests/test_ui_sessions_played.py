"""A session of every shipped procedure played from the keys at 80×24 with four members:
fourteen turns, lights lit, swapped and handed over by their numbers, a death, a rest, an
encounter and its roll fixed; at each step the test reads what the game master reads on the screen.

One app per procedure, no sleeps: each key waits only for the app to settle.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList

from delvetui.core.light_order import numbered
from delvetui.core.next_turn import hazard_rule
from delvetui.core.state import Light, Member
from delvetui.dice import parse as parse_dice
from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import find
from delvetui.procedure.tree import row_range
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.dialogs.roll_prompt import RollPrompt
from delvetui.ui.panes.counters import Counters
from delvetui.ui.panes.light_inventory import LightInventory
from delvetui.ui.panes.party_roster import PartyRoster
from delvetui.ui.table.command_line import CommandLine
from delvetui.ui.table.screen import TableScreen
from tests.ui_support import SHIPPED, make, ready, screen_text, settle

NAMES = ("Ash", "Bryn", "Cora", "Dain")
#: The turns each session plays (a rest that takes none adds one).
TURNS = 14
#: How a party rests where the kind of turn the session plays in has no rest action (the
#: command line is one of the table's keys): Shadowdark camps, Trespasser's rest is a
#: character's Moment's Rest.
REST: dict[str, tuple[str, ...]] = {
    "shadowdark": (":enter camp", "r", ":enter crawl"),
    "trespasser": (":do moments-rest by=Ash ate=yes",),
}


def party(procedure: Procedure) -> tuple[str, ...]:
    """Four members, and four lights of the procedure's kinds, the first two lit."""
    kinds = list(procedure.lights)
    commands = [f"pc add {name} hp={6 + index}" for index, name in enumerate(NAMES)]
    for index, name in enumerate(NAMES):
        kind = kinds[index % len(kinds)]
        for made, count in procedure.lights[kind].made_from.items():
            commands.append(f"light add {made} count={count}")
        commands.append(f"light add {kind} carrier={name}" + (" lit" if index < 2 else ""))
    return tuple(commands)


def rolls(procedure: Procedure, turn_type: str) -> tuple[int, int]:
    """The hazard roll that brings an encounter in this kind of turn, and one that brings
    nothing (a roll against a number hits on 1 and misses on the die's top)."""
    found = hazard_rule(procedure, turn_type)
    assert found is not None
    rule = found[1]
    table = procedure.tables.get(rule.table_for(turn_type) if rule.tables else rule.table)
    if table is None:
        return 1, parse_dice(rule.dice).maximum
    encounter = nothing = None
    for row in table.rows:
        kinds = {effect.do for effect in row.effects}
        low, high = row_range(row)
        if "encounter" in kinds and encounter is None:
            encounter = low
        if not kinds & {"encounter", "sign"}:
            nothing = high
    assert encounter is not None and nothing is not None
    return encounter, nothing


class Player:
    """Presses keys as a game master does and reads the screen back."""

    def __init__(self, pilot: object, app: DelveApp) -> None:
        from textual.pilot import Pilot

        assert isinstance(pilot, Pilot)
        self.pilot = pilot
        self.app = app
        self._seen: list[str] | None = None

    def screen(self) -> list[str]:
        """The screen's lines, read once after the last key (a picture costs a little)."""
        if self._seen is None:
            self._seen = screen_text(self.app).splitlines()
        return self._seen

    @property
    def table(self) -> TableScreen:
        found = self.app.table
        assert found is not None
        return found

    async def keys(self, *keys: str) -> None:
        """Press the keys, and answer what the table asks on the way with its default
        (a choice, a die the procedure wants typed): Enter, as a game master in a hurry."""
        self._seen = None
        for key in keys:
            await self.pilot.press(key)
            await settle(self.pilot, idle=False)
        for _ in range(8):
            if not isinstance(self.app.screen, ChooseScreen | RollPrompt):
                return
            screen = self.app.screen
            if isinstance(screen, RollPrompt) and not screen.query_one(Input).value:
                await self.pilot.press("3")  # a die the procedure wants typed: a 3
            await self.pilot.press("enter")
            await settle(self.pilot, idle=False)

    async def command(self, line: str) -> bool:
        """Type a line on the command line (``:``); True when it ran."""
        await self.keys(":")
        # The line is given whole: typing it key by key is the command line's own tests'
        # (completion, history); here each key's wait for idle made most of the session.
        self.table.query_one(CommandLine).query_one(Input).value = line
        await settle(self.pilot, idle=False)
        await self.keys("enter")
        line_widget = self.table.query_one(CommandLine)
        if line_widget.has_class("-open"):
            await self.keys("escape")
            return False
        return True

    async def open_lights(self) -> None:
        await self.keys("l")
        assert isinstance(self.app.screen, LightDialog)

    def header(self) -> str:
        return self.screen()[0]

    def strip(self) -> str:
        return self.screen()[1]

    def rows(self, pane: type[PartyRoster | LightInventory | Counters]) -> list[str]:
        """A pane's lines as the screen shows them."""
        widget = self.table.query_one(pane)
        lines = self.screen()
        region = widget.content_region
        return [lines[y][region.x : region.right] for y in range(region.y, region.bottom)]

    def member_rows(self, name: str) -> str:
        """The party pane's lines from the member's name to the next member's."""
        lines = self.rows(PartyRoster)
        start = next(index for index, line in enumerate(lines) if line.split()[:1] == [name])
        rest = [line for line in lines[start + 1 :] if not line.startswith(" ")]
        end = lines.index(rest[0], start + 1) if rest else len(lines)
        return " ".join(lines[start:end])

    def light_rows(self) -> list[list[str]]:
        """The lights pane's rows that stand for a light, split in words."""
        widget = self.table.query_one(LightInventory)
        return [
            line.split()
            for line, row in zip(self.rows(LightInventory), widget._rows, strict=False)
            if row is not None
        ]

    def number_of(self, light_id: str) -> int:
        """The light's number as the pane shows it now (what the game master presses)."""
        row = next(row for row in self.light_rows() if row[2] == light_id)
        return int(row[0])

    def first(self, *, lit: bool, but: str = "") -> str:
        """The id of the first light shown lit (or unlit) in the pane (``but`` that one)."""
        marks = "●◐" if lit else "○"
        return next(row[2] for row in self.light_rows() if row[1] in marks and row[2] != but)

    def lights_in_order(self) -> None:
        """The pane's lights are numbered from 1 in the order they were added."""
        state = self.table.state
        numbers = numbered(state)
        for row in self.light_rows():
            assert numbers[row[2]] == int(row[0]), row
        ids = [row[2] for row in self.light_rows()]
        assert ids == sorted(ids, key=numbers.__getitem__)

    def nothing_cut(self) -> None:
        panes: list[type[PartyRoster | LightInventory | Counters]] = [PartyRoster, LightInventory]
        if self.table.procedure.counters:
            panes.append(Counters)
        for pane in panes:
            for line in self.rows(pane):
                assert "…" not in line, (pane.__name__, line)


@pytest.mark.long
@pytest.mark.parametrize("procedure", SHIPPED)
async def test_a_session_played_from_the_keys(procedure: str) -> None:
    shown = find(procedure)
    app = DelveApp(make(f"played-{procedure}", party(shown), procedure=procedure))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        gm = Player(pilot, app)
        table = gm.table
        table.confirm_trouble = False  # the darkness question is the trouble tests' own
        await gm.keys("S")  # the session the table offers
        assert "Session 1" in gm.header()
        # The lights in the order they were added, numbered, the first two lit.
        gm.lights_in_order()
        rows = gm.light_rows()
        assert [row[0] for row in rows[:2]] == ["1", "2"]
        assert rows[0][1] in "●◐" and rows[1][1] in "●◐"
        encounter, nothing = rolls(shown, table.state.turn_type)
        met = rested = False
        step = 0
        while table.state.turn < TURNS:
            step += 1
            if step == 2:
                # The swap, by the numbers the pane shows: the first lit light put out,
                # then the first unlit one lit; the others stay where they were.
                out = gm.first(lit=True)
                number = gm.number_of(out)
                await gm.open_lights()
                await gm.keys(str(number), "enter")
                gm.lights_in_order()
                into = gm.first(lit=False, but=out)
                number = gm.number_of(into)
                await gm.open_lights()
                await gm.keys(str(number), "enter")
                assert not light_of(table, out).lit and light_of(table, into).lit
                gm.lights_in_order()
            if step == 3:
                # The lit light handed to Dain, the fourth member: it keeps its number.
                given = gm.first(lit=True)
                number = gm.number_of(given)
                await gm.open_lights()
                await gm.keys(str(number), "g", "4")
                assert light_of(table, given).carrier == "Dain"
                row = next(row for row in gm.light_rows() if row[2] == given)
                assert row[0] == str(number) and "Dain" in row
                gm.lights_in_order()
            if step == 5:
                # Cora dies, marked from the command line: the party pane says so on her
                # row, and it still does at the session's end.
                assert await gm.command("pc Cora +dead")
                assert "dead" in gm.member_rows("Cora"), gm.member_rows("Cora")
                assert "dead" in member_of(table, "Cora").conditions
            if step == 8:
                for key in REST.get(procedure, ("r",)):
                    if key.startswith(":"):
                        assert await gm.command(key[1:]), key
                    else:
                        await gm.keys(key)
                rested = True
                gm.nothing_cut()
                continue
            if step >= 10 and not met and await gm.command(f"turn hazard={encounter}"):
                met = bool(table.state.encounter)
                assert met and "Encounter" in gm.strip(), gm.strip()
                # The roll fixed: the turn made again with the die that brings nothing.
                gm._seen = None
                await pilot.press("f")
                await settle(pilot)
                if isinstance(app.screen, ChooseScreen):
                    options = app.screen.query_one(OptionList)
                    label = rule_label(shown, table)
                    pick = next(
                        index
                        for index in range(options.option_count)
                        if label in str(options.get_option_at_index(index).prompt)
                    )
                    await pilot.press(str(pick + 1))
                    await settle(pilot)
                assert isinstance(app.screen, RollPrompt), app.screen
                await pilot.press(*str(nothing))
                await gm.keys("enter")
                assert not table.state.encounter
                assert "Encounter" not in gm.strip()
                continue
            await gm.keys("n")
        assert rested and met
        assert "dead" in gm.member_rows("Cora")
        state = table.state
        assert f"{shown.turn_name(state.turn_type).capitalize()} {state.turn}" in gm.header()
        gm.lights_in_order()
        gm.nothing_cut()


def light_of(table: TableScreen, light_id: str) -> Light:
    found = table.state.light(light_id)
    assert found is not None
    return found


def member_of(table: TableScreen, name: str) -> Member:
    found = table.state.member(name)
    assert found is not None
    return found


def rule_label(procedure: Procedure, table: TableScreen) -> str:
    found = hazard_rule(procedure, table.state.turn_type)
    return found[1].label if found else "hazard"
