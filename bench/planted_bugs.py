"""Every planted bug of ``tests/engines/planted.py`` through the default campaign: found? named? how small? how soon?

For each planted single-rule bug (one per rule ID of spec/rules/, and a few more), runs what
``hearts-ref conform`` runs by default (the vectors, the perft counts, 100 differential games
and 25 with negative checks, each finding shrunk for up to ``--shrink-time`` seconds), each
bug in a process of its own, and prints one row: whether the bug was found, the first rule
named, any other rule named, the games played until the first game that shows a finding,
the size of the first game finding's reproduction (rounds, cards played), and the time from
starting the process to the first finding (start-up included: the interpreter, the imports,
the engine; and the CPU time the process had used by then, which a busy machine
changes less). Then the median and the worst reproduction and the median time to the first
finding. Run from the repository root:

    python bench/planted_bugs.py [--shrink-time 10] [--only AceLow,ShiftedCycle]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _one(name: str, shrink_time: float) -> dict:
    """Run the campaign on one planted bug (in this process); return what the row needs."""
    from hearts_ref.conformance.report import FAILING
    from hearts_ref.conformance.runner import run_conformance
    from hearts_ref.variants import Rules
    from tests.engines import planted

    first_at: list[float] = []

    def started(report) -> None:
        add = report.add

        def noted(case) -> None:
            add(case)
            if case.status in FAILING and not first_at:
                first_at.extend((time.time(), time.process_time()))
        report.add = noted

    report = run_conformance(getattr(planted, name), Rules(), shrink_budget=shrink_time, spec=name, started=started)
    findings = [f for f in report.summary()["findings"] if not f["expected"]]
    games = [c for c in report.cases if c.kind in ("differential", "negative")]
    shown = next((i for i, c in enumerate(games) if c.status in FAILING), None)
    game = next((f for f in findings if f["case"].split("/")[0] in ("differential", "negative")), None)
    return {"findings": findings, "first_at": first_at[0] if first_at else None,
            "first_cpu": first_at[1] if first_at else None,
            "games_until": None if shown is None else shown + 1,
            "size": _size(report, game) if game else None, "game_rule": game["rule_id"] if game else None,
            "flaky": sum(1 for c in report.cases if c.status == "flaky")}


def _size(report, finding: dict) -> dict | None:
    """The size of a game finding's reproduction: its rounds and plays, and whether it is the first difference."""
    case = next(c for c in report.cases if c.id == finding["case"])
    for entry in case.details.get("findings", []) + [case.details.get("error") or {}]:
        if (entry.get("kind"), (entry.get("rule_ids") or [""])[0]) == (finding["kind"], finding["rule_id"]):
            repro = entry.get("reproduction") or {}
            return {"rounds": repro.get("rounds"), "plays": repro.get("plays"),
                    "first": repro.get("first_difference", True)} if repro else None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shrink-time", type=float, default=10.0)
    parser.add_argument("--only", default="", help="comma-separated engine class names")
    parser.add_argument("--one", default="", help=argparse.SUPPRESS)   # the child process: one bug, as JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one, args.shrink_time)))
        return 0
    from tests.engines.planted import MORE_PLANTED, PLANTED

    only = set(filter(None, args.only.split(",")))
    rows = [(engine.__name__, rule) for engine, rule in list(PLANTED.items()) + list(MORE_PLANTED.items())
            if not only or engine.__name__ in only]
    right = found = 0
    sizes, times, cpu = [], [], []
    print(f"{'engine':<24} {'rule':<18} {'found':<5} {'first named':<18} {'others named':<24} {'games':>5} "
          f"{'game finding reproduced':<36} {'first (s)':>9} {'total (s)':>9}")
    for name, rule in rows:
        began = time.time()
        child = subprocess.run([sys.executable, __file__, "--one", name, "--shrink-time", str(args.shrink_time)],
                               capture_output=True, text=True, cwd=ROOT)
        total = time.time() - began
        if child.returncode:
            print(f"{name:<24} failed to run: {child.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(child.stdout)
        findings = row["findings"]
        first = findings[0]["rule_id"] if findings else "-"
        others = sorted({f["rule_id"] for f in findings} - {rule})
        found += bool(findings)
        right += first == rule
        size = row["size"]
        shown = "-"
        if size:
            sizes.append((size["rounds"], size["plays"]))
            shown = f"{row['game_rule']}: {size['rounds']} round(s), {size['plays']} plays" + \
                ("" if size["first"] else ", not first")
        to_first = row["first_at"] - began if row["first_at"] else None
        if to_first is not None:
            times.append(to_first)
            cpu.append(row["first_cpu"])
        print(f"{name:<24} {rule:<18} {'yes' if findings else 'NO':<5} {first:<18} {', '.join(others) or '-':<24} "
              f"{row['games_until'] or '-':>5} {shown:<36} {to_first if to_first is None else round(to_first, 2):>9} "
              f"{total:>9.1f}" + (f"  FLAKY: {row['flaky']}" if row["flaky"] else ""), flush=True)
    print(f"found {found} of {len(rows)}; first rule named right for {right} of {len(rows)}")
    if sizes:
        by_size = sorted(sizes)
        print(f"reproductions of a game finding ({len(sizes)}): median {statistics.median(r for r, _ in sizes):g} "
              f"round(s), {statistics.median(p for _, p in sizes):g} plays; worst {by_size[-1][0]} round(s), "
              f"{max(p for _, p in sizes)} plays")
    if times:
        print(f"time to the first finding, start-up included: median {statistics.median(times):.2f} s, "
              f"worst {max(times):.2f} s (the process's CPU time by then: median {statistics.median(cpu):.2f} s, "
              f"worst {max(cpu):.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
