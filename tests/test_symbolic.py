"""The two card-set algebras agree: the z3 backend computes the engine's legal set on thousands of states.

This ties the proofs (which run ``legal_plays`` on :mod:`hearts_ref.symbolic`) to the engine
(which runs it on integers). Rules: LEAD-OPEN, LEAD-HEARTS, FOLLOW-SUIT, FOLLOW-VOID,
FIRST-NO-POINTS, FIRST-EXCEPTION.
"""

from functools import cache

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_ref import Rules
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


@settings(max_examples=3000)
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
