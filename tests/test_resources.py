"""Resources (rations, oil), member tests in ``when``, and refuelling, as a game master checks them.

A procedure counts rations per member and oil for the party; effects eat and find them,
``pc`` and ``party`` commands correct them, ``light refuel`` takes a flask and renews the
lantern. Each change is saved, shown (party pane, ``status --json``) and told in the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.log import event_line, lines
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.panes.party_roster import PartyRoster
from tests.cli_support import delvetui
from tests.conftest import reopened, run
from tests.ui_support import ready

LARDER = """\
id = "lean-larder"
name = "The lean larder"
source = "the resource tests"
summary = "Rations eaten each turn, a lantern that burns oil, the dark for those without one."
default_action = "march"

[party]
abilities = ["STR", "CON"]

[tracks.hunger]
label = "Hunger"

[resources.rations]
label = "Rations"
start = 2
max = 7

[resources.oil]
label = "Oil flasks"
per = "party"
start = 1

[lights.lantern]
label = "Lantern"
turns = 6
refuel_hours = 1
refuel_label = "a new flask of oil"
refuel_resource = "oil"
strikes = 3

[lights.torch]
label = "Torch"
usage_die = 6
refuel_resource = "pitch"

[resources.pitch]
label = "Pitch"

[actions.march]
label = "March"
kind = "move"
effects = [
  { do = "damage", amount = 1, when = { member_resource_at_most = { rations = 0 } } },
  { do = "consume", resource = "rations", text = "a ration eaten", on_short = [
    { do = "track", track = "hunger", add = 1, target = "by" },
  ] },
  { do = "condition", condition = "in darkness", when = { member_carries_light = false } },
  { do = "condition", remove = "in darkness", when = { member_carries_light = true } },
]

[actions.forage]
label = "Forage"
effects = [{ do = "supply", resource = "rations", dice = "d3", target = "by" }]

[actions.camp]
label = "Camp"
kind = "rest"

[[actions.camp.effects]]
do = "consume"
resource = "oil"
target = "party"
on_short = [{ do = "log", text = "No oil for the camp lamp." }]

[[actions.camp.effects]]
do = "heal"
amount = 1
when = { member_ability_at_least = { CON = 13 } }

[[actions.camp.effects]]
do = "heal"
amount = 2
when = { member_modifier_at_most = { CON = -1 } }

[[actions.camp.effects]]
do = "condition"
condition = "famished"
when = { member_track_at_least = { hunger = 2 } }

[[actions.camp.effects]]
do = "condition"
remove = "lost"
when = { member_conditions = ["lost"], member_not_conditions = ["blind"] }

[actions.share]
label = "Share out"
effects = [{ do = "consume", resource = "oil", amount = 1, on_short = [
  { do = "condition", condition = "cold", target = "by" },
] }]
"""


@pytest.fixture
def larder() -> Procedure:
    return load_text(LARDER)


@pytest.fixture
def opened(home: Path, larder: Procedure) -> Iterator[Expedition]:
    expedition = Expedition.create(home / "larder.delve", larder, seed=5)
    run(expedition, "pc add Ash hp=8 STR=12 CON=14", "pc add Bryn hp=6 CON=7")
    yield expedition
    expedition.close()


def log(expedition: Expedition) -> list[str]:
    """The turn log's lines, as the table and the exports tell them."""
    return [line.text for line in lines(expedition.batches(), expedition.procedure)]


def rations(expedition: Expedition, name: str) -> int:
    found = expedition.state.member(name)
    assert found is not None
    return found.resource("rations")


# Resources: start, consume, supply ----------------------------------------------------------


def test_members_and_the_party_start_with_the_procedures_stock(opened: Expedition) -> None:
    assert rations(opened, "Ash") == 2 and rations(opened, "Bryn") == 2
    assert opened.state.resource("oil") == 1
    assert opened.state.resource("pitch") == 0


def test_eat_a_ration_or_go_hungry_is_one_effect(opened: Expedition) -> None:
    run(opened, "pc Bryn -1 rations", "turn march")
    assert (rations(opened, "Ash"), rations(opened, "Bryn")) == (1, 0)
    batch = opened.execute("turn march")
    ash, bryn = opened.state.member("Ash"), opened.state.member("Bryn")
    assert ash is not None and bryn is not None
    # Ash ate the last ration; Bryn had none: only Bryn goes hungry.
    assert (ash.resource("rations"), ash.track("hunger")) == (0, 0)
    assert bryn.track("hunger") == 1
    shorts = [e for e in batch.events if isinstance(e, ev.ResourceShort)]
    assert [(e.name, e.resource, e.wanted) for e in shorts] == [("Bryn", "rations", 1)]


