"""Every command the running text of docs/procedures.md and docs/commands.md shows runs and
gives what the text says.

A command shown in a page's prose (a code span the command language reads, with no word
left to fill in) must be typed by a test (``test_every_command_the_prose_shows_is_typed``);
the plays below type those no other test does, each asserting what its sentence says.
Each `delvetui ...` line the prose shows is run here too, through the real command line.
The reference part of docs/commands.md is written from the grammar, whose examples
``tests/test_grammar.py`` reads back.
"""

from __future__ import annotations

import json
import random
import shlex
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core.campaign import Link, carry
from delvetui.core.evolve import fold
from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.errors import DelveError
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.docs_examples import (
    FORMAT_WORDS,
    TESTS,
    cli_shown,
    doc_example,
    page,
    shown,
    typed_by,
)

PROCEDURES = page("procedures.md")
#: docs/commands.md before the reference written from the grammar.
COMMANDS = page("commands.md").split("<!-- The reference below")[0]
#: The words of `delvetui`'s subcommands: a span of these alone names one, it runs nothing.
SUBCOMMANDS = frozenset(
    [
        "act",
        "campaign",
        "check",
        "copy",
        "export",
        "import",
        "list",
        "new",
        "open",
        "players",
        "procedures",
        "serve",
        "show",
        "status",
        "upgrade",
        "verify",
    ]
)


#: Each page's running text, and the words of its code spans that are not commands there.
PAGES = {"procedures.md": (PROCEDURES, FORMAT_WORDS), "commands.md": (COMMANDS, frozenset())}


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_command_the_prose_shows_is_typed(name: str) -> None:
    text, words = PAGES[name]
    typed = typed_by(sorted(TESTS.glob("test_*.py")))
    missing = [said for said in shown(text, words=words) if said not in typed]
    assert not missing, f"docs/{name} shows {missing}, which no test types"


def _line(said: str) -> str:
    """A command line as its words, the shell's quotes and a redirection taken off."""
    return " ".join(shlex.split(said.split(" > ")[0]))


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_command_line_the_prose_shows_is_run(name: str) -> None:
    """Each `delvetui ...` example of the page (not a subcommand's name alone) is one of
    the lines the tests below run (``RUN``)."""
    run = {" ".join(args).split(" > ")[0] for args in RUN}
    examples = [
        said
        for said in cli_shown(PAGES[name][0])
        if {word for word in _line(said).split() if word[0] != "-"} - SUBCOMMANDS
    ]
    missing = [said for said in examples if _line(said) not in run]
    assert not missing, f"docs/{name} shows `delvetui {missing}`, which no test here runs"


def start(home: Path, procedure: str, *commands: str, name: str = "") -> Expedition:
    """An expedition on a shipped procedure or a page's example, the commands run."""
    try:
        loaded = find(procedure)
    except DelveError:  # not shipped: one of the page's examples
        loaded = load_text(doc_example(procedure))
    expedition = Expedition.create(home / f"{name or procedure}.delve", loaded, seed=7)
    for said in commands:
        expedition.execute(said)
    return expedition


def rolled(batch: object) -> list[ev.DiceRolled]:
    return [e for e in batch.events if isinstance(e, ev.DiceRolled)]  # type: ignore[attr-defined]


# docs/procedures.md ------------------------------------------------------------------------


def test_abilities_and_what_pc_add_names(home: Path) -> None:
    """3.4: a score is kept in capitals; a resource named is the member's start; a track
    named is where it starts."""
    with start(home, "tiny", "pc add Ash hp=8 con=14") as tiny:
        assert tiny.state.party[0].ability("CON") == 14
    with start(home, "rations-and-oil", "pc add Ash hp=8 rations=2") as food:
        assert food.state.party[0].resource("rations") == 2
    with start(home, "two-modes", "pc add Ash hp=8 awake=0") as modes:
        assert dict(modes.state.party[0].tracks) == {"awake": 0}
        modes.execute("pc Ash awake=+2")
        assert modes.state.party[0].track("awake") == 2


