"""Table-screen benchmarks: start-up against a plain Textual app, and one turn against log length.

Run from the repository root::

    python bench/bench_ui.py            # 1,000 and 100,000 events, 11 rounds
    python bench/bench_ui.py --quick    # 1,000 and 10,000 events, 9 rounds
    python bench/bench_ui.py --verbose  # also every round's times
    python bench/bench_ui.py --against ../before --turns 0  # another checkout, beside

It reuses the expeditions ``bench_core.py`` generates (and caches, in the same folder) and
copies each to a scratch folder, written out to disk before anything is timed.

- start-up: whole processes, start to exit, side by side. Each round runs the plain Textual
  app of ``../shared/bench/bare_app.py`` (a header, a log, two data tables, an input and a
  footer, painted once and saved as an SVG) and then ``delvetui open FILE --screenshot F
  --size 120x40`` on each file, so a slow moment of the machine falls on all of them alike.
  Wall time is the budget; CPU time (user + system of the process) is printed beside it,
  because on a shared machine it moves less. Each picture must show the expedition's
  newest turn in the log, or the bench stops.
- ``--against DIR``: the table of another checkout (``DIR/delvetui``, run with ``DIR`` first
  on ``PYTHONPATH``) on the same files in the same rounds, to time a change against the
  code before it.
- one turn: from asking for ``turn`` to the state on screen, the median of many turns, in
  the real app driven headless (``App.run_test``); ``--turns 0`` leaves it out.

Before the rounds, delvetui's modules are compiled to bytecode, as installing a wheel does
(an editable install under ``PYTHONDONTWRITEBYTECODE`` would otherwise compile them on
every start), and each program runs once untimed.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import gc
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import SEED, cached, copy_synced

import delvetui
from delvetui import session
from delvetui.session import Expedition
from delvetui.ui.app import DelveApp

SIZE = (120, 40)
#: The plain Textual app, ``../shared/bench/bare_app.py`` from the repository (or higher up).
BARE = next(
    (
        folder / "shared" / "bench" / "bare_app.py"
        for folder in Path(__file__).resolve().parents
        if (folder / "shared" / "bench" / "bare_app.py").is_file()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "bench" / "bare_app.py",
)
#: The budgets (docs/design.md): start-up against the plain app, resume 100,000 / 1,000.
START_BUDGET = 1.3
RESUME_BUDGET = 1.3


def run_timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process, start to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def shows_turn(svg: Path, turn: int) -> bool:
    """True when the picture's log has the header of this turn (the newest)."""
    return f"Turn&#160;{turn}&#160;·" in svg.read_text(encoding="utf-8")


