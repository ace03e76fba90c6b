"""Who stands in whose light: a light that lights only some members, the marching order,
each member's own light level (docs/procedures.md 3.12, "Who stands in whose light")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.event_checks import problem
from delvetui.core.log import event_line
from delvetui.core.member_light import member_levels, party_level
from delvetui.core.players import view
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.party_dialog import PartyDialog
from delvetui.ui.panes.party_roster import PartyRoster
from tests.cli_support import delvetui
from tests.test_docs_procedures import COMPLETE
from tests.ui_support import expedition, ready, settled

TEXT = next(text for _, text in COMPLETE if 'id = "marching-order"' in text)
PARTY = ("Ash", "Bo", "Cy", "Dee", "Eve")


@pytest.fixture
def procedure() -> Procedure:
    return load_text(TEXT)


@pytest.fixture
def torchlit(home: Path, procedure: Procedure) -> Iterator[Expedition]:
    """Five members in joining order, a torch lit in Bo's hand."""
    with Expedition.create(home / "torch.delve", procedure, seed=11) as expedition:
        for name in PARTY:
            expedition.execute(f"pc add {name} hp=6 WIS=10")
        expedition.execute("light add torch carrier=Bo lit")
        yield expedition


def _levels(expedition: Expedition) -> dict[str, str]:
    return member_levels(expedition.state, expedition.procedure)


def _rolled(expedition: Expedition) -> list[str]:
    batch = list(expedition.batches())[-1]
    return [e.expression for e in batch.events if isinstance(e, ev.DiceRolled)]


def test_a_torch_lights_its_carrier_and_the_nearest_in_the_marching_order(
    torchlit: Expedition,
) -> None:
    """lights = 2, dim_for = 2: Bo and the one ahead bright, the next two dim, the last dark;
    the party's level is what most stand in, the brighter on a tie."""
    assert _levels(torchlit) == {
        "Ash": "bright",
        "Bo": "bright",
        "Cy": "dim",
        "Dee": "dim",
        "Eve": "dark",
    }
    assert party_level(torchlit.state, torchlit.procedure) == "bright"


def test_the_marching_order_moves_who_stands_in_the_light(torchlit: Expedition) -> None:
    """party order puts the named first; the log says it; undo takes it back."""
    torchlit.execute("party order Eve Ash Bo Cy Dee")
    assert [m.name for m in torchlit.state.party] == ["Eve", "Ash", "Bo", "Cy", "Dee"]
    assert _levels(torchlit) == {
        "Eve": "dim",
        "Ash": "bright",
        "Bo": "bright",
        "Cy": "dim",
        "Dee": "dark",
    }
    batch = list(torchlit.batches())[-1]
    assert [type(e) for e in batch.events] == [ev.MarchingOrderSet]
    said = event_line(batch.events[0], torchlit.procedure, torchlit.state)
    assert said == ("party", "Marching order: Eve, Ash, Bo, Cy, Dee.")
    torchlit.execute("party order Dee")  # the others follow in the order they had
    assert [m.name for m in torchlit.state.party] == ["Dee", "Eve", "Ash", "Bo", "Cy"]
    torchlit.execute("undo")
    assert [m.name for m in torchlit.state.party] == ["Eve", "Ash", "Bo", "Cy", "Dee"]


def test_a_bad_marching_order_is_refused_and_saves_nothing(torchlit: Expedition) -> None:
    before = len(list(torchlit.batches()))
    with pytest.raises(CommandError, match="no party member named 'Fay'"):
        torchlit.execute("party order Fay Ash")
    with pytest.raises(CommandError, match="Ash is named twice"):
        torchlit.execute("party order Ash Bo ash")
    with pytest.raises(CommandError, match="already Ash, Bo, Cy, Dee, Eve"):
        torchlit.execute("party order Ash Bo")
    assert len(list(torchlit.batches())) == before


