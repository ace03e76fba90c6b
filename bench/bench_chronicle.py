"""A campaign of long expeditions: the campaign view and the chronicle, time and peak memory.

Run from the repository root::

    python bench/bench_chronicle.py                    # 10 expeditions of 10,000 events
    python bench/bench_chronicle.py --expeditions 4 --events 2000   # a quick look

It builds (once, cached under ``--cache`` by the code's fingerprint) a chain of
``--expeditions`` expeditions on the shipped ``delving`` procedure, each of about
``--events`` events of the scripted game master's play (``bench_core.Player``), each
ended and the next started ``--after`` it with a week of downtime, as
``delvetui new NAME --after PRED --downtime 7d`` does. Then it runs, each as a whole
``delvetui`` process in a data folder holding the first expedition only and then the
whole chain, ``delvetui campaign --json`` and ``delvetui export --campaign bench-1
--format F -o FILE`` for md, html, json and svg, and reports each one's wall time, CPU
time and peak resident memory (the child's own ``ru_maxrss``). The chronicle's memory
should not grow with the number of expeditions: the one-expedition and the whole-chain
figures side by side say whether it does. The results are in docs/performance.md,
section "A campaign".
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import NOTES, SEED, Clock, Player, fingerprint, procedure

from delvetui.application.campaign import create_next, next_plan
from delvetui.errors import DelveError
from delvetui.session import Expedition

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("md", "html", "json", "svg")


def continued(predecessor: Path, path: Path) -> Expedition:
    """The next expedition after ``predecessor``, a week later, as ``delvetui new NAME
    --after PRED --downtime 7d`` makes it (the party and lights carried, the downtime's
    healing rolled)."""
    plan = next_plan(predecessor, path.stem, downtime="7d", seed=SEED)
    return Expedition.open(create_next(plan, path=path))


def play(expedition: Expedition, events: int, player: Player, clock: Clock) -> None:
    """Play until the expedition holds ``events`` events, then end it."""
    conn = expedition.store._conn  # the bench-only shortcut: no fsync while generating
    assert conn is not None
    conn.execute("PRAGMA synchronous = OFF")
    lines = player.setup() if not expedition.state.party else ["session start"]
    for line in lines:
        # A member carried from the last expedition is not added twice.
        with contextlib.suppress(DelveError):
            expedition.execute(line, now=clock.tick(line))
    while expedition.event_count < events - 4:
        left = events - expedition.event_count
        if left < 28:
            line = f"note {player.rng.choice(NOTES)}"
        else:
            history = expedition.timeline.history()
            line = player.next(expedition.state, can_undo=history.undo is not None)
        try:
            expedition.execute(line, now=clock.tick(line))
        except DelveError:
            continue
    for line in ("session end", "end the party is back in town"):
        with contextlib.suppress(DelveError):
            expedition.execute(line, now=clock.tick(line))


def build(folder: Path, expeditions: int, events: int) -> list[Path]:
    """The chain's files in ``folder``, built once (and kept while the code is the same)."""
    done = folder / "done.json"
    paths = [folder / f"bench-{n}.delve" for n in range(1, expeditions + 1)]
    if done.exists() and all(p.exists() for p in paths):
        return paths
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    clock = Clock()
    started = time.perf_counter()
    for number, path in enumerate(paths, start=1):
        player = Player(random.Random(f"{SEED}:{number}"))
        if number == 1:
            opened = Expedition.create(
                path, procedure(), name=path.stem, seed=SEED, now=clock.moment
            )
        else:
            opened = continued(paths[number - 2], path)
        with opened as expedition:
            play(expedition, events, player, clock)
        print(f"  built {path.name} ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    done.write_text(json.dumps({"built": dt.datetime.now(dt.UTC).isoformat()}))
    return paths


def run(argv: list[str], home: Path) -> tuple[float, float, float, str]:
    """One delvetui command as a process: (wall s, CPU s, peak MiB, stderr)."""
    env = dict(os.environ, DELVETUI_HOME=str(home), PYTHONPATH=str(REPO))
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "delvetui", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert child.stderr is not None
    error = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"delvetui {' '.join(argv)} failed: {error.strip()}")
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, error.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--expeditions", type=int, default=10)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("DELVETUI_BENCH_CACHE", tempfile.gettempdir()))
        / "delvetui-bench-chronicle",
    )
    args = parser.parse_args(argv)
    key = hashlib.sha256(f"{fingerprint()}:{args.expeditions}:{args.events}".encode())
    folder = args.cache / f"chain-{args.expeditions}x{args.events}-{key.hexdigest()[:12]}"
    paths = build(folder, args.expeditions, args.events)
    sizes = sorted({1, args.expeditions})
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-chronicle-") as scratch:
        for size in sizes:
            home = Path(scratch) / f"home-{size}"
            home.mkdir()
            for path in paths[:size]:
                shutil.copyfile(path, home / path.name)
            events = sum(
                Expedition.open(p, write=False, snapshot=True).event_count for p in paths[:size]
            )
            out = Path(scratch) / f"out-{size}"
            out.mkdir()
            commands = [("campaign view (--json)", ["campaign", "--json"])]
            commands += [
                (
                    f"chronicle, {fmt}",
                    [
                        "export",
                        "--campaign",
                        "bench-1",
                        "--format",
                        fmt,
                        "-o",
                        str(out / f"c.{fmt}"),
                    ],
                )
                for fmt in FORMATS
            ]
            for label, command in commands:
                wall, cpu, peak, _ = run(command, home)
                written = ""
                if command[0] == "export":
                    written = f"{Path(command[-1]).stat().st_size / 2**20:.1f}"
                rows.append((size, events, label, wall, cpu, peak, written))
                print(f"  {size} × {label}: {wall:.2f} s", file=sys.stderr)
    print("| expeditions | events | command | wall (s) | CPU (s) | peak (MiB) | written (MiB) |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    for size, events, label, wall, cpu, peak, written in rows:
        print(
            f"| {size} | {events:,} | {label} | {wall:.2f} | {cpu:.2f} | {peak:.1f} | {written} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
