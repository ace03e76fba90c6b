"""The layers hold: each module imports only what its layer may, as docs/design.md lists.

The list is read from the table in ``docs/design.md`` (between its ``layers`` markers), so
the page a newcomer reads and the rule the suite keeps are one. Every import counts: at
the top of a module, inside a function, under ``TYPE_CHECKING``, and a module named as a
string to ``lazy.module("…")`` or ``importlib.import_module("…")``. The standard library is
always allowed; so is the root package (``delvetui.__version__``) and a layer's own modules.
The layers point one way: neither the table nor the imports may make a cycle between two
top-level parts of the package (``procedure`` never imports ``core``). A row naming a
sub-package (``ui.table``) is a room: its modules import anything else of their part (another
room, a module at the part's top) only as the row allows, and the rooms point one way too.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "delvetui"
DESIGN = ROOT / "docs" / "design.md"
#: A module longer than this, or a class longer than ``CLASS_LINES``, needs a sentence in
#: docs/design.md saying why.
MODULE_LINES = 600
CLASS_LINES = 300
#: No function or method is longer than this, listed or not: one that is does several things.
FUNCTION_LINES = 150


@attrs.frozen
class Rule:
    """What one layer (a package or a module of one) may import."""

    name: str
    modules: frozenset[str]
    libraries: frozenset[str]


@attrs.frozen
class Import:
    """One import in one module: the module, its line, and what it names."""

    module: str
    line: int
    target: str


def read_rules(text: str) -> dict[str, Rule]:
    """The layer table of docs/design.md: layer name to its rule."""
    found = re.search(r"<!-- layers:begin -->(.*?)<!-- layers:end -->", text, re.S)
    assert found, "docs/design.md has no table between <!-- layers:begin/end --> markers"
    rules: dict[str, Rule] = {}
    for row in found.group(1).splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([^`]+)`", cells[0])
        modules = frozenset(re.findall(r"`([^`]+)`", cells[2]))
        libraries = frozenset(re.findall(r"`([^`]+)`", cells[3]))
        for name in names:
            rules[name] = Rule(name, modules, libraries)
    return rules


def module_name(path: Path, package: Path) -> str:
    """A file's module name relative to the package: 'core.decide', 'store' for its __init__."""
    parts = list(path.relative_to(package).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, package: Path) -> Iterator[Import]:
    """Every import in a module, wherever it stands, as the module name it reaches."""
    name = module_name(path, package)
    is_package = path.name == "__init__.py"
    here = name.split(".") if name else []
    if not is_package:
        here = here[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(name, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ["delvetui", *here[: len(here) - node.level + 1]]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                # "from delvetui.core import events" reaches the module core.events.
                sub = f"{source}.{alias.name}"
                yield Import(name, node.lineno, sub if _is_module(sub, package) else source)
        elif isinstance(node, ast.Call) and _named_import(node) is not None:
            yield Import(name, node.lineno, _named_import(node) or "")


#: The calls that import the module named by their first argument, a string.
NAMED_IMPORTS = {("lazy", "module"), ("importlib", "import_module")}


def _named_import(call: ast.Call) -> str | None:
    """The module a ``lazy.module("…")`` or ``importlib.import_module("…")`` call imports."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    if (func.value.id, func.attr) not in NAMED_IMPORTS or not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def _is_module(dotted: str, package: Path) -> bool:
    parts = dotted.split(".")
    if parts[0] != package.name:
        return False
    where = package.joinpath(*parts[1:])
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def rule_for(module: str, rules: Mapping[str, Rule]) -> Rule | None:
    """The rule of the most specific layer naming the module or a package above it."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        found = rules.get(".".join(parts[:end]))
        if found is not None:
            return found
    return None


def rooms_of(package: Path, rules: Mapping[str, Rule]) -> frozenset[str]:
    """The rooms: rows that name a sub-package of a part (``ui.table``), not a module."""
    return frozenset(
        name
        for name in rules
        if "." in name and package.joinpath(*name.split("."), "__init__.py").is_file()
    )


def room_of(module: str, rooms: frozenset[str]) -> str | None:
    """The room a module stands in (None for one at its part's top, or in no room)."""
    return next((r for r in rooms if module == r or module.startswith(f"{r}.")), None)


def problems(package: Path, rules: Mapping[str, Rule]) -> list[str]:
    """Every import a layer may not make, and every module no layer covers."""
    found: list[str] = []
    rooms = rooms_of(package, rules)
    for path in sorted(package.rglob("*.py")):
        module = module_name(path, package)
        if not module:
            continue  # the root package: only __version__
        rule = rule_for(module, rules)
        where = f"delvetui/{path.relative_to(package).as_posix()}"
        if rule is None:
            found.append(f"{where}: no layer in docs/design.md covers {module}")
            continue
        own = module.split(".")[0]
        here = room_of(module, rooms)
        for item in imports(path, package):
            top = item.target.split(".")[0]
            if top != package.name:
                if top in sys.stdlib_module_names or top in rule.libraries:
                    continue
                found.append(
                    f"{where}:{item.line} imports {item.target}, a library the layer "
                    f"{rule.name} may not use"
                )
                continue
            target = item.target.removeprefix(f"{package.name}").removeprefix(".")
            if not target:
                continue
            if target.split(".")[0] == own and room_of(target, rooms) == here:
                continue  # its own room, or its part's top (outside every room)
            if any(
                target == allowed or target.startswith(f"{allowed}.") for allowed in rule.modules
            ):
                continue
            found.append(
                f"{where}:{item.line} imports {item.target}, which the layer {rule.name} "
                "may not import (docs/design.md, Layers)"
            )
    return found


def top(module: str) -> str:
    """The top-level part of the package a module or layer belongs to: 'core.decide' -> 'core'."""
    return module.split(".")[0]


def allowed_graph(rules: Mapping[str, Rule]) -> dict[str, set[str]]:
    """The table's edges between top-level parts: which part may import which other."""
    graph: dict[str, set[str]] = {}
    for rule in rules.values():
        edges = graph.setdefault(top(rule.name), set())
        edges.update(top(allowed) for allowed in rule.modules if top(allowed) != top(rule.name))
    return graph


def imports_graph(package: Path) -> dict[str, set[str]]:
    """The edges the modules make between top-level parts, every import counted."""
    graph: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        module = module_name(path, package)
        if not module:
            continue
        edges = graph.setdefault(top(module), set())
        for item in imports(path, package):
            target = item.target.split(".")
            if target[0] != package.name or len(target) < 2 or target[1] == top(module):
                continue
            edges.add(target[1])
    return graph


def cycle(graph: Mapping[str, set[str]]) -> list[str]:
    """One cycle of the graph as the parts it passes through ('a', 'b', 'a'), or []."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        path.append(node)
        for after in sorted(graph.get(node, ())):
            found = visit(after)
            if found:
                return found
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        found = visit(start)
        if found:
            return found
    return []


def test_the_layer_table_points_one_way() -> None:
    """No two parts of the package may import each other, however far round."""
    rules = read_rules(DESIGN.read_text(encoding="utf-8"))
    assert cycle(allowed_graph(rules)) == []


def test_the_imports_point_one_way() -> None:
    assert cycle(imports_graph(PACKAGE)) == []


def place(module: str, rooms: frozenset[str]) -> str:
    """Where a module of ``ui`` stands: its room, or itself at the part's top."""
    return room_of(module, rooms) or module


def room_graphs(package: Path, rules: Mapping[str, Rule]) -> tuple[dict[str, set[str]], ...]:
    """The edges between the rooms (and the modules at their part's top): as the table
    allows them, and as the imports make them."""
    rooms = rooms_of(package, rules)
    allowed: dict[str, set[str]] = {}
    for room in rooms:
        top_part = top(room)
        allowed[room] = {
            place(name, rooms)
            for name in rules[room].modules
            if top(name) == top_part and place(name, rooms) != room
        }
    made: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        module = module_name(path, package)
        if not module or (
            room_of(module, rooms) is None and not any(top(module) == top(room) for room in rooms)
        ):
            continue
        edges = made.setdefault(place(module, rooms), set())
        for item in imports(path, package):
            target = item.target.removeprefix(f"{package.name}.")
            if target == item.target or top(target) != top(module):
                continue
            if place(target, rooms) != place(module, rooms):
                edges.add(place(target, rooms))
    return allowed, made


def test_the_rooms_point_one_way() -> None:
    """No two rooms of the UI (or a room and the app above them) import each other, however
    far round: the table and the imports both."""
    rules = read_rules(DESIGN.read_text(encoding="utf-8"))
    allowed, made = room_graphs(PACKAGE, rules)
    assert {"ui.table", "ui.panes", "ui.dialogs", "ui.forms", "ui.campaign"} <= set(allowed)
    assert cycle(allowed) == []
    assert cycle(made) == []
    assert "ui.table" not in allowed["ui.panes"] and "ui.dialogs" not in allowed["ui.panes"]


def test_the_procedure_never_imports_the_core() -> None:
    """The core builds on the procedure (what a procedure is, each effect kind's keys and
    checks); the procedure, the loader included, never reaches back into the core."""
    rules = read_rules(DESIGN.read_text(encoding="utf-8"))
    assert "core" not in allowed_graph(rules)["procedure"]
    assert "core" not in imports_graph(PACKAGE)["procedure"]
    assert "procedure" in allowed_graph(rules)["core"]


def test_a_cycle_is_named_round_its_parts() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
    two_way = MINI_RULES.replace("| `text` | text | — |", "| `text` | text | `core` |")
    assert cycle(allowed_graph(read_rules(two_way))) == ["core", "text", "core"]


def test_every_module_imports_only_what_its_layer_may() -> None:
    rules = read_rules(DESIGN.read_text(encoding="utf-8"))
    assert problems(PACKAGE, rules) == []


def test_every_layer_in_the_table_names_what_exists() -> None:
    """A row or an allowed name that names nothing is a stale line in docs/design.md."""
    rules = read_rules(DESIGN.read_text(encoding="utf-8"))
    named = {name for rule in rules.values() for name in (rule.name, *rule.modules)}
    missing = [name for name in sorted(named) if not _is_module(f"delvetui.{name}", PACKAGE)]
    assert missing == []


def test_core_may_not_reach_the_interfaces_or_the_file() -> None:
    """The rules that matter most, stated here so a change to the table cannot drop them."""
    rules = read_rules(DESIGN.read_text(encoding="utf-8"))
    for layer in ("core", "procedure"):
        reach = rules[layer].modules | rules[layer].libraries
        for forbidden in ("textual", "rich", "ui", "cli", "store", "session", "application"):
            assert not any(r == forbidden or r.startswith(f"{forbidden}.") for r in reach), (
                layer,
                forbidden,
            )
    for layer in ("ui", "cli", "export", "application"):
        assert "store" not in rules[layer].modules, layer


MINI_RULES = """
<!-- layers:begin -->
| layer | what | may import | libraries |
|---|---|---|---|
| `core` | rules | `text` | `attrs` |
| `text` | text | — | — |
| `ui` | screens | `core`, `text` | `textual` |
<!-- layers:end -->
"""


def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    package = tmp_path / "delvetui"
    for name, text in {"__init__.py": "", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


def test_an_import_inside_a_function_is_found_and_named(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/rules.py": (
                "import json\n"
                "from delvetui.text import shown\n"
                "def draw():\n"
                "    from delvetui.ui import table\n"
                "    import textual\n"
            ),
            "text.py": "",
            "ui/__init__.py": "",
            "ui/table.py": "from delvetui.core import rules\nfrom ..text import shown\n",
        },
    )
    found = problems(package, read_rules(MINI_RULES))
    assert found == [
        "delvetui/core/rules.py:4 imports delvetui.ui.table, which the layer core may not "
        "import (docs/design.md, Layers)",
        "delvetui/core/rules.py:5 imports textual, a library the layer core may not use",
    ]


def test_a_module_named_to_lazy_module_is_an_import(tmp_path: Path) -> None:
    """``lazy.module("…")`` imports its module later, but it imports it all the same."""
    package = _package(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/rules.py": (
                "from delvetui import lazy\n"
                "import importlib\n"
                'screen = lazy.module("delvetui.ui.table")\n'
                "def later():\n"
                '    return importlib.import_module("delvetui.ui.table")\n'
            ),
            "text.py": "",
            "lazy.py": "",
            "ui/__init__.py": "",
            "ui/table.py": "",
        },
    )
    rules = read_rules(MINI_RULES.replace("| `text` | `attrs` |", "| `lazy`, `text` | `attrs` |"))
    rules["lazy"] = Rule("lazy", frozenset(), frozenset())
    assert problems(package, rules) == [
        "delvetui/core/rules.py:3 imports delvetui.ui.table, which the layer core may not "
        "import (docs/design.md, Layers)",
        "delvetui/core/rules.py:5 imports delvetui.ui.table, which the layer core may not "
        "import (docs/design.md, Layers)",
    ]
    assert cycle(imports_graph(package)) == []
    package.joinpath("ui/table.py").write_text('rules = lazy.module("delvetui.core.rules")\n')
    assert cycle(imports_graph(package)) == ["core", "ui", "core"]