def test_each_member_rolls_in_their_own_light(torchlit: Expedition) -> None:
    """A member in darkness rolls with the dark level's check_mode; one in dim light with
    the dim level's mode for sight; one in bright light a plain d20."""
    torchlit.execute("do spot by=Eve")
    assert _rolled(torchlit) == ["2d20kl1"]
    torchlit.execute("do spot by=Cy")
    assert _rolled(torchlit) == ["2d20kl1"]
    torchlit.execute("do spot by=Ash")
    assert _rolled(torchlit) == ["d20"]


def test_member_light_levels_picks_the_members_in_the_dark(torchlit: Expedition) -> None:
    torchlit.execute("turn")
    groping = {m.name for m in torchlit.state.party if "groping" in m.conditions}
    assert groping == {"Eve"}
    torchlit.execute("light add candle carrier=Eve lit")  # a dim light of her own
    torchlit.execute("turn")
    assert not any("groping" in m.conditions for m in torchlit.state.party)
    assert _levels(torchlit)["Eve"] == "dim"


def test_the_party_is_in_the_dark_when_most_of_it_is(home: Path, procedure: Procedure) -> None:
    """A candle lights only its carrier: four of five in the dark, so the party cannot
    search (the dark level forbids it)."""
    with Expedition.create(home / "candle.delve", procedure, seed=2) as expedition:
        for name in PARTY:
            expedition.execute(f"pc add {name} hp=6")
        expedition.execute("light add candle carrier=Ash lit")
        assert _levels(expedition)["Ash"] == "dim"
        assert party_level(expedition.state, procedure) == "dark"
        with pytest.raises(CommandError, match="Search is not possible in darkness"):
            expedition.execute("turn search")
        expedition.execute("light add lantern carrier=Cy lit")  # 3 bright, 2 dim
        assert party_level(expedition.state, procedure) == "bright"
        expedition.execute("turn search")


def test_the_players_see_who_stands_outside_the_light(torchlit: Expedition) -> None:
    lines = view(torchlit.state, torchlit.procedure).lines()
    assert "Cy stands in dim light." in lines
    assert "Eve is in darkness." in lines
    assert not any(line.startswith("Ash ") for line in lines)


def test_a_light_without_lights_lights_the_whole_party_as_before(home: Path) -> None:
    """No kind says lights: every member stands in the party's light, and the players'
    screen names no one."""
    procedure = load_text(TEXT.replace("lights = 2 ", "").replace("dim_for = 2 ", ""))
    with Expedition.create(home / "old.delve", procedure, seed=2) as expedition:
        for name in PARTY:
            expedition.execute(f"pc add {name} hp=6")
        expedition.execute("light add torch carrier=Ash lit")
        assert set(_levels(expedition).values()) == {"bright"}


def test_the_loader_checks_lights_dim_for_and_member_light_levels() -> None:
    zero = TEXT.replace("lights = 2 ", "lights = 0 ")
    with pytest.raises(ProcedureError) as raised:
        load_text(zero)
    (problem,) = raised.value.problems
    assert (problem.path, problem.message) == (
        "lights.torch.lights",
        "is 0; it should be 1 to 1,000.",
    )
    assert (
        problem.line
        == zero.splitlines().index("lights = 0      # its carrier and the nearest one") + 1
    )
    text = TEXT.replace("lights = 1 ", "")
    text = text.replace("turns = 12\n", "turns = 12\ndim_for = 1\n")
    text = text.replace('member_light_levels = ["dark"]', 'member_light_levels = ["murky"]')
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    found = {p.path: (p.message, p.line) for p in raised.value.problems}
    assert "give lights = N too" in found["lights.candle.dim_for"][0]
    assert found["actions.explore.effects[0].when.member_light_levels"][0] == (
        "'murky' is not bright, dim or dark."
    )


