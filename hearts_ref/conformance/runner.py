"""The conformance runner: vectors, differential games and negative checks, into one report.

:func:`run_conformance` is what ``hearts-ref conform`` runs; :func:`run_differential` is
the differential part alone (``hearts-ref verify`` calls it). Both are deterministic from
``seed``: game ``i`` of a campaign always uses the same policy, deal and choices, so
``shard=(k, n)`` runs the games ``i`` with ``i % n == k - 1`` and the shards' reports merge
(:func:`~hearts_ref.conformance.report.merge_reports`) into the report of the whole run.

Games play on past their differences (:mod:`.differential`); each distinct finding gets
its own reproduction (:mod:`.outcomes`). ``stop_at_first`` ends each game at its first
difference instead, as quick as a campaign can be.

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.variants import Rules
>>> report = run_differential(ReferenceEngine, Rules(max_rounds=1), games=6, seed=1)
>>> report.summary()["counts"]["passed"], report.exit_code()
(6, 0)
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from hearts_ref.engine import Capabilities, Engine, takes_seat
from hearts_ref.engines.failures import ENGINE_ERRORS, abandoned, failure_text, reproducing
from hearts_ref.variants import Rules
from hearts_ref.conformance.coverage import game_coverage
from hearts_ref.conformance.differential import run_game
from hearts_ref.conformance.findings import GameRun
from hearts_ref.conformance.negative import NegativeChecks
from hearts_ref.conformance.outcomes import game_case, reproduce, reproduction
from hearts_ref.conformance.decider import PolicyDecider
from hearts_ref.conformance.policies import POLICY_NAMES, make_policy, policy_for
from hearts_ref.conformance.report import Case, Report
from hearts_ref.conformance.script import direction_options
from hearts_ref.conformance.shrink import Budget, replay_script
from hearts_ref.conformance.situations import applicable
from hearts_ref.conformance.steered import untargeted
from hearts_ref.conformance.targeted import targeted_every
from hearts_ref.conformance.suite_steps import close_engine, make_engine, run_perft_step, run_vectors_step

__all__ = ["run_conformance", "run_differential", "replay_case", "load_engine", "EngineFactory", "Progress",
           "shard_runs", "game_decider", "engine_setup_problem", "engine_capabilities", "planned_games", "games_rules",
           "negative_games_for", "reproduction", "run_vectors_step", "run_perft_step"]

EngineFactory = Callable[[], Engine]
Progress = Callable[[int, int, int], None]   # (cases done, cases planned, failed so far)

# Said of the games of an engine that deals for itself (Capabilities.deals).
DEALS_NOTE = ("the engine deals for itself: every deal is the engine's own (checked, DEAL-HANDS, DECK-REMOVED), so "
              "the targeted games steer its deals through the passes and plays alone, and the situations that need a "
              "constructed deal cannot be targeted (listed with the situations); its reproductions replay only if it "
              "deals the same hands again")

# A differential game stops (judged up to there, not failed) after this many rounds: under a
# huge end_threshold a game would otherwise never end. A game to 100 takes about 10 rounds.
GAME_ROUND_LIMIT = 200


def shard_runs(index: int, shard: tuple[int, int]) -> bool:
    """Whether shard ``(k, n)`` runs the case numbered ``index`` (cases are dealt round-robin)."""
    k, n = shard
    return index % n == k - 1


def negative_games_for(games: int, negative_games: int | None) -> int:
    """The games with negative checks: as asked, or by default a quarter of the differential games (at least 1; none
    when no differential game is asked for)."""
    if negative_games is not None:
        return negative_games
    return max(1, games // 4) if games else 0


def planned_games(games: int, negative_games: int, shard: tuple[int, int],
                  policies: Sequence[str] = POLICY_NAMES, every: int = 4) -> list[tuple[str, int, str, str]]:
    """The games shard ``shard`` plays: ``(kind, index, policy, case ID)``; every ``every``-th game is targeted,
    the others take the random policies in turn (:func:`~hearts_ref.conformance.policies.policy_for`)."""
    planned = [("differential", i) for i in range(games) if shard_runs(i, shard)]
    planned += [("negative", i) for i in range(negative_games) if shard_runs(i, shard)]
    named = [(kind, i, policy_for(i, tuple(policies), every)[0]) for kind, i in planned]
    return [(kind, i, policy, f"{kind}/{policy}/{i}") for kind, i, policy in named]


def game_decider(seed: int, kind: str, index: int, capabilities: Capabilities,
                 policies: tuple[str, ...] = POLICY_NAMES, every: int = 4) -> PolicyDecider:
    """The decider of a campaign's game ``index`` of ``kind``: its policy, drawing from the campaign seed."""
    policy, number = policy_for(index, policies, every)
    rng = random.Random(f"hearts-ref-conform:{seed}:{kind}:{index}")
    return PolicyDecider(make_policy(policy, rng, index=number), any_direction=not capabilities.multi_round,
                         passing=capabilities.passing, engine_deals=capabilities.deals)


