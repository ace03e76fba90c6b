"""The forms at 80×24: every field reached by Tab and in view, Enter on the last field
saves, the save key in the footer, and a member's conditions edited as a list."""

from __future__ import annotations

import pytest
from textual.widget import Widget
from textual.widgets import Button, Input, OptionList

from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.member_form import ConditionList, MemberForm
from delvetui.ui.dialogs.party_dialog import PartyDialog
from delvetui.ui.forms.new_expedition import NewExpeditionScreen
from delvetui.ui.key_footer import KeyFooter
from delvetui.ui.start_screen import StartScreen
from delvetui.ui.table.screen import TableScreen
from tests.ui_support import ANY_PROCEDURE_PARTY, expedition, make, ready, settled

SIZE = (80, 24)
#: Ash poisoned for six turns and exhausted, in a party any procedure takes.
SICK = (*ANY_PROCEDURE_PARTY, "pc Ash +exhausted +poisoned:6")


def in_view(app: DelveApp, widget: Widget) -> bool:
    """The widget is drawn whole on the terminal, above the footer."""
    region = widget.region
    footer = app.screen.query(KeyFooter)
    bottom = footer.first().region.y if footer else app.size.height
    return (
        region.width > 0
        and region.x >= 0
        and region.right <= app.size.width
        and region.y >= 0
        and region.bottom <= bottom
    )


async def tab_round(
    pilot: object, app: DelveApp, until: str | None = None, limit: int = 120
) -> list[Widget]:
    """Every widget Tab reaches from the focused one (round to it, or to ``until``), in
    order, each checked in view."""
    assert hasattr(pilot, "press")
    first = app.focused
    assert first is not None
    reached: list[Widget] = [first]
    for _ in range(limit):
        await pilot.press("tab")
        focused = app.focused
        assert focused is not None
        if focused is first:
            return reached
        assert in_view(app, focused), f"{focused} is out of view at {focused.region}"
        reached.append(focused)
        if focused.id == until:
            return reached
    raise AssertionError("Tab never came back to the first field")


@pytest.mark.long
@pytest.mark.parametrize("procedure", ["travel-turn", "trespasser"])
async def test_every_field_of_the_party_form_is_reached_at_80x24(procedure: str) -> None:
    """The new-expedition form's party rows fit 80 columns: each member's every ability
    (Travel Turns' PROF, which rolling to return needs; Trespasser's five long names) is
    reached by Tab and drawn in view."""
    app = DelveApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, NewExpeditionScreen))
        form = app.screen
        assert isinstance(form, NewExpeditionScreen)
        ids = [entry.id for entry in form.entries]
        form.query_one("#form-procedure", OptionList).highlighted = ids.index(procedure)
        await settled(pilot, lambda: form.procedure is not None and form.procedure.id == procedure)
        form.query_one("#m0-name", Input).focus()
        await pilot.pause()
        reached = {widget.id for widget in await tab_round(pilot, app, until="form-create")}
        abilities = form.procedure.party.abilities  # type: ignore[union-attr]
        for number in range(3):
            for ability in abilities:
                assert f"m{number}-ab-{ability}" in reached, (number, ability)
        assert {"m0-name", "m0-hp", "l1-carrier", "form-create"} <= reached


async def test_enter_on_the_party_forms_last_field_creates_the_expedition() -> None:
    """Enter moves from field to field, and on the last one creates the expedition, as
    ctrl+s (shown in the footer) does."""
    app = DelveApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("n")
        await settled(pilot, lambda: isinstance(app.screen, NewExpeditionScreen))
        form = app.screen
        assert "^s Create" in form.query_one(KeyFooter).render().plain
        await pilot.press(*"deep", "enter")
        assert app.focused is form.query_one("#form-procedure")
        form.query_one("#m0-name", Input).value = "Ash"
        last = list(form.query(Input))[-1]
        last.focus()
        await pilot.press("enter")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        assert expedition(app).path.stem == "deep"
        assert [m.name for m in expedition(app).state.party] == ["Ash"]


