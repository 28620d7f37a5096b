"""Asking z3: claims over symbolic card sets, answered proved, refuted, vacuous, timed out or error.

A :class:`Claim` is *hypotheses ⇒ goal*. :meth:`Prover.check` asks z3 for a model of the
hypotheses and the negated goal: none (``unsat``) proves the claim, a model refutes it and
is kept as the counterexample, ``unknown`` after the per-query timeout is reported as
timed out. A proof says something only if its hypotheses can hold: every proved claim's
hypotheses are checked satisfiable, and a claim whose hypotheses cannot hold is
*vacuous*, a failure, unless the claim declares them impossible and says why
(``Claim.impossible``); then it is counted as impossible, and it is a failure if they
can hold after all. Identical questions (z3 shares equal terms, so equal formulas have
equal ids) are asked once.

The proofs use ``z3.Tactic("smt").solver()``: sums of card counts need it (the default
solver gives up on them), together with per-card lemmas such as :func:`count_split`,
each proved once as a schema by :func:`prove_schemas`.

>>> from hearts_ref import Rules
>>> prover = Prover(timeout=10)
>>> hand = card_variables("hand", Rules())
>>> prover.check(Claim("a full hand", (hand.count() == 13,), hand.count() >= 13)).status
'proved'
>>> prover.check(Claim("no hand", (hand.count() == 60,), hand.count() >= 13)).status
'vacuous'
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from hearts_ref.symbolic import SYMBOLIC, SymbolicCardSet, all_of, any_of, as_z3, implies, int_sum, negation, union_of
from hearts_ref.variants import Rules

__all__ = ["PROVED", "REFUTED", "UNCONFIRMED", "VACUOUS", "IMPOSSIBLE", "TIMED_OUT", "ERROR", "NOT_APPLICABLE",
           "STATUSES", "Answer", "Claim", "Prover", "card_variables", "one_card", "as_z3", "subset", "same_cards",
           "exactly_one_place", "exactly_one_place_by_card", "count_split", "count_union", "count_exchange", "one_place_count", "prove_schemas", "worst"]

PROVED = "proved"
REFUTED = "refuted"
UNCONFIRMED = "unconfirmed"   # z3 refuted the claim, but no play from a deal reached the counterexample
VACUOUS = "vacuous"           # the hypotheses cannot hold, and the claim did not declare them impossible
IMPOSSIBLE = "impossible"     # the hypotheses cannot hold, as the claim declares (with its reason)
TIMED_OUT = "timed out"
ERROR = "error"
NOT_APPLICABLE = "n/a"
STATUSES = (PROVED, REFUTED, UNCONFIRMED, VACUOUS, TIMED_OUT, ERROR, NOT_APPLICABLE)
# How bad an outcome is, when several queries make one result.
_SEVERITY = {NOT_APPLICABLE: 0, IMPOSSIBLE: 1, PROVED: 1, TIMED_OUT: 2, ERROR: 3, VACUOUS: 4, UNCONFIRMED: 5,
             REFUTED: 6}


def worst(statuses: Iterable[str]) -> str:
    """Return the most telling of several statuses: refuted beats vacuous beats error beats timed out beats proved."""
    found = max(statuses, key=_SEVERITY.__getitem__, default=NOT_APPLICABLE)
    return PROVED if found == IMPOSSIBLE else found


@dataclass(frozen=True)
class Claim:
    """One claim: ``hypotheses`` ⇒ ``goal``, with what to show of a refutation.

    ``impossible`` declares that the hypotheses cannot hold, and says why (a sentence);
    ``situation`` and ``hand`` are set for claims about the hand of a player to move.
    """

    label: str
    hypotheses: tuple[Any, ...]
    goal: Any
    shown: tuple[tuple[str, Any], ...] = ()
    situation: Any = None
    hand: SymbolicCardSet | None = None
    impossible: str = ""
    data: Any = None          # what the maker of the claim needs to read a refutation (a context, a case)
    witness: tuple[tuple[Any, Any], ...] = ()   # (variable, value) pairs of a real case the hypotheses should fit


@dataclass(frozen=True)
class Answer:
    """z3's answer to one claim: the status, the time it took, and the model of a refutation."""

    status: str
    seconds: float
    model: z3.ModelRef | None = field(default=None, compare=False)
    reason: str = ""


