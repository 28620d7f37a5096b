"""Throughput of in-process differential checking against OpenSpiel's hearts.

Every step of every round compares the engine's whole observation and, before each play,
its legal set with the reference's. Run from the repository root:

    python bench/differential_openspiel.py                 # 3000 rounds, one process
    python bench/differential_openspiel.py --workers 2     # the campaign split over two processes
    python bench/differential_openspiel.py --profile       # where the time goes

The figure is rounds per second (OpenSpiel plays one round per game).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_ref.conformance.policies import POLICY_NAMES   # noqa: E402
from hearts_ref.conformance.report import merge_reports   # noqa: E402
from hearts_ref.conformance.runner import run_differential   # noqa: E402
from hearts_ref.engines.openspiel import OpenSpielEngine   # noqa: E402
from hearts_ref.variants import Rules   # noqa: E402


def campaign(games: int, seed: int, shard: tuple[int, int], policies: tuple[str, ...]):
    return run_differential(OpenSpielEngine, Rules.preset("openspiel"), games, seed, shard=shard,
                            policies=policies, spec="openspiel")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--policies", default="uniform", help="comma-separated, or 'all' (default uniform)")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    policies = POLICY_NAMES if args.policies == "all" else tuple(args.policies.split(","))
    campaign(50, args.seed, (1, 1), policies)   # warm up: load pyspiel and the game
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        campaign(args.games, args.seed, (1, 1), policies)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    start, cpu = time.perf_counter(), time.process_time()
    if args.workers == 1:
        report = campaign(args.games, args.seed, (1, 1), policies)
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            parts = [pool.submit(campaign, args.games, args.seed, (k, args.workers), policies)
                     for k in range(1, args.workers + 1)]
            report = merge_reports([part.result() for part in parts])
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    counts = report.summary()["counts"]
    per_cpu = f", {report.rounds / cpu:,.0f} rounds per CPU second" if args.workers == 1 else ""
    print(f"{report.rounds} rounds in {seconds:.2f} s: {report.rounds / seconds:,.0f} rounds/s{per_cpu} "
          f"({args.workers} process{'es' if args.workers > 1 else ''}, policies {','.join(policies)}); "
          f"{counts['passed']} passed, {counts['failed']} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
