"""Where the reference spends a random round: a cProfile of the benchmark loop, by function.

Run: ``python bench/profile_rounds.py [--rounds N]``. Prints each function's share of the
time (own time, not counting callees), so it shows what bounds rounds/s.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from rounds_vs_openspiel import reference_rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    args = parser.parse_args()
    profiler = cProfile.Profile()
    profiler.runcall(reference_rounds, args.rounds, 1)
    stats = pstats.Stats(profiler)
    total = sum(row[2] for row in stats.stats.values())
    rows = sorted(((row[2], row[1], func) for func, row in stats.stats.items()), reverse=True)[:12]
    print(f"{'own time':>9}  {'calls':>9}  function")
    for own, calls, (path, line, name) in rows:
        print(f"{100 * own / total:8.1f}%  {calls:9d}  {name} ({path.rsplit('/', 1)[-1]}:{line})")


if __name__ == "__main__":
    main()
