"""The strong form: an inductive invariant over the whole transition relation of a round.

The state of a round is modelled with every card set symbolic: the hands, the cards
each player has taken, the card each player has put on the trick in progress, the
number of finished tricks and whether hearts are broken. Seats are counted from the
leader of the current trick, so the player to move is seat ``position`` (the number of
cards on the trick) and the winner of a trick becomes seat 0 of the next.

The invariant *Inv* has five parts (:func:`invariant_parts`). The proof shows

1. the deal ⇒ Inv, in the state where the seat chosen by
   :func:`~hearts_ref.legality.opening_leader` leads (:func:`initial_claims`);
2. Inv ∧ a legal play ⇒ Inv after it, one claim per part and per *case* — the
   concrete context of the play and, when it ends a trick, the seat that wins it —
   with the transition built from the engine's rule functions: ``legal_plays``,
   ``breaks_hearts`` and ``trick_winner`` on the z3 algebra (:func:`step_claims`);
3. Inv ⇒ the player to move has a legal play, and at the end of the round the taken
   cards are exactly the cards in play, so POINTS-PER-ROUND's per-context proof applies
   (:func:`consequence_claims`).

So Inv holds in every reachable state, not only for plausible hand shapes. Small
lemmas are proved first and then assumed: a legal play is a card of the hand, the
first lead is an opening card, and the per-card counting schemas of
:mod:`properties.solving`. Claims are grouped by part and asked one at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import z3

from hearts_ref.cards import Suit
from hearts_ref.cardset import HEARTS, QUEEN, SUIT_MASKS
from hearts_ref.legality import Context, breaks_hearts, opening_leader, opening_leads
from hearts_ref.round import trick_winner
from hearts_ref.symbolic import SYMBOLIC, SymbolicCardSet
from hearts_ref.variants import Rules
from properties.solving import card_variables, count_split, exactly_one_place, subset

__all__ = ["State", "Case", "InductiveClaim", "PARTS", "invariant_parts", "cases", "step", "symbolic_state",
           "initial_claims", "step_claims", "consequence_claims", "lemma_claims", "all_claims"]

S = SYMBOLIC
EMPTY = SymbolicCardSet([False] * 52)

# Each part of Inv, the invariant it stands for, and the parts of the state before a play it needs.
PARTS = {
    "conservation": ("CARDS-CONSERVED", ("conservation", "trick")),
    "trick": ("LEGAL-MOVE-EXISTS", ("trick",)),
    "sizes": ("LEGAL-MOVE-EXISTS", ("sizes", "trick")),
    "opening": ("OPENING-LEAD", ("opening", "trick")),
    "broken": ("HEARTS-BREAK-ON-PLAY", ("broken", "trick")),
}


class State(NamedTuple):
    """A round's state with symbolic cards; seats are relative to the leader of the current trick."""

    hands: tuple[Any, ...]
    taken: tuple[Any, ...]
    plays: tuple[Any, ...]      # the card each seat has put on the current trick; empty if none yet
    position: int               # how many cards the trick holds: the seat to move
    tricks: Any                 # finished tricks (a z3 integer)
    broken: Any                 # hearts broken (bool or z3 Boolean)


class Case(NamedTuple):
    """The concrete part of a play: who plays, the suit led, first trick, hearts broken, and who wins if it ends a trick."""

    position: int
    led_suit: int | None
    first_trick: bool
    hearts_broken: bool
    winner: int | None

    @property
    def context(self) -> Context:
        return Context(self.position == 0, self.led_suit, self.first_trick, self.hearts_broken)

    def describe(self) -> str:
        what = "leading" if self.position == 0 else f"seat +{self.position} following {Suit(self.led_suit).glyph}"
        return (f"{what}, {'first' if self.first_trick else 'a later'} trick, hearts "
                f"{'broken' if self.hearts_broken else 'unbroken'}"
                + ("" if self.winner is None else f", seat +{self.winner} wins the trick"))


