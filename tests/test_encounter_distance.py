"""How far away an encounter begins: said by the procedure, rolled, or typed by the GM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from delvetui.core.log import batch_lines
from delvetui.core.players import view
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export, import_file
from delvetui.export.json_format import ImportRefused
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.ui.players.app import players_text
from tests import cli_support
from tests.cli_support import delvetui, status
from tests.conftest import Factory, reopened, run

#: Delving, but its encounters begin "2d6 × 10" of its unit away, as many games roll it.
ROLLED = (
    find("delving")
    .text.replace(
        'text = "The GM determines whether the party is surprised.", ',
        'text = "The GM determines whether the party is surprised.", distance_dice = "2d6", '
        "distance_times = 10, ",
    )
    .replace('id = "delving"', 'id = "delving-distance"')
)


def told(made: Expedition, command: str) -> list[str]:
    before = made.state
    batch = made.execute(command)
    return [line.text for line in batch_lines(batch, made.procedure, before)]


def test_the_gm_says_how_far_and_the_next_turn_forgets_it(expedition: Factory) -> None:
    made = expedition("delving")
    run(made, "pc add Ash hp=6", "light add torch carrier=Ash lit")
    lines = told(made, "turn crawl hazard=1 creature=ghouls distance=40ft")
    assert any(
        line.startswith("Encounter with ghouls!") and line.endswith("Distance: 40ft.")
        for line in lines
    )
    assert made.state.encounter_distance == "40ft"
    again = reopened(made)
    assert again.state.encounter_distance == "40ft"
    again.execute("turn crawl hazard=6")
    assert again.state.encounter is None and again.state.encounter_distance == ""


def test_a_turn_without_an_encounter_keeps_no_distance(expedition: Factory) -> None:
    made = expedition("delving")
    before = made.event_count
    with pytest.raises(CommandError, match="No encounter began, so distance="):
        made.execute("turn crawl hazard=6 distance=40ft")
    assert made.event_count == before
    made.execute("turn crawl hazard=6")
    assert made.state.encounter_distance == ""


def test_dungeon_turn_monsters_appear_far_away(expedition: Factory) -> None:
    made = expedition("dungeon-turn")
    run(made, "pc add Bo hp=8", "light add torch lit")
    lines = told(made, "turn explore hazard=1 disposition=7")
    assert any(line.endswith("moving toward the party. Distance: far.") for line in lines)
    # Its players see the monster coming, in their own words, and how far away it is.
    lines = view(made.state, made.procedure).lines()
    assert lines[-2:] == ["Encounter: Far off, something comes.", "Distance: far"]


def test_rolled_distance_is_dice_times_the_unit_and_can_be_typed(home: Path) -> None:
    procedure = load_text(ROLLED)
    with Expedition.create(home / "rolled.delve", procedure, seed=3) as made:
        run(made, "pc add Ash hp=6", "light add torch lit")
        made.execute("turn crawl hazard=1 distance=7")
        unit = procedure.movement.unit  # Delving measures in metres
        assert made.state.encounter_distance == f"70 {unit}"
        made.execute("turn crawl hazard=1")
        rolled = made.state.encounter_distance
        number, said = rolled.split()
        assert said == unit and int(number) % 10 == 0 and 20 <= int(number) <= 120
        # The roll is kept like every other: replay gives the same distance.
        assert reopened(made).state.encounter_distance == rolled


def test_a_typed_distance_off_the_dice_is_refused_and_saves_nothing(home: Path) -> None:
    with Expedition.create(home / "rolled.delve", load_text(ROLLED), seed=3) as made:
        run(made, "pc add Ash hp=6", "light add torch lit")
        events = made.event_count
        with pytest.raises(CommandError, match="2d6"):
            made.execute("turn crawl hazard=1 distance=13")
        assert made.event_count == events


def test_bad_distance_keys_are_reported_with_key_and_line() -> None:
    for old, new, key in (
        ('distance_dice = "2d6"', 'distance_dice = "2q6"', "distance_dice"),
        ("distance_times = 10", "distance_times = 0", "distance_times: is 0; it should be 1"),
    ):
        text = ROLLED.replace(old, new)
        with pytest.raises(ProcedureError) as caught:
            load_text(text)
        problems = str(caught.value)
        assert key in problems
        # It names the line of the effects list the bad effect is written in.
        lines = text.splitlines()
        at = next(n for n, line in enumerate(lines, 1) if new in line)
        listed = max(n for n, line in enumerate(lines[:at], 1) if line.startswith("effects = ["))
        assert problems.count(f"line {listed}:") == 1


def test_the_players_see_the_distance_once_the_encounter_is_shown(expedition: Factory) -> None:
    made = expedition("delving")
    run(made, "pc add Ash hp=6", "light add torch lit")
    made.execute("turn crawl hazard=1 creature=ghouls distance=40ft")
    # Delving's players see neither the encounter nor its distance without the GM's word.
    assert not any("40ft" in line for line in view(made.state, made.procedure).lines())
    made.execute("reveal encounter")
    assert view(made.state, made.procedure).lines()[-2:] == ["Encounter: ghouls", "Distance: 40ft"]


def test_players_may_see_the_distance_before_what_comes(home: Path) -> None:
    text = ROLLED.replace("[players]\n", "[players]\ndistance = true\n", 1)
    with Expedition.create(home / "seen.delve", load_text(text), seed=3) as made:
        run(made, "pc add Ash hp=6", "light add torch lit", "turn crawl hazard=1 distance=5")
        lines = view(made.state, made.procedure).lines()
        assert "Something approaches, 50 m away." in lines
        assert not any(line.startswith("Encounter") for line in lines)


def test_the_exports_and_the_cli_tell_the_distance(home: Path) -> None:
    cli_support.made(home, "crypt", "delving", ["pc add Ash hp=6", "light add torch lit"])
    done = delvetui(home, "act", "crypt", "turn", "crawl", "hazard=1", "distance=60ft")
    assert done.returncode == 0, done.stderr
    assert "Distance: 60ft." in done.stdout
    assert status(home, "crypt")["turn"] == 1
    story = delvetui(home, "export", "crypt", "--format", "md")
    assert "Distance: 60ft." in story.stdout and "(60ft)" in story.stdout


def test_the_players_screen_prints_the_distance(expedition: Factory) -> None:
    made = expedition("dungeon-turn")
    run(made, "pc add Bo hp=8", "light add torch lit", "turn explore hazard=1 disposition=7")
    assert "Distance: far" in players_text(view(made.state, made.procedure)).plain


# After the dice: `encounter creature=... distance=...` ------------------------------------


def test_the_gm_names_the_encounter_after_the_dice(expedition: Factory) -> None:
    made = expedition("delving")
    run(made, "pc add Ash hp=6", "light add torch lit", "turn crawl hazard=1", "reveal encounter")
    assert made.state.encounter_distance == ""
    lines = told(made, "encounter creature=ghouls distance=40ft")
    assert lines == ["The encounter: it is ghouls and it is 40ft away."]
    assert view(made.state, made.procedure).lines()[-2:] == ["Encounter: ghouls", "Distance: 40ft"]
    made.execute('encounter distance="20 m, closing"')
    assert made.state.encounter == "ghouls" and made.state.encounter_distance == "20 m, closing"
    again = reopened(made)
    assert again.state.encounter_distance == "20 m, closing"
    again.execute("undo")
    assert again.state.encounter_distance == "40ft"


def test_describing_no_encounter_is_refused_and_writes_nothing(expedition: Factory) -> None:
    made = expedition("delving")
    run(made, "pc add Ash hp=6", "light add torch lit", "turn crawl hazard=6")
    events = made.event_count
    with pytest.raises(CommandError, match="There is no encounter this turn to describe"):
        made.execute("encounter distance=40ft")
    with pytest.raises(CommandError, match="Say what it is"):
        made.execute("encounter")
    with pytest.raises(CommandError, match="needs a key"):
        made.execute("encounter ghouls")
    assert made.event_count == events


def _exported(made: Expedition, home: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(export(made, "json"))
    made.close()
    made.path.unlink()
    return data


def _described(data: dict[str, Any]) -> dict[str, Any]:
    return next(
        event
        for batch in data["batches"]
        for event in batch["events"]
        if event["type"] == "EncounterDescribed"
    )


def test_a_described_encounter_imports_and_an_unsound_one_is_refused(
    expedition: Factory, home: Path
) -> None:
    made = expedition("delving", name="crypt")
    run(made, "pc add Ash hp=6", "light add torch lit", "turn crawl hazard=1")
    made.execute("encounter creature=ghouls distance=40ft")
    data = _exported(made, home)
    document = home / "crypt.json"
    document.write_text(json.dumps(data), encoding="utf-8")
    with Expedition.open(import_file(document, "copy")) as copy:
        assert copy.state.encounter_distance == "40ft"
    # Moved to the turn before, where no encounter began, it is refused.
    batches = data["batches"]
    described = next(i for i, b in enumerate(batches) if b["events"][0] is _described(data))
    batches[described - 2]["events"].append(batches[described]["events"].pop())
    batches[described]["events"] = [{"type": "Noted", "version": 1, "payload": {"text": "x"}}]
    document.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ImportRefused, match="no encounter this turn to describe"):
        import_file(document, "again")


def test_a_distance_without_a_number_is_said_as_typed(expedition: Factory) -> None:
    """ "near" is near, not "near away"; a number is so far away."""
    made = expedition("delving")
    run(made, "pc add Ash hp=6", "light add torch lit", "turn crawl hazard=1")
    assert told(made, "encounter distance=near") == ["The encounter: it is near."]
    assert told(made, "encounter distance=30ft") == ["The encounter: it is 30ft away."]
