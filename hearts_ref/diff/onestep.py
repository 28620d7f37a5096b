"""One-step differences: per play context, z3 looks for a hand on which the two sides' rule code disagrees.

For every context a play can have (:func:`properties.contexts.situations`: leading or following
each suit, the first trick or a later one, hearts broken or not, with the hand sizes and
cards that context allows) three questions are asked of the engine's rule functions run on
the z3 card-set algebra, with the hand (and the card played) symbolic:

- ``legal``: are the legal sets of the two sides equal for every such hand?
- ``broken``: with hearts unbroken, does every card legal on both sides break hearts on both or on neither?
- ``points``: does every card legal there count the same points on both sides?

and, once, ``scores``: do the round scores agree for every division of the cards in play into
the piles the players take? A question whose two formulas are the same z3 terms (the sides
agree on every parameter the rule reads) is answered without a query.

The situations contain every state a round can reach, and more; so "proved" for every
context covers every reachable state, while a refutation is only a *candidate*: a hand, a
context and the earliest play at which such a state could occur. :mod:`hearts_ref.diff.reach`
then looks for a real game that reaches it. Contexts that z3 proves no round can reach are
left out, with the reason: the first trick with hearts broken when no legal first-trick play
breaks them, and following a suit with hearts unbroken when every legal lead of it breaks them.

>>> from hearts_ref import Rules
>>> from properties.solving import Prover
>>> found = one_step(Rules(), Rules.preset("seed001"), Prover(timeout=30))
>>> first = found.lowest(found.candidates[0])
>>> first.kind, first.earliest, str(CardSet.from_mask(first.hand))
('legal', 2, 'QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH')
"""

from __future__ import annotations

from typing import Any, NamedTuple

import z3

from hearts_ref.cards import Suit
from hearts_ref.cardset import BITS, SUIT_MASKS, CardSet
from hearts_ref.diff.semantics import ENGINE, Semantics
from hearts_ref.symbolic import SYMBOLIC, SymbolicBit, SymbolicCardSet, SymbolicNumber
from hearts_ref.variants import Rules
from properties.contexts import Situation, hand_claims, situations
from properties.solving import (
    PROVED, REFUTED, Prover, as_z3, card_variables, exactly_one_place, one_place_count, same_cards, subset,
)

__all__ = ["Formulas", "Candidate", "ContextAnswer", "OneStep", "one_step", "play_situations", "score_question", "identical", "SAME", "UNREACHABLE"]

S = SYMBOLIC
SAME = "same"                 # the two formulas are the same z3 terms: no query needed
UNREACHABLE = "unreachable"   # no round reaches the context (proved)


class Candidate(NamedTuple):
    """A one-step difference z3 found: the kind, the context, a hand showing it, and the earliest play it can show at.

    ``earliest`` counts plays from the start of the round: a state of this context with a hand
    of this size can come no sooner (leading trick ``t`` is play ``n·t + 1``, following it
    ``n·t + 2``; points show when the trick is complete). ``card`` is the play that shows a
    ``broken`` or ``points`` difference.
    """

    kind: str
    situation: Situation
    size: int
    earliest: int
    hand: int
    card: int | None = None

    def describe(self) -> str:
        card = "" if self.card is None else f", playing {CardSet.from_mask(1 << self.card).glyphs()}"
        return f"{self.kind}: {self.situation.describe()}: hand {CardSet.from_mask(self.hand).glyphs()}{card}"


class ContextAnswer(NamedTuple):
    """The answer to one question in one context: ``same``, ``proved``, ``refuted``, ``unreachable`` or worse."""

    kind: str
    situation: Situation
    status: str
    queries: int
    detail: str = ""


