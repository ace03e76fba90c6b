"""`procedures check` catches half-written rules, and a roll typed for a rule skipped this
turn is refused with the reason (issue 11, point 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.errors import CommandError, ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests import cli_support
from tests.cli_support import delvetui
from tests.ui_support import expedition, ready, settled

BASE = """\
id = "checked"
name = "Checked"
source = "none"
summary = "A procedure the checks look at."
default_action = "walk"

[counters.alarm]
label = "Alarm"
max = 10

[lights.torch]
label = "Torch"
turns = 6

[lights.candle]
label = "Candle"
strikes = 3

[actions.walk]
label = "Walk"

[actions.hide]
label = "Hide"
inputs.stealth = { values = ["success", "failure"] }

[actions.rest]
label = "Rest"
kind = "rest"
skip_rolls = ["hazard"]

[rolls.hazard]
label = "Hazard die"
table = "hazard"

[tables.hazard]
label = "Hazard die"
dice = "d6"

[[tables.hazard.rows]]
roll = "1"
label = "Encounter"
text = "Rolled {total} on turn {turn}: an encounter."
effects = [{ do = "encounter" }]

[[tables.hazard.rows]]
roll = "2-6"
label = "Nothing"
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ProcedureError) as caught:
        load_text(text, source="test.toml")
    return [str(problem) for problem in caught.value.problems]


def test_the_base_procedure_is_valid() -> None:
    assert load_text(BASE).tables["hazard"].rows[0].text.startswith("Rolled {total}")


def test_an_unknown_placeholder_in_a_row_text_is_refused_with_its_key_and_line() -> None:
    text = BASE.replace("on turn {turn}", "on turn {tunr}")
    line = text.splitlines().index('text = "Rolled {total} on turn {tunr}: an encounter."') + 1
    assert problems(text) == [
        f"line {line}: tables.hazard.rows[0].text: '{{tunr}}' is not a placeholder (use "
        "{dc}, {margin}, {name}, {total}, {turn}). Did you mean 'turn'?"
    ]


def test_a_row_text_fills_in_its_placeholders_in_the_log(home: Path) -> None:
    procedure = load_text(BASE)
    with Expedition.create(home / "rows.delve", procedure, seed=1) as opened:
        opened.execute("turn hazard=1")
        opened.execute("turn hazard=1")
        texts = [
            event.text
            for batch in opened.batches()
            for event in batch.events
            if isinstance(event, ev.ResultRead)
        ]
    assert texts == ["Rolled 1 on turn 1: an encounter.", "Rolled 1 on turn 2: an encounter."]


def test_a_chance_roll_with_no_on_hit_is_reported() -> None:
    text = BASE + '\n[rolls.lurk]\nlabel = "Lurker"\ndice = "1-in-6"\ntext = "A lurker."\n'
    line = text.splitlines().index("[rolls.lurk]") + 1
    assert problems(text) == [
        f"line {line}: rolls.lurk: rolls 1-in-6 for a hit but has no on_hit: say what a hit "
        'does, e.g. on_hit = [{ do = "encounter" }] (or [{ do = "nothing" }]).'
    ]


def test_a_roll_against_a_counter_with_no_on_hit_is_reported() -> None:
    text = BASE + '\n[rolls.check]\nlabel = "Check"\ndice = "d10"\nhit_at_most = "alarm"\n'
    assert any("rolls.check: rolls d10 for a hit but has no on_hit" in p for p in problems(text))


def test_a_strike_on_a_light_kind_with_no_strikes_is_reported() -> None:
    text = BASE.replace(
        'label = "Walk"\n',
        'label = "Walk"\neffects = [{ do = "strike", kinds = ["candle", "torch"] }]\n',
    )
    line = text.splitlines().index('label = "Walk"') + 2
    assert problems(text) == [
        f"line {line}: actions.walk.effects[0].kinds: strikes the light kind 'torch', which "
        "has no strikes: give [lights.torch] strikes = N (it goes out on the Nth), or it never "
        "goes out."
    ]


def test_a_strike_on_every_light_when_none_has_strikes_is_reported() -> None:
    text = BASE.replace("strikes = 3\n", "").replace(
        'label = "Walk"\n', 'label = "Walk"\neffects = [{ do = "strike" }]\n'
    )
    assert any(
        "actions.walk.effects[0]: strikes every light, but no light kind has strikes" in p
        for p in problems(text)
    )
    # With a kind that has strikes, a strike on every light is sound.
    load_text(BASE.replace('label = "Walk"\n', 'label = "Walk"\neffects = [{ do = "strike" }]\n'))