def test_a_room_imports_another_only_as_its_row_allows(tmp_path: Path) -> None:
    """A room's modules import one another freely; another room, or a module at the part's
    top, only as its row allows (a pane never imports the table)."""
    rooms = (
        MINI_RULES.replace("<!-- layers:end -->", "")
        + "| `ui.table` | the table | `ui.panes`, `core` | `textual` |\n"
        + "| `ui.panes` | the panes | `core` | `textual` |\n"
        + "<!-- layers:end -->\n"
    )
    package = _package(
        tmp_path,
        {
            "core/__init__.py": "",
            "ui/__init__.py": "",
            "ui/app.py": "from delvetui.ui.table import screen\n",
            "ui/footer.py": "",
            "ui/table/__init__.py": "",
            "ui/table/screen.py": (
                "from delvetui.ui.table import keys\nfrom delvetui.ui.panes import log\n"
            ),
            "ui/table/keys.py": "from delvetui.ui import footer\n",
            "ui/panes/__init__.py": "",
            "ui/panes/log.py": "from delvetui.ui.table import keys\nimport delvetui.core\n",
        },
    )
    assert problems(package, read_rules(rooms)) == [
        # The part's top reaches a room only as its own row says, like any other.
        "delvetui/ui/app.py:1 imports delvetui.ui.table.screen, which the layer ui may not "
        "import (docs/design.md, Layers)",
        "delvetui/ui/panes/log.py:1 imports delvetui.ui.table.keys, which the layer ui.panes "
        "may not import (docs/design.md, Layers)",
        "delvetui/ui/table/keys.py:1 imports delvetui.ui.footer, which the layer ui.table "
        "may not import (docs/design.md, Layers)",
    ]
    allowed, made = room_graphs(package, read_rules(rooms))
    assert cycle(allowed) == []
    assert cycle(made) == ["ui.table", "ui.panes", "ui.table"]