class OneStep(NamedTuple):
    """Every answer, and the candidates (refuted questions, with the hand z3 found), earliest first.

    :meth:`lowest` gives a candidate with its lowest card and hand: the same whatever z3 met before
    (worked out only for the candidates a game is searched for, as it takes a few queries).
    """

    answers: tuple[ContextAnswer, ...]
    candidates: tuple[Candidate, ...]
    asker: Any = None

    def lowest(self, candidate: Candidate) -> Candidate:
        return self.asker.lowest(candidate)

    @property
    def queries(self) -> int:
        return sum(answer.queries for answer in self.answers)

    def open(self) -> tuple[ContextAnswer, ...]:
        """The answers that are neither equal nor refuted: timed out or an error."""
        return tuple(a for a in self.answers if a.status not in (SAME, PROVED, REFUTED, UNREACHABLE))


def _plain(value: Any) -> Any:
    """A symbolic number or bit of the rule code as its z3 term; any other value as it is."""
    return as_z3(value) if isinstance(value, (SymbolicNumber, SymbolicBit)) else value


def identical(x: Any, y: Any) -> bool:
    """Whether two values of the rule code are the same: equal Python values, or the same z3 terms bit by bit."""
    if isinstance(x, SymbolicCardSet) and isinstance(y, SymbolicCardSet):
        return all(identical(a, b) for a, b in zip(x.bits, y.bits))
    x, y = _plain(x), _plain(y)
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        return len(x) == len(y) and all(identical(a, b) for a, b in zip(x, y))
    if isinstance(x, z3.ExprRef) and isinstance(y, z3.ExprRef):
        return x.eq(y)
    return not isinstance(x, z3.ExprRef) and not isinstance(y, z3.ExprRef) and type(x) is type(y) and x == y


def _earliest(kind: str, situation: Situation, size: int, rules: Rules) -> int:
    n, ctx = rules.players, situation.ctx
    tricks_before = rules.hand_size - size
    if kind == "points":
        return n * (tricks_before + 1)
    if ctx.leading:
        return n * tricks_before + 1
    # Hearts broken on the first trick: a follower broke them, so this follower plays third or later.
    return n * tricks_before + (3 if ctx.first_trick and ctx.hearts_broken else 2)


class Formulas:
    """The symbolic hand and card, and the rule code's formulas on them, built once per context and ruleset.

    Building a formula costs more than asking z3 about it; a :class:`~hearts_ref.diff.compare.Comparer`
    keeps one of these per number of players for all its comparisons.
    """

    def __init__(self, rules: Rules, semantics: Semantics = ENGINE):
        self.semantics = semantics
        self.hand = card_variables("hand", rules)
        self.card = card_variables("card", rules)
        self._memo: dict[Any, Any] = {}

    def _once(self, key: Any, build: Any) -> Any:
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    def legal(self, ctx: Any, rules: Rules) -> Any:
        return self._once(("legal", ctx, rules), lambda: self.semantics.legal_plays(self.hand, ctx, rules, S))

    def playable(self, ctx: Any, rules: Rules) -> Any:
        """The claim that the card is one of the legal plays."""
        return self._once(("playable", ctx, rules), lambda: subset(self.card, self.legal(ctx, rules)))

    def breaks(self, ctx: Any, rules: Rules) -> Any:
        return self._once(("breaks", ctx, rules), lambda: self.semantics.breaks_hearts(self.card, ctx, rules, S))

    def points(self, rules: Rules) -> Any:
        return self._once(("points", rules), lambda: self.semantics.card_points(self.card, rules, S))

    def hand_claims(self, situation: Situation) -> list[Any]:
        return list(self._once(("claims", situation), lambda: tuple(hand_claims(self.hand, situation))))

    def one_card(self) -> Any:
        return self._once("one card", lambda: self.card.count() == 1)

    def size(self, size: int) -> Any:
        return self._once(("size", size), lambda: self.hand.count() == size)


