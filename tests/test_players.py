"""The players' screen: what players see, what the game master reveals, and following live."""

from __future__ import annotations

import html
import os
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import OptionList, Static

from delvetui.core import events as ev
from delvetui.core.players import view
from delvetui.errors import CommandError
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp
from delvetui.ui.dialogs.choose import ChooseScreen
from delvetui.ui.players.app import WATCH_EVERY, PlayersApp
from delvetui.ui.players.big_text import BigText, block_lines, fit
from delvetui.ui.players.cells import BigCell
from tests.cli_support import delvetui
from tests.conftest import Factory, run
from tests.test_docs_procedures import COMPLETE
from tests.ui_support import expedition as open_expedition
from tests.ui_support import followed, make, ready, settle, settled


def seen(made: Expedition) -> list[str]:
    return view(made.state, made.procedure).lines()


def test_the_light_in_words_never_the_turns_unless_the_procedure_says(
    expedition: Factory,
) -> None:
    made = expedition("delving")
    run(made, "pc add Ash hp=6", "light add torch carrier=Ash lit", "light add candle")
    assert seen(made)[1:3] == ["Bright light", "Ash's torch burns bright."]
    made.execute("turn hazard=3")  # a 3 burns torches out
    assert seen(made)[1:3] == ["Darkness", "No light burns."]
    made.execute("light on candle")
    assert seen(made)[1:3] == ["Dim light", "The candle gives a dim light."]
    assert not any("turn" in line for line in seen(made))
    assert "Day 1, 08:10 (morning)" in seen(made)
    # Never a roll, a table result or a note.
    made.execute("note The ghoul waits behind the third door.")
    assert not any("ghoul" in line or "Burn" in line or "d6" in line for line in seen(made))

    travel = expedition("exploration-traditional", name="other")
    run(travel, "light add torch lit", *["turn hazard=6"] * 5)
    assert seen(travel)[2] == "The torch gutters (1 turn left)."


def test_the_sign_the_encounter_and_hp_show_once_revealed(expedition: Factory) -> None:
    made = expedition("trespasser")
    run(made, "pc add Ash hp=6", "light add torch lit")
    assert not any("hit points" in line for line in seen(made))
    made.execute("reveal hp")
    assert "Ash: 6 of 6 hit points" in seen(made)
    made.execute("hide hp")
    assert not any("hit points" in line for line in seen(made))
    made.execute("turn advance hazard=1 usage.torch1=6")  # d10 ≤ alarm: an encounter
    assert made.state.encounter
    assert not any(line.startswith("Encounter") for line in seen(made))
    made.execute("reveal encounter")
    assert any(line.startswith("Encounter: ") for line in seen(made))
    made.execute("undo")
    assert not any(line.startswith("Encounter") for line in seen(made))

    delving = expedition("delving", name="crypt")
    run(delving, "light add torch lit", "turn hazard=5 'sign=claw marks'")
    assert "A sign: claw marks" not in seen(delving)
    delving.execute("reveal sign")
    assert "A sign: claw marks" in seen(delving)


def test_bad_reveals_say_what_would_be_right(expedition: Factory) -> None:
    made = expedition("delving")
    before = made.event_count
    with pytest.raises(CommandError, match="reveal hp, reveal foes or reveal room"):
        made.execute("reveal treasure")
    made.execute("reveal sign")
    with pytest.raises(CommandError, match="already shown"):
        made.execute("reveal sign")
    with pytest.raises(CommandError, match="not shown"):
        made.execute("hide encounter")
    assert made.event_count == before + 1