def test_another_speed_and_dc_typed(home: Path) -> None:
    """3.5: `speed=fast`; 3.7: an input added to a check's DC (`dc=6`, `dc=16`)."""
    with start(home, "exploration", "pc add Ash hp=8 WIS=10", "light add torch lit") as made:
        fast = made.execute("turn cautious speed=fast")
        started = next(e for e in fast.events if isinstance(e, ev.TurnStarted))
        assert started.distance == "135 yards"
        for command, dc in (("turn search dc=6", 6), ("turn search dc=16", 16)):
            checked = made.execute(command)
            made_checks = [e for e in checked.events if isinstance(e, ev.CheckMade)]
            assert next(e.dc for e in made_checks if e.id == "search") == dc


def test_a_torch_lit_as_it_is_added_burns_what_its_dice_show(home: Path) -> None:
    """3.12: `light add torch lit burn=3` on a torch of 1d4+4 turns: 7 turns."""
    with start(home, "rolled-torch", "light add torch lit burn=3") as torch:
        light = torch.state.light("torch1")
        assert light is not None and light.lit and light.minutes == 70


def test_the_marching_order_is_set_front_first(home: Path) -> None:
    members = ("pc add Ash hp=6", "pc add Bo hp=6", "pc add Cy hp=6")
    with start(home, "marching-order", *members) as order:
        order.execute("party order Bo Ash Cy")
        assert [m.name for m in order.state.party] == ["Bo", "Ash", "Cy"]
        order.execute("party order Ash Bo Cy")
        assert [m.name for m in order.state.party] == ["Ash", "Bo", "Cy"]


def test_by_or_each_rolls_for_the_one_named(home: Path) -> None:
    """3.15, targets: "each PC rolls to return", or only the one who escaped alone."""
    procedure = load_text(TYPED)
    with Expedition.create(home / "return.delve", procedure, seed=7) as road:
        road.execute("pc add Ash hp=6")
        road.execute("pc add Bo hp=6")
        everyone = road.execute("turn return")
        assert [e.name for e in everyone.events if isinstance(e, ev.CheckMade)] == ["Ash", "Bo"]
        alone = road.execute("turn return by=Ash")
        assert [e.name for e in alone.events if isinstance(e, ev.CheckMade)] == ["Ash"]


def test_a_party_led_by_another_member_says_so(home: Path) -> None:
    """3.15, roll: the lead named with by=NAME adds their modifier, and the log says whose."""
    members = ("pc add Ari hp=6 CHA=16", "pc add Bo hp=6 CHA=5")
    with start(home, "reaction-bonus", *members) as met:
        reaction = rolled(met.execute("turn explore by=Bo hazard=1 reaction=10"))[-1]
        assert reaction.total == 8 and "Bo's CHA" in reaction.purpose


def test_conditions_given_and_taken_at_the_table(home: Path) -> None:
    """3.15, condition; 3.21: for 6 turns, until the next rest, taken away."""
    with start(home, "fumes", "pc add Ash hp=6") as fumes:
        fumes.execute("pc Ash +poisoned:6")
        fumes.execute("pc Ash +shaken:rest")
        ash = fumes.state.party[0]
        assert ash.time_left("poisoned", fumes.state.turn) == 6
        assert ash.time_left("shaken", fumes.state.turn) == "rest"
        fumes.execute("pc Ash -poisoned")
        assert fumes.state.party[0].conditions == ("shaken",)


TYPED = """
id = "typed"
name = "Typed"
source = "the tests of delvetui"
summary = "Checks typed at the table."
default_action = "walk"

[resources.torches]
label = "Torches"
per = "party"

[actions.walk]
label = "Walk"
effects = [{ do = "check", id = "save", label = "Save", target = "each", dc = 10 }]

[actions.return]
label = "Roll to return"
turns = 0
effects = [{ do = "check", id = "return", target = "by-or-each", dc = 10 }]

[activities.listen]
label = "Listen"
effects = [{ do = "check", id = "listen", target = "by", dc = 10 }]
"""


