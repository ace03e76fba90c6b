"""The start screen, the demo, and the new-expedition form (nothing created until Create)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input, OptionList, Select

from delvetui.procedure.registry import shipped_dir
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.forms.new_expedition import NewExpeditionScreen
from delvetui.ui.start_screen import StartScreen
from tests.ui_support import expedition, make, ready, screen_text, settled


def saved(home: Path) -> list[str]:
    return sorted(path.name for path in home.glob("*.delve"))


async def open_form(pilot: object) -> NewExpeditionScreen:
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    app = pilot.app
    await settled(pilot, lambda: isinstance(app.screen, StartScreen))
    await pilot.press("n")
    await settled(pilot, lambda: isinstance(app.screen, NewExpeditionScreen))
    await pilot.pause(0)
    form = app.screen
    assert isinstance(form, NewExpeditionScreen)
    return form


def message(form: NewExpeditionScreen, section: str) -> str:
    from textual.widgets import Static

    return str(form.query_one(f"#{section}-message", Static).content)


async def test_the_start_screen_offers_new_demo_and_saved_ones(home: Path) -> None:
    make("crypt", ["pc add Ash hp=6", "turn crawl hazard=6", "turn crawl hazard=6"])
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await settled(pilot, lambda: "turn 2" in screen_text(app))
        text = screen_text(app)
        assert "New expedition" in text and "Demo expedition" in text
        assert "Campaigns…" in text
        assert "crypt            Delving · turn 2 · day 1 08:20  " in text
        options = app.screen.query_one(OptionList)
        options.highlighted = 3  # after New, Demo and Campaigns
        await pilot.press("enter")
        await ready(pilot)
        assert expedition(app).state.turn == 2


async def test_the_demo_has_a_party_with_lights(home: Path) -> None:
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("d")
        await ready(pilot)
        state = expedition(app).state
        assert [m.name for m in state.party] == ["Ash", "Bryn", "Cora"]
        assert {light.kind for light in state.lights} == {"torch", "lantern", "candle"}
        assert state.light_level == "bright"
        assert expedition(app).procedure.id == "delving"
    assert saved(home) == ["demo.delve"]


@pytest.mark.long
async def test_the_form_checks_everything_and_creates_nothing_until_confirmed(
    home: Path,
) -> None:
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        await pilot.press("ctrl+s")
        assert message(form, "name") == "Give the expedition a name."
        form.query_one("#form-name", Input).value = "crypt"
        form.query_one("#form-start", Input).value = "8 o'clock"
        await pilot.press("ctrl+s")
        assert "HH:MM" in message(form, "start")
        assert message(form, "name") == ""
        form.query_one("#form-start", Input).value = "07:30"
        form.query_one("#m0-name", Input).value = "Ash"
        form.query_one("#m0-hp", Input).value = "lots"
        await pilot.press("ctrl+s")
        assert "hp=lots is not a whole number" in message(form, "party")
        form.query_one("#m0-hp", Input).value = "6"
        form.query_one("#m1-name", Input).value = "ash"
        await pilot.press("ctrl+s")
        assert "Two members are called ash" in message(form, "party")
        form.query_one("#m1-name", Input).value = "Bryn"
        form.query_one("#l0-carrier", Input).value = "Cora"
        await pilot.press("ctrl+s")
        assert "Cora is not in the party" in message(form, "lights")
        assert saved(home) == []  # nothing was created by any of it
        form.query_one("#l0-carrier", Input).value = "Ash"
        form.query_one("#l0-count", Input).value = "3"
        form.query_one("#l0-lit", Checkbox).value = True
        form.query_one("#l1-kind", Select).value = "lantern"
        form.query_one("#l1-carrier", Input).value = "bryn"
        await pilot.press("ctrl+s")
        await ready(pilot)
        state = expedition(app).state
    assert saved(home) == ["crypt.delve"]
    assert state.clock_text == "07:30"
    assert [(m.name, m.hp) for m in state.party] == [("Ash", 6), ("Bryn", 6)]
    torches = [light for light in state.lights if light.kind == "torch"]
    assert sum(light.count for light in torches) == 3
    assert any(light.lit and light.carrier == "Ash" for light in torches)
    lantern = next(light for light in state.lights if light.kind == "lantern")
    assert lantern.carrier == "Bryn" and not lantern.lit


async def test_the_form_refuses_a_name_that_is_taken_and_cancel_creates_nothing(
    home: Path,
) -> None:
    make("crypt")
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#form-name", Input).value = "crypt"
        await pilot.press("ctrl+s")
        assert "already exists" in message(form, "name")
        await pilot.press("ctrl+n")  # one more member row
        assert form.query_one("#m3-name", Input).has_focus
        await pilot.press("escape")  # something was typed: asked first
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        assert "Leave the form?" in screen_text(app)
        await pilot.press("2")  # yes, leave it
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
    assert saved(home) == ["crypt.delve"]


async def test_the_form_rolls_the_start_hour_with_time_dice(home: Path) -> None:
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        form.query_one("#form-name", Input).value = "night"
        form.query_one("#form-roll", Checkbox).value = True
        form.query_one("#form-dice", Input).value = "4"
        await pilot.press("ctrl+s")
        await ready(pilot)
        state = expedition(app).state
        assert 4 <= state.hour <= 23
        assert state.time_dice and sum(state.time_dice) == state.hour


async def test_the_procedure_picker_lists_user_procedures(home: Path) -> None:
    folder = home / "procedures"
    folder.mkdir()
    text = (shipped_dir() / "delving.toml").read_text(encoding="utf-8")
    text = text.replace('id = "delving"', 'id = "my-delve"').replace(
        'name = "Delving"', 'name = "My [b]Delve[/b]"'
    )
    (folder / "my-delve.toml").write_text(text, encoding="utf-8")
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        picker = form.query_one("#form-procedure", OptionList)
        ids = [picker.get_option_at_index(i).id for i in range(picker.option_count)]
        assert "delving" in ids and "my-delve" in ids
        picker.highlighted = ids.index("my-delve")
        picker.scroll_to_highlight()
        await pilot.pause(0)
        assert "My [b]Delve[/b]" in screen_text(app)
        assert "(yours)" in screen_text(app)
        form.query_one("#form-name", Input).value = "mine"
        await pilot.press("ctrl+s")
        await ready(pilot)
        assert expedition(app).procedure.id == "my-delve"


@pytest.mark.long
async def test_a_row_added_to_the_form_is_scrolled_into_view(home: Path) -> None:
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_form(pilot)
        for key, made in (("ctrl+l", "#l{}-kind"), ("ctrl+n", "#m{}-name")):
            for _ in range(3):
                await pilot.press(key)
            await pilot.wait_for_scheduled_animations()
            count = form.lights if key == "ctrl+l" else form.members
            row = form.query_one(made.format(count - 1))
            assert app.focused is row
            assert row.region.height > 0
            assert form.region.contains_region(row.region), f"{key}: the new row is off screen"


async def test_each_saved_expedition_is_one_line_at_80x24(home: Path) -> None:
    """The start screen lists each saved expedition on one row at 80×24 (the rows line up
    by name: start_screen.saved_row). An ended one, whose row says so, is cut at the edge
    with "…", never wrapped so that its last-played time lands under the next name."""
    make("dungeon-delve", [*_DEMO, "end"], procedure="exploration")
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await settled(pilot, lambda: "ended" in screen_text(app))
        lines = screen_text(app).splitlines()
        row = next(i for i, line in enumerate(lines) if line.strip().startswith("│ dungeon-delve"))
        assert "Dungeon Exploration" in lines[row] and "turn 0" in lines[row]
        assert "dungeon-delve" not in lines[row + 1]
        assert lines[row + 1].strip("│ ╰─╯") == "", lines[row + 1]  # nothing wrapped under it


_DEMO = ("pc add Ash hp=6",)