def test_each_member_with_no_ration_left_takes_1_damage(opened: Expedition) -> None:
    run(opened, "pc Bryn rations=0", "turn march")
    ash, bryn = opened.state.member("Ash"), opened.state.member("Bryn")
    assert ash is not None and bryn is not None
    assert (ash.hp, bryn.hp) == (8, 5)  # only Bryn, who had none when the turn began
    lines = log(opened)
    assert "Bryn loses 1 HP (March); now 5 HP." in lines
    assert not any(line.startswith("Ash loses") for line in lines)


def test_a_party_resource_is_used_once_or_once_per_member(opened: Expedition) -> None:
    run(opened, "turn camp")
    assert opened.state.resource("oil") == 0
    run(opened, "turn camp")  # none left: the party's on_short
    assert "No oil for the camp lamp." in log(opened)
    run(opened, "party +1 oil", "turn share")
    # target each on a party stock: one flask a member; Ash took it, Bryn is cold.
    bryn = opened.state.member("Bryn")
    ash = opened.state.member("Ash")
    assert bryn is not None and ash is not None
    assert opened.state.resource("oil") == 0
    assert "cold" in bryn.conditions and "cold" not in ash.conditions


def test_supply_rolls_or_takes_the_typed_result_up_to_the_max(opened: Expedition) -> None:
    run(opened, "turn forage by=Ash supply.Ash=3")
    assert rations(opened, "Ash") == 5
    run(opened, "turn forage by=Ash supply.Ash=3")
    assert rations(opened, "Ash") == 7  # the max
    run(opened, "turn forage by=Ash supply.Ash=2")
    assert rations(opened, "Ash") == 7


# Member tests ---------------------------------------------------------------------------------


def test_a_member_with_a_light_of_their_own_is_not_in_darkness(opened: Expedition) -> None:
    run(opened, "light add lantern carrier=Ash lit", "turn march")
    ash, bryn = opened.state.member("Ash"), opened.state.member("Bryn")
    assert ash is not None and bryn is not None
    assert "in darkness" not in ash.conditions and "in darkness" in bryn.conditions
    run(opened, "light give lantern1 Bryn", "turn march")
    ash, bryn = opened.state.member("Ash"), opened.state.member("Bryn")
    assert ash is not None and bryn is not None
    assert "in darkness" in ash.conditions and "in darkness" not in bryn.conditions


def test_member_tests_of_abilities_modifiers_tracks_and_conditions(opened: Expedition) -> None:
    run(opened, "pc Ash hp=4", "pc Bryn hp=2 +blind +lost", "pc Ash +lost")
    run(opened, "turn camp")
    ash, bryn = opened.state.member("Ash"), opened.state.member("Bryn")
    assert ash is not None and bryn is not None
    assert ash.hp == 5  # CON 14: at least 13
    assert bryn.hp == 4  # CON 7: modifier -2, at most -1
    assert "lost" not in ash.conditions  # not blind: it passes
    assert "lost" in bryn.conditions  # blind: member_not_conditions fails
    assert "famished" not in bryn.conditions
    run(opened, "pc Bryn rations=0", "turn march", "turn march", "turn camp")
    bryn = opened.state.member("Bryn")
    assert bryn is not None and bryn.track("hunger") == 2 and "famished" in bryn.conditions


def test_member_tests_never_hold_without_a_member(home: Path) -> None:
    text = LARDER.replace(
        'label = "Share out"\n',
        'label = "Share out"\nrolls = ["night"]\n',
    ) + (
        '\n[rolls.night]\nlabel = "Night"\nwhen = "action"\n'
        'on_hit = [{ do = "log", text = "never", when = { member_conditions = ["cold"] } }]\n'
    )
    with Expedition.create(home / "n.delve", load_text(text), seed=1) as expedition:
        run(expedition, "pc add Ash hp=8", "turn share", "turn share")
        ash = expedition.state.member("Ash")
        assert ash is not None and "cold" in ash.conditions
        assert "never" not in log(expedition)  # a log line is for no member


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (
            ('label = "Camp"\n', 'label = "Camp"\nrolls = ["night"]\n'),
            "rolls.night.only",
        ),
        (
            (
                "amount = 1\nwhen = { member_ability",
                'amount = 1\ntarget = "party"\nwhen = { member_ability',
            ),
            "actions.camp.effects[1].target",
        ),
    ],
)
def test_a_member_test_that_could_never_hold_is_refused(change: tuple[str, str], path: str) -> None:
    text = LARDER.replace(*change) + (
        '\n[rolls.night]\nlabel = "Night"\n'
        "only = { member_resource_at_most = { rations = 9 } }\n"
        'on_hit = [{ do = "log", text = "night" }]\n'
    )
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    found = [p for p in raised.value.problems if p.path == path]
    assert found and "never" in found[0].message and found[0].line is not None


