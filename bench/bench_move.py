"""Moving a long expedition: export to JSON and import it back, time and peak memory.

Run from the repository root::

    python bench/bench_move.py                       # 200,000 commands (generated once)
    python bench/bench_move.py --commands 20000      # a smaller one
    python bench/bench_move.py --code /path/to/older/checkout   # the same with other code

It generates (and caches under ``--cache``) an expedition of ``--commands`` commands of
realistic play on the shipped ``delving`` procedure, the same scripted game master as
``bench_core.py``, then runs ``delvetui export X --format json -o FILE``, ``delvetui import
FILE NAME`` and ``delvetui import X.delve NAME`` as whole processes, each in a fresh data
folder, and reports each one's wall time and peak resident memory (the child's own
``ru_maxrss``, read with ``wait4``). ``--code`` runs those processes with another checkout
of delvetui first on ``PYTHONPATH``, to compare with an older version; a version that
cannot import a ``.delve`` file reports that step as refused. The results are explained in
docs/performance.md, section "Moving a long expedition".

The generator decides every command with the real ``decide`` and the real timeline, then
writes all the batches in one transaction; only the commits of a game master's table (one
per command, with fsync) are left out.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import GENERATOR_VERSION, SEED, Clock, Player, procedure

from delvetui.core import commands as cmd
from delvetui.core.decide import decide, start_events
from delvetui.core.timeline import Batch, Timeline
from delvetui.errors import DelveError
from delvetui.session import encode
from delvetui.store import NewEvent, Store

REPO = Path(__file__).resolve().parent.parent


def generate(path: Path, commands: int, seed: int) -> int:
    """Write an expedition of ``commands`` committed commands to ``path``; its event count."""
    rules = procedure()
    player = Player(random.Random(seed))
    clock = Clock()
    first = start_events("bench", rules, seed=seed)
    meta = {
        "name": "bench",
        "procedure": rules.id,
        "seed": str(seed),
        "created": clock.moment.isoformat(),
    }
    timeline = Timeline()
    events = 0

    def batches() -> Iterator[tuple[str, str, list[NewEvent]]]:
        nonlocal events
        timeline.apply(Batch(seq=1, command="new", events=tuple(first)))
        events += len(first)
        yield "new", clock.moment.isoformat(), encode(first)
        setup = player.setup()
        seq = 1
        while seq < commands:
            if setup:
                line = setup.pop(0)
            else:
                history = timeline.history()
                line = player.next(timeline.state, can_undo=history.undo is not None)
            try:
                made = decide(
                    timeline.state,
                    rules,
                    cmd.parse(line),
                    rng=random.Random(f"{seed}:{seq + 1}"),
                    history=timeline.history(),
                    today=clock.moment.date().isoformat(),
                )
            except DelveError:
                continue
            seq += 1
            timeline.apply(Batch(seq=seq, command=line, events=tuple(made)))
            events += len(made)
            yield line, clock.tick(line).isoformat(timespec="seconds"), encode(made)

    partial = path.with_name(f".{path.name}.partial")
    partial.unlink(missing_ok=True)
    with Store.create(partial, meta=meta, procedure_text=rules.text) as store:
        conn = store._conn  # the bench-only shortcut: no fsync while generating
        assert conn is not None
        conn.execute("PRAGMA synchronous = OFF")
        store.append_many(batches())
    os.replace(partial, path)
    return events


def run(argv: list[str], code: Path | None, home: Path) -> tuple[float, float, float, int, str]:
    """Run one delvetui command as a process: (wall s, CPU s, peak MiB, exit status, stderr).

    The CPU time (user and system, the child's own) is the steadier figure on a machine
    that is busy with other work; the wall time is what a game master waits.
    """
    env = dict(os.environ, DELVETUI_HOME=str(home))
    if code is not None:
        env["PYTHONPATH"] = str(code)
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "delvetui", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=code or REPO,
    )
    assert child.stderr is not None
    error = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return took, cpu, usage.ru_maxrss / 1024, child.returncode, error.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=200_000)
    parser.add_argument("--code", type=Path, help="a checkout of delvetui to measure instead")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "delvetui-bench"
    )
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    source = args.cache / f"move-{args.commands}-s{SEED}-g{GENERATOR_VERSION}.delve"
    if not source.exists():
        started = time.perf_counter()
        events = generate(source, args.commands, SEED)
        print(
            f"generated {source.name}: {events:,} events in {time.perf_counter() - started:.0f} s"
        )
    code = args.code.resolve() if args.code else None
    print(
        f"code: {code or REPO}; {args.commands:,} commands, {source.stat().st_size / 2**20:.0f} MiB"
    )
    with tempfile.TemporaryDirectory(dir=args.cache) as folder:
        work = Path(folder)
        home = work / "home"
        home.mkdir()
        shutil.copyfile(source, home / "bench.delve")
        exported = work / "bench.json"
        rows = []
        result = run(["export", "bench", "--format", "json", "-o", str(exported)], code, home)
        size = exported.stat().st_size / 2**20 if exported.exists() else 0.0
        rows.append(("export to JSON", *result, f"{size:.0f} MiB of JSON"))
        print("exported", result[:-1], flush=True)
        result = run(["import", str(exported), "back"], code, home)
        rows.append(("import the JSON", *result, ""))
        print("imported the JSON", result[:-1], flush=True)
        result = run(["import", str(source), "copied"], code, home)
        rows.append(("import the .delve", *result, ""))
    print()
    print("| step | wall time | CPU time | peak memory | result |")
    print("|---|---:|---:|---:|---|")
    for step, took, cpu, peak, status, error, note in rows:
        said = note or "ok"
        if status != 0:
            said = f"refused (exit {status}): {error.splitlines()[-1][:90] if error else ''}"
        print(f"| {step} | {took:.0f} s | {cpu:.0f} s | {peak:.0f} MiB | {said} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
