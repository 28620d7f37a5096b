"""The conformance runner: vectors, differential games and negative checks, into one report.

:func:`run_conformance` is what ``hearts-ref conform`` runs; :func:`run_differential` is
the differential part alone (``hearts-ref verify`` calls it). Both are deterministic from
``seed``: game ``i`` of a campaign always uses the same policy, deal and choices, so
``shard=(k, n)`` runs the games ``i`` with ``i % n == k - 1`` and the shards' reports merge
(:func:`~hearts_ref.conformance.report.merge_reports`) into the report of the whole run.

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.variants import Rules
>>> report = run_differential(ReferenceEngine, Rules(max_rounds=1), games=6, seed=1)
>>> report.summary()["counts"]["passed"], report.exit_code()
(6, 0)
"""

from __future__ import annotations

import random
import shlex
import time
from collections.abc import Callable, Sequence
from typing import Any

from hearts_ref.engine import Capabilities, Engine, EngineRejection
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported, abandoned, failure_text, restart_engine
from hearts_ref.variants import Rules
from hearts_ref.conformance.coverage import game_coverage
from hearts_ref.conformance.differential import GameRun
from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.negative import NegativeChecks
from hearts_ref.conformance.policies import POLICY_NAMES, PolicyDecider, make_policy
from hearts_ref.conformance.report import Case, Report
from hearts_ref.conformance.script import CASE_FORMAT, encode_case
from hearts_ref.conformance.shrink import replay_script, shrink_game, transcript

__all__ = ["run_conformance", "run_differential", "replay_case", "load_engine", "EngineFactory", "Progress",
           "shard_runs", "engine_setup_problem", "engine_capabilities", "planned_games",
           "negative_games_for", "reproduction"]

EngineFactory = Callable[[], Engine]
Progress = Callable[[int, int, int], None]   # (cases done, cases planned, failed so far)

# A differential game stops (judged up to there, not failed) after this many rounds: under a
# huge end_threshold a game would otherwise never end. A game to 100 takes about 10 rounds.
GAME_ROUND_LIMIT = 200


def _make(factory: EngineFactory | Engine) -> tuple[Engine, bool]:
    """Return the engine, and whether the runner made it (and so closes it when done)."""
    if isinstance(factory, Engine) and not isinstance(factory, type):
        return factory, False
    return factory(), True


def shard_runs(index: int, shard: tuple[int, int]) -> bool:
    """Whether shard ``(k, n)`` runs the case numbered ``index`` (cases are dealt round-robin)."""
    k, n = shard
    return index % n == k - 1


