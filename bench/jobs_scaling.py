"""One job against several: the same campaign by ``run_campaign`` with ``--jobs 1`` and ``--jobs N``.

Runs each alternately (``--repeat`` times), prints the wall-clock seconds of each, the speed-up
(best of one job / best of N jobs), and checks that the reports, written without timings, are
the same bytes. The load average at the start is printed with them: on a machine other work
keeps busy, the speed-up shows the cores that were free, not the ones it has: "cores busy" (CPU
seconds of the campaign's processes per wall-clock second) says how many it got.

    python bench/jobs_scaling.py                         # OpenSpiel in process, 2 jobs
    python bench/jobs_scaling.py --engine reference --jobs 2 --games 400
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_ref.conformance.campaign import Campaign, run_campaign  # noqa: E402
from hearts_ref.variants import Rules  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="openspiel", help="an engine SPEC (default openspiel)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.preset("openspiel") if args.engine == "openspiel" else Rules(max_rounds=1)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    times: dict[int, list[float]] = {1: [], args.jobs: []}
    busy: dict[int, list[float]] = {1: [], args.jobs: []}
    texts: dict[int, str] = {}
    for _ in range(args.repeat):
        for jobs in times:
            campaign = Campaign(args.engine, rules, games=args.games, seed=args.seed, vectors=False,
                                shrink_budget=0, jobs=jobs)
            start, cpu = time.perf_counter(), _cpu()
            report = run_campaign(campaign)
            times[jobs].append(time.perf_counter() - start)
            busy[jobs].append((_cpu() - cpu) / times[jobs][-1])
            texts[jobs] = report.dumps(timings=False)
    for jobs, seconds in times.items():
        print(f"{jobs} job{'s' if jobs > 1 else ' '}  " + "  ".join(f"{s:6.2f} s" for s in seconds)
              + "   cores busy: " + " ".join(f"{b:.2f}" for b in busy[jobs]))
    print(f"speed-up {min(times[1]) / min(times[args.jobs]):.2f}x with {args.jobs} jobs "
          f"({args.games} games, {args.engine}); reports the same bytes: {texts[1] == texts[args.jobs]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