# Commands -------------------------------------------------------------------------------------


def test_pc_and_party_commands_change_resources(opened: Expedition) -> None:
    run(opened, "pc Ash +2 rations", "pc Bryn rations=5", "party +3 oil", "pc Ash -1 rations")
    assert (rations(opened, "Ash"), rations(opened, "Bryn")) == (3, 5)
    assert opened.state.resource("oil") == 4
    run(opened, "pc Ash rations=+2 STR=15", "party oil=1")
    ash = opened.state.member("Ash")
    assert ash is not None and ash.resource("rations") == 5 and ash.ability("STR") == 15
    assert opened.state.resource("oil") == 1
    lines = log(opened)
    assert "The game master sets Ash's rations to 4 (+2)." in lines
    assert "The game master sets the party's oil flasks to 4 (+3)." in lines


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("pc Ash +2 arrows", "'arrows' is not a resource (rations, oil, pitch)."),
        ("party +5 rations", "Rations are kept by each member; write pc NAME +1 rations."),
        ("pc Ash +1 oil", "Oil flasks are kept by the party as one stock; write party +1 oil."),
        ("pc Ash -5 rations pc", "'pc' is not a change"),
        ("party +2", "Say what +2 counts, e.g. +2 rations."),
        ("party", "Say what changes, e.g. party +5 rations."),
        ("pc Ash rations=2", "Nothing changed: Ash has 2 rations already. Nothing was saved."),
        ("party oil=lots", "oil=lots is not a whole number; write digits, e.g. oil=1."),
    ],
)
def test_a_bad_resource_command_says_why_and_saves_nothing(
    opened: Expedition, command: str, said: str
) -> None:
    before = opened.event_count
    with pytest.raises(CommandError) as raised:
        opened.execute(command)
    assert said in raised.value.message
    assert opened.event_count == before


# Refuelling -----------------------------------------------------------------------------------


def test_refuelling_takes_a_flask_and_renews_time_strikes(opened: Expedition) -> None:
    run(opened, "light add lantern carrier=Ash lit", "turn march")
    opened.execute("light refuel lantern1")
    light = opened.state.light("lantern1")
    assert light is not None and light.minutes == 60 and light.strikes == 0
    assert opened.state.resource("oil") == 0
    with pytest.raises(CommandError) as raised:
        opened.execute("light refuel lantern1")
    assert raised.value.message == (
        "The party has no oil flasks left to refuel lantern1; add some first (party +1 oil)."
    )


def test_refuelling_resets_a_struck_light(home: Path) -> None:
    text = (
        LARDER.replace(
            'label = "Share out"\n',
            'label = "Share out"\nrolls = ["gust"]\n',
        )
        + '\n[rolls.gust]\nlabel = "Gust"\nwhen = "action"\non_hit = [{ do = "strike" }]\n'
    )
    with Expedition.create(home / "s.delve", load_text(text), seed=1) as expedition:
        run(expedition, "pc add Ash hp=8", "light add lantern carrier=Ash lit")
        run(expedition, "turn share", "turn share", "party +1 oil")
        light = expedition.state.light("lantern1")
        assert light is not None and light.strikes == 2
        run(expedition, "light refuel lantern1")
        light = expedition.state.light("lantern1")
        assert light is not None and light.strikes == 0 and light.lit
        assert "lantern1 is renewed (a new flask of oil): usage die none, no strikes." in log(
            expedition
        )


