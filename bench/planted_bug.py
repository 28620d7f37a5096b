"""How long the runner takes to find a planted bug and shrink it to a minimal game.

The engine is the reference with the queen of spades breaking hearts where the rules say
it does not (``tests/engines/buggy.py``). Run from the repository root:

    python bench/planted_bug.py [--engine QueenBreaksHearts] [--seeds 5]

For each campaign seed (a dozen games of every policy): how many games fail, the seconds
the games took, the seconds to shrink the first failure, and the size of the shrunk game
(rounds, tricks, steps, choices that are not the lowest).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_ref.conformance.runner import run_differential   # noqa: E402
from hearts_ref.variants import Rules   # noqa: E402
from tests.engines import buggy   # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="QueenBreaksHearts", help="a class of tests/engines/buggy.py")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=10.0, help="shrinking budget in seconds")
    parser.add_argument("--games", type=int, default=12, help="games per campaign (all policies)")
    args = parser.parse_args()
    engine = getattr(buggy, args.engine)
    worst = 0.0
    for seed in range(args.seeds):
        start = time.perf_counter()
        report = run_differential(engine, Rules(), args.games, seed, shrink_budget=args.budget, max_shrinks=1)
        total = time.perf_counter() - start
        failed = [case for case in report.cases if case.status == "failed"]
        if not failed:
            print(f"seed {seed}: not found in {args.games} games")
            continue
        case = failed[0]
        repro = case.details["reproduction"]
        search = repro["search"]
        worst = max(worst, total)
        print(f"seed {seed}: {', '.join(case.rule_ids)} in {len(failed)} of {args.games} games "
              f"({total - search['seconds']:.2f} s), first shrunk in "
              f"{search['seconds']:.2f} s ({'finished' if search['finished'] else 'budget spent'}, "
              f"{search['examples']} games tried): {repro['rounds']} round, {repro['tricks']} tricks, "
              f"{repro['steps']} steps, {repro['nonzero_choices']} of {repro['choices']} choices not the lowest "
              f"(from {search['original_steps']} steps)")
    print(f"worst: {worst:.2f} s from the start to the shrunk reproduction")
    return 0


if __name__ == "__main__":
    sys.exit(main())
