"""Core benchmarks: replay, resume, memory and one turn against the length of the log.

Run from the repository root::

    python bench/bench_core.py            # full run, 2-3 minutes (+20-35 s to generate)
    python bench/bench_core.py --quick    # fewer repeats: 30-50 s (+20-35 s to generate)
    python bench/bench_core.py --profile  # also print cProfile tops for the largest file

It generates expeditions of 1,000 / 10,000 / 100,000 events of realistic play on the
shipped ``delving`` procedure and measures, side by side in one run, the figures the
budgets in docs/design.md name. The results are explained in docs/performance.md.

Generated files are cached (see ``--cache``) under a name keyed by the size, the seed and
a fingerprint of the code that writes events, so reruns skip the generation and a change
to the core makes a fresh file. Measurements that write (resume, one turn, memory) work
on a copy, so the cached file never changes.

The generator is real: every command goes through ``Expedition.execute`` (parse, decide,
``Store.append``, ``Timeline.apply``). Its one shortcut is ``PRAGMA synchronous = OFF`` on
the generator's own connection, so a commit does not wait for fsync. Nothing measured
runs with that setting.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import gc
import hashlib
import inspect
import io
import json
import math
import os
import platform
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

import delvetui
from delvetui.core import commands as cmd
from delvetui.core.decide import decide
from delvetui.core.evolve import fold
from delvetui.core.state import State
from delvetui.errors import DelveError
from delvetui.procedure.loader import load_file
from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import shipped_dir
from delvetui.session import Expedition, to_batch
from delvetui.store import Store

#: Bump when the generated play changes, so cached files are made again.
GENERATOR_VERSION = 1
SIZES = (1_000, 10_000, 100_000)
SEED = 461
PARTY = ("Ash", "Bex", "Cor", "Dun")
NOTES = (
    "The party maps the flooded corridor.",
    "Bex pockets a silver ring from the altar.",
    "Cor hears chanting behind the east door.",
    "Dun marks the wall with chalk.",
    "Ash wants to come back for the statue.",
)
#: The action of a turn command and its weight; None repeats the last action.
ACTIONS: tuple[tuple[str | None, int], ...] = (
    (None, 60),  # repeat the last action
    ("crawl", 12),
    ("walk", 8),
    ("search", 10),
    ("rest", 6),
    ("run", 4),
)
BUDGET_RESUME_RATIO = 2.0
#: The pure part of one turn is timed over CHAINS runs of CHAIN commands of play in memory.
CHAINS = 20
CHAIN = 50
BUDGET_MEMORY_MIB = 150.0
#: ``delvetui act X COMMAND`` at the largest size against the same at the smallest.
BUDGET_ACT_RATIO = 2.0
MIB = 1024 * 1024


def procedure() -> Procedure:
    """The shipped delving procedure (never a user override of it)."""
    return load_file(shipped_dir() / "delving.toml")


# Generating --------------------------------------------------------------------------------


def fingerprint() -> str:
    """A short hash of the code whose changes would change the file a seed generates."""
    package = Path(delvetui.__file__).resolve().parent
    digest = hashlib.sha256(f"v{GENERATOR_VERSION}".encode())
    sources = sorted((package / "core").glob("*.py")) + sorted((package / "store").glob("*.py"))
    sources += [package / "session.py", shipped_dir() / "delving.toml"]
    for source in sources:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


@attrs.define
class Player:
    """A game master playing a delve: mostly turns, with the chores a real table has."""

    rng: random.Random
    undone: bool = False
    batches: int = 0

    def setup(self) -> list[str]:
        """The party and their lights, before the first turn."""
        lines = [f"pc add {name} hp=6" for name in PARTY]
        lines += [
            "session start",
            "light add torch count=6 carrier=Ash",
            "light add candle count=4 carrier=Bex",
            "light on torch carrier=Ash",
        ]
        return lines

    def next(self, state: State, *, can_undo: bool) -> str:
        """The next command, chosen from the state the way a game master would."""
        rng = self.rng
        self.batches += 1
        if self.undone:
            self.undone = False
            if rng.random() < 0.5:
                return "redo"
        if not state.lit_lights:
            stock = [
                light
                for light in state.lights
                if light.kind == "torch" and not light.lit and not light.spent and light.count > 0
            ]
            if stock:
                return f"light on torch carrier={rng.choice(PARTY)}"
            return f"light add torch count=6 carrier={rng.choice(PARTY)}"
        hurt = [m for m in state.party if m.hp <= 2]
        if hurt:
            return f"pc {hurt[0].name} hp={hurt[0].max_hp}"
        if self.batches % 150 == 0:
            return "session end" if state.in_session else "session start"
        if not state.in_session:
            return "session start"
        roll = rng.random()
        if roll < 0.03 and can_undo:
            self.undone = True
            return "undo"
        if roll < 0.08:
            return f"note {rng.choice(NOTES)}"
        if roll < 0.10:
            return "roll 2d6 reaction"
        if roll < 0.11 and len(state.lit_lights) == 1:
            candles = [
                light
                for light in state.lights
                if light.kind == "candle" and not light.lit and not light.spent and light.count > 0
            ]
            if candles:
                return f"light on candle carrier={rng.choice(PARTY)}"
        return self.turn(bool(state.pending))

    def turn(self, pending: bool) -> str:
        """A turn: mostly the same action again; the hazard die typed in about 40% of them."""
        rng = self.rng
        names = [name for name, _ in ACTIONS]
        weights = [weight for _, weight in ACTIONS]
        action = "rest" if pending and rng.random() < 0.5 else rng.choices(names, weights)[0]
        words = ["turn"] + ([action] if action else [])
        if rng.random() < 0.4:
            words.append(f"hazard={rng.randint(1, 6)}")
        return " ".join(words)


class Clock:
    """The wall time of the table: a minute per command, a week between sessions."""

    def __init__(self) -> None:
        self.moment = dt.datetime(2024, 1, 6, 19, 0, tzinfo=dt.UTC)

    def tick(self, command: str) -> dt.datetime:
        step = dt.timedelta(days=7) if command == "session start" else dt.timedelta(minutes=1)
        self.moment += step
        return self.moment


def generate(path: Path, events: int, seed: int) -> dict[str, int]:
    """Write an expedition of exactly ``events`` events to ``path`` through execute."""
    player = Player(random.Random(seed))
    clock = Clock()
    partial = path.with_name(f".{path.stem}.{os.getpid()}.partial.delve")
    partial.unlink(missing_ok=True)
    rejected = 0
    with Expedition.create(partial, procedure(), name="bench", seed=seed, now=clock.moment) as exp:
        conn = exp.store._conn  # the bench-only shortcut: no fsync on the generator's commits
        assert conn is not None
        conn.execute("PRAGMA synchronous = OFF")
        for line in player.setup():
            exp.execute(line, now=clock.tick(line))
        while exp.event_count < events:
            left = events - exp.event_count
            # A turn can make up to ~20 events; the last few are notes, to land exactly.
            if left < 24:
                line = f"note {player.rng.choice(NOTES)}"
            else:
                line = player.next(exp.state, can_undo=exp.timeline.history().undo is not None)
            try:
                exp.execute(line, now=clock.tick(line))
            except DelveError:
                rejected += 1
        info = {
            "events": exp.event_count,
            "batches": exp.batch_count,
            "turn": exp.state.turn,
            "lights": len(exp.state.lights),
            "rejected": rejected,
        }
    os.replace(partial, path)
    return info


def copy_synced(source: Path, target: Path) -> None:
    """Copy an expedition file and write it out to disk before anything is timed.

    Without the sync the copy's pages are still waiting to be written, and the first commit's
    fsync writes all of them: 17 MB made the first turn after resuming the largest file 11 ms
    instead of 2, a cost of the bench's copy that no game master's file ever has.
    """
    shutil.copyfile(source, target)
    os.sync()


def cached(cache: Path, events: int, seed: int) -> tuple[Path, dict[str, int], float | None]:
    """The cached file for a size and seed, generated when missing; also its generation time."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"core-{events}-s{seed}-{fingerprint()}.delve"
    info_path = path.with_suffix(".json")
    if path.exists() and info_path.exists():
        info: dict[str, int] = json.loads(info_path.read_text())
        return path, info, None
    for stale in cache.glob(f"core-{events}-s{seed}-*"):
        stale.unlink()  # made by an older version of the code
    started = time.perf_counter()
    info = generate(path, events, seed)
    took = time.perf_counter() - started
    info_path.write_text(json.dumps(info))
    return path, info, took


