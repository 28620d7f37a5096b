"""Running the catalogue: every invariant under every preset (and combination), proved or refuted.

:func:`run_catalogue` is what ``hearts-ref prove`` and the ``verify`` job call::

    run_catalogue(presets=None, *, deep=False, timeout=60.0, legality=legal_plays,
                  confirm=True, progress=None, jobs=1) -> list[ProofResult]

``presets`` defaults to every preset. The fast tier (``deep=False``) runs the
per-context proofs (:mod:`properties.contexts`); ``deep=True`` adds the inductive proof
(:mod:`properties.induction`). A refutation of a "some player can play" claim is
confirmed by replaying it on the engine from a deal (:mod:`properties.replay`);
``confirm=False`` skips that (for tests of the prover itself). :func:`run_combinations`
proves the per-context catalogue for every variant combination of the registry.

>>> result = prove_context("FIRST-TRICK-NO-DEADLOCK", Rules.preset("seed001"), Session(timeout=30))
>>> result.status, result.matches
('refuted', True)
>>> print(result.counterexample.text().splitlines()[1])
  hand: Q♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ (13 cards)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from hearts_ref.legality import legal_plays
from hearts_ref.variants import PRESETS, Rules
from properties.catalogue import BY_ID, INVARIANTS, expected_outcome, not_applicable
from properties.contexts import Claim, claims_for
from properties.counterexamples import Counterexample, from_model, is_stuck, simplest_stuck_hand
from properties.induction import all_claims
from properties.replay import confirm_on_engine, find_replay
from properties.results import ProofResult, all_match
from properties.solving import (
    ERROR, NOT_APPLICABLE, PROVED, REFUTED, UNCONFIRMED, Answer, Prover, prove_schemas, worst,
)

__all__ = ["Session", "run_catalogue", "prove_context", "prove_inductive", "all_match", "Progress"]

Progress = Callable[[int, int, str], None]


class Session:
    """A prover and the results already found, shared by the proofs of one run.

    A per-context result depends only on the invariant's declared parameters, so it is
    proved once per distinct projection of the rules and reused (say, by seed000 and seed002).
    """

    def __init__(self, *, timeout: float = 60.0, legality: Any = legal_plays, confirm: bool = True):
        self.prover = Prover(timeout=timeout)
        self.legality = legality
        self.confirm = confirm
        self._results: dict[tuple[Any, ...], tuple[str, Rules, ProofResult]] = {}
        schemas = prove_schemas(self.prover, [3 * n for n in (3, 4, 5, 6)] + [3, 4, 5, 6])
        self.schemas_status = worst(a.status for a in schemas.values())

    def projection(self, invariant_id: str, rules: Rules) -> tuple[Any, ...]:
        return (invariant_id, *(getattr(rules, p) for p in BY_ID[invariant_id].parameters))


def _stuck_counterexample(session: Session, invariant_id: str, claim: Claim, rules: Rules) -> Counterexample | None:
    """The simplest hand z3 finds stuck in ``claim``'s situation (largest first: the shortest replay)."""
    situation, hand = claim.situation, claim.hand
    for size in range(situation.max_cards, situation.min_cards - 1, -1):
        answer = session.prover.check(claim.hypotheses + (hand.count() == size,), claim.goal)
        if answer.status == REFUTED:
            found = from_model(invariant_id, claim.label, claim.shown, answer.model, context=situation.ctx, hand=hand)
            simplest = simplest_stuck_hand(found.hand, lambda mask: _fits(mask, situation, rules),
                                           is_stuck(session.legality, situation.ctx, rules), rules)
            return Counterexample(invariant_id, claim.label, (("hand", simplest),), situation.ctx, simplest)
    return None


def _fits(mask: int, situation: Any, rules: Rules) -> bool:
    return (situation.min_cards <= mask.bit_count() <= situation.max_cards and mask & situation.holds == situation.holds
            and not mask & situation.lacks and not mask & ~rules.deck_mask)


def _confirmed(session: Session, rules: Rules, example: Counterexample) -> Counterexample | None:
    replay = find_replay(rules, example.hand, example.context)
    if replay is None or confirm_on_engine(rules, replay) is not None:
        return None
    return example.with_replay(replay)


