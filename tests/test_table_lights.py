"""Lights at the table (issue #43, item 11): a kind of light the procedure lacks is declared
with `light kind` (a candle, a Light spell of N turns, a glowing sword), kept as an event,
a light of the procedure in force from then on, and carried to the next expedition."""

from __future__ import annotations

import json
from pathlib import Path

from delvetui.core import events as ev
from delvetui.core.alerts import alerts
from delvetui.core.event_checks import problem
from delvetui.core.state import State
from delvetui.export import export, import_file
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.light_dialog import LightDialog
from delvetui.ui.panes.light_inventory import LightInventory
from tests.cli_support import delvetui, made, status
from tests.conftest import Factory, of, run
from tests.ui_support import make, ready, screen_text, settle, settled


def test_a_candle_declared_at_the_table_burns_its_turns_dim(expedition: Factory) -> None:
    """OSE has no candle: `light kind candle 6t dim` declares it; a candle added and lit
    gives dim light and burns out after its sixth turn."""
    x = expedition("ose", seed=2)
    batch = x.execute("light kind candle 6t dim")
    declared = of(batch, ev.LightKindDeclared)
    assert [(d.id, d.label, d.brightness, d.turns) for d in declared] == [
        ("candle", "Candle", "dim", 6)
    ]
    assert x.procedure.lights["candle"].brightness == "dim"
    run(x, "pc add Ash hp=5", "light add candle count=2 carrier=Ash", "light on candle")
    assert x.state.light_level == "dim"
    for _ in range(5):
        x.execute("turn explore")
    assert [light.minutes for light in x.state.lit_lights] == [10]
    assert "candle2: last turn of light" in [a.text for a in alerts(x.state, x.procedure)]
    x.execute("turn explore")
    assert x.state.light_level == "dark"


def test_a_spell_a_sword_and_a_die(expedition: Factory) -> None:
    """A Light spell of 12 turns with its own name, a glowing sword that never goes out, a
    will-o'-wisp on a usage die: each as the procedure's own lights are."""
    x = expedition("trespasser", seed=2)
    run(
        x,
        "light kind light-spell 12t label='Light spell'",
        "light kind glowing-sword",
        "light kind wisp die=d6",
    )
    lights = x.procedure.lights
    assert lights["light-spell"].label == "Light spell" and lights["light-spell"].turns == 12
    sword = lights["glowing-sword"]
    assert sword.duration_minutes(10) is None and sword.usage_die is None
    assert lights["wisp"].usage_die == 6
    run(x, "pc add Ash hp=8", "light add wisp lit", "light add glowing-sword lit")
    batch = x.execute("turn advance usage.wisp1=1 hazard=10")
    assert [e.die for e in of(batch, ev.UsageDieStepped)] == [4]
    assert x.state.light("glowing-sword1").lit  # type: ignore[union-attr]


def test_a_real_time_kind_burns_by_the_tables_clock(expedition: Factory) -> None:
    """Shadowdark: `light kind lamp 30rm` burns thirty real minutes once lit."""
    x = expedition("shadowdark", seed=2)
    run(x, "light kind lamp 30rm", "light add lamp lit")
    assert x.state.light("lamp1").real_seconds == 30 * 60  # type: ignore[union-attr]


def test_what_cannot_be_a_kind_is_refused_and_writes_nothing(home: Path) -> None:
    """An id the procedure has, two lengths, a bad id: exit 2, a sentence, nothing saved."""
    made(home, "crypt", "ose", ("pc add Ash hp=5",), seed=2)
    before = status(home, "crypt")["events"]
    for words, said in (
        (("light", "kind", "torch", "3t"), "Torch (torch) is already a light of"),
        (("light", "kind", "moon", "6t", "die=d6"), "not both"),
        (("light", "kind", "Moon!"), "cannot be a light kind's id"),
        (("light", "kind", "moon", "99999t"), "A light's turns is 99,999"),
    ):
        result = delvetui(home, "act", "crypt", *words)
        assert result.returncode == 2, result.stdout
        assert said in result.stderr, result.stderr
    assert status(home, "crypt")["events"] == before


def test_undo_takes_the_kind_back(expedition: Factory) -> None:
    x = expedition("ose", seed=2)
    run(x, "light kind candle 6t dim", "undo")
    assert "candle" not in x.procedure.lights
    batch = x.execute("light kind candle 4t")  # declared again, with another length
    assert of(batch, ev.LightKindDeclared)[0].turns == 4


def test_the_next_expedition_carries_the_kinds_and_the_lights(home: Path) -> None:
    """`new --after`: the kinds come again in the new expedition's first batch, the unlit
    candles with them; another candle can be added there."""
    commands = ["pc add Ash hp=5", "light kind candle 6t dim", "light kind glowing-sword"]
    commands += ["light add candle count=3 carrier=Ash", "end"]
    made(home, "crypt", "ose", commands, seed=2)
    result = delvetui(home, "new", "crypt-2", "--after", "crypt", "--downtime", "2d")
    assert result.returncode == 0, result.stderr
    with Expedition.open(home / "crypt-2.delve", write=False) as x:
        first = x.batch(1)
        assert [e.id for e in of(first, ev.LightKindDeclared)] == ["candle", "glowing-sword"]
        candles = x.state.light("candle1")
        assert candles is not None and candles.count == 3 and candles.minutes == 60
    acted = delvetui(home, "act", "crypt-2", "light", "add", "candle")
    assert acted.returncode == 0, acted.stderr
    assert "Candle added as candle2." in acted.stdout


def test_the_kind_survives_a_reopening_an_export_and_an_import(home: Path) -> None:
    """Opened again (from its snapshot, or replayed), exported and imported, the
    expedition holds the kind; a file that declares a kind the procedure has is refused."""
    path = made(home, "crypt", "ose", ("light kind candle 6t dim", "light add candle"), seed=2)
    with Expedition.open(path, snapshot=True) as x:
        assert x.state.table_lights[0].id == "candle"
        assert x.procedure.lights["candle"].label == "Candle"
        document = home / "crypt.json"
        document.write_text(export(x, "json"), encoding="utf-8")
    copied = import_file(document, "copied")
    with Expedition.open(copied, write=False) as x:
        assert x.state.light("candle1") is not None
    data = json.loads(document.read_text(encoding="utf-8"))
    with Expedition.open(path, write=False) as x:
        declared = ev.LightKindDeclared(id="torch", label="Torch", brightness="bright")
        said = problem(State(), x.procedure, declared, {})
        assert said is not None and "already a light" in said
    assert any(e["type"] == "LightKindDeclared" for b in data["batches"] for e in b["events"])


async def test_a_kind_declared_on_the_command_line_shows_in_the_lights() -> None:
    """At 80×24: `:light kind candle 6t dim`, then the lights dialog's add offers Candle,
    and the candle lit shows in the lights pane with its six turns."""
    app = DelveApp(make("candle", ("pc add Ash hp=5",), procedure="ose"))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await ready(pilot)
        await pilot.press(":")
        await pilot.press(*"light kind candle 6t dim", "enter")
        await settled(pilot, lambda: "candle" in table.procedure.lights)
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LightDialog))
        await pilot.press("a")
        await settle(pilot)
        assert "Candle" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        if app.screen is not table:
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press(":")
        await pilot.press(*"light add candle carrier=Ash lit", "enter")
        await settled(pilot, lambda: table.state.light("candle1") is not None)
        shown = str(table.query_one(LightInventory).render())
        assert "candle1" in shown and "6 turns" in shown