# Measuring ---------------------------------------------------------------------------------


def replay(path: Path) -> float:
    """(a) Open read-only and fold every batch into state."""
    gc.collect()
    started = time.perf_counter()
    expedition = Expedition.open(path, write=False)
    took = time.perf_counter() - started
    expedition.close()
    return took


def replay_parts(path: Path) -> tuple[float, float, float]:
    """Where replay goes: ``Store.open`` (header, quick_check, schema); that plus reading and
    checking every row; that plus rebuilding the events. The fold (``Timeline.apply``) is what
    ``replay`` adds on top of the last figure.
    """
    gc.collect()
    started = time.perf_counter()
    with Store.open(path, write=False):
        opened = time.perf_counter() - started
    gc.collect()
    started = time.perf_counter()
    with Store.open(path, write=False) as store:
        for _ in store.batches():
            pass
    read = time.perf_counter() - started
    gc.collect()
    started = time.perf_counter()
    with Store.open(path, write=False) as store:
        for stored in store.batches():
            to_batch(stored)
    decoded = time.perf_counter() - started
    return opened, read, decoded


def snapshot_option() -> dict[str, Any] | None:
    """``{"snapshot": True}`` when ``Expedition.open`` can resume from a snapshot, else None.

    Snapshots are new in the core; the bench measures them when the API is there and the
    plain replay always (it is what ``Expedition.open(path)`` does by default).
    """
    if "snapshot" in inspect.signature(Expedition.open).parameters:
        return {"snapshot": True}
    return None


