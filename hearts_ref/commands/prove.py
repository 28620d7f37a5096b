"""``hearts-ref prove``: prove or refute the invariant catalogue with Z3, for presets and variant combinations.

Usage::

    hearts-ref prove [--preset NAME ... | --all] [--set NAME=VALUE ...] [--deep] [--json] [--timeout S] [--jobs N]

Without ``--preset`` every preset is proved. ``--set`` proves a house rule instead: one preset
(``seed000`` unless ``--preset`` names another) with variant values changed, labelled with
the preset and the settings (``seed000 + hearts_broken_by=any-heart (= seed004)``, naming the
preset these rules equal, if any), ending with a ``SOUND`` or ``UNSOUND`` line. Every run proves,
for each preset, the invariants of the catalogue (``properties.catalogue``): the per-context
proofs, the refinement proofs that the engine computes exactly the formal statements of the
rules (``properties.statements``: legal plays, rejections, scores, trick winner, hearts
breaking, the pass, the steps of a play, the setup, the totals and the end of the game), and
GAME-ENDS (a bound on the rounds, or a game that never ends, replayed on the engine). Every
claim's hypotheses are first checked satisfiable (a vacuous proof fails). ``--all`` adds every
variant combination of the registry (the round invariants per context, the game-level ones per
game combination). ``--deep`` adds the inductive proof over the engine's own transition
(``RoundState.play`` on symbolic cards) for each preset. The inductive proofs and the
combinations run in ``--jobs`` processes (default: one per core), each preset's proof and
each invariant's combinations for one number of players in a process of its own, forked
from the same state: the report is the same whatever ``--jobs`` is. Progress goes to stderr: a bar with
the count, the rate and the time left on a terminal, otherwise a plain line
``prove: DONE/TOTAL what`` at most every two seconds (none with ``--quiet``). The report goes
to stdout: a table of
invariant × preset with each outcome and its time, then the counterexamples (each with
the deal and plays that reach it on the engine), or with ``--json`` the same content:

.. code-block:: text

    {
      "version": 1,
      "presets": ["seed000", ...],          # the presets proved, in order
      "deep": false, "timeout": 60.0,       # the options
      "seconds": 2.7,                       # wall time of the whole run
      "all_expected": true,                 # every outcome as the rules lead us to expect (a house rule expected
                                            # unsound and refuted is as expected: whether it is sound is "verdict")
      "invariants": [                       # the catalogue (properties.catalogue.INVARIANTS)
        {"id": "LEGAL-MOVE-EXISTS", "statement": "...", "rule_ids": ["LEAD-OPEN", ...],
         "methods": ["context", "inductive", "engine"]}, ...],
      "results": [                          # one per invariant, preset and method
        {"invariant": "...", "statement": "...", "rule_ids": [...],
         "rules": "seed001",                # the preset, or with --set the house rule ("seed000 + jd_bonus=true")
         "changes": {"first_trick_points": "forbidden", ...},   # values that differ from the default
         "method": "context" | "game" | "inductive",
         "status": "proved" | "refuted" | "unconfirmed" | "vacuous" | "timed out" | "error" | "n/a",
         "expected": "proved" | "refuted" | "n/a", "matches": true,
         "seconds": 0.06, "queries": 13, "detail": "...",
         "shared_with": "seed000" | null,   # the preset whose identical proof this is
         "counterexamples": [               # one per refuted context, replayed ones first
           {"invariant": "...", "where": "following ♣ on the first trick, ...",
            "sets": {"hand": "QS 2H 3H ..."},
            "context": {"leading": false, "led_suit": "C", "first_trick": true, "hearts_broken": false},
            "hand": "QS 2H ...",
            "replay": {"round": 4, "dealer": 3,    # the round with no pass it is dealt in
                       "hands": ["2C 3C ...", ...], "plays": ["2C"], "stuck_seat": 1,
                       "finding": "..."} | null,       # finding: what the engine does there, if not stuck
            "notes": [...], "numbers": {"total of seat 0": 99, ...},
            "blocked_by": [{"rule": "FIRST-NO-POINTS", "cards": "QS 2H ..."}],   # what forbids each card of the hand
            "settings": ["first_trick_points = \\"forbidden\\""]}],                  # the values that set those rules
         "blocking": ["FIRST-NO-POINTS"],   # a refutation: the rules it goes through (GAME-ENDS: witness.rules)
         "argument": ["every game ends within N = 16 rounds, whatever is played", ...],   # GAME-ENDS proved
         "witness": null | {"summary": "...", "confirmed": true, "kind": "below" | "tie",  # GAME-ENDS refuted
                            "rules": ["SCORE-MOON", "END-THRESHOLD"],
                            "cycle": [{"direction": "left", "dealt": [...], "passes": [...], "plays": [...],
                                       "scores": [...], "trick_winners": [...]}, ...],
                            "totals": [[...], ...], "cycles": 3}}, ...],
      "combinations": null | {              # with --all
        "combinations": 20160, "parameters": ["players", ...],
        "game_combinations": 384, "game_parameters": ["players", "moon", ...],
        "invariants": {"LEGAL-MOVE-EXISTS": {"distinct": 384, "combinations": {"proved": 12288, "refuted": 7872},
                                             "all_expected": true, "unexpected": 0}, ...},
        "results": [{"invariant": "...", "values": "players=4,...", "status": "...", "expected": "...",
                     "seconds": 0.01, "counterexample": {...}}, ...],
        "unexpected": [...], "all_expected": true, "seconds": 28.1},
      "verdict": {"sound": false, "refuted": ["LEGAL-MOVE-EXISTS", ...], "not_settled": [],   # with --set only
                  "by": {"LEGAL-MOVE-EXISTS": ["FIRST-NO-POINTS"], ...}}   # the rules each refutation goes through
    }

``status`` ``refuted`` means a counterexample that was replayed on the engine (or, for
claims about scoring and tricks, a concrete value z3 found; for GAME-ENDS, a game replayed
for several cycles without end); ``unconfirmed`` means z3 refuted a context that no deal
reached in the bounded search (or no never-ending game was found); ``vacuous`` means a
claim whose hypotheses cannot hold.

With ``--set`` (a house rule) the report also holds the answer a designer asks for, ``verdict``:
``"sound"`` is true when every invariant is proved, and the exit code follows it (0 sound, 1 not);
``all_expected`` says only that each outcome is the one the rules predict, which for a house rule
expected unsound is a refutation.

Exit codes: 0 when every outcome is the expected one (seed001 and seed003 must be
refuted: ``hearts_ref.variants.EXPECTED_UNSOUND``; combinations by
``properties.catalogue.expected_outcome``), 1 when one is not, 2 for bad arguments. With
``--set``: 0 when the house rule is SOUND, 1 when it is UNSOUND or not settled (or an outcome
is not the expected one), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from hearts_ref.commands import positive_seconds, preset_name, process_count, rules_label
from hearts_ref.console import ProgressDisplay, show
from hearts_ref.variants import DEFAULT_PRESET, PRESETS, Rules, parse_settings

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--preset", action="append", type=preset_name, metavar="NAME",
                       help=f"prove this preset ({', '.join(PRESETS)}); repeatable; default: every preset")
    which.add_argument("--all", action="store_true",
                       help="every preset and every variant combination of the registry")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="prove a house rule: the preset (one --preset, default seed000) with this variant "
                             "value changed; repeatable (see 'hearts-ref rules --registry'); exit code 0 SOUND, "
                             "1 UNSOUND")
    parser.add_argument("--deep", action="store_true",
                        help="add the inductive proof over the whole transition relation (every reachable state)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON (its shape: the docs' command-line reference)")
    parser.add_argument("--timeout", type=positive_seconds, default=60.0, metavar="S",
                        help="seconds per z3 query before it counts as timed out (default 60)")
    parser.add_argument("--jobs", type=process_count, default=None, metavar="N",
                        help="processes for the inductive proofs and the variant combinations (default: one per "
                             "core); the report does not depend on it")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> int:
    progress = ProgressDisplay("prove", quiet=args.quiet, unit="proofs")
    try:
        return _prove(args, progress)
    finally:
        progress.close()


def _prove(args: argparse.Namespace, progress: ProgressDisplay) -> int:
    from properties.combinations import run_combinations
    from properties.prove import Session, run_catalogue

    start = time.perf_counter()
    if args.settings:   # a house rule: one set of rules, not the presets
        if args.all or (args.preset and len(args.preset) > 1):
            print("hearts-ref prove: error: --set changes one preset; give at most one --preset and no --all",
                  file=sys.stderr)
            return 2
        from properties.prove import run_rules

        overrides = parse_settings(args.settings)
        preset = args.preset[0] if args.preset else DEFAULT_PRESET
        rules = Rules.preset(preset, **overrides)
        results = run_rules(rules, label=rules_label(preset, overrides), deep=args.deep, timeout=args.timeout,
                            progress=progress)
        presets = [results[0].rules] if results else []
        progress.close()
        return _report(args, results, presets, None, time.perf_counter() - start, verdict=True)
    presets = args.preset or list(PRESETS)
    results = run_catalogue(presets, deep=args.deep, timeout=args.timeout, progress=progress, jobs=args.jobs)
    combinations = None
    if args.all:
        progress.close()
        with ProgressDisplay("prove --all", quiet=args.quiet, unit="proofs") as each:
            combinations = run_combinations(session=Session(timeout=args.timeout), progress=each, jobs=args.jobs)
    progress.close()
    return _report(args, results, presets, combinations, time.perf_counter() - start)


def house_verdict(refuted: list[str], open_: list[str], by: dict[str, str] | None = None) -> str:
    """The line a house rule's run ends on: SOUND, UNSOUND (what was refuted, and by which rules: ``by`` maps an
    invariant to them, in words), or NOT SETTLED.

    >>> house_verdict(["FIRST-TRICK-NO-DEADLOCK", "LEGAL-MOVE-EXISTS", "GAME-ENDS"], [],
    ...               {"FIRST-TRICK-NO-DEADLOCK": "FIRST-NO-POINTS", "LEGAL-MOVE-EXISTS": "FIRST-NO-POINTS",
    ...                "GAME-ENDS": "SCORE-MOON and END-THRESHOLD"})
    'UNSOUND: refuted FIRST-TRICK-NO-DEADLOCK, LEGAL-MOVE-EXISTS, by FIRST-NO-POINTS; GAME-ENDS, by SCORE-MOON and END-THRESHOLD. Each refutation above comes with the game that shows it.'
    >>> house_verdict([], ["POINTS-PER-ROUND"])
    'NOT SETTLED: POINTS-PER-ROUND neither proved nor refuted (a timeout: try a larger --timeout).'
    """
    if refuted:
        groups: dict[str, list[str]] = {}
        for invariant in refuted:
            groups.setdefault((by or {}).get(invariant, ""), []).append(invariant)
        said = "; ".join(", ".join(invariants) + (f", by {rules}" if rules else "") for rules, invariants in groups.items())
        return (f"UNSOUND: refuted {said}. Each refutation above comes with the game that shows it."
                + (f" Not settled: {', '.join(open_)}." if open_ else ""))
    if open_:
        return f"NOT SETTLED: {', '.join(open_)} neither proved nor refuted (a timeout: try a larger --timeout)."
    return "SOUND: every invariant proved."


def _blocking(results: list) -> dict[str, tuple[str, ...]]:
    """Each refuted invariant's blocking rules (those of its first refutation: :attr:`ProofResult.blocking`)."""
    found: dict[str, tuple[str, ...]] = {}
    for result in results:
        if result.status == "refuted":
            found.setdefault(result.invariant, result.blocking)
    return found


