"""``hearts-ref verify``: the main job. The fast proof tier, the vectors and perft counts, and a
differential run of the reference served over stdio against the reference in process, ending
with one verdict line.

Without ``--preset`` or ``--set`` the proofs cover every preset and the stdio games play the
default rules. With them, both use the rules chosen (the first line names them): the proofs
are those of ``hearts-ref prove --preset/--set``, and rules that can deadlock a round fail
the job, unless they are a preset known to deadlock (``hearts_ref.variants.EXPECTED_UNSOUND``).
The vectors and perft counts are fixed deals with their own rules. With ``--jobs`` 2 or more
(the default on a machine with several cores) the proofs run in a process of their own while
the other steps run; the outcome is the same.

Exit 0 when every step holds (every proof outcome as expected, every vector and perft count
passed, no deviation over stdio), 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from rich.text import Text

from hearts_ref.commands import add_rules_arguments, positive_seconds, process_count, rules_from_args, rules_label
from hearts_ref.console import ProgressDisplay, Table, indented, show
from hearts_ref.variants import DEFAULT_PRESET, EXPECTED_UNSOUND, Rules, parse_settings

__all__ = ["configure", "run", "STEPS"]


def configure(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser, preset_default=None)
    parser.add_argument("--games", type=int, default=24, metavar="N",
                        help="differential games over stdio (default 24: four per policy)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the differential games (default 1)")
    parser.add_argument("--timeout", type=positive_seconds, default=20.0, metavar="S",
                        help="seconds per z3 query before it counts as timed out (default 20)")
    parser.add_argument("--json", action="store_true", help="print the outcome of each step as JSON")
    parser.add_argument("--jobs", type=process_count, default=None, metavar="N",
                        help="with 2 or more (default: one per core), the proofs run in a process of their own while "
                             "the other steps run")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.epilog = ("without --preset or --set the proofs cover every preset; with them, the proofs and the stdio "
                     "games use the rules chosen, and unsound rules (a round that can deadlock, a game that may "
                     f"never end) fail, unless they are a preset known to deadlock: {', '.join(EXPECTED_UNSOUND)}. "
                     "exit codes: 0 every step holds, "
                     "1 one does not, 2 bad input")


def _chosen(args: argparse.Namespace) -> bool:
    """Whether the user chose the rules (``--preset`` or ``--set``)."""
    return args.preset is not None or bool(args.settings)


def _label(args: argparse.Namespace) -> str:
    """The rules of the run, as the reports name them."""
    if not _chosen(args):
        return f"every preset for the proofs, {DEFAULT_PRESET} for the stdio games"
    return rules_label(args.preset or DEFAULT_PRESET, parse_settings(args.settings))


def _proofs(rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    """The fast proof tier, for every preset or for the rules chosen: each outcome must match its expectation."""
    if _chosen(args):
        return _proofs_of(rules, args)
    from properties.prove import run_catalogue

    results = run_catalogue(None, deep=False, timeout=args.timeout, progress=args.progress)
    unexpected = [r for r in results if not r.matches]
    refuted = sum(1 for r in results if r.status == "refuted")
    return {"ok": not unexpected, "checked": len(results), "unexpected": len(unexpected),
            "summary": f"{len(results) - len(unexpected)}/{len(results)} proof outcomes as expected "
                       f"({refuted} refuted with a counterexample replayed on the engine)",
            "failures": [f"{r.invariant} under {r.rules}: {r.status}, expected {r.expected} {r.detail}"
                         for r in unexpected][:10]}


def _proofs_of(rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    """The fast proof tier for the rules chosen, as ``hearts-ref prove --preset/--set``; rules that can
    deadlock fail, unless they are a preset known to (then the deadlock must be found)."""
    from properties.prove import run_rules

    label = _label(args)
    results = run_rules(rules, label=label, deep=False, timeout=args.timeout, progress=args.progress)
    unexpected = [r for r in results if not r.matches]
    refuted = [r for r in results if r.status == "refuted"]
    known = next((name for name in EXPECTED_UNSOUND if Rules.preset(name) == rules), None)
    names = ", ".join(r.invariant for r in refuted)
    if not refuted:
        verdict = "SOUND" if not unexpected else "not settled"
    elif known:
        verdict = f"unsound as expected of {known} ({EXPECTED_UNSOUND[known]}), refuted {names}"
    else:
        through = list(dict.fromkeys(rule for r in refuted for rule in r.blocking))
        verdict = (f"UNSOUND, refuted {names}: {_what_breaks(r.invariant for r in refuted)}"
                   + (f", through {', '.join(through)}" if through else ""))
    failures = [f"{r.invariant} under {r.rules}: {r.status}, expected {r.expected} {r.detail}" for r in unexpected]
    if refuted and not known:   # the counterexample: where, and the hand with no legal play; or the endless game
        failures += ["; ".join(line.strip() for line in r.counterexamples[0].text().splitlines()[:2])
                     if r.counterexamples else f"{r.invariant}: {r.witness['summary']}"
                     for r in refuted if r.counterexamples or r.witness]
    # a preset's outcomes have expectations (seed001 and seed003 must deadlock); a house rule's verdict is its own
    if known or not args.settings:
        tally = f"{len(results) - len(unexpected)}/{len(results)} proof outcomes as expected"
    else:
        tally = f"{len(results)} proofs" + (f", {len(unexpected)} not settled" if unexpected and not refuted else "")
    return {"ok": not unexpected and (not refuted or known is not None), "checked": len(results),
            "unexpected": len(unexpected), "refuted": [r.invariant for r in refuted],
            "summary": f"{label}: {verdict} ({tally})", "failures": failures[:10]}


_BREAKS = {"GAME-ENDS": "a game may never end", "LEGAL-MOVE-EXISTS": "a round can deadlock",
           "FIRST-TRICK-NO-DEADLOCK": "a round can deadlock"}


def _what_breaks(invariants: Any) -> str:
    """What the refuted ``invariants`` mean for a game under the rules: ``a round can deadlock``, ``a game may never
    end`` … (each once, in the order refuted)."""
    return ", ".join(dict.fromkeys(_BREAKS.get(name, f"{name} does not hold") for name in invariants))


def _vectors(rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    """Every conformance vector, through the reference's engine interface."""
    from hearts_ref.engine import ReferenceEngine
    from hearts_ref.vectors import load_vectors, run_vectors, summarize, unaccounted

    cases = load_vectors()
    done = [0]

    def progress(result: Any) -> None:
        done[0] += 1
        args.progress(done[0], len(cases), result.case_id)

    results = run_vectors(ReferenceEngine(), cases, progress=progress)
    counts = summarize(results)
    missing = unaccounted(cases, results)
    failed = [r for r in results if r.status in ("failed", "unexpected-pass")]
    return {"ok": not failed and not missing, "checked": len(cases), "counts": counts,
            "summary": f"{counts.get('passed', 0)}/{len(cases)} vectors passed",
            "failures": [f"{r.case_id}: {r.failure.text() if r.failure else r.reason}" for r in failed][:10]
            + [f"{case}: not accounted for" for case in missing]}


