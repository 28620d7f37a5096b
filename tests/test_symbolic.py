"""The two card-set algebras agree: the z3 backend computes the engine's legal set on thousands of states.

This ties the proofs (which run ``legal_plays`` on :mod:`hearts_ref.symbolic`) to the engine
(which runs it on integers). Rules: LEAD-OPEN, LEAD-HEARTS, FOLLOW-SUIT, FOLLOW-VOID,
FIRST-NO-POINTS, FIRST-EXCEPTION.
"""

from functools import cache

import pytest
import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hearts_ref import CardSet, Rules
from hearts_ref.cardset import HEARTS, POINT_CARDS
from hearts_ref.legality import Context, hearts_leads, legal_plays
from hearts_ref.symbolic import SYMBOLIC, SymbolicCardSet

HAND = SymbolicCardSet.variables("h")
_ONE, _ZERO = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)

LEGALITY_VARIANTS = [
    {}, {"first_trick_points": "forbidden"}, {"first_trick_points": "allowed"}, {"can_lead_any_club": True},
    {"must_break_hearts": False}, {"can_lead_hearts_instead_of_qs": True},
    {"hearts_broken_by": "lead", "hearts_restriction": "discard"}, {"players": 3, "pass_cycle": "left-right-none"},
    {"players": 6},
]
CONTEXTS = [Context(True, None, first, broken) for first in (True, False) for broken in (False, True)] + [
    Context(False, suit, first, broken) for suit in range(4) for first in (True, False) for broken in (False, True)]


@cache
def symbolic_legal(variant: int, ctx: Context) -> z3.BitVecRef:
    """The legal set as one 52-bit z3 term over the hand's variables."""
    legal = legal_plays(HAND, ctx, Rules(**LEGALITY_VARIANTS[variant]), SYMBOLIC)
    bits = [(_ONE if b else _ZERO) if isinstance(b, bool) else z3.If(b, _ONE, _ZERO) for b in legal.bits]
    return z3.Concat(*reversed(bits))


def evaluate(term: z3.BitVecRef, hand: int) -> int:
    subs = [(HAND.bits[i], z3.BoolVal(bool(hand >> i & 1))) for i in range(52)]
    return z3.simplify(z3.substitute(term, *subs)).as_long()


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
    assert evaluate(symbolic_legal(variant, ctx), hand) == legal_plays(hand, ctx, rules)


def test_symbolic_set_refuses_a_python_if_on_the_hand():
    """A slip (an ordinary `if` on a symbolic hand) must fail loudly, not silently pick a branch."""
    with pytest.raises(TypeError, match="no truth value"):
        bool(HAND & HEARTS)


def test_symbolic_lead_hearts_proves_only_hearts_exception():
    """LEAD-HEARTS on z3: a heart is led before hearts break only if the hand holds nothing else."""
    legal = hearts_leads(HAND, Context(True, None, False, False), Rules(), SYMBOLIC)
    solver = z3.Solver()
    leads_heart = z3.Or([legal.bits[i] for i in range(52) if HEARTS >> i & 1])
    holds_other = z3.Or([HAND.bits[i] for i in range(52) if not HEARTS >> i & 1])
    solver.add(leads_heart, holds_other)
    assert solver.check() == z3.unsat


# The other rules written over card sets run on both algebras too: BREAK-DISCARD, BREAK-QUEEN,
# TRICK-WINNER, LEAD-OPEN, PASS-SIMULTANEOUS and the SCORE-* rules must agree on concrete values.

from hearts_ref.legality import breaks_hearts, opening_leader          # noqa: E402
from hearts_ref.round import exchange, trick_winner                     # noqa: E402
from hearts_ref.scoring import score_terms                              # noqa: E402
from hearts_ref.cardset import BITS                                     # noqa: E402

SEATS = [SymbolicCardSet.variables(f"s{j}") for j in range(6)]
OTHERS = [SymbolicCardSet.variables(f"o{j}") for j in range(6)]


def substitute(term, values):
    """Evaluate a z3 term with each symbolic set in ``values`` (set -> mask) replaced by its concrete bits."""
    subs = [(cards.bits[i], z3.BoolVal(bool(mask >> i & 1))) for cards, mask in values for i in range(52)]
    result = z3.simplify(z3.substitute(term, *subs)) if subs else z3.simplify(term)
    if z3.is_bool(result):
        return z3.is_true(result)
    return result.as_long()


def as_mask(cards, values):
    """The concrete mask of a symbolic set, substituting once into its 52 bits as one bit-vector term."""
    bits = [(_ONE if b else _ZERO) if isinstance(b, bool) else z3.If(b, _ONE, _ZERO) for b in cards.bits]
    return substitute(z3.Concat(*reversed(bits)), values)


BREAKING_RULES = [Rules(), Rules(qs_breaks_hearts=True), Rules(hearts_broken_by="any-heart"),
                  Rules(hearts_broken_by="lead", hearts_restriction="discard")]


@settings(max_examples=300)
@given(variant=st.integers(0, len(BREAKING_RULES) - 1), ctx=st.sampled_from(CONTEXTS), card=st.integers(0, 51))
def test_break_discard_and_break_queen_same_on_both_algebras(variant, ctx, card):
    rules = BREAKING_RULES[variant]
    symbolic = breaks_hearts(SEATS[0], ctx, rules, SYMBOLIC)
    concrete = breaks_hearts(1 << card, ctx, rules)
    assert (substitute(symbolic, [(SEATS[0], 1 << card)]) if not isinstance(symbolic, bool) else symbolic) is concrete


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
    symbolic = symbolic_winner(players, led, leader)
    values = [(SEATS[j], 1 << card) for j, card in enumerate(cards)]
    assert substitute(symbolic, values) == trick_winner([1 << c for c in cards], led, leader, players)


@settings(max_examples=40)
@given(order=st.permutations(range(52)), players=st.sampled_from([3, 4, 5, 6]))
def test_lead_open_leader_and_pass_exchange_same_on_both_algebras(order, players):
    rules = Rules(players=players, pass_cycle="left-right-none" if players % 2 else "left-right-across-none")
    size = rules.hand_size
    deck = [c for c in order if rules.deck_mask >> c & 1]
    hands = [sum(1 << c for c in deck[j * size:(j + 1) * size]) for j in range(players)]
    passes = [sum(1 << c for c in deck[j * size:j * size + 3]) for j in range(players)]
    values = [(SEATS[j], hands[j]) for j in range(players)] + [(OTHERS[j], passes[j]) for j in range(players)]
    assert substitute(opening_leader(SEATS[:players], rules, SYMBOLIC), values) == opening_leader(hands, rules)
    after = exchange(SEATS[:players], OTHERS[:players], 1)
    assert [as_mask(cards, values) for cards in after] == list(exchange(hands, passes, 1))


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
    assert [substitute(p, values) for p in points] + [substitute(s, values) for s in scores] == \
        list(score_terms(taken, rules)[0]) + list(score_terms(taken, rules)[1])


@given(mask=st.integers(0, (1 << 52) - 1))
def test_highest_and_count_same_on_both_algebras(mask):
    values = [(SEATS[0], mask)]
    assert as_mask(SYMBOLIC.highest(SEATS[0]), values) == BITS.highest(mask)
    assert substitute(SYMBOLIC.count(SEATS[0]), values) == BITS.count(mask)
