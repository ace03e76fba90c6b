"""The fight at the table, played from the keys at 80×24 with Pilot: foes brought in, the
fight begun, a foe hurt and healed, the next round, a morale check, the fight ended; the
encounter pane and the footer's keys as the game master sees them."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.panes.encounter_pane import EncounterPane
from tests.ui_support import expedition, keep_notices, make, notices, ready, screen_text, settled

SMALL = (80, 24)
PARTY = (
    "pc add Ash hp=6 STR=16 CHA=13 MV=120",
    "pc add Bo hp=4 STR=7 CHA=9 MV=120",
    "light add torch count=3 carrier=Ash",
    "light on torch",
    "turn explore",
)
FIGHTING = (*PARTY, "foe add orc count=3 hp=5,6,4 morale=12", "fight initiative=4,2")


def footer_text(app: DelveApp) -> str:
    table = app.table
    assert table is not None
    return str(table.query_one(KeyFooter).render())


async def answer(pilot: object, app: DelveApp, text: str) -> None:
    """Type an answer into the question on screen, and give it."""
    await settled(pilot, lambda: isinstance(app.screen, AskScreen))  # type: ignore[arg-type]
    app.screen.query_one(Input).value = text
    await pilot.press("enter")  # type: ignore[attr-defined]


async def test_the_encounter_pane_and_the_fights_keys_at_80_by_24() -> None:
    """The pane shows the round, who acts first and each foe's hit points; the footer's
    keys for the fight are on screen, none cut."""
    app = DelveApp(make("fight", FIGHTING, procedure="ose"))
    async with app.run_test(size=SMALL) as pilot:
        table = await ready(pilot)
        pane = table.query_one(EncounterPane)
        assert pane.display
        text = screen_text(app)
        assert "Round 1 · The party acts first" in text
        for line in ("orc1 ██████████ 5/5", "orc2 ██████████ 6/6", "orc3 ██████████ 4/4"):
            assert line in text
        footer = footer_text(app)
        for key in ("F Round", "h Foe HP", "M Morale", "e End fight", "^p palette"):
            assert key in footer
        assert all(len(row) <= 80 for row in footer.splitlines())


async def test_the_fight_played_from_the_keys() -> None:
    app = DelveApp(make("fight", FIGHTING, procedure="ose"))
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)

        def foe(name: str) -> tuple[int, str]:
            found = expedition(app).state.foe(name)
            assert found is not None
            return found.hp, found.state

        await pilot.press("h")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("2")  # orc2
        await answer(pilot, app, "-4")
        await settled(pilot, lambda: foe("orc2") == (2, "fighting"))
        await pilot.press("h")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("2")
        await answer(pilot, app, "+1")
        await settled(pilot, lambda: foe("orc2") == (3, "fighting"))
        await pilot.press("h")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("3")
        await answer(pilot, app, "fled")
        await settled(pilot, lambda: foe("orc3")[1] == "fled")
        await pilot.press("F")
        await settled(pilot, lambda: expedition(app).state.fight.round == 2)  # type: ignore[union-attr]
        await pilot.press("M")
        await settled(pilot, lambda: all(f.held for f in expedition(app).state.foes if f.fighting))
        await pilot.press("e")
        await settled(pilot, lambda: expedition(app).state.fight is None)
        assert expedition(app).state.fights == 1
        await settled(pilot, lambda: not app.table.query_one(EncounterPane).display)  # type: ignore[union-attr]
        assert "h Foe HP" not in footer_text(app)


async def test_f_brings_foes_in_then_begins_the_fight() -> None:
    app = DelveApp(make("quiet", PARTY, procedure="ose"))
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        assert "F " not in footer_text(app)
        await pilot.press("F")
        await answer(pilot, app, "wolf count=2 hp=6")
        await settled(pilot, lambda: len(expedition(app).state.foes) == 2)
        await settled(pilot, lambda: "F Fight" in footer_text(app))
        await pilot.press("F")
        await settled(pilot, lambda: expedition(app).state.fight is not None)
        await settled(pilot, lambda: "F Round" in footer_text(app))


async def test_a_click_on_a_foe_asks_what_happens_to_it() -> None:
    app = DelveApp(make("fight", FIGHTING, procedure="ose"))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        pane = table.query_one(EncounterPane)
        await pilot.click(EncounterPane, offset=(2, 2))  # the second row: orc1
        await answer(pilot, app, "down")
        await settled(pilot, lambda: expedition(app).state.foes[0].state == "down")
        assert pane.display


async def test_a_party_of_four_and_their_foes_fit_at_80_by_24(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the rounds run, the hazard table and the next action make way: every member's
    hit points and every foe (those out of the fight too) are on screen, and the keys that
    take a turn leave the footer until the fight ends (pressed, they say why)."""
    four = (
        "pc add Ash hp=8 MV=120",
        "pc add Bryn hp=6 MV=120",
        "pc add Cora hp=5 MV=120",
        "pc add Dag hp=7 MV=120",
        "light add torch count=3 carrier=Ash",
        "light on torch",
        "foe add orc count=4 hp=4,5,3,6 morale=12",
        "foe orc3 +fled",
        "fight initiative=4,2",
    )
    keep_notices(monkeypatch)
    app = DelveApp(make("four", four, procedure="ose"))
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        text = screen_text(app)
        rows = text.splitlines()
        for member, hp in (("Ash", "8/8"), ("Bryn", "6/6"), ("Cora", "5/5"), ("Dag", "7/7")):
            assert any(f"│ {member} " in row and f" {hp} " in row for row in rows), member
        for foe in ("orc1 ██████████ 4/4", "orc3 fled 3/3", "orc4 ██████████ 6/6"):
            assert foe in text
        assert "Wandering monsters" not in text
        footer = footer_text(app)
        assert "n Turn" not in footer and "F Round" in footer
        turn = expedition(app).state.turn
        await pilot.press("n")
        await settled(pilot, lambda: any("A fight is under way" in n for n in notices(app)))
        assert expedition(app).state.turn == turn
        await pilot.press("e")
        await settled(pilot, lambda: "n Turn" in footer_text(app))
        assert "Wandering monsters" in screen_text(app)


