"""The CPU of one ``delvetui`` process, for each of two or more checkouts, interleaved.

Run from the repository root::

    python bench/bench_cli.py before=/path/to/old/checkout now=.
    python bench/bench_cli.py --runs 21 --expedition crypt.delve before=../old now=.

Each checkout gets a data folder of its own (a copy of the same expedition, named X, made
here with a party and two dozen turns unless ``--expedition`` names one), and every
command is run in turn against each checkout (``python -m delvetui`` with the checkout on
``PYTHONPATH``), round after round, so a busy machine weighs on each the same. The figure
is the median of the processes' user + system CPU (``RUSAGE_CHILDREN``). Bytecode is
written and read as an installed program's is (``PYTHONDONTWRITEBYTECODE`` is unset).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

COMMANDS: dict[str, list[str]] = {
    "--help": ["--help"],
    "list": ["list"],
    "status X": ["status", "X"],
    "status X --json": ["status", "X", "--json"],
    "act X note hi": ["act", "X", "note", "hi"],
    "export X": ["export", "X"],
    "new N --procedure delving": ["new", "N", "--procedure", "delving", "--seed", "1"],
    "import X.json N": ["import", "{json}", "N"],
    "verify X": ["verify", "X"],
}

_SETUP = [
    ["new", "X", "--procedure", "delving", "--seed", "7"],
    ["act", "X", "pc", "add", "Ash", "hp=6"],
    ["act", "X", "pc", "add", "Bo", "hp=5"],
    ["act", "X", "-"],
]
_TURNS = "note hello\n" + "turn crawl\n" * 24 + "turn crawl hazard=3\n"


def _environment(checkout: Path, home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(checkout)
    env["DELVETUI_HOME"] = str(home)
    return env


def _run(words: list[str], env: dict[str, str], stdin: str = "") -> float:
    """The CPU seconds of one process running ``words``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "delvetui", *words],
        env=env,
        cwd=env["DELVETUI_HOME"],  # not the repository: ``-m`` puts the folder first
        input=stdin,
        text=True,
        stdout=subprocess.DEVNULL,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Measure, then print a table of the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", metavar="LABEL=PATH")
    parser.add_argument("--runs", type=int, default=15, help="rounds (default 15)")
    parser.add_argument("--expedition", type=Path, help="the expedition to copy (a .delve)")
    parser.add_argument("--only", action="append", help="only these commands (repeatable)")
    parser.add_argument(
        "--low", action="store_true", help="also the mean of the lowest third (less noisy)"
    )
    args = parser.parse_args()
    trees = {
        label: Path(path).resolve()
        for label, _, path in (item.partition("=") for item in args.checkouts)
    }
    commands = {k: v for k, v in COMMANDS.items() if not args.only or k in args.only}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        source = args.expedition
        if source is None:
            made = root / "made"
            made.mkdir()
            env = _environment(next(iter(trees.values())), made)
            for words in _SETUP:
                _run(words, env, _TURNS if words[-1] == "-" else "")
            source = made / "X.delve"
        envs = {}
        for label, tree in trees.items():
            home = root / label
            home.mkdir()
            shutil.copy(source, home / "X.delve")
            envs[label] = _environment(tree, home)
            _run(["export", "X", "-o", str(root / f"{label}.json")], envs[label])
            for words in commands.values():  # write the bytecode once
                _run([w.format(json=root / f"{label}.json") for w in words], envs[label])
                (home / "N.delve").unlink(missing_ok=True)
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.runs):
            for name, words in commands.items():
                for label in trees:
                    line = [w.format(json=root / f"{label}.json") for w in words]
                    times.setdefault((name, label), []).append(_run(line, envs[label]))
                    (root / label / "N.delve").unlink(missing_ok=True)
    print("| command | " + " | ".join(trees) + " |")
    print("|---|" + "---:|" * len(trees))
    for name in commands:
        cells = []
        for label in trees:
            runs = sorted(times[name, label])
            cell = f"{statistics.median(runs):.3f} s"
            if args.low:
                cell += f" ({statistics.mean(runs[: max(1, len(runs) // 3)]):.3f} s)"
            cells.append(cell)
        print(f"| `delvetui {name}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
