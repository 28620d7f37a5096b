"""Running vectors on any engine through :class:`~hearts_ref.engine.Engine`, and judging the outcome.

Each case ends in exactly one :class:`CaseResult`: ``passed``; ``failed`` with the first failing
step, the rule IDs, expected and actual; ``skipped`` with the reason; ``expected-fail`` when the
engine lists the case or one of its rule IDs in ``capabilities().known_deviations``, or
``unexpected-pass`` when such a case passes (a failure blamed on a listed rule ID is expected
too). A reference game is replayed beside the engine so
that a wrong legal set is blamed on the rule that decides each card.

>>> from hearts_ref.engine import ReferenceEngine
>>> from hearts_ref.vectors.reader import load_vectors
>>> results = run_vectors(ReferenceEngine(), load_vectors())
>>> summarize(results)["failed"], len(results) == len(load_vectors())
(0, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hearts_ref.cardset import CardSet
from hearts_ref.engine import Engine, EngineRejection, Observation
from hearts_ref.engines.failures import ENGINE_ERRORS, EngineUnsupported, failure_text, restart_engine
from hearts_ref.errors import HeartsError
from hearts_ref.game import Game
from hearts_ref.vectors.attribution import legal_set_rules, named_rule, step_rules
from hearts_ref.vectors.model import Case, RoundCase, Step

__all__ = ["Failure", "CaseResult", "STATUSES", "run_case", "run_vectors", "summarize", "unaccounted"]

STATUSES = ("passed", "failed", "skipped", "expected-fail", "unexpected-pass")


@dataclass(frozen=True)
class Failure:
    """The first thing an engine got wrong in a case, and where."""

    round: int                   # 1-based round of the case
    step: int | None             # 0-based step of that round; None for the deal or the round's end
    what: str                    # the step in words, "deal of round 1", "end of round 2" …
    field: str                   # what differed: legal, to_move, rejection, accepted, totals …
    expected: Any
    actual: Any
    rule_ids: tuple[str, ...]
    message: str = ""

    def text(self) -> str:
        """Return the failure in one line."""
        where = f"round {self.round}" + (f", step {self.step + 1}" if self.step is not None else "")
        rules = ", ".join(self.rule_ids) or "no rule ID"
        note = f" ({self.message})" if self.message else ""
        return (f"{where}: {self.what}: {self.field}: expected {_show(self.expected)}, got {_show(self.actual)}"
                f" [{rules}]{note}")

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "step": self.step, "what": self.what, "field": self.field,
                "expected": _plain(self.expected), "actual": _plain(self.actual), "rule_ids": list(self.rule_ids),
                "message": self.message}


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case on one engine."""

    case_id: str
    status: str
    rule_ids: tuple[str, ...]
    reason: str = ""             # why skipped, why expected to fail, or a note
    failure: Failure | None = None
    file: str = ""

    @property
    def ok(self) -> bool:
        """Whether the outcome is not a failure (an unexpected pass is flagged, not failed)."""
        return self.status != "failed"

    def to_dict(self) -> dict[str, Any]:
        return {"case": self.case_id, "status": self.status, "rule_ids": list(self.rule_ids), "reason": self.reason,
                "failure": None if self.failure is None else self.failure.to_dict(), "file": self.file}


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
        reason = _skip_reason(capabilities, case)
    except ENGINE_ERRORS as error:   # an engine's own bug: judged, not propagated
        return result("failed", failure=Failure(1, None, "capabilities()", "engine-error", "no error",
                                                failure_text(error), ()))
    if reason:
        return result("skipped", reason)
    single_round = not capabilities.multi_round
    try:
        failure = _replay(engine, case, single_round)
    except _Declined as declined:   # an ``unsupported`` reply: the engine cannot play this case
        return result("skipped", str(declined))
    if failure is not None and failure.field == "engine-error":
        restart_engine(engine)   # so that one crash or hang fails one case, not every case after it
    known = set(capabilities.known_deviations)
    listed = sorted(known & ({case.id} | set(case.rule_ids)))
    if failure is not None:
        blamed = sorted(known & ({case.id} | set(case.rule_ids) | set(failure.rule_ids)))
        if blamed:
            return result("expected-fail", f"listed in known_deviations: {', '.join(blamed)}", failure)
        return result("failed", failure=failure)
    if listed:
        return result("unexpected-pass", f"listed in known_deviations ({', '.join(listed)}) but passed")
    note = "game-end checks left out: the engine plays one round per game" if single_round and case.final and \
        not case.final.game_over else ""
    return result("passed", note)


def summarize(results: Sequence[CaseResult]) -> dict[str, int]:
    """Return how many results have each status (every status present, zero or not), and the total."""
    counts = Counter(r.status for r in results)
    return {status: counts.get(status, 0) for status in STATUSES} | {"total": len(results)}


