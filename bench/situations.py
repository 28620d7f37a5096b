"""Situations in campaigns of 100 games: how often each is reached, what the targeted games cost, what they catch.

Three parts, each comparing the campaign without its targeted games (the six random
policies alone, as before they existed) and with them (every 4th game targeted, every 2nd
in games of one round), in the same run:

- ``--counts``: each situation's count in a campaign of 100 games for every seed, with the
  targeted games (and the lowest count without them);
- ``--speed``: judged rounds per CPU second of the campaign on the reference engine in process
  (no negative checks, no shrinking), each variant run in turn on the same seeds, the best and
  the median of ``--repeat`` (CPU time: the machine's load slows a run less than it does the clock);
- ``--planted``: for planted bugs of the rare situations (a tie given one winner, the end at
  more than the threshold, the first-trick exception forgotten), the games played until the
  first detection, in campaign order.

Run from the repository root:

    python bench/situations.py --counts --preset seed000 --set players=6 --seeds 5
    python bench/situations.py --speed --repeat 3
    python bench/situations.py --planted --seeds 5
    python bench/situations.py --counts --dealing     # an engine that deals for itself: its deals steered

With ``--dealing`` the engine judged deals for itself (the reference shuffling its own hands,
``tests/engines/planted_turns.py``): the targeted games steer its deals through the passes and
plays alone, and the situations that need a constructed deal are marked "untargeted".
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_ref.conformance.policies import POLICY_NAMES, RANDOM_POLICIES   # noqa: E402
from hearts_ref.conformance.runner import run_differential   # noqa: E402
from hearts_ref.conformance.situations import situation_rows   # noqa: E402
from hearts_ref.engine import ReferenceEngine   # noqa: E402
from hearts_ref.variants import Rules, parse_setting   # noqa: E402
from tests.engines import planted, buggy   # noqa: E402
from tests.engines.planted_turns import ShufflingReference   # noqa: E402

ENGINE: type = ReferenceEngine     # the engine --counts and --speed judge (--dealing: ShufflingReference)

VARIANTS = {"random only": RANDOM_POLICIES, "with targeted": POLICY_NAMES}
PLANTED = {"OneWinner (WIN-TIE)": planted.OneWinner, "StrictThreshold (END-THRESHOLD)": buggy.StrictThreshold,
           "NoOnlyPointsException (FIRST-EXCEPTION)": planted.NoOnlyPointsException}


def counts(rules: Rules, seeds: int, games: int) -> None:
    rows: dict[str, list[int]] = {}
    lowest_random: dict[str, int] = {}
    untargeted: dict[str, str] = {}
    for seed in range(seeds):
        for label, policies in VARIANTS.items():
            report = run_differential(ENGINE, rules, games, seed, policies=policies, shrink_budget=0)
            untargeted.update(report.untargeted)
            for row in situation_rows(report.situations, report.coverage):
                if label == "with targeted":
                    rows.setdefault(str(row["name"]), []).append(int(row["count"]))
                else:
                    lowest_random[str(row["name"])] = min(lowest_random.get(str(row["name"]), 1 << 30), int(row["count"]))
    print(f"{'situation':<32} " + " ".join(f"seed {s:<3}" for s in range(seeds)) + "  lowest without targeted games")
    for name, values in rows.items():
        print(f"{name:<32} " + " ".join(f"{v:<8}" for v in values) + f"  {lowest_random.get(name, 0)}"
              + ("  untargeted" if name in untargeted else ""))


def speed(rules: Rules, games: int, repeat: int) -> None:
    """Judged rounds per CPU second of each variant, run in turn on the same seeds: best and median of ``repeat``."""
    rates: dict[str, list[float]] = {label: [] for label in VARIANTS}
    for attempt in range(repeat):
        for label, policies in VARIANTS.items():
            start = time.process_time()
            report = run_differential(ENGINE, rules, games, attempt, policies=policies, shrink_budget=0)
            rates[label].append(report.rounds / (time.process_time() - start))
    for label, values in rates.items():
        print(f"{label:<14} best {max(values):6.0f}  median {statistics.median(values):6.0f} judged rounds per "
              "CPU second")
    print(f"ratio          best {max(rates['with targeted']) / max(rates['random only']):6.2f}  median "
          f"{statistics.median(rates['with targeted']) / statistics.median(rates['random only']):6.2f}")


def detections(rules: Rules, seeds: int, games: int) -> None:
    print(f"{'planted bug':<42} " + "  ".join(f"{label:<22}" for label in VARIANTS))
    for name, engine in PLANTED.items():
        cells = []
        for policies in VARIANTS.values():
            firsts = []
            for seed in range(seeds):
                report = run_differential(engine, rules, games, seed, policies=policies, shrink_budget=0,
                                          stop_at_first=True)
                failed = [int(c.id.rsplit("/", 1)[1]) for c in report.cases if c.status == "failed"]
                firsts.append(str(min(failed) + 1) if failed else f">{games}")
            cells.append(" ".join(firsts))
        print(f"{name:<42} " + "  ".join(f"{cell:<22}" for cell in cells), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--planted", action="store_true")
    parser.add_argument("--preset", default="seed000")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dealing", action="store_true", help="judge an engine that deals for itself")
    args = parser.parse_args()
    global ENGINE
    ENGINE = ShufflingReference if args.dealing else ReferenceEngine
    rules = Rules.preset(args.preset, **dict(parse_setting(text) for text in args.set))
    print(f"rules {args.preset} {' '.join(args.set)}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} CPUs")
    if args.counts:
        counts(rules, args.seeds, args.games)
    if args.speed:
        speed(rules, args.games, args.repeat)
    if args.planted:
        detections(rules, args.seeds, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
