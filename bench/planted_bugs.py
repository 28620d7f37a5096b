"""Every planted bug of ``tests/engines/planted.py`` through the default campaign: found? named? how small?

For each planted single-rule bug (one per rule ID of spec/rules/, and a few more), runs what
``hearts-ref conform`` runs by default (the vectors, the perft counts, 100 differential games
and 25 with negative checks, each finding shrunk for up to ``--shrink-time`` seconds) and
prints one row: whether the bug was found, the first rule named, any other rule named, and
the size of the first finding's reproduction (rounds, cards played; "vector" or "perft" when
that finding is a vector or a perft deal, which carry no shrunk game). Run from the
repository root:

    python bench/planted_bugs.py [--shrink-time 10] [--only AceLow,ShiftedCycle]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_ref.conformance.runner import run_conformance   # noqa: E402
from hearts_ref.variants import Rules   # noqa: E402
from tests.engines.planted import MORE_PLANTED, PLANTED   # noqa: E402


def _reproduction(report, finding: dict) -> str:
    """The size of a finding's reproduction: rounds and plays of its shrunk game, or what it is."""
    case = next(c for c in report.cases if c.id == finding["case"])
    if case.kind in ("vector", "perft"):
        return case.kind
    for entry in case.details.get("findings", []) + [case.details.get("error") or {}]:
        if (entry.get("kind"), (entry.get("rule_ids") or [""])[0]) == (finding["kind"], finding["rule_id"]):
            repro = entry.get("reproduction") or {}
            first = "" if repro.get("first_difference", True) else ", not first"
            return f"{repro.get('rounds')} round(s), {repro.get('plays')} plays{first}" if repro else "not shrunk"
    return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shrink-time", type=float, default=10.0)
    parser.add_argument("--only", default="", help="comma-separated engine class names")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    rows = [(engine, rule) for engine, rule in list(PLANTED.items()) + list(MORE_PLANTED.items())
            if not only or engine.__name__ in only]
    right = found = 0
    print(f"{'engine':<24} {'rule':<18} {'found':<5} {'first named':<18} {'others named':<28} "
          f"{'first finding reproduced':<28} {'first game finding reproduced':<30} seconds")
    for engine, rule in rows:
        start = time.monotonic()
        report = run_conformance(engine, Rules(), shrink_budget=args.shrink_time, spec=engine.__name__)
        findings = [f for f in report.summary()["findings"] if not f["expected"]]
        first = findings[0]["rule_id"] if findings else "-"
        others = sorted({f["rule_id"] for f in findings} - {rule})
        game = next((f for f in findings if f["case"].split("/")[0] in ("differential", "negative")), None)
        found += bool(findings)
        right += first == rule
        print(f"{engine.__name__:<24} {rule:<18} {'yes' if findings else 'NO':<5} {first:<18} "
              f"{', '.join(others) or '-':<28} {_reproduction(report, findings[0]) if findings else '-':<28} "
              f"{(game['rule_id'] + ': ' + _reproduction(report, game)) if game else '-':<30} "
              f"{time.monotonic() - start:.0f}", flush=True)
    print(f"found {found} of {len(rows)}; first rule named right for {right} of {len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
