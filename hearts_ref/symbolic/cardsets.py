"""Card sets as z3 bit vectors (:class:`SymbolicCardSet`), the algebra the rule functions take (:data:`SYMBOLIC`), and
a card known only as a one-card set (:class:`SymbolicCard`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import z3
from z3 import z3core

from hearts_ref.symbolic.logic import (
    _ArithRef, _BoolRef, _MK_EQ, _MK_ITE, _REF, Bit, SymbolicNumber, _and, _bit, _c_function, _condition, _decide,
    _ite_int, _new, _or, _values, _wrap, int_sum, int_value, negation,
)


# Card sets as bit vectors: one z3 term per set, one z3 call per set operation, as one int operation on the engine.
# A set is as wide as the cards in play: 52 bits with one deck, 104 with two (DECK-CARDS: a second deck's copy
# is bit 52 + its face's). A known set (an int) has no width of its own: it is cut to the width of the symbolic
# set it meets, as the engine's masks are cut by the hand they meet.
ONE_DECK_WIDTH, TWO_DECKS_WIDTH = 52, 104
_WIDTH = ONE_DECK_WIDTH
_ALL = (1 << _WIDTH) - 1
_ALL_CARDS = (1 << TWO_DECKS_WIDTH) - 1      # every card identity: what a known set may hold
_ALL_OF = {ONE_DECK_WIDTH: _ALL, TWO_DECKS_WIDTH: _ALL_CARDS}
_MK_BVAND, _MK_BVOR = _c_function(z3core.Z3_mk_bvand), _c_function(z3core.Z3_mk_bvor)
_MK_BVNOT, _MK_BVXOR = _c_function(z3core.Z3_mk_bvnot), _c_function(z3core.Z3_mk_bvxor)
_MK_BVLSHR, _MK_EXTRACT = _c_function(z3core.Z3_mk_bvlshr), _c_function(z3core.Z3_mk_extract)
_BitVecRef = z3.BitVecRef
_VECTORS: dict[int, dict[int, z3.BitVecRef]] = {ONE_DECK_WIDTH: {}, TWO_DECKS_WIDTH: {}}


def width_of(mask: int) -> int:
    """The width of the sets of the cards of ``mask``: 52 bits when they are of one deck, 104 with a second deck's."""
    return ONE_DECK_WIDTH if not mask >> ONE_DECK_WIDTH else TWO_DECKS_WIDTH


def _vector(mask: int, width: int = _WIDTH) -> z3.BitVecRef:
    vectors = _VECTORS[width]
    term = vectors.get(mask)
    if term is None:
        term = vectors[mask] = z3.BitVecVal(mask, width)
    return term


def _as_vector(value: Any, width: int) -> z3.BitVecRef:
    return _vector(value & _ALL_OF[width], width) if isinstance(value, int) else value


_ZERO_BIT, _ONE_BIT = z3.BitVecVal(0, 1), z3.BitVecVal(1, 1)
_COUNTS: dict[int, tuple[Any, Any]] = {}     # a set term's id -> (the term, kept alive; its count)
_HIGHEST: dict[int, tuple[Any, Any]] = {}    # a set term's id -> (the term, kept alive; its highest card)


def _symbolic(term: Any, width: int) -> SymbolicCardSet:
    """A set of a z3 vector ``term`` of ``width`` bits (no checks: the callers built it so)."""
    cards = _new(SymbolicCardSet)
    cards.term = term
    cards.width = width
    return cards


def _known(mask: int) -> SymbolicCardSet:
    cards = _new(SymbolicCardSet)
    cards.term = mask & _ALL_CARDS
    cards.width = None
    return cards


