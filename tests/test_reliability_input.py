"""Dice bombs, hostile commands, and properties of the core for any input at all.

Every hostile expression or command gets a clear error within a second and writes nothing,
or is taken literally: markup and escape-looking text in names and notes comes back exactly
as typed, in the log, ``status`` and every export. Hypothesis then throws arbitrary text at
the command parser and random command sequences at every shipped procedure: only
CommandError (or a request for a die roll) ever comes out, and a replay of the file always
equals the live state.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delvetui import dice
from delvetui.core import commands as cmd
from delvetui.errors import CommandError, DelveError, DiceError, RollNeeded
from delvetui.export.markdown import escape
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui, made
from tests.faults.harness import scaled
from tests.shipped import SHIPPED


@pytest.fixture(scope="module")
def playing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Expedition]:
    """One expedition (in the tests' temporary folder, on a RAM disk where there is one)."""
    folder = tmp_path_factory.mktemp("hostile")
    with Expedition.create(folder / "x.delve", find("delving"), seed=9) as x:
        x.execute("pc add Ash hp=6")
        x.execute("light add torch count=2 carrier=Ash lit")
        yield x


def quickly_refused(x: Expedition, text: str) -> DelveError:
    """Execute ``text``: it must fail with a DelveError within a second, writing nothing."""
    before, count = x.state, x.store.batch_count()
    start = time.perf_counter()
    with pytest.raises(DelveError) as caught:
        x.execute(text)
    assert time.perf_counter() - start < 1.0, text[:80]
    assert x.store.batch_count() == count and x.state == before
    message = str(caught.value)
    assert message and "\x1b" not in message and len(message) < 1000, message[:200]
    return caught.value


DICE_BOMBS = {
    "1000000d1000000": "the largest die is d1000",
    "1000000d6": "at most 100 dice",
    "d99999999999999999999999999999": "the largest die is d1000",
    "99999999999999999999999999999d6": "at most 100 dice",
    "d0": "the smallest die is d2",
    "d1": "the smallest die is d2",
    "0d6": "rolls no dice",
    "2d20kh999": "keeps 999 of 2 dice",
    "d6+" * 30: "characters long",
    "d6+": "nothing follows a '+'",
    "pc": "is not a dice expression",
    "+".join(["d6"] * 9): "9 terms",
    "(" * 30 + "d6" + ")" * 30: "is not a dice expression",
    "d6*1000": "is not a dice expression",
    "d6^d6^d6": "is not a dice expression",
    "d6+99999": "modifier",
    "d٦": "is not a dice expression",
    "d６": "is not a dice expression",
    " " * 63: "empty",
    "x" * 10_000_000: "characters long",
    "d6\x1b[2J": "is not a dice expression",
}


@pytest.mark.parametrize("expression", sorted(DICE_BOMBS), ids=lambda e: repr(e[:20]))
def test_a_dice_bomb_is_refused_within_a_second(expression: str, playing: Expedition) -> None:
    start = time.perf_counter()
    with pytest.raises(DiceError, match=re.escape(DICE_BOMBS[expression])):
        dice.parse(expression)
    assert time.perf_counter() - start < 1.0
    if len(expression) <= cmd.MAX_COMMAND_LENGTH - 10 and "\x1b" not in expression:
        quickly_refused(playing, f"roll '{expression}'")


@pytest.mark.parametrize(
    "value",
    ["7", "0", "-1", "999999", "9" * 64, "9" * 65, "1,2,3", "٣", "1e3", "0x10", "", "3 4"],
)
def test_an_impossible_die_result_is_refused(value: str, playing: Expedition) -> None:
    quickly_refused(playing, f"turn crawl 'hazard={value}'")


HOSTILE_COMMANDS = {
    "2001 characters": "note " + "x" * 1996,
    "a megabyte": "note " + "x" * 1_000_000,
    "unbalanced quote": "pc add 'Ash hp=6",
    "a thousand and one quotes": "pc add " + '"' * 1001,
    "a name missing": "pc hp=3",
    "NUL": "note a\x00b",
    "escape sequence": "note \x1b[2J\x1b]0;pwned\x07",
    "C1 control": "note \x9b31m",
    "bidi override": "pc add 'Ash\u202eevil' hp=3",
    "a thousand keys": "turn " + " ".join(f"k{i}=1" for i in range(300)),
    "huge number": "pc add Bo hp=9999999",
    "unicode digits": "pc add Bo hp=٣",
    "41-character name": "pc add " + "N" * 41 + " hp=3",
    "name like a key": "pc add 'a=b' hp=3",
    "many lights": "light add torch count=1000",
    "many time dice": "time roll 99",
    "a verb of 10000 letters": "z" * 1999,
    "empty": "   ",
    "only a comment sign": "#",
    "unknown action": "turn fly",
    "undo twice too far": "redo",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_COMMANDS))
def test_a_hostile_command_is_refused_within_a_second(name: str, playing: Expedition) -> None:
    quickly_refused(playing, HOSTILE_COMMANDS[name])


