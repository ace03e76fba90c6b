"""The command line: the command language of ``delvetui act``, inline errors, completion."""

from __future__ import annotations

import pytest
from textual import events

from delvetui.core.commands.completion import completions
from delvetui.core.state import Light, Member, State
from delvetui.procedure.registry import find
from delvetui.ui.app import DelveApp
from delvetui.ui.table.command_line import CommandLine
from tests.ui_support import expedition, make, ready, settled


async def test_a_valid_command_changes_the_state_and_closes_the_line() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        line = table.query_one(CommandLine)
        await pilot.press("colon", *"pc Ash hp=-3", "enter")
        await settled(pilot, lambda: expedition(app).state.party[0].hp == 3)
        await settled(pilot, lambda: not line.has_class("-open"))
        assert line.history[-1] == "pc Ash hp=-3"
        # Up brings the last command back.
        await pilot.press("colon", "up")
        assert line.input.value == "pc Ash hp=-3"


@pytest.mark.long
async def test_a_bad_command_is_refused_inline_and_writes_nothing() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        line = table.query_one(CommandLine)
        before = (expedition(app).batch_count, expedition(app).event_count)
        for text, words in (
            ("lihgt on torch1", "is not a command"),  # the grammar refuses it
            ("light on lamp9", "no unlit light 'lamp9'"),  # the state refuses it
            ("turn crawl hazard=9", "1 to 6"),  # the dice refuse it
        ):
            line.input.value = ""
            await pilot.press("colon", *text, "enter")
            await settled(pilot, lambda: line.has_class("-error"))
            assert words in line.message
            assert line.has_class("-open")
            assert line.input.value == text  # kept, to be corrected
            assert (expedition(app).batch_count, expedition(app).event_count) == before
            await pilot.press("escape")
        # Correcting the text and trying again goes through.
        await pilot.press("colon", *"turn crawl hazard=6", "enter")
        await settled(pilot, lambda: expedition(app).state.turn == 1)
        assert line.message == ""


async def test_tab_completes_and_lists_choices() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        line = table.query_one(CommandLine)
        await pilot.press("colon", *"lig", "tab")
        assert line.input.value == "light "
        await pilot.press(*"o", "tab")
        assert line.input.value == "light o"
        assert "on" in line.message and "off" in line.message
        await pilot.press(*"ff", "tab")
        assert line.input.value == "light off "
        await pilot.press("tab")
        lit = [light.id for light in expedition(app).state.lights if light.lit]
        assert line.input.value == f"light off {lit[0]} "
        await pilot.press("enter")
        await settled(pilot, lambda: not expedition(app).state.lit_lights)


async def test_history_is_read_from_the_file() -> None:
    path = make()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        assert table.query_one(CommandLine).history[-1].startswith("note ")


def test_completions_follow_the_state_and_the_procedure() -> None:
    procedure = find("delving")
    state = State(
        party=(Member("Ash", 6, 6), Member("Old Tom", 4, 4)),
        lights=(
            Light("torch1", "torch", "Ash", "bright", count=5),
            Light("torch2", "torch", "Ash", "bright", lit=True),
        ),
    )
    assert completions("tu", state, procedure) == ["turn"]
    assert completions("turn", state, procedure) == ["turn"]
    assert "turn search" in completions("turn se", state, procedure)
    assert completions("turn crawl haz", state, procedure) == ["turn crawl hazard="]
    assert completions("light on t", state, procedure) == ["light on torch1"]
    assert completions("light off t", state, procedure) == ["light off torch2"]
    assert completions("light give torch2 O", state, procedure) == ["light give torch2 'Old Tom'"]
    assert completions("light add torch carrier=A", state, procedure) == [
        "light add torch carrier=Ash"
    ]
    assert completions("light add c", state, procedure) == ["light add candle"]
    assert completions("", state, procedure) == []
    assert completions("frobnicate x", state, procedure) == []


async def test_a_command_typed_fast_reaches_the_command_line() -> None:
    """Keys arriving in one burst, as a fast typist's do: none of them is a table key."""
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        turn = expedition(app).state.turn
        for key, char in [("colon", ":"), *((c, c) for c in "turn"), ("enter", "\r")]:
            # As the terminal's driver hands keys to the app: all queued before the first
            # is handled.
            assert app.post_message(events.Key(key, char))
        await settled(pilot, lambda: expedition(app).state.turn == turn + 1)
        assert not table.table_dice  # the "t" did not switch table dice on
        assert table.query_one(CommandLine).history[-1] == "turn"
        # In the command line a ":" is text, not the key that opens it.
        await pilot.press("colon", *"note Door: locked", "enter")
        await settled(pilot, lambda: table.query_one(CommandLine).history[-1].endswith("locked"))
        assert table.query_one(CommandLine).history[-1] == "note Door: locked"