def start_up(
    bare: Path,
    files: dict[str, tuple[Path, int]],
    rounds: int,
    work: Path,
    against: Path | None = None,
) -> dict[str, list[tuple[float, float]]]:
    """Each round: the plain app, then the table on each file (and, ``against`` another
    checkout, its table on each file too); (wall, cpu) per run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["DELVETUI_HOME"] = str(work / "home")
    compileall.compile_dir(Path(delvetui.__file__).parent, quiet=1)
    out = work / "picture.svg"
    commands = {"plain Textual app": ([sys.executable, str(bare), str(out)], env)}
    shows: dict[str, int] = {}
    trees: dict[str, dict[str, str]] = {"": env}
    if against is not None:
        compileall.compile_dir(against / "delvetui", quiet=1)
        trees[f" ({against.name})"] = dict(env, PYTHONPATH=str(against.resolve()))
    for case, (path, turn) in files.items():
        for tree, tree_env in trees.items():
            commands[case + tree] = ([
                sys.executable, "-m", "delvetui", "open", str(path),
                "--screenshot", str(out), "--size", f"{SIZE[0]}x{SIZE[1]}",
            ], tree_env)  # fmt: skip
            shows[case + tree] = turn
    for command, command_env in commands.values():
        run_timed(command, command_env)  # untimed: bytecode and the files in the page cache
    times: dict[str, list[tuple[float, float]]] = {case: [] for case in commands}
    for _ in range(rounds):
        for case, (command, command_env) in commands.items():
            times[case].append(run_timed(command, command_env))
            if case in shows and not shows_turn(out, shows[case]):
                raise SystemExit(f"{case}: the picture does not show turn {shows[case]}")
    return times


def crashed(path: Path) -> None:
    """Play commands the way a crash leaves them: after the last snapshot, none at closing."""
    expedition = Expedition.open(path, snapshot=True)
    try:
        while expedition.batch_count - expedition.snapshot_batch < session.SNAPSHOT_EVERY - 1:
            expedition.execute("turn")
    finally:
        expedition.close(snapshot=False)


async def table(path: Path, turns: int) -> list[float]:
    """The time of each turn, from asking for it to the new state on screen.

    The hazard die is typed as a free result: in the table a sign asks which creature it
    foretells, and a bench has no one to answer.
    """
    app = DelveApp(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.table
        while screen is None or not screen.loaded:  # the whole log read in
            await pilot.pause(0.005)
            screen = app.table
        expedition = app.expedition
        assert expedition is not None
        times = []
        for _ in range(turns):
            before = expedition.state.turn
            begin = time.perf_counter()
            screen.run("turn hazard=6")  # a free turn: no sign or question to answer
            while expedition.state.turn == before:
                if app.screen is not screen:  # a dialog would wait for an answer forever
                    raise SystemExit(f"the turn asked something: {type(app.screen).__name__}")
                await pilot.pause(0)
            await pilot.pause(0)
            times.append(time.perf_counter() - begin)
    app.close_expedition()
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 events instead of 100,000")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(
            os.environ.get("DELVETUI_BENCH_CACHE")
            or Path(tempfile.gettempdir()) / "delvetui-bench-cache"
        ),
        help="folder of generated files, shared with bench_core.py",
    )
    parser.add_argument("--bare", type=Path, default=BARE, help="the plain Textual app")
    parser.add_argument("--rounds", type=int, help="start-up rounds (default 11; --quick 9)")
    parser.add_argument("--turns", type=int, default=20, help="turns timed in each of 3 rounds")
    parser.add_argument(
        "--against", type=Path, help="another checkout whose table is timed beside this one"
    )
    parser.add_argument("--verbose", action="store_true", help="print every round's times")
    args = parser.parse_args(argv)
    rounds = args.rounds or (9 if args.quick else 11)
    if not args.bare.is_file():
        parser.error(f"the plain Textual app is not at {args.bare}; give it with --bare")
    args.cache.mkdir(parents=True, exist_ok=True)
    small, large = 1_000, 10_000 if args.quick else 100_000
    work = Path(tempfile.mkdtemp(prefix="delvetui-bench-ui-"))
    try:
        after_crash = work / "crashed.delve"
        copy_synced(cached(args.cache, large, seed=SEED)[0], after_crash)
        crashed(after_crash)
        sources = {
            f"{small:,} events": cached(args.cache, small, seed=SEED)[0],
            f"{large:,} events": cached(args.cache, large, seed=SEED)[0],
            f"{large:,} events, after a crash": after_crash,
        }
        # The table only reads a file until a command is played, so the start-up rounds
        # share one copy of each, made and written out to disk before any timing.
        files: dict[str, tuple[Path, int]] = {}
        for number, (case, source) in enumerate(sources.items()):
            copy = work / f"paint-{number}.delve"
            copy_synced(source, copy)
            with Expedition.open(copy, write=False, snapshot=True) as expedition:
                files[case] = (copy, expedition.state.turn)
        times = start_up(args.bare, files, rounds, work, args.against)
        # Turns change the file: each round plays on a fresh copy.
        turn_times: dict[str, list[float]] = {case: [] for case in sources}
        for _ in range(3 if args.turns else 0):
            for case, source in sources.items():
                copy = work / "turns.delve"
                copy_synced(source, copy)
                gc.collect()
                turn_times[case].extend(asyncio.run(table(copy, args.turns)))
        report(times, turn_times, rounds, small, large, verbose=args.verbose)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def report(
    times: dict[str, list[tuple[float, float]]],
    turn_times: dict[str, list[float]],
    rounds: int,
    small: int,
    large: int,
    *,
    verbose: bool,
) -> None:
    """The figures, then each budget with its ratio and whether it is met."""
    bare = "plain Textual app"

    def median(case: str, part: int) -> float:
        return statistics.median(t[part] for t in times[case])

    def own(case: str, base: str) -> float:
        """The median of each round's own ratio (wall)."""
        return statistics.median(a[0] / b[0] for a, b in zip(times[case], times[base], strict=True))

    print(f"start-up, whole process, median of {rounds} interleaved rounds:")
    print("| | wall (ms) | × plain app | each round's own ratio | CPU (ms) | CPU × plain app |")
    print("|---|---:|---:|---:|---:|---:|")
    for case in times:
        wall, cpu = median(case, 0), median(case, 1)
        shown = "1.00" if case == bare else f"{wall / median(bare, 0):.2f}"
        rounds_own = "–" if case == bare else f"{own(case, bare):.2f}"
        print(
            f"| {case} | {wall * 1000:.0f} | {shown} | {rounds_own} | {cpu * 1000:.0f} |"
            f" {cpu / median(bare, 1):.2f} |"
        )
        if verbose:
            print("    wall:", " ".join(f"{t[0] * 1000:.0f}" for t in times[case]))
            print("    cpu: ", " ".join(f"{t[1] * 1000:.0f}" for t in times[case]))
    spread = [t[0] for t in times[bare]]
    print(
        f"the plain app alone ran {min(spread) * 1000:.0f}–{max(spread) * 1000:.0f} ms"
        f" over the rounds (noise: ±{(max(spread) - min(spread)) / 2 / median(bare, 0):.0%})"
    )
    cases = list(turn_times)
    turned = all(turn_times.values())
    if turned:
        print(f"one turn, median of {sum(len(t) for t in turn_times.values()) // 3} turns:")
        for case, samples in turn_times.items():
            print(f"  {case}: {statistics.median(samples) * 1000:.1f} ms")
    print("budgets:")
    checks = [
        (f"start-up at {small:,} events ≤ {START_BUDGET}× the plain app", cases[0], bare),
        (f"start-up at {large:,} events ≤ {START_BUDGET}× the plain app", cases[1], bare),
        (f"resume {large:,} events ≤ {RESUME_BUDGET}× resume {small:,}", cases[1], cases[0]),
        (f"resume {large:,} after a crash ≤ {RESUME_BUDGET}× resume {small:,}", cases[2], cases[0]),
    ]
    for label, case, base in checks:
        ratio = median(case, 0) / median(base, 0)
        cpu = median(case, 1) / median(base, 1)
        budget = START_BUDGET if base == bare else RESUME_BUDGET
        met = "met" if ratio <= budget else "NOT met"
        print(f"  {label}: {ratio:.2f}× wall (CPU {cpu:.2f}×) — {met}")
    if turned:
        turn_ratio = statistics.median(turn_times[cases[1]]) / statistics.median(
            turn_times[cases[0]]
        )
        print(f"  one turn at {large:,} / at {small:,} events ≤ 1.3×: {turn_ratio:.2f}× —", end=" ")
        print("met" if turn_ratio <= 1.3 else "NOT met")


if __name__ == "__main__":
    sys.exit(main())