def resume(path: Path, work: Path, options: dict[str, Any] | None = None) -> tuple[float, float]:
    """(b) Open for writing (lock + replay) and take one turn, on a fresh copy.

    Returns the time to open plus one turn, and the time of that first turn alone (after a
    full replay it also writes a new snapshot, when the core keeps them).
    """
    copy = work / "resume.delve"
    copy_synced(path, copy)
    gc.collect()
    started = time.perf_counter()
    expedition = Expedition.open(copy, **(options or {}))
    opened = time.perf_counter()
    expedition.execute("turn")
    ended = time.perf_counter()
    expedition.close()
    copy.unlink()
    return ended - started, ended - opened


def verify(path: Path, options: dict[str, Any]) -> float:
    """The background check after a snapshot resume: ``Expedition.verify`` (a full replay)."""
    with Expedition.open(path, write=False, **options) as expedition:
        check: Callable[[], object] | None = getattr(expedition, "verify", None)
        if check is None:
            return math.nan
        gc.collect()
        started = time.perf_counter()
        check()
        return time.perf_counter() - started


@attrs.frozen
class Turns:
    """``execute("turn")`` timed at one point of an expedition, and the state it reached."""

    #: The number of the first timed turn, and the batches in the file before it.
    turn: int
    batches: int
    #: Seconds per ``execute("turn")``: parse, decide, commit (fsync included), apply.
    execute: list[float]
    #: The state after the timed turns, where the pure timings start from.
    start: State


def turns(expeditions: dict[str, Expedition], count: int) -> dict[str, Turns]:
    """(d) ``count`` turns through ``execute`` in each expedition, interleaved.

    Round r takes turn r in every expedition, so load from elsewhere on the machine (and
    the disk's fsync moods) falls on all of them alike.
    """
    starts = {
        label: (expedition.state.turn + 1, expedition.batch_count)
        for label, expedition in expeditions.items()
    }
    executed: dict[str, list[float]] = {label: [] for label in expeditions}
    for _ in range(count):
        for label, expedition in expeditions.items():
            started = time.perf_counter()
            expedition.execute("turn")
            executed[label].append(time.perf_counter() - started)
    return {
        label: Turns(
            turn=starts[label][0],
            batches=starts[label][1],
            execute=executed[label],
            start=expedition.state,
        )
        for label, expedition in expeditions.items()
    }