def _perft(rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    """Every perft deal's counts, recomputed on the reference."""
    from hearts_ref.perft import load_perft, perft_counts, perft_names

    wrong = []
    names = perft_names()
    for done, name in enumerate(names, 1):
        deal = load_perft(name)
        counts = perft_counts(deal.start(), min(len(deal.counts), 6))
        args.progress(done, len(names), name)
        if tuple(counts) != tuple(deal.counts[:len(counts)]):
            wrong.append(f"{name}: expected {list(deal.counts[:len(counts)])}, counted {list(counts)}")
    return {"ok": not wrong, "checked": len(names), "summary": f"{len(names) - len(wrong)}/{len(names)} perft deals",
            "failures": wrong}


def _stdio(rules: Rules, args: argparse.Namespace) -> dict[str, Any]:
    """``hearts-ref serve`` in a subprocess against the reference in process, every observable at every step."""
    from hearts_ref.conformance.runner import run_differential
    from hearts_ref.engines.stdio import StdioEngine

    engine = StdioEngine([sys.executable, "-m", "hearts_ref", "serve"])
    try:
        negatives = max(1, args.games // 6)   # games that also offer illegal moves
        report = run_differential(engine, rules, args.games, args.seed, negative_games=negatives,
                                  spec="hearts-ref serve",
                                  progress=lambda done, total, failed: args.progress(done, total, f"{failed} failed"))
    finally:
        engine.close()
    failed = [c for c in report.cases if c.status == "failed"]
    return {"ok": report.exit_code() == 0, "checked": len(report.cases), "rounds": report.rounds,
            "summary": (f"{args.games + negatives} games ({args.games} differential, {negatives} negative; "
                        f"{report.rounds} rounds) over stdio, {len(failed)} deviations"),
            "failures": [f"{c.id}: {', '.join(c.rule_ids)}: {c.reason}" for c in failed][:10]}


STEPS: dict[str, Callable[[Rules, argparse.Namespace], dict[str, Any]]] = {
    "proofs": _proofs, "vectors": _vectors, "perft": _perft, "stdio": _stdio,
}


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("hearts-ref verify: error: --games must be at least 1", file=sys.stderr)
        return 2
    rules = rules_from_args(args)
    label = _label(args)
    if not args.json:
        show(Text(f"hearts-ref verify: rules: {label}"))
    start = time.monotonic()
    outcomes: dict[str, dict[str, Any]] = {}
    background = {}
    if (args.jobs or _cores()) > 1:   # the proofs, the longest step, beside the others (their progress is not shown)
        from properties.parallel import in_background
        background["proofs"] = in_background(_step, ("proofs", rules, argparse.Namespace(**{
            **vars(args), "progress": lambda *_: None})))
    for name in STEPS:
        if name not in background:
            with ProgressDisplay(f"verify {name}", quiet=args.quiet, unit=_UNITS[name]) as args.progress:
                outcomes[name] = _step((name, rules, args))
    for name, result in background.items():
        try:
            outcomes[name] = result()
        except Exception as error:   # its process failed: the last line of its traceback says why
            outcomes[name] = {"ok": False, "summary": f"could not run: {str(error).strip().splitlines()[-1]}",
                              "failures": [], "seconds": 0.0}
    outcomes = {name: outcomes[name] for name in STEPS}
    ok = all(o["ok"] for o in outcomes.values())
    seconds = time.monotonic() - start
    if args.json:
        print(json.dumps({"ok": ok, "seconds": round(seconds, 2),
                          "rules": {"label": label, "chosen": _chosen(args), "values": rules.to_dict()},
                          "steps": outcomes}, indent=2))
        return 0 if ok else 1
    table = Table("step", "outcome", "summary", "time")
    table.columns[3].justify = "right"
    for name, outcome in outcomes.items():
        table.add_row(name, Text("ok" if outcome["ok"] else "FAIL", style="green" if outcome["ok"] else "bold red"),
                      outcome["summary"], f"{outcome['seconds']:.1f} s")
    failures = [Text(f"  {name}: {failure}") for name, outcome in outcomes.items()
                for failure in outcome.get("failures", [])]
    verdict = "PASS" if ok else "FAIL"
    show(indented(table), *failures,
         Text(f"hearts-ref verify: {verdict}: " + "; ".join(o["summary"] for o in outcomes.values())
              + f" ({seconds:.1f} s)", style="bold green" if ok else "bold red"))
    return 0 if ok else 1


def _step(unit: tuple[str, Rules, argparse.Namespace]) -> dict[str, Any]:
    """The outcome of one step, with the seconds it took."""
    name, rules, args = unit
    began = time.monotonic()
    try:
        outcome = STEPS[name](rules, args)
    except Exception as error:   # a step that cannot run is a failed verification, said plainly
        outcome = {"ok": False, "summary": f"could not run: {type(error).__name__}: {error}", "failures": []}
    outcome["seconds"] = round(time.monotonic() - began, 2)
    return outcome


def _cores() -> int:
    from properties.parallel import default_jobs
    return default_jobs()


_UNITS = {"proofs": "proofs", "vectors": "cases", "perft": "deals", "stdio": "games"}
