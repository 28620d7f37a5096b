"""Running the conformance vectors on any engine, each step judged as the differential games judge it.

Each case ends in exactly one :class:`CaseResult`: ``passed``; ``failed`` with the first failing
step, the rule IDs (the rule broken first), expected and actual; ``error`` when the engine
failed (a timeout, a crash, a broken reply); ``skipped`` with the reason (the engine's
capabilities, or its ``unsupported`` reply, wherever it comes); ``expected-fail`` when the
engine lists the case or the rule its failure breaks in ``capabilities().known_deviations``,
or ``unexpected-pass`` when a case listed by its ID, or by its first rule ID, passes.

A reference game is replayed beside the engine (the *shadow*), and each difference from what
a case expects is blamed with :mod:`.diagnose`, the same functions as in the differential
games: a wrong legal set on the rule that decides each card, a leader judged as if still
following on LEAD-WINNER, a pass of a received card accepted on PASS-SIMULTANEOUS …

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.vectors.reader import load_vectors
>>> results = run_vectors(ReferenceEngine(), load_vectors())
>>> summarize(results)["failed"], len(results) == len(load_vectors())
(0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hearts_ref.cardset import CardSet
from hearts_ref.engine import Capabilities, Engine, EngineRejection, Observation, observation_problem, observe_game
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported, failure_text, restart_engine
from hearts_ref.errors import HeartsError
from hearts_ref.game import Game
from hearts_ref.vectors.model import Case, RoundCase, Step
from hearts_ref.conformance.diagnose import StepFacts, legal_rules, observation_rules, shape_rules
from hearts_ref.conformance.findings import Difference
from hearts_ref.conformance.refusals import (
    accepted_pass_rules, cited_rule, refused_deal_rules, refused_pass_rules, refused_play_rules,
)
from hearts_ref.conformance.vector_results import STATUSES, CaseResult, Failure, summarize, unaccounted

__all__ = ["Failure", "CaseResult", "STATUSES", "run_case", "run_vectors", "summarize", "unaccounted"]

_Where = tuple[int, "int | None", str]
_PER_SEAT = ("points_taken", "round_scores", "totals")
_CAUSAL_ORDER = ("to_move", "trick", "hearts_broken", "points_taken", "round_scores", "totals", "phase", "game_over",
                 "winners")


class _Stop(Exception):
    """Carries the first failure out of the replay."""

    def __init__(self, failure: Failure):
        super().__init__(failure.text())
        self.failure = failure


class _Declined(Exception):
    """The engine answered ``unsupported``: the case is skipped with the engine's words."""


