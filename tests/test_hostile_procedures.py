"""Procedure and tables files made to exhaust the machine are refused at once, with a
sentence (docs/reliability.md, "Hostile TOML" and "Rolls that run away").

Two ways a file could take the machine: its TOML (a key of thousands of dotted parts made
``tomllib`` use memory growing with the square of its length), and its rolls (a table that
rolls itself, or a chain in which each table rolls the next twice). Each bound is tried
just past it, through the loader, the command line under a memory limit, ``tables add``
and the import; the core's own guard is tried with a procedure the check lets through.
"""

from __future__ import annotations

import json
import random
import resource
import time
from pathlib import Path
from typing import Any, cast

import attrs
import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delvetui.core import commands as cmd
from delvetui.core.decide import decide, start_events
from delvetui.core.evolve import fold
from delvetui.core.runaway import MAX_COMMAND_EVENTS
from delvetui.core.state import State
from delvetui.errors import CommandError, ProcedureError
from delvetui.export import export
from delvetui.export.importing import import_file
from delvetui.export.json_format import ImportRefused
from delvetui.procedure import adventure, fanout
from delvetui.procedure.loader import MAX_FILE_BYTES, load_bytes, load_text
from delvetui.procedure.model import Effect, Procedure
from delvetui.procedure.reading import (
    MAX_BARE,
    MAX_ITEMS,
    MAX_KEY_PARTS,
    MAX_KEYS,
    MAX_NESTING,
    MAX_STRING,
    MAX_VALUES,
    shape,
)
from delvetui.procedure.registry import shipped_dir
from delvetui.procedure.tree import MAX_ROLL_DEPTH
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.shipped import SHIPPED_FILES

DELVING = (shipped_dir() / "delving.toml").read_text(encoding="utf-8")