def _refutation(session: Session, invariant_id: str, rules: Rules,
                refuted: list[tuple[Claim, Answer]]) -> tuple[str, tuple[Counterexample, ...]]:
    """The status and counterexamples of refuted claims: refuted once one replays on the engine, else unconfirmed.

    Each refuted context gives its own counterexample; those that no deal reaches are
    kept with a note, after the confirmed ones.
    """
    confirmed, unreached = [], []
    for claim, answer in refuted:
        if claim.situation is None:
            confirmed.append(from_model(invariant_id, claim.label, claim.shown, answer.model))
            continue
        example = _stuck_counterexample(session, invariant_id, claim, rules)
        if example is None:
            continue
        found, reached = _confirm_or_note(session, rules, example)
        (confirmed if reached else unreached).append(found)
    return (REFUTED if confirmed else UNCONFIRMED), tuple(confirmed + unreached)


UNREACHED = "no deal and plays reaching it were found (bounded search): this context may be unreachable"


def _confirm_or_note(session: Session, rules: Rules, example: Counterexample) -> tuple[Counterexample, bool]:
    """Return the counterexample replayed on the engine and True, or it noted as not reached and False."""
    replayed = _confirmed(session, rules, example) if session.confirm else example
    if replayed is not None:
        return replayed, True
    return Counterexample(example.invariant, example.where, example.sets, example.context, example.hand,
                          notes=(UNREACHED,)), False


def prove_context(invariant_id: str, rules: Rules, session: Session, *, label: str = "") -> ProofResult:
    """Prove ``invariant_id`` per context under ``rules``: proved, refuted (with a counterexample) or worse."""
    label = label or _label(rules)
    expected = expected_outcome(invariant_id, rules)
    key = session.projection(invariant_id, rules)
    if key in session._results:
        first_label, first_rules, result = session._results[key]
        # A proof is the same for rules that agree on the invariant's parameters; a refutation is
        # replayed on the engine under each set of rules, so it is worked out again (z3 answers from its cache).
        if result.status not in (REFUTED, UNCONFIRMED) or first_rules == rules:
            return replace(result, rules=label, expected=expected, seconds=0.0, queries=0, changes=rules.changes(),
                           shared_with=first_label, detail=f"the same proof as {first_label} "
                                                           f"(same {', '.join(BY_ID[invariant_id].parameters)})")
    start = time.perf_counter()
    reason = not_applicable(invariant_id, rules)
    if reason:
        result = ProofResult(invariant_id, label, "context", NOT_APPLICABLE, expected, 0.0, 0, detail=reason,
                             changes=rules.changes())
    else:
        answers = [(claim, session.prover.check(claim.hypotheses, claim.goal))
                   for claim in claims_for(invariant_id, rules, session.legality)]
        status = worst([a.status for _, a in answers] + [session.schemas_status])
        examples: tuple[Counterexample, ...] = ()
        detail = ""
        refuted = [(c, a) for c, a in answers if a.status == REFUTED]
        if refuted:
            status, examples = _refutation(session, invariant_id, rules, refuted)
            detail = f"{len(refuted)} of {len(answers)} contexts refuted"
        elif status != PROVED:
            detail = "; ".join(f"{c.label}: {a.reason}" for c, a in answers if a.status != PROVED)
        result = ProofResult(invariant_id, label, "context", status, expected, time.perf_counter() - start,
                             len(answers), examples, detail, rules.changes())
    session._results.setdefault(key, (label, rules, result))
    return result


