"""The rules as the books say: what a game master checks at the table, text in hand.

Each test takes the commands a game master would type, then reads what ``status --json``
or the turn log shows, and quotes the sentence of the source text (shared/seeds/) it
follows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.decide import preview
from delvetui.core.log import lines
from delvetui.core.timeline import Batch
from delvetui.errors import CommandError, InputNeeded
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from tests.cli_support import delvetui, made, status
from tests.conftest import Factory, run


def play(home: Path, name: str, procedure: str, commands: list[str]) -> None:
    """Start an expedition and type the commands, as ``delvetui new NAME --procedure
    PROCEDURE --seed 9`` and ``delvetui act NAME -`` would (made in this process)."""
    made(home, name, procedure, commands, seed=9)


def said(expedition: Expedition, batch: Batch) -> list[str]:
    """The turn log's lines for one command, as the game master reads them."""
    return [
        line.text
        for line in lines(expedition.batches(), expedition.procedure)
        if line.batch == batch.seq
    ]


def log_text(expedition: Expedition) -> str:
    """The whole turn log."""
    return "\n".join(line.text for line in lines(expedition.batches(), expedition.procedure))


# 1. Dungeon Turn: only the die (and the GM) put lights out ---------------------------------


def test_dungeon_turn_a_torch_burns_until_the_hazard_die_says_otherwise(home: Path) -> None:
    """002: "Depletion. Light sources dim. Dim light sources go out." The text gives lights
    no durations, and "during the first 6 turns ... nothing happens on a 4-6 (and avoid
    situations like torches guttering out on the first turn)"."""
    commands = ["pc add Ash hp=8", "light add torch lit carrier=Ash", "light add candle"]
    commands += ["turn explore hazard=6"] * 10
    play(home, "deep", "dungeon-turn", commands)
    data = status(home, "deep")
    torch = next(light for light in data["lights"] if light["id"] == "torch1")
    assert (torch["lit"], torch["state"], torch["remaining_turns"]) == (True, "bright", None)
    assert data["light_level"] == "bright" and data["turn"] == 10
    shown = delvetui(home, "act", "deep", "turn", "explore", "hazard=5").stdout
    assert "torch1 dims (Depletion)." in shown
    assert status(home, "deep")["light_level"] == "dim"
    shown = delvetui(home, "act", "deep", "turn", "explore", "hazard=5").stdout
    assert "torch1 burns out (Depletion)." in shown
    assert status(home, "deep")["light_level"] == "dark"


# 2. Travel Turns: exhaustion is disadvantage on all checks ----------------------------------


def test_travel_an_exhausted_member_rolls_with_disadvantage_on_every_check(
    expedition: Factory,
) -> None:
    """004: "Once a PC becomes exhausted, they suffer disadvantage on all checks and their
    movement speed becomes 0′." A condition carries a check mode, as a fatigue step can."""
    x = expedition("travel-turn", seed=4)
    run(x, "pc add Ash hp=8 CON=10 MOD=2", "pc add Bo hp=8 CON=10 MOD=2", "pc Ash +exhausted")
    batch = x.execute("turn return path=arduous return.Ash=3,18 return.Bo=3")
    rolls = {e.key: e for e in batch.events if isinstance(e, ev.DiceRolled)}
    assert rolls["return.Ash"].expression == "2d20kl1+2" and rolls["return.Ash"].total == 5
    assert rolls["return.Bo"].expression == "d20+2" and rolls["return.Bo"].total == 5
    assert (
        "Roll to return for Ash (DC 10): d20+2 with disadvantage [3, 18] keep 3 +2 = 5"
        in "\n".join(said(x, batch))
    )
    checks = {e.name: e.success for e in batch.events if isinstance(e, ev.CheckMade)}
    assert checks == {"Ash": False, "Bo": False}