def test_results_typed_at_the_table(home: Path) -> None:
    """3.18: a check per member, one member's as plain ID=N; 3.20: the party's stock."""
    procedure = load_text(TYPED)
    with Expedition.create(home / "typed.delve", procedure, seed=7) as typed:
        typed.execute("pc add Ash hp=6")
        typed.execute("pc add Bo hp=6")
        saves = typed.execute("turn save.Ash=14 save.Bo=3")
        made = [(e.name, e.total, e.success) for e in saves.events if isinstance(e, ev.CheckMade)]
        assert made == [("Ash", 14, True), ("Bo", 3, False)]
        heard = typed.execute("do listen by=Ash listen=12")
        assert [e.total for e in heard.events if isinstance(e, ev.CheckMade)] == [12]
        typed.execute("party +5 torches")
        assert typed.state.resource("torches") == 5


def test_a_search_of_two_turns_takes_two_hazard_dice(home: Path) -> None:
    """3.18: in dim light a search takes two turns, and a key given twice serves both."""
    with start(home, "gloamdeep", "pc add Ash hp=8", "light add candle lit") as dim:
        dim.execute("turn search hazard=2 hazard=6")
        last = dim.state.last_hazard
        assert dim.state.turn == 2 and last is not None and last.roll == 6


def test_the_party_stock_set_and_changed(home: Path) -> None:
    """3.20: `party oil=3`, `party +5 oil`, `party -1 oil`, `party oil=5`."""
    with start(home, "rations-and-oil") as food:
        seen = []
        for command in ("party oil=3", "party +5 oil", "party -1 oil", "party oil=5"):
            food.execute(command)
            seen.append(food.state.resource("oil"))
        assert seen == [3, 8, 7, 5]


def test_darkvision_given_at_the_table(home: Path) -> None:
    with start(home, "darkvision", "pc add Ash hp=6 WIS=12", "pc Ash +darkvision") as dark:
        assert rolled(dark.execute("do spot by=Ash"))[0].expression == "d20+1"


def test_a_condition_named_as_a_fatigue_step_ends_with_the_fatigue(home: Path) -> None:
    """3.23b: with fatigue = "all", `pc Dee +exhausted` ends in a day's rest."""
    procedure = find("dungeon-turn")
    assert "exhausted" in procedure.party.fatigue
    with start(home, "dungeon-turn", "pc add Dee hp=6", "pc Dee +exhausted") as before:
        before.execute("end back in town")
        link = Link(name="t", id=before.expedition_id, digest=before.digest(), campaign="c")
        first = carry(
            "next", 4, before.state, procedure, procedure, link,
            downtime=MINUTES_PER_DAY, rng=random.Random(1),
        )  # fmt: skip
    assert "exhausted" not in fold(State(), first).party[0].conditions


def test_free_rolls_and_time_dice_typed(home: Path) -> None:
    """4: `roll 2d6 reaction result=8` records a roll; `time roll 2 time=9` sets the hour."""
    with start(home, "tiny") as tiny:
        free = rolled(tiny.execute("roll 2d6 reaction result=8"))[0]
        assert (free.total, free.entered) == (8, True)
        tiny.execute("time roll 2 time=9")
        assert tiny.state.clock_text == "09:00"
        exploded = rolled(tiny.execute("roll d6! result=14"))[0]
        assert exploded.faces == (6, 6, 2)


def test_a_stack_of_torches_and_the_minutes_the_table_says(home: Path) -> None:
    """5: `light add torch count=6`; time the table says: `turn pass-time minutes=30`."""
    with start(home, "rolled-torch", "light add torch count=6") as torches:
        stack = torches.state.light("torch1")
        assert stack is not None and stack.count == 6
    with start(home, "time-passes", "turn pass-time minutes=30") as passing:
        assert passing.state.clock_text == "08:30"


# docs/commands.md --------------------------------------------------------------------------


def test_the_commands_pages_turn_and_party_examples(home: Path) -> None:
    """Turns: a journey's numbers the referee decides; the party: fatigue set, a member
    added."""
    with start(home, "dungeon-turn", "pc add Ash hp=8 INT=10", "light add torch lit") as made:
        left = made.execute("turn leave path=dangerous length=2 rooms=3")
        assert next(e for e in left.events if isinstance(e, ev.CheckMade)).dc == 15
        made.execute("pc Ash fatigue=+1")
        made.execute("pc Ash fatigue=0")
        assert made.state.party[0].fatigue == 0
        made.execute("pc add Dax hp=6")
        assert [m.name for m in made.state.party] == ["Ash", "Dax"]