class SymbolicCardSet:
    """A card set: a known mask (an ``int``) or a z3 vector of 52 bits (104 with two decks), bit ``i`` standing for
    the card of index ``i``.

    ``& | ^ ~ -`` work against other symbolic sets and against integer masks, as on ints. ``width`` is the
    vector's (None for a known set).
    """

    __slots__ = ("term", "width")

    def __init__(self, term: Any, width: int | None = None):
        if isinstance(term, int):
            self.term, self.width = term & _ALL_CARDS, None
        else:
            self.term, self.width = term, width or term.size()

    @classmethod
    def variables(cls, prefix: str, within: int = _ALL) -> SymbolicCardSet:
        """Return a set of the cards of ``within``, each there or not: a fresh variable named ``prefix``, of 52 bits
        (104 when ``within`` holds a second deck's card)."""
        width = width_of(within)
        term = z3.BitVec(prefix, width)
        every = _ALL_OF[width]
        return _symbolic(term if within & every == every
                         else _wrap(_BitVecRef, _MK_BVAND(_REF, term.ast, _vector(within & every, width).ast)), width)

    @classmethod
    def constant(cls, mask: int) -> SymbolicCardSet:
        """Return the known set of the cards in ``mask``."""
        return _known(mask)

    @property
    def known(self) -> int | None:
        """The mask, when the set is known."""
        return self.term if isinstance(self.term, int) else None

    @staticmethod
    def _term_of(other: Any) -> Any:
        if isinstance(other, SymbolicCardSet):
            return other.term
        if isinstance(other, int) and not isinstance(other, bool):
            return other & _ALL_CARDS
        return NotImplemented

    def _width_with(self, other: Any) -> int:
        """The width of the vector of an operation with ``other`` (52 when neither is a vector)."""
        return self.width or (other.width if isinstance(other, SymbolicCardSet) and other.width else _WIDTH)

    def __and__(self, other: Any) -> SymbolicCardSet:
        a, b = self.term, self._term_of(other)
        if b is NotImplemented:
            return NotImplemented
        if isinstance(a, int) and isinstance(b, int):
            return _known(a & b)
        width = self._width_with(other)
        if isinstance(a, int):
            a, b = b, a
        if isinstance(b, int):
            if b == 0:
                return _known(0)
            every = _ALL_OF[width]
            if b & every == every:
                return _symbolic(a, width)
        b = _as_vector(b, width)
        if not isinstance(a, int) and a.get_id() > b.get_id():
            a, b = b, a
        return _symbolic(_wrap(_BitVecRef, _MK_BVAND(_REF, a.ast, b.ast)), width)

    __rand__ = __and__

    def __or__(self, other: Any) -> SymbolicCardSet:
        a, b = self.term, self._term_of(other)
        if b is NotImplemented:
            return NotImplemented
        if isinstance(a, int) and isinstance(b, int):
            return _known(a | b)
        width = self._width_with(other)
        if isinstance(a, int):
            a, b = b, a
        if isinstance(b, int):
            if b == 0:
                return _symbolic(a, width)
            every = _ALL_OF[width]
            if b & every == every:
                return _known(every)
        b = _as_vector(b, width)
        if a.get_id() > b.get_id():
            a, b = b, a
        return _symbolic(_wrap(_BitVecRef, _MK_BVOR(_REF, a.ast, b.ast)), width)

    __ror__ = __or__

    def __xor__(self, other: Any) -> SymbolicCardSet:
        a, b = self.term, self._term_of(other)
        if b is NotImplemented:
            return NotImplemented
        if isinstance(a, int) and isinstance(b, int):
            return _known(a ^ b)
        width = self._width_with(other)
        return _symbolic(_wrap(_BitVecRef, _MK_BVXOR(_REF, _as_vector(a, width).ast, _as_vector(b, width).ast)), width)

    __rxor__ = __xor__

    def __invert__(self) -> SymbolicCardSet:
        if isinstance(self.term, int):
            return _known(~self.term)
        return _symbolic(_wrap(_BitVecRef, _MK_BVNOT(_REF, self.term.ast)), self.width)

    def __sub__(self, other: Any) -> SymbolicCardSet:
        return self & ~(other if isinstance(other, SymbolicCardSet) else _known(other))

    def __rsub__(self, other: int) -> SymbolicCardSet:
        return ~self & other

    def _shift_right(self, amount: int) -> SymbolicCardSet:
        if isinstance(self.term, int):
            return _known(self.term >> amount)
        return _symbolic(_wrap(_BitVecRef, _MK_BVLSHR(_REF, self.term.ast, _vector(amount, self.width).ast)),
                         self.width)

    def is_empty_bit(self) -> Bit:
        """Whether the set is empty: a bool when known, else a z3 Boolean."""
        if isinstance(self.term, int):
            return self.term == 0
        return _wrap(_BoolRef, _MK_EQ(_REF, self.term.ast, _vector(0, self.width).ast))

    def __bool__(self) -> bool:
        return _decide(negation(self.is_empty_bit()), "a symbolic card set")

    def same_as(self, other: Any) -> Bit:
        """Whether the two sets hold the same cards: a bool when both are known, else a z3 Boolean."""
        b = self._term_of(other)
        if isinstance(self.term, int) and isinstance(b, int):
            return self.term == b
        if self.term is b:
            return True
        width = self._width_with(other)
        return _wrap(_BoolRef, _MK_EQ(_REF, _as_vector(self.term, width).ast, _as_vector(b, width).ast))

    def __eq__(self, other: object) -> bool:   # type: ignore[override]
        if self._term_of(other) is NotImplemented:
            return NotImplemented
        return _decide(self.same_as(other), "a symbolic card set compared")

    def __ne__(self, other: object) -> bool:   # type: ignore[override]
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = object.__hash__

    def contains(self, index: int) -> Bit:
        """Whether the set holds the card of ``index``: a bool, or a z3 Boolean."""
        if isinstance(self.term, int):
            return bool(self.term >> index & 1)
        if index >= self.width:
            return False
        bit = _wrap(_BitVecRef, _MK_EXTRACT(_REF, index, index, self.term.ast))
        return _wrap(_BoolRef, _MK_EQ(_REF, bit.ast, _ONE_BIT.ast))

    @property
    def size(self) -> int:
        """How many card identities the set ranges over: its width, 52 or 104 (a known set: as its cards need)."""
        return self.width or width_of(self.term)

    @property
    def bits(self) -> tuple[Bit, ...]:
        """Whether the set holds each card, by index: bools, or z3 Booleans."""
        return tuple(self.contains(i) for i in range(self.size))

    def count(self) -> z3.ArithRef:
        """The number of cards in the set, as a z3 integer term (made once per set term)."""
        if isinstance(self.term, int):
            return int_value(self.term.bit_count())
        key = self.term.get_id()
        if key not in _COUNTS:
            if len(_COUNTS) > 20000:
                _COUNTS.clear()
            one, zero = int_value(1), int_value(0)
            bits = [self.contains(i) for i in range(self.width)]   # held here: a term passed on by its pointer must live
            _COUNTS[key] = (self.term, int_sum([_wrap(_ArithRef, _MK_ITE(_REF, bit.ast, one.ast, zero.ast))
                                                for bit in bits]))
        return _COUNTS[key][1]

    def bit_count(self) -> Any:
        """The number of cards, as ``int.bit_count`` gives it: an int when known, else a :class:`SymbolicNumber`."""
        if isinstance(self.term, int):
            return self.term.bit_count()
        return SymbolicNumber(self.count(), frozenset(range(self.width + 1)))

    def evaluate(self, model: z3.ModelRef) -> int:
        """Return the concrete mask this set takes in ``model``."""
        if isinstance(self.term, int):
            return self.term
        return model.eval(self.term, model_completion=True).as_long()

    def __repr__(self) -> str:
        return f"SymbolicCardSet({self.term:#x})" if isinstance(self.term, int) else f"SymbolicCardSet({self.term})"