LITERAL_NAME = "[b]Zed[/b] <i>&amp;"
LITERAL_NOTE = "<script>alert(1)</script> [red]x[/] *not bold* `code` \\[ %s {name} $(rm -rf ~)"


def test_markup_in_names_and_notes_comes_back_literally(tmp_path: Path) -> None:
    def run(*args: str, stdin: str | None = None) -> str:
        result = delvetui(tmp_path, *args, stdin=stdin)
        assert result.returncode == 0, result.stderr
        return result.stdout

    made(tmp_path, "x", "delving", seed=2)  # as `delvetui new x --procedure delving --seed 2`
    script = f'pc add "{LITERAL_NAME}" hp=4\nnote {LITERAL_NOTE}\n'
    acks = run("act", "x", "-", stdin=script).splitlines()
    assert acks[1] == f"ok 3 note {LITERAL_NOTE}"
    assert LITERAL_NAME in run("status", "x")
    assert json.loads(run("status", "x", "--json"))["party"][0]["name"] == LITERAL_NAME
    # Plain text wraps long lines; the words are all there, as typed.
    assert " ".join(LITERAL_NOTE.split()) in " ".join(run("export", "x", "--format", "txt").split())
    assert escape(LITERAL_NOTE) in run("export", "x", "--format", "md")
    page = run("export", "x", "--format", "html")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    exported = json.loads(run("export", "x", "--format", "json"))
    payloads = [e["payload"] for b in exported["batches"] for e in b["events"]]
    assert {"text": LITERAL_NOTE} in [{"text": p.get("text")} for p in payloads]
    with Expedition.open(tmp_path / "x.delve", write=False) as x:
        assert x.state.party[0].name == LITERAL_NAME
        assert [b.command for b in x.batches()][-1] == f"note {LITERAL_NOTE}"


# -- properties ------------------------------------------------------------------------------------


@settings(max_examples=scaled(600), deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_to_a_command_or_a_command_error(text: str) -> None:
    try:
        command = cmd.parse(text)
    except CommandError as error:
        assert str(error)
        return
    assert isinstance(command, cmd.Command) and command.text == text.strip()


def words(procedure_id: str) -> st.SearchStrategy[str]:
    """Words of the command language, this procedure's names, and junk in between."""
    procedure = find(procedure_id)
    names = [
        *procedure.actions,
        *procedure.activities,
        *procedure.lights,
        *procedure.turn_types,
        *procedure.counters,
        "torch1",
        "torch2",
        "Ash",
        "'Old Tom'",
        "nobody",
        "lit",
        "+tired",
        "-tired",
        "add",
        "remove",
        "on",
        "off",
        "give",
        "set",
        "refuel",
        "start",
        "end",
        "roll",
    ]
    keys = ["hp", "max", "fatigue", "count", "carrier", "turns", "minutes", "hazard", "result"]
    keys += ["time", "stealth", "STR", "CON", "by", *procedure.rolls]
    values = ["0", "1", "3", "6", "-1", "+2", "-7", "999999", "", "x", "٣", "2,3", "20", "success"]
    return st.one_of(
        st.sampled_from(names),
        st.builds(lambda k, v: f"{k}={v}", st.sampled_from(keys), st.sampled_from(values)),
        st.sampled_from(["2d6", "d20", "1000000d6", "2-in-6", "12:30", "25:00", "[b]x[/b]"]),
        st.text(max_size=6),
    )


def command_texts(procedure_id: str) -> st.SearchStrategy[str]:
    verbs = st.sampled_from([*cmd.USAGE, "turn", "turn", "pc", "light", "do", "help", "x"])
    return st.builds(
        lambda verb, rest: " ".join([verb, *rest]),
        verbs,
        st.lists(words(procedure_id), max_size=5),
    )


@settings(
    max_examples=scaled(60),
    stateful_step_count=1,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(
    procedure_id=st.sampled_from(SHIPPED),
    ask=st.booleans(),
    data=st.data(),
)
def test_random_commands_on_random_states_only_raise_clear_errors(
    tmp_path_factory: pytest.TempPathFactory, procedure_id: str, ask: bool, data: st.DataObject
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    with Expedition.create(folder / "x.delve", find(procedure_id), seed=1) as x:
        scores = " ".join(f"{a}=12" for a in x.procedure.party.abilities[:2]) or "STR=12 CON=11"
        for setup in (f"pc add Ash hp=6 {scores}", "light add torch count=2 carrier=Ash"):
            x.execute(setup)
        texts = data.draw(st.lists(command_texts(procedure_id), min_size=5, max_size=25))
        for text in texts:
            before, count = x.state, x.batch_count
            try:
                x.execute(text, ask=ask)
            except (DelveError, RollNeeded):
                assert x.state == before and x.batch_count == count
        live, path = x.state, x.path
    with Expedition.open(path) as again:
        assert again.state == live