class Prover:
    """Asks z3 claims with a per-query timeout (seconds), each distinct question once."""

    def __init__(self, *, timeout: float = 60.0):
        self.timeout = timeout
        self.queries = 0
        # The formulas are kept with their answers: z3 term ids are unique only while the terms live.
        self._answers: dict[tuple[int, ...], tuple[Answer, tuple[Any, ...]]] = {}

    def check(self, claim: Claim) -> Answer:
        """Return whether the claim's hypotheses imply its goal, and that they can hold (see the module doc)."""
        hypotheses = [as_z3(h) for h in claim.hypotheses]
        answer = self._cached(hypotheses, as_z3(claim.goal))
        if answer.status != PROVED:
            return answer
        if claim.witness and not claim.impossible and _fits(hypotheses, claim.witness):
            return answer                      # a real case satisfies the hypotheses: the proof says something
        possible = self._cached(hypotheses, z3.BoolVal(False))
        if possible.status == PROVED:          # nothing satisfies the hypotheses
            if claim.impossible:
                return Answer(IMPOSSIBLE, answer.seconds + possible.seconds, reason=claim.impossible)
            return Answer(VACUOUS, answer.seconds + possible.seconds,
                          reason="its hypotheses cannot hold, so the proof says nothing")
        if possible.status != REFUTED:
            return possible
        if claim.impossible:
            return Answer(ERROR, answer.seconds, reason=f"declared impossible ({claim.impossible}), but its "
                                                       "hypotheses can hold")
        return answer

    def holds(self, hypotheses: Sequence[Any], goal: Any) -> Answer:
        """Whether ``hypotheses`` imply ``goal``, without the vacuity check (for lemmas and schemas)."""
        return self._cached([as_z3(h) for h in hypotheses], as_z3(goal))

    def _cached(self, hypotheses: list[Any], goal: Any) -> Answer:
        key = (goal.get_id(), *sorted({h.get_id() for h in hypotheses}))
        if key not in self._answers:
            self._answers[key] = (self._ask(hypotheses, goal), (goal, *hypotheses))
        return self._answers[key][0]

    def _ask(self, hypotheses: list[z3.BoolRef], goal: z3.BoolRef) -> Answer:
        self.queries += 1
        solver = _solver_for(hypotheses, goal)
        solver.set("timeout", max(1, int(self.timeout * 1000)))
        solver.add(*hypotheses)
        if not z3.is_false(goal):
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


def _fits(hypotheses: list[Any], witness: tuple[tuple[Any, Any], ...]) -> bool:
    """Whether the hypotheses hold of the values ``witness`` gives their variables (a real state, say)."""
    together = as_z3(all_of(hypotheses))
    pairs = [(var, z3.BitVecVal(value, var.size()) if z3.is_bv(var) else z3.IntVal(value) if z3.is_int(var)
              else z3.BoolVal(value)) for var, value in witness]
    # One substitution of their conjunction (its terms shared), not one per hypothesis: with every variable given a
    # value, each conjunct is a closed term the simplifier evaluates, so the conjunction is True exactly when each is.
    return z3.is_true(z3.simplify(z3.substitute(together, *pairs)))


_BITS_ONLY = z3.Probe("is-qfbv")


def _solver_for(hypotheses: list[z3.BoolRef], goal: z3.BoolRef) -> z3.Solver:
    """A bit-blasting SAT solver for claims about card sets only; z3's SMT core when they count cards (integers)."""
    if z3.is_false(goal):          # is there a model at all: z3's default solver finds one fastest
        return z3.Solver()
    question = z3.Goal()
    question.add(*hypotheses, goal)
    if _BITS_ONLY(question) == 1.0:
        return z3.Then("simplify", "solve-eqs", "bit-blast", "sat").solver()
    return z3.Tactic("smt").solver()


def card_variables(name: str, rules: Rules) -> SymbolicCardSet:
    """Return a symbolic set of the cards in play: a z3 Boolean per card (``{name}_QS``), False for removed cards."""
    return SymbolicCardSet.variables(name, rules.deck_mask)