def test_refuelling_from_the_carrier_renews_the_usage_die(home: Path) -> None:
    text = LARDER.replace('[resources.pitch]\nlabel = "Pitch"\n', "")
    text = text.replace(
        '[resources.oil]\nlabel = "Oil flasks"\nper = "party"\nstart = 1\n',
        '[resources.oil]\nlabel = "Oil flasks"\nper = "party"\nstart = 1\n\n'
        '[resources.pitch]\nlabel = "Pitch"\nstart = 1\n',
    )
    text = text.replace('label = "Forage"\n', 'label = "Forage"\neffects_note = 1\n').replace(
        "effects_note = 1\n", ""
    )
    text = text.replace('label = "Share out"\n', 'label = "Share out"\nrolls = ["burn"]\n')
    text += '\n[rolls.burn]\nlabel = "Burn"\nwhen = "action"\non_hit = [{ do = "usage-die" }]\n'
    with Expedition.create(home / "u.delve", load_text(text), seed=1) as expedition:
        run(expedition, "pc add Ash hp=8", "light add torch carrier=Ash lit")
        run(expedition, "turn share usage.torch1=1")
        light = expedition.state.light("torch1")
        assert light is not None and light.usage_die == 4
        run(expedition, "light refuel torch1")
        ash = expedition.state.member("Ash")
        light = expedition.state.light("torch1")
        assert light is not None and light.usage_die == 6
        assert ash is not None and ash.resource("pitch") == 0
        with pytest.raises(CommandError) as raised:
            expedition.execute("light refuel torch1")
        assert "Ash has no pitch left to refuel torch1" in raised.value.message
        run(expedition, "light give torch1 nobody")
        with pytest.raises(CommandError) as raised:
            expedition.execute("light refuel torch1")
        assert "torch1 has no carrier to take pitch from" in raised.value.message


# What the game master sees ------------------------------------------------------------------


def test_replay_gives_the_same_resources(opened: Expedition) -> None:
    run(opened, "pc Bryn rations=0", "turn march", "party +2 oil", "turn forage by=Ash")
    state = opened.state
    again = reopened(opened)
    try:
        assert again.state == state
    finally:
        again.close()


def test_a_snapshot_keeps_the_resources(opened: Expedition) -> None:
    run(opened, "pc Bryn rations=5", "party +2 oil", "turn march")
    state = opened.state
    path = opened.path
    opened.close()  # saves a snapshot
    with Expedition.open(path, snapshot=True) as resumed:
        assert resumed.snapshot_batch > 0  # resumed from the snapshot, not replayed
        assert resumed.state == state
        assert resumed.state.resource("oil") == 3


def test_status_json_has_resources_and_the_exports_tell_every_change(
    opened: Expedition, home: Path
) -> None:
    run(opened, "turn march", "party +2 oil")
    path = opened.path
    opened.close()
    status = delvetui(home, "status", str(path), "--json")
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    assert data["resources"] == {
        "party": {"oil": 3},
        "members": {"Ash": {"rations": 1, "pitch": 0}, "Bryn": {"rations": 1, "pitch": 0}},
    }
    said = delvetui(home, "status", str(path))
    assert said.returncode == 0, said.stderr
    assert "  Ash: 8/8 HP, fresh, in darkness, Hunger 0, rations 1, pitch 0" in said.stdout
    assert "  oil: 3" in said.stdout
    with Expedition.open(path) as expedition:
        for fmt in ("md", "txt"):
            text = export(expedition, fmt)
            assert "Ash: Rations -1 → 1 (a ration eaten)." in text
            assert "The game master sets the party's oil flasks to 3 (+2)." in text
            # The summary: each member's count, and the party's stock from start to end.
            assert "Ash: 8/8 HP, in darkness, rations 1, pitch 0" in text
            assert "1 → 3" in text


def test_an_exported_expedition_with_resources_imports_again(
    opened: Expedition, home: Path
) -> None:
    run(opened, "turn march", "party +2 oil", "light add lantern carrier=Ash lit")
    run(opened, "light refuel lantern1")
    path = opened.path
    state = opened.state
    opened.close()
    exported = home / "larder.json"
    done = delvetui(home, "export", str(path), "--format", "json", "-o", str(exported))
    assert done.returncode == 0, done.stderr
    back = delvetui(home, "import", str(exported), "again")
    assert back.returncode == 0, back.stderr
    with Expedition.open(home / "again.delve") as expedition:
        assert expedition.state.party == state.party
        assert expedition.state.resources == state.resources


def test_the_log_tells_a_shortage(larder: Procedure) -> None:
    from delvetui.core.state import State

    short = ev.ResourceShort(name="", resource="oil", wanted=1, reason="camp")
    assert event_line(short, larder, State()) == (
        "party",
        "The party has no oil flasks left (camp).",
    )


async def test_the_party_pane_shows_each_members_and_the_partys_resources(
    opened: Expedition,
) -> None:
    run(opened, "pc Bryn +3 rations", "party +1 oil")
    path = opened.path
    opened.close()
    app = DelveApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        roster = (await ready(pilot)).query_one(PartyRoster)
        shown = str(roster.render())
        assert "Rations 2 · Pitch 0" in shown and "Rations 5 · Pitch 0" in shown
        assert "Party: Oil flasks 2" in shown


