"""The campaign's efficiency counted in machine instructions: a figure that the machine's load does not change.

``bench/campaign_efficiency.py`` times the engine alone, the reference alone and the judged
campaign; on a shared machine its rounds per second move with the load. This benchmark runs
the same three parts (in process, against OpenSpiel) under valgrind's callgrind and counts the
instructions each executes per round: each part runs twice, with ``--rounds`` rounds and with
none (start-up, imports and a few warm-up rounds in both), and the difference divided by the
rounds is its cost per round. The efficiency is then

    (instructions of the engine alone + of the reference alone) / instructions of the campaign

per round: what the two engines need played one after the other, over what the judged
campaign needs. Instructions are not seconds (a cache miss costs many), so the figure is
a load-free companion of the timed one, not a replacement. Needs ``valgrind`` on the PATH;
each part takes about 30 s. Run from the repository root:

    python bench/campaign_instructions.py                 # 200 rounds of each part
    python bench/campaign_instructions.py --rounds 400
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("openspiel", "reference", "campaign")
WARM_UP = 5   # rounds each part plays before it is counted (in both runs, so they cancel out)


def play(part: str, rounds: int) -> None:
    """Play ``part`` for the warm-up rounds, then ``rounds`` more (the process valgrind counts)."""
    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(ROOT))
    from campaign_efficiency import openspiel_alone, reference_alone

    from hearts_ref import Rules
    from hearts_ref.conformance.runner import run_differential
    from hearts_ref.engines.openspiel import OpenSpielEngine

    rules = Rules.preset("openspiel")
    if part == "campaign":
        engine = OpenSpielEngine()
        for count in (WARM_UP, rounds):
            if count:
                report = run_differential(engine, rules, count, 1, policies=("uniform",), shrink_budget=0)
                assert report.summary()["counts"]["failed"] == 0, "this benchmark needs a conforming engine"
        return
    alone = openspiel_alone if part == "openspiel" else reference_alone
    for count in (WARM_UP, rounds):
        if count:
            alone(rules, count, 1)


def instructions(part: str, rounds: int) -> int:
    """The instructions a process that plays ``part`` for ``rounds`` rounds (after the warm-up) executes."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--play", part, "--rounds", str(rounds)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"valgrind could not count {part}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds counted of each part (default 200)")
    parser.add_argument("--play", choices=PARTS, help=argparse.SUPPRESS)   # the process valgrind counts
    args = parser.parse_args()
    if args.play:
        play(args.play, args.rounds)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("this benchmark needs valgrind on the PATH (Debian: apt-get install valgrind)")
    runs = [(part, rounds) for part in PARTS for rounds in (0, args.rounds)]
    with ThreadPoolExecutor(max_workers=2) as pool:   # instruction counts do not depend on what runs beside
        counted = dict(zip(runs, pool.map(lambda run: instructions(*run), runs)))
    per_round = {part: (counted[part, args.rounds] - counted[part, 0]) / args.rounds for part in PARTS}
    allowed = per_round["openspiel"] + per_round["reference"]
    print(f"engine alone     {per_round['openspiel'] / 1e6:7.3f} M instructions per round  OpenSpiel (pyspiel)")
    print(f"reference alone  {per_round['reference'] / 1e6:7.3f} M instructions per round  hearts-ref RoundState")
    print(f"one after other  {allowed / 1e6:7.3f} M instructions per round")
    print(f"campaign         {per_round['campaign'] / 1e6:7.3f} M instructions per round  every step judged, "
          f"policy uniform, {args.rounds} rounds counted")
    print(f"efficiency       {allowed / per_round['campaign']:7.2f}  (by instructions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