class InductiveClaim(NamedTuple):
    """One claim of the inductive proof, the invariant it serves, and the case it is about."""

    invariant: str
    kind: str                   # "lemma", "initial", "step", "cover", "exists", "end"
    label: str
    hypotheses: tuple[Any, ...]
    goal: Any
    case: Case | None = None
    state: State | None = None  # to read a counterexample from


def symbolic_state(rules: Rules, position: int, hearts_broken: Any) -> State:
    """Return a state with fresh variables for every card set and the number of finished tricks."""
    n = rules.players
    return State(tuple(card_variables(f"hand{j}", rules) for j in range(n)),
                 tuple(card_variables(f"taken{j}", rules) for j in range(n)),
                 tuple(card_variables(f"trick{j}", rules) for j in range(n)),
                 position, z3.Int("tricks"), hearts_broken)


def _played(state: State) -> Any:
    played: Any = 0
    for cards in state.taken + state.plays:
        played = played | cards
    return played


def invariant_parts(state: State, rules: Rules, *, only: str | None = None) -> Any:
    """Return Inv's five parts for ``state`` by name (or the one part named ``only``).

    conservation: every card in play is in exactly one hand, trick place or pile of taken cards.
    trick: the seats before ``position`` have put one card each on the trick, the others none.
    sizes: each hand holds ``hand_size`` − tricks cards, one fewer after its card is on the trick.
    opening: on the first trick, the leader holds the lowest club or has led an opening card.
    broken: once hearts are broken, a heart (or the Q♠ if it breaks them) is among the cards played.
    """
    n, size, k, tricks = rules.players, rules.hand_size, state.position, state.tricks

    def conservation() -> Any:
        return z3.And(exactly_one_place(state.hands + state.taken + state.plays, rules.deck_mask))

    def trick() -> Any:
        return z3.And([state.plays[j].count() == 1 if j < k else S.is_empty(state.plays[j]) for j in range(n)])

    def sizes() -> Any:
        counts = [state.hands[j].count() == size - tricks - (1 if j < k else 0) for j in range(n)]
        return z3.And(counts + [tricks >= 0, tricks <= size] + ([tricks < size] if k else []))

    def opening() -> Any:
        if k == 0:
            return z3.Implies(tricks == 0, S.non_empty(state.hands[0] & (1 << rules.lowest_club.index)))
        return z3.Implies(tricks == 0, subset(state.plays[0], opening_leads(rules.deck_mask, rules)))

    def broken() -> Any:
        breakers = HEARTS | (QUEEN if rules.qs_breaks_hearts else 0)
        return z3.Implies(state.broken, S.non_empty(_played(state) & breakers))

    builders = {"conservation": conservation, "trick": trick, "sizes": sizes, "opening": opening, "broken": broken}
    if only is not None:
        return builders[only]()
    return {name: build() for name, build in builders.items()}


def cases(rules: Rules) -> Iterator[Case]:
    """Every concrete case of a play: position, suit led, first trick, broken, and the winner of a last card."""
    n = rules.players
    for position in range(n):
        for led in ([None] if position == 0 else list(Suit)):
            for first in (True, False):
                for broken in (False, True):
                    for winner in (range(n) if position == n - 1 else [None]):
                        yield Case(position, led, first, broken, winner)


def _guard(state: State, case: Case) -> list[Any]:
    guard = [state.tricks == 0 if case.first_trick else state.tricks >= 1]
    if case.led_suit is not None:
        guard.append(S.non_empty(state.plays[0] & SUIT_MASKS[case.led_suit]))
    return guard