# The loader -------------------------------------------------------------------------------------


def test_the_loader_names_every_problem_with_resources_and_member_tests() -> None:
    text = LARDER.replace("max = 7", "max = 1").replace(
        "member_resource_at_most = { rations = 0 }", "member_resource_at_most = { oil = 0 }"
    )
    text = text.replace('refuel_resource = "oil"', 'refuel_resource = "oill"')
    text = text.replace(
        "member_ability_at_least = { CON = 13 }", "member_ability_at_least = { CHA = 13 }"
    )
    text = text.replace(
        "member_track_at_least = { hunger = 2 }", "member_track_at_least = { thirst = 2 }"
    )
    text = text.replace('resource = "rations", dice', 'resource = "ration", dice')
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    found = {(p.path, p.message) for p in raised.value.problems}
    lines = {p.path: p.line for p in raised.value.problems}
    assert ("resources.rations.max", "is below start (2).") in found
    assert (
        "actions.march.effects[0].when.member_resource_at_most",
        "'oil' is the party's stock; test it with resource_at_most instead.",
    ) in found
    assert any(path == "lights.lantern.refuel_resource" for path, _ in found)
    assert any(
        path == "actions.camp.effects[1].when.member_ability_at_least" and "'CHA'" in message
        for path, message in found
    )
    assert any(path == "actions.camp.effects[3].when.member_track_at_least" for path, _ in found)
    assert any(path == "actions.forage.effects[0].resource" for path, _ in found)
    assert lines["resources.rations.max"] == LARDER.splitlines().index("max = 7") + 1


def test_the_command_line_completes_resources(opened: Expedition, larder: Procedure) -> None:
    from delvetui.core.commands.completion import completions

    state = opened.state
    assert completions("party ", state, larder) == ["party order", "party oil="]
    assert completions("pc Ash ra", state, larder) == ["pc Ash rations="]
    assert "pc Ash pitch=" in completions("pc Ash ", state, larder)


def test_procedures_check_lists_every_resource_problem_with_its_line(
    home: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        LARDER.replace("max = 7", "max = 1").replace(
            'refuel_resource = "oil"', 'refuel_resource = "oill"'
        ),
        encoding="utf-8",
    )
    done = delvetui(home, "procedures", "check", str(bad))
    assert done.returncode == 2
    max_line = LARDER.splitlines().index("max = 7") + 1
    assert f"line {max_line}: resources.rations.max: is below start (2)." in done.stderr
    assert "lights.lantern.refuel_resource: names the resource 'oill'" in done.stderr


def test_moving_to_a_procedure_that_counts_resources_gives_their_start(home: Path) -> None:
    """A GM adds rations to their procedure mid-campaign: each member starts with them."""
    plain = LARDER.replace('refuel_resource = "oil"\n', "").replace(
        'refuel_resource = "pitch"\n', ""
    )
    for section in ("rations", "oil", "pitch"):
        start = plain.index(f"[resources.{section}]")
        plain = plain[:start] + plain[plain.index("\n\n", start) + 2 :]
    plain = plain.replace("[actions.march]", "[actions.march]\n").split("[actions.march]")[0]
    plain += '[actions.march]\nlabel = "March"\n'
    with Expedition.create(home / "m.delve", load_text(plain), seed=1) as expedition:
        run(expedition, "pc add Ash hp=8", "pc add Bryn hp=6", "turn march")
        batch = expedition.change_procedure(load_text(LARDER))
        assert [type(e).__name__ for e in batch.events] == [
            "ProcedureChanged",
            "ResourceChanged",  # Ash's rations
            "ResourceChanged",  # Bryn's
            "ResourceChanged",  # the party's oil
        ]
        state = expedition.state
        assert [m.resource("rations") for m in state.party] == [2, 2]
        assert state.resource("oil") == 1
        run(expedition, "turn march")
        assert [m.resource("rations") for m in expedition.state.party] == [1, 1]
        path, state = expedition.path, expedition.state
    with Expedition.open(path) as again:
        assert again.state == state
    # A file handed over holds the same: the import's audit accepts the start values.
    exported = home / "moved.json"
    done = delvetui(home, "export", str(path), "--format", "json", "-o", str(exported))
    assert done.returncode == 0, done.stderr
    back = delvetui(home, "import", str(exported), "moved-again")
    assert back.returncode == 0, back.stderr
    with Expedition.open(home / "moved-again.delve") as imported:
        assert imported.state.party == state.party
