"""The campaign at the table: ending an expedition from the keys, reopening it, starting
the next one from the start screen, and the campaign screen (issue #32)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, OptionList, Select, Static

from delvetui.ui.app import DelveApp
from delvetui.ui.campaign.screen import CampaignScreen
from delvetui.ui.dialogs.ask import AskScreen
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.forms.next_expedition import NextExpeditionScreen
from delvetui.ui.start_screen import StartScreen
from tests.ui_support import (
    PARTY,
    expedition,
    make,
    notices,
    ready,
    screen_text,
    settle,
    settled,
    table,
)


async def test_e_ends_the_expedition_after_asking_and_the_keys_then_say_so(home: Path) -> None:
    """Ending from the keys (CAMPAIGN.md, Ending): E asks first, with the words the log
    keeps (the default: the party is back in town); the header says ENDED; a key that would
    change the expedition says it has ended and how to reopen, and changes nothing; the
    palette's Reopen asks, and u undoes the reopening."""
    path = make("barrow")
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("E")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        assert app.screen.query_one(Input).value == "the party is back in town"
        await pilot.press("escape")  # not yet: nothing is written
        await settle(pilot)
        assert not expedition(app).state.ended
        await pilot.press("E")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.ended)
        state = expedition(app).state
        assert state.end_words == "the party is back in town"
        assert not state.lit_lights  # the torch went out with the end
        await settle(pilot)
        text = screen_text(app)
        assert "ENDED" in text.splitlines()[0]
        assert "The expedition has ended (the party is back in town)" in text.splitlines()[1]
        assert "DARKNESS" not in text  # the party is home: no alert but the end
        assert "The expedition ends: the party is" in text  # the log's line, wrapped
        assert "start session" not in text  # no session is offered on an ended expedition
        batches = expedition(app).batch_count
        await pilot.press("n")
        await pilot.press("l")
        await settle(pilot)
        assert expedition(app).batch_count == batches
        assert not isinstance(app.screen, ChooseScreen | AskScreen)  # no dialog opened
        said = [n for n in notices(app) if n.startswith("The expedition has ended")]
        assert len(said) == 2  # one for each key, and nothing else happened
        assert said[-1].startswith("The expedition has ended (the party is back in town)")
        assert "press E to reopen it, or type :reopen" in said[-1]

        from delvetui.ui.table.palette import entries

        names = {name: run for name, _, run in entries(app.screen)}  # type: ignore[arg-type]
        assert "End the expedition" not in names
        assert "Next expedition after barrow…" in names
        names["Reopen the expedition"]()
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: not expedition(app).state.ended)
        await settle(pilot)
        assert "ENDED" not in screen_text(app).splitlines()[0]
        await pilot.press("u")  # the reopening is undone: ended again
        await settled(pilot, lambda: expedition(app).state.ended)


