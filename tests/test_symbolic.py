"""The two card-set algebras agree: the z3 backend computes what the engine computes, on thousands of cases.

This ties the proofs (which run ``legal_plays``, ``breaks_hearts``, ``trick_winner``,
``exchange``, ``score_terms`` and ``RoundState.play`` on :mod:`hearts_ref.symbolic`) to the
engine (which runs them on integers). Rules: LEAD-OPEN, LEAD-HEARTS, FOLLOW-SUIT, FOLLOW-VOID,
FIRST-NO-POINTS, FIRST-EXCEPTION, BREAK-DISCARD, BREAK-QUEEN, TRICK-WINNER, PASS-SIMULTANEOUS,
SCORE-POINTS, SCORE-MOON. It also checks the explorer that runs engine code with ordinary
``if`` statements on symbolic cards: each branch taken both ways, a slip outside it refused.
"""

from functools import cache

import pytest
import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hearts_ref import CardSet, Rules
from hearts_ref.cardset import BITS, HEARTS, POINT_CARDS
from hearts_ref.legality import Context, breaks_hearts, hearts_leads, legal_plays, opening_leader, rejecting_rule
from hearts_ref.round import exchange, trick_winner
from hearts_ref.scoring import score_terms
from hearts_ref.symbolic import (
    SYMBOLIC, SymbolicCard, SymbolicCardSet, SymbolicNumber, all_of, as_z3, explore, union_of,
)

HAND = SymbolicCardSet.variables("h")
SEATS = [SymbolicCardSet.variables(f"s{j}") for j in range(6)]
OTHERS = [SymbolicCardSet.variables(f"o{j}") for j in range(6)]

LEGALITY_VARIANTS = [
    {}, {"first_trick_points": "forbidden"}, {"first_trick_points": "allowed"}, {"can_lead_any_club": True},
    {"must_break_hearts": False}, {"can_lead_hearts_instead_of_qs": True},
    {"hearts_broken_by": "lead", "hearts_restriction": "discard"}, {"players": 3, "pass_cycle": "left-right-none"},
    {"players": 6},
]
CONTEXTS = [Context(True, None, first, broken) for first in (True, False) for broken in (False, True)] + [
    Context(False, suit, first, broken) for suit in range(4) for first in (True, False) for broken in (False, True)]


def value(term, values):
    """A symbolic value with each set of ``values`` ((set, mask) pairs) replaced by its mask: an int or a bool."""
    if isinstance(term, SymbolicCardSet) and term.known is not None:
        return term.known
    if isinstance(term, bool) or isinstance(term, int):
        return term
    pairs = [(cards.term, z3.BitVecVal(mask, 52)) for cards, mask in values]
    result = z3.simplify(z3.substitute(as_z3(term.term if isinstance(term, SymbolicCardSet) else term), *pairs))
    return z3.is_true(result) if z3.is_bool(result) else result.as_long()


@cache
def symbolic_legal(variant: int, ctx: Context):
    return legal_plays(HAND, ctx, Rules(**LEGALITY_VARIANTS[variant]), SYMBOLIC)


hands = st.one_of(
    st.integers(0, (1 << 52) - 1),                                     # any subset
    st.sets(st.integers(0, 51), max_size=13).map(lambda s: sum(1 << i for i in s)),   # hand-sized
    st.sets(st.sampled_from([i for i in range(52) if POINT_CARDS >> i & 1]), min_size=1).map(
        lambda s: sum(1 << i for i in s)),                              # only point cards
    st.sets(st.integers(0, 51), max_size=4).map(lambda s: sum(1 << i for i in s) | (1 << 36)),
)


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


