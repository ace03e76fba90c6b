"""The effect registry: every kind declared once, read by the loader, decide and the odds.

A new kind is one ``declare(...)`` on the procedure side and one ``@kind("name")``
handler in the core: the loader then takes its keys and makes its checks, ``decide``
runs its handler, and the tree walkers reach inside it. The core
builds on the pure procedure helpers and never on the file-reading loader. (Module and
class sizes are kept by tests/test_layers.py.)
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.decide import decide, start_events
from delvetui.core.effects import HANDLERS, KINDS
from delvetui.core.effects.registry import kind
from delvetui.core.evolve import fold
from delvetui.core.state import State
from delvetui.core.work import Ctx, Work
from delvetui.errors import ProcedureError
from delvetui.procedure.effect_kinds import KINDS as DECLARED
from delvetui.procedure.effect_kinds import Checks, declare
from delvetui.procedure.loader import load_text
from delvetui.procedure.model import Effect
from delvetui.procedure.tree import walk_effects

PACKAGE = Path(__file__).resolve().parent.parent / "delvetui"

GAME = """\
id = "bells"
name = "Bells"
source = "none"
summary = "A procedure for the registry tests."
default_action = "walk"

[counters.alarm]
label = "Alarm"
max = 9

[actions.walk]
label = "Walk"
effects = [
  { do = "check", id = "listen", dc = 30, target = "party", on_failure = [
    { do = "chime", counter = "alarm", text = "the bell tolls on turn {turn}" },
  ] },
]
"""


def test_every_kind_has_a_handler_a_paragraph_and_only_real_keys() -> None:
    effect_keys = {field.name for field in attrs.fields(Effect)}
    for name, entry in KINDS.items():
        assert entry.name == name
        assert callable(entry.handler)
        assert len(entry.doc) > 20, f"{name}: its handler's docstring is its documentation"
        assert entry.allowed <= effect_keys
        assert set(entry.required) <= entry.allowed


def test_an_unknown_kind_is_refused_naming_every_kind_in_the_registry_order() -> None:
    text = GAME.replace('do = "chime", counter = "alarm", ', 'do = "encounterr", ')
    with pytest.raises(ProcedureError) as raised:
        load_text(text)
    message = str(raised.value)
    every = ", ".join(DECLARED)  # every kind declared, in the order they were declared
    assert (
        f"'encounterr' is not an effect; use one of: {every}. Did you mean 'encounter'?"
    ) in message
    assert every.startswith("log, roll, encounter, sign, damage, heal, check,")


def _rings(checks: Checks, effect: Effect, path: str) -> None:
    if not effect.text:
        checks.problem(path, "a 'chime' effect needs 'text', the bell's words.")


def _chime(work: Work, effect: Effect, ref: str, ctx: Ctx) -> None:
    """Tolls a bell: writes `text` and raises a `counter` by one."""
    work.emit(ev.Logged(text=work.text(effect.text, ctx), label="chime"))
    current = work.state.counter(effect.counter)
    work.emit(ev.CounterChanged(counter=effect.counter, value=current + 1, change=1, reason="bell"))


@pytest.fixture
def chime() -> Iterator[None]:
    """A kind added for one test, the way a contributor would: its declaration on the
    procedure side and its handler in the core, attached by name."""
    declare(
        "chime",
        fields=("counter",),
        required=("counter",),
        check=_rings,
        doc="Tolls a bell: writes `text` and raises a `counter` by one.",
    )
    kind("chime")(_chime)
    try:
        yield
    finally:
        del HANDLERS["chime"]
        del DECLARED["chime"]


def test_a_new_kind_is_one_entry_that_the_loader_decide_and_walkers_all_follow(
    chime: None,
) -> None:
    procedure = load_text(GAME)
    assert [ref for ref, e in walk_effects(procedure) if e.do == "chime"] == [
        "actions.walk.effects[0].on_failure[0]"
    ]
    state = fold(State(), start_events("b", procedure, seed=1))
    events = decide(state, procedure, cmd.parse("turn listen=4"), rng=random.Random(1))
    logged = [e.text for e in events if isinstance(e, ev.Logged)]
    assert logged == ["the bell tolls on turn 1"]
    assert fold(state, events).counter("alarm") == 1


def test_a_new_kind_gets_its_keys_and_its_own_check_from_its_entry(chime: None) -> None:
    wrong = GAME.replace('counter = "alarm", text = "the bell tolls on turn {turn}"', "dc = 3")
    with pytest.raises(ProcedureError) as raised:
        load_text(wrong)
    message = str(raised.value)
    assert "'dc' is not a key of actions.walk.effects[0].on_failure[0]" in message
    assert "a 'chime' effect needs the key 'counter'." in message
    unnamed = GAME.replace('counter = "alarm"', 'counter = "alarms"').replace(
        ', text = "the bell tolls on turn {turn}"', ""
    )
    with pytest.raises(ProcedureError) as raised:
        load_text(unnamed)
    problems = [(p.path, p.message) for p in raised.value.problems]
    assert problems == [
        (
            "actions.walk.effects[0].on_failure[0].counter",
            "names the counter 'alarms', which does not exist (alarm).",
        ),
        (
            "actions.walk.effects[0].on_failure[0]",
            "a 'chime' effect needs 'text', the bell's words.",
        ),
    ]


def test_a_kind_is_registered_once() -> None:
    with pytest.raises(AssertionError, match="registered twice"):
        kind("log")(_chime)
    assert KINDS["log"].handler is not _chime


def test_a_handler_is_attached_only_to_a_declared_kind() -> None:
    """A kind's name, keys and checks are declared on the procedure side before the core
    may attach what it does."""
    with pytest.raises(AssertionError, match="not declared in delvetui/procedure"):
        kind("chimes")(_chime)
    assert "chimes" not in HANDLERS and "chimes" not in KINDS


def test_reading_and_checking_a_procedure_loads_no_module_of_the_core() -> None:
    """The procedure never imports the core (docs/design.md, Layers): the loader checks
    every effect against its kind's declaration alone."""
    code = (
        "import sys\n"
        "from delvetui.procedure.registry import shipped_dir\n"
        "from delvetui.procedure.loader import load_text\n"
        "import delvetui.procedure.writer\n"
        "for path in sorted(shipped_dir().glob('*.toml')):\n"
        "    load_text(path.read_text(encoding='utf-8'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('delvetui.core')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_core_never_imports_the_procedure_loader() -> None:
    code = (
        "import sys\n"
        "import delvetui.core.decide, delvetui.core.odds, delvetui.core.audit\n"
        "import delvetui.core.log, delvetui.core.timeline\n"
        "print('delvetui.procedure.loader' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def _modules(*packages: str) -> Iterator[tuple[str, ast.Module]]:
    for package in packages:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            yield str(path.relative_to(PACKAGE.parent)), ast.parse(path.read_text("utf-8"))


def test_no_module_of_the_core_or_procedure_takes_another_modules_private_names() -> None:
    reached: list[str] = []
    for name, tree in _modules("core", "procedure"):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("delvetui"):
                private = [a.name for a in node.names if a.name.startswith("_")]
                reached.extend(f"{name}: {node.module}.{p}" for p in private)
    assert reached == []


def test_dice_rolled_is_built_in_one_place() -> None:
    builders: list[str] = []
    for name, tree in _modules("core", "procedure", "ui", "export"):
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute | ast.Name)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "DiceRolled"
            ):
                builders.append(f"{name}:{node.lineno}")
    assert builders == []
