"""Hostile procedures: a procedure file may come from a stranger on a forum.

Every bad file gives a ProcedureError listing its problems (with lines where the text shows
them), within a second: never a traceback, never a hang, never a file read without limit. A
file that does load is safe to play: random commands on it only ever give a clear error.
The known cases are a table below; Hypothesis adds mutated and random documents.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from delvetui.errors import DelveError, ProcedureError, RollNeeded
from delvetui.procedure.loader import MAX_FILE_BYTES, load_bytes, load_file, load_text
from delvetui.session import Expedition
from tests.cli_support import delvetui
from tests.faults.harness import fast_folder, scaled
from tests.shipped import SHIPPED, shipped_text
from tests.test_loader import MINIMAL

TEXTS = {name: shipped_text(name) for name in SHIPPED}


def walk(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def nested_effects(depth: int) -> str:
    inner = '{ do = "log", text = "deep" }'
    for _ in range(depth):
        inner = f'{{ do = "check", ability = "STR", on_failure = [{inner}] }}'
    return inner


#: name: (the file's text, a piece of the message that must be there)
HOSTILE: dict[str, tuple[str, str]] = {
    "syntax error": (
        walk(MINIMAL, 'label = "Walk"', 'label = "Walk'),
        "line 8: is not valid TOML at column",
    ),
    "unclosed table header": (
        walk(MINIMAL, "[actions.walk]", "[actions.walk"),
        "line 7: is not valid TOML at column",
    ),
    "wrong type": (
        walk(MINIMAL, 'label = "Walk"', "label = 3"),
        "line 8: actions.walk.label: should be text, not the number 3",
    ),
    "float for a whole number": (
        walk(MINIMAL, 'label = "Walk"', 'label = "Walk"\nturns = 1.5'),
        "should be a whole number, not the number 1.5",
    ),
    "date for text": (
        walk(MINIMAL, 'name = "Tiny"', "name = 1979-05-27"),
        "name: should be text, not date",
    ),
    "unknown key": (walk(MINIMAL, 'label = "Walk"', 'lable = "Walk"'), "Did you mean 'label'?"),
    "unknown key after a table": (
        MINIMAL + 'colour = "red"\n',
        "'colour' is not a key of tables.hazard.rows[1]",
    ),
    "missing key": (
        walk(MINIMAL, 'default_action = "walk"\n', ""),
        "is missing the key 'default_action'",
    ),
    "empty file": ("", "is missing the key 'id'"),
    "duplicate id (table twice)": (
        MINIMAL + '[actions.walk]\nlabel = "Again"\n',
        "Cannot declare ('actions', 'walk') twice",
    ),
    "duplicate key": (
        walk(MINIMAL, 'label = "Walk"', 'label = "Walk"\nlabel = "Run"'),
        "line 9: is not valid TOML at column 14: Cannot overwrite a value",
    ),
    "overlapping ranges": (
        walk(MINIMAL, 'roll = "4-6"', 'roll = "3-6"'),
        "3 is also covered by row 1; ranges overlap",
    ),
    "gap in a table": (
        walk(MINIMAL, 'roll = "4-6"', 'roll = "5-6"'),
        "no row covers 4; leave no gaps",
    ),
    "range past the die": (
        walk(MINIMAL, 'roll = "4-6"', 'roll = "4-99"'),
        "4-99 is outside what d6 can roll (1-6)",
    ),
    "range backwards": (walk(MINIMAL, 'roll = "4-6"', 'roll = "6-4"'), "'6-4' is not a range"),
    "no rows": (MINIMAL.split("[[tables.hazard.rows]]")[0], "is missing the key 'rows'"),
    "missing table": (
        walk(MINIMAL, 'table = "hazard"', 'table = "hazzard"'),
        "names the table 'hazzard', which does not exist",
    ),
    "missing default action": (
        walk(MINIMAL, 'default_action = "walk"', 'default_action = "run"'),
        "names the action 'run', which does not exist",
    ),
    "missing counter": (
        walk(
            MINIMAL,
            'effects = [{ do = "encounter" }]',
            'effects = [{ do = "counter", counter = "alarm", add = 1 }]',
        ),
        "names the counter 'alarm', which does not exist",
    ),
    "missing light kind": (
        walk(
            MINIMAL,
            'effects = [{ do = "encounter" }]',
            'effects = [{ do = "lights-out", kinds = ["torch"] }]',
        ),
        "names the light kind 'torch', which does not exist",
    ),
    "unknown effect": (
        walk(MINIMAL, 'do = "encounter"', 'do = "explode"'),
        "'explode' is not an effect",
    ),
    "effect without do": (
        walk(MINIMAL, 'do = "encounter"', 'dm = "encounter"'),
        "an effect needs 'do'",
    ),
    "effect do a list": (walk(MINIMAL, 'do = "encounter"', "do = [1]"), "'[1]' is not an effect"),
    "effect do a table": (walk(MINIMAL, 'do = "encounter"', "do = { a = 1 }"), "is not an effect"),
    "streak of zero": (
        walk(
            MINIMAL,
            'effects = [{ do = "encounter" }]',
            'effects = [{ do = "encounter", when = { streak = 0 } }]',
        ),
        "streak: is 0; it should be 1 to 10,000 turns",
    ),
    "bad dice": (walk(MINIMAL, 'dice = "d6"', 'dice = "d6+"'), "nothing follows a '+'"),
    "dice bomb": (
        walk(MINIMAL, 'dice = "d6"', 'dice = "1000000d1000000"'),
        "the largest die is d1000",
    ),
    "arrays 1000 deep": (
        "x = " + "[" * 1000 + "]" * 1000 + "\n",
        "nests arrays or tables too deeply",
    ),
    "inline tables 1000 deep": ("x = " + "{ a = " * 1000 + "1" + " }" * 1000 + "\n", "too deeply"),
    "effects nested 8 deep": (
        walk(MINIMAL, 'effects = [{ do = "encounter" }]', f"effects = [{nested_effects(8)}]"),
        "nests effects too deeply",
    ),
    "escape sequence in a label": (
        walk(MINIMAL, 'label = "Walk"', 'label = "Wa\\u001b[31mlk"'),
        "contains a control character (␛)",
    ),
    "bidi override in a label": (
        walk(MINIMAL, 'label = "Walk"', 'label = "Walk\\u202eklaw"'),
        "contains a control character (\\u202e)",
    ),
    "NUL in the file": (MINIMAL + "\x00\n", "is not valid TOML"),
    "binary junk": (random.Random(4).randbytes(3000).decode("latin-1"), "problem"),
}

RAW: dict[str, tuple[bytes, str]] = {
    "invalid UTF-8": (
        MINIMAL.encode().replace(b"Tiny", b"T\xffny", 1),
        "line 2: is not valid UTF-8",
    ),
    "UTF-16 file": (MINIMAL.encode("utf-16"), "is not valid UTF-8"),
    "2 MB of comments": (
        b"# " + b"x" * 2_000_000 + b"\n" + MINIMAL.encode(),
        "a procedure file may be at most 256 KB",
    ),
    "2 MB in one label": (MINIMAL.encode().replace(b"Walk", b"W" * 2_000_000, 1), "at most 256 KB"),
}


def problems_of(data: bytes) -> ProcedureError:
    start = time.perf_counter()
    with pytest.raises(ProcedureError) as caught:
        load_bytes(data, source="hostile.toml")
    assert time.perf_counter() - start < 1.0
    error = caught.value
    assert error.problems and all(str(p).strip() for p in error.problems)
    assert str(error).startswith("hostile.toml has ")
    return error


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_procedure_gives_a_clear_problem_list(name: str) -> None:
    text, expected = HOSTILE[name]
    error = problems_of(text.encode("utf-8", "surrogateescape"))
    assert expected in str(error), str(error)


@pytest.mark.parametrize("name", sorted(RAW))
def test_hostile_bytes_give_a_clear_problem_list(name: str) -> None:
    data, expected = RAW[name]
    assert expected in str(problems_of(data))


def test_markup_in_labels_is_kept_literally() -> None:
    text = walk(MINIMAL, 'label = "Walk"', 'label = "[bold red]Walk[/] <b>&amp;</b> *x* `y`"')
    procedure = load_text(text)
    assert procedure.actions["walk"].label == "[bold red]Walk[/] <b>&amp;</b> *x* `y`"


def test_a_byte_order_mark_is_not_a_problem() -> None:
    assert load_bytes(b"\xef\xbb\xbf" + MINIMAL.encode(), source="bom.toml").id == "tiny"


def test_files_that_are_not_files_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    for path, said in (
        (fifo, "is not a file but a FIFO"),
        (Path("/dev/zero"), "is not a file but a device; it was not opened"),
        (tmp_path, "is not a file but a folder"),
        (tmp_path / "missing.toml", "cannot be read: No such file"),
    ):
        start = time.perf_counter()
        with pytest.raises(ProcedureError, match=said):
            load_file(path)
        assert time.perf_counter() - start < 1.0
    big = tmp_path / "big.toml"
    with big.open("wb") as file:
        file.truncate(50 * MAX_FILE_BYTES)  # sparse: 12.8 MB on paper, nothing read past 256 KB
    with pytest.raises(ProcedureError, match="at most 256 KB"):
        load_file(big)


def test_the_command_line_reports_hostile_files_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "procedures").mkdir()
    files = {
        "syntax": HOSTILE["syntax error"][0].encode(),
        "deep": HOSTILE["arrays 1000 deep"][0].encode(),
        "utf8": RAW["invalid UTF-8"][0],
        "huge": RAW["2 MB of comments"][0],
    }
    for name, data in files.items():
        (tmp_path / "procedures" / f"{name}.toml").write_bytes(data)
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return delvetui(tmp_path, *args)

    for name in files:
        checked = run("procedures", "check", str(tmp_path / "procedures" / f"{name}.toml"))
        assert checked.returncode == 2 and "problem" in checked.stderr, checked.stderr
        assert "Traceback" not in checked.stderr
    assert "is not a file but a FIFO" in run("procedures", "check", str(fifo)).stderr
    listed = run("procedures")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    for name in files:
        assert f"{name}.toml " in listed.stdout and "cannot be used" in listed.stdout
    made = run("new", "x", "--procedure", str(tmp_path / "procedures" / "syntax.toml"))
    assert made.returncode == 2 and "is not valid TOML" in made.stderr
    assert not (tmp_path / "x.delve").exists()


# -- properties ------------------------------------------------------------------------------------


def raw_of(name: str) -> dict[str, Any]:
    return tomllib.loads(TEXTS[name])


def leaves(obj: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path into a TOML document, tables and arrays included."""
    found = [path] if path else []
    if isinstance(obj, dict):
        for key, value in obj.items():
            found += leaves(value, (*path, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            found += leaves(value, (*path, index))
    return found


def put(doc: dict[str, Any], path: tuple[Any, ...], value: object) -> None:
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


SCALARS = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from([0, -1, 1, 2, 6, 7, 10**6, 10**18]),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["d6", "2d6", "d0", "1000000d6", "2-in-6", "", "crawl", "torch", "alarm"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
PLAY = (
    "pc add Ash hp=6",
    "light add torch count=2 lit",
    "turn",
    "turn",
    "undo",
    "redo",
    "time roll",
)


def play_safely(procedure: Any, fallback: Path, extra: list[str]) -> None:
    """Play a little on a procedure that loaded: only clear errors, each within a second."""
    with (
        fast_folder(fallback) as folder,
        Expedition.create(folder / "p.delve", procedure, seed=1) as x,
    ):
        commands = [*PLAY, *(f"turn {a}" for a in sorted(procedure.actions)), *extra]
        for command in commands:
            start = time.perf_counter()
            with contextlib.suppress(DelveError, RollNeeded):
                x.execute(command)
            assert time.perf_counter() - start < 1.0, command


@settings(max_examples=scaled(120), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    name=st.sampled_from(SHIPPED),
    changes=st.lists(st.tuples(st.integers(min_value=0), VALUES), min_size=1, max_size=3),
)
@pytest.mark.long
def test_a_shipped_procedure_with_values_changed_is_refused_or_safe_to_play(
    tmp_path_factory: pytest.TempPathFactory, name: str, changes: list[tuple[int, object]]
) -> None:
    doc = raw_of(name)
    for index, value in changes:
        paths = leaves(doc)
        put(doc, paths[index % len(paths)], value)
    try:
        text = tomli_w.dumps(doc)
    except (TypeError, ValueError):
        return  # not representable as TOML
    try:
        procedure = load_text(text)
    except ProcedureError as error:
        assert error.problems
        return
    play_safely(procedure, tmp_path_factory.mktemp("play"), [])


INTS = st.one_of(
    st.sampled_from([0, -1, 1, 2, 3, 5, 6, 7, 12, 20, 24, 59, 60, 61, 100, 1000, 10**9, 10**18]),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
)


@pytest.mark.long
@settings(max_examples=scaled(120), deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(SHIPPED), data=st.data())
def test_a_shipped_procedure_with_values_of_the_right_type_changed_is_safe_to_play(
    tmp_path_factory: pytest.TempPathFactory, name: str, data: st.DataObject
) -> None:
    """Same-typed changes mostly load: the numbers and names a loaded procedure may hold."""
    doc = raw_of(name)
    paths = [p for p in leaves(doc) if not isinstance(get(doc, p), dict | list)]
    words = sorted({str(p[-1]) for p in leaves(doc) if isinstance(p[-1], str)})
    for _ in range(data.draw(st.integers(1, 4))):
        path = data.draw(st.sampled_from(paths))
        old = get(doc, path)
        if isinstance(old, bool):
            new: object = not old
        elif isinstance(old, int):
            new = data.draw(INTS)
        elif isinstance(old, float):
            new = data.draw(st.floats(-1e9, 1e9))
        else:
            new = data.draw(st.sampled_from([*words, "", "d6", "2d6", "d20", "2-in-6", "00:00"]))
        put(doc, path, new)
    try:
        procedure = load_text(tomli_w.dumps(doc))
    except ProcedureError as error:
        assert error.problems
        return
    play_safely(procedure, tmp_path_factory.mktemp("play"), ["turn rest", "do nothing"])


def get(doc: dict[str, Any], path: tuple[Any, ...]) -> object:
    target: Any = doc
    for key in path:
        target = target[key]
    return target


@settings(max_examples=scaled(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    name=st.sampled_from(SHIPPED),
    edits=st.lists(
        st.tuples(
            st.integers(min_value=0),
            st.sampled_from(["flip", "drop", "copy"]),
            st.binary(max_size=4),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_a_shipped_procedure_with_bytes_damaged_never_crashes_the_loader(
    name: str, edits: list[tuple[int, str, bytes]]
) -> None:
    data = bytearray(TEXTS[name].encode())
    for where, how, junk in edits:
        at = where % len(data)
        if how == "flip":
            data[at] ^= 1 << (where % 8)
        elif how == "drop":
            del data[at : at + len(junk) + 1]
        else:
            data[at:at] = junk
    start = time.perf_counter()
    try:
        load_bytes(bytes(data), source="damaged.toml")
    except ProcedureError as error:
        assert error.problems
    assert time.perf_counter() - start < 1.0


@settings(max_examples=scaled(150), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=st.dictionaries(st.text(max_size=10), VALUES, max_size=6))
def test_any_toml_document_is_a_procedure_or_a_problem_list(doc: dict[str, Any]) -> None:
    try:
        text = tomli_w.dumps(doc)
    except (TypeError, ValueError):
        return
    with pytest.raises(ProcedureError):
        load_text(text)