_ONLY_POINTS = _mask("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
_FOLLOW_CLUBS_FIRST, _LEAD_LATER = Context(False, 0, True, False), Context(True, None, False, False)


# The branches a random draw can miss, given every run: each rule's exception and its refusal.
@settings(max_examples=3000)
@example(variant=0, ctx=_FOLLOW_CLUBS_FIRST, hand=_ONLY_POINTS)                 # FIRST-EXCEPTION
@example(variant=1, ctx=_FOLLOW_CLUBS_FIRST, hand=_ONLY_POINTS)                 # FIRST-NO-POINTS, no exception
@example(variant=0, ctx=_FOLLOW_CLUBS_FIRST, hand=_mask("QS 2H 5D"))            # points refused, 5♦ allowed
@example(variant=0, ctx=_LEAD_LATER, hand=_mask("2H 9H AH"))                    # LEAD-HEARTS: only hearts
@example(variant=0, ctx=_LEAD_LATER, hand=_mask("QS 2H 9H"))                    # the Q♠ frees no heart...
@example(variant=5, ctx=_LEAD_LATER, hand=_mask("QS 2H 9H"))                    # ...unless instead_of_qs
@example(variant=6, ctx=Context(False, 1, False, False), hand=_mask("3S 4H"))   # no heart discarded (seed 003)
@example(variant=3, ctx=Context(True, None, True, False), hand=_mask("5C 9C AD"))   # any club opens
@example(variant=0, ctx=Context(False, 2, False, True), hand=_mask("2S 3H"))    # FOLLOW-SUIT
@given(variant=st.integers(0, len(LEGALITY_VARIANTS) - 1), ctx=st.sampled_from(CONTEXTS), hand=hands)
def test_z3_and_int_backends_give_the_same_legal_set(variant, ctx, hand):
    rules = Rules(**LEGALITY_VARIANTS[variant])
    hand &= rules.deck_mask
    assert value(symbolic_legal(variant, ctx), [(HAND, hand)]) == legal_plays(hand, ctx, rules)


def test_symbolic_set_refuses_a_python_if_on_the_hand():
    """A slip (an ordinary `if` on a symbolic hand) must fail loudly, not silently pick a branch."""
    with pytest.raises(TypeError, match="no truth value"):
        bool(HAND & HEARTS)
    with pytest.raises(TypeError, match="no truth value"):
        BITS.is_empty(HAND)          # the engine's algebra asked about a symbolic set: refused too
    with pytest.raises(TypeError, match="no truth value"):
        SymbolicNumber(z3.Int("x")) >= 3


def test_symbolic_lead_hearts_proves_only_hearts_exception():
    """LEAD-HEARTS on z3: a heart is led before hearts break only if the hand holds nothing else."""
    legal = hearts_leads(HAND, Context(True, None, False, False), Rules(), SYMBOLIC)
    solver = z3.Solver()
    solver.add(as_z3(SYMBOLIC.non_empty(legal & HEARTS)), as_z3(SYMBOLIC.non_empty(HAND & ~HEARTS)))
    assert solver.check() == z3.unsat


BREAKING_RULES = [Rules(), Rules(qs_breaks_hearts=True), Rules(hearts_broken_by="any-heart"),
                  Rules(hearts_broken_by="lead", hearts_restriction="discard")]


@settings(max_examples=300)
@given(variant=st.integers(0, len(BREAKING_RULES) - 1), ctx=st.sampled_from(CONTEXTS), card=st.integers(0, 51))
def test_break_discard_and_break_queen_same_on_both_algebras(variant, ctx, card):
    rules = BREAKING_RULES[variant]
    symbolic = breaks_hearts(SEATS[0], ctx, rules, SYMBOLIC)
    assert value(symbolic, [(SEATS[0], 1 << card)]) is breaks_hearts(1 << card, ctx, rules)


@st.composite
def tricks(draw):
    players = draw(st.sampled_from([3, 4, 5, 6]))
    cards = draw(st.lists(st.integers(0, 51), min_size=players, max_size=players, unique=True))
    return players, cards, draw(st.integers(0, players - 1))


@cache
def symbolic_winner(players, led, leader):
    return trick_winner(SEATS[:players], led, leader, players, SYMBOLIC)


@settings(max_examples=200)
@given(trick=tricks())
def test_trick_winner_same_on_both_algebras(trick):
    players, cards, leader = trick
    led = cards[0] // 13
    values = [(SEATS[j], 1 << card) for j, card in enumerate(cards)]
    assert value(symbolic_winner(players, led, leader), values) == trick_winner([1 << c for c in cards], led, leader,
                                                                               players)


@settings(max_examples=40)
@given(order=st.permutations(range(52)), players=st.sampled_from([3, 4, 5, 6]))
def test_lead_open_leader_and_pass_exchange_same_on_both_algebras(order, players):
    rules = Rules(players=players, pass_cycle="left-right-none" if players % 2 else "left-right-across-none")
    size = rules.hand_size
    deck = [c for c in order if rules.deck_mask >> c & 1]
    hands = [sum(1 << c for c in deck[j * size:(j + 1) * size]) for j in range(players)]
    passes = [sum(1 << c for c in deck[j * size:j * size + 3]) for j in range(players)]
    values = [(SEATS[j], hands[j]) for j in range(players)] + [(OTHERS[j], passes[j]) for j in range(players)]
    assert value(opening_leader(SEATS[:players], rules, SYMBOLIC), values) == opening_leader(hands, rules)
    after = exchange(SEATS[:players], OTHERS[:players], 1)
    assert [value(cards, values) for cards in after] == list(exchange(hands, passes, 1))


SCORING_RULES = [Rules(), Rules(jd_bonus=True), Rules(moon="subtract"), Rules(moon="off"),
                 Rules(avoid_all_tricks_bonus=True, jd_bonus=True)]


@st.composite
def takings(draw):
    """Cards taken by four seats: random, or one seat with every point card (a moon)."""
    owner = draw(st.lists(st.integers(0, 3), min_size=52, max_size=52))
    if draw(st.booleans()):
        shooter = draw(st.integers(0, 3))
        owner = [shooter if (POINT_CARDS >> i & 1) else seat for i, seat in enumerate(owner)]
    if draw(st.booleans()):
        owner = [seat if seat != 3 else 2 for seat in owner]   # seat 3 takes no trick
    return tuple(sum(1 << i for i in range(52) if owner[i] == seat) for seat in range(4))


@cache
def symbolic_scores(variant):
    return score_terms(SEATS[:4], SCORING_RULES[variant], SYMBOLIC)


@settings(max_examples=120)
@given(variant=st.integers(0, len(SCORING_RULES) - 1), taken=takings())
def test_score_points_and_score_moon_same_on_both_algebras(variant, taken):
    rules = SCORING_RULES[variant]
    points, scores = symbolic_scores(variant)
    values = [(SEATS[j], taken[j]) for j in range(4)]
    assert [value(p, values) for p in points] + [value(s, values) for s in scores] == \
        list(score_terms(taken, rules)[0]) + list(score_terms(taken, rules)[1])


@given(mask=st.integers(0, (1 << 52) - 1))
def test_highest_and_count_same_on_both_algebras(mask):
    values = [(SEATS[0], mask)]
    assert value(SYMBOLIC.highest(SEATS[0]), values) == BITS.highest(mask)
    assert value(SYMBOLIC.count(SEATS[0]), values) == BITS.count(mask)


# The explorer: engine code written with ordinary `if` statements, run on symbolic cards ------------------

def test_explore_takes_each_branch_both_ways_and_keeps_the_conditions():
    paths = explore(rejecting_rule, HAND, Context(False, 0, False, False), Rules(), SEATS[1])
    answers = {p.result for p in paths}
    assert {None, "TRICK-ORDER", "FOLLOW-SUIT"} <= answers
    for path in paths:   # each path's result is what the engine answers for a concrete case meeting its condition
        solver = z3.Solver()
        solver.add(as_z3(path.condition), z3.PbEq([(as_z3(SEATS[1].contains(i)), 1) for i in range(52)], 1))
        if solver.check() == z3.sat:
            model = solver.model()
            hand, card = HAND.evaluate(model), SEATS[1].evaluate(model)
            assert rejecting_rule(hand, Context(False, 0, False, False), Rules(), card) == path.result


def test_explore_keeps_an_exception_as_the_result_of_its_path():
    def picky(cards):
        if cards & 1:
            raise ValueError("the two of clubs")
        return "fine"
    results = sorted(str(p.result) for p in explore(picky, HAND))
    assert results == ["fine", "the two of clubs"] and any(p.raised for p in explore(picky, HAND))


def test_explore_assumes_only_the_very_terms_it_is_given():
    holds = SYMBOLIC.non_empty(HAND & 1)
    assert len(explore(lambda: bool(HAND & 1), assume=[holds.term])) == 1
    assert len(explore(lambda: bool(HAND & 2), assume=[holds.term])) == 2


def test_explore_prunes_branches_that_cannot_hold():
    a = SymbolicNumber(z3.Int("a"))

    def size():
        if a > 5:
            return "impossible" if a < 3 else "big"
        return "small"
    assert sorted(p.result for p in explore(size)) == ["big", "impossible", "small"]
    assert sorted(p.result for p in explore(size, prune=True)) == ["big", "small"]


def test_a_symbolic_number_is_a_seat_on_each_path():
    winner = trick_winner(SEATS[:4], 0, 2, 4, SYMBOLIC)
    seats = sorted(p.result for p in explore(lambda: [0, 1, 2, 3][winner]))
    assert seats == [0, 1, 2, 3]


def test_a_symbolic_card_is_a_one_card_set_and_its_suit_a_branch():
    card = SymbolicCard(SEATS[2])
    assert (1 << card) is SEATS[2] and card.index is card
    assert sorted(p.result for p in explore(lambda: card // 13)) == [0, 1, 2, 3]


def test_commutative_terms_are_built_in_one_order():
    """The same operands in another order give the very same z3 term, so the prover answers them once."""
    x, y, z = SEATS[:3]
    assert (x & y).term.get_id() == (y & x).term.get_id()
    assert union_of([x, y, z]).term.get_id() == union_of([z, x, y]).term.get_id()
    first = all_of([as_z3(SYMBOLIC.is_empty(x)), as_z3(SYMBOLIC.is_empty(y))])
    assert first.get_id() == all_of([as_z3(SYMBOLIC.is_empty(y)), as_z3(SYMBOLIC.is_empty(x))]).get_id()


# Two decks (DECK-CARDS): sets of 104 Booleans, the second deck's copies in bits 52-103 --------------------------

from hearts_ref.cardset import ALL_CARDS, ONE_DECK, SUIT_MASKS  # noqa: E402

HAND_TWO_DECKS = SymbolicCardSet.variables("h2", ALL_CARDS)


def value_of_width(term, values, width):
    pairs = [(cards.term, z3.BitVecVal(mask, width)) for cards, mask in values]
    result = z3.simplify(z3.substitute(as_z3(term.term if isinstance(term, SymbolicCardSet) else term), *pairs))
    return z3.is_true(result) if z3.is_bool(result) else result.as_long()


def test_the_width_comes_from_the_cards_in_play():
    assert HAND.term.size() == 52 and HAND.width == 52
    assert HAND_TWO_DECKS.term.size() == 104 and (HAND_TWO_DECKS & HEARTS).width == 104
    # a one-deck set's constants are the 52-bit masks they always were: the same terms, the same proofs
    assert (HAND & HEARTS).term.eq(HAND.term & z3.BitVecVal(HEARTS & ONE_DECK, 52))
    assert SymbolicCardSet.variables("d", Rules(players=6, pass_cycle="left-right-none").deck_mask).width == 52


@settings(max_examples=300)
@given(hand=st.integers(0, ALL_CARDS), ctx=st.sampled_from(CONTEXTS), variant=st.sampled_from([0, 1, 2, 6]))
def test_two_decks_the_algebras_agree(hand, ctx, variant):
    rules = Rules(**LEGALITY_VARIANTS[variant])
    pairs = [(HAND_TWO_DECKS, hand)]
    assert value_of_width(legal_plays(HAND_TWO_DECKS, ctx, rules, SYMBOLIC), pairs, 104) == \
        legal_plays(hand, ctx, rules, BITS)
    assert value_of_width(HAND_TWO_DECKS.count(), pairs, 104) == hand.bit_count()
    assert value_of_width(SYMBOLIC.highest(HAND_TWO_DECKS & SUIT_MASKS[2]), pairs, 104) == \
        BITS.highest(hand & SUIT_MASKS[2])
    # a known one-deck mask's complement keeps the second deck's cards, as ~ on the engine's ints does
    two_of_clubs = SymbolicCardSet.constant(1)
    assert value_of_width(HAND_TWO_DECKS & ~two_of_clubs, pairs, 104) == hand & ~1
    assert value_of_width(HAND_TWO_DECKS - 1, pairs, 104) == hand & ~1


def test_a_symbolic_card_of_the_second_deck_has_its_suit():
    for index in (52 + 13 + 5, 52 + 39, 3, 100):
        card = SymbolicCard(SymbolicCardSet.variables(f"c{index}", ALL_CARDS))
        paths = explore(lambda: card // 13 & 3, assume=[as_z3(card.cards.same_as(1 << index))])
        solver = z3.Solver()
        feasible = set()
        for path in paths:
            solver.push()
            solver.add(as_z3(path.condition), as_z3(card.cards.same_as(1 << index)))
            if solver.check() == z3.sat:
                feasible.add(path.result)
            solver.pop()
        assert feasible == {index // 13 & 3}