def timed_turns(work: Path, files: dict[int, Path], count: int) -> dict[str, Turns]:
    """(d) Turns from turn 10 of a fresh expedition set up like the generated ones, and at
    the end of each generated file (on copies, opened from a snapshot when the core keeps
    them: the state is the same, and so the turn), interleaved."""
    opened: dict[str, Expedition] = {}
    try:
        path = work / "early.delve"
        player = Player(random.Random(SEED))
        opened["fresh"] = early = Expedition.create(path, procedure(), name="early", seed=SEED)
        for line in player.setup():
            early.execute(line)
        while early.state.turn < 9:
            early.execute("turn")
        for size, source in files.items():
            copy = work / f"late-{size}.delve"
            copy_synced(source, copy)
            opened[str(size)] = Expedition.open(copy, **(snapshot_option() or {}))
        return turns(opened, count)
    finally:
        for expedition in opened.values():
            expedition.close()
            expedition.path.unlink()


@attrs.define
class Pure:
    """Seconds of the engine's own work (decide + fold), with no SQLite and no disk."""

    #: Each turn in runs of in-memory play from the state reached.
    turn: list[float] = attrs.Factory(list)
    #: The same, from the state reached with its spent lights dropped (the state's only
    #: part that grows with the log): what those turns would cost without that growth.
    trimmed: list[float] = attrs.Factory(list)
    #: ``light add torch`` on the state reached.
    light_add: list[float] = attrs.Factory(list)


def pure_timings(
    starts: dict[str, State], rules: Procedure, chains: int = CHAINS
) -> dict[str, Pure]:
    """(d) The engine's part of a turn from each start state, so growth cannot hide in fsync.

    Play continues in memory from each state: ``chains`` runs of ``CHAIN`` commands of the
    generator's game master, each run from the same start, timing every turn among them, so
    the usual mix (a torch burning out, fatigue pending, a candle lit) is sampled alike at
    any length. Round r runs chain r from every start, so load from elsewhere on the machine
    falls on all of them alike.
    """
    found = {label: Pure() for label in starts}
    add = cmd.parse("light add torch count=6 carrier=Ash")
    for chain in range(chains):
        for label, start in starts.items():
            pure = found[label]
            trimmed = attrs.evolve(
                start, lights=tuple(light for light in start.lights if not light.spent)
            )
            pure.turn += play_chain(start, rules, chain)
            pure.trimmed += play_chain(trimmed, rules, chain)
            started = time.perf_counter()
            fold(start, decide(start, rules, add, rng=random.Random(chain)))
            pure.light_add.append(time.perf_counter() - started)
    return found


def play_chain(start: State, rules: Procedure, chain: int) -> list[float]:
    """decide + fold of every turn in ``CHAIN`` commands of play from ``start``."""
    player = Player(random.Random(chain))
    state = start
    took: list[float] = []
    for step in range(CHAIN):
        command = cmd.parse(player.next(state, can_undo=False))
        rng = random.Random(f"{chain}:{step}")
        started = time.perf_counter()
        events = decide(state, rules, command, rng=rng, today="2024-01-06")
        after = fold(state, events)
        if isinstance(command, cmd.TakeTurn):
            took.append(time.perf_counter() - started)
        state = after
    return took