def dotted(size: int) -> str:
    """The file of the report: an id, then one key ``a.a.a…a.b = 1`` of about ``size`` bytes."""
    return 'id = "x"\n' + "a." * ((size - 20) // 2) + "b = 1\n"


def problems(text: str) -> list[str]:
    """The problems the loader lists for a procedure text, refused within a second."""
    start = time.perf_counter()
    with pytest.raises(ProcedureError) as caught:
        load_text(text, source="hostile.toml")
    assert time.perf_counter() - start < 1.0
    return [str(problem) for problem in caught.value.problems]


def with_tables(tables: str, action: str = "t0", *, name: str = "spin") -> str:
    """Delving with an activity that rolls table ``action`` and these tables added."""
    return (
        DELVING.replace('id = "delving"', 'id = "hostile"')
        + f'\n[actions.{name}]\nlabel = "Spin"\nkind = "activity"\n'
        + f'effects = [{{ do = "roll", table = "{action}" }}]\n'
        + tables
    )


def table(name: str, *rolls: str) -> str:
    """A d2 table whose one row rolls each table of ``rolls``."""
    effects = ", ".join(f'{{ do = "roll", table = "{roll}" }}' for roll in rolls)
    return (
        f'\n[tables.{name}]\nlabel = "{name}"\ndice = "d2"\n'
        f'rows = [{{ roll = "1-2", label = "on", effects = [{effects}] }}]\n'
    )


def chain(count: int, times: int) -> str:
    """Tables t0 … t(count-1), the row of each rolling the next ``times`` times."""
    return "".join(
        table(f"t{i}", *([f"t{i + 1}"] * times if i + 1 < count else [])) for i in range(count)
    )


# The TOML a file may hold ---------------------------------------------------------------------


def test_a_key_of_thousands_of_dotted_parts_is_refused_at_once_under_a_memory_limit(
    tmp_path: Path,
) -> None:
    """Rule: a TOML text is bounded before tomllib parses it (docs/reliability.md 5e). The
    report's file (62 KB, one key of 31,000 parts) took 15 s and 5.7 GB; under an address
    space of 1 GiB it is refused with a sentence, exit 2, in the time the program starts,
    by ``procedures check``, the procedure list and ``new``."""
    (tmp_path / "procedures").mkdir()
    hostile = tmp_path / "procedures" / "dots.toml"
    hostile.write_text(dotted(62_000), encoding="utf-8")

    def one_gib() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    start = time.perf_counter()
    checked = delvetui(tmp_path, "procedures", "check", str(hostile), limit=one_gib)
    assert time.perf_counter() - start < 5.0  # a fresh interpreter on a loaded machine
    assert checked.returncode == 2, checked.stderr
    assert "line 2: a.a.a.a" in checked.stderr
    assert "is a key of 30,991 dotted parts; a key may have at most 16" in checked.stderr
    assert "Traceback" not in checked.stderr
    listed = delvetui(tmp_path, "procedures", limit=one_gib)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    made = delvetui(tmp_path, "new", "x", "--procedure", "delving", limit=one_gib)
    assert made.returncode == 0, made.stderr
    # The check itself, without the program's start: well under a second.
    start = time.perf_counter()
    with pytest.raises(ProcedureError, match="dotted parts"):
        load_bytes(hostile.read_bytes(), source="dots.toml")
    assert time.perf_counter() - start < 0.5


def keys(count: int) -> str:
    return "".join(f"k{i} = {i}\n" for i in range(count))


#: name: (a text just past one bound, what its problem says with its line and key)
PAST: dict[str, tuple[str, str]] = {
    "a dotted key": (
        'id = "x"\n\n' + ".".join(["a"] * (MAX_KEY_PARTS + 1)) + " = 1\n",
        "line 3: a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a: is a key of 17 dotted parts; a key may "
        "have at most 16",
    ),
    "a table name": (
        'id = "x"\n[' + ".".join(["t"] * (MAX_KEY_PARTS + 1)) + "]\n",
        "line 2: t.t.t.t.t.t.t.t.t.t.t.t.t.t.t.t.t: is a table name of 17 dotted parts",
    ),
    "a key inside an inline table": (
        'id = "x"\nx = { ' + ".".join(["b"] * (MAX_KEY_PARTS + 1)) + " = 1 }\n",
        "line 2: x.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b: is a key of 17 dotted parts",
    ),
    "the number of keys": (
        keys(MAX_KEYS + 1),
        f"line {MAX_KEYS + 1}: k{MAX_KEYS}: is key {MAX_KEYS + 1:,} of the file; a file may "
        f"hold at most {MAX_KEYS:,}",
    ),
    "the nesting": (
        'id = "x"\n\nx = ' + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n",
        "line 3: x[0][0][0]",
    ),
    "the nesting of inline tables": (
        "x = " + "{ a = " * (MAX_NESTING + 1) + "1" + " }" * (MAX_NESTING + 1) + "\n",
        "nests arrays or tables too deeply (33 levels; at most 32)",
    ),
    "a list's length": (
        'id = "x"\nlist = [\n' + "1,\n" * (MAX_ITEMS + 1) + "]\n",
        "list: is a list of more than 5,000 items; a list may hold at most 5,000.",
    ),
    "a list of texts": (
        'id = "x"\nnames = [' + ", ".join(['"a, b"'] * (MAX_ITEMS + 1)) + "]\n",
        "line 2: names: is a list of more than 5,000 items",
    ),
    "the number of values": (
        "".join(f"l{i} = [{', '.join(['1'] * 3999)}]\n" for i in range(5)) + "last = 1\n",
        "line 6: last: is value 20,001 of the file; a file may hold at most 20,000",
    ),
    "a text's length": (
        'id = "x"\n\n[actions.walk]\nlabel = "' + "W" * (MAX_STRING + 1) + '"\n',
        "line 4: actions.walk.label: is a text of 20,001 characters; a text may hold at "
        "most 20,000.",
    ),
    "a multi-line text's length": (
        'id = "x"\ntext = """\n' + ("x" * 99 + "\n") * 201 + '"""\nname = "y"\n',
        "line 2: text: is a text of 20,101 characters",
    ),
    "a number's length": (
        'id = "x"\nversion = ' + "9" * 5000 + "\n",
        "line 2: version: is a value of 5,000 characters; a number or a date may have at most 64.",
    ),
    "a long number in a list": (
        'id = "x"\nlist = [1, ' + "9" * (MAX_BARE + 1) + ", 2]\n",
        "line 2: list[1]: is a value of 65 characters",
    ),
    "the size": (
        "# " + "x" * MAX_FILE_BYTES + "\n",
        "is 256,003 bytes; a procedure file may be at most 256 KB.",
    ),
}


@pytest.mark.parametrize("name", sorted(PAST))
def test_each_bound_of_the_toml_is_refused_with_its_key_and_line(name: str) -> None:
    """Rule: every bound a text breaks is a problem with its key path and line, like any
    other problem of a procedure (docs/procedures.md, "Limits")."""
    text, expected = PAST[name]
    found = problems(text)
    assert any(expected in problem for problem in found), found
    # The same bounds hold for an adventure's tables file, read by the same parse.
    if len(text.encode()) <= adventure.MAX_FILE_BYTES:
        with pytest.raises(ProcedureError, match=r"at most|too deeply"):
            adventure.load_text(text)


def test_a_file_just_within_every_bound_is_parsed() -> None:
    """Rule: the bounds refuse only what passes them; a text at each of them is read (and
    the loader then says what it lacks, not that it is too large)."""
    text = (
        ".".join(["a"] * (MAX_KEY_PARTS - 1))
        + ".b = 1\n"
        + "x = "
        + "[" * MAX_NESTING
        + "]" * MAX_NESTING
        + "\n"
        + f"list = [{', '.join(['1'] * MAX_ITEMS)}]\n"
        + f'text = "{"y" * MAX_STRING}"\n'
        + f"version = {'9' * MAX_BARE}\n"
    )
    found = shape(text)
    assert found.problems == [] and found.stopped == len(text)
    assert (found.parts, found.nesting, found.items, found.string, found.bare) == (
        MAX_KEY_PARTS,
        MAX_NESTING,
        MAX_ITEMS,
        MAX_STRING,
        MAX_BARE,
    )
    assert not any("at most" in problem for problem in problems(text))


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.stem)
def test_every_shipped_file_is_far_within_the_bounds(path: Path) -> None:
    """Rule: each bound is far above what a real procedure needs: the shipped files use at
    most an eighth of the keys and a sixth of the size (a tenth of the values, a quarter of
    the nesting; docs/procedures.md, "Limits", gives the margins)."""
    text = path.read_text(encoding="utf-8")
    found = shape(text)
    assert found.problems == [] and found.stopped == len(text)
    assert found.parts * 4 <= MAX_KEY_PARTS
    assert found.keys * 8 <= MAX_KEYS
    assert found.values * 10 <= MAX_VALUES
    assert found.nesting * 4 <= MAX_NESTING
    assert found.items * 100 <= MAX_ITEMS
    assert found.string * 40 <= MAX_STRING
    assert found.bare * 3 <= MAX_BARE
    assert len(text.encode()) * 6 <= MAX_FILE_BYTES