def test_when_inputs_naming_an_input_no_action_declares_is_reported() -> None:
    text = BASE.replace(
        'label = "Walk"\n',
        'label = "Walk"\neffects = [{ do = "log", text = "Seen.", '
        'when = { inputs = { stelth = "failure" } } }]\n',
    )
    line = text.splitlines().index('label = "Walk"') + 2
    assert problems(text) == [
        f"line {line}: actions.walk.effects[0].when.inputs.stelth: names the input 'stelth', "
        "which no action or activity declares (stealth); declare it under "
        "[actions.ID.inputs.stelth]. Did you mean 'stealth'?"
    ]
    # A declared input, and the inputs any turn takes (by=, speed=...), are fine.
    for key in ("stealth", "speed"):
        load_text(text.replace("stelth", key))


def test_a_roll_rule_only_naming_an_undeclared_input_is_reported() -> None:
    text = BASE.replace(
        'table = "hazard"\n', 'table = "hazard"\nonly = { inputs = { noise = "loud" } }\n', 1
    )
    assert any(
        "rolls.hazard.only.inputs.noise: names the input 'noise'" in p for p in problems(text)
    )


EVERY = BASE.replace('table = "hazard"\n', 'table = "hazard"\nevery = 2\n', 1)
ONLY = BASE.replace(
    'table = "hazard"\n', 'table = "hazard"\nonly = { counter_at_least = { alarm = 5 } }\n', 1
)


@pytest.mark.parametrize(
    ("text", "command", "message"),
    [
        (
            EVERY,
            "turn hazard=1",
            "Hazard die is not rolled this turn: it is made every 2 turns, next on turn 2; "
            "leave out hazard= (nothing was saved).",
        ),
        (
            ONLY,
            "turn hazard=1",
            "Hazard die is not rolled this turn: it is made only when the alarm is at least 5 "
            "(it is 0); leave out hazard= (nothing was saved).",
        ),
        (
            BASE,
            "turn rest hazard=1",
            "Hazard die is not rolled this turn: Rest skips it; leave out hazard= "
            "(nothing was saved).",
        ),
    ],
    ids=["every", "only", "skip_rolls"],
)
def test_a_roll_typed_for_a_rule_skipped_this_turn_is_refused_with_why(
    home: Path, text: str, command: str, message: str
) -> None:
    with Expedition.create(home / "skip.delve", load_text(text), seed=1) as opened:
        before = (opened.batch_count, opened.event_count)
        with pytest.raises(CommandError) as refused:
            opened.execute(command)
        assert str(refused.value) == message
        assert (opened.batch_count, opened.event_count) == before
        # Without the typed roll the turn is taken, and the rule is not made.
        opened.execute(command.replace(" hazard=1", ""))
        assert opened.state.turn == 1
        assert opened.state.last_hazard is None


def test_every_two_turns_takes_the_typed_roll_when_it_is_due(home: Path) -> None:
    with Expedition.create(home / "due.delve", load_text(EVERY), seed=1) as opened:
        opened.execute("turn")
        opened.execute("turn hazard=1")
        assert opened.state.last_hazard is not None
        assert opened.state.last_hazard.roll == 1


def test_act_says_the_rule_is_skipped_and_writes_nothing(home: Path, tmp_path: Path) -> None:
    source = tmp_path / "every.toml"
    source.write_text(EVERY, encoding="utf-8")
    cli_support.made(home, "skip", str(source), seed=1)
    refused = delvetui(home, "act", "skip", "turn", "hazard=4")
    assert refused.returncode == 2
    assert "Hazard die is not rolled this turn: it is made every 2 turns" in refused.stderr
    status = delvetui(home, "status", "skip", "--json")
    assert '"turn": 0' in status.stdout


async def test_the_table_says_the_rule_is_skipped_and_writes_nothing(home: Path) -> None:
    from delvetui.ui.app import DelveApp
    from delvetui.ui.table.command_line import CommandLine

    made = home / "table.delve"
    Expedition.create(made, load_text(EVERY), seed=1).close()
    app = DelveApp(made)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await ready(pilot)
        line = table.query_one(CommandLine)
        before = (expedition(app).batch_count, expedition(app).event_count)
        await pilot.press("colon", *"turn hazard=2", "enter")
        await settled(pilot, lambda: line.has_class("-error"))
        assert "Hazard die is not rolled this turn: it is made every 2 turns" in line.message
        assert (expedition(app).batch_count, expedition(app).event_count) == before