class _Asker:
    """Asks the questions of one comparison."""

    def __init__(self, a: Rules, b: Rules, prover: Prover, formulas: Formulas):
        self.a, self.b, self.prover, self.sem, self.f = a, b, prover, formulas.semantics, formulas

    def legal(self, situation: Situation, rules: Rules, hand: int) -> int:
        return self.sem.legal_plays(hand, situation.ctx, rules, BITS)

    def values(self, kind: str, situation: Situation) -> tuple[Any, Any]:
        """The two sides' values for ``kind`` in ``situation``: legal sets, hearts broken, or a card's points."""
        a, b, ctx, f = self.a, self.b, situation.ctx, self.f
        if kind == "legal":
            return f.legal(ctx, a), f.legal(ctx, b)
        if kind == "broken":
            return f.breaks(ctx, a), f.breaks(ctx, b)
        return f.points(a), f.points(b)

    def hypotheses(self, kind: str, situation: Situation) -> list[Any]:
        """What the hand of ``situation`` is (and, but for ``legal``, that the card is a legal play on both sides)."""
        claims = self.f.hand_claims(situation)
        if kind == "legal":
            return claims
        return claims + [self.f.one_card(), self.f.playable(situation.ctx, self.a),
                         self.f.playable(situation.ctx, self.b)]

    def differs(self, kind: str, situation: Situation, hand: int, card: int | None) -> bool:
        """The same question on concrete masks: does ``hand`` (playing ``card``) show the difference?"""
        a, b, ctx = self.a, self.b, situation.ctx
        legal_a, legal_b = self.legal(situation, a, hand), self.legal(situation, b, hand)
        if kind == "legal":
            return legal_a != legal_b
        bit = 1 << card
        if not legal_a & legal_b & bit:
            return False
        if kind == "broken":
            return bool(self.sem.breaks_hearts(bit, ctx, a)) != bool(self.sem.breaks_hearts(bit, ctx, b))
        return self.sem.card_points(bit, a) != self.sem.card_points(bit, b)

    def ask(self, kind: str, situation: Situation) -> tuple[ContextAnswer, Candidate | None]:
        value_a, value_b = self.values(kind, situation)
        if identical(value_a, value_b):
            return ContextAnswer(kind, situation, SAME, 0), None
        hypotheses = self.hypotheses(kind, situation)
        goal = same_cards(value_a, value_b) if kind == "legal" else _equal(value_a, value_b)
        answer = self.prover.holds(hypotheses, goal)
        if answer.status != REFUTED:
            return ContextAnswer(kind, situation, answer.status, 1, answer.reason), None
        queries = 1
        for size in range(situation.max_cards, situation.min_cards - 1, -1):   # largest hand: earliest trick
            queries += 1
            sized = self.prover.holds(hypotheses + [self.f.size(size)], goal)
            if sized.status == REFUTED:
                return ContextAnswer(kind, situation, REFUTED, queries), self._candidate(kind, situation, size,
                                                                                          sized.model)
        return ContextAnswer(kind, situation, REFUTED, queries, "no hand size refuted alone"), None

    def lowest(self, candidate: Candidate) -> Candidate:
        """``candidate`` with the lowest card and hand that show it (see :meth:`_lowest`)."""
        value_a, value_b = self.values(candidate.kind, candidate.situation)
        goal = same_cards(value_a, value_b) if candidate.kind == "legal" else _equal(value_a, value_b)
        hypotheses = self.hypotheses(candidate.kind, candidate.situation)
        model = self._lowest(hypotheses + [self.f.size(candidate.size)], goal, candidate.kind)
        if model is None:
            return candidate
        return self._candidate(candidate.kind, candidate.situation, candidate.size, model)

    def _lowest(self, hypotheses: list[Any], goal: Any, kind: str) -> z3.ModelRef | None:
        """The refutation with the lowest card, then the lowest hand (the highest card as low as can be, then the
        next …): one answer whatever z3 met before, so the same comparison always finds the same game.

        Bits are fixed from the highest card down, each to False when a refutation allows it; a bit the
        current model already has False costs no query.
        """
        solver = z3.Tactic("smt").solver()
        solver.set("timeout", max(1, int(self.prover.timeout * 1000)))
        solver.add(*[as_z3(h) for h in hypotheses], z3.Not(as_z3(goal)))
        if solver.check() != z3.sat:
            return None
        model, fixed = solver.model(), []
        value = lambda bit: z3.is_true(model.eval(bit, model_completion=True))   # noqa: E731
        if kind != "legal":
            bits = [b for b in self.f.card.bits if not isinstance(b, bool)]
            while True:
                chosen = next(k for k, b in enumerate(bits) if value(b))
                solver.push()
                solver.add(z3.Or(bits[:chosen]) if chosen else z3.BoolVal(False))
                lower = solver.check() == z3.sat
                if lower:
                    model = solver.model()
                solver.pop()
                if not lower:
                    fixed.append(bits[chosen])
                    break
        for bit in reversed(self.f.hand.bits):
            if isinstance(bit, bool):
                continue
            if value(bit) and solver.check(*fixed, z3.Not(bit)) == z3.sat:
                model = solver.model()
            fixed.append(bit if value(bit) else z3.Not(bit))
        return model

    def _candidate(self, kind: str, situation: Situation, size: int, model: z3.ModelRef) -> Candidate:
        hand = self.f.hand.evaluate(model)
        card = None
        if kind != "legal":
            card = (self.f.card.evaluate(model) & hand).bit_length() - 1
        # The same question on integer masks, as the engine plays: z3's answer must show there too.
        assert self.differs(kind, situation, hand, card), "the rule code disagrees with itself on the two algebras"
        return Candidate(kind, situation, size, _earliest(kind, situation, size, self.a), hand, card)