def test_travel_a_failed_resilience_check_makes_the_next_one_at_disadvantage(
    expedition: Factory,
) -> None:
    """004: resilience checks past CON hours; "Failure means that the PC becomes
    exhausted", and exhausted PCs "suffer disadvantage on all checks"."""
    x = expedition("travel-turn", seed=4)
    run(x, "pc add Ash hp=8 CON=1")
    x.execute("turn cautious hazard=20,20")  # one hour: at the limit, no check yet
    first = x.execute("turn cautious hazard=20,20 resilience=1")
    assert "exhausted" in x.state.party[0].conditions
    checked = [e for e in first.events if isinstance(e, ev.DiceRolled) and e.key == "resilience"]
    assert [e.expression for e in checked] == ["d20-5"]
    second = x.execute("turn cautious hazard=20,20 resilience=15,2")
    rolled = [e for e in second.events if isinstance(e, ev.DiceRolled) and e.key == "resilience"]
    assert rolled[0].expression == "2d20kl1-5" and rolled[0].total == -3


# 3. A sign names the next encounter only where the text says so ----------------------------


@pytest.mark.parametrize(
    ("procedure", "sign", "encounter"),
    [
        ("exploration", "hazard=2", "hazard=1"),
        ("dungeon-turn", "hazard=3", "hazard=1 disposition=7"),
    ],
)
def test_a_sign_that_only_hints_names_no_creature(
    expedition: Factory, procedure: str, sign: str, encounter: str
) -> None:
    """001: "Sign — noise, smell, tracks, or shadow hinting at nearby danger." 002:
    "Signs. Characters find a clue or sign of wandering monster or factions." Neither says
    the next encounter is that creature (only 000 does)."""
    x = expedition(procedure)
    run(x, "pc add Ash hp=8", "light add torch lit")
    x.execute(f"turn {sign}")
    batch = x.execute(f"turn {encounter}")
    shown = said(x, batch)
    encounter_line = next(text for text in shown if text.startswith("Encounter!"))
    assert "foretold" not in encounter_line and "Noise, smell" not in encounter_line
    assert "clue or sign" not in encounter_line
    assert x.state.sign is None


def test_delving_a_sign_is_the_creature_the_next_encounter_meets(expedition: Factory) -> None:
    """000: "5 SIGN: Roll a random encounter but rather than meeting it, the party finds a
    sign that it is nearby. The next time an encounter is rolled, the PCs meets that
    creature." The table asks which creature the sign is of."""
    x = expedition("delving")
    run(x, "pc add Ash hp=8", "light add torch lit")
    with pytest.raises(InputNeeded) as asked:
        x.execute("turn crawl hazard=5", ask_inputs=True)
    assert asked.value.key == "sign" and "Which creature" in asked.value.purpose
    found = x.execute("turn crawl hazard=5 sign=ghouls")
    assert (
        "Sign: A sign of a nearby creature. It is a sign of ghouls: the next encounter is "
        "that creature." in said(x, found)
    )
    batch = x.execute("turn crawl hazard=1")
    assert (
        "Encounter with ghouls, as the sign foretold! The GM determines whether the party is "
        "surprised." in said(x, batch)
    )
    assert x.state.sign is None


# 4. Exploration: "lantern oil runs low" is not "runs out" ---------------------------------


def test_exploration_lantern_oil_runs_low_and_lasts_into_the_next_turn(
    expedition: Factory,
) -> None:
    """001: "3 | Light — a torch sputters out, or lantern oil runs low." Runs low: the
    lantern keeps two turns of oil, this one and the next, then needs a new flask."""
    x = expedition("exploration")
    run(x, "pc add Ash hp=8", "light add lantern lit carrier=Ash")
    batch = x.execute("turn cautious hazard=3")
    assert "lantern1's fuel runs low: 2 turns left." in said(x, batch)
    lantern = x.state.light("lantern1")
    assert lantern is not None and lantern.lit and lantern.minutes == 10
    assert x.state.light_level == "bright"
    batch = x.execute("turn cautious hazard=5")
    assert "lantern1 runs out of fuel." in said(x, batch)
    run(x, "light refuel lantern1", "light on lantern1")
    assert x.state.light_level == "bright"