def _documents() -> st.SearchStrategy[dict[str, Any]]:
    names = st.text(alphabet="ab._-\"' é1", min_size=1, max_size=6)
    leaves = (
        st.integers(-(10**9), 10**9)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.booleans()
        | st.text(alphabet="ab\"'\\\n\t,#[]{}=é", max_size=12)
        | st.datetimes()
        | st.dates()
        | st.times()
    )
    values = st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=4),
        max_leaves=20,
    )
    return st.dictionaries(names, values, max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents(), st.booleans())
def test_the_scan_follows_any_valid_toml_to_its_end(document: dict[str, Any], multi: bool) -> None:
    """Rule: the scan stops only where the text stops being TOML, so nothing tomllib would
    read is left unscanned (a hostile key after a construct the scan misread)."""
    text = tomli_w.dumps(document, multiline_strings=multi)
    found = shape(text)
    assert found.problems == [] and found.stopped == len(text), text[found.stopped :]


# Rolls that run away -------------------------------------------------------------------------


def test_a_table_that_rolls_itself_and_two_that_roll_each_other_are_refused(
    tmp_path: Path,
) -> None:
    """Rule: a table that can reach itself through any chain of rolls is refused by the
    check, naming the chain (it ended in a RecursionError traceback)."""
    alone = tmp_path / "loop.toml"
    alone.write_text(with_tables(table("loop", "loop"), "loop"), encoding="utf-8")
    pair = tmp_path / "pair.toml"
    pair.write_text(with_tables(table("a", "b") + table("b", "a"), "a"), encoding="utf-8")
    checked = delvetui(tmp_path, "procedures", "check", str(alone))
    assert checked.returncode == 2, checked.stderr
    assert "tables.loop.rows[0].effects[0].table: tables.loop rolls itself: loop → loop;" in (
        checked.stderr
    )
    checked = delvetui(tmp_path, "procedures", "check", str(pair))
    assert checked.returncode == 2, checked.stderr
    assert "tables.a rolls itself: a → b → a;" in checked.stderr
    # Through a check's branch too, and from a hazard roll as much as from an action.
    nested = with_tables(
        '\n[tables.deep]\nlabel = "Deep"\ndice = "d2"\nrows = [{ roll = "1-2", label = "x", '
        'effects = [{ do = "check", id = "save", on_failure = [{ do = "roll", table = "deep" '
        "}] }] }]\n",
        "deep",
    )
    assert any("tables.deep rolls itself: deep → deep" in p for p in problems(nested))


