"""Running the catalogue: every invariant under every preset (and combination), proved or refuted.

:func:`run_catalogue` is what ``hearts-ref prove`` and the ``verify`` job call::

    run_catalogue(presets=None, *, deep=False, timeout=60.0, legality=None,
                  confirm=True, progress=None, jobs=None) -> list[ProofResult]

``presets`` defaults to every preset. The fast tier (``deep=False``) runs the per-context
proofs (:mod:`properties.contexts`, :mod:`properties.refinement`, :mod:`properties.transitions`)
and the game-level ones (:mod:`properties.termination`); ``deep=True`` adds the inductive
proof (:mod:`properties.induction`). Every claim's hypotheses are checked satisfiable
(:mod:`properties.solving`). A refutation about a hand is replayed on the engine from a
deal (:mod:`properties.replay`); ``confirm=False`` skips that (for tests of the prover
itself). ``legality`` replaces the engine's ``legal_plays`` in the claims that take it (for
tests that hand the proofs a broken rule).

>>> result = prove_context("FIRST-TRICK-NO-DEADLOCK", Rules.preset("seed001"), Session(timeout=30))
>>> result.status, result.matches
('refuted', True)
>>> print(result.counterexample.text().splitlines()[1])
  hand: Q♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ (13 cards)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from hearts_ref.variants import PRESETS, Rules
from properties.catalogue import BY_ID, INVARIANTS, expected_outcome, not_applicable
from properties.counterexamples import Counterexample, from_model, is_stuck, simplest_stuck_hand, stuck_counterexample
from properties import findings as refutations
from properties.parallel import default_jobs, in_background
from properties.results import ProofResult, all_match
from properties.solving import (
    ERROR, IMPOSSIBLE, NOT_APPLICABLE, PROVED, REFUTED, UNCONFIRMED, VACUOUS, Answer, Claim, Prover, prove_schemas,
    worst,
)

__all__ = ["Session", "run_catalogue", "run_rules", "prove_context", "prove_inductive", "all_match", "Progress",
           "claims_of"]

Progress = Callable[[int, int, str], None]


class Session:
    """A prover and the results already found, shared by the proofs of one run.

    A per-context result depends only on the invariant's declared parameters, so it is
    proved once per distinct projection of the rules and reused (say, by seed000 and seed002).
    """

    def __init__(self, *, timeout: float = 60.0, legality: Any = None, confirm: bool = True):
        self.prover = Prover(timeout=timeout)
        self.legality = legality
        self.confirm = confirm
        self._results: dict[tuple[Any, ...], tuple[str, Rules, ProofResult]] = {}
        self._replays: dict[tuple[Any, ...], Any] = {}
        self._unbroken: dict[Rules, bool] = {}
        schemas = prove_schemas(self.prover, [3 * n for n in (3, 4, 5, 6)] + [3, 4, 5, 6])
        self.schemas_status = worst(a.status for a in schemas.values())

    def replay(self, rules: Rules, hand: int, ctx: Any) -> Any:
        """A deal and plays that reach ``hand`` to play in ``ctx`` (``find_replay``), searched once per run: the search is
        seeded, so its answer depends on these three alone (several shapes and leaders refute with the same hand)."""
        key = (rules, hand, ctx)
        if key not in self._replays:
            from properties.replay import find_replay
            self._replays[key] = find_replay(rules, hand, ctx)
        return self._replays[key]

    def unreachable(self, rules: Rules, ctx: Any) -> bool:
        """Whether no round reaches ``ctx``, proved: the first trick with hearts broken, where no legal play of the
        first trick breaks them (:func:`properties.reach.hearts_stay_unbroken`, asked once per rules). Never when the
        legality under test is not the engine's (the engine's own plays are what reach a context)."""
        if self.legality is not None or not (ctx.first_trick and ctx.hearts_broken and not ctx.leading):
            return False
        if rules not in self._unbroken:
            from properties.reach import hearts_stay_unbroken
            self._unbroken[rules] = hearts_stay_unbroken(rules, self.prover)
        return self._unbroken[rules]

    def legal_plays(self) -> Any:
        """The legality under test: the one given, else the engine's ``legal_plays`` (looked up now)."""
        if self.legality is not None:
            return self.legality
        from hearts_ref import legality
        return legality.legal_plays

    def projection(self, invariant_id: str, rules: Rules) -> tuple[Any, ...]:
        return (invariant_id, *(getattr(rules, p) for p in BY_ID[invariant_id].parameters))


def claims_of(invariant_id: str, rules: Rules, session: Session) -> list[Claim]:
    """The claims that prove ``invariant_id`` per context under ``rules``."""
    from properties.contexts import claims_for
    return claims_for(invariant_id, rules, session.legal_plays())