def _probes(engine: Engine) -> bool:
    """Whether the first game is played on an engine abandoned before any game (in the vectors or perft): once, so
    that its failure has a game to shrink to a minimal one; not after timeouts, each of which costs the whole
    timeout (there a game costs what the breaker saves)."""
    breaker = getattr(engine, "breaker", None)
    return abandoned(engine) is not None and getattr(breaker, "verdict", "timeout") != "timeout"


def engine_setup_problem(capabilities: Capabilities, rules: Rules) -> str | None:
    """Return why the engine cannot be judged under ``rules`` (a sentence), or None when it can."""
    return capabilities.cannot_play(rules)


def games_rules(capabilities: Capabilities, rules: Rules) -> tuple[Rules, str]:
    """The rules the differential games are played under, and a note when they are not ``rules`` themselves.

    An engine that plays one round per game (``multi_round = false``) is judged with games of
    one round (``max_rounds = 1``).
    """
    if capabilities.multi_round or rules.max_rounds == 1:
        return rules, ""
    return (dataclasses.replace(rules, max_rounds=1),
            "the engine plays one round per game: each game is one round (max_rounds=1)")


def engine_capabilities(engine: Engine) -> tuple[Capabilities, str | None]:
    """Return the engine's capabilities, and why they could not be read (None when they could).

    An engine whose ``capabilities()`` fails, or returns something else than
    :class:`~hearts_ref.engine.Capabilities`, is judged with the defaults and the problem is reported.
    ``play_seat`` is what the engine's ``play`` takes (:func:`~hearts_ref.engine.takes_seat`).
    """
    try:
        capabilities = engine.capabilities()
    except ENGINE_ERRORS as error:
        return Capabilities(), f"capabilities() failed: {failure_text(error)}"
    if not isinstance(capabilities, Capabilities):
        return Capabilities(), (f"capabilities() returned {type(capabilities).__name__}, "
                                "not hearts_ref.engine.Capabilities")
    return dataclasses.replace(capabilities, play_seat=takes_seat(engine)), None


def _engine_info(engine: Engine, spec: str, capabilities: Capabilities, options: str = "") -> dict[str, Any]:
    info = {"spec": spec, "name": str(getattr(engine, "name", type(engine).__name__)),
            "version": str(getattr(engine, "version", "")), "capabilities": capabilities.to_dict()}
    return info | {"options": options} if options else info


def run_differential(engine_factory: EngineFactory | Engine, rules: Rules, games: int, seed: int, *,
                     negative_games: int = 0, policies: Sequence[str] = POLICY_NAMES,
                     shard: tuple[int, int] = (1, 1), time_limit: float | None = None,
                     shrink_budget: float | Budget = 10.0, max_shrinks: int = 10, spec: str = "SPEC",
                     stop_at_first: bool = False, progress: Progress | None = None, report: Report | None = None,
                     clock: Callable[[], float] = time.monotonic, fresh: EngineFactory | None = None,
                     engine_options: str = "") -> Report:
    """Play ``games`` differential games (and ``negative_games`` with negative checks); return the report.

    ``engine_factory`` makes the engine (a class or a function), or is the engine itself.
    Each distinct finding is shrunk (``shrink_budget`` each: seconds, or a
    :class:`~hearts_ref.conformance.shrink.Budget` counted in replays; at most ``max_shrinks``
    of them) into a small game in which it is the first difference, with a replay command
    that names ``spec``, and replayed on a fresh engine (``fresh()``, by default
    ``engine_factory()`` when it makes engines; else the engine, restarted) to tell a flaky
    finding. ``stop_at_first``: end each game at its first difference.
    """
    start = clock()
    engine, owned = make_engine(engine_factory)
    capabilities, problem = engine_capabilities(engine)
    setup_problem = problem or engine_setup_problem(capabilities, rules)
    known = list(capabilities.known_deviations)
    if report is None:
        report = Report(_engine_info(engine, spec, capabilities, engine_options), rules.to_dict(), seed, games,
                        negative_games,
                        [list(shard)], known_deviations=known)
    rules, note = games_rules(capabilities, rules)
    if not capabilities.passing and rules.pass_cards:
        note = "; ".join(filter(None, [note, "the engine does not pass cards: every round is dealt with direction none"]))
    if capabilities.deals:
        note = "; ".join(filter(None, [note, DEALS_NOTE]))
    for name, count in (("differential", games), ("negative", negative_games)):
        report.steps[name] = ({"status": "skipped", "reason": setup_problem} if setup_problem and count
                              else {"status": "ran", "games": count})
        if not setup_problem and count and note:
            report.steps[name]["note"] = note
    every = targeted_every(rules)
    planned = planned_games(games, negative_games, shard, policies, every)
    drawn = ({"none"} if not capabilities.passing or not rules.pass_cards
             else set(direction_options(rules)) if not capabilities.multi_round else None)
    report.situations = report.situations or [s.name for s in applicable(rules, directions=drawn)]
    if capabilities.deals and "targeted" in policies:   # steered through the choices alone (.steered)
        report.untargeted = report.untargeted or untargeted(rules, report.situations)
    failing: list[tuple[Case, GameRun, bool]] = []
    deadline = None if time_limit is None else start + time_limit
    for done, (kind, i, policy, case_id) in enumerate(planned):
        if setup_problem:   # capabilities() unreadable is the engine's error; rules it cannot play, a skip
            report.add(Case(case_id, kind, "error" if problem else "skipped", reason=setup_problem))
            continue
        if deadline is not None and clock() > deadline:
            report.add(Case(case_id, kind, "skipped", reason=f"time limit of {time_limit:g} s reached"))
            continue
        probe = done == 0 and _probes(engine)
        if abandoned(engine) and not probe:   # the engine failed the same way game after game: not asked again
            report.add(Case(case_id, kind, "abandoned", reason=abandoned(engine)))
            continue
        began = clock()
        negative = NegativeChecks() if kind == "negative" else None
        decider = game_decider(seed, kind, i, capabilities, tuple(policies), every)
        again = functools.partial(game_decider, seed, kind, i, capabilities, tuple(policies), every)
        with reproducing(engine) if probe else contextlib.nullcontext():
            run = run_game(engine, rules, decider, negative=negative, stop_at_first=stop_at_first,
                           max_rounds=GAME_ROUND_LIMIT, clock=clock, deadline=deadline, again=again)
        report.rounds += run.rounds
        if run.game is not None:
            report.add_coverage(game_coverage(run.game, run.plays))
        if negative is not None:
            report.add_checks(negative.counts)
        details: dict[str, Any] = {"policy": policy, "index": i, "rounds": run.rounds, "steps": run.steps}
        if run.stopped:
            details["stopped"] = run.stopped
        case = game_case(case_id, kind, run, known, clock() - began, details)
        if case.status in ("failed", "error"):
            failing.append((case, run, negative is not None))
        report.add(case)
        if progress is not None:
            progress(done + 1, len(planned), len(failing))
    reproduce(engine, rules, failing, budget=shrink_budget, max_shrinks=max_shrinks, spec=spec,
              time_left=(lambda: deadline - clock()) if deadline is not None else None,
              fresh=fresh or (None if engine_factory is engine else engine_factory),
              options=str(report.engine.get("options", "")))   # (the run's engine options, kept in its report)
    if owned:
        close_engine(engine)
    report.seconds += clock() - start
    return report


