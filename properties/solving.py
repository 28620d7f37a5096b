"""Asking z3: claims over symbolic card sets, answered proved, refuted, timed out or error.

A claim is *hypotheses ⇒ goal*; z3 looks for a model of the hypotheses and the negated
goal. None (``unsat``) proves the claim; a model refutes it and is kept as the
counterexample; ``unknown`` after the per-query timeout is reported as timed out.
Identical claims (z3 shares equal terms, so equal formulas have equal ids) are asked once.

The proofs use ``z3.Tactic("smt").solver()``: sums of card counts need it (the
default solver gives up on them), together with per-card lemmas such as
:func:`count_split`, each proved once as a schema by :func:`prove_schemas`.

>>> from hearts_ref import Rules
>>> prover = Prover(timeout=10)
>>> hand = card_variables("hand", Rules())
>>> prover.check([hand.count() == 13], hand.count() >= 13).status
'proved'
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from hearts_ref.symbolic import SYMBOLIC, SymbolicCardSet
from hearts_ref.variants import Rules

__all__ = ["PROVED", "REFUTED", "UNCONFIRMED", "TIMED_OUT", "ERROR", "NOT_APPLICABLE", "STATUSES",
           "Answer", "Prover", "card_variables", "as_z3", "subset", "same_cards", "exactly_one_place",
           "count_split", "count_union", "one_place_count", "prove_schemas", "worst"]

PROVED = "proved"
REFUTED = "refuted"
UNCONFIRMED = "unconfirmed"   # z3 refuted the claim, but no play from a deal reached the counterexample
TIMED_OUT = "timed out"
ERROR = "error"
NOT_APPLICABLE = "n/a"
STATUSES = (PROVED, REFUTED, UNCONFIRMED, TIMED_OUT, ERROR, NOT_APPLICABLE)
# How bad an outcome is, when several queries make one result.
_SEVERITY = {NOT_APPLICABLE: 0, PROVED: 1, TIMED_OUT: 2, ERROR: 3, UNCONFIRMED: 4, REFUTED: 5}


def worst(statuses: Iterable[str]) -> str:
    """Return the most telling of several statuses: refuted beats error beats timed out beats proved."""
    return max(statuses, key=_SEVERITY.__getitem__, default=NOT_APPLICABLE)


@dataclass(frozen=True)
class Answer:
    """z3's answer to one claim: the status, the time it took, and the model of a refutation."""

    status: str
    seconds: float
    model: z3.ModelRef | None = field(default=None, compare=False)
    reason: str = ""


class Prover:
    """Asks z3 claims with a per-query timeout (seconds), each distinct claim once."""

    def __init__(self, *, timeout: float = 60.0):
        self.timeout = timeout
        self.queries = 0
        # The formulas are kept with their answers: z3 term ids are unique only while the terms live.
        self._answers: dict[tuple[int, ...], tuple[Answer, tuple[Any, ...]]] = {}

    def check(self, hypotheses: Sequence[Any], goal: Any) -> Answer:
        """Return whether ``hypotheses`` imply ``goal``."""
        hypotheses = [as_z3(h) for h in hypotheses]
        goal = as_z3(goal)
        key = (goal.get_id(), *sorted({h.get_id() for h in hypotheses}))
        if key not in self._answers:
            self._answers[key] = (self._ask(hypotheses, goal), (goal, *hypotheses))
        return self._answers[key][0]

    def _ask(self, hypotheses: list[z3.BoolRef], goal: z3.BoolRef) -> Answer:
        self.queries += 1
        solver = z3.Tactic("smt").solver()
        solver.set("timeout", max(1, int(self.timeout * 1000)))
        solver.add(*hypotheses)
        solver.add(z3.Not(goal))
        start = time.perf_counter()
        try:
            result = solver.check()
        except z3.Z3Exception as error:
            return Answer(ERROR, time.perf_counter() - start, reason=str(error))
        seconds = time.perf_counter() - start
        if result == z3.unsat:
            return Answer(PROVED, seconds)
        if result == z3.sat:
            return Answer(REFUTED, seconds, solver.model())
        reason = solver.reason_unknown()
        status = TIMED_OUT if "timeout" in reason or "canceled" in reason else ERROR
        return Answer(status, seconds, reason=f"z3 answered unknown: {reason}")


def as_z3(bit: Any) -> z3.BoolRef:
    """Return ``bit`` as a z3 Boolean (a Python bool becomes a constant)."""
    return z3.BoolVal(bit) if isinstance(bit, bool) else bit


def card_variables(name: str, rules: Rules) -> SymbolicCardSet:
    """Return a symbolic set of the cards in play: a z3 Boolean per card (``{name}_QS``), False for removed cards."""
    return SymbolicCardSet([z3.Bool(f"{name}_{i}") if rules.deck_mask >> i & 1 else False for i in range(52)])


