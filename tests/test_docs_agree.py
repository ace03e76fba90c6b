"""Where docs/procedures.md and docs/commands.md once said one thing and the program did
another, each now as a game master would expect it, pinned here.

1. A ``per_hour`` track grows once an hour with 10-minute turns (§3.11), as the common
   problems now say too (§6).
2. ``status --json``'s ``encounter.creature`` is null when nobody named the creature; the
   log's words for it are ``encounter.text``.
3. A light that runs low (``lights-out``'s ``low_kinds``) keeps ``low_turns`` turns after
   the one it ran low in: with the default 1 it still burns through the next turn.
4. ``status --json``'s ``sign`` is the sign in play: a sign that names nothing later is in
   play on the turn it is found (and the players' screen shows it where it shows signs).
5. ``creature=`` is refused on a turn with no encounter, and where a sign already named
   the creature; ``distance=`` and ``sign=`` with nothing to read them likewise.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.cli import status_data
from delvetui.core.players import view
from delvetui.errors import CommandError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition

GAME = """
id = "agree"
name = "Agree"
source = "the tests of delvetui"
summary = "A sign, an omen, an encounter, a lantern that runs low, hours awake."
default_action = "walk"

[players]
sign = true

[tracks.awake]
label = "Hours awake"
per_hour = 1

[lights.lantern]
label = "Lantern"
hours = 4
refuel_hours = 4

[actions.walk]
label = "Walk"

[rolls.hazard]
label = "Hazard die"
table = "hazard"

[tables.hazard]
label = "Hazard die"
dice = "d6"

[[tables.hazard.rows]]
roll = "1"
label = "Encounter"
effects = [{ do = "encounter", text = "Something comes." }]

[[tables.hazard.rows]]
roll = "2"
label = "Omen"
effects = [{ do = "sign", text = "A cold wind.", foretells = true }]

[[tables.hazard.rows]]
roll = "3"
label = "Tracks"
effects = [{ do = "sign", text = "Muddy tracks." }]

[[tables.hazard.rows]]
roll = "4"
label = "Oil"
effects = [{ do = "lights-out", kinds = ["lantern"], low_kinds = ["lantern"] }]

[[tables.hazard.rows]]
roll = "5-6"
label = "Quiet"
"""


@pytest.fixture
def game(home: Path) -> Expedition:
    expedition = Expedition.create(home / "agree.delve", load_text(GAME), seed=3)
    expedition.execute("pc add Ash hp=6")
    return expedition


def test_a_per_hour_track_grows_once_an_hour_of_ten_minute_turns(game: Expedition) -> None:
    with game:
        awake = []
        for _ in range(12):
            game.execute("turn hazard=6")
            awake.append(game.state.party[0].track("awake"))
    assert awake == [0] * 5 + [1] * 6 + [2]
    doc = (Path(__file__).parent.parent / "docs" / "procedures.md").read_text(encoding="utf-8")
    assert "never grows" not in doc


def test_an_encounter_nobody_named_has_no_creature_in_the_status(game: Expedition) -> None:
    with game:
        game.execute("turn hazard=1")
        met = status_data(game, odds=False)["encounter"]
        assert (met["creature"], met["text"]) == (None, "Something comes.")
        game.execute("encounter creature=ghouls")
        met = status_data(game, odds=False)["encounter"]
        assert (met["creature"], met["text"]) == ("ghouls", "Something comes.")


def test_a_light_that_runs_low_burns_through_the_next_turn(game: Expedition) -> None:
    with game:
        game.execute("light add lantern lit")
        game.execute("turn hazard=4")
        lantern = game.state.light("lantern1")
        assert lantern is not None and lantern.lit and lantern.minutes == 10
        game.execute("turn hazard=6")
        lantern = game.state.light("lantern1")
        assert lantern is not None and not lantern.lit


def test_a_sign_that_names_nothing_later_is_in_play_on_its_turn(game: Expedition) -> None:
    with game:
        game.execute("turn hazard=3")
        assert status_data(game, odds=False)["sign"] == "Muddy tracks."
        assert view(game.state, game.procedure).sign == "Muddy tracks."
        game.execute("turn hazard=6")
        assert status_data(game, odds=False)["sign"] is None
        game.execute("turn hazard=2 sign=wolves")
        game.execute("turn hazard=6")
        assert status_data(game, odds=False)["sign"] == "wolves"  # until the encounter


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("turn hazard=6 creature=ghouls", "No encounter began, so creature= names no one"),
        ("turn hazard=6 distance=far", "No encounter began, so distance= says how far"),
        ("turn hazard=6 sign=wolves", "No sign was found, so sign= says what nothing is"),
    ],
)
def test_a_name_for_what_did_not_happen_is_refused(
    game: Expedition, command: str, said: str
) -> None:
    with game:
        before = game.event_count
        with pytest.raises(CommandError, match=said):
            game.execute(command)
        assert game.event_count == before


def test_a_creature_typed_after_an_omen_named_it_is_refused(game: Expedition) -> None:
    with game:
        game.execute("turn hazard=2 sign=wolves")
        with pytest.raises(CommandError, match=r"creature=ghouls was given, but .* \(wolves\)"):
            game.execute("turn hazard=1 creature=ghouls")
        game.execute("turn hazard=1")
        assert status_data(game, odds=False)["encounter"]["creature"] == "wolves"
        game.execute("turn hazard=1 creature=ghouls")  # no omen now: the name is taken
        assert status_data(game, odds=False)["encounter"]["creature"] == "ghouls"