async def _to_start(pilot: Pilot[None]) -> StartScreen:
    """The palette's "Open another expedition": the start screen, the table closed."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await settle(pilot)
    await pilot.press(*"Open another")
    await settle(pilot)
    await pilot.press("enter")
    await settled(pilot, lambda: isinstance(app.screen, StartScreen))
    assert isinstance(app.screen, StartScreen)
    return app.screen


def _choose(screen: StartScreen, option_id: str) -> None:
    options = screen.query_one("#start-list", OptionList)
    options.highlighted = options.get_option_index(option_id)


@pytest.mark.long
async def test_end_then_the_next_expedition_from_the_start_screen_then_reopen_the_first(
    home: Path,
) -> None:
    """Issue #32, done means: end an expedition from the keys, start the next from the start
    screen, play a turn, reopen. The form shows the party as it carries (HP after the
    downtime), a member can be left out and an HP overridden, a bought light added; the new
    expedition starts on the first morning after the downtime (issue #43, item 12: not at
    the hour the last one ended), with the carried lights unlit."""
    path = make("barrow")  # the demo party: Ash, Bryn, Cora; a torch lit
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        ended_at = expedition(app).state.clock
        await pilot.press("E")
        await settled(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: expedition(app).state.ended)

        start = await _to_start(pilot)
        await settled(pilot, lambda: bool(start.continuable))
        assert "Next expedition after barrow…" in screen_text(app)
        _choose(start, f"+next:{path}")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, NextExpeditionScreen))
        form = app.screen
        assert isinstance(form, NextExpeditionScreen)
        assert form.query_one("#next-name", Input).value == "barrow-2"
        assert form.query_one("#next-from", Input).value == "barrow"
        assert form.query_one("#next-downtime", Input).value == "7d"
        assert form.members == ["Ash", "Bryn", "Cora"]
        plan = form.plan
        assert plan is not None
        assert form.query_one("#next-start", Input).value == "08:00"
        day = 24 * 60
        morning = (ended_at + 7 * day) // day * day + 8 * 60
        morning += day if morning < ended_at + 7 * day else 0
        assert plan.state.clock == morning and plan.state.clock_text == "08:00"
        assert f"Starts day {morning // day + 1}, 08:00" in str(
            form.query_one("#downtime-message", Static).content
        )
        assert form.query_one("#c0-hp", Input).value == str(plan.state.party[0].hp)

        form.query_one("#c2-carry", Checkbox).value = False  # Cora stays in town
        await settle(pilot)
        assert form.plan is not None and [m.name for m in form.plan.state.party] == [
            "Ash",
            "Bryn",
        ]
        assert "Cora was left behind" in form.plan.notes
        form.query_one("#c1-hp", Input).value = "2"  # Bryn came back hurt after all
        await pilot.press("ctrl+l")  # a light bought in town
        await settle(pilot)
        form.query_one("#l0-kind", Select).value = "torch"
        form.query_one("#l0-count", Input).value = "3"
        form.query_one("#l0-carrier", Input).value = "Bryn"
        await pilot.press("ctrl+s")
        await ready(pilot)

        state = expedition(app).state
        assert state.name == "barrow-2" and state.predecessor == "barrow"
        assert state.clock == morning
        assert {m.name: m.hp for m in state.party}["Bryn"] == 2
        assert [m.name for m in state.party] == ["Ash", "Bryn"]
        assert not state.lit_lights
        assert any(x.kind == "torch" and x.count == 3 and x.carrier == "Bryn" for x in state.lights)
        # A turn on the new expedition (the hazard die typed: its seed is the form's own).
        await pilot.press(":", *"turn hazard=6", "enter")
        await settled(pilot, lambda: expedition(app).state.turn == 1)

        start = await _to_start(pilot)
        _choose(start, str(path))
        await pilot.press("enter")
        await ready(pilot)
        assert expedition(app).state.ended
        from delvetui.ui.table.palette import entries

        names = {name: run for name, _, run in entries(table(app))}
        names["Reopen the expedition"]()
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: not expedition(app).state.ended)


async def test_the_campaign_screen_shows_a_chain_of_two(home: Path) -> None:
    """Issue #32, deliverable 5 at the table: the campaign screen, from the start screen's
    key, lists the chain in calendar order with each expedition's dates, party, who died,
    and the downtime between them; at 80×24 the first expedition's lines are in view."""
    from delvetui.application.campaign import create_next, next_plan

    first = make("barrow", [*PARTY, "turn", "pc Cora hp=0 +dead", "end"])
    create_next(next_plan(first, "barrow-2", downtime="3d", seed=5))
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        # barrow is continued already and barrow-2 has not ended: nothing to continue.
        assert "ended" in screen_text(app) and "Next expedition after" not in screen_text(app)
        await pilot.press("c")
        await settled(pilot, lambda: isinstance(app.screen, CampaignScreen))
        screen = app.screen
        assert isinstance(screen, CampaignScreen)
        await settled(pilot, lambda: screen.campaigns is not None)
        text = screen_text(app)
        assert "Campaign barrow  2 expeditions in 1 chain" in text
        assert "Chain 1: barrow → barrow-2" in text
        assert "died: Cora" in text
        assert "⋯ downtime 3 days (day 1, " in text
        assert text.index("barrow  Delving") < text.index("barrow-2  Delving")
        await pilot.press("n")  # the first is continued already: said, nothing opened
        await settle(pilot)
        assert isinstance(app.screen, CampaignScreen)
        assert "another expedition already continues it" in notices(app)[-1]
        await pilot.press("escape")
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))