def one_card(cards: SymbolicCardSet) -> Any:
    """The claim that ``cards`` holds exactly one card: not empty, and no card left once its lowest is taken away."""
    if cards.known is not None:
        return cards.known.bit_count() == 1
    term = cards.term
    return z3.And(term != 0, term & (term - 1) == 0)


def subset(a: SymbolicCardSet | int, b: SymbolicCardSet | int) -> Any:
    """The claim that every card of ``a`` is in ``b``."""
    a = a if isinstance(a, SymbolicCardSet) else SymbolicCardSet(a)
    return (a & ~(b if isinstance(b, SymbolicCardSet) else SymbolicCardSet(b))).is_empty_bit()


def same_cards(a: SymbolicCardSet | int, b: SymbolicCardSet | int) -> Any:
    """The claim that ``a`` and ``b`` hold the same cards."""
    return (a if isinstance(a, SymbolicCardSet) else SymbolicCardSet(a)).same_as(b)


def exactly_one_place(places: Sequence[SymbolicCardSet], cards: int) -> list[Any]:
    """The claims that each card of the mask ``cards`` is in exactly one of ``places``: no two places share a
    card, and together they hold every card of ``cards`` and no other."""
    places = [p if isinstance(p, SymbolicCardSet) else SymbolicCardSet(p) for p in places]

    def build() -> list[Any]:
        claims = [(places[a] & places[b]).is_empty_bit() for a in range(len(places)) for b in range(a + 1, len(places))]
        together = union_of(places)
        claims.append(together.same_as(cards) if isinstance(together, SymbolicCardSet) else together == cards)
        return [c for c in claims if c is not True]
    return list(_once(("one_place",) + tuple(sorted(_ids(places), key=str)) + (cards,), tuple(places), build))


def exactly_one_place_by_card(places: Sequence[SymbolicCardSet], cards: int) -> list[Any]:
    """The same claims card by card (a pseudo-Boolean constraint each), as the counting lemmas need them."""
    return [_exactly_one([place.contains(i) for place in places]) for i in _CARDS if cards >> i & 1]


def _exactly_one(bits: Sequence[Any]) -> Any:
    known = sum(1 for b in bits if b is True)
    free = [(b, 1) for b in bits if not isinstance(b, bool)]
    return z3.PbEq(free, 1 - known) if free else z3.BoolVal(known == 1)


_CARDS = range(2 * 52)   # every card index, both decks' (DECK-CARDS): a mask of one deck has no bit above 51


def _width(*sets: Any) -> int:
    """How many cards the sets range over: 52, or 104 when one is a two-deck set."""
    return max((s.size for s in sets if isinstance(s, SymbolicCardSet)), default=52)


def _indicator(bit: Any) -> Any:
    if isinstance(bit, bool):
        return int(bit)
    return SYMBOLIC.when(bit, 1, 0).term


_MADE: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _once(key: tuple[Any, ...], keep: tuple[Any, ...], build: Any) -> Any:
    """The value ``build()`` gives, made once per key (term ids; the terms are kept, so the ids stay theirs)."""
    if key not in _MADE:
        if len(_MADE) > 20000:
            _MADE.clear()
        _MADE[key] = (keep, build())
    return _MADE[key][1]