async def open_correct(pilot: object, app: DelveApp) -> MemberForm:
    """The party dialog, then Correct Ash."""
    assert hasattr(pilot, "press")
    await ready(pilot)  # type: ignore[arg-type]
    await pilot.press("p")
    await settled(pilot, lambda: isinstance(app.screen, PartyDialog))  # type: ignore[arg-type]
    await pilot.press("enter")
    await settled(pilot, lambda: isinstance(app.screen, MemberForm))  # type: ignore[arg-type]
    form = app.screen
    assert isinstance(form, MemberForm)
    return form


@pytest.mark.parametrize("procedure", ["travel-turn", "exploration"])
async def test_every_field_of_correct_member_is_reached_at_80x24(procedure: str) -> None:
    """Correct a member at 80×24: every field (hit points, maximum, fatigue, the conditions,
    each ability, PROF too) is reached by Tab and drawn in view, Save stays in view, and
    the footer shows ctrl+s."""
    app = DelveApp(make("fit", SICK, procedure=procedure))
    async with app.run_test(size=SIZE) as pilot:
        form = await open_correct(pilot, app)
        save = form.query_one("#member-save", Button)
        assert in_view(app, save)
        assert "^s Save" in form.query_one(KeyFooter).render().plain
        reached = await tab_round(pilot, app)
        ids = {widget.id for widget in reached}
        abilities = {f"ability-{name}" for name in form.procedure.party.abilities}
        assert abilities <= ids
        assert {"member-hp", "member-max", "member-conditions", "member-condition-add"} <= ids
        assert "member-save" in ids
        assert in_view(app, save)


async def test_enter_through_correct_member_saves_from_the_last_field() -> None:
    """Enter moves from field to field at 80×24, each scrolled into view (past the
    conditions list, whose Enter removes), and saves from the last: here Ash's PROF."""
    app = DelveApp(make("fit", SICK, procedure="travel-turn"))
    async with app.run_test(size=SIZE) as pilot:
        form = await open_correct(pilot, app)
        fields = list(form.query(Input))
        assert app.focused is fields[0]
        for field in fields[:-1]:
            assert app.focused is field and in_view(app, field), field
            await pilot.press("enter")
        assert app.focused is fields[-1] and fields[-1].id == "ability-PROF"
        assert in_view(app, fields[-1])
        await pilot.press("3", "enter")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        assert expedition(app).state.member("Ash").ability("PROF") == 3  # type: ignore[union-attr]
        assert expedition(app).state.member("Ash").conditions == ("exhausted", "poisoned")  # type: ignore[union-attr]


async def test_a_condition_is_removed_from_the_list_and_one_added() -> None:
    """Each condition is an item: Delete marks the highlighted one (Enter too; again keeps
    it), and the field below adds one; saving removes and adds them."""
    app = DelveApp(make("fit", SICK, procedure="exploration"))
    async with app.run_test(size=SIZE) as pilot:
        form = await open_correct(pilot, app)
        listed = form.query_one("#member-conditions", ConditionList)
        listed.focus()
        listed.highlighted = 0  # exhausted
        await pilot.press("delete")
        assert listed.removed == {"exhausted"}
        assert "removed on save" in str(listed.get_option_at_index(0).prompt)
        await pilot.press("down", "enter", "enter")  # poisoned: marked, then kept again
        assert listed.removed == {"exhausted"}
        form.query_one("#member-condition-add", Input).value = "shaken"
        await pilot.press("ctrl+s")
        await settled(pilot, lambda: isinstance(app.screen, TableScreen))
        ash = expedition(app).state.member("Ash")
        assert ash is not None and ash.conditions == ("poisoned", "shaken")
        history = expedition(app).timeline.history().undo
        assert history is not None and history[1] == "pc Ash -exhausted +shaken"