def test_a_chain_of_tables_each_rolling_the_next_twice_is_refused_at_check_time() -> None:
    """Rule: the worst number of table rolls one command can lead to is bounded at check
    time, and a procedure past it is refused naming the chain (17 such tables wrote
    327,684 events for one turn)."""
    found = problems(with_tables(chain(12, 2)))
    assert found == [
        f"line {found[0].split(':')[0].removeprefix('line ')}: tables.t0: one roll on it can "
        "lead to 4,095 rolls of tables (t0 → t1 ×2 → t2 ×2 → t3 ×2 → t4 ×2 → … → t10 ×2 → "
        "t11 ×2); one command may roll at most 1,000."
    ]
    assert load_text(with_tables(chain(9, 2)))  # 511 rolls: within the bound
    deep = problems(with_tables(chain(MAX_ROLL_DEPTH + 1, 1)))
    assert any("starts a chain of 13 tables" in p and "at most 12" in p for p in deep), deep
    # Each command is counted whole: a turn of many turns, each rolling a long chain.
    many = with_tables(chain(9, 2)).replace(
        'label = "Spin"\nkind = "activity"', 'label = "Spin"\nkind = "move"\nturns = 3'
    )
    assert any(
        "actions.spin: can roll tables 1,536 times in one command (3 turns of up to 512" in p
        for p in problems(many)
    )


def test_the_shipped_procedures_roll_only_a_few_tables_a_command() -> None:
    """Rule: the bound on rolls is far above what a real procedure makes (at most 18 rolls
    of tables in one command, counted at their worst, 2 tables deep)."""
    for path in sorted(shipped_dir().glob("*.toml")):
        procedure = load_text(path.read_text(encoding="utf-8"))
        reach = fanout.reaches(fanout.roll_edges(procedure))
        assert all(r.depth <= 2 for r in reach.values()), path.stem
        for group in ("actions", "activities"):
            for name, action in getattr(procedure, group).items():
                turns, per_turn = fanout.command_rolls(procedure, reach, name, action.effects)
                assert turns * per_turn <= 20, (path.stem, name)


def test_tables_add_refuses_a_hostile_tables_file_and_writes_nothing(
    home: Path, tmp_path: Path
) -> None:
    """Rule: an adventure's tables file is read by the same bounded parse as a procedure
    (`tables add` of the dotted key took 13.5 s)."""
    hostile = tmp_path / "dots.toml"
    hostile.write_text(dotted(adventure.MAX_FILE_BYTES - 100), encoding="utf-8")
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "\n", encoding="utf-8")
    with Expedition.create(home / "crypt.delve", load_text(DELVING), seed=1) as made:
        before = made.batch_count
        for path, said in ((hostile, "dotted parts"), (deep, "nests arrays or tables too")):
            start = time.perf_counter()
            with pytest.raises(ProcedureError, match=said):
                made.execute(f"tables add {path}")
            assert time.perf_counter() - start < 1.0
        assert made.batch_count == before