async def test_shift_p_on_the_table_reveals_the_sign() -> None:
    app = DelveApp(make())
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.press("P")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        options = app.screen.query_one(OptionList)
        assert options.option_count == 2  # the sign and the encounter; Delving shows HP
        await pilot.press("enter")
        await settled(pilot, lambda: open_expedition(app).state.shown == ("sign",))
        await pilot.press("P")
        await settled(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")
        await settled(pilot, lambda: open_expedition(app).state.shown == ())


async def test_the_players_screen_follows_the_table_and_its_reopening(home: Path) -> None:
    path = make("crypt")
    players = PlayersApp(path)
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        assert players.shown is not None and players.shown.level == "Bright light"
        # The game master's table: the writer, opened while the players' screen watches.
        with Expedition.open(path) as table:
            table.execute("turn hazard=3")
            await followed(
                pilot,
                lambda: players.shown is not None and players.shown.level == "Darkness",
                WATCH_EVERY,
            )
        # The table closes and opens again; the players' screen goes on following it.
        with Expedition.open(path) as table:
            table.execute("light on torch")
            await followed(
                pilot,
                lambda: players.shown is not None and players.shown.level == "Bright light",
                WATCH_EVERY,
            )


async def test_a_players_screen_and_an_act_writer_lose_nothing(home: Path) -> None:
    path = make("crypt")
    commands = [f"turn hazard={n % 5 + 2}" for n in range(30)]  # never a 1: no encounter
    players = PlayersApp(path)
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        writer = delvetui(None, "act", str(path), "-", stdin="\n".join(commands) + "\n")
        assert writer.returncode == 0, writer.stderr
        assert len(writer.stdout.splitlines()) == len(commands)
        with Expedition.open(path, write=False) as done:
            assert done.state.turn == 30
            clock = done.state.clock_text
        await followed(
            pilot,
            lambda: players.shown is not None and clock in (players.shown.clock or ""),
            WATCH_EVERY,
        )
        assert players.reads >= 2


async def test_the_players_screen_offers_only_quitting(home: Path) -> None:
    """Rule: the players' screen offers only what players may do. No command palette (its
    Screenshot wrote a file to ~/Downloads, its Theme changed the screen), no key bound to
    anything but quitting (and copying the text a player selected)."""
    players = PlayersApp(make("crypt"))
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert not any(isinstance(screen, CommandPalette) for screen in players.screen_stack)
        assert len(players.screen_stack) == 1
        actions = {active.binding.action for active in players.screen.active_bindings.values()}
        allowed = {"quit", "help_quit", "app.focus_next", "app.focus_previous", "screen.copy_text"}
        assert actions <= allowed, actions
        assert "quit" in actions


async def test_a_served_players_screen_ends_once_its_server_is_gone(home: Path) -> None:
    """Rule: a players' screen started by `delvetui serve` ends with the server, however the
    server ended: killed outright, the server's screens are left to the system, and a screen
    whose parent is no longer its server quits by itself."""
    path = make("crypt")
    kept = PlayersApp(path, server=os.getppid())
    async with kept.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: kept.shown is not None)
        await pilot.pause(WATCH_EVERY * 3)
        assert kept.is_running and kept.return_code is None
    # Any process but the parent stands for a server that is gone.
    orphaned = PlayersApp(path, server=os.getpid())
    async with orphaned.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause(WATCH_EVERY)
            if orphaned.return_code is not None:
                break
        assert orphaned.return_code == 0


#: A party in torchlight; a turn that meets ghouls 40ft away, revealed to the players.
SHOWN = (
    "pc add Ash hp=6",
    "pc add Eve hp=5",
    "light add torch carrier=Ash lit",
    "turn crawl hazard=1",
    "encounter creature=ghouls distance=40ft",
    "reveal encounter",
)


def drawn(widget: Widget) -> list[str]:
    """The rows a widget draws on the screen, as plain text."""
    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.size))]


def big_rows(widget: BigText, word: str) -> bool:
    """Whether the widget draws the word in block letters at its scale, row by row."""
    rows = drawn(widget)
    return widget.scale > 0 and all(
        any(line in row for row in rows) for line in block_lines(word, widget.scale)
    )


@pytest.mark.parametrize(("size", "scale", "revealed"), [((80, 24), 1, 1), ((160, 45), 2, 2)])
async def test_the_players_screen_reads_across_a_table(
    home: Path, size: tuple[int, int], scale: int, revealed: int
) -> None:
    """Rule: the players' screen fills the screen and reads from across a table: the light's
    word in block letters on a band of its colour across the whole width, the clock in
    block figures with the day under it, the encounter shown with P, its distance and each
    member's hit points in block letters too, at 80×24 as at 160×45. Before: a box of
    80-column text in the middle of the screen; then the distance and hit points in plain
    words, readable from three metres only."""
    path = make("crypt", SHOWN)
    players = PlayersApp(path)
    async with players.run_test(size=size) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        await settle(pilot)
        width, height = size
        band = players.query_one("#band")
        assert band.region.width == width and band.has_class("-bright")
        level = players.query_one("#level", BigText)
        assert level.scale >= scale and big_rows(level, "BRIGHT")
        lines = "\n".join(drawn(players.query_one("#light-lines", Static)))
        assert "Bright light" in lines and "Ash's torch burns bright." in lines
        clock = players.query_one("#clock", BigText)
        with Expedition.open(path, write=False) as made:
            time = made.state.clock_text
        assert clock.scale >= scale and big_rows(clock, time)
        assert "Day 1 · morning" in drawn(players.query_one("#day", Static))[0]
        encounter = players.query_one("#encounter", BigText)
        assert encounter.scale >= revealed and big_rows(encounter, "ghouls")
        assert "AN ENCOUNTER" in drawn(players.query_one("#encounter-label", Static))[0]
        assert big_rows(players.query_one("#distance", BigText), "40ft away")
        # Delving shows hit points: each member's in block letters, the name under them.
        cells = list(players.query_one("#party").query(BigCell))
        assert [cell.big.text for cell in cells] == ["6/6", "5/5"]
        assert all(big_rows(cell.big, cell.big.text) for cell in cells)
        assert [drawn(cell.under)[0].strip() for cell in cells] == ["Ash", "Eve"]
        assert not players.query_one("#sign").display  # no sign was shown
        # The whole screen is used: the band, the clock and what was shown reach the bottom.
        shown = [w for w in players.screen.children if w.display]
        assert min(w.region.y for w in shown) == 0
        assert max(w.region.bottom for w in shown) >= height - 2
        # What was shown takes its share, the light and the clock keep a third at least.
        assert band.region.height + players.query_one("#time").region.height >= height // 3


