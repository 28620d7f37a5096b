"""A differential game as a report case: its status, its findings, the deviations declared, the reproductions.

A game plays on past its differences, so one case can hold several findings. Each is
*expected* when the engine declared its rule broken (the first of its rule IDs) or the case
itself in ``known_deviations``, and only those: the case fails if any other finding shows,
is an *error* if the engine failed (a timeout, a crash, a broken reply) without an
undeclared finding, *expected-fail* if every finding was declared.

Each distinct finding of a campaign (its kind and its rule, not declared) gets one
reproduction, in the first case that shows it: a small game in which it is the first
difference (:func:`~hearts_ref.conformance.shrink.shrink_game`), with the one-line command
that replays it. The other cases point at that one (``same_finding_as``). Before it is
reported, each reproduction is replayed three times on a fresh engine: a finding that does not
fail the same way (the same finding at the same step) every time is *flaky*, with the step
at which each replay failed; a case whose findings are all flaky has the status ``flaky``.

>>> from hearts_ref.conformance.findings import GameRun
>>> game_case("differential/uniform/0", "differential", GameRun([], [], 53, 1), (), 0.1, {}).status
'passed'
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import Any

from hearts_ref.engine import Engine
from hearts_ref.engines.failures import reproducing, restart_engine
from hearts_ref.variants import Rules
from hearts_ref.conformance.findings import Deviation, GameRun
from hearts_ref.conformance.report import Case
from hearts_ref.conformance.script import CASE_FORMAT, encode_case
from hearts_ref.conformance.shrink import Budget, Shrunk, shrink_game, transcript
from hearts_ref.conformance.suite_steps import close_engine

__all__ = ["game_case", "declared", "reproduce", "reproduction", "replayed", "replay_command", "case_of", "REPLAYS"]

REPLAYS = 3   # times each reproduction is replayed, on a fresh engine, before it is reported


def declared(case_id: str, finding: Deviation, known: Sequence[str]) -> bool:
    """Whether the engine declared this finding: its case, or the rule it breaks (its first rule ID)."""
    return case_id in known or bool(finding.rule_ids) and finding.rule_ids[0] in known


def game_case(case_id: str, kind: str, run: GameRun, known: Sequence[str], seconds: float,
              details: dict[str, Any]) -> Case:
    """Return the report case of a game: its status from its findings, its failure and what was declared."""
    marked = [(finding, declared(case_id, finding, known)) for finding in run.findings]
    if run.findings:
        details["findings"] = [finding.to_dict() | {"expected": expected} for finding, expected in marked]
    if run.deviation is not None:
        details["deviation"] = run.deviation.to_dict()
    if run.error is not None:
        details["error"] = run.error.to_dict()
    rule_ids = tuple(dict.fromkeys(f.rule_ids[0] for f in run.findings if f.rule_ids))
    unexpected = [finding for finding, expected in marked if not expected]
    if unexpected:
        return Case(case_id, kind, "failed", rule_ids, unexpected[0].message or unexpected[0].kind, seconds, details)
    if run.error is not None:
        return Case(case_id, kind, "error", run.error.rule_ids, run.error.message, seconds, details)
    if marked:
        return Case(case_id, kind, "expected-fail", rule_ids, marked[0][0].message or marked[0][0].kind, seconds,
                    details)
    if run.unsupported:   # the engine declined (an ``unsupported`` reply): nothing was judged
        return Case(case_id, kind, "skipped", (), run.stopped, seconds, details)
    if case_id in known:
        return Case(case_id, kind, "unexpected-pass", (), "declared as a known deviation, but passed", seconds,
                    details)
    return Case(case_id, kind, "passed", tuple(sorted(run.checks)), "", seconds, details)


def _open_items(case: Case, run: GameRun) -> list[tuple[dict[str, Any], Deviation]]:
    """The case's undeclared findings, and its failure, each with its entry in the case's details."""
    items = [(entry, finding) for entry, finding in zip(case.details.get("findings", []), run.findings)
             if not entry["expected"]]
    if run.error is not None:
        items.append((case.details["error"], run.error))
    return items


def reproduce(engine: Engine, rules: Rules, games: list[tuple[Case, GameRun, bool]], *, budget: float | Budget,
              max_shrinks: int, spec: str, time_left: Callable[[], float] | None = None,
              fresh: Callable[[], Engine] | None = None, replays: int = REPLAYS, options: str = "") -> None:
    """Give each distinct finding of these failing games one reproduction, shrunk within ``budget`` (a
    :class:`~hearts_ref.conformance.shrink.Budget`, or seconds; at most ``max_shrinks`` of them, and within
    the time left); point the other cases at it.

    Each reproduction is then replayed ``replays`` times, each on a fresh engine (made by
    ``fresh``; without it ``engine``, restarted if it can be): a finding that does not fail
    the same way every time is *flaky*, and so is each case whose findings all are.
    """
    with reproducing(engine):   # an engine abandoned since is still asked: its findings are reproduced on it
        _reproduce(engine, rules, games, Budget.of(budget), max_shrinks, spec, time_left, fresh, replays, options)


def _reproduce(engine: Engine, rules: Rules, games: list[tuple[Case, GameRun, bool]], budget: Budget,
               max_shrinks: int, spec: str, time_left: Callable[[], float] | None, fresh: Callable[[], Engine] | None,
               replays: int, options: str = "") -> None:
    first: dict[tuple[str, str], str] = {}
    flaky: dict[tuple[str, str], bool] = {}
    for case, run, negative in games:
        case.details["replay"] = replay_command(spec, case_of(rules, list(run.script), negative), options)
        for entry, finding in _open_items(case, run):
            signature = finding.signature()
            if signature in first:
                entry["same_finding_as"] = first[signature]
                continue
            first[signature] = case.id
            allowed = budget if time_left is None else budget.within(time_left())
            if len(first) <= max_shrinks and not allowed.empty:
                shrunk = shrink_game(engine, rules, run, negative=negative, budget=allowed, target=signature)
                search = shrunk.to_dict()
            else:
                shrunk = Shrunk(tuple(run.script), run, 0, 0.0, False, first=run.deviation is finding)
                search = {"skipped": ("not shrunk: no shrink budget" if budget.empty
                                      else f"not shrunk: more than {max_shrinks} distinct findings"
                                      if len(first) > max_shrinks else "not shrunk: no time left")}
            search |= {"original_choices": len(run.script), "original_steps": run.steps}
            entry["reproduction"] = reproduction(rules, list(shrunk.script), shrunk.run, negative=negative, spec=spec,
                                                 options=options,
                                                 search=search, target=signature, first=shrunk.first)
            if replays:
                checked = replayed(engine, fresh, rules, entry["reproduction"], signature, times=replays)
                entry["reproduction"]["replays"] = checked
                flaky[signature] = not checked["same"]
        items = _open_items(case, run)
        shown = next((entry["reproduction"] for entry, _ in items if "reproduction" in entry), None)
        if shown is not None:
            case.details["reproduction"] = shown
        elif items:
            case.details["same_finding_as"] = items[0][0]["same_finding_as"]
        for entry, finding in items:
            if flaky.get(finding.signature()):
                entry["flaky"] = True
        if case.status == "failed" and items and all(flaky.get(f.signature()) for _, f in items if not f.is_error):
            case.status = "flaky"
            case.reason = f"flaky: {case.reason}"


def replayed(engine: Engine, fresh: Callable[[], Engine] | None, rules: Rules, reproduced: dict[str, Any],
             target: tuple[str, str], *, times: int = REPLAYS) -> dict[str, Any]:
    """Replay a reproduction ``times`` times, each on a fresh engine; return where each failed and whether each
    failed the same way: its finding ``target`` at the same step (first, when it is its game's first difference).

    >>> from hearts_ref.engine import ReferenceEngine
    >>> replayed(ReferenceEngine(), None, Rules(), {"case": case_of(Rules(), [], False), "steps": 5}, ("x", "y"),
    ...          times=2)["same"]
    False
    """
    from hearts_ref.conformance.runner import replay_case

    case = reproduced["case"]
    runs = []
    for _ in range(times):
        replaying, owned = (fresh(), True) if fresh is not None else (engine, False)
        if not owned:
            restart_engine(engine)
        try:
            _, run = replay_case(replaying, case)
        finally:
            if owned:
                close_engine(replaying)
        shown = run.finding(target) if "finding" in case else run.deviation
        runs.append({"step": shown.step if shown is not None else None,
                     "finding": list(shown.signature()) if shown is not None else None})
    same = all(r["finding"] == list(target) and r["step"] == reproduced["steps"] for r in runs)
    return {"times": times, "same": same, "finding": list(target), "runs": runs}


def reproduction(rules: Rules, script: list[int], run: GameRun, *, negative: bool, spec: str,
                 search: dict[str, Any] | None = None, target: tuple[str, str] | None = None,
                 first: bool = True, options: str = "") -> dict[str, Any]:
    """Return the reproduction of a finding: its size, the game so far, the replay token and command.

    ``first``: whether the finding is the game's first difference; if not, the case replays
    with play-on and names the finding it shows.
    """
    case = case_of(rules, script, negative, finding=target if not first else None)
    deviation = run.deviation if first or target is None else run.finding(target)
    rounds = transcript(run.reference)
    if deviation is not None and deviation.round:
        rounds = rounds[:deviation.round]
    plays = len(rounds[-1]["plays"]) if rounds else 0
    return {"rounds": len(rounds), "tricks": (plays + rules.players - 1) // rules.players if plays else 0,
            "plays": sum(len(r["plays"]) for r in rounds),
            "steps": deviation.step if deviation else run.steps, "choices": len(script),
            "nonzero_choices": sum(1 for v in script if v), "first_difference": first,
            "deviation": deviation.to_dict() if deviation else None, "game": rounds, "case": case,
            "token": encode_case(case), "command": replay_command(spec, case, options), "search": search or {}}


def case_of(rules: Rules, script: list[int], negative: bool, *, finding: tuple[str, str] | None = None) -> dict[str, Any]:
    """The replay case of a game: its rules, its mode and its script; with ``finding``, a game that plays on
    to that finding (it is not the first difference)."""
    case: dict[str, Any] = {"format": CASE_FORMAT, "version": 1, "rules": rules.changes(),
                            "mode": "negative" if negative else "differential", "script": script}
    if finding is not None:
        case["finding"] = list(finding)
    return case


def replay_command(spec: str, case: dict[str, Any], options: str = "") -> str:
    """The one line that replays ``case`` on the engine ``spec``, with the engine ``options`` of the run (its
    ``--timeout``, say: a replay waits for the engine as the run did).

    >>> replay_command("./engine", {"format": "x"}, "--timeout 1").split(" --replay ")[0]
    'hearts-ref conform --engine ./engine --timeout 1'
    """
    return f"hearts-ref conform --engine {shlex.quote(spec)}{' ' + options if options else ''} --replay {encode_case(case)}"