def test_a_module_no_layer_covers_is_named(tmp_path: Path) -> None:
    package = _package(tmp_path, {"text.py": "", "stray.py": "import delvetui.text\n"})
    assert problems(package, read_rules(MINI_RULES)) == [
        "delvetui/stray.py: no layer in docs/design.md covers stray"
    ]


def _long_things(package: Path) -> Iterator[tuple[str, int]]:
    """Every module over MODULE_LINES lines and class over CLASS_LINES, with its length."""
    for path in sorted(package.rglob("*.py")):
        where = f"delvetui/{path.relative_to(package).as_posix()}"
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > MODULE_LINES:
            yield where, lines
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > CLASS_LINES:
                    yield f"{where}::{node.name}", length


def _explained() -> set[str]:
    design = DESIGN.read_text(encoding="utf-8")
    found = re.search(r"<!-- long:begin -->(.*?)<!-- long:end -->", design, re.S)
    assert found, "docs/design.md has no list between <!-- long:begin/end --> markers"
    return set(re.findall(r"^- `([^`]+)`", found.group(1), re.M))


def test_a_long_module_or_class_is_explained_in_the_design() -> None:
    explained = _explained()
    unexplained = [
        f"{what} ({n} lines)" for what, n in _long_things(PACKAGE) if what not in explained
    ]
    assert unexplained == []