def unaccounted(cases: Sequence[Case], results: Sequence[CaseResult]) -> list[str]:
    """Return the IDs of cases without exactly one result of a known status (empty when all are accounted for)."""
    seen = Counter(r.case_id for r in results if r.status in STATUSES and (r.status != "skipped" or r.reason))
    return [case.id for case in cases if seen.get(case.id) != 1]


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
        for number, round_case in enumerate(case.rounds, 1):
            if round_case.rejected_by is not None:
                _rejected_deal(engine, round_case, number)
                return None
            where = (number, None, f"deal of round {number}")
            _call(engine.start_round, round_case.hands, round_case.direction, where=where)
            shadow = _on_reference(lambda: shadow.deal_round(round_case.hands, direction=round_case.direction),
                                   where)
            for index, step in enumerate(round_case.steps):
                shadow = _step(engine, shadow, step, number, index, single_round)
            _round_end(engine, round_case, number)
        _final(engine, case, len(case.rounds), single_round)
    except _Stop as stop:
        return stop.failure
    return None


def _call(method: Callable[..., Any], *args: Any, where: tuple[int, int | None, str]) -> Any:
    """Call an engine method; a refusal or a crash becomes the case's failure, a decline its skip."""
    try:
        return method(*args)
    except EngineRejection as error:
        raise _Stop(Failure(*where, "rejection", "accepted", f"rejected: {error}", named_rule(error))) from None
    except EngineUnsupported as error:
        raise _Declined(f"the engine declined ({where[2]}): {error}") from None
    except ENGINE_ERRORS as error:
        raise _Stop(Failure(*where, "engine-error", "no error", failure_text(error), ())) from None


def _observe(engine: Engine, where: tuple[int, int | None, str]) -> Observation:
    observation = _call(engine.observe, where=where)
    if not isinstance(observation, Observation):
        raise _Stop(Failure(*where, "engine-error", "an Observation",
                            f"observe() returned {type(observation).__name__}", ()))
    return observation


def _rejected_deal(engine: Engine, round_case: RoundCase, number: int) -> None:
    what = f"deal of round {number}"
    try:
        engine.start_round(round_case.hands, round_case.direction)
    except EngineRejection as error:
        rule = named_rule(error)
        if rule and rule[0] != round_case.rejected_by:
            raise _Stop(Failure(number, None, what, "rejection", round_case.rejected_by, rule[0],
                                (round_case.rejected_by,), str(error))) from None
        return
    except ENGINE_ERRORS as error:
        raise _Stop(Failure(number, None, what, "engine-error", "a rejection", failure_text(error),
                            (round_case.rejected_by,))) from None
    raise _Stop(Failure(number, None, what, "accepted", f"rejected by {round_case.rejected_by}", "accepted",
                        (round_case.rejected_by,), "the deal breaks the rule, the engine must refuse it"))


def _apply(engine: Engine, step: Step) -> None:
    if step.kind == "play":
        engine.play(step.card)
    else:
        engine.pass_cards(step.seat, CardSet(step.cards))


def _apply_shadow(shadow: Game, step: Step) -> Game:
    return shadow.play(step.card) if step.kind == "play" else shadow.choose_pass(step.seat, CardSet(step.cards))


def _step(engine: Engine, shadow: Game, step: Step, number: int, index: int, single_round: bool) -> Game:
    where = (number, index, step.text())
    if step.rejected_by is not None:
        before = _observe(engine, where)
        try:
            _apply(engine, step)
        except EngineRejection as error:
            rule = named_rule(error)
            if rule and rule[0] != step.rejected_by:
                raise _Stop(Failure(*where, "rejection", step.rejected_by, rule[0], (step.rejected_by,),
                                    str(error))) from None
        except ENGINE_ERRORS as error:
            raise _Stop(Failure(*where, "engine-error", "a rejection", failure_text(error),
                                (step.rejected_by,))) from None
        else:
            raise _Stop(Failure(*where, "accepted", f"rejected by {step.rejected_by}", "accepted",
                                (step.rejected_by,), "an illegal step was accepted"))
        after = _observe(engine, where)
        if after != before:
            raise _Stop(Failure(*where, "state", before.to_dict(), after.to_dict(), (step.rejected_by,),
                                "a rejected step changed the state"))
        return shadow
    try:
        _apply(engine, step)
    except EngineRejection as error:
        rules = named_rule(error) or step_rules(shadow, step)
        raise _Stop(Failure(*where, "rejection", "accepted", f"rejected: {error}", rules,
                            "a legal step was refused")) from None
    except ENGINE_ERRORS as error:
        raise _Stop(Failure(*where, "engine-error", "no error", failure_text(error),
                            step_rules(shadow, step))) from None
    after = _on_reference(lambda: _apply_shadow(shadow, step), where)
    _compare_step(engine, shadow, after, step, where, single_round)
    return after


def _on_reference(action: Callable[[], Game], where: tuple[int, int | None, str]) -> Game:
    """Replay a step of the case on the reference; a case the reference itself refuses is reported, not raised."""
    try:
        return action()
    except HeartsError as error:
        raise _Stop(Failure(*where, "case", "a step the rules allow", f"the reference refuses it: {error}",
                            named_rule(EngineRejection(str(error))),
                            "the case is not valid for these rules (a damaged vector file?)")) from None