def one_step(a: Rules, b: Rules, prover: Prover, formulas: Formulas | None = None) -> OneStep:
    """Ask the ``legal``, ``broken`` and ``points`` questions in every context; return the answers and candidates.

    ``a`` and ``b`` have the same number of players (so the same contexts and hand sizes);
    ``formulas`` (for that number of players) may be shared between comparisons.
    """
    asker = _Asker(a, b, prover, formulas or Formulas(a))
    answers: list[ContextAnswer] = []
    candidates: list[Candidate] = []
    chosen = play_situations(a, b)
    unreachable = _unreachable(asker, chosen)
    for situation in chosen:
        ctx = situation.ctx
        if situation in unreachable:
            for kind in ("legal", "points"):
                answers.append(ContextAnswer(kind, situation, UNREACHABLE, 0, unreachable[situation]))
            continue
        for kind in ("legal", "broken", "points"):
            if kind == "broken" and ctx.hearts_broken:
                continue   # broken stays broken on both sides (BREAK-DISCARD)
            answer, candidate = asker.ask(kind, situation)
            answers.append(answer)
            if candidate is not None:
                candidates.append(candidate)
    candidates.sort(key=lambda c: (c.earliest, ("legal", "broken", "points").index(c.kind)))
    return OneStep(tuple(answers), tuple(candidates), asker)


def _breakers(asker: _Asker, ctx: Any, cards: int) -> tuple[int, int]:
    """Of ``cards``, those whose play in ``ctx`` breaks hearts on some side, and those that break them on neither
    (each card evaluated with the engine's ``breaks_hearts``)."""
    some = 0
    for card in range(52):
        bit = 1 << card
        if cards & bit and any(asker.sem.breaks_hearts(bit, ctx, rules) for rules in (asker.a, asker.b)):
            some |= bit
    return some, cards & ~some