#: The `delvetui` lines the prose of the two pages shows, as the tests below run them.
RUN = (
    ("procedures", "copy", "delving", "my-delving"),
    ("procedures", "show", "delving"),
    ("procedures", "show", "delving", ">", "mygame.toml"),
    ("procedures", "check", "mygame.toml"),
    ("new", "crypt", "--procedure", "./mygame.toml"),
    ("new", "crypt", "--procedure", "gloamdeep"),
    ("status", "test", "--json"),
    ("act", "crypt", "note", "Ash's torch is out"),
    ("act", "barrow", "end"),
    ("new", "barrow-2", "--after", "barrow", "--downtime", "7d"),
)


@pytest.mark.long
def test_the_procedures_page_command_lines(home: Path, tmp_path: Path) -> None:
    """1: copy a shipped procedure; show one into a file and check it; start one from a
    path, and by its id from the procedures folder; the status as JSON."""
    copied = delvetui(home, *RUN[0])
    assert copied.returncode == 0 and (home / "procedures" / "my-delving.toml").exists()
    shown_text = delvetui(home, *RUN[1]).stdout
    (tmp_path / "mygame.toml").write_text(shown_text, encoding="utf-8")  # RUN[2]: > mygame.toml
    assert load_text(shown_text).id == "delving"
    checked = delvetui(home, *RUN[3], cwd=tmp_path)
    assert checked.returncode == 0 and "is a valid procedure" in checked.stdout
    (tmp_path / "mygame.toml").write_text(doc_example("gloamdeep"), encoding="utf-8")
    made = delvetui(home, *RUN[4], cwd=tmp_path)
    assert made.returncode == 0 and made.stdout.strip().endswith("crypt.delve")
    (home / "procedures" / "gloamdeep.toml").write_text(doc_example("gloamdeep"), "utf-8")
    again = delvetui(home, "new", "crypt-2", *RUN[5][2:])
    assert again.returncode == 0, again.stderr
    delvetui(home, "new", "test", "--procedure", "gloamdeep")
    delvetui(home, "act", "test", "pc add Ash hp=8")
    status = json.loads(delvetui(home, *RUN[6]).stdout)
    assert status["resources"] == {"party": {}, "members": {"Ash": {"rations": 2}}}


def test_the_commands_page_command_lines(home: Path) -> None:
    """A note keeps its apostrophe; an expedition ended is continued after a week."""
    assert delvetui(home, "new", "crypt", "--procedure", "delving").returncode == 0
    noted = delvetui(home, *RUN[7])
    assert noted.returncode == 0
    with Expedition.open(home / "crypt.delve") as crypt:
        events = [e for batch in crypt.batches() for e in batch.events]
        notes = [e.text for e in events if isinstance(e, ev.Noted)]
    assert notes == ["Ash's torch is out"]
    assert delvetui(home, "new", "barrow", "--procedure", "delving").returncode == 0
    early = delvetui(home, *RUN[9])
    assert early.returncode == 2
    assert "barrow has not ended; end it first with `delvetui act barrow end`." in early.stderr
    assert delvetui(home, *RUN[8]).returncode == 0
    later = delvetui(home, *RUN[9])
    assert later.returncode == 0, later.stderr


def test_the_rooms_commands_the_pages_show(home: Path) -> None:
    """Rooms (docs/commands.md and docs/procedures.md): a room added at the table, the
    party going there, its marks set and taken off, a note on it."""
    from tests.test_rooms import dungeon

    with dungeon(home) as made:
        made.execute("room add 31 label='Hidden shrine' exits=12,14")
        made.execute("go 12")
        assert made.state.room == "12"
        made.execute("room 12 +cleared +looted")
        made.execute("room 12 +trapped")
        made.execute("room 12 -trapped")
        made.execute("room 12 note the idol is a fake")
    with dungeon(home, name="shrine") as made:
        made.execute("room 2 +cleared +looted")
        made.execute("room 2 +trapped")
        made.execute("room 2 -trapped")
        made.execute("room 2 note the idol is a fake")
        made.execute("room add 31 label='Hidden shrine' area=level-1 exits=2,14")
        shrine = next(room for room in made.state.rooms if room.id == "31")
        assert shrine.label == "Hidden shrine"