def _compare_step(engine: Engine, before: Game, after: Game, step: Step, where: tuple[int, int | None, str],
                  single_round: bool) -> None:
    """Compare what the engine shows after a legal step with the step's expectations.

    An engine that plays one round per game may say ``game-over`` where the case says ``round-over``.
    """
    expect = step.expect
    if expect is None:
        return
    obs = _observe(engine, where)
    rules = before.rules

    def differ(field: str, expected: Any, actual: Any, rule_ids: tuple[str, ...], message: str = "") -> None:
        if expected != actual:
            raise _Stop(Failure(*where, field, expected, actual, rule_ids, message))

    if not (single_round and {expect.phase, obs.phase} == {"round-over", "game-over"}):
        differ("phase", expect.phase, obs.phase, _phase_rules(expect.phase, obs.phase))
    if expect.trick_winner is not None and expect.phase == "play":
        differ("trick_winner", expect.trick_winner, obs.to_move, ("TRICK-WINNER", "LEAD-WINNER"),
               "the winner of the trick leads the next one")
    opening = before.round is not None and before.round.passing and expect.phase == "play"
    if expect.phase != "pass":   # while passing every seat chooses at once (PASS-SIMULTANEOUS)
        differ("to_move", expect.to_move, obs.to_move, ("LEAD-OPEN",) if opening else ("TRICK-ORDER",))
    # hearts broken first: the legal set of a leader depends on it (LEAD-HEARTS)
    if expect.hearts_broken is not None:
        # the rule of the card that (did not) break them: the Q♠ has its own (BREAK-QUEEN)
        queen = step.kind == "play" and str(step.card) == "QS"
        differ("hearts_broken", expect.hearts_broken, obs.hearts_broken,
               ("BREAK-QUEEN",) if queen else ("BREAK-DISCARD",))
    if expect.legal is not None:
        legal = _call(engine.legal_plays, where=where)
        legal = legal if isinstance(legal, CardSet) else _call(CardSet, legal, where=where)
        if legal != expect.legal:
            state = after.round
            differ("legal", expect.legal, legal, legal_set_rules(state, expect.legal, legal),
                   f"seat {expect.to_move}")
    if expect.points_taken is not None:
        differ("points_taken", expect.points_taken, tuple(obs.points_taken), _points_rules(rules))


def _round_end(engine: Engine, round_case: RoundCase, number: int) -> None:
    expected = round_case.result
    if expected is None:
        return
    where = (number, None, f"end of round {number}")
    obs = _observe(engine, where)
    rules = ("SCORE-MOON",) if expected.moon is not None else ("SCORE-POINTS", "SCORE-MOON", "SCORE-NO-TRICKS")
    for field, want, got, rule_ids in (
            ("points", expected.points, tuple(obs.points_taken), ("SCORE-POINTS", "SCORE-JACK")),
            ("round_scores", expected.scores, None if obs.round_scores is None else tuple(obs.round_scores), rules),
            ("totals", expected.totals, tuple(obs.totals), ("SCORE-TOTAL",))):
        if want != got:
            raise _Stop(Failure(*where, field, want, got, rule_ids))


def _final(engine: Engine, case: Case, rounds: int, single_round: bool) -> None:
    final = case.final
    if final is None:
        return
    where = (rounds, None, "end of the case")
    obs = _observe(engine, where)
    checks = [("totals", final.totals, tuple(obs.totals), ("SCORE-TOTAL",))]
    if not (single_round and not final.game_over):
        tie = ("WIN-TIE",) if case.rules.ties == "play-on" or len(final.winners) > 1 else ()
        checks += [("game_over", final.game_over, obs.game_over, ("END-THRESHOLD",) + tie),
                   ("winners", final.winners, tuple(obs.winners), ("WIN-LOWEST", "WIN-TIE"))]
    for field, want, got, rule_ids in checks:
        if want != got:
            raise _Stop(Failure(*where, field, want, got, rule_ids))


def _phase_rules(expected: str, actual: str) -> tuple[str, ...]:
    if {expected, actual} == {"round-over", "game-over"}:
        return ("END-THRESHOLD",)
    if "pass" in (expected, actual):
        return ("PASS-SIMULTANEOUS", "PASS-CYCLE")
    return ("DEAL-HANDS", "TRICK-ORDER")


def _points_rules(rules: Any) -> tuple[str, ...]:
    return ("SCORE-POINTS", "SCORE-JACK") if rules.jd_bonus else ("SCORE-POINTS",)


def _show(value: Any) -> str:
    if isinstance(value, CardSet):
        return f"[{value}]"
    return repr(value)


def _plain(value: Any) -> Any:
    if isinstance(value, CardSet):
        return [str(c) for c in value]
    if isinstance(value, tuple):
        return list(value)
    return value