def _blocking_words(results: list) -> dict[str, str]:
    """Each refuted invariant's blocking rules in words, with the variant values that set them: ``FIRST-NO-POINTS
    (first_trick_points = "forbidden")``."""
    from hearts_ref.variants import Rules
    from properties.counterexamples import variant_settings

    changes: dict[str, dict] = {}
    for result in results:   # (the rules of the refutation _blocking reads: the first)
        if result.status == "refuted":
            changes.setdefault(result.invariant, result.changes)
    words: dict[str, str] = {}
    for invariant, rules in _blocking(results).items():
        if not rules:
            continue
        settings = variant_settings(rules, Rules(**changes[invariant]))
        named = ", ".join(rules[:-1]) + " and " + rules[-1] if len(rules) > 1 else rules[0]
        words[invariant] = named + (f" ({', '.join(settings)})" if settings else "")
    return words


def _report(args: argparse.Namespace, results: list, presets: list[str], combinations: dict | None,
            seconds: float, *, verdict: bool = False) -> int:
    from rich.text import Text

    from properties.results import all_match, report_dict, report_renderables

    # the answer a designer of house rules asks for
    refuted = sorted({r.invariant for r in results if r.status == "refuted"})
    open_ = sorted({r.invariant for r in results if r.status not in ("proved", "refuted", "n/a")})
    if args.json:
        report = report_dict(results, presets=presets, deep=args.deep, timeout=args.timeout, seconds=seconds,
                             combinations=combinations)
        if verdict:
            report["verdict"] = {"sound": not refuted and not open_, "refuted": refuted, "not_settled": open_,
                                 "by": {i: list(rules) for i, rules in sorted(_blocking(results).items())}}
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        parts = report_renderables(results, combinations=combinations, verdict=verdict)
        if verdict:
            parts.append(Text(house_verdict(refuted, open_, _blocking_words(results)), style="bold green" if not refuted and not open_
                              else "bold red"))
        parts.append(Text(f"{seconds:.1f}s in all."))
        show(*parts)
    ok = all_match(results) and (combinations is None or combinations["all_expected"])
    if verdict:   # a house rule: the exit code is the verdict
        ok = ok and not refuted and not open_
    return 0 if ok else 1