def prove_inductive(rules: Rules, session: Session, *, label: str = "") -> list[ProofResult]:
    """Prove the inductive invariant under ``rules``; return one result per invariant it establishes.

    Every lemma, deal, step and cover claim must be proved for Inv to be inductive; if one
    is not, each result is an error (or timed out) naming it. Then an invariant is proved
    when its consequences are; a state where Inv holds and no play is legal refutes
    LEGAL-MOVE-EXISTS once it is replayed on the engine, as in :func:`prove_context`.
    """
    label = label or _label(rules)
    start = time.perf_counter()
    shared: list[tuple[Any, Answer]] = []
    consequences: dict[str, list[tuple[Any, Answer]]] = {}
    seconds: dict[str, float] = {}
    for claim in all_claims(rules, session.legality):
        before = time.perf_counter()
        answer = session.prover.check(claim.hypotheses, claim.goal)
        seconds[claim.invariant] = seconds.get(claim.invariant, 0.0) + time.perf_counter() - before
        if claim.kind in ("exists", "end"):
            owners = [claim.invariant] + (["LEGAL-MOVE-EXISTS"] if claim.invariant == "FIRST-TRICK-NO-DEADLOCK" else [])
            for owner in owners:
                consequences.setdefault(owner, []).append((claim, answer))
        else:
            shared.append((claim, answer))
    points = prove_context("POINTS-PER-ROUND", rules, session, label=label)
    results = []
    for invariant in INVARIANTS:
        if "inductive" not in invariant.methods:
            continue
        own = consequences.get(invariant.id, [])
        problems = [(c, a) for c, a in shared + own if a.status != PROVED and c.kind != "exists"]
        refuted = [(c, a) for c, a in own if a.status == REFUTED and c.kind == "exists"]
        examples: tuple[Counterexample, ...] = ()
        if session.schemas_status != PROVED:
            status, detail = ERROR, "the per-card lemma schemas are not proved"
        elif problems:
            claim, answer = problems[0]
            status = ERROR if answer.status == REFUTED else worst(a.status for _, a in problems)
            detail = f"Inv is not shown inductive: {claim.kind} claim {claim.label!r}: {answer.status} {answer.reason}"
        elif refuted:
            status, examples = _inductive_refutation(session, invariant.id, rules, refuted)
            detail = f"{len(refuted)} cases without a legal play"
        else:
            status, detail = worst([PROVED] + [a.status for _, a in own]), ""
            if invariant.id == "POINTS-PER-ROUND":
                status, examples = worst([status, points.status]), points.counterexamples
        queries = len(own) + sum(1 for c, _ in shared if c.invariant == invariant.id)
        results.append(ProofResult(invariant.id, label, "inductive", status, expected_outcome(invariant.id, rules),
                                   seconds.get(invariant.id, 0.0), queries, examples, detail, rules.changes()))
    total = time.perf_counter() - start
    return [replace(r, detail=(r.detail + "; " if r.detail else "") + f"whole inductive proof {total:.1f}s")
            if r.invariant == "LEGAL-MOVE-EXISTS" else r for r in results]


def _inductive_refutation(session: Session, invariant_id: str, rules: Rules,
                          refuted: list[tuple[Any, Answer]]) -> tuple[str, tuple[Counterexample, ...]]:
    """Like :func:`_refutation`, for cases of the inductive proof where Inv holds and no play is legal."""
    confirmed, unreached = [], []
    for claim, answer in refuted:
        state, case = claim.state, claim.case
        shown = [("hand of the player to move", state.hands[case.position])]
        shown += [(f"card of seat +{j} on the trick", state.plays[j]) for j in range(case.position)]
        tricks = answer.model.eval(state.tricks, model_completion=True)
        where = f"{claim.label} ({tricks} tricks done; the size, trick and opening parts of Inv hold)"
        example = from_model(invariant_id, where, tuple(shown), answer.model, context=case.context,
                             hand=state.hands[case.position])
        found, reached = _confirm_or_note(session, rules, example)
        (confirmed if reached else unreached).append(found)
    return (REFUTED if confirmed else UNCONFIRMED), tuple(confirmed + unreached)


_CONTEXT_INVARIANTS = sum(1 for i in INVARIANTS if "context" in i.methods)


def _label(rules: Rules) -> str:
    for name in PRESETS:
        if Rules.preset(name) == rules:
            return name
    return ",".join(f"{k}={v}" for k, v in rules.changes().items()) or "default"


def _inductive_job(args: tuple[Rules, str, float, Any, bool]) -> list[ProofResult]:
    rules, label, timeout, legality, confirm = args
    return prove_inductive(rules, Session(timeout=timeout, legality=legality, confirm=confirm), label=label)