async def test_the_next_expedition_form_refuses_a_bad_downtime_and_a_backwards_start(
    home: Path,
) -> None:
    """Bad input gets a sentence beside its field and makes nothing (COMMON.md; CAMPAIGN.md,
    CLI: never earlier than the predecessor's end): a predecessor that is not there, a
    downtime that is not one, and a date before the predecessor ended are each said on the
    form; no file is written. A start hour is the first such hour once the downtime ends."""
    path = make("barrow", [*PARTY, "turn", "end"])
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        start = app.screen
        await settled(pilot, lambda: isinstance(start, StartScreen) and bool(start.continuable))
        assert isinstance(start, StartScreen)
        _choose(start, f"+next:{path}")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, NextExpeditionScreen))
        form = app.screen
        assert isinstance(form, NextExpeditionScreen)

        def said(section: str) -> str:
            return str(form.query_one(f"#{section}-message", Static).content)

        form.query_one("#next-from", Input).value = "nope"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert said("from").startswith("There is no expedition 'nope'")
        form.query_one("#next-from", Input).value = "barrow"
        form.query_one("#next-downtime", Input).value = "soon"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "'soon' is not a downtime; write days and hours" in said("downtime")
        form.query_one("#next-downtime", Input).value = "day 1"  # a date, not a downtime
        form.query_one("#next-start", Input).value = "07:00"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "the next expedition cannot start before that" in said("downtime")
        assert isinstance(app.screen, NextExpeditionScreen)
        assert sorted(p.name for p in home.glob("*.delve")) == ["barrow.delve"]
        # No downtime and 07:00: the first 07:00 after the end, the next morning.
        form.query_one("#next-downtime", Input).value = "0d"
        await pilot.press("ctrl+s")
        await ready(pilot)
        state = expedition(app).state
        assert state.name == "barrow-2" and state.day == 2 and state.clock_text == "07:00"


async def test_end_typed_on_the_command_line_shows_as_the_key_does(home: Path) -> None:
    """`end` is a command like any other (CAMPAIGN.md, Ending): typed on the command line
    it ends the expedition, the header and the alert strip say so, and the offer to start a
    session goes; `:reopen` takes it up again."""
    app = DelveApp(make("barrow"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        assert "start session 1" in screen_text(app)
        await pilot.press(":", *"end the party flees to town", "enter")
        await settled(pilot, lambda: expedition(app).state.ended)
        await settle(pilot)
        lines = screen_text(app).splitlines()
        assert "ENDED" in lines[0]
        assert "The expedition has ended (the party flees to town)" in lines[1]
        assert "start session" not in screen_text(app)
        await pilot.press(":", *"reopen", "enter")
        await settled(pilot, lambda: not expedition(app).state.ended)


async def test_the_campaign_screen_points_out_a_missing_predecessor(home: Path) -> None:
    """Issue #32, deliverable 7 at the table: an expedition whose predecessor is not in the
    folder (imported alone) is listed with the gap said under its campaign, and a file that
    cannot be read is listed with the reason; the screen still opens the one that reads."""
    from delvetui.application.campaign import create_next, next_plan

    first = make("barrow", [*PARTY, "end"])
    second = create_next(next_plan(first, "barrow-2", downtime="2d", seed=5))
    first.unlink()
    (home / "broken.delve").write_text("not an expedition", encoding="utf-8")
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("c")
        screen = app.screen
        await settled(pilot, lambda: isinstance(screen, CampaignScreen) and bool(screen.campaigns))
        text = screen_text(app)
        assert "Gap: barrow-2 continues barrow, which is not in the data folder" in text
        assert "broken: " in text and "Not read" in text
        await pilot.press("enter")  # the highlighted expedition: barrow-2, the only one
        await ready(pilot)
        assert expedition(app).path == second


async def test_the_form_carries_a_member_at_0_hp_where_that_is_not_death(home: Path) -> None:
    """docs/procedures.md 3.4 `[party] dies_at_zero_hp`: in Cairn 0 HP is not death (damage
    goes on to STR), so Cora, at 0 HP when barrow ended, is a ticked row healed by the
    downtime, and the form's notes say why and how to leave her; unticking her leaves her
    behind, and the note then says so instead."""
    path = make("barrow", ["pc add Ash hp=6", "pc add Cora hp=4", "pc Cora hp=0", "end"],
                procedure="cairn")  # fmt: skip
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        start = app.screen
        await settled(pilot, lambda: isinstance(start, StartScreen) and bool(start.continuable))
        assert isinstance(start, StartScreen)
        _choose(start, f"+next:{path}")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, NextExpeditionScreen))
        form = app.screen
        assert isinstance(form, NextExpeditionScreen)
        assert form.members == ["Ash", "Cora"]
        assert form.query_one("#c1-carry", Checkbox).value is True
        assert form.query_one("#c1-hp", Input).value == "4"  # a day in safety heals all

        def notes() -> str:
            return str(form.query_one("#next-notes", Static).content)

        assert "Cora was at 0 HP when barrow ended; in Cairn (second edition)" in notes()
        assert "`--leave Cora`, or untick on the form" in notes()
        assert "died" not in notes()
        form.query_one("#c1-carry", Checkbox).value = False
        await settled(pilot, lambda: "Cora was left behind" in notes())
        assert "0 HP" not in notes()