def union_of(sets: Iterable[Any]) -> Any:
    """The cards held by any of ``sets`` (card sets or masks), built in one fixed order whatever the order given."""
    known, terms = 0, {}
    for cards in sets:
        term = cards.term if isinstance(cards, SymbolicCardSet) else cards
        if isinstance(term, int):
            known |= term
        else:
            terms[term.get_id()] = cards
    if not terms:
        return known
    found = _known(known) if known else None
    for key in sorted(terms):
        found = terms[key] if found is None else found | terms[key]
    return found


def _set_term(value: Any) -> Any:
    return value.term if isinstance(value, SymbolicCardSet) else value & _ALL_CARDS


def _width_of_either(a: Any, b: Any) -> int:
    """The width of a choice between two sets: a vector's, else as the known masks need (104 for a second deck's card)."""
    for value in (a, b):
        if isinstance(value, SymbolicCardSet) and value.width:
            return value.width
    return width_of(_set_term(a) | _set_term(b))


class Symbolic:
    """The z3 card-set algebra: the same interface as :class:`hearts_ref.cardset.Bits`."""

    @staticmethod
    def is_empty(cards: SymbolicCardSet | int) -> Any:
        if isinstance(cards, int):
            return cards == 0
        return _condition(cards.is_empty_bit())

    @staticmethod
    def non_empty(cards: SymbolicCardSet | int) -> Any:
        if isinstance(cards, int):
            return cards != 0
        return _condition(negation(cards.is_empty_bit()))

    @staticmethod
    def choose(condition: Any, then: Any, otherwise: Any) -> Any:
        condition = _bit(condition)
        if isinstance(condition, bool):
            return then if condition else otherwise
        a, b = _set_term(then), _set_term(otherwise)
        if a is b or (isinstance(a, int) and isinstance(b, int) and a == b):
            return then if isinstance(then, SymbolicCardSet) else _known(a)
        width = _width_of_either(then, otherwise)
        return _symbolic(_wrap(_BitVecRef, _MK_ITE(_REF, condition.ast, _as_vector(a, width).ast,
                                                   _as_vector(b, width).ast)), width)

    @staticmethod
    def when(condition: Any, then: Any, otherwise: Any) -> Any:
        """A number (a seat, points): ``then`` if ``condition`` else ``otherwise``, a :class:`SymbolicNumber` if need be."""
        condition = _bit(condition)
        if isinstance(condition, bool):
            return then if condition else otherwise
        if isinstance(then, int) and isinstance(otherwise, int) and then == otherwise:
            return then
        a, b = _values(then), _values(otherwise)
        return SymbolicNumber(_ite_int(condition, then, otherwise), None if a is None or b is None else a | b)

    @staticmethod
    def both(a: Any, b: Any) -> Any:
        return _condition(_and(_bit(a), _bit(b)))

    @staticmethod
    def either(a: Any, b: Any) -> Any:
        return _condition(_or(_bit(a), _bit(b)))

    @staticmethod
    def count(cards: SymbolicCardSet | int) -> Any:
        if isinstance(cards, int):
            return cards.bit_count()
        return cards.bit_count()

    @staticmethod
    def highest(cards: SymbolicCardSet | int) -> Any:
        """The set holding only the highest card of ``cards``: a card is in it when no higher card is in ``cards``."""
        if isinstance(cards, int):
            return 1 << (cards.bit_length() - 1) if cards else 0
        if cards.known is not None:
            return _known(1 << (cards.known.bit_length() - 1) if cards.known else 0)
        key = cards.term.get_id()
        if key not in _HIGHEST:
            if len(_HIGHEST) > 4096:
                _HIGHEST.clear()
            bits = []
            width, every = cards.width, _ALL_OF[cards.width]
            for i in range(width):
                above = (cards & (every & ~((1 << (i + 1)) - 1))).is_empty_bit()
                bits.append(_and(cards.contains(i), above) if i < width - 1 else cards.contains(i))
            _HIGHEST[key] = (cards.term, _from_bits(bits))    # the term is kept, so its id stays its own
        return _HIGHEST[key][1]