async def test_the_party_flees_from_the_keys() -> None:
    """y asks the pursuers' speed where the game compares speeds: slower than them, the
    party is pursued (the pane says so beside the round); away, the encounter is over and
    the turn of running is on the clock."""
    app = DelveApp(make("flight", FIGHTING, procedure="ose"))
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        assert "y Flee" in footer_text(app)
        await pilot.press("y")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        assert "the party runs at 120, Ash's pace" in screen_text(app)
        await answer(pilot, app, "150")
        await settled(pilot, lambda: expedition(app).state.pursued)
        assert "Round 1 · pursued · The party acts" in screen_text(app)
        turn = expedition(app).state.turn
        await pilot.press("y")
        await answer(pilot, app, "away")
        await settled(pilot, lambda: not expedition(app).state.foes)
        state = expedition(app).state
        assert (state.turn, state.escapes, state.pursued) == (turn + 1, 1, False)
        assert not app.table.query_one(EncounterPane).display  # type: ignore[union-attr]
        assert "y Flee" not in footer_text(app)


async def test_where_the_game_master_says_y_asks_away_or_caught() -> None:
    party = ("pc add Ash hp=6 DEX=12", "foe add goblin count=2 hp=4")
    app = DelveApp(make("chase", party, procedure="shadowdark"))
    async with app.run_test(size=SMALL) as pilot:
        await ready(pilot)
        await pilot.press("y")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "Caught: a pursuit, in rounds" in screen_text(app)
        await pilot.press("down", "enter")
        await settled(pilot, lambda: expedition(app).state.pursued)
        assert "Pursued" in screen_text(app)