async def test_the_players_screen_grows_and_shrinks_with_its_window(home: Path) -> None:
    """Rule: the players' screen adapts to the terminal it is in (a browser window resized,
    a terminal made full-screen): the block letters grow to the room they have and shrink
    again, the band always the whole width."""
    players = PlayersApp(make("crypt", SHOWN))
    async with players.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        level = players.query_one("#level", BigText)
        encounter = players.query_one("#encounter", BigText)
        await settled(pilot, lambda: level.scale == 1 and encounter.scale == 1)
        await pilot.resize_terminal(240, 67)
        await settled(pilot, lambda: level.scale >= 4 and encounter.scale >= 3)
        assert players.query_one("#band").region.width == 240
        assert big_rows(level, "BRIGHT") and big_rows(encounter, "ghouls")
        await pilot.resize_terminal(80, 24)
        await settled(pilot, lambda: level.scale == 1 and encounter.scale == 1)
        assert not players.query_one("#players-title").display  # no room for it
        assert players.query_one("#band").region.width == 80


async def test_the_players_screen_shows_the_dark_and_who_stands_in_it(home: Path) -> None:
    """Rule: darkness is a black band with its word in block letters; where a light lights
    only some members (Cairn), who stands outside it is said under the word."""
    text = next(text for _, text in COMPLETE if 'id = "marching-order"' in text)
    path = home / "torch.delve"
    with Expedition.create(path, load_text(text), seed=11) as made:
        for name in ("Ash", "Bo", "Cy", "Dee", "Eve"):
            made.execute(f"pc add {name} hp=6 WIS=10")
        made.execute("light add torch carrier=Bo lit")
    players = PlayersApp(path)
    async with players.run_test(size=(100, 30)) as pilot:
        await settled(pilot, lambda: players.shown is not None)
        lines = "\n".join(drawn(players.query_one("#light-lines", Static)))
        assert "Eve is in darkness." in lines
        with Expedition.open(path) as table:
            table.execute("light off torch")
        await followed(
            pilot, lambda: players.shown is not None and players.shown.shade == "dark", WATCH_EVERY
        )
        await settle(pilot)
        assert players.query_one("#band").has_class("-dark")
        assert big_rows(players.query_one("#level", BigText), "DARK")


@pytest.mark.long
def test_players_screenshot_renders_the_screen_headless(home: Path) -> None:
    """Rule: `delvetui players NAME --screenshot F.svg --size COLSxROWS` renders the players'
    screen headless, as `open --screenshot` does the table, and changes nothing in the file;
    a bad size is a sentence."""
    path = make("crypt", SHOWN)
    before = path.read_bytes()
    out = home / "players.svg"
    done = delvetui(home, "players", "crypt", "--screenshot", str(out), "--size", "80x24")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    picture = html.unescape(out.read_text(encoding="utf-8")).replace("\xa0", " ")
    assert picture.startswith("<svg") and "delvetui players" in picture
    for row in block_lines("BRIGHT", 1) + block_lines("5/5", 1):
        assert row.strip() in picture  # the hit points' cells are made before the picture
    assert "AN ENCOUNTER" in picture and "Ash's torch burns bright." in picture
    assert path.read_bytes() == before
    bad = delvetui(home, "players", "crypt", "--screenshot", str(out), "--size", "big")
    assert bad.returncode == 2 and "--size big is not COLSxROWS" in bad.stderr


