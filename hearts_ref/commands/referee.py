"""``hearts-ref referee RECORD.json ...``: check recorded games (spec/record.schema.json) against the rules.

For each file: ``valid``, or the first illegal step (rule ID, seat, card, the legal set and
the trick so far) and every wrong derived field (trick winner, points, scores, totals,
winners) with its rule ID. A game that ends in a deadlock (FIRST-NO-POINTS, the record's
``deadlock``) is valid once the referee has replayed it and found that seat without a legal play. Exit 0 when every file is valid, 1 when a record breaks a rule,
2 when a file is malformed (JSON line and column, or the schema path); the worst wins.
"""

from __future__ import annotations

import argparse
import json

from hearts_ref.referee import FileReport, exit_code, referee_file

__all__ = ["configure", "run", "report_text"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("records", nargs="+", metavar="RECORD.json",
                        help="game records to check (the format of 'hearts-ref play --json')")
    parser.add_argument("--json", action="store_true", help="print one JSON report for all files")
    parser.epilog = "exit codes: 0 all valid, 1 a record breaks a rule, 2 a file is malformed"


def report_text(report: FileReport) -> list[str]:
    """Return the lines that describe one file's outcome."""
    if report.status == "malformed":
        return [f"{report.path}: malformed: {report.error}"]
    verdict = report.verdict
    assert verdict is not None
    if verdict.valid:
        rounds = f"{verdict.rounds} round{'s' if verdict.rounds != 1 else ''}"
        if verdict.deadlock:   # FIRST-NO-POINTS: a game that stops there is valid, without winners
            return [f"{report.path}: valid ({rounds}, then the rules deadlock in {verdict.deadlock}; "
                    "the game ends without winners)"]
        return [f"{report.path}: valid ({rounds})"]
    return [f"{report.path}: {finding.text()}" for finding in verdict.findings]


def run(args: argparse.Namespace) -> int:
    reports = [referee_file(path) for path in args.records]
    if args.json:
        print(json.dumps([{"path": r.path, "status": r.status, "error": r.error,
                           "findings": [f.to_dict() for f in r.verdict.findings] if r.verdict else [],
                           "deadlock": r.verdict.deadlock if r.verdict else None}
                          for r in reports], indent=1, ensure_ascii=False))
    else:
        for report in reports:
            print("\n".join(report_text(report)))
    return exit_code(reports)
