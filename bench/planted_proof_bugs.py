"""Every rule bug of ``tests/planted_rules.py`` planted in the engine, one at a time: does a proof catch it?

For each bug, proves the invariants that must catch it through the prover's API (what
``hearts-ref prove`` runs for those invariants, real z3) with the bug planted, and prints one
row: caught or not, the invariants that caught it (wrong outcome and a counterexample), the
first counterexample's first line, and the seconds taken; then the score, bugs caught /
planted. ``--all-invariants`` proves every invariant of the catalogue for each bug instead
(slower: which other proofs also see it). Run from the repository root:

    python bench/planted_proof_bugs.py [--all-invariants] [--only "FOLLOW-SUIT removed,the moon worth 25"]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_ref.console import Table, show   # noqa: E402
from properties.catalogue import INVARIANTS   # noqa: E402
from tests.planted_rules import BUGS, caught_by, planted, prove_bug   # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all-invariants", action="store_true", help="prove every invariant for each bug")
    parser.add_argument("--only", default="", help="comma-separated bug names")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    bugs = [bug for bug in BUGS if not only or bug.name in only]
    everything = tuple(i.id for i in INVARIANTS)
    table = Table("bug", "rules", "caught", "caught by", "first counterexample", "seconds")
    caught = 0
    for bug in bugs:
        start = time.perf_counter()
        with planted(bug) as returned:
            real = bug.real(returned)
            results = prove_bug(bug, everything if args.all_invariants else None)
        names = caught_by(results)
        caught += bool(names)
        first = next((r for r in results if r.invariant in names), None)
        example = (first.counterexamples[0].text().splitlines()[0] if first and first.counterexamples
                   else (first.witness or {}).get("summary", "") if first else "")
        table.add_row(bug.name + ("" if real else " (changes nothing!)"), ",".join(bug.settings) or "seed000",
                      "yes" if names else "NO", ", ".join(names) or "-", example[:90],
                      f"{time.perf_counter() - start:.1f}")
    show(table)
    print(f"score: {caught} / {len(bugs)} planted bugs caught by a proof with a counterexample")
    return 0 if caught == len(bugs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
