"""The fixed part of the suite, as report cases: the conformance vectors and the perft counts.

A failed vector is blamed on the rule its first wrong step breaks (:mod:`.vectors`); a perft
deal whose count differs is diagnosed by walking its plays on the engine to the first
position at which the engine differs (:func:`~hearts_ref.perft.perft_difference`), and is
charged to the rule broken there only, not to every rule the deal is tagged with. An engine
that fails (a timeout, a crash) has the case reported as an error; one that answers
``unsupported`` has it skipped with its words.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from typing import Any

from hearts_ref.engine import Engine, EngineRejection, Observation
from hearts_ref.errors import HeartsError
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported, abandoned, restart_engine
from hearts_ref.game import Game
from hearts_ref.conformance.diagnose import StepFacts
from hearts_ref.conformance.findings import failure_message
from hearts_ref.conformance.judge import judge_legal, judge_observation, reference_observation
from hearts_ref.conformance.refusals import cited_rule, refused_deal_rules, refused_play_rules
from hearts_ref.conformance.report import Case, Report

__all__ = ["run_vectors_step", "run_perft_step", "vector_case", "perft_rules", "make_engine", "close_engine",
           "PERFT_NODE_BUDGET"]

PERFT_NODE_BUDGET = 400   # positions a perft check may visit: the interface replays every prefix


def make_engine(factory: Any) -> tuple[Engine, bool]:
    """Return the engine, and whether the runner made it (and so closes it when done)."""
    if isinstance(factory, Engine) and not isinstance(factory, type):
        return factory, False
    return factory(), True


def close_engine(engine: Engine) -> None:
    """Close the engine if it can be closed; a failure to close is no failure of the run."""
    close = getattr(engine, "close", None)
    if callable(close):
        try:
            close()
        except ENGINE_ERRORS:
            pass


def _runs(index: int, shard: tuple[int, int]) -> bool:
    k, n = shard
    return index % n == k - 1


def run_vectors_step(engine_factory: Any, report: Report, shard: tuple[int, int], *,
                     cases: Sequence[Any] | None = None) -> None:
    """Run the conformance vectors of ``spec/vectors/`` (or ``cases``) through the engine (see :mod:`.vectors`).

    Once the engine is abandoned (its circuit breaker tripped) the vectors left are reported ``abandoned``.
    """
    from hearts_ref.conformance.vectors import run_case
    from hearts_ref.vectors.reader import iter_vectors

    engine, owned = make_engine(engine_factory)
    if cases is None:   # read file by file as they run: the first finding does not wait for the last file
        cases = (case for i, case in enumerate(iter_vectors()) if _runs(i, shard))
    step = report.steps["vectors"] = {"status": "ran", "cases": 0}
    try:
        for vector in cases:
            step["cases"] += 1
            if abandoned(engine):
                report.add(Case(f"vector/{vector.id}", "vector", "abandoned", vector.rule_ids, abandoned(engine)))
                continue
            result = run_case(engine, vector)
            case = vector_case(result)
            if case.status in ("failed", "error"):   # one line that runs this vector alone on the engine
                case.details["replay"] = _alone(report, "vectors run", f"--case {shlex.quote(result.case_id)}")
            report.add(case)
    finally:
        if owned:
            close_engine(engine)


def _alone(report: Report, command: str, options: str) -> str:
    """The command line that runs one case alone on the report's engine: ``hearts-ref COMMAND --engine SPEC
    OPTIONS``."""
    engine = report.engine.get("options")   # the run's own engine options (its --timeout …), so that it waits alike
    return f"hearts-ref {command} --engine {shlex.quote(report.engine.get('spec', 'SPEC'))}" + "".join(
        f" {part}" for part in (engine, options) if part)


def vector_case(result: Any) -> Case:
    """A vector's result (:class:`~hearts_ref.conformance.vectors.CaseResult`) as a report case.

    A failure is blamed on the rules its first wrong step concerns, the rule broken first.
    """
    failure = result.failure   # an engine error is charged to the rules its step concerns, else the case's
    rule_ids = tuple(failure.rule_ids) if failure is not None and failure.rule_ids else tuple(result.rule_ids)
    reason = failure.text() if failure is not None and result.status != "error" else result.reason
    details = {"failure": failure.to_dict(), "file": result.file} if failure is not None else {}
    return Case(f"vector/{result.case_id}", "vector", result.status, rule_ids, reason, 0.0, details)


def perft_rules(engine: Engine, deal: Any, depth: int) -> tuple[tuple[str, ...], str]:
    """The rules broken at the first position where the engine differs on a perft deal, and that position."""
    from hearts_ref.perft import perft_difference

    node = perft_difference(engine, deal.rules, deal.hands, depth, budget=PERFT_NODE_BUDGET)
    if node is None:
        return (), "no position differs (the counts alone do)"
    at = "after " + " ".join(str(card) for card in node.plays) if node.plays else "at the start of play"
    if not isinstance(node.observation, Observation):
        return (), f"{at}: observe() returned {type(node.observation).__name__}"
    game = Game.new(deal.rules)._replace(round=node.state)
    before = node.before
    legal = getattr(node.legal, "mask", None)   # the engine's legal set there: evidence of who it has open
    legal = legal if isinstance(legal, int) else None
    if before is None:
        facts = StepFacts("deal", None, node.state, game, previous=reference_observation(Game.new(deal.rules)),
                          engine_legal=legal)
    else:
        facts = StepFacts("play", before, node.state, game, node.plays[-1].index,
                          reference_observation(game, before), engine_legal=legal)
    found = judge_observation(facts, reference_observation(game, node.state), node.observation, 0, {})
    if found is None and legal is not None:
        found = judge_legal(node.state, legal, node.observation.hearts_broken, 0, {})
    if found is None:
        return (), at
    return found.rule_ids, f"{at}: {found.message}"


def run_perft_step(engine_factory: Any, report: Report, shard: tuple[int, int]) -> None:
    """Count legal play sequences on the engine from each perft deal of ``spec/perft/`` and compare.

    The engine interface has no undo, so each deal is counted to the deepest depth whose
    count stays within :data:`PERFT_NODE_BUDGET` (see :func:`hearts_ref.perft.perft_engine`).
    """
    from hearts_ref.conformance.runner import engine_capabilities
    from hearts_ref.perft import load_perft, perft_engine, perft_names

    engine, owned = make_engine(engine_factory)
    capabilities, _ = engine_capabilities(engine)
    try:
        names = [name for i, name in enumerate(perft_names()) if _runs(i, shard)]
        for name in names:
            deal = load_perft(name)
            if abandoned(engine):
                report.add(Case(f"perft/{name}", "perft", "abandoned", deal.rule_ids, abandoned(engine)))
            else:
                case = _perft_case(engine, capabilities, deal, perft_engine)
                if case.status in ("failed", "error"):   # one line that counts this deal alone on the engine
                    depth = case.details.get("depth")
                    case.details["replay"] = _alone(report, f"perft {shlex.quote(name)}",
                                                    f"--depth {depth}" if depth else "")
                report.add(case)
    finally:
        if owned:
            close_engine(engine)
    report.steps["perft"] = {"status": "ran", "deals": len(names)}


def perft_refusal_rules(deal: Any, error: EngineRejection) -> tuple[str, ...]:
    """The rules behind a legal step the engine refused while counting ``deal``: for the deal, DECK-REMOVED and
    DEAL-HANDS; for a play, the rule that allows it there; then the rule the engine cited (its new game refused:
    the deal's own rules)."""
    refused, plays = getattr(error, "refused", None), getattr(error, "plays", None)
    error = getattr(error, "cause", error)   # the engine's own refusal, as it cited its rule
    if refused == "the deal":
        return refused_deal_rules(deal.rules, error)
    if plays:
        state = deal.start()
        try:
            for card in plays[:-1]:
                state = state.play(card)
        except HeartsError:   # (not a line of the reference's: the rule the engine cited)
            return cited_rule(error) or tuple(deal.rule_ids)
        return refused_play_rules(state, plays[-1].index, error)
    return cited_rule(error) or tuple(deal.rule_ids)


def _perft_case(engine: Engine, capabilities: Any, deal: Any, perft_engine: Any) -> Case:
    case_id = f"perft/{deal.name}"
    cannot = capabilities.cannot_play(deal.rules)
    if cannot:
        return Case(case_id, "perft", "skipped", deal.rule_ids, cannot)
    depth = max((d for d, count in enumerate(deal.counts, 1) if count <= PERFT_NODE_BUDGET), default=1)
    expected = deal.counts[depth - 1]
    start = time.monotonic()
    try:
        actual = perft_engine(engine, deal.rules, deal.hands, depth)
        if actual == expected:
            return Case(case_id, "perft", "passed", deal.rule_ids, "", time.monotonic() - start,
                        {"depth": depth, "expected": expected, "actual": actual})
        rules, where = perft_rules(engine, deal, depth)
    except EngineUnsupported as error:
        return Case(case_id, "perft", "skipped", deal.rule_ids, f"the engine declined: {error}")
    except EngineRejection as error:   # a legal step refused while counting: its new game, the deal or a play
        return Case(case_id, "perft", "failed", perft_refusal_rules(deal, error),
                    f"depth {depth}: while counting, the engine refused {error}", time.monotonic() - start)
    except ENGINE_ERRORS as error:   # a failure, or a bug of an in-process engine
        restart_engine(engine)   # one failure fails this deal, not every deal after it
        return Case(case_id, "perft", "error", (), failure_message(f"counting to depth {depth}", error),
                    time.monotonic() - start)
    return Case(case_id, "perft", "failed", rules, f"depth {depth}: expected {expected} sequences, counted "
                f"{actual}; first difference {where}", time.monotonic() - start,
                {"depth": depth, "expected": expected, "actual": actual, "first_difference": where})