def _unreachable(asker: _Asker, chosen: tuple[Situation, ...]) -> dict[Situation, str]:
    """The contexts no round both sides play can reach, each with the reason.

    - the first trick with hearts broken, when no legal play on the first trick breaks hearts;
    - following a suit on a later trick with hearts unbroken, when every legal lead of that suit
      breaks them (on both sides; a lead that breaks them on one side only is a difference itself).

    Each claim is settled by the engine's ``breaks_hearts`` card by card when no card (or every card)
    breaks hearts there, and by z3, with legality, when only some do.
    """
    f, prover, found = asker.f, asker.prover, {}
    deck = asker.a.deck_mask
    first = next(s for s in chosen if s.ctx.first_trick and not s.ctx.leading and not s.ctx.hearts_broken)
    breaking, _ = _breakers(asker, first.ctx, deck)
    if not breaking or not any(
            prover.holds(f.hand_claims(first) + [f.one_card(), f.playable(first.ctx, rules)],
                         z3.Not(as_z3(f.breaks(first.ctx, rules)))).status != PROVED for rules in (asker.a, asker.b)):
        reason = "no legal play on the first trick breaks hearts, on either side (proved)"
        found.update({s: reason for s in chosen if s.ctx.first_trick and s.ctx.hearts_broken})
    lead = next(s for s in chosen if s.ctx.leading and not s.ctx.first_trick and not s.ctx.hearts_broken)
    for suit in Suit:
        breaking, keeping = _breakers(asker, lead.ctx, deck & SUIT_MASKS[suit])
        if not breaking:
            continue
        if keeping:
            hypotheses = f.hand_claims(lead) + [f.one_card(), f.playable(lead.ctx, asker.a),
                                               f.playable(lead.ctx, asker.b), subset(f.card, SUIT_MASKS[suit])]
            goal = z3.Or(as_z3(f.breaks(lead.ctx, asker.a)), as_z3(f.breaks(lead.ctx, asker.b)))
            if prover.holds(hypotheses, goal).status != PROVED:
                continue
        reason = f"every legal lead of a {suit.glyph} while hearts are unbroken breaks them (proved)"
        found.update({s: reason for s in chosen if not s.ctx.leading and not s.ctx.first_trick
                      and not s.ctx.hearts_broken and s.ctx.led_suit == suit})
    return found


def play_situations(a: Rules, b: Rules) -> tuple[Situation, ...]:
    """The contexts of :func:`properties.contexts.situations`, where a later trick's hand lacks the lowest club.

    LEAD-OPEN: the first trick is opened with the lowest club in play, so no hand holds it after
    the first trick — unless both sides let the opener lead any club (where only one does, the
    sides part at the first lead already, and every later state they share had the lowest club led).
    """
    low = 0 if a.can_lead_any_club and b.can_lead_any_club else 1 << a.lowest_club.index
    return tuple(s if s.ctx.first_trick else s._replace(lacks=s.lacks | low) for s in situations(a))


def score_question(a: Rules, b: Rules, prover: Prover, semantics: Semantics = ENGINE) -> tuple[str, int]:
    """Do the round scores (and raw points) agree for every division of the cards in play into taken piles?

    Returns the status (``same``, ``proved``, ``refuted`` …) and the number of z3 queries.
    """
    taken = [card_variables(f"taken{seat}", a) for seat in range(a.players)]
    points_a, scores_a = semantics.score_terms(taken, a, S)
    points_b, scores_b = semantics.score_terms(taken, b, S)
    if identical(points_a, points_b) and identical(scores_a, scores_b):
        return SAME, 0
    hypotheses = exactly_one_place(taken, a.deck_mask) + one_place_count(taken, a.deck_mask)
    goal = z3.And([_equal(x, y) for x, y in zip(points_a + scores_a, points_b + scores_b)])
    return prover.holds(hypotheses, goal).status, 1


def _equal(x: Any, y: Any) -> Any:
    """The claim that two values of the rule code are equal (a z3 Boolean, or a constant)."""
    x, y = _plain(x), _plain(y)
    if isinstance(x, z3.ExprRef) or isinstance(y, z3.ExprRef):
        if isinstance(x, bool) or isinstance(y, bool) or z3.is_bool(x if isinstance(x, z3.ExprRef) else y):
            return as_z3(x) == as_z3(y)
        return x == y
    return z3.BoolVal(x == y)