def memory(path: Path, work: Path) -> dict[str, float]:
    """(c) Peak resident memory of a fresh process that resumes a copy and takes a turn."""
    copy = work / "memory.delve"
    copy_synced(path, copy)
    out = subprocess.run(
        [sys.executable, __file__, "--child-memory", str(copy)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    copy.unlink()
    result: dict[str, float] = json.loads(out)
    return result


def child_memory(path: Path) -> None:
    """In the child: resident memory after imports, and the peak after resume + one turn.

    The peak is VmHWM, this process's own high-water mark. ``ru_maxrss`` is reported too but
    is not used: on Linux a child spawned with vfork + exec (as ``subprocess`` does) starts
    with the parent's high-water mark in ``ru_maxrss``, so it shows the bench's own peak.
    """
    base = _hwm_mib()
    with Expedition.open(path) as expedition:
        expedition.execute("turn")
        peak = _hwm_mib()
        events = expedition.event_count
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps({"base_mib": base, "peak_mib": peak, "ru_maxrss_mib": maxrss, "n": events}))


def _hwm_mib() -> float:
    """Peak resident set size of this process, from /proc/self/status, in MiB."""
    with open("/proc/self/status", encoding="ascii") as status_file:
        for line in status_file:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def delvetui_command() -> list[str]:
    """The installed ``delvetui`` script beside this Python, else ``python -m delvetui``."""
    script = Path(sys.executable).parent / "delvetui"
    return [str(script)] if script.exists() else [sys.executable, "-m", "delvetui"]


def status(path: Path | None, env: dict[str, str]) -> float:
    """``delvetui status PATH --json`` as a subprocess (``--version`` when no path)."""
    args = ["status", str(path), "--json"] if path else ["--version"]
    started = time.perf_counter()
    subprocess.run([*delvetui_command(), *args], check=True, capture_output=True, env=env)
    return time.perf_counter() - started


def act_interleaved(
    files: dict[int, Path], work: Path, env: dict[str, str], repeats: int
) -> dict[int, float]:
    """``delvetui act COPY note …`` as a whole process, the sizes interleaved; median ms.

    Each size plays on its own synced copy, so every run resumes a file as a game master's
    script would meet it (the previous act's snapshot in place, nothing cached in-process).
    """
    copies = {size: work / f"act-{size}.delve" for size in files}
    for size, source in files.items():
        copy_synced(source, copies[size])
    took: dict[int, list[float]] = {size: [] for size in files}
    for n in range(repeats):
        for size, copy in copies.items():
            started = time.perf_counter()
            subprocess.run(
                [*delvetui_command(), "act", str(copy), "note", f"bench {n}"],
                check=True,
                capture_output=True,
                env=env,
            )
            took[size].append(time.perf_counter() - started)
    for copy in copies.values():
        copy.unlink()
    return {size: median_ms(samples) for size, samples in took.items()}


def listing(files: dict[int, Path], env: dict[str, str], repeats: int) -> list[float]:
    """``delvetui list --json`` with the three generated files saved in DELVETUI_HOME."""
    home = Path(env["DELVETUI_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    for size, source in files.items():
        copy_synced(source, home / f"bench-{size}.delve")
    took: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(
            [*delvetui_command(), "list", "--json"], check=True, capture_output=True, env=env
        )
        took.append(time.perf_counter() - started)
    for size in files:
        (home / f"bench-{size}.delve").unlink()
    return took


def median_ms(samples: Sequence[float]) -> float:
    return statistics.median(samples) * 1000


def turn_figures(measured: Turns, pure: Pure) -> dict[str, float]:
    return {
        "turn": measured.turn,
        "batches": measured.batches,
        "turn_execute_ms": median_ms(measured.execute),
        "turn_pure_ms": median_ms(pure.turn),
        "turn_trimmed_ms": median_ms(pure.trimmed),
        "light_add_ms": median_ms(pure.light_add),
        "pure_samples": len(pure.turn),
    }


# Profiling ---------------------------------------------------------------------------------


def profile(label: str, action: Callable[[], object], top: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    action()
    profiler.disable()
    for order in ("tottime", "cumulative"):
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.strip_dirs().sort_stats(order).print_stats(top)
        print(f"\n--- profile: {label}, by {order} ---")
        lines = text.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print("\n".join(lines[max(0, start - 4) :]))


# Main ----------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (about a minute)")
    parser.add_argument("--profile", action="store_true", help="print cProfile tops")
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the generated play")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(
            os.environ.get("DELVETUI_BENCH_CACHE")
            or Path(tempfile.gettempdir()) / "delvetui-bench-cache"
        ),
        help="folder of generated files (default $DELVETUI_BENCH_CACHE or $TMPDIR/...)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write results as JSON")
    parser.add_argument("--child-memory", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_memory:
        child_memory(args.child_memory)
        return 0

    quick: bool = args.quick
    turn_count = 10 if quick else 25

    def repeats(size: int) -> int:
        if size >= 100_000:
            return 1 if quick else 3
        return 3 if quick else 5

    print(
        f"delvetui {delvetui.__version__} core bench: python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {platform.machine()} {platform.system()} "
        f"{platform.release()}, {'quick' if quick else 'full'} run, seed {args.seed}"
    )
    results: dict[str, Any] = {"quick": quick, "seed": args.seed, "sizes": {}}
    files: dict[int, Path] = {}
    for size in SIZES:
        path, info, took = cached(args.cache, size, args.seed)
        files[size] = path
        made = f"generated in {took:.1f} s" if took is not None else "cached"
        print(
            f"  {size:>7} events: {info['batches']} batches, turn {info['turn']}, "
            f"{info['lights']} lights in state, {info['rejected']} rejected, "
            f"{path.stat().st_size / MIB:.1f} MiB ({made})"
        )
        results["sizes"][size] = {"file": info, "bytes": path.stat().st_size}

    snapshots = snapshot_option()
    results["snapshots"] = snapshots is not None
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="delvetui-bench-") as tmp:
        work = Path(tmp)
        env["DELVETUI_HOME"] = str(work / "home")  # status never touches the user's files
        results["startup_ms"] = median_ms([status(None, env) for _ in range(3)])
        for size in SIZES:
            path, n = files[size], repeats(size)
            row = results["sizes"][size]
            row["repeats"] = n
            row["replay_ms"] = median_ms([replay(path) for _ in range(n)])
            if not quick:  # the breakdown and the background check only in a full run
                parts = [replay_parts(path) for _ in range(n)]
                row["open_ms"] = median_ms([part[0] for part in parts])
                row["read_ms"] = median_ms([part[1] for part in parts])
                row["decode_ms"] = median_ms([part[2] for part in parts])
            resumed = [resume(path, work) for _ in range(n)]
            row["resume_ms"] = median_ms([total for total, _ in resumed])
            row["first_turn_ms"] = median_ms([first for _, first in resumed])
            if snapshots is not None:
                resumed = [resume(path, work, snapshots) for _ in range(n)]
                row["resume_snapshot_ms"] = median_ms([total for total, _ in resumed])
                if not quick:
                    row["verify_ms"] = median_ms([verify(path, snapshots) for _ in range(n)])
            row["status_ms"] = median_ms([status(path, env) for _ in range(n)])
            row["memory"] = memory(path, work)
            print(f"  measured {size} events ({n} repeats)")
        results["list_ms"] = median_ms(listing(files, env, repeats(SIZES[-1])))
        acts = act_interleaved(files, work, env, max(9, repeats(SIZES[-1])))
        for size, taken in acts.items():
            results["sizes"][size]["act_ms"] = taken
        at = timed_turns(work, files, turn_count)
        rules = procedure()
        starts = {label: t.start for label, t in at.items()}
        pure = pure_timings(starts, rules, CHAINS // 2 if quick else CHAINS)
        results["turn10"] = turn_figures(at["fresh"], pure["fresh"])
        for size in SIZES:
            results["sizes"][size].update(turn_figures(at[str(size)], pure[str(size)]))
        print(f"  timed decide + fold of {len(pure['fresh'].turn)} turns from each start")
        if args.profile:
            largest = files[SIZES[-1]]
            profile(f"replay of {SIZES[-1]:,} events", lambda: replay(largest), 25)
            if snapshots is not None:
                options = snapshots
                profile(
                    f"resume from snapshot of {SIZES[-1]:,} events + one turn",
                    lambda: resume(largest, work, options),
                    25,
                )
            copy = work / "profiled.delve"
            copy_synced(largest, copy)
            with Expedition.open(copy) as expedition:
                profile(
                    f"{turn_count} execute('turn') at {SIZES[-1]:,} events (after open)",
                    lambda: turns({"late": expedition}, turn_count),
                    25,
                )
                late = {"late": expedition.state}
                profile(
                    f"decide + fold of in-memory play at {SIZES[-1]:,} events",
                    lambda: pure_timings(late, rules, 5),
                    25,
                )

    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


def report(results: dict[str, Any]) -> None:
    sizes: dict[int, dict[str, Any]] = results["sizes"]
    first, last = sizes[SIZES[0]], sizes[SIZES[-1]]
    early = results["turn10"]
    snapshots: bool = results["snapshots"]

    def ms(row: dict[str, Any], key: str, digits: int = 0) -> str:
        value = row.get(key)
        return "n/a" if value is None or math.isnan(value) else f"{value:,.{digits}f}"

    print(
        "\n| events | batches | turn | replay (ms) | resume (ms) | of which the first turn (ms) "
        "| resume from snapshot (ms) | verify, background (ms) | status --json (ms) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size, row in sizes.items():
        info = row["file"]
        print(
            f"| {size:,} | {info['batches']:,} | {info['turn']:,} | {ms(row, 'replay_ms')} "
            f"| {ms(row, 'resume_ms')} | {ms(row, 'first_turn_ms', 1)} "
            f"| {ms(row, 'resume_snapshot_ms')} | {ms(row, 'verify_ms')} "
            f"| {ms(row, 'status_ms')} |"
        )
    print(
        "\n| at | turn | one turn, execute (ms) | one turn, decide+fold (ms) "
        "| same, spent lights dropped (ms) | light add, decide+fold (ms) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    rows = [("turn 10 of a fresh expedition", early)]
    rows += [(f"end of {size:,} events", row) for size, row in sizes.items()]
    for label, row in rows:
        print(
            f"| {label} | {row['turn']:,} | {ms(row, 'turn_execute_ms', 2)} "
            f"| {ms(row, 'turn_pure_ms', 3)} | {ms(row, 'turn_trimmed_ms', 3)} "
            f"| {ms(row, 'light_add_ms', 3)} |"
        )
    print(
        "\n| events | Store.open (ms) | + read, check rows (ms) | + rebuild events (ms) "
        "| + fold = replay (ms) | replay per event (µs) | peak RSS (MiB) "
        "| RSS after imports (MiB) | ru_maxrss, unused (MiB) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size, row in sizes.items():
        mem = row["memory"]
        print(
            f"| {size:,} | {ms(row, 'open_ms', 1)} | {ms(row, 'read_ms')} | {ms(row, 'decode_ms')} "
            f"| {ms(row, 'replay_ms')} | {row['replay_ms'] * 1000 / size:.0f} "
            f"| {mem['peak_mib']:.1f} | {mem['base_mib']:.1f} | {mem['ru_maxrss_mib']:.1f} |"
        )
    print(f"\n`delvetui --version` (interpreter + imports): {results['startup_ms']:.0f} ms")
    print(
        "`delvetui act X note …`, whole process, interleaved: "
        + ", ".join(f"{size:,} events {ms(row, 'act_ms')} ms" for size, row in sizes.items())
    )
    print(
        f"`delvetui list --json` with the three files saved: {results['list_ms']:,.0f} ms "
        "(it opens each one)"
    )

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    ratio = last["resume_ms"] / first["resume_ms"]
    print(
        f"\nresume({SIZES[-1]:,}) / resume({SIZES[0]:,}), full replay: {ratio:.1f}x "
        f"(budget <= {BUDGET_RESUME_RATIO:g}x: {verdict(ratio <= BUDGET_RESUME_RATIO)}); "
        f"replay alone {last['replay_ms'] / first['replay_ms']:.1f}x"
    )
    if snapshots:
        ratio = last["resume_snapshot_ms"] / first["resume_snapshot_ms"]
        print(
            f"resume({SIZES[-1]:,}) / resume({SIZES[0]:,}), from snapshot: {ratio:.1f}x "
            f"(budget <= {BUDGET_RESUME_RATIO:g}x: {verdict(ratio <= BUDGET_RESUME_RATIO)})"
        )
    for size in SIZES[1:]:
        row = sizes[size]
        print(
            f"one turn at {size:,} events (turn {row['turn']:,}) / at turn {early['turn']}: "
            f"execute {row['turn_execute_ms'] / early['turn_execute_ms']:.2f}x, "
            f"decide+fold {row['turn_pure_ms'] / early['turn_pure_ms']:.2f}x "
            f"({row['turn_pure_ms'] / row['turn_trimmed_ms']:.2f}x the same state without its "
            f"spent lights), light add {row['light_add_ms'] / early['light_add_ms']:.1f}x "
            "(budget: no growth)"
        )
    ratio = last["act_ms"] / first["act_ms"]
    print(
        f"act({SIZES[-1]:,}) / act({SIZES[0]:,}), whole process: {ratio:.2f}x "
        f"(budget <= {BUDGET_ACT_RATIO:g}x: {verdict(ratio <= BUDGET_ACT_RATIO)})"
    )
    peak = last["memory"]["peak_mib"]
    print(
        f"peak resident at {SIZES[-1]:,} events: {peak:.1f} MiB "
        f"(budget < {BUDGET_MEMORY_MIB:g} MiB: {verdict(peak < BUDGET_MEMORY_MIB)})"
    )


if __name__ == "__main__":
    sys.exit(main())
