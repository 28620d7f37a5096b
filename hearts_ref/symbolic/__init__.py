"""The second card-set algebra: sets as z3 bit vectors, so the proofs run the engine's own rules.

A :class:`SymbolicCardSet` is a known mask (an ``int``) or a z3 vector of 52 bits (104 with
two decks, DECK-CARDS: a second deck's copy is bit 52 + its face's; the width comes from the
cards in play, ``SymbolicCardSet.variables(name, rules.deck_mask)``): bit ``i``
stands for the card of index ``i``, as in the engine's masks, so each set operation is one
z3 term as it is one integer operation on the engine. ``& | ~`` work against other
symbolic sets and against integer masks;
:data:`SYMBOLIC` supplies ``is_empty``, ``choose``, ``when`` and ``count``, whose
conditions and numbers come back as :class:`SymbolicBit` and :class:`SymbolicNumber`.

Asking a symbolic value for a concrete one (``if`` on a set, ``==`` on a number) is a
slip in rule code and raises, except inside :func:`explore`: there the question is a
branch, and the function is run once per feasible way of answering, each run giving a
:class:`Path` (the branch conditions taken, and the result). That is how the proofs run
engine code written with ordinary ``if`` statements (``rejecting_rule``, a play's
transition) on symbolic cards.

>>> import z3
>>> hand = SymbolicCardSet.variables("h")
>>> from hearts_ref.legality import Context, legal_plays
>>> from hearts_ref.variants import Rules
>>> legal = legal_plays(hand, Context(False, 0, False, False), Rules(), SYMBOLIC)
>>> solver = z3.Solver()
>>> solver.add(as_z3(legal.contains(36)), as_z3(hand.contains(0)))   # Q♠ on a club lead while holding 2♣?
>>> solver.check()
unsat
>>> [len(p.conditions) for p in explore(lambda: "some" if hand & 1 else "none")]
[1, 1]
"""

from hearts_ref.symbolic.logic import (
    Bit, SymbolicBit, SymbolicNumber, all_of, any_of, as_z3, exploring, iff, implies, int_sum, int_value, negation,
)
from hearts_ref.symbolic.explore import Path, explore
from hearts_ref.symbolic.cardsets import SYMBOLIC, Symbolic, SymbolicCard, SymbolicCardSet, union_of, width_of

__all__ = ["SymbolicCardSet", "SymbolicCard", "SymbolicBit", "SymbolicNumber", "Symbolic", "SYMBOLIC", "Bit", "Path", "explore",
           "exploring", "union_of", "width_of", "as_z3", "all_of", "any_of", "negation", "implies", "iff", "int_sum", "int_value"]