def replay_case(engine: Engine, case: dict[str, Any]) -> tuple[Rules, GameRun]:
    """Replay a reproduction case (from a ``--replay`` token or file) on ``engine``; return what happened.

    A case that names a ``finding`` (one that is not its game's first difference) plays on to it.
    """
    rules = Rules.from_dict(dict(case.get("rules") or {}))
    run = replay_script(engine, rules, case["script"], negative=case.get("mode") == "negative",
                        stop_at_first="finding" not in case)
    return rules, run


def load_engine(spec: str, **options: Any) -> Engine:
    """Return the engine a ``--engine`` SPEC names (see :func:`hearts_ref.engines.load.load_engine`).

    ``options`` (``timeout``, ``startup_timeout``) apply to engine programs.
    """
    from hearts_ref.engines.load import load_engine as load

    return load(spec, **options)


def run_conformance(engine_factory: EngineFactory | Engine, rules: Rules, *, games: int = 100, seed: int = 0,
                    negative_games: int | None = None, vectors: bool = True, shard: tuple[int, int] = (1, 1),
                    time_limit: float | None = None, shrink_budget: float | Budget = 10.0, spec: str = "SPEC",
                    stop_at_first: bool = False, progress: Progress | None = None,
                    started: Callable[[Report], None] | None = None, engine_options: str = "") -> Report:
    """Run the whole suite on an engine: the vectors and perft, then the differential games and negative checks.

    ``started`` is called with the report as soon as it exists: it fills as the cases are
    judged, so that a caller interrupted by a signal can still write what was judged so far.
    """
    start = time.monotonic()
    engine, owned = make_engine(engine_factory)
    capabilities, _ = engine_capabilities(engine)
    negatives = negative_games_for(games, negative_games)
    report = Report(_engine_info(engine, spec, capabilities, engine_options), rules.to_dict(), seed, games, negatives,
                    [list(shard)], known_deviations=list(capabilities.known_deviations))
    if started is not None:
        started(report)
    if vectors and capabilities.deals:   # both need hands of their own: an engine that deals takes none
        for step in ("vectors", "perft"):
            report.steps[step] = {"status": "skipped", "reason": "the engine deals for itself: its cases need given hands"}
    elif vectors:
        run_vectors_step(engine, report, shard)
        run_perft_step(engine, report, shard)
    remaining = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - start))
    run_differential(engine, rules, games, seed, negative_games=negatives, shard=shard, time_limit=remaining,
                     shrink_budget=shrink_budget, spec=spec, stop_at_first=stop_at_first, progress=progress,
                     report=report, fresh=engine_factory if owned else None, engine_options=engine_options)
    if owned:
        close_engine(engine)
    report.seconds = time.monotonic() - start
    return report