def _stuck_counterexample(session: Session, invariant_id: str, claim: Claim, rules: Rules) -> Counterexample | None:
    """The simplest hand z3 finds stuck in ``claim``'s situation (largest first: the shortest replay)."""
    situation, hand = claim.situation, claim.hand
    for size in range(situation.max_cards, situation.min_cards - 1, -1):
        answer = session.prover.holds(claim.hypotheses + (hand.count() == size,), claim.goal)
        if answer.status == REFUTED:
            found = from_model(invariant_id, claim.label, claim.shown, answer.model, context=situation.ctx, hand=hand)
            simplest = simplest_stuck_hand(found.hand, lambda mask: _fits(mask, situation, rules),
                                           is_stuck(session.legal_plays(), situation.ctx, rules), rules)
            return stuck_counterexample(invariant_id, claim.label, simplest, situation.ctx, rules, session.legality)
    return None


def _fits(mask: int, situation: Any, rules: Rules) -> bool:
    return (situation.min_cards <= mask.bit_count() <= situation.max_cards and mask & situation.holds == situation.holds
            and not mask & situation.lacks and not mask & ~rules.deck_mask)


def _refutation(session: Session, invariant_id: str, rules: Rules,
                refuted: list[tuple[Claim, Answer]]) -> tuple[str, tuple[Counterexample, ...]]:
    """The status and counterexamples of refuted claims: refuted once one replays on the engine, else unconfirmed.

    Each refuted context gives its own counterexample; those that no deal reaches are
    kept with a note, after the confirmed ones. Claims about no particular hand (scores,
    tricks, the setup) are refuted by the concrete values z3 found.
    """
    confirmed, unreached, unreachable = [], [], []
    for claim, answer in refuted:
        if claim.situation is None:
            confirmed.append(from_model(invariant_id, claim.label, claim.shown, answer.model))
            continue
        if claim.data is None:
            example = _stuck_counterexample(session, invariant_id, claim, rules)
            if example is None:
                continue
            found, reached = refutations.confirm_stuck(session, rules, example)
        else:
            found, reached = refutations.confirm_play(session, invariant_id, rules, claim, answer)
        (confirmed if reached else unreachable if refutations.proved_unreachable(found) else unreached).append(found)
    if not confirmed and not unreached and unreachable:   # refuted only where no round goes: proved
        return PROVED, tuple(unreachable)
    return (REFUTED if confirmed else UNCONFIRMED), tuple(confirmed + unreached + unreachable)


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
        claims = claims_of(invariant_id, rules, session)
        answers = [(claim, session.prover.check(claim)) for claim in claims]
        result = _judged(invariant_id, rules, session, label, expected, answers, time.perf_counter() - start)
    session._results.setdefault(key, (label, rules, result))
    return result


def _judged(invariant_id: str, rules: Rules, session: Session, label: str, expected: str,
            answers: list[tuple[Claim, Answer]], seconds: float) -> ProofResult:
    """The result of one invariant's claims: the worst status, the counterexamples, what was vacuous or impossible."""
    status = worst([a.status for _, a in answers] + [session.schemas_status])
    examples: tuple[Counterexample, ...] = ()
    details = []
    refuted = [(c, a) for c, a in answers if a.status == REFUTED]
    if refuted:
        status, examples = _refutation(session, invariant_id, rules, refuted)
        details.append(f"{len(refuted)} of {len(answers)} claims refuted")
        if status == PROVED:   # every refuted context is one no round reaches
            details[-1] += (f" by z3 alone, in contexts {refutations.NO_ROUND_REACHES} (proved): "
                            + "; ".join(e.where for e in examples))
            status = worst([a.status for _, a in answers if a.status != REFUTED] + [session.schemas_status])
            examples = ()
    elif status != PROVED:
        details += [f"{c.label}: {a.status}: {a.reason}" for c, a in answers if a.status not in (PROVED, IMPOSSIBLE)]
    impossible = [f"{c.label} ({a.reason})" for c, a in answers if a.status == IMPOSSIBLE]
    if impossible:
        details.append(f"{len(impossible)} context(s) declared impossible, their hypotheses unsatisfiable as stated: "
                       + "; ".join(impossible))
    vacuous = [c.label for c, a in answers if a.status == VACUOUS]
    if vacuous:
        details.append(f"vacuous (hypotheses unsatisfiable): {'; '.join(vacuous)}")
    return ProofResult(invariant_id, label, "context", status, expected, seconds, len(answers), examples,
                       "; ".join(details), rules.changes())


def prove_inductive(rules: Rules, session: Session, *, label: str = "") -> list[ProofResult]:
    """Prove the inductive invariant under ``rules``: one result per invariant it establishes (see
    :mod:`properties.induction`)."""
    from properties.induction import inductive_results
    return inductive_results(rules, session, label or _label(rules))


def prove_game(invariant_id: str, rules: Rules, session: Session, *, label: str = "") -> ProofResult:
    """Prove a game-level invariant (GAME-ENDS) under ``rules``, or refute it with a game that never ends."""
    from properties.termination import prove_game_ends
    label = label or _label(rules)
    key = session.projection(invariant_id, rules)
    if key in session._results:
        first_label, first_rules, result = session._results[key]
        if first_rules == rules or result.status == PROVED:
            return replace(result, rules=label, seconds=0.0, queries=0, changes=rules.changes(),
                           shared_with=first_label, expected=expected_outcome(invariant_id, rules))
    result = prove_game_ends(rules, session, label)
    session._results.setdefault(key, (label, rules, result))
    return result