def test_exploration_a_torch_just_lit_flickers_instead_of_dying(expedition: Factory) -> None:
    """001: "If a torch just got lit, a result of 3 might mean it flickers ominously rather
    than dying." A torch that has burnt a turn or more sputters out."""
    x = expedition("exploration")
    run(x, "pc add Ash hp=8", "light add torch lit carrier=Ash")
    batch = x.execute("turn cautious hazard=3")
    assert "torch1 flickers ominously but keeps burning: it was only just lit." in said(x, batch)
    assert x.state.light_level == "bright"
    batch = x.execute("turn cautious hazard=3")
    assert "torch1 burns out (Light)." in said(x, batch)
    assert x.state.light_level == "dark"


# 5. Trespasser: Hide skips the characters' actions, and its sparks are asked ----------------


def test_trespasser_hide_skips_character_actions(expedition: Factory) -> None:
    """003: "Hide - The party remains in their current room or area and skips taking actions
    for the turn." A character action in a Hide round is refused and nothing is saved."""
    x = expedition("trespasser")
    run(x, "pc add Ash hp=10", "turn hide stealth=success sparks=0")
    count = sum(1 for _ in x.batches())
    with pytest.raises(CommandError, match="Hide skips the characters' actions"):
        x.execute("do search by=Ash search=15")
    assert sum(1 for _ in x.batches()) == count
    run(x, "turn stay", "do search by=Ash search=15")  # the next round allows it again


def test_trespasser_hide_asks_for_the_sparks_of_a_successful_stealth_check(
    expedition: Factory,
) -> None:
    """003: "On a success, the alarm value falls by two, plus one per spark." The sparks
    are asked at the table (never silently 0), and fall the alarm."""
    x = expedition("trespasser")
    run(x, "pc add Ash hp=10", *["turn stay"] * 6)
    with pytest.raises(InputNeeded) as asked:
        x.execute("turn hide stealth=success", ask_inputs=True)
    assert asked.value.key == "sparks"
    with pytest.raises(CommandError, match="sparks on the Stealth check"):
        x.execute("turn hide stealth=success")
    batch = x.execute("turn hide stealth=success sparks=2")
    assert x.state.counter("alarm") == 2
    assert "Alarm -4 → 2 (Hidden: the alarm falls)." in said(x, batch)
    x.execute("turn hide stealth=failure")  # a failure is an encounter: no sparks asked
    assert x.state.encounter is not None


# 6. Delving: walking and darkness, where the GM reads them --------------------------------


def test_delving_walking_means_the_party_is_surprised(expedition: Factory) -> None:
    """000: "Walking speed ... PCs are surprised by all encounters and spring all traps"."""
    x = expedition("delving")
    run(x, "pc add Ash hp=8", "light add torch lit")
    batch = x.execute("turn walk hazard=1")
    shown = "\n".join(said(x, batch))
    assert "The party is surprised (walking, running or in total darkness)" in shown
    assert "determines" not in shown.split("Encounter!")[1]


def test_delving_darkness_springs_traps_and_stops_mapping(expedition: Factory) -> None:
    """000: "In total darkness ... PCs will be surprised by all encounters, spring all
    traps, and cannot map their environment." Crawling in the dark no longer detects traps
    or maps, in the action pane and on the turn."""
    x = expedition("delving")
    x.execute("pc add Ash hp=8")
    shown = preview(x.state, x.procedure, "crawl")
    assert "detects traps" not in shown.flags and "maps" not in shown.flags
    assert {"springs all traps", "cannot map", "surprised by all encounters"} <= set(shown.flags)
    batch = x.execute("turn crawl hazard=1")
    started = next(e for e in batch.events if isinstance(e, ev.TurnStarted))
    assert started.flags == shown.flags
    assert any("The party is surprised" in text for text in said(x, batch))
    x.execute("light add torch lit")
    lit = preview(x.state, x.procedure, "crawl")
    assert "detects traps" in lit.flags and "maps" in lit.flags


# 7. Exploration in darkness: the pane says what the turn does ------------------------------