def _from_bits(bits: Sequence[Bit]) -> SymbolicCardSet:
    """The set whose card ``i`` is there when ``bits[i]`` holds."""
    if all(isinstance(b, bool) for b in bits):
        return _known(sum(1 << i for i, b in enumerate(bits) if b))
    one, zero = _ONE_BIT.ast, _ZERO_BIT.ast
    parts = [_ZERO_BIT if b is False else _ONE_BIT if b is True else _wrap(_BitVecRef, _MK_ITE(_REF, b.ast, one, zero))
             for b in reversed(bits)]
    return _symbolic(z3.Concat(*parts), len(bits))


# A suit's cards of both decks (cut to the 52 bits of a one-deck set, where it is the suit of one deck).
_SUIT_MASKS = tuple((((1 << 13) - 1) << (13 * suit)) * (1 | 1 << ONE_DECK_WIDTH) for suit in range(4))
SYMBOLIC = Symbolic()


class SymbolicCard:
    """A card known only as a one-card set of z3 Booleans, standing where the engine has a card index.

    The engine writes a card's set as ``1 << index`` and its suit as ``index // 13``; on a
    symbolic card ``1 << card`` is its one-card set and ``card // 13`` its suit, a branch per
    suit (only under :func:`explore`). ``card.index`` is the card itself, so code that takes a
    :class:`~hearts_ref.cards.Card` takes this too.
    """

    __slots__ = ("cards",)

    def __init__(self, cards: SymbolicCardSet):
        self.cards = cards

    @property
    def index(self) -> SymbolicCard:
        return self

    def __rlshift__(self, other: int) -> SymbolicCardSet:
        if other != 1:
            return NotImplemented
        return self.cards

    def __floordiv__(self, other: int) -> int:
        if other != 13:
            return NotImplemented
        for suit in range(3):
            if self.cards & _SUIT_MASKS[suit]:
                return suit
        return 3

    def __repr__(self) -> str:
        return f"SymbolicCard({self.cards!r})"