def run_catalogue(presets: Sequence[str] | None = None, *, deep: bool = False, timeout: float = 60.0,
                  legality: Any = legal_plays, confirm: bool = True, progress: Progress | None = None,
                  jobs: int = 1) -> list[ProofResult]:
    """Return the result of every invariant under every preset in ``presets`` (all presets by default).

    The per-context proofs always run; ``deep`` adds the inductive proof (presets with
    equal rules are proved once; ``jobs`` > 1 runs them in that many processes).
    ``timeout`` is per z3 query, in seconds.
    """
    names = list(PRESETS) if presets is None else list(presets)
    for name in names:
        if name not in PRESETS:
            raise KeyError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    session = Session(timeout=timeout, legality=legality, confirm=confirm)
    contexts = _CONTEXT_INVARIANTS * len(names)
    total = contexts + (len(names) if deep else 0)
    results = _context_results([(name, Rules.preset(name)) for name in names], session, progress, total)
    if deep:
        results += _run_inductive(names, timeout, legality, confirm, progress, contexts, total, jobs)
    return results


def run_rules(rules: Rules, *, label: str = "", deep: bool = False, timeout: float = 60.0,
              legality: Any = legal_plays, confirm: bool = True, progress: Progress | None = None) -> list[ProofResult]:
    """Return the result of every invariant under one set of ``rules`` (a house rule, say).

    The same proofs as :func:`run_catalogue`, for rules that need not be a preset. ``label``
    names the rules in the results (default: the preset they equal, else their changes).
    """
    session = Session(timeout=timeout, legality=legality, confirm=confirm)
    label = label or _label(rules)
    total = _CONTEXT_INVARIANTS + (1 if deep else 0)
    results = _context_results([(label, rules)], session, progress, total)
    if deep:
        results += prove_inductive(rules, session, label=label)
        if progress:
            progress(total, total, f"{label} inductive")
    return results


def _context_results(targets: list[tuple[str, Rules]], session: Session, progress: Progress | None,
                     total: int) -> list[ProofResult]:
    """The per-context proof of every invariant, for each (label, rules) of ``targets``."""
    todo = [(i.id, label, rules) for label, rules in targets for i in INVARIANTS if "context" in i.methods]
    results: list[ProofResult] = []
    for done, (invariant_id, label, rules) in enumerate(todo, 1):
        results.append(prove_context(invariant_id, rules, session, label=label))
        if progress:
            progress(done, total, f"{label} {invariant_id}: {results[-1].status}")
    return results


def _run_inductive(names: list[str], timeout: float, legality: Any, confirm: bool, progress: Progress | None,
                   done: int, total: int, jobs: int) -> list[ProofResult]:
    distinct: dict[Rules, list[str]] = {}
    for name in names:
        distinct.setdefault(Rules.preset(name), []).append(name)
    jobs_args = [(rules, group[0], timeout, legality, confirm) for rules, group in distinct.items()]
    found: list[list[ProofResult]] = []
    if jobs > 1 and len(jobs_args) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for args, results in zip(jobs_args, pool.map(_inductive_job, jobs_args)):
                found.append(results)
                done += len(distinct[args[0]])
                if progress:
                    progress(done, total, f"{args[1]} inductive: {_summary(results)}")
    else:
        for args in jobs_args:
            found.append(_inductive_job(args))
            done += len(distinct[args[0]])
            if progress:
                progress(done, total, f"{args[1]} inductive: {_summary(found[-1])}")
    results = []
    for (rules, group), proved in zip(distinct.items(), found):
        for name in group:
            for r in proved:
                same = name != group[0]
                results.append(replace(r, rules=name, seconds=0.0 if same else r.seconds,
                                       shared_with=group[0] if same else "",
                                       detail=f"the same rules as {group[0]}" if same else r.detail))
    order = {name: i for i, name in enumerate(names)}
    return sorted(results, key=lambda r: order[r.rules])


def _summary(results: list[ProofResult]) -> str:
    return ", ".join(sorted({r.status for r in results}))