@pytest.mark.parametrize("procedure", ["exploration", "exploration-traditional"])
def test_exploration_darkness_halves_movement_in_the_pane_and_the_log(
    expedition: Factory, procedure: str
) -> None:
    """001: "No light: Effectively blind. Setback on all rolls. Movement halved. Can’t read,
    search, or spot danger." The action pane and the log both say 45 yards, and moving
    cautiously in the dark neither watches for danger nor maps; in both variants."""
    x = expedition(procedure)
    x.execute("pc add Ash hp=8")
    shown = preview(x.state, x.procedure, "cautious")
    assert shown.distance == "45 yards" and shown.light_note == "movement halved in darkness"
    assert "watches for danger" not in shown.flags and "maps" not in shown.flags
    assert "cannot read, search or spot danger" in shown.flags
    assert preview(x.state, x.procedure, "search").forbidden
    batch = x.execute("turn cautious hazard=5")
    assert said(x, batch)[0].endswith("Move cautiously, 45 yards")
    started = next(e for e in batch.events if isinstance(e, ev.TurnStarted))
    assert started.flags == shown.flags
    x.execute("light add torch lit")
    lit = preview(x.state, x.procedure, "cautious")
    assert "watches for danger" in lit.flags and "maps" in lit.flags


async def test_exploration_the_action_pane_shows_the_halved_movement_in_darkness() -> None:
    """001: "Movement halved": the table's action pane says 45 yards, not 90, in the dark."""
    from delvetui.ui.panes.action_pane import ActionPane
    from tests.ui_support import make, ready, settled

    app = DelveApp(make("dark", ["pc add Ash hp=8"], procedure="exploration"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        pane = app.screen.query_one(ActionPane)
        await settled(pilot, lambda: "Move cautiously" in str(pane.render()))
        shown = str(pane.render())
        assert "45 yards a turn" in shown and "90 yards" not in shown
        assert "Movement halved in darkness." in shown


# 8. Dungeon Turn: an encounter interrupts the rest ---------------------------------------


def test_dungeon_turn_an_encounter_breaks_the_hour_of_rest(expedition: Factory) -> None:
    """002: "Resting for 1 hour in the dungeon only heals 1d8 + str bonus." An hour is 6
    turns of rest in a row; a wandering monster "moving toward the party" interrupts it."""
    x = expedition("dungeon-turn")
    run(x, "pc add Ash hp=10 STR=10", "light add torch lit", "pc Ash hp=2")
    for _ in range(3):
        x.execute("turn rest hazard=6")
    batch = x.execute("turn rest hazard=1 disposition=7")
    assert "The encounter interrupts the party's rest: the rest starts over." in said(x, batch)
    for _ in range(2):
        x.execute("turn rest hazard=6")
    assert x.state.party[0].hp == 2  # six turns of rest, but not six in a row
    for _ in range(3):
        x.execute("turn rest hazard=6")
    batch = x.execute("turn rest hazard=6 heal.Ash=5")
    assert x.state.party[0].hp == 7
    assert "Ash regains 5 HP (an hour's rest); now 7 HP." in said(x, batch)


# 9. One meaning for a typed die -----------------------------------------------------------


def test_a_typed_check_is_the_face_shown_and_the_log_shows_face_modifier_total(
    expedition: Factory,
) -> None:
    """A number the GM types is the die's face. 002: "Each character rolls their best skill
    against DC 10 + ..."; an exhausted character makes "rolls at disadvantage"."""
    x = expedition("dungeon-turn")
    run(x, "pc add Ash hp=8 MOD=3", "pc Ash fatigue=2")
    batch = x.execute("turn leave path=arduous length=1 rooms=1 leave=9")
    shown = "\n".join(said(x, batch))
    assert "d20+3 with disadvantage [9] +3 = 12 (table dice)" in shown
    assert "Leave the dungeon (best): Ash succeeds, 12 against DC 12." in shown
    single = x.execute("turn harvest hd=0 by=Ash harvest=9 hazard=6")
    assert "d20 with disadvantage [9]" in "\n".join(said(x, single))


# 10. The clock never runs backwards silently ----------------------------------------------


def test_the_clock_set_earlier_moves_to_the_next_day_and_says_so(home: Path) -> None:
    """The time dice show the hour of the day (004: "as the adventuring day moves forward");
    setting it to an earlier hour is that hour tomorrow, never earlier today."""
    play(home, "road", "travel-turn", ["time set 05:00"])  # "sets one time die out to 5"
    data = status(home, "road")
    assert (data["day"], data["clock"]) == (1, "05:00")
    played = delvetui(home, "act", "road", "-", stdin="turn cautious\ntime set 14:00\n")
    assert played.returncode == 0, played.stderr
    data = status(home, "road")
    assert (data["day"], data["clock"]) == (1, "14:00")
    shown = delvetui(home, "act", "road", "time", "set", "06:00").stdout
    assert (
        "The clock is set to day 2, 06:00 (set by the game master; earlier than 14:00, so it "
        "is the next day)." in shown
    )
    data = status(home, "road")
    assert (data["day"], data["clock"]) == (2, "06:00")
    rolled = delvetui(home, "act", "road", "time", "roll", "1", "time=3").stdout
    assert "day 3, 03:00" in rolled and "so it is the next day" in rolled
    data = status(home, "road")
    assert (data["day"], data["clock"], data["time_dice"]) == (3, "03:00", [3])


# 10b. Trespasser's character actions and travel's return, typed at the command line --------


def test_trespasser_actions_one_each_and_none_in_an_encounter_round_at_the_cli(
    home: Path,
) -> None:
    """003: "each Trespasser will take an action"; "Without an encounter, each member of the
    party declares their action." Typed through ``delvetui act NAME -``: the refused line
    says why, stops the script there with status 2, and writes nothing."""
    play(home, "crypt", "trespasser", ["pc add Ash hp=10", "pc add Cy hp=8 ENDURANCE=2"])
    played = delvetui(
        home,
        "act",
        "crypt",
        "-",
        stdin="turn stay\ndo moments-rest by=Cy ate=no\ndo listen by=Cy\n",
    )
    assert played.returncode == 2
    assert "line 3: Cy has already taken their action this dungeon round" in played.stderr
    before = status(home, "crypt")["events"]
    again = delvetui(home, "act", "crypt", "do", "cast-incantation", "by=Cy")
    assert again.returncode == 2 and status(home, "crypt")["events"] == before
    played = delvetui(home, "act", "crypt", "-", stdin="turn advance hazard=1\ndo listen by=Ash\n")
    assert played.returncode == 2
    assert "line 2: An encounter is under way this dungeon round" in played.stderr
    data = status(home, "crypt")
    assert data["counters"]["alarm"] == 0 and data["turn"] == 2 and data["events"] > before


def test_travel_the_return_dc_counts_hours_from_safety_at_the_cli(home: Path) -> None:
    """004: "DC = 10 + 1 per travel turn" — "four hours away from base (DC 14)". Two hours
    on the road, an hour of rest, two more: DC 14; after the return the count is 0."""
    play(home, "road", "travel-turn", ["pc add Ash hp=8 MOD=2"])
    script = [
        "turn cautious hazard=20,20",
        "turn careless hazard=20,20",
        "turn rest hazard=20",
        "turn cautious hazard=20,20",
        "turn cautious hazard=20,20",
    ]
    played = delvetui(home, "act", "road", "-", stdin="\n".join(script) + "\n")
    assert played.returncode == 0, played.stderr
    assert status(home, "road")["counters"]["away"] == 4
    played = delvetui(home, "act", "road", "turn", "return", "path=arduous", "return.Ash=11")
    assert "Roll to return: Ash fails, 13 against DC 14." in played.stdout
    assert "Ash drops 1 load on the arduous way back (13 against DC 14)." in played.stdout
    assert status(home, "road")["counters"]["away"] == 0


# 11. Wording the game master reads --------------------------------------------------------


def test_the_log_reads_as_plain_english(expedition: Factory) -> None:
    """Every line reads as a game master would say it at the table."""
    x = expedition("delving")
    run(
        x,
        "pc add Dee hp=8",
        "pc add Cal hp=6",
        "light add torch lit",
        "light add candle count=2",
        "light on candle",
        "pc Dee hp=-3",
        "pc Cal +omen",
        "turn crawl hazard=2",
        "turn crawl hazard=6",
        "turn run hazard=6",
        "undo",
    )
    text = log_text(x)
    for wanted in (
        "The game master takes 3 HP from Dee; now 5 HP.",
        "The game master gives Cal a condition: omen.",
        "Fatigue comes next turn unless the party rests.",
        "The party did not rest: fatigue takes effect.",
        "Dee loses 1 HP (fatigue); now 4 HP.",
        "candle2 is blown out by running.",
        "Undone: turn 3 (the command turn run hazard=6).",
    ):
        assert wanted in text, wanted
    for unwanted in ("(game master)", "Cal is omen", "applies.", "(blown out (", "Undone: turn\n"):
        assert unwanted not in text, unwanted


async def test_a_choice_the_game_master_makes_is_not_asked_as_the_players_roll() -> None:
    """002: "The referee determines whether this is a dangerous or arduous journey." The
    question says it is the game master's choice, not "the result the players rolled"."""
    from tests.ui_support import make, ready, screen_text, settled, table

    app = DelveApp(make("leave", ["pc add Ash hp=8"], procedure="dungeon-turn"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        table(app).run("turn leave")
        await settled(pilot, lambda: "the kind of journey" in screen_text(app))
        shown = screen_text(app)
        assert "the kind of journey (the game master's choice)" in shown
        assert "players rolled" not in shown and "A result from the table" not in shown
        await pilot.press("escape")


async def test_a_typed_die_prompt_asks_for_the_face() -> None:
    """Every prompt for a die says the number typed is the die's face."""
    from delvetui.ui.dialogs.roll_prompt import RollPrompt
    from tests.ui_support import make, ready, screen_text, settled, table

    app = DelveApp(make("face", ["pc add Ash hp=8 INT=14"], procedure="dungeon-turn"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await ready(pilot)
        screen.table_dice = True
        table(app).run("turn harvest hd=1 by=Ash")
        await settled(pilot, lambda: isinstance(app.screen, RollPrompt))
        await settled(pilot, lambda: "Harvest (INT)" in screen_text(app))
        assert "Type the d20's face; the +2 is added for you." in screen_text(app)
        await pilot.press("escape")


def test_a_miss_on_the_alarm_check_does_not_read_as_a_reset(expedition: Factory) -> None:
    """003: "If it comes up equal or less than the current alarm value, they have an
    encounter, and the alarm value resets to 0." A miss says only that it missed."""
    x = expedition("trespasser")
    run(x, "pc add Ash hp=10")
    batch = x.execute("turn advance hazard=7")
    assert "→ No encounter — 7 is above the alarm (1)" in said(x, batch)
    batch = x.execute("turn advance hazard=2")
    assert "→ Encounter — 2 is at or below the alarm (2)" in said(x, batch)


def test_no_source_file_name_and_no_command_syntax_in_what_is_read(expedition: Factory) -> None:
    """Procedure picker, help and log show titles, never 000_461e076bb7b1234e.txt, and no
    `dc=N` or `pc NAME hp=+N` in text meant for reading."""
    from delvetui.procedure.registry import find

    for procedure_id in ("delving", "exploration", "dungeon-turn", "trespasser", "travel-turn"):
        procedure = find(procedure_id)
        assert ".txt" not in procedure.source
        words = [a.text for a in (*procedure.actions.values(), *procedure.activities.values())]
        words += [light.text for light in procedure.lights.values()]
        for effect_text in _effect_texts(procedure.text):
            words.append(effect_text)
        for text in words:
            assert "dc=N" not in text and "hp=+N" not in text and "refuel ID" not in text, text
    x = expedition("trespasser")
    run(x, "pc add Ash hp=10")
    batch = x.execute("do moments-rest by=Ash ate=yes")
    assert not any("hp=" in text for text in said(x, batch))


def _effect_texts(toml_text: str) -> list[str]:
    import re

    return re.findall(r'text = "([^"]*)"', toml_text)