def step(state: State, case: Case, card: Any, rules: Rules) -> State:
    """Return the state after the seat to move plays ``card`` (a one-card set) in ``case``.

    TRICK-ORDER: the card goes on the trick and the next seat plays; BREAK-DISCARD and
    BREAK-QUEEN through ``breaks_hearts``; at the last card TRICK-WINNER: ``case.winner``
    (which ``trick_winner`` must return, a hypothesis of the claim) takes the trick and,
    LEAD-WINNER, leads the next one, so the seats are renumbered from it.
    """
    n, k = rules.players, state.position
    hands = tuple(hand & ~card if j == k else hand for j, hand in enumerate(state.hands))
    broken = S.either(state.broken, breaks_hearts(card, case.context, rules, S))
    if k < n - 1:
        plays = tuple(card if j == k else p for j, p in enumerate(state.plays))
        return State(hands, state.taken, plays, k + 1, state.tricks, broken)
    won: Any = card
    for p in state.plays[:k]:
        won = won | p
    taken = tuple(pile | won if j == case.winner else pile for j, pile in enumerate(state.taken))
    renumber = [(case.winner + j) % n for j in range(n)]
    return State(tuple(hands[j] for j in renumber), tuple(taken[j] for j in renumber), (EMPTY,) * n, 0,
                 state.tricks + 1, broken)


def lemma_claims(rules: Rules, legality: Any) -> list[InductiveClaim]:
    """The lemmas assumed by the step claims: a legal play is a card of the hand; the first lead opens."""
    hand = card_variables("hand", rules)
    claims = []
    for led in [None, *Suit]:
        for first in (True, False):
            for broken in (False, True):
                ctx = Context(led is None, led, first, broken)
                legal = legality(hand, ctx, rules, S)
                claims.append(InductiveClaim("LEGAL-MOVE-EXISTS", "lemma", f"legal plays are cards of the hand "
                                             f"({Case(0 if led is None else 1, led, first, broken, None).describe()})",
                                             (), subset(legal, hand)))
    first_lead = legality(hand, Context(True, None, True, False), rules, S)
    claims.append(InductiveClaim("OPENING-LEAD", "lemma", "the first lead is an opening card", (),
                                 subset(first_lead, opening_leads(rules.deck_mask, rules))))
    return claims


def initial_claims(rules: Rules) -> list[InductiveClaim]:
    """DEAL-HANDS ⇒ Inv: any equal deal of the cards in play, led by the holder of the lowest club."""
    n, size = rules.players, rules.hand_size
    dealt = [card_variables(f"dealt{j}", rules) for j in range(n)]
    deal = exactly_one_place(dealt, rules.deck_mask) + [hand.count() == size for hand in dealt]
    leader = opening_leader(dealt, rules, S)
    claims = []
    for seat in range(n):
        state = State(tuple(dealt[(seat + j) % n] for j in range(n)), (EMPTY,) * n, (EMPTY,) * n, 0, 0, False)
        for part, goal in invariant_parts(state, rules).items():
            claims.append(InductiveClaim(PARTS[part][0], "initial", f"{part} holds at the deal, seat {seat} leading",
                                         tuple(deal + [leader == seat]), goal))
    return claims