def subset(a: SymbolicCardSet | int, b: SymbolicCardSet | int) -> Any:
    """The claim that every card of ``a`` is in ``b``."""
    return SYMBOLIC.is_empty(a & ~b)


def same_cards(a: SymbolicCardSet | int, b: SymbolicCardSet | int) -> Any:
    """The claim that ``a`` and ``b`` hold the same cards."""
    return SYMBOLIC.both(subset(a, b), subset(b, a))


def _exactly_one(bits: Sequence[Any]) -> Any:
    known = sum(1 for b in bits if b is True)
    free = [(b, 1) for b in bits if not isinstance(b, bool)]
    return z3.PbEq(free, 1 - known) if free else z3.BoolVal(known == 1)


def exactly_one_place(places: Sequence[SymbolicCardSet], cards: int) -> list[Any]:
    """The claims that each card of the mask ``cards`` is in exactly one of ``places``, one claim per card."""
    return [_exactly_one([place.bits[i] for place in places]) for i in range(52) if cards >> i & 1]


def _indicator(bit: Any) -> Any:
    return int(bit) if isinstance(bit, bool) else z3.If(bit, 1, 0)


def count_split(whole: SymbolicCardSet, part: SymbolicCardSet) -> tuple[SymbolicCardSet, list[Any]]:
    """Return ``whole`` without ``part``, and per-card lemmas: each card counts in ``whole`` as in the rest plus in ``part``.

    Each lemma is an instance of the schema proved by :func:`prove_schemas`, so it may be
    assumed; summed, they give ``|whole| = |rest| + |part|`` when ``part`` is within
    ``whole``, which z3 does not find alone.
    """
    rest = whole & ~part
    lemmas = []
    for w, p, r in zip(whole.bits, part.bits, rest.bits):
        if not all(isinstance(b, bool) for b in (w, p, r)):
            lemmas.append(z3.Implies(z3.Implies(as_z3(p), as_z3(w)),
                                     _indicator(r) == _indicator(w) - _indicator(p)))
    return rest, lemmas


def count_union(a: SymbolicCardSet, b: SymbolicCardSet) -> tuple[SymbolicCardSet, list[Any]]:
    """Return ``a | b``, and per-card lemmas [a ∨ b] = [a] + [b] − [a ∧ b] (schema proved by :func:`prove_schemas`)."""
    union = a | b
    lemmas = []
    for x, y, u in zip(a.bits, b.bits, union.bits):
        if not all(isinstance(v, bool) for v in (x, y, u)):
            lemmas.append(_indicator(u) == _indicator(x) + _indicator(y) - _indicator(SYMBOLIC.both(x, y)))
    return union, lemmas


def one_place_count(places: Sequence[SymbolicCardSet], cards: int) -> list[Any]:
    """Per-card lemmas: a card of ``cards`` that is in exactly one of ``places`` is counted once over them all.

    Instances of the schema proved by :func:`prove_schemas`.
    """
    lemmas = []
    for i in range(52):
        if cards >> i & 1:
            bits = [place.bits[i] for place in places]
            lemmas.append(z3.Implies(_exactly_one(bits), z3.Sum([_indicator(b) for b in bits]) == 1))
    return lemmas


def prove_schemas(prover: Prover, sizes: Iterable[int]) -> dict[str, Answer]:
    """Prove the per-card lemma schemas on fresh variables, so that their instances may be assumed.

    ``count_split``: [w ∧ ¬p] = [w] − [p] when p implies w.
    ``count_union``: [a ∨ b] = [a] + [b] − [a ∧ b].
    ``one_place_count``: [x₁] + … + [xₙ] = 1 when exactly one xᵢ holds, for each ``n`` in ``sizes``.
    """
    w, p = z3.Bools("schema_whole schema_part")
    rest = z3.And(w, z3.Not(p))
    answers = {"count_split": prover.check([], z3.Implies(z3.Implies(p, w),
                                                        z3.If(rest, 1, 0) == z3.If(w, 1, 0) - z3.If(p, 1, 0))),
               "count_union": prover.check([], z3.If(z3.Or(w, p), 1, 0)
                                           == z3.If(w, 1, 0) + z3.If(p, 1, 0) - z3.If(z3.And(w, p), 1, 0))}
    for n in sorted(set(sizes)):
        xs = [z3.Bool(f"schema_place_{j}") for j in range(n)]
        answers[f"one_place_count/{n}"] = prover.check(
            [], z3.Implies(z3.PbEq([(x, 1) for x in xs], 1), z3.Sum([z3.If(x, 1, 0) for x in xs]) == 1))
    return answers