def negative_games_for(games: int, negative_games: int | None) -> int:
    """The games with negative checks: as asked, or by default a quarter of the differential games (at least 1)."""
    return max(1, games // 4) if negative_games is None else negative_games


def planned_games(games: int, negative_games: int, shard: tuple[int, int],
                  policies: Sequence[str] = POLICY_NAMES) -> list[tuple[str, int, str, str]]:
    """The games shard ``shard`` plays: ``(kind, index, policy, case ID)``; game ``i`` uses policy ``i mod 6``."""
    planned = [("differential", i) for i in range(games) if shard_runs(i, shard)]
    planned += [("negative", i) for i in range(negative_games) if shard_runs(i, shard)]
    return [(kind, i, policies[i % len(policies)], f"{kind}/{policies[i % len(policies)]}/{i}")
            for kind, i in planned]


def engine_setup_problem(capabilities: Capabilities, rules: Rules) -> str | None:
    """Return why the engine cannot be judged under ``rules`` (a sentence), or None when it can."""
    reason = capabilities.cannot_play(rules)
    if reason is not None:
        return reason
    if not capabilities.multi_round and rules.max_rounds != 1:
        return (f"engine plays one round per game (multi_round=false) but the rules play "
                f"{'until a total reaches ' + str(rules.end_threshold) if not rules.max_rounds else str(rules.max_rounds) + ' rounds'}; "
                "set max_rounds=1 (as the openspiel preset does)")
    return None


def engine_capabilities(engine: Engine) -> tuple[Capabilities, str | None]:
    """Return the engine's capabilities, and why they could not be read (None when they could).

    An engine whose ``capabilities()`` fails, or returns something else than
    :class:`~hearts_ref.engine.Capabilities`, is judged with the defaults and the problem is reported.
    """
    try:
        capabilities = engine.capabilities()
    except ENGINE_ERRORS as error:
        return Capabilities(), f"capabilities() failed: {failure_text(error)}"
    if not isinstance(capabilities, Capabilities):
        return Capabilities(), (f"capabilities() returned {type(capabilities).__name__}, "
                                "not hearts_ref.engine.Capabilities")
    return capabilities, None


def _engine_info(engine: Engine, spec: str, capabilities: Capabilities) -> dict[str, Any]:
    return {"spec": spec, "name": str(getattr(engine, "name", type(engine).__name__)),
            "version": str(getattr(engine, "version", "")), "capabilities": capabilities.to_dict()}


def _known(case: Case, known: Sequence[str]) -> bool:
    return case.id in known or any(rule in known for rule in case.rule_ids)


def run_differential(engine_factory: EngineFactory | Engine, rules: Rules, games: int, seed: int, *,
                     negative_games: int = 0, policies: Sequence[str] = POLICY_NAMES,
                     shard: tuple[int, int] = (1, 1), time_limit: float | None = None,
                     shrink_budget: float = 10.0, max_shrinks: int = 10, spec: str = "SPEC",
                     progress: Progress | None = None, report: Report | None = None,
                     clock: Callable[[], float] = time.monotonic) -> Report:
    """Play ``games`` differential games (and ``negative_games`` with negative checks); return the report.

    ``engine_factory`` makes the engine (a class or a function), or is the engine itself.
    Each deviation found is shrunk (``shrink_budget`` seconds each, at most ``max_shrinks``
    distinct findings) into a minimal game with a replay command that names ``spec``.
    """
    start = clock()
    engine, owned = _make(engine_factory)
    capabilities, setup_problem = engine_capabilities(engine)
    if setup_problem is None:
        setup_problem = engine_setup_problem(capabilities, rules)
    known = list(capabilities.known_deviations)
    if report is None:
        report = Report(_engine_info(engine, spec, capabilities), rules.to_dict(), seed, games, negative_games,
                        [list(shard)], known_deviations=known)
    vary = not capabilities.multi_round
    planned = planned_games(games, negative_games, shard, policies)
    for name, count in (("differential", games), ("negative", negative_games)):
        report.steps[name] = ({"status": "skipped", "reason": setup_problem} if setup_problem and count
                              else {"status": "ran", "games": count})
        if not setup_problem and count and not capabilities.passing and rules.pass_cards:
            report.steps[name]["note"] = "the engine does not pass cards: every round is dealt with direction none"
    failures: list[tuple[Case, GameRun, bool]] = []
    for done, (kind, i, policy, case_id) in enumerate(planned):
        if setup_problem:
            report.add(Case(case_id, kind, "skipped", reason=setup_problem))
            continue
        if time_limit is not None and clock() - start > time_limit:
            report.add(Case(case_id, kind, "skipped", reason=f"time limit of {time_limit:g} s reached"))
            continue
        if abandoned(engine):   # the engine failed the same way game after game: not asked again
            report.add(Case(case_id, kind, "abandoned", reason=abandoned(engine)))
            continue
        began = clock()
        rng = random.Random(f"hearts-ref-conform:{seed}:{kind}:{i}")
        negative = NegativeChecks() if kind == "negative" else None
        run = run_game(engine, rules, PolicyDecider(make_policy(policy, rng), any_direction=vary,
                                                    passing=capabilities.passing), negative=negative,
                       max_rounds=GAME_ROUND_LIMIT, clock=clock,
                       deadline=None if time_limit is None else start + time_limit)
        report.rounds += run.rounds
        if run.game is not None:
            report.add_coverage(game_coverage(run.game))
        if negative is not None:
            report.add_checks(negative.counts)
        details: dict[str, Any] = {"policy": policy, "index": i, "rounds": run.rounds, "steps": run.steps}
        if run.stopped:
            details["stopped"] = run.stopped
        if run.unsupported:   # the engine declined (an ``unsupported`` reply): nothing was judged
            case = Case(case_id, kind, "skipped", (), run.stopped, clock() - began, details)
        elif run.deviation is None:
            case = Case(case_id, kind, "passed", tuple(sorted(negative.counts)) if negative else (), "",
                        clock() - began, details)
            if case.id in known:
                case.status, case.reason = "unexpected-pass", "declared as a known deviation, but passed"
        else:
            deviation = run.deviation
            details["deviation"] = deviation.to_dict()
            case = Case(case_id, kind, "failed", deviation.rule_ids, deviation.message or deviation.kind,
                        clock() - began, details)
            if _known(case, known):
                case.status = "expected-fail"
            else:
                failures.append((case, run, negative is not None))
        report.add(case)
        if progress is not None:
            progress(done + 1, len(planned), sum(1 for c, _, _ in failures))
    deadline = None if time_limit is None else start + time_limit
    _reproduce(engine, rules, failures, budget=shrink_budget, max_shrinks=max_shrinks, spec=spec,
               time_left=(lambda: deadline - clock()) if deadline is not None else None)
    if owned:
        _close(engine)
    report.seconds += clock() - start
    return report


def _reproduce(engine: Engine, rules: Rules, failures: list[tuple[Case, GameRun, bool]], *,
               budget: float, max_shrinks: int, spec: str, time_left: Callable[[], float] | None = None) -> None:
    """Shrink the first failing game of each distinct finding (within the time limit, if any);
    point the other failing games at it."""
    first: dict[tuple[str, str], str] = {}
    for case, run, negative in failures:
        case.details["replay"] = _command(spec, _case(rules, list(run.script), negative))
        signature = run.deviation.signature()
        if signature in first:
            case.details["same_finding_as"] = first[signature]
            continue
        first[signature] = case.id
        allowed = budget if time_left is None else min(budget, time_left())
        if len(first) <= max_shrinks and allowed > 0:
            shrunk = shrink_game(engine, rules, run, negative=negative, budget=allowed)
            script, final, search = list(shrunk.script), shrunk.run, shrunk.to_dict()
        else:
            script, final, search = list(run.script), run, {"skipped": "not shrunk: too many findings, or no "
                                                                        "time left"}
        search["original_choices"] = len(run.script)
        search["original_steps"] = run.steps
        case.details["reproduction"] = reproduction(rules, script, final, negative=negative, spec=spec,
                                                    search=search)


def reproduction(rules: Rules, script: list[int], run: GameRun, *, negative: bool, spec: str,
                 search: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return the reproduction of a failing game: its size, the game so far, the replay token and command."""
    case = _case(rules, script, negative)
    token = encode_case(case)
    deviation = run.deviation
    rounds = transcript(rules, script, negative=negative, steps=deviation.step if deviation else run.steps)
    plays = len(rounds[-1]["plays"]) if rounds else 0
    return {"rounds": len(rounds), "tricks": (plays + rules.players - 1) // rules.players if plays else 0,
            "steps": deviation.step if deviation else run.steps, "choices": len(script),
            "nonzero_choices": sum(1 for v in script if v),
            "deviation": deviation.to_dict() if deviation else None, "game": rounds, "case": case,
            "token": token, "command": _command(spec, case), "search": search or {}}


def _case(rules: Rules, script: list[int], negative: bool) -> dict[str, Any]:
    return {"format": CASE_FORMAT, "version": 1, "rules": rules.changes(),
            "mode": "negative" if negative else "differential", "script": script}


def _command(spec: str, case: dict[str, Any]) -> str:
    """The one line that replays ``case`` on the engine ``spec``."""
    return f"hearts-ref conform --engine {shlex.quote(spec)} --replay {encode_case(case)}"


def replay_case(engine: Engine, case: dict[str, Any]) -> tuple[Rules, GameRun]:
    """Replay a reproduction case (from a ``--replay`` token or file) on ``engine``; return what happened."""
    rules = Rules.from_dict(dict(case.get("rules") or {}))
    run = replay_script(engine, rules, case["script"], negative=case.get("mode") == "negative")
    return rules, run


def load_engine(spec: str, **options: Any) -> Engine:
    """Return the engine a ``--engine`` SPEC names (see :func:`hearts_ref.engines.load.load_engine`).

    ``options`` (``timeout``, ``startup_timeout``) apply to engine programs.
    """
    from hearts_ref.engines.load import load_engine as load

    return load(spec, **options)


def _close(engine: Engine) -> None:
    close = getattr(engine, "close", None)
    if callable(close):
        try:
            close()
        except ENGINE_ERRORS:
            pass


def run_vectors_step(engine_factory: EngineFactory | Engine, report: Report, shard: tuple[int, int], *,
                     cases: Sequence[Any] | None = None) -> None:
    """Run the conformance vectors of ``spec/vectors/`` (or ``cases``) through the engine (see :mod:`hearts_ref.vectors`)."""
    from hearts_ref.vectors import load_vectors, run_case

    engine, owned = _make(engine_factory)
    if cases is None:
        cases = [case for i, case in enumerate(load_vectors()) if shard_runs(i, shard)]
    report.steps["vectors"] = {"status": "ran", "cases": len(cases)}
    try:
        for vector in cases:
            if abandoned(engine):
                report.add(Case(f"vector/{vector.id}", "vector", "abandoned", vector.rule_ids, abandoned(engine)))
            else:
                _add_vector(report, run_case(engine, vector))
    finally:
        if owned:
            _close(engine)


def _add_vector(report: Report, result: Any) -> None:
    """Add a vector's result to the report; a failed one with the command that runs it alone."""
    case = _vector_case(result)
    if case.status == "failed":   # one line that runs this vector alone on the engine
        case.details["replay"] = (f"hearts-ref vectors run --engine {shlex.quote(report.engine.get('spec', 'SPEC'))} "
                                  f"--case {shlex.quote(result.case_id)}")
    report.add(case)


def _vector_case(result: Any) -> Case:
    """A vector's result (:class:`hearts_ref.vectors.CaseResult`) as a report case.

    The vector runner already judges skips, expected failures and unexpected passes from
    the engine's capabilities. A failure is blamed on the rules its first wrong step concerns.
    """
    failure = result.failure
    rule_ids = tuple(failure.rule_ids) if failure is not None and failure.rule_ids else tuple(result.rule_ids)
    reason = failure.text() if failure is not None else result.reason
    details = {"failure": failure.to_dict(), "file": result.file} if failure is not None else {}
    return Case(f"vector/{result.case_id}", "vector", result.status, rule_ids, reason, 0.0, details)


PERFT_NODE_BUDGET = 400   # positions a perft check may visit: the interface replays every prefix


def run_perft_step(engine_factory: EngineFactory | Engine, report: Report, shard: tuple[int, int]) -> None:
    """Count legal play sequences on the engine from each perft deal of ``spec/perft/`` and compare.

    The engine interface has no undo, so each deal is counted to the deepest depth whose
    count stays within :data:`PERFT_NODE_BUDGET` (see :func:`hearts_ref.perft.perft_engine`).
    """
    from hearts_ref.perft import load_perft, perft_engine, perft_names

    engine, owned = _make(engine_factory)
    capabilities, _ = engine_capabilities(engine)
    try:
        names = [name for i, name in enumerate(perft_names()) if shard_runs(i, shard)]
        for name in names:
            deal = load_perft(name)
            case_id = f"perft/{name}"
            if abandoned(engine):
                report.add(Case(case_id, "perft", "abandoned", deal.rule_ids, abandoned(engine)))
                continue
            cannot = capabilities.cannot_play(deal.rules)
            if cannot:
                report.add(Case(case_id, "perft", "skipped", deal.rule_ids, cannot))
                continue
            depth = max((d for d, count in enumerate(deal.counts, 1) if count <= PERFT_NODE_BUDGET), default=1)
            expected = deal.counts[depth - 1]
            start = time.monotonic()
            try:
                actual = perft_engine(engine, deal.rules, deal.hands, depth)
            except EngineUnsupported as error:
                report.add(Case(case_id, "perft", "skipped", deal.rule_ids, f"the engine declined: {error}"))
                continue
            except ENGINE_ERRORS as error:   # a refusal, a failure, or a bug of an in-process engine
                report.add(Case(case_id, "perft", "failed", deal.rule_ids,
                                f"depth {depth}: the engine failed while counting: {failure_text(error)}",
                                time.monotonic() - start))
                if not isinstance(error, EngineRejection):
                    restart_engine(engine)   # one failure fails this deal, not every deal after it
                continue
            status = "passed" if actual == expected else "failed"
            reason = "" if status == "passed" else f"depth {depth}: expected {expected} sequences, counted {actual}"
            report.add(Case(case_id, "perft", status, deal.rule_ids, reason, time.monotonic() - start,
                            {"depth": depth, "expected": expected, "actual": actual}))
    finally:
        if owned:
            _close(engine)
    report.steps["perft"] = {"status": "ran", "deals": len(names)}


def run_conformance(engine_factory: EngineFactory | Engine, rules: Rules, *, games: int = 100, seed: int = 0,
                    negative_games: int | None = None, vectors: bool = True, shard: tuple[int, int] = (1, 1),
                    time_limit: float | None = None, shrink_budget: float = 10.0, spec: str = "SPEC",
                    progress: Progress | None = None, started: Callable[[Report], None] | None = None) -> Report:
    """Run the whole suite on an engine: the vectors, then the differential games and negative checks.

    ``started`` is called with the report as soon as it exists: it fills as the cases are
    judged, so that a caller interrupted by a signal can still write what was judged so far.
    """
    start = time.monotonic()
    engine, owned = _make(engine_factory)
    capabilities, _ = engine_capabilities(engine)
    negatives = negative_games_for(games, negative_games)
    report = Report(_engine_info(engine, spec, capabilities), rules.to_dict(), seed, games, negatives,
                    [list(shard)], known_deviations=list(capabilities.known_deviations))
    if started is not None:
        started(report)
    if vectors:
        run_vectors_step(engine, report, shard)
        run_perft_step(engine, report, shard)
    remaining = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - start))
    run_differential(engine, rules, games, seed, negative_games=negatives, shard=shard, time_limit=remaining,
                     shrink_budget=shrink_budget, spec=spec, progress=progress, report=report)
    if owned:
        _close(engine)
    report.seconds = time.monotonic() - start
    return report
