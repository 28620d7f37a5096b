"""``hearts-ref vectors``: generate the conformance vectors, or run them on an engine.

``generate [--out DIR] [--perft-out DIR]`` writes the suite (``spec/vectors/``) and the perft
files (``spec/perft/``) from the reference, byte for byte the same on every run.
``export --out PATH`` writes the suite as a versioned package (``hearts_ref.vectors.export``) to a
folder, or to a zip file when PATH ends in ``.zip``.
``run [--engine SPEC] [PATH ...]`` runs every case and accounts for each: passed, failed
(first failing step, rule IDs, expected and actual), error (the engine failed), skipped (with
the reason), expected-fail or unexpected-pass. Exit 0 when nothing failed, 1 when a case failed,
erred or was not accounted for, 2 for bad input (a file that does not read, an engine SPEC that names no engine, a ``--case``
that no case ID contains).
"""

from __future__ import annotations

import argparse
import difflib
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

from hearts_ref.commands import add_engine_timeouts, engine_timeouts
from hearts_ref.console import ProgressDisplay, printable
from hearts_ref.engines.load import SPEC_HELP, opened_engine
from hearts_ref.errors import HeartsError
from hearts_ref.vectors.generate import write_perft, write_suite
from hearts_ref.vectors.model import SUITE_VERSION
from hearts_ref.vectors.reader import load_vectors
from hearts_ref.conformance.vectors import CaseResult, run_vectors, summarize, unaccounted

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    # not required here: the command line names an unrecognized option before it asks for a missing ACTION
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    generate = sub.add_parser("generate", help="write the vectors and perft files from the reference",
                              description="Write the vector suite and the perft files from the reference.")
    generate.add_argument("--out", type=Path, default=None, metavar="DIR",
                          help="folder of the vector files (default spec/vectors/)")
    generate.add_argument("--perft-out", type=Path, default=None, metavar="DIR",
                          help="folder of the perft files (default spec/perft/)")
    generate.add_argument("--quiet", action="store_true", help="print nothing")
    export = sub.add_parser("export", help="write the suite as a versioned package: a folder or a zip",
                            description="Write the vectors, the perft files, the schemas, a version file and "
                                        "checksums (SHA256SUMS) to a folder, or to a zip file.")
    export.add_argument("--out", type=Path, required=True, metavar="PATH",
                        help="a folder (empty, or an earlier export), or a file name ending in .zip")
    runner = sub.add_parser("run", help="run the vectors on an engine",
                            description="Run the vectors on an engine; every case is accounted for.")
    runner.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="vector files or folders (default: the suite in spec/vectors/)")
    runner.add_argument("--engine", default="reference", metavar="SPEC",
                        help=f"the engine to run the vectors on (default reference): {SPEC_HELP}")
    runner.add_argument("--case", action="append", default=[], metavar="TEXT",
                        help="run only cases whose ID contains TEXT (repeatable)")
    add_engine_timeouts(runner)
    runner.add_argument("--verbose", action="store_true", help="print every case, passed ones too")
    runner.add_argument("--json", action="store_true", help="print the results as JSON")
    runner.add_argument("--validate-schema", action="store_true",
                        help="also check the files against spec/vectors.schema.json (slower)")
    runner.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> int:
    if args.action is None:
        raise HeartsError("give an ACTION: generate or run (see hearts-ref vectors --help)")
    if args.action == "generate":
        say = (lambda text: None) if args.quiet else print
        write_suite(args.out, progress=say)
        write_perft(args.perft_out, progress=say)
        return 0
    if args.action == "export":
        from hearts_ref.vectors.export import export_suite
        files = export_suite(args.out)
        print(f"{args.out}: suite {SUITE_VERSION}, {len(files)} files (checksums in SHA256SUMS)")
        return 0
    return _run(args)


def _line(result: CaseResult) -> str:
    detail = result.failure.text() if result.failure else result.reason
    return printable(f"{result.status:<15} {result.case_id}" + (f": {detail}" if detail else ""))


def _case_shown(case: Any, result: CaseResult) -> list[str]:
    """What a failed case sent, to read beside its failure when it is run alone: its description and file, and the
    round that failed, its deal by seat and its steps up to the failing one."""
    lines = [f"  case: {case.description}"]
    if result.file:
        path = Path(result.file)
        lines.append(f"  from: {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    number = result.failure.round if result.failure is not None else 1
    if not 1 <= number <= len(case.rounds):
        return lines
    played = case.rounds[number - 1]
    lines.append(f"  round {number} (dealer {played.dealer}, pass {played.direction}), dealt:")
    lines += [f"    seat {seat}: {hand} ({len(hand)} cards)" for seat, hand in enumerate(played.hands)]
    last = result.failure.step if result.failure is not None and result.failure.step is not None else -1
    for index, step in enumerate(played.steps[:last + 1]):
        refused = f" (to be refused: {step.rejected_by})" if step.rejected_by is not None else ""
        lines.append(f"    step {index + 1}: {step.text()}{refused}" + ("   <-- the failure" if index == last else ""))
    return [printable(line) for line in lines]


def _check_case_texts(texts: list[str], ids: list[str]) -> None:
    """Raise :class:`HeartsError` for a ``--case`` TEXT that no case ID contains, with the IDs closest to it."""
    for text in texts:
        if any(text in case_id for case_id in ids):
            continue
        words = sorted({part for case_id in ids for part in case_id.split(".")} | set(ids))
        close = difflib.get_close_matches(text.lower(), words, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else \
            (f"; case IDs look like {ids[0]!r}" if ids else "")
        raise HeartsError(f"--case {text!r}: no case named or containing it among the {len(ids)} cases{hint}")


def _run(args: argparse.Namespace) -> int:
    cases = []
    for path in args.paths or [None]:
        cases += load_vectors(path, validate_schema=args.validate_schema)
    if args.case:
        _check_case_texts(args.case, [c.id for c in cases])
        cases = [c for c in cases if any(text in c.id for text in args.case)]
    with opened_engine(args.engine, **engine_timeouts(args)) as engine, ProgressDisplay("vectors", quiet=args.quiet, unit="cases") as shown:
        start = time.perf_counter()
        done = itertools.count(1)
        results = run_vectors(engine, cases, progress=lambda result: shown(next(done), len(cases), result.case_id))
        elapsed = time.perf_counter() - start
    missing = unaccounted(cases, results)
    counts = summarize(results)
    if args.json:
        print(json.dumps({"suite": SUITE_VERSION, "engine": getattr(engine, "name", args.engine),
                          "summary": counts, "unaccounted": missing, "seconds": round(elapsed, 3),
                          "results": [r.to_dict() for r in results]}, indent=1, ensure_ascii=False))
    else:
        by_id = {case.id: case for case in cases}
        for result in results:
            if args.verbose or result.status != "passed":
                print(_line(result))
            if len(cases) == 1 and result.status in ("failed", "error") and result.case_id in by_id:
                print("\n".join(_case_shown(by_id[result.case_id], result)))   # a case replayed alone
        for case_id in missing:
            print(f"unaccounted     {case_id}")
        steps = sum(c.steps for c in cases)
        print(f"{counts['total']} cases ({steps} steps, suite {SUITE_VERSION}) on "
              f"{getattr(engine, 'name', args.engine)}: " + ", ".join(
                  f"{counts[s]} {s}" for s in ("passed", "failed", "error", "skipped", "expected-fail", "unexpected-pass"))
              + f"; {elapsed:.2f} s")
    if missing:
        print(f"hearts-ref vectors: {len(missing)} case(s) not accounted for", file=sys.stderr)
    return 1 if counts["failed"] or counts["error"] or missing else 0