def test_the_design_lists_only_what_is_still_long() -> None:
    """Once a module or class is split, its line in docs/design.md goes too."""
    long = {what for what, _ in _long_things(PACKAGE)}
    assert sorted(_explained() - long) == []


def test_the_design_states_the_limits_the_suite_keeps() -> None:
    design = DESIGN.read_text(encoding="utf-8")
    assert f"{MODULE_LINES} lines" in design and f"{CLASS_LINES} lines" in design
    assert f"{FUNCTION_LINES} lines" in design


def _long_functions(package: Path) -> Iterator[str]:
    """Every function or method over FUNCTION_LINES lines (its decorators, its docstring
    and any function inside it counted), as ``path::name (N lines)``."""
    for path in sorted(package.rglob("*.py")):
        where = f"delvetui/{path.relative_to(package).as_posix()}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - first + 1
                if length > FUNCTION_LINES:
                    yield f"{where}::{node.name} ({length} lines)"


def test_no_function_is_longer_than_the_mark() -> None:
    """A function over 150 lines does several things (the log's words were one 293-line
    ``match``, the command line's parser one 218-line function): split it where its
    subject changes. There is no list of exceptions."""
    assert list(_long_functions(PACKAGE)) == []


def test_a_long_function_is_found(tmp_path: Path) -> None:
    body = "".join(f"    x = {n}\n" for n in range(FUNCTION_LINES))
    package = _package(tmp_path, {"long.py": f"def long() -> None:\n{body}"})
    assert list(_long_functions(package)) == [
        f"delvetui/long.py::long ({FUNCTION_LINES + 1} lines)"
    ]


#: The interfaces: they read and change an expedition only through ``Expedition``.
INTERFACES = ("ui", "cli.py", "export", "serve.py", "application")


def test_the_interfaces_never_reach_into_the_store() -> None:
    """No ``expedition.store`` (or any ``.store``) in the table, the CLI or the exports.

    Only a module whose layer may import the store (the import, which writes a new file)
    holds one.
    """
    rules = read_rules(DESIGN.read_text(encoding="utf-8"))
    found: list[str] = []
    for name in INTERFACES:
        where = PACKAGE / name
        for path in sorted(where.rglob("*.py") if where.is_dir() else [where]):
            rule = rule_for(module_name(path, PACKAGE), rules)
            if rule is not None and "store" in rule.modules:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr == "store":
                    found.append(f"delvetui/{path.relative_to(PACKAGE).as_posix()}:{node.lineno}")
    assert found == []
