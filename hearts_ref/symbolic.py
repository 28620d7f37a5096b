"""The second card-set algebra: sets of 52 z3 Booleans, so the proofs run the engine's own rules.

A :class:`SymbolicCardSet` holds, for each card index, either a Python ``bool``
(a known bit, kept as such so formulas stay small) or a z3 Boolean expression.
``& | ~`` work pointwise against other symbolic sets and against integer masks;
:data:`SYMBOLIC` supplies ``is_empty`` and ``choose``. Asking a symbolic set for its
truth value is a slip in the rule code (a Python ``if`` on the hand) and raises.

>>> import z3
>>> hand = SymbolicCardSet.variables("h")
>>> from hearts_ref.legality import Context, legal_plays
>>> from hearts_ref.variants import Rules
>>> legal = legal_plays(hand, Context(False, 0, False, False), Rules(), SYMBOLIC)
>>> solver = z3.Solver()
>>> solver.add(legal.contains(36), hand.contains(0))   # Q♠ played on a club lead while holding 2♣?
>>> solver.check()
unsat
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Union

import z3

from hearts_ref.cards import CARDS

__all__ = ["SymbolicCardSet", "Symbolic", "SYMBOLIC", "Bit"]

Bit = Union[bool, z3.BoolRef]


def _and(a: Bit, b: Bit) -> Bit:
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return z3.And(a, b)


def _or(a: Bit, b: Bit) -> Bit:
    if a is True or b is True:
        return True
    if a is False:
        return b
    if b is False:
        return a
    return z3.Or(a, b)


def _not(a: Bit) -> Bit:
    return (not a) if isinstance(a, bool) else z3.Not(a)


class SymbolicCardSet:
    """A card set whose membership bits are Python bools or z3 Boolean expressions."""

    __slots__ = ("bits",)

    def __init__(self, bits: Sequence[Bit]):
        if len(bits) != 52:
            raise ValueError(f"a symbolic card set has 52 bits, not {len(bits)}")
        self.bits = tuple(bits)

    @classmethod
    def variables(cls, prefix: str) -> SymbolicCardSet:
        """Return a set of 52 fresh z3 Booleans named ``{prefix}_{card}`` (``h_QS``)."""
        return cls([z3.Bool(f"{prefix}_{card}") for card in CARDS])

    @classmethod
    def constant(cls, mask: int) -> SymbolicCardSet:
        """Return the known set of the cards in ``mask``."""
        return cls([bool(mask >> i & 1) for i in range(52)])

    @staticmethod
    def _bits_of(other: SymbolicCardSet | int) -> tuple[Bit, ...]:
        if isinstance(other, SymbolicCardSet):
            return other.bits
        if isinstance(other, int) and not isinstance(other, bool):
            return tuple(bool(other >> i & 1) for i in range(52))
        return NotImplemented  # type: ignore[return-value]

    def __and__(self, other: SymbolicCardSet | int) -> SymbolicCardSet:
        return SymbolicCardSet([_and(a, b) for a, b in zip(self.bits, self._bits_of(other))])

    __rand__ = __and__

    def __or__(self, other: SymbolicCardSet | int) -> SymbolicCardSet:
        return SymbolicCardSet([_or(a, b) for a, b in zip(self.bits, self._bits_of(other))])

    __ror__ = __or__

    def __invert__(self) -> SymbolicCardSet:
        return SymbolicCardSet([_not(a) for a in self.bits])

    def __bool__(self) -> bool:
        raise TypeError("a symbolic card set has no truth value: write the rule with ops.is_empty/ops.choose")

    def contains(self, index: int) -> Bit:
        """The bit of card ``index``."""
        return self.bits[index]

    def count(self) -> z3.ArithRef:
        """The number of cards in the set, as a z3 integer term."""
        known = sum(1 for b in self.bits if b is True)
        terms = [z3.If(b, 1, 0) for b in self.bits if not isinstance(b, bool)]
        if not terms:
            return z3.IntVal(known)
        return z3.Sum(terms + [z3.IntVal(known)]) if known else z3.Sum(terms)

    def evaluate(self, model: z3.ModelRef) -> int:
        """Return the concrete mask this set takes in ``model``."""
        mask = 0
        for i, bit in enumerate(self.bits):
            value = bit if isinstance(bit, bool) else z3.is_true(model.eval(bit, model_completion=True))
            mask |= int(value) << i
        return mask


class Symbolic:
    """The z3 card-set algebra: the same interface as :class:`hearts_ref.cardset.Bits`."""

    @staticmethod
    def is_empty(cards: SymbolicCardSet | int) -> Bit:
        if isinstance(cards, int):
            return cards == 0
        result: Bit = True
        for bit in cards.bits:
            result = _and(result, _not(bit))
        return result

    @staticmethod
    def non_empty(cards: SymbolicCardSet | int) -> Bit:
        return _not(Symbolic.is_empty(cards))

    @staticmethod
    def choose(condition: Bit, then: Any, otherwise: Any) -> Any:
        if isinstance(condition, bool):
            return then if condition else otherwise
        then_bits = SymbolicCardSet._bits_of(then)
        else_bits = SymbolicCardSet._bits_of(otherwise)
        return SymbolicCardSet([a if a is b else (a if isinstance(a, bool) and isinstance(b, bool) and a == b
                                                  else z3.If(condition, _to_z3(a), _to_z3(b)))
                                for a, b in zip(then_bits, else_bits)])

    @staticmethod
    def when(condition: Bit, then: Any, otherwise: Any) -> Any:
        """A number (a seat, points): ``then`` if ``condition`` else ``otherwise``, as a z3 term if need be."""
        if isinstance(condition, bool):
            return then if condition else otherwise
        if isinstance(then, int) and isinstance(otherwise, int) and then == otherwise:
            return then
        return z3.If(condition, then, otherwise)

    @staticmethod
    def both(a: Bit, b: Bit) -> Bit:
        return _and(a, b)

    @staticmethod
    def either(a: Bit, b: Bit) -> Bit:
        return _or(a, b)

    @staticmethod
    def count(cards: SymbolicCardSet | int) -> Any:
        if isinstance(cards, int):
            return cards.bit_count()
        return cards.count()

    @staticmethod
    def highest(cards: SymbolicCardSet | int) -> Any:
        """The set holding only the highest card of ``cards``: a card is in it when no higher card is in ``cards``."""
        if isinstance(cards, int):
            return 1 << (cards.bit_length() - 1) if cards else 0
        bits: list[Bit] = [False] * 52
        higher: Bit = False
        for i in reversed(range(52)):
            bits[i] = _and(cards.bits[i], _not(higher))
            higher = _or(higher, cards.bits[i])
        return SymbolicCardSet(bits)


def _to_z3(bit: Bit) -> z3.BoolRef:
    return z3.BoolVal(bit) if isinstance(bit, bool) else bit


SYMBOLIC = Symbolic()
