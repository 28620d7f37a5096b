"""Judge OpenSpiel's hearts under every combination of the variant values it can play.

For each combination of the eight parameters OpenSpiel shares with hearts-ref, a campaign
of differential games and negative checks; prints the combinations with findings, each
with its rule IDs and the replay command of its shrunk reproduction. Run from the
repository root (about a minute):

    python bench/openspiel_sweep.py [--games 200] [--seed 0]

The findings are written up in docs/openspiel-findings.md.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_ref.conformance.runner import run_differential   # noqa: E402
from hearts_ref.engines.openspiel import OpenSpielEngine   # noqa: E402
from hearts_ref.variants import Rules   # noqa: E402

CHOICES = {
    "pass_cards": (True, False),
    "first_trick_points": ("exception", "allowed"),
    "can_lead_any_club": (False, True),
    "jd_bonus": (False, True),
    "avoid_all_tricks_bonus": (False, True),
    "must_break_hearts": (True, False),
    "qs_breaks_hearts": (True, False),
    "can_lead_hearts_instead_of_qs": (False, True),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    rounds = 0
    findings: dict[tuple[str, ...], list[str]] = {}
    examples: dict[tuple[str, ...], str] = {}
    combos = list(itertools.product(*CHOICES.values()))
    for values in combos:
        changes = dict(zip(CHOICES, values))
        rules = Rules.preset("openspiel", **changes)
        report = run_differential(OpenSpielEngine, rules, args.games, args.seed, negative_games=args.games // 4,
                                  shrink_budget=2, max_shrinks=2, spec="openspiel")
        rounds += report.rounds
        label = ", ".join(f"{k}={v}" for k, v in rules.changes().items() if k in CHOICES) or "openspiel preset"
        for case in report.cases:
            if case.status == "failed":
                findings.setdefault(case.rule_ids, [])
                if label not in findings[case.rule_ids]:
                    findings[case.rule_ids].append(label)
                if "reproduction" in case.details:
                    examples.setdefault(case.rule_ids, case.details["reproduction"]["command"])
    seconds = time.perf_counter() - start
    print(f"{len(combos)} combinations, {rounds} rounds in {seconds:.0f} s")
    for rule_ids, labels in findings.items():
        print(f"\n{', '.join(rule_ids)}: in {len(labels)} of {len(combos)} combinations, e.g. {labels[0]}")
        common = set.intersection(*(set(label.split(", ")) for label in labels))
        print(f"  every one of them has: {', '.join(sorted(common)) or '(nothing in common)'}")
        print(f"  replay: {examples.get(rule_ids)}")
    if not findings:
        print("no deviation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
