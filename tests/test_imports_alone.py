"""Every module of the package imports on its own, first, in an interpreter of its own.

A module that works only because another was imported before it (a cycle through a
package's lazy names, say) breaks the day a caller imports it first. So each module is
imported as the first of the package in a process that has imported nothing of delvetui:
one interpreter starts, imports nothing of the package, and forks a child for each module
(a fork costs a few milliseconds where a new interpreter costs a tenth of a second); the
child imports the one module and exits. Where there is no fork (Windows), each module gets
an interpreter of its own, which is slower and says the same.

A ``__main__`` module is left out: importing it runs the program (``python -m``), and all
it imports is the entry the package's other modules are tried through.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "delvetui"

#: Imports each module named on its command line first, in a child of its own; prints one
#: line for each that fails (the module, then the last line of its error).
ALONE = """
import importlib, os, subprocess, sys, traceback

def start(name):
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        try:
            importlib.import_module(name)
        except BaseException:
            os.write(write, traceback.format_exc().strip().splitlines()[-1].encode())
            os._exit(1)
        os._exit(0)
    os.close(write)
    return child, read

outside, ours = sys.argv[1].split(), sys.argv[2:]
for name in outside:
    try:
        importlib.import_module(name)
    except ImportError:
        pass  # a module of another platform (msvcrt), or one imported only where it is
assert not any(m.split(".")[0] == "delvetui" for m in sys.modules), "delvetui imported early"
if not hasattr(os, "fork"):
    for name in ours:
        command = [sys.executable, "-c", f"import {name}"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode:
            print(f"{name}: {(run.stderr.strip().splitlines() or [''])[-1]}")
    sys.exit()
running = {}
waiting = list(reversed(ours))
while waiting or running:
    while waiting and len(running) < (os.cpu_count() or 1):
        name = waiting.pop()
        child, read = start(name)
        running[child] = name, read
    child, status = os.wait()
    name, read = running.pop(child)
    with os.fdopen(read) as said:
        error = said.read()
    if status:
        print(f"{name}: {error}")
"""


def modules() -> list[str]:
    """Every module of the package by its dotted name, but its ``__main__`` modules."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def outside(names: list[str]) -> list[str]:
    """Every module outside the package that its modules import (the standard library's,
    attrs, textual...), as each import names it."""
    found: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module)
    return sorted(name for name in found if name.split(".")[0] != "delvetui")


def test_the_modules_are_found() -> None:
    names = modules()
    assert "delvetui" in names and "delvetui.core.commands.forms" in names
    assert "delvetui.__main__" not in names and len(names) > 100


@pytest.mark.long  # about 8 seconds of imports on two cores
def test_every_module_imports_first_and_alone() -> None:
    """``import delvetui.core.commands.forms`` in a fresh interpreter once failed, through
    a cycle of the package's lazy names; no module may need another imported before it."""
    result = subprocess.run(
        [sys.executable, "-c", ALONE, " ".join(outside(modules())), *modules()],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert result.stdout.splitlines() == []
