"""``hearts-ref conform``: judge an engine against the reference, with a report by rule ID.

    hearts-ref conform --engine openspiel --preset openspiel --games 500 --report report.json
    hearts-ref conform --engine python:mypkg.engine:MyEngine --junit results.xml
    hearts-ref conform --engine SPEC --replay hr1:…            (replay one shrunk finding)
    hearts-ref conform --merge shard1.json shard2.json --report all.json
    hearts-ref conform --engine SPEC --jobs 2                   (the campaign in two processes)

Exit codes: 0 no unexpected failure, 1 an unexpected failure (or a replayed deviation),
2 bad input, an engine that could not be started (the --report and --junit files still say so),
or an engine that could not be judged at all (every case skipped). Stopped by SIGINT, SIGTERM
or SIGHUP, it writes the --report and --junit files of what it judged so far, marked
incomplete, and exits with 128 + the signal's number.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from hearts_ref.commands import add_engine_timeouts, add_rules_arguments, rules_from_args
from hearts_ref.console import ProgressDisplay, is_terminal, printable, show
from hearts_ref.errors import HeartsError, RecordError

__all__ = ["configure", "run", "parse_shard"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", metavar="SPEC",
                        help="the engine: 'reference' (hearts-ref itself), 'openspiel', 'python:module:attr', or a "
                             "command line (stdio protocol)")
    add_rules_arguments(parser)
    parser.add_argument("--games", type=int, default=100, metavar="N", help="differential games (default 100)")
    parser.add_argument("--negative-games", type=int, default=None, metavar="N",
                        help="games with negative checks (default: a quarter of --games, at least 1; "
                             "none with --games 0)")
    parser.add_argument("--seed", type=int, default=0, help="campaign seed: the same seed, the same games (default 0)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="T",
                        help="stop starting games after T seconds (the rest are reported as skipped)")
    parser.add_argument("--shard", default="1/1", metavar="K/N", help="run the K-th of N shards of the campaign")
    parser.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                        help="run the campaign (or its --shard) in N worker processes, merged into one report "
                             "(default 1)")
    parser.add_argument("--shrink-time", type=float, default=None, metavar="S",
                        help="seconds to shrink each distinct finding (default 10, or none with --shrink-replays; "
                             "0: no shrinking)")
    parser.add_argument("--shrink-replays", type=_count, default=None, metavar="N",
                        help="games each shrink may replay: a budget that shrinks the same way on any machine and "
                             "any load (with --shrink-time too, whichever runs out first)")
    parser.add_argument("--stop-at-first", action="store_true",
                        help="end each game at its first difference (quicker; by default games play on to find "
                             "every deviation)")
    parser.add_argument("--no-vectors", action="store_true", help="skip the conformance vectors and perft")
    parser.add_argument("--report", metavar="FILE.json", help="write the JSON report (spec/report.schema.json)")
    parser.add_argument("--junit", metavar="FILE.xml", help="write JUnit XML")
    parser.add_argument("--replay", metavar="CASE", help="replay one case: a case JSON file or an 'hr1:' token")
    parser.add_argument("--merge", nargs="+", metavar="FILE.json", help="merge the reports of shards")
    add_engine_timeouts(parser)
    parser.add_argument("--abandon-after", type=_count, default=3, metavar="K",
                        help="give up on an engine program that failed the same way (a timeout, a crash, a "
                             "protocol error) in K games in a row: the cases left are reported abandoned "
                             "(default 3; 0: never)")
    parser.add_argument("--no-timings", dest="timings", action="store_false",
                        help="write every duration as 0 in --report, --junit and --json, and no reply times: "
                             "the same campaign then gives the same bytes, whatever --jobs, unless a shrink runs out "
                             "of --shrink-time (where the clock stops it differs run to run: use --shrink-replays)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--json", action="store_true",
                        help="print the JSON report (spec/report.schema.json) instead of the summary")


def _shrink_budget(args: argparse.Namespace) -> Any:
    """How far each shrink may go: --shrink-time seconds (10 by default), or --shrink-replays games replayed."""
    from hearts_ref.conformance.shrink import Budget

    if args.shrink_replays is None:
        return 10.0 if args.shrink_time is None else args.shrink_time
    return Budget(seconds=args.shrink_time, replays=args.shrink_replays)


def _count(text: str) -> int:
    """Parse a whole number >= 0 (an argparse ``type``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _jobs(text: str) -> int:
    """Parse ``--jobs``: a whole number from 1 to 256."""
    value = _count(text)
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError(f"must be from 1 to 256, got {value}")
    return value


def parse_shard(text: str) -> tuple[int, int]:
    """Return ``(k, n)`` from ``K/N`` with 1 <= K <= N; RecordError otherwise."""
    k, sep, n = text.partition("/")
    try:
        shard = (int(k), int(n))
    except ValueError:
        shard = (0, 0)
    if not sep or not 1 <= shard[0] <= shard[1]:
        raise RecordError(f"{text!r} is not K/N with 1 <= K <= N", where="--shard")
    return shard


def run(args: argparse.Namespace) -> int:
    from hearts_ref.conformance.report import junit_xml, load_report, merge_reports
    from hearts_ref.conformance.summary import console_summary

    _check_outputs(args)
    if args.merge:
        given = [option for option, value in (("--engine", args.engine), ("--replay", args.replay)) if value]
        if given:   # a merge plays nothing: an engine named with it would be judged by nobody
            print(f"hearts-ref conform: error: --merge joins reports and plays nothing: drop {' and '.join(given)}",
                  file=sys.stderr)
            return 2
        report = merge_reports([load_report(path) for path in args.merge])
        _summary(args, report)
        _write(args, report, junit_xml)
        return report.exit_code()
    if not args.engine:
        print("hearts-ref conform: error: --engine SPEC is required (or --merge FILE...)", file=sys.stderr)
        return 2
    for name in ("games", "negative_games", "shrink_time"):
        if getattr(args, name) is not None and not getattr(args, name) >= 0:
            print(f"hearts-ref conform: error: --{name.replace('_', '-')} must be >= 0", file=sys.stderr)
            return 2
    if args.time_limit is not None and not args.time_limit > 0:
        print("hearts-ref conform: error: --time-limit must be more than 0 seconds", file=sys.stderr)
        return 2
    from hearts_ref.conformance.campaign import Campaign, run_campaign

    campaign = Campaign(args.engine, rules_from_args(args), games=args.games, seed=args.seed,
                        negative_games=args.negative_games, vectors=not args.no_vectors,
                        shard=parse_shard(args.shard), time_limit=args.time_limit, shrink_budget=_shrink_budget(args),
                        timeout=args.timeout, startup_timeout=args.startup_timeout,
                        abandon_after=args.abandon_after, jobs=args.jobs, stop_at_first=args.stop_at_first)
    try:
        engine = campaign.load_engine()
    except HeartsError as error:     # exit 2; with --report or --junit, a report that says so for CI
        if not args.replay:
            _report_start_failure(args, campaign.rules, campaign.shard, error, junit_xml)
        raise
    partial: list[Any] = []          # the report as it fills: what a signal leaves to write
    began = time.monotonic()
    try:
        if args.replay:
            return _replay(engine, args)
        with ProgressDisplay("conform", quiet=args.quiet, unit="games") as display:
            report = run_campaign(campaign, engine=engine, started=partial.append,
                                  progress=lambda done, total, failed: display(done, total, f"games, {failed} failed"))
    except BaseException as stop:
        if partial and _stopping(stop):
            partial[-1].seconds = partial[-1].seconds or time.monotonic() - began
            _write_partial(args, partial[-1], stop, console_summary, junit_xml)
        raise
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()
    _summary(args, report)   # first: a failed write loses nothing
    _write(args, report, junit_xml)
    return report.exit_code()


def _stopping(stop: BaseException) -> str | None:
    """The name of the signal that stopped the run (SIGINT, or SIGTERM/SIGHUP as the command line raises them)."""
    if isinstance(stop, KeyboardInterrupt):
        return "SIGINT"
    signum = getattr(stop, "signum", None)
    return signal.Signals(signum).name if isinstance(signum, int) else None


def _write_partial(args: argparse.Namespace, report: Any, stop: BaseException, console_summary: Any,
                   junit_xml: Any) -> None:
    """Mark the report of a stopped run incomplete and print and write it; a write error is said, not raised."""
    report.incomplete = {"reason": f"stopped by {_stopping(stop)} after {len(report.cases)} cases"}
    try:
        _summary(args, report)
        _write(args, report, junit_xml)
    except RecordError as failed:
        print(f"hearts-ref conform: error: {failed}", file=sys.stderr)
    except OSError:
        pass


def _report_start_failure(args: argparse.Namespace, rules: Any, shard: tuple[int, int], error: HeartsError,
                          junit_xml: Any) -> None:
    """Write (and with ``--json`` print) the report of a run whose engine could not be started.

    Each game the run would have played is an error with the reason, so a pipeline that only
    reads the files sees the failure; ``engine.error`` holds the verdict, the message and
    the engine's last words on stderr. Exit code 2 stays the caller's.
    """
    if not (args.json or _outputs(args)):
        return
    from hearts_ref.conformance.report import NOT_STARTED, Case, Report
    from hearts_ref.conformance.runner import negative_games_for, planned_games

    verdict = getattr(error, "verdict", "not-started")
    message = getattr(error, "summary", str(error))
    reason = f"{NOT_STARTED}: {verdict}: {message}"
    negatives = negative_games_for(args.games, args.negative_games)
    engine = {"spec": args.engine, "name": "?", "version": "",
              "error": {"verdict": verdict, "message": message, "stderr_tail": getattr(error, "stderr_tail", "")}}
    report = Report(engine, rules.to_dict(), args.seed, args.games, negatives, [list(shard)])
    for step in ([] if args.no_vectors else ["vectors", "perft"]) + ["differential", "negative"]:
        report.steps[step] = {"status": "skipped", "reason": reason}
    from hearts_ref.conformance.targeted import targeted_every

    for kind, _, _, case_id in planned_games(args.games, negatives, shard, every=targeted_every(rules)):
        report.add(Case(case_id, kind, "error", (), reason))
    if args.json:
        _print(report.dumps())
    try:
        _write(args, report, junit_xml)
    except RecordError as failed:    # the start failure stays the error to exit with; say this one first
        print(f"hearts-ref conform: error: {failed}", file=sys.stderr)


def _outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files to write: ``(option, path)`` for ``--report`` and ``--junit`` when given."""
    return [(option, path) for option, path in (("--report", args.report), ("--junit", args.junit)) if path]


def _check_outputs(args: argparse.Namespace) -> None:
    """Raise RecordError, before anything runs, for an output file that could not be written."""
    outputs = _outputs(args)
    if len(outputs) == 2 and os.path.realpath(outputs[0][1]) == os.path.realpath(outputs[1][1]):
        raise RecordError("--report and --junit name the same file", where=outputs[0][1])
    for option, path in outputs:
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            problem = "is a folder, not a file"
        elif not os.path.isdir(folder):
            problem = f"no such folder {folder}" if not os.path.exists(folder) else f"{folder} is not a folder"
        elif os.path.exists(path) and not os.access(path, os.W_OK):
            problem = "the file is not writable"
        elif not os.path.exists(path) and not os.access(folder, os.W_OK | os.X_OK):
            problem = f"the folder {folder} is not writable"
        else:
            continue
        raise RecordError(f"cannot write the {option} file: {problem}", where=path)


def _write(args: argparse.Namespace, report: Any, junit_xml: Any) -> None:
    """Write the ``--report`` and ``--junit`` files; RecordError names the first that could not be written.

    A lone surrogate (an engine's message can carry one) is written as its JSON escape ``\\udXXX``.
    """
    failed: RecordError | None = None
    timings = getattr(args, "timings", True)
    for option, path in _outputs(args):
        text = report.dumps(timings=timings) if option == "--report" else junit_xml(report, timings=timings)
        try:
            with open(path, "w", encoding="utf-8", errors="backslashreplace") as handle:
                handle.write(text)
        except OSError as error:
            failed = failed or RecordError(f"cannot write the {option} file ({error.strerror})", where=path)
    if failed is not None:
        raise failed


def _summary(args: argparse.Namespace, report: Any) -> None:
    """Print the report: JSON with ``--json``, else the summary (drawn on a terminal, plain text otherwise)."""
    from hearts_ref.conformance.summary import console_summary, summary_renderables

    if args.json:
        _print(report.dumps(timings=args.timings))
    elif is_terminal(sys.stdout):
        show(*summary_renderables(report))
    else:
        _print(console_summary(report))


def _print(text: str) -> None:
    """Print ``text`` on stdout; characters its encoding cannot carry are written as escapes."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))


def _replay(engine: Any, args: argparse.Namespace) -> int:
    """Replay one reproduction case and print what happens: 1 if the engine still deviates."""
    from hearts_ref.conformance.runner import replay_case
    from hearts_ref.conformance.script import decode_case
    from hearts_ref.conformance.shrink import transcript

    # a token, or a file: a case written by the runner, or one case of a JSON report
    case = decode_case(args.replay if args.replay.strip().startswith("hr1:") else Path(args.replay))
    rules, game = replay_case(engine, case)
    target = case.get("finding")
    deviation = game.finding(tuple(target)) if target is not None else game.deviation
    missed = target is not None and deviation is None and game.deviation is not None
    if missed:   # the finding the case plays on to did not show, but the game differs all the same
        deviation = game.deviation
    if deviation is None:
        # past the case's choices (they end at its finding) every choice is the lowest option, to the game's end
        print(f"no deviation: the engine agrees with the reference at every step of the case's game, "
              f"played to its end ({game.steps} steps)"
              + (f" ({len(game.findings)} other finding(s) on the way)" if game.findings else ""))
        return 0
    for number, played in enumerate(transcript(game.reference)[:deviation.round or None], 1):
        cycle = rules.pass_direction(number)
        print(f"round {number}, pass {played['direction']}" + ("" if played["direction"] == cycle else
              f" (the runner's choice, to keep the game small; PASS-CYCLE would pass {cycle})"))
        for seat, hand in enumerate(played["hands"]):
            passed = played["passes"].get(str(seat))
            print(f"  seat {seat}: {hand}" + (f"   passes {passed}" if passed else ""))
        if played["plays"]:
            print("  plays: " + " ".join(played["plays"]))
        if "totals" in played:   # a finished round: what the end of the game and the winners are read from
            print(f"  scores: {' '.join(map(str, played['scores']))}; totals: {' '.join(map(str, played['totals']))}")
    if missed:
        print(printable(f"(the case plays on to the finding {' '.join(target)}, which did not show; "
                        f"the game's first difference is shown instead)"))
    elif deviation is not game.deviation:
        print(f"(played on past {len(game.findings) - 1} earlier finding(s): "
              + "; ".join(", ".join(f.rule_ids) or f.kind for f in game.findings if f is not deviation) + ")")
    where = ", ".join(f"{key} {value}" for key, value in deviation.where.items())
    rule_ids = ", ".join(deviation.rule_ids)
    if deviation.is_error:   # no rule broken: the engine failed, at a step of these rules
        message, *stderr = deviation.message.split("\n")
        print(printable(f"engine failure at step {deviation.step} ({where})"
                        + (f", at a step of {rule_ids}" if rule_ids else "") + f": {message}"))
        for line in stderr:   # the engine's stderr, its last lines
            print(f"    {printable(line)}")
        return 1
    print(printable(f"deviation at step {deviation.step} ({where}): {rule_ids or deviation.kind}"))
    print(f"  {printable(deviation.message)}")
    return 1