def test_an_export_carrying_a_hostile_procedure_is_refused_and_nothing_is_made(
    home: Path,
) -> None:
    """Rule: the procedure text inside an export is read by the same bounded parse and the
    same check of rolls (`import` of the dotted key took 12.9 s)."""
    with Expedition.create(home / "crypt.delve", load_text(DELVING), seed=1) as made:
        made.execute("pc add Ash hp=6")
        data: dict[str, Any] = json.loads(export(made, "json"))
    (home / "crypt.delve").unlink()
    for text, said in (
        (dotted(60_000), "is a key of 29,991 dotted parts"),
        (with_tables(table("loop", "loop"), "loop"), "tables.loop rolls itself: loop → loop"),
        (with_tables(chain(12, 2)), "one roll on it can lead to 4,095 rolls of tables"),
    ):
        data["procedure"]["text"] = text
        data["procedure"].pop("id", None)
        source = home / "hostile.json"
        source.write_text(json.dumps(data), encoding="utf-8")
        start = time.perf_counter()
        with pytest.raises(ImportRefused, match=said):
            import_file(source, "copy")
        assert time.perf_counter() - start < 1.0
        assert not (home / "copy.delve").exists()


# The core's own guard ------------------------------------------------------------------------


def test_a_command_past_the_event_bound_is_refused_and_writes_nothing(home: Path) -> None:
    """Rule: whatever the check lets through, one command writes at most
    MAX_COMMAND_EVENTS events; past it, a CommandError sentence and nothing saved. Here a
    check for each member of the party rolls a chain of 511 tables: within the check's
    bound for one member, past the core's for five."""
    text = with_tables(chain(9, 2)).replace(
        'effects = [{ do = "roll", table = "t0" }]',
        'effects = [{ do = "check", id = "nerve", target = "each", dc = 30, '
        'on_failure = [{ do = "roll", table = "t0" }] }]',
    )
    with Expedition.create(home / "many.delve", load_text(text), seed=1) as made:
        made.execute("pc add Ash hp=6")
        assert len(made.execute("turn spin").events) > 1000  # one member: allowed
        for name in ("Bryn", "Cass", "Dell", "Eve"):
            made.execute(f"pc add {name} hp=6")
        before = (made.batch_count, made.event_count)
        start = time.perf_counter()
        with pytest.raises(CommandError) as caught:
            made.execute("turn spin")
        assert time.perf_counter() - start < 2.0
        assert caught.value.message == (
            f"This command would write more than {MAX_COMMAND_EVENTS:,} events: the "
            "procedure's tables roll one another too often. Nothing was saved; fix the "
            "procedure's tables."
        )
        assert (made.batch_count, made.event_count) == before
    with Expedition.open(home / "many.delve") as again:
        assert (again.batch_count, again.event_count) == before


def test_the_core_refuses_a_table_that_rolls_itself_without_a_traceback() -> None:
    """Rule: the core refuses a roll made inside itself, and one more than MAX_ROLL_DEPTH
    tables deep, with a sentence, however the procedure was made (here, in memory, past
    the loader)."""

    def rolling(procedure: Procedure, name: str, target: str) -> Procedure:
        """The procedure with the row of table ``name`` rolling ``target``."""
        found = procedure.tables[name]
        # cast: mypy reads the fields' converter (as_tuple) as taking an unsolved Iterable[T].
        row = attrs.evolve(found.rows[0], effects=cast(Any, (Effect(do="roll", table=target),)))
        changed = attrs.evolve(found, rows=cast(Any, (row,)))
        return attrs.evolve(procedure, tables={**procedure.tables, name: changed})

    def spun(procedure: Procedure) -> None:
        state = fold(State(), start_events("t", procedure, seed=1))
        decide(state, procedure, cmd.parse("turn spin"), rng=random.Random(1))

    loop = rolling(load_text(with_tables(table("loop"), "loop")), "loop", "loop")
    with pytest.raises(CommandError, match=r"Table 'loop' rolls itself \(loop → loop\)"):
        spun(loop)
    deep = load_text(with_tables(chain(MAX_ROLL_DEPTH, 1) + table(f"t{MAX_ROLL_DEPTH}")))
    deeper = rolling(deep, f"t{MAX_ROLL_DEPTH - 1}", f"t{MAX_ROLL_DEPTH}")
    with pytest.raises(CommandError, match=r"The rolls go more than 12 tables deep \(t0 → t1"):
        spun(deeper)
