"""Odds: how long ``odds.compute`` takes on a short expedition of each shipped procedure.

Run from the repository root::

    python bench/bench_odds.py              # median of 20 computations per procedure
    python bench/bench_odds.py --repeat 50  # more repeats
    python bench/bench_odds.py --dump FILE  # also write every figure, to compare two versions

For each shipped procedure it makes an expedition in a temporary folder with a fixed seed
(one character of 6 HP, three torches, one lit), plays two turns and times
``odds.compute(state, procedure)`` there: the first computation, then the median and the
fastest of ``--repeat`` more. ``--dump`` writes the exact odds at the start and after each
of six turns for every procedure, so two versions of the code (another checkout first on
``PYTHONPATH``) can be checked to give the same figures with ``cmp``.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

from delvetui.core import odds
from delvetui.errors import DelveError
from delvetui.procedure.registry import find, shipped_dir
from delvetui.session import Expedition

SEED = 461
SETUP = ("pc add Ash hp=6", "light add torch count=3 carrier=Ash lit")


def expedition(folder: Path, name: str) -> Expedition:
    """A new expedition of this shipped procedure, with the party and its light."""
    made = Expedition.create(folder / f"{name}.delve", find(name), seed=SEED)
    for text in SETUP:
        made.execute(text)
    return made


def turn(made: Expedition) -> None:
    """One more turn, if the procedure lets the party take one now (else the state stays)."""
    with contextlib.suppress(DelveError):
        made.execute("turn")


def timed(made: Expedition) -> float:
    """Seconds one computation of the odds takes at the expedition's state."""
    start = time.perf_counter()
    odds.compute(made.state, made.procedure)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time odds.compute on each procedure.")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--dump", type=Path, default=None)
    args = parser.parse_args(argv)
    names = sorted(path.stem for path in shipped_dir().glob("*.toml"))
    dump: list[str] = []
    total = 0.0
    print(f"{'procedure':24} {'first':>9} {'median':>9} {'fastest':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            made = expedition(Path(folder), name)
            try:
                states = [made.state]
                for _ in range(2):
                    turn(made)
                    states.append(made.state)
                first = timed(made)
                times = [timed(made) for _ in range(args.repeat)]
                median = statistics.median(times)
                total += median
                print(
                    f"{name:24} {first * 1000:6.1f} ms {median * 1000:6.1f} ms "
                    f"{min(times) * 1000:6.1f} ms"
                )
                if args.dump is not None:
                    for _ in range(4):
                        turn(made)
                        states.append(made.state)
                    for index, state in enumerate(states):
                        figures = odds.compute(state, made.procedure)
                        dump.append(f"{name} {index} {figures!r}")
            finally:
                made.close()
    print(f"{'sum of medians':24} {'':9} {total * 1000:6.1f} ms")
    if args.dump is not None:
        args.dump.write_text("\n".join(dump) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