def test_block_letters_grow_to_the_room_wrap_or_give_way_to_words() -> None:
    """Rule: block letters take the largest size that fits the room given, a long sign in
    up to the lines allowed, and plain words when even the smallest does not fit or a
    character has no block letter (the words are never cut)."""
    assert fit("BRIGHT", 76, 6, 12) == (2, ["BRIGHT"])
    assert fit("BRIGHT", 76, 4, 12) == (1, ["BRIGHT"])
    assert fit("BRIGHT", 300, 100, 12) == (9, ["BRIGHT"])  # 9 × 33 dots across
    sign = "a cold draught from the stairs"
    assert fit(sign, 116, 20, 2, lines=2) == (1, ["a cold draught from", "the stairs"])
    assert fit(sign, 116, 20, 2, lines=1) == (0, [])
    assert fit("ghouls — 3 of them", 116, 20, 2, lines=2) == (0, [])
    rows = block_lines("DIM", 1)
    assert len(rows) == 3 and len({len(row) for row in rows}) == 1


def test_only_the_players_words_of_an_encounter_reach_their_screen(expedition: Factory) -> None:
    """Rule: the game master's words for an encounter (a book's page) never reach the players'
    screen; it shows the creature the table named, else the procedure's `players` words.
    Before: "An encounter (see the Encounters page)." on the TV."""
    made = expedition("trespasser")
    run(made, "pc add Ash hp=6", "light add torch lit", "turn advance hazard=1 usage.torch1=6")
    assert "Encounters page" in (made.state.encounter or "")
    made.execute("reveal encounter")
    assert "Encounter: Something finds you." in seen(made)
    assert not any("page" in line for line in seen(made))
    made.execute("encounter creature=ratmen")
    assert "Encounter: ratmen" in seen(made)


def test_each_lit_light_has_its_time_left_where_players_know_it(expedition: Factory) -> None:
    """Rule: with `[players] light_turns`, each lit light's time left is on the players'
    screen: OSE's turns, Trespasser's usage die; without it (Delving), nothing of the kind."""
    ose = expedition("ose")
    run(ose, "pc add Ash hp=6", "light add torch carrier=Ash lit", "turn")
    shown = view(ose.state, ose.procedure)
    assert [(one.words, one.left, one.short) for one in shown.left] == [
        ("Ash's torch burns bright.", "5 turns", "5t")
    ]
    assert "Ash's torch burns bright (5 turns left)." in shown.lines()

    trespasser = expedition("trespasser", name="vault")
    run(trespasser, "pc add Ash hp=6", "light add torch carrier=Ash lit")
    shown = view(trespasser.state, trespasser.procedure)
    assert [one.left for one in shown.left] == ["d6"]
    assert "Ash's torch burns bright (usage die d6)." in shown.lines()

    delving = expedition("delving", name="crypt")
    run(delving, "light add torch lit")
    assert view(delving.state, delving.procedure).left == ()


async def test_the_lights_time_left_is_in_block_letters(home: Path) -> None:
    """Rule: on the players' screen each lit light has its time left in block letters with
    its words under it, in fewer letters where the screen is narrow; no light, no cells."""
    path = make(
        "keep",
        (
            "pc add Ash hp=6",
            "pc add Eve hp=5",
            "light add torch carrier=Ash lit",
            "light add lantern carrier=Eve lit",
            "turn",
        ),
        procedure="ose",
    )
    players = PlayersApp(path)
    async with players.run_test(size=(160, 45)) as pilot:
        await settled(pilot, lambda: len(players.query_one("#light-left").query(BigCell)) == 2)
        await settle(pilot)
        cells = list(players.query_one("#light-left").query(BigCell))
        assert all(big_rows(cell.big, cell.big.text) for cell in cells)
        assert [cell.big.text for cell in cells] == ["5 turns", "23 turns"]
        assert "Eve's lantern burns bright." in drawn(cells[1].under)[0]
        with Expedition.open(path) as table:
            table.execute("light off torch")
            table.execute("light off lantern")
        await followed(
            pilot, lambda: players.shown is not None and not players.shown.left, WATCH_EVERY
        )
        await settle(pilot)
        assert not players.query_one("#light-left").display


def test_a_version_4_encounter_said_nothing_for_the_players() -> None:
    read = ev.Event.from_payload("EncounterBegan", 4, {"text": "Bats.", "creature": ""})
    assert isinstance(read, ev.EncounterBegan) and read.players == ""