def _label(rules: Rules) -> str:
    for name in PRESETS:
        if Rules.preset(name) == rules:
            return name
    return ",".join(f"{k}={v}" for k, v in rules.changes().items()) or "default"


def _inductive_unit(unit: tuple[Session, list[tuple[Rules, str]]]) -> list[list[ProofResult]]:
    session, targets = unit
    return [prove_inductive(rules, session, label=label) for rules, label in targets]


def _tier(invariant_id: str) -> str | None:
    methods = BY_ID[invariant_id].methods
    return "context" if "context" in methods else ("game" if "game" in methods else None)


def run_catalogue(presets: Sequence[str] | None = None, *, deep: bool = False, timeout: float = 60.0,
                  legality: Any = None, confirm: bool = True, progress: Progress | None = None,
                  jobs: int | None = None) -> list[ProofResult]:
    """Return the result of every invariant under every preset in ``presets`` (all presets by default).

    The per-context and game-level proofs always run; ``deep`` adds the inductive proof (presets with
    equal rules are proved once). With ``jobs`` > 1 (default: as many as there are cores) the inductive
    proofs are dealt out to that many processes, which run while this one proves the rest; the results
    do not depend on ``jobs``. ``timeout`` is per z3 query, in seconds.
    """
    names = list(PRESETS) if presets is None else list(presets)
    for name in names:
        if name not in PRESETS:
            raise KeyError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    session = Session(timeout=timeout, legality=legality, confirm=confirm)
    fast = _FAST_TIER * len(names)
    total = fast + (len(names) if deep else 0)
    distinct: dict[Rules, list[str]] = {}
    for name in names if deep else ():
        distinct.setdefault(Rules.preset(name), []).append(name)
    pending = _start_inductive(distinct, session, jobs or default_jobs())
    results = _fast_results([(name, Rules.preset(name)) for name in names], session, progress, total)
    if deep:
        results += _inductive(names, distinct, session, pending, progress, fast, total)
    return results


def run_rules(rules: Rules, *, label: str = "", deep: bool = False, timeout: float = 60.0,
              legality: Any = None, confirm: bool = True, progress: Progress | None = None) -> list[ProofResult]:
    """Return the result of every invariant under one set of ``rules`` (a house rule, say).

    The same proofs as :func:`run_catalogue`, for rules that need not be a preset. ``label``
    names the rules in the results (default: the preset they equal, else their changes).
    """
    session = Session(timeout=timeout, legality=legality, confirm=confirm)
    label = label or _label(rules)
    total = _FAST_TIER + (1 if deep else 0)
    results = _fast_results([(label, rules)], session, progress, total)
    if deep:
        results += prove_inductive(rules, session, label=label)
        if progress:
            progress(total, total, f"{label} inductive")
    return results


_FAST_TIER = sum(1 for i in INVARIANTS if _tier(i.id))


def _fast_results(targets: list[tuple[str, Rules]], session: Session, progress: Progress | None,
                  total: int) -> list[ProofResult]:
    """The per-context and game-level proof of every invariant, for each (label, rules) of ``targets``."""
    todo = [(i.id, label, rules) for label, rules in targets for i in INVARIANTS if _tier(i.id)]
    results: list[ProofResult] = []
    for done, (invariant_id, label, rules) in enumerate(todo, 1):
        prove = prove_game if _tier(invariant_id) == "game" else prove_context
        results.append(prove(invariant_id, rules, session, label=label))
        if progress:
            progress(done, total, f"{label} {invariant_id}: {results[-1].status}")
    return results


def _start_inductive(distinct: dict[Rules, list[str]], session: Session,
                     jobs: int) -> list[tuple[list[tuple[Rules, str]], Callable[[], Any]]]:
    """With ``jobs`` > 1, the inductive proofs of the distinct rules dealt out to that many processes
    (:mod:`properties.parallel`), started now: each unit of rules, and what waits for its results."""
    targets = [(rules, group[0]) for rules, group in distinct.items()]
    count = min(jobs, len(targets))
    if count <= 1:
        return []
    units = [targets[k::count] for k in range(count)]
    return [(unit, in_background(_inductive_unit, (session, unit))) for unit in units]


def _inductive(names: list[str], distinct: dict[Rules, list[str]], session: Session,
               pending: list[tuple[list[tuple[Rules, str]], Callable[[], Any]]], progress: Progress | None,
               done: int, total: int) -> list[ProofResult]:
    """The inductive proof of each distinct preset: those started in other processes, or else proved here with the
    session's prover (the claims that several presets share are answered once)."""
    if not pending:
        pending = [([target], lambda target=target: _inductive_unit((session, [target])))
                   for target in [(rules, group[0]) for rules, group in distinct.items()]]
    proved_by: dict[Rules, list[ProofResult]] = {}
    for unit, waiting in pending:
        for (rules, label), results in zip(unit, waiting()):
            proved_by[rules] = results
            done += len(distinct[rules])
            if progress:
                progress(done, total, f"{label} inductive: {_summary(results)}")
    found = [proved_by[rules] for rules in distinct]
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