def run_vectors(engine: Engine, cases: Sequence[Case], *,
                progress: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
    """Return one result per case, in order (see :func:`run_case`); ``progress`` sees each result."""
    results = []
    for case in cases:
        result = run_case(engine, case)
        results.append(result)
        if progress is not None:
            progress(result)
    return results


def run_case(engine: Engine, case: Case) -> CaseResult:
    """Return the outcome of ``case`` on ``engine``; never raises for a misbehaving engine."""
    def result(status: str, reason: str = "", failure: Failure | None = None) -> CaseResult:
        return CaseResult(case.id, status, case.rule_ids, reason, failure, case.file)

    try:
        capabilities = engine.capabilities()
        if not isinstance(capabilities, Capabilities):
            return result("error", f"capabilities() returned {type(capabilities).__name__}, "
                                   "not hearts_ref.engine.Capabilities")
        reason = _skip_reason(capabilities, case)
    except ENGINE_ERRORS as error:   # an engine's own bug: judged, not propagated
        return result("error", f"capabilities() failed: {failure_text(error)}",
                      Failure(1, None, "capabilities()", "engine-error", "no error", failure_text(error), ()))
    if reason:
        return result("skipped", reason)
    single_round = not capabilities.multi_round
    try:
        failure = _replay(engine, case, single_round)
    except _Declined as declined:   # an ``unsupported`` reply: the engine cannot play this case
        return result("skipped", str(declined))
    if failure is not None and failure.field == "engine-error":
        restart_engine(engine)   # so that one crash or hang fails one case, not every case after it
        return result("error", failure.message or str(failure.actual), failure)
    known = set(capabilities.known_deviations)
    if failure is not None:
        blamed = sorted(known & ({case.id} | set(failure.rule_ids[:1])))
        if blamed:
            return result("expected-fail", f"listed in known_deviations: {', '.join(blamed)}", failure)
        return result("failed", failure=failure)
    listed = sorted(known & ({case.id} | set(case.rule_ids[:1])))
    if listed:
        return result("unexpected-pass", f"listed in known_deviations ({', '.join(listed)}) but passed")
    note = "game-end checks left out: the engine plays one round per game" if single_round and case.final and \
        not case.final.game_over else ""
    return result("passed", note)


def _skip_reason(capabilities: Any, case: Case) -> str:
    reason = capabilities.cannot_play(case.rules)
    if reason:
        return reason
    if len(case.rounds) > 1 and not capabilities.multi_round:
        return f"the engine plays one round per game; the case has {len(case.rounds)} rounds"
    passing = next((r.direction for r in case.rounds if r.direction != "none"), None)
    if passing and not capabilities.passing:
        return f"the engine does not pass cards; the case passes {passing}"
    return ""


def _replay(engine: Engine, case: Case, single_round: bool) -> Failure | None:
    try:
        _call(engine.new_game, case.rules, where=(1, None, "new game"))
        shadow = Game.new(case.rules)
        facts = None
        for number, round_case in enumerate(case.rounds, 1):
            if round_case.rejected_by is not None:
                _rejected_deal(engine, round_case, number)
                return None
            where = (number, None, f"deal of round {number}")
            _call(engine.start_round, round_case.hands, round_case.direction, where=where,
                  refused=lambda error: refused_deal_rules(case.rules, error))
            shadow = _on_reference(lambda: shadow.deal_round(round_case.hands, direction=round_case.direction),
                                   where)
            _compare_deal(engine, shadow, where)
            for index, step in enumerate(round_case.steps):
                shadow, facts = _step(engine, shadow, step, number, index, single_round)
            _round_end(engine, round_case, number, facts)
        _final(engine, case, len(case.rounds), single_round, facts)
    except _Stop as stop:
        return stop.failure
    return None


def _call(method: Callable[..., Any], *args: Any, where: _Where,
          refused: Callable[[EngineRejection | None], tuple[str, ...]] | None = None) -> Any:
    """Call an engine method; a refusal or a crash becomes the case's failure, a decline its skip.

    ``refused(error)`` names the rules that allow the move the engine refused; with ``None`` (a
    crash) the rules the move concerns, for the errors column.
    """
    try:
        return method(*args)
    except EngineRejection as error:
        rules = refused(error) if refused is not None else cited_rule(error)
        raise _Stop(Failure(*where, "rejection", "accepted", f"rejected: {error}", rules)) from None
    except EngineUnsupported as error:
        raise _Declined(f"the engine declined ({where[2]}): {error}") from None
    except ENGINE_ERRORS as error:
        raise _Stop(Failure(*where, "engine-error", "no error", failure_text(error),
                            refused(None) if refused is not None else (), failure_text(error))) from None


def _observe(engine: Engine, where: _Where) -> Observation:
    observation = _call(engine.observe, where=where)
    if not isinstance(observation, Observation):
        message = f"observe() returned {type(observation).__name__}"
        raise _Stop(Failure(*where, "engine-error", "an Observation", message, (), message))
    problem = observation_problem(observation)   # as the differential games judge it: never equal, whatever the game
    if problem:
        message = f"observe() returned an Observation: {problem} (every field is compared with ==)"
        raise _Stop(Failure(*where, "engine-error", "an Observation of the interface's types", message, (), message))
    return observation


def _refuse_expected(engine: Engine, move: Callable[[], None], where: _Where, forbidding: tuple[str, ...]) -> None:
    """An illegal move: the engine must refuse it, citing (if it cites one) a rule that forbids it."""
    try:
        move()
    except EngineRejection as error:
        cited = cited_rule(error)
        if cited and cited[0] not in forbidding:
            raise _Stop(Failure(*where, "rejection", forbidding[0], cited[0], forbidding, str(error))) from None
        return
    except EngineUnsupported as error:
        raise _Declined(f"the engine declined ({where[2]}): {error}") from None
    except ENGINE_ERRORS as error:
        raise _Stop(Failure(*where, "engine-error", "a rejection", failure_text(error), forbidding,
                            failure_text(error))) from None
    raise _Stop(Failure(*where, "accepted", f"rejected by {forbidding[0]}", "accepted", forbidding,
                        "an illegal step was accepted"))


def _rejected_deal(engine: Engine, round_case: RoundCase, number: int) -> None:
    _refuse_expected(engine, lambda: engine.start_round(round_case.hands, round_case.direction),
                     (number, None, f"deal of round {number}"), (round_case.rejected_by,))


def _apply(engine: Engine, step: Step) -> None:
    if step.kind == "play":
        engine.play(step.card)
    else:
        engine.pass_cards(step.seat, CardSet(step.cards))


def _apply_shadow(shadow: Game, step: Step) -> Game:
    return shadow.play(step.card) if step.kind == "play" else shadow.choose_pass(step.seat, CardSet(step.cards))


def _step(engine: Engine, shadow: Game, step: Step, number: int, index: int,
          single_round: bool) -> tuple[Game, StepFacts | None]:
    where = (number, index, step.text())
    state = shadow.round
    if step.rejected_by is not None:
        forbidding = (step.rejected_by,)
        if step.kind == "pass" and state is not None and state.passing:
            forbidding = tuple(dict.fromkeys(accepted_pass_rules(state, step.seat, CardSet(step.cards).mask)
                                             + forbidding))
        before = _observe(engine, where)
        _refuse_expected(engine, lambda: _apply(engine, step), where, forbidding)
        after = _observe(engine, where)
        if after != before:
            raise _Stop(Failure(*where, "state", before.to_dict(), after.to_dict(), forbidding,
                                "a rejected step changed the state"))
        return shadow, None
    seen = observe_game(shadow)
    try:
        _apply(engine, step)
    except EngineRejection as error:
        rules = refused_pass_rules(error) if step.kind == "pass" or state is None or state.passing else \
            refused_play_rules(state, step.card.index, error)
        raise _Stop(Failure(*where, "rejection", "accepted", f"rejected: {error}", rules,
                            "a legal step was refused")) from None
    except EngineUnsupported as error:
        raise _Declined(f"the engine declined ({where[2]}): {error}") from None
    except ENGINE_ERRORS as error:
        raise _Stop(Failure(*where, "engine-error", "no error", failure_text(error), (), failure_text(error))) \
            from None
    after = _on_reference(lambda: _apply_shadow(shadow, step), where)
    facts = StepFacts(step.kind, state, after.round, after, step.card.index if step.kind == "play" else None, seen)
    _compare_step(engine, facts, step, where, single_round)
    return after, facts


def _on_reference(action: Callable[[], Game], where: _Where) -> Game:
    """Replay a step of the case on the reference; a case the reference itself refuses is reported, not raised."""
    try:
        return action()
    except HeartsError as error:
        raise _Stop(Failure(*where, "case", "a step the rules allow", f"the reference refuses it: {error}",
                            cited_rule(EngineRejection(str(error))),
                            "the case is not valid for these rules (a damaged vector file?)")) from None


def _judged(where: _Where, differences: list[Difference], facts: StepFacts | None, actual: Observation,
            fallback: tuple[str, ...] = ()) -> None:
    """Stop at the first of these differences, blamed on the rules the differential games would name."""
    if not differences:
        return
    differences.sort(key=lambda d: _CAUSAL_ORDER.index(d.field) if d.field in _CAUSAL_ORDER else len(_CAUSAL_ORDER))
    rule_ids = observation_rules(differences, facts, actual) if facts is not None else \
        shape_rules(actual, len(differences[0].expected or ())) if differences[0].field in _PER_SEAT else fallback
    first = differences[0]
    raise _Stop(Failure(*where, first.field, first.expected, first.actual, rule_ids or fallback))


def _compare_deal(engine: Engine, shadow: Game, where: _Where) -> None:
    """PASS-CYCLE, LEAD-OPEN …: after a deal, the engine is in the phase the direction gives, with the seat
    the rules give to move, and hearts unbroken (BREAK-DISCARD: a round begins so)."""
    obs = _observe(engine, where)
    reference = observe_game(shadow)
    differences = [Difference(name, getattr(reference, name), getattr(obs, name))
                   for name in ("phase", "to_move", "hearts_broken")
                   if getattr(reference, name) != getattr(obs, name) and (name != "to_move" or obs.phase == "play")]
    if differences:
        legal = getattr(_call(engine.legal_plays, where=where), "mask", None)
        _judged(where, differences, StepFacts("deal", None, shadow.round, shadow, engine_legal=legal), obs)


def _compare_step(engine: Engine, facts: StepFacts, step: Step, where: _Where, single_round: bool) -> None:
    """Compare what the engine shows after a legal step with the step's expectations.

    An engine that plays one round per game may say ``game-over`` where the case says ``round-over``.
    """
    expect = step.expect
    if expect is None:
        return
    obs = _observe(engine, where)
    differences = []
    if obs.phase != expect.phase and not (single_round and {expect.phase, obs.phase} == {"round-over", "game-over"}):
        differences.append(Difference("phase", expect.phase, obs.phase))
    moving = expect.trick_winner if expect.trick_winner is not None and expect.phase == "play" else expect.to_move
    if expect.phase != "pass" and obs.to_move != moving:   # while passing every seat chooses at once
        differences.append(Difference("to_move", moving, obs.to_move))
    if expect.hearts_broken is not None and obs.hearts_broken != expect.hearts_broken:
        differences.append(Difference("hearts_broken", expect.hearts_broken, obs.hearts_broken))
    if expect.points_taken is not None and tuple(obs.points_taken) != expect.points_taken:
        differences.append(Difference("points_taken", expect.points_taken, tuple(obs.points_taken)))
    if differences and facts.after is None:   # the round's end: its scores come before the phase they decide
        reference = observe_game(facts.game)
        differences += [Difference(name, getattr(reference, name), getattr(obs, name))
                        for name in ("points_taken", "round_scores", "totals")
                        if getattr(reference, name) != getattr(obs, name) and name not in [d.field for d in differences]]
    if any(d.field == "to_move" for d in differences) and facts.action == "pass":   # who opens, with what
        facts = facts._replace(engine_legal=getattr(_call(engine.legal_plays, where=where), "mask", None))
    _judged(where, differences, facts, obs)
    if expect.legal is not None:
        legal = _call(engine.legal_plays, where=where)
        if not isinstance(legal, CardSet):   # as the differential games judge it
            message = f"legal_plays() returned {legal!r}, not a CardSet"
            raise _Stop(Failure(*where, "engine-error", "a CardSet", message, (), message))
        if legal != expect.legal:
            state = facts.after
            rules = legal_rules(state, legal.mask, obs.hearts_broken) if state is not None and state.to_play >= 0 \
                else ("TRICK-ORDER",)
            raise _Stop(Failure(*where, "legal", expect.legal, legal, rules,
                                f"the legal plays of seat {expect.to_move}, to move next"))


def _round_end(engine: Engine, round_case: RoundCase, number: int, facts: StepFacts | None) -> None:
    expected = round_case.result
    if expected is None:
        return
    where = (number, None, f"end of round {number}")
    obs = _observe(engine, where)
    differences = [Difference(field, want, got) for field, want, got in (
        ("points_taken", expected.points, tuple(obs.points_taken)),
        ("round_scores", expected.scores, None if obs.round_scores is None else tuple(obs.round_scores)),
        ("totals", expected.totals, tuple(obs.totals))) if want != got]
    _judged(where, differences, facts if facts is not None and facts.after is None else None, obs,
            ("SCORE-POINTS",))


def _final(engine: Engine, case: Case, rounds: int, single_round: bool, facts: StepFacts | None) -> None:
    final = case.final
    if final is None:
        return
    where = (rounds, None, "end of the case")
    obs = _observe(engine, where)
    differences = [Difference("totals", final.totals, tuple(obs.totals))] if tuple(obs.totals) != final.totals else []
    if not (single_round and not final.game_over):
        differences += [Difference(field, want, got) for field, want, got in (
            ("game_over", final.game_over, obs.game_over), ("winners", final.winners, tuple(obs.winners)))
            if want != got]
    ended = facts if facts is not None and facts.after is None else None
    _judged(where, differences, ended, obs, ("SCORE-TOTAL",))
