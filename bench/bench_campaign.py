"""Starting the next expedition of a campaign after a long one (``new --after``).

Run from the repository root::

    python bench/bench_campaign.py                  # a predecessor of 100,000 events
    python bench/bench_campaign.py --events 10000   # quicker

The predecessor is generated once (the scripted game master of ``bench_core.py`` on
``delving``, every command decided for real) and ended. The bench times what ``delvetui
new NAME --after PRED`` does before it writes anything: ``application.campaign.next_plan``
reads the predecessor read-only, checks it as an import checks a file from outside (its
pages, every row, every event through the audit), takes its digest and carries the party.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_core

from delvetui.application.campaign import next_plan
from delvetui.session import Expedition


def main() -> None:
    """Generate (once) and time the plan of the next expedition."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    home = Path(tempfile.gettempdir()) / "delvetui-bench-campaign"
    home.mkdir(exist_ok=True)
    os.environ["DELVETUI_HOME"] = str(home)
    path = home / f"long-{args.events}.delve"
    if not path.exists():
        print(bench_core.generate(path, args.events, 1))
        with Expedition.open(path) as expedition:
            expedition.execute("end")
    times = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        plan = next_plan(path, "next", downtime="7d", seed=1)
        times.append(time.perf_counter() - start)
    print(f"next_plan over {args.events:,} events: {sorted(times)[len(times) // 2]:.2f} s")
    print(f"(party {len(plan.state.party)}, lights {len(plan.state.lights)})")


if __name__ == "__main__":
    main()