async def test_a_row_added_on_the_next_expedition_form_is_in_view_at_80x24(home: Path) -> None:
    """Every field reachable from the keys at 80×24 (COMMON.md; the forms' rule): ctrl+n
    and ctrl+l on the next-expedition form focus the row they add and scroll the form to
    it, so the game master types the new member's name and picks the bought light's kind
    where they can see them."""
    from tests.test_ui_form_fit import in_view

    path = make("barrow", [*PARTY, "end"])
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        start = await _to_start(pilot)
        await settled(pilot, lambda: bool(start.continuable))
        _choose(start, f"+next:{path}")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, NextExpeditionScreen))
        form = app.screen
        await pilot.press("ctrl+n")
        await settle(pilot)
        name = form.query_one("#m1-name", Input)
        assert app.focused is name
        assert in_view(app, name), f"the new member's name is out of view at {name.region}"
        await pilot.press(*"Dax")
        assert name.value == "Dax"
        await pilot.press("ctrl+l")
        await settle(pilot)
        kind = form.query_one("#l0-kind", Select)
        assert app.screen.focused is kind
        assert in_view(app, kind), f"the bought light's kind is out of view at {kind.region}"


async def test_the_next_expedition_form_says_what_is_left_of_each_light(home: Path) -> None:
    """The lights come home unlit with what is left of them (issue #32, the next
    expedition): Delving's lantern burns 8 hours (docs/rules/delving.md, Lanterns), so one
    lit for two turns has 46 turns left, and the form says so beside it, as the game master
    decides what to buy; a torch, which Delving gives no time, says none."""
    path = make("barrow", [*PARTY, "light on lantern1", "turn hazard=6", "turn hazard=6", "end"])
    app = DelveApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        start = await _to_start(pilot)
        await settled(pilot, lambda: bool(start.continuable))
        _choose(start, f"+next:{path}")
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, NextExpeditionScreen))
        lights = str(app.screen.query_one("#next-lights", Static).render())
        assert "lantern1: Lantern, 46 turns left, carried by Bryn" in lights, lights
        assert "torch1: Torch ×5, carried by Ash" in lights, lights


async def test_the_campaign_screen_exports_the_chronicle(home: Path) -> None:
    """Issue #43, item 12: e on the campaign screen writes the highlighted expedition's
    campaign's chronicle to the exports folder, its Markdown's timeline a picture beside
    it; a lone expedition is told as one. Before: the command line only."""
    from delvetui import paths
    from delvetui.application.campaign import create_next, next_plan

    first = make("barrow", [*PARTY, "turn", "end"])
    create_next(next_plan(first, "barrow-2", downtime="3d", seed=5))
    make("crypt")
    app = DelveApp(None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("c")
        await settled(pilot, lambda: isinstance(app.screen, CampaignScreen))
        screen = app.screen
        assert isinstance(screen, CampaignScreen)
        await settled(pilot, lambda: screen.campaigns is not None)
        text = screen_text(app)
        assert "1 campaign, 1 expedition on its own (3 expeditions in all)" in text
        assert "Expedition crypt  on its own" in text
        await pilot.press("e")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")  # Markdown, the first
        written = paths.data_dir() / "exports" / "barrow-chronicle.md"
        await settled(pilot, written.exists)
        assert "![Timeline of the campaign](barrow-chronicle-timeline.svg)" in written.read_text(
            encoding="utf-8"
        )
        assert (written.parent / "barrow-chronicle-timeline.svg").exists()
