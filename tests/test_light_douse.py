"""``light douse``: every lit light put out at once, or every one a member carries.

A gust in a shaft, a fall into the river: the game master puts out several lights in one
command rather than one ``light off`` each. It is one form of the grammar and one handler;
its events are the ones ``light off`` records.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.log import batch_lines
from delvetui.errors import CommandError
from tests.cli_support import delvetui, made, status
from tests.conftest import Factory, of, replays_the_same, run


def test_douse_puts_out_the_lit_lights_a_member_carries_then_all(expedition: Factory) -> None:
    """Each lit light goes out as ``light off`` puts it out (it can be lit again); a
    carrier limits it to that member's lights; undo lights them again."""
    made_ = expedition("delving")
    run(
        made_,
        "pc add Ash hp=6",
        'pc add "Old Tom" hp=5',
        "light add torch carrier=Ash lit",
        "light add candle carrier='Old Tom' lit",
        "light add torch count=3 carrier=Ash",
    )
    before = made_.state
    batch = made_.execute("light douse carrier=ash")
    assert [(e.id, e.reason, e.spent) for e in of(batch, ev.LightPutOut)] == [
        ("torch1", "put out", False)
    ]
    assert [line.text for line in batch_lines(batch, made_.procedure, before)] == [
        "torch1 is put out."
    ]
    assert [light.id for light in made_.state.lit_lights] == ["candle1"]

    made_.execute("light douse")
    assert not made_.state.lit_lights
    made_.execute("light on torch1")  # put out, not spent
    made_.execute("undo")
    made_.execute("undo")
    assert [light.id for light in made_.state.lit_lights] == ["candle1"]
    replays_the_same(made_)


def test_douse_with_nothing_lit_says_so_and_writes_nothing(expedition: Factory) -> None:
    """Bad input changes nothing: no lit light, a member who carries none, a stranger, or a
    word the form does not take is refused with a sentence and appends no event."""
    made_ = expedition("delving")
    run(made_, "pc add Ash hp=6", "pc add Bo hp=4", "light add torch carrier=Ash lit")
    events = made_.event_count
    for line, message in (
        ("light douse carrier=Bo", "Bo carries no lit light."),
        ("light douse carrier=Fay", "There is no party member named 'Fay'"),
        ("light douse torch1", "light douse takes nothing but carrier=NAME. Usage: light"),
        ("light douse count=2", "'count=' does not belong here."),
    ):
        with pytest.raises(CommandError, match=message):
            made_.execute(line)
    made_.execute("light douse")
    with pytest.raises(CommandError, match=r"No light is lit\."):
        made_.execute("light douse")
    assert made_.event_count == events + 1


def test_douse_is_logged_as_typed_and_built() -> None:
    """The line the log keeps for a douse the table builds is the one a game master types."""
    assert cmd.spoken(cmd.DouseLights()) == "light douse"
    assert cmd.spoken(cmd.DouseLights(carrier="Old Tom")) == "light douse 'carrier=Old Tom'"
    assert cmd.parse("light douse 'carrier=Old Tom'") == cmd.DouseLights(carrier="Old Tom")


def test_douse_from_the_shell(home: Path) -> None:
    """``delvetui act NAME -`` takes it like any command and the status shows no light lit."""
    made(home, "crypt", "delving", ["pc add Ash hp=6", "light add torch count=2 carrier=Ash"])
    script = "light on torch\nlight on torch\nlight douse\n"
    result = delvetui(home, "act", "crypt", "-", stdin=script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "ok 6 light douse"
    assert not any(light["lit"] for light in status(home, "crypt")["lights"])