def test_the_command_line_sets_the_order_and_status_gives_each_members_light(
    home: Path,
) -> None:
    """One scripted session through the real CLI; status --json and the text status."""
    path = home / "torch.toml"
    path.write_text(TEXT, encoding="utf-8")
    made = delvetui(home, "new", "crypt", "--procedure", str(path), "--seed", "3")
    assert made.returncode == 0, made.stderr
    script = "\n".join(
        [
            *(f"pc add {name} hp=6" for name in PARTY),
            "light add torch carrier=Bo lit",
            "party order Eve Ash Bo Cy Dee",
        ]
    )
    done = delvetui(home, "act", "crypt", "-", stdin=script + "\n")
    assert done.returncode == 0, done.stderr
    assert "ok 8 party order Eve Ash Bo Cy Dee" in done.stdout
    data = json.loads(delvetui(home, "status", "crypt", "--json").stdout)
    assert [(m["name"], m["light_level"]) for m in data["party"]] == [
        ("Eve", "dim"),
        ("Ash", "bright"),
        ("Bo", "bright"),
        ("Cy", "dim"),
        ("Dee", "dark"),
    ]
    assert data["light_level"] == "bright"
    text = delvetui(home, "status", "crypt").stdout
    assert "  Dee: 6/6 HP, fresh, in darkness" in text
    assert "  Ash: 6/6 HP, fresh, in bright light" in text


def test_status_json_of_a_procedure_without_lights_has_no_member_light_level(
    home: Path,
) -> None:
    made = delvetui(home, "new", "plain", "--procedure", "delving", "--seed", "3")
    assert made.returncode == 0, made.stderr
    done = delvetui(home, "act", "plain", "-", stdin="pc add Ash hp=6\nparty order Ash\n")
    assert "already Ash" in done.stderr
    data = json.loads(delvetui(home, "status", "plain", "--json").stdout)
    assert "light_level" not in data["party"][0]


async def test_the_party_pane_marks_who_stands_in_dim_light_or_darkness(
    torchlit: Expedition,
) -> None:
    path = torchlit.path
    torchlit.close()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        roster = (await ready(pilot)).query_one(PartyRoster)
        shown = str(roster.render()).splitlines()
        rows = {line.split()[0]: line for line in shown if line and not line.startswith(" ")}
        assert rows["Eve"].endswith(" dark")
        assert rows["Cy"].endswith(" dim") and rows["Dee"].endswith(" dim")
        assert not rows["Ash"].endswith((" dim", " dark"))


async def test_the_party_dialog_moves_a_member_forward_in_the_marching_order(
    torchlit: Expedition,
) -> None:
    """At the table: p, the member, u. Eve steps up beside the torch and out of the dark;
    the party pane follows."""
    path = torchlit.path
    torchlit.close()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        roster = (await ready(pilot)).query_one(PartyRoster)
        await pilot.press("p")
        await settled(pilot, lambda: isinstance(app.screen, PartyDialog))
        await pilot.press("down", "down", "down", "down", "u")  # Eve, one place forward
        await settled(
            pilot,
            lambda: (
                [m.name for m in expedition(app).state.party] == ["Ash", "Bo", "Cy", "Eve", "Dee"]
            ),
        )
        rows = {
            line.split()[0]: line
            for line in str(roster.render()).splitlines()
            if line and not line.startswith(" ")
        }
        assert rows["Dee"].endswith(" dark") and rows["Eve"].endswith(" dim")


def test_an_imported_marching_order_must_name_each_member_once(torchlit: Expedition) -> None:
    """The audit (import) refuses a marching order a command could not have written."""
    state, procedure = torchlit.state, torchlit.procedure
    fine = ev.MarchingOrderSet(names=("Eve", "Dee", "Cy", "Bo", "Ash"))
    assert problem(state, procedure, fine) is None
    for wrong in (("Eve", "Dee", "Cy", "Bo"), ("Eve", "Dee", "Cy", "Bo", "Ash", "Fay")):
        found = problem(state, procedure, ev.MarchingOrderSet(names=wrong))
        assert found is not None and "does not name each member of the party once" in found