def _ids(sets: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(s.term.get_id() if isinstance(s, SymbolicCardSet) and s.known is None else
                 ("mask", s.known if isinstance(s, SymbolicCardSet) else s) for s in sets)


def count_split(whole: SymbolicCardSet, part: SymbolicCardSet) -> tuple[SymbolicCardSet, list[Any]]:
    """Return ``whole`` without ``part``, and per-card lemmas: each card counts in ``whole`` as in the rest plus in ``part``.

    For a ``part`` within ``whole`` (which the claim must assume): card by card, ``part``'s card is one of
    ``whole``'s (implied by that), and so, by the schema :func:`prove_schemas` proves, [rest] = [whole] − [part].
    Summed, they give ``|whole| = |rest| + |part|``, which z3 does not find alone. The equalities are
    given as they are, not as implications, so that z3 sums them without splitting cases.
    """
    rest = whole & ~part

    def build() -> list[Any]:
        premises, lemmas = [], []
        for i in range(_width(whole, part)):
            w, p, r = whole.contains(i), part.contains(i), rest.contains(i)
            if not all(isinstance(b, bool) for b in (w, p, r)):
                premises.append(implies(p, w))
                lemmas.append(_indicator(r) == _indicator(w) - _indicator(p))
        return premises + lemmas
    return rest, _once(("count_split",) + _ids([whole, part]), (whole, part), build)


def count_union(a: SymbolicCardSet, b: SymbolicCardSet) -> tuple[SymbolicCardSet, list[Any]]:
    """Return ``a | b``, and per-card lemmas [a ∨ b] = [a] + [b] − [a ∧ b] (schema proved by :func:`prove_schemas`)."""
    union = a | b
    lemmas = []
    for i in range(_width(a, b)):
        x, y, u = a.contains(i), b.contains(i), union.contains(i)
        if not all(isinstance(v, bool) for v in (x, y, u)):
            lemmas.append(_indicator(u) == _indicator(x) + _indicator(y) - _indicator(all_of([x, y])))
    return union, lemmas


def count_exchange(hand: SymbolicCardSet, given: SymbolicCardSet, received: SymbolicCardSet) -> tuple[SymbolicCardSet, list[Any]]:
    """Return ``hand`` less ``given`` with ``received``, and per-card lemmas: for ``given`` within ``hand`` and
    ``received`` outside it (which the claim must assume), card by card those facts (implied by them), and so
    [after] = [hand] − [given] + [received] (schema of :func:`prove_schemas`)."""
    after = (hand & ~given) | received
    premises, lemmas = [], []
    for i in range(_width(hand, given, received)):
        h, g, r, a = hand.contains(i), given.contains(i), received.contains(i), after.contains(i)
        if not all(isinstance(b, bool) for b in (h, g, r, a)):
            premises += [implies(g, h), negation(all_of([r, h]))]
            lemmas.append(_indicator(a) == _indicator(h) - _indicator(g) + _indicator(r))
    return after, premises + lemmas


def one_place_count(places: Sequence[SymbolicCardSet], cards: int) -> list[Any]:
    """Per-card lemmas for places that share out ``cards`` (which the claim must assume): card by card, it is in
    exactly one place (implied by that), and so it is counted once over them all (schema of :func:`prove_schemas`)."""
    lemmas = []
    for i in _CARDS:
        if cards >> i & 1:
            bits = [place.contains(i) for place in places]
            lemmas += [_exactly_one(bits), int_sum([_indicator(b) for b in bits]) == 1]
    return lemmas


def prove_schemas(prover: Prover, sizes: Iterable[int]) -> dict[str, Answer]:
    """Prove the per-card lemma schemas on fresh variables, so that their instances may be assumed.

    ``count_split``: [w ∧ ¬p] = [w] − [p] when p implies w.
    ``count_union``: [a ∨ b] = [a] + [b] − [a ∧ b].
    ``count_exchange``: [(h ∧ ¬g) ∨ r] = [h] − [g] + [r] when g implies h and not both r and h.
    ``one_place_count``: [x₁] + … + [xₙ] = 1 when exactly one xᵢ holds, for each ``n`` in ``sizes``.
    """
    w, p, q = z3.Bools("schema_whole schema_part schema_received")
    rest = z3.And(w, z3.Not(p))
    answers = {"count_split": prover.holds([], z3.Implies(z3.Implies(p, w),
                                                        z3.If(rest, 1, 0) == z3.If(w, 1, 0) - z3.If(p, 1, 0))),
               "count_union": prover.holds([], z3.If(z3.Or(w, p), 1, 0)
                                           == z3.If(w, 1, 0) + z3.If(p, 1, 0) - z3.If(z3.And(w, p), 1, 0)),
               "count_exchange": prover.holds([z3.Implies(p, w), z3.Not(z3.And(q, w))],
                                              z3.If(z3.Or(z3.And(w, z3.Not(p)), q), 1, 0)
                                              == z3.If(w, 1, 0) - z3.If(p, 1, 0) + z3.If(q, 1, 0))}
    for n in sorted(set(sizes)):
        xs = [z3.Bool(f"schema_place_{j}") for j in range(n)]
        answers[f"one_place_count/{n}"] = prover.holds(
            [], z3.Implies(z3.PbEq([(x, 1) for x in xs], 1), z3.Sum([z3.If(x, 1, 0) for x in xs]) == 1))
    return answers


