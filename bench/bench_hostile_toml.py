"""Time and memory of ``delvetui procedures check`` (and ``tables add``) on the worst files
the TOML bounds let through, and on files just past them.

Run from the repository root::

    python bench/bench_hostile_toml.py            # every file
    python bench/bench_hostile_toml.py --keep DIR # and keep the files in DIR

Each file is checked twice: in this process (``load_bytes``, the best of three runs, and
the peak memory the check allocated, by ``tracemalloc``), and by a fresh ``python -m
delvetui`` under an address-space limit of 2 GiB, so a regression fails instead of filling
the machine (that process's wall time and peak resident memory by ``os.wait4``, with its
start-up, its exit status and the first line of what it said). The first row is the
largest shipped procedure, for scale. docs/reliability.md, "Hostile TOML", keeps the
results.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from delvetui.errors import ProcedureError  # noqa: E402
from delvetui.procedure import adventure as tables  # noqa: E402
from delvetui.procedure import loader as procedures  # noqa: E402
from delvetui.procedure.adventure import MAX_FILE_BYTES as TABLES_BYTES  # noqa: E402
from delvetui.procedure.loader import MAX_FILE_BYTES  # noqa: E402
from delvetui.procedure.ranges import MAX_TABLE_TOTALS  # noqa: E402
from delvetui.procedure.reading import (  # noqa: E402
    MAX_ITEMS,
    MAX_KEY_PARTS,
    MAX_KEYS,
    MAX_NESTING,
    MAX_STRING,
    MAX_VALUES,
)

HEAD = 'id = "x"\n'
ESCAPE = "\\t"  # two characters of TOML, one escape for tomllib to read


def fill(line: Callable[[int], str], size: int, count: int | None = None) -> str:
    """HEAD and as many numbered lines as fit in ``size`` bytes (at most ``count``)."""
    lines, total, index = [HEAD], len(HEAD), 0
    while count is None or index < count:
        text = line(index)
        if total + len(text) > size:
            break
        lines.append(text)
        total += len(text)
        index += 1
    return "".join(lines)


def deep_key(parts: int) -> str:
    return ".".join(["a"] * (parts - 1))


def on_delving(tables: str) -> str:
    """The shipped Delving procedure with these tables added."""
    return (ROOT / "procedures" / "delving.toml").read_text(encoding="utf-8") + tables


def chain(count: int, times: int, *, back: bool = False) -> str:
    """Tables t0 .. t(count-1), each row rolling the next ``times`` times (the last rolling
    the first with ``back``)."""
    parts = []
    for i in range(count):
        after = f"t{i + 1}" if i + 1 < count else ("t0" if back else "")
        rolls = ", ".join([f'{{ do = "roll", table = "{after}" }}'] * times) if after else ""
        parts.append(
            f'\n[tables.t{i}]\nlabel = "T"\ndice = "d2"\n'
            f'rows = [{{ roll = "1-2", label = "r", effects = [{rolls}] }}]\n'
        )
    return "".join(parts)


def files(size: int) -> dict[str, str]:
    """name: text, the worst accepted by each bound, then each bound broken."""
    key16 = deep_key(MAX_KEY_PARTS)
    nest = "[" * MAX_NESTING + "]" * MAX_NESTING
    strings = max(1, (size - 2000) // (MAX_STRING + 10))
    per_list = MAX_VALUES // MAX_ITEMS
    return {
        # Accepted by the scan (tomllib parses them; the loader then lists what is wrong).
        f"keys of {MAX_KEY_PARTS} parts, all that fit": fill(
            lambda i: f"{key16}.k{i} = 1\n", size, MAX_KEYS - 1
        ),
        f"{MAX_KEYS:,} top-level keys": fill(lambda i: f"k{i} = {i}\n", size, MAX_KEYS - 1),
        f"[tables] of {MAX_KEY_PARTS} parts, all that fit": fill(
            lambda i: f"[{key16}{i}]\n", size, MAX_KEYS - 1
        ),
        f"nesting {MAX_NESTING} deep, again and again": fill(
            lambda i: f"n{i} = {nest}\n", size, MAX_VALUES // MAX_NESTING - 1
        ),
        f"{MAX_VALUES:,} values in lists of {MAX_ITEMS:,}": fill(
            lambda i: f"l{i} = [{','.join(['1'] * MAX_ITEMS)}]\n", size, per_list - 1
        ),
        f"texts of {MAX_STRING:,} escapes": fill(
            lambda i: f's{i} = "{ESCAPE * (MAX_STRING // 2)}"\n', size, strings
        ),
        f"2 tables of {MAX_TABLE_TOTALS} overlapping rows": on_delving(
            "".join(
                f"\n[tables.t{i}]\nlabel = 'T'\ndice = 'd1000'\nrows = ["
                + ",".join("{roll='1-1000',label='r'}" for _ in range(MAX_TABLE_TOTALS))
                + "]\n"
                for i in range(2)
            )
        ),
        "400 tables, each rolling the next twice": on_delving(chain(400, 2)),
        "400 tables in a ring": on_delving(chain(400, 1, back=True)),
        # Refused by the scan.
        "one key of dots, the whole size": HEAD + "a." * ((size - 20) // 2) + "b = 1\n",
        "a [table] name of dots": HEAD + "[" + "a." * ((size - 20) // 2) + "b]\n",
        f"{MAX_KEY_PARTS + 1}-part keys, the whole size": fill(
            lambda i: f"{deep_key(MAX_KEY_PARTS + 1)}.k{i} = 1\n", size
        ),
        "one text, the whole size": HEAD + 's = "' + "x" * (size - 20) + '"\n',
        "brackets, the whole size": HEAD + "x = " + "[" * (size - 20) + "\n",
        "one list, the whole size": HEAD + "x = [" + "1," * ((size - 20) // 2) + "]\n",
        "short keys, the whole size": fill(lambda i: f"k{i}=1\n", size),
    }


def limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run(args: list[str], home: Path) -> tuple[float, int, int, str]:
    """Wall seconds, peak resident KiB, exit status and first problem line of one run."""
    env = {**os.environ, "DELVETUI_HOME": str(home), "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as said_file:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "delvetui", *args],
            stdout=said_file,
            stderr=said_file,
            env=env,
            preexec_fn=limit,
        )
        _pid, status, usage = os.wait4(child.pid, 0)  # this child's own peak memory
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        said_file.seek(0)
        said = said_file.read().decode(errors="replace").splitlines()
    first = next((line.strip() for line in said[1:2] or said[:1]), "")
    return seconds, usage.ru_maxrss, child.returncode, first[:90]


def check(load: Callable[..., object], data: bytes) -> tuple[float, float, str]:
    """The check in this process: seconds (the best of three), peak MiB it allocated
    (``tracemalloc``) and whether it was accepted."""
    best = float("inf")
    for _ in range(3):
        procedures.forget()
        tables.forget()
        start = time.perf_counter()
        try:
            load(data, source="bench")
            said = "accepted"
        except ProcedureError:
            said = "refused"
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    with contextlib.suppress(ProcedureError):
        load(data, source="bench")
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best, peak, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="keep the files written in this folder")
    options = parser.parse_args()
    folder = options.keep or Path(tempfile.mkdtemp(prefix="hostile-toml-"))
    folder.mkdir(parents=True, exist_ok=True)
    home = folder / "home"
    home.mkdir(exist_ok=True)
    rows: list[tuple[str, list[str], bytes, Callable[..., object]]] = []
    shipped = (ROOT / "procedures" / "ose.toml").read_bytes()
    rows.append(("(the largest shipped, ose.toml)", [], shipped, procedures.load_bytes))
    for name, text in files(MAX_FILE_BYTES).items():
        rows.append((name, [], text.encode(), procedures.load_bytes))
    run(["new", "t", "--procedure", "delving", "--seed", "1"], home)
    for name, text in files(TABLES_BYTES).items():
        if name.startswith(("keys of", "one key of dots", "brackets")):
            rows.append(
                (
                    "tables add, " + name,
                    ["act", "t", "tables", "add"],
                    text.encode(),
                    tables.load_bytes,
                )
            )
    print(f"{'file':42} {'KB':>4} {'check s':>7} {'MiB':>4} {'run s':>5} {'MiB':>4} exit  said")
    for index, (name, args, data, load) in enumerate(rows):
        path = folder / f"f{index}.toml"
        path.write_bytes(data)
        seconds, peak, _said = check(load, data)
        command = [*args, str(path)] if args else ["procedures", "check", str(path)]
        run_s, run_peak, code, said = run(command, home)
        print(
            f"{name[:42]:42} {len(data) // 1000:4} {seconds:7.3f} {peak:4.0f} {run_s:5.2f} "
            f"{run_peak / 1024:4.0f} {code:4}  {said[:60]}"
        )


if __name__ == "__main__":
    main()