def step_claims(rules: Rules) -> Iterator[InductiveClaim]:
    """Inv ∧ a legal play ⇒ Inv after it: one claim per case and part, each with the hypotheses it needs.

    The states and formulas that several cases share are built once: the state before
    a play depends only on the position and the broken flag, and each part after it only
    on what changes it (the winner renumbers the seats; the suit led and the flag change
    whether hearts break).
    """
    n = rules.players
    card = card_variables("card", rules)
    shared: dict[Any, Any] = {}

    def once(key: Any, build: Any) -> Any:
        if key not in shared:
            shared[key] = build()
        return shared[key]

    for case in cases(rules):
        k = case.position
        plain = once(("state", k), lambda: symbolic_state(rules, k, False))
        before = plain._replace(broken=case.hearts_broken)
        parts = dict(once(("parts", k), lambda: invariant_parts(plain, rules)))
        parts["broken"] = once(("broken", k, case.hearts_broken), lambda: invariant_parts(before, rules, only="broken"))
        counting = once(("counting", k), lambda: count_split(before.hands[k], card)[1])
        facts = list(once(("facts", k), lambda: [card.count() == 1, subset(card, before.hands[k])]))
        if k == 0 and case.first_trick:   # the lemma: the first lead is an opening card
            facts.append(once("opening", lambda: subset(card, opening_leads(rules.deck_mask, rules))))
        won = []
        if case.winner is not None:
            winner = once(("winner", case.led_suit),
                          lambda: trick_winner(before.plays[:n - 1] + (card,), case.led_suit, 0, n, S))
            won = [winner == case.winner]
        after_key = (k, case.winner, case.led_suit, case.hearts_broken)
        after = once(("after",) + after_key, lambda: step(before, case, card, rules))
        for part, (invariant, needs) in PARTS.items():
            key = ("goal", part, k, case.winner) + (after_key if part == "broken" else ())
            goal = once(key, lambda: invariant_parts(after, rules, only=part))
            hypotheses = [parts[p] for p in needs] + facts
            if part in ("opening", "broken"):
                hypotheses += _guard(before, case) + won
            if part == "sizes":
                hypotheses += counting
            yield InductiveClaim(invariant, "step", f"{part} is kept: {case.describe()}", tuple(hypotheses),
                                 goal, case, before)


def consequence_claims(rules: Rules, legality: Any) -> Iterator[InductiveClaim]:
    """What Inv gives: the cases cover every state, a legal play exists, and the end of a round is a partition."""
    n, size = rules.players, rules.hand_size
    for position in range(1, n):
        state = symbolic_state(rules, position, False)
        covered = z3.Or([S.non_empty(state.plays[0] & SUIT_MASKS[suit]) for suit in Suit])
        yield InductiveClaim("LEGAL-MOVE-EXISTS", "cover", f"the trick led by seat 0 has a suit (seat +{position} "
                             "to move)", (invariant_parts(state, rules)["trick"],), covered)
    last = symbolic_state(rules, n - 1, False)
    card = card_variables("card", rules)
    for suit in Suit:
        winner = trick_winner(last.plays[:n - 1] + (card,), suit, 0, n, S)
        yield InductiveClaim("LEGAL-MOVE-EXISTS", "cover", f"a trick led in {suit.glyph} has a winner among its "
                             "seats", (), z3.Or([winner == seat for seat in range(n)]))
    states: dict[tuple[int, bool], tuple[State, dict[str, Any]]] = {}
    for case in cases(rules):
        if case.winner not in (None, 0):
            continue
        case = case._replace(winner=None)
        if (case.position, case.hearts_broken) not in states:
            state = symbolic_state(rules, case.position, case.hearts_broken)
            states[case.position, case.hearts_broken] = (state, invariant_parts(state, rules))
        state, parts = states[case.position, case.hearts_broken]
        # The parts a legal play needs; a refutation is confirmed on the engine, not by a model of all of Inv.
        hypotheses = (parts["sizes"], parts["trick"], parts["opening"], *_guard(state, case), state.tricks < size)
        legal = legality(state.hands[case.position], case.context, rules, S)
        invariant = "FIRST-TRICK-NO-DEADLOCK" if case.first_trick and case.position else "LEGAL-MOVE-EXISTS"
        yield InductiveClaim(invariant, "exists", case.describe(), hypotheses,
                             S.non_empty(legal), case, state)
    end = symbolic_state(rules, 0, False)
    parts = invariant_parts(end, rules)
    yield InductiveClaim("POINTS-PER-ROUND", "end", "at the end of the round every card in play has been taken once",
                         (parts["conservation"], parts["sizes"], parts["trick"], end.tricks == size),
                         z3.And(exactly_one_place(end.taken, rules.deck_mask)))


def all_claims(rules: Rules, legality: Any) -> Iterator[InductiveClaim]:
    """Every claim of the inductive proof, lemmas first."""
    yield from lemma_claims(rules, legality)
    yield from initial_claims(rules)
    yield from step_claims(rules)
    yield from consequence_claims(rules, legality)
