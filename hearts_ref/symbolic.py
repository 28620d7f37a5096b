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

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, Union

import z3
from z3 import z3core

from hearts_ref.cards import CARDS

__all__ = ["SymbolicCardSet", "SymbolicCard", "SymbolicBit", "SymbolicNumber", "Symbolic", "SYMBOLIC", "Bit", "Path", "explore",
           "exploring", "union_of", "width_of", "as_z3", "all_of", "any_of", "negation", "implies", "iff", "int_sum", "int_value"]

Bit = Union[bool, z3.BoolRef]

# Terms are built with z3's C API directly: the Python layer's argument checks cost ten times the
# construction itself, and the rule code builds hundreds of thousands of terms. Every call below
# passes terms of the right sort, which is what those checks would verify.
_CTX = z3.main_ctx()
_REF = _CTX.ref()


def _c_function(function: Any) -> Any:
    return function.__defaults__[0].f


_MK_AND, _MK_OR, _MK_NOT = _c_function(z3core.Z3_mk_and), _c_function(z3core.Z3_mk_or), _c_function(z3core.Z3_mk_not)
_MK_ITE, _MK_ADD, _MK_EQ = _c_function(z3core.Z3_mk_ite), _c_function(z3core.Z3_mk_add), _c_function(z3core.Z3_mk_eq)
_MK_IFF, _MK_IMPLIES = _c_function(z3core.Z3_mk_iff), _c_function(z3core.Z3_mk_implies)
_INC_REF = _c_function(z3core.Z3_inc_ref)
_new = object.__new__
_BoolRef, _ArithRef, _Ast = z3.BoolRef, z3.ArithRef, z3.Ast


def _wrap(kind: type, ast: Any) -> Any:
    term = _new(kind)
    term.ast = ast
    term.ctx = _CTX
    _INC_REF(_REF, ast)
    return term


def _array(terms: Sequence[Any]) -> Any:
    return (_Ast * len(terms))(*[t.ast for t in terms])


_TRUE, _FALSE = z3.BoolVal(True), z3.BoolVal(False)
_INTS: dict[int, z3.ArithRef] = {}


def int_value(value: int) -> z3.ArithRef:
    """The z3 integer constant ``value`` (made once)."""
    term = _INTS.get(value)
    if term is None:
        term = _INTS[value] = z3.IntVal(value)
    return term


def _term(bit: Any) -> Any:
    """A z3 term for a Bit, a SymbolicBit, a SymbolicNumber or a Python bool/int."""
    if bit is True:
        return _TRUE
    if bit is False:
        return _FALSE
    if isinstance(bit, (SymbolicBit, SymbolicNumber)):
        return bit.term
    if isinstance(bit, int):
        return int_value(bit)
    return bit


def as_z3(value: Any) -> Any:
    """Return ``value`` as a z3 term: a bool, Bit or SymbolicBit as a Boolean, an int or SymbolicNumber as an integer."""
    return _term(value)


def _bit(value: Any) -> Bit:
    """A Bit (bool or z3 Boolean) from a bool, Bit or SymbolicBit."""
    return value.term if isinstance(value, SymbolicBit) else value


def _canonical(terms: list[Any]) -> list[Any]:
    """The terms of a commutative operation in one fixed order (by z3's id), without repeats: the same operands in
    any order give the very same term, which z3 and the prover's cache then share."""
    unique = {t.get_id(): t for t in terms}
    return [unique[key] for key in sorted(unique)]


def all_of(bits: Iterable[Any]) -> Bit:
    """The conjunction of ``bits`` (Python bools folded away)."""
    terms = []
    for bit in bits:
        bit = _bit(bit)
        if bit is False:
            return False
        if bit is not True:
            terms.append(bit)
    if not terms:
        return True
    terms = _canonical(terms)
    if len(terms) == 1:
        return terms[0]
    return _wrap(_BoolRef, _MK_AND(_REF, len(terms), _array(terms)))


def any_of(bits: Iterable[Any]) -> Bit:
    """The disjunction of ``bits`` (Python bools folded away)."""
    terms = []
    for bit in bits:
        bit = _bit(bit)
        if bit is True:
            return True
        if bit is not False:
            terms.append(bit)
    if not terms:
        return False
    terms = _canonical(terms)
    if len(terms) == 1:
        return terms[0]
    return _wrap(_BoolRef, _MK_OR(_REF, len(terms), _array(terms)))


def negation(bit: Any) -> Bit:
    """Not ``bit``."""
    bit = _bit(bit)
    if isinstance(bit, bool):
        return not bit
    return _wrap(_BoolRef, _MK_NOT(_REF, bit.ast))


def implies(a: Any, b: Any) -> Bit:
    """``a`` implies ``b``."""
    a, b = _bit(a), _bit(b)
    if a is False or b is True:
        return True
    if a is True:
        return b
    if b is False:
        return negation(a)
    return _wrap(_BoolRef, _MK_IMPLIES(_REF, a.ast, b.ast))


def iff(a: Any, b: Any) -> Bit:
    """``a`` if and only if ``b``."""
    a, b = _bit(a), _bit(b)
    if a is b:
        return True
    if isinstance(a, bool) and isinstance(b, bool):
        return a == b
    if isinstance(a, bool):
        return b if a else negation(b)
    if isinstance(b, bool):
        return a if b else negation(a)
    return _wrap(_BoolRef, _MK_IFF(_REF, a.ast, b.ast))


def _and(a: Bit, b: Bit) -> Bit:
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return _wrap(_BoolRef, _MK_AND(_REF, 2, (_Ast * 2)(a.ast, b.ast)))


def _or(a: Bit, b: Bit) -> Bit:
    if a is True or b is True:
        return True
    if a is False:
        return b
    if b is False:
        return a
    return _wrap(_BoolRef, _MK_OR(_REF, 2, (_Ast * 2)(a.ast, b.ast)))


def _ite_int(condition: Any, a: Any, b: Any) -> z3.ArithRef:
    return _wrap(_ArithRef, _MK_ITE(_REF, condition.ast, _term(a).ast, _term(b).ast))


def int_sum(terms: Sequence[Any]) -> z3.ArithRef:
    """The sum of integer terms (ints, SymbolicNumbers or z3 integers)."""
    known = sum(t for t in terms if isinstance(t, int))
    free = [_term(t) for t in terms if not isinstance(t, int)]
    if known or not free:
        free.append(int_value(known))
    return free[0] if len(free) == 1 else _wrap(_ArithRef, _MK_ADD(_REF, len(free), _array(free)))


# Exploring engine code that branches on symbolic values ----------------------------------------

class Path(NamedTuple):
    """One way through a function run by :func:`explore`: the branch conditions taken, and what it returned."""

    conditions: tuple[Any, ...]
    result: Any
    known: dict[int, int] = {}     # the values numbers took on this path, by their term's id
    numbers: tuple[int, ...] = ()  # which conditions fixed a number's value (their positions in ``conditions``)

    def value(self, number: Any) -> Any:
        """The value ``number`` took on this path: itself when it is an int, its value when the path fixed one."""
        if isinstance(number, SymbolicNumber):
            return self.known.get(number.term.get_id(), number)
        return number

    @property
    def condition(self) -> Bit:
        """The conjunction of the branch conditions (True for a function that never branched)."""
        return all_of(self.conditions)

    def condition_without_numbers(self) -> Bit:
        """The branch conditions, less those that fixed a number's value (which seat won the trick, say).

        A claim proved on this weaker condition holds whatever value the number took: a stronger claim,
        and often a much smaller question for z3.
        """
        return all_of(c for i, c in enumerate(self.conditions) if i not in self.numbers)

    @property
    def raised(self) -> bool:
        """Whether the function raised on this path (its result is then the exception)."""
        return isinstance(self.result, Exception)


class _Explorer:
    """Answers branch questions from a prefix of decisions, True first, and records the path taken."""

    def __init__(self, prefix: list[bool], assumed: frozenset[int], feasible: Any = None):
        self.prefix = prefix
        self.assumed = assumed
        self.feasible = feasible       # None, or a callable: may these conditions all hold?
        self.trace: list[bool] = []
        self.conditions: list[Any] = []
        self.known: dict[int, int] = {}             # a number's term id -> the value this path gave it
        self.excluded: dict[int, set[int]] = {}     # a number's term id -> the values this path ruled out
        self.numbers: list[int] = []                # the positions of the conditions that fixed a number

    def decide(self, condition: Any) -> bool:
        if isinstance(condition, bool):
            return condition
        if z3.is_true(condition) or z3.is_false(condition):
            return z3.is_true(condition)
        if condition.get_id() in self.assumed:
            return True
        if self.feasible is not None and len(self.trace) >= len(self.prefix):
            # A new branch: take it only both ways if both ways can hold (the other is then a later path).
            holds, fails = (self.feasible(self.conditions + [c]) for c in (condition, negation(condition)))
            if not (holds and fails):
                self.conditions.append(condition if holds else negation(condition))
                return holds
        step = len(self.trace)
        choice = self.prefix[step] if step < len(self.prefix) else True
        self.trace.append(choice)
        self.conditions.append(condition if choice else negation(condition))
        return choice

    def equals(self, number: SymbolicNumber, value: int) -> bool:
        key = number.term.get_id()
        if key in self.known:
            return self.known[key] == value
        ruled_out = self.excluded.setdefault(key, set())
        if value in ruled_out or (number.values is not None and value not in number.values):
            return False
        if number.values is not None and number.values - ruled_out == {value}:
            self.known[key] = value
            return True
        before = len(self.conditions)
        equal = self.decide(_wrap(_BoolRef, _MK_EQ(_REF, number.term.ast, int_value(value).ast)))
        if len(self.conditions) > before:
            self.numbers.append(before)
        if equal:
            self.known[key] = value
            return True
        ruled_out.add(value)
        return False


_EXPLORERS: list[_Explorer] = []


def exploring() -> bool:
    """Whether a branch on a symbolic value is being explored (rather than a slip to report)."""
    return bool(_EXPLORERS)


def _decide(condition: Any, what: str) -> bool:
    if not _EXPLORERS:
        raise TypeError(f"{what} has no truth value: write the rule with ops.is_empty/ops.choose, "
                        "or run it under hearts_ref.symbolic.explore")
    return _EXPLORERS[-1].decide(condition)


class _Feasible:
    """Whether branch conditions can all hold: asked of one incremental z3 solver that follows the search.

    The conditions of successive questions share long prefixes (a depth-first search), so the solver keeps
    the prefix asserted and asks about the last condition as an assumption; each answer is kept.
    """

    def __init__(self) -> None:
        self.known: dict[tuple[int, ...], bool] = {}
        self.solver = z3.Solver()
        self.asserted: list[int] = []
        self.kept: list[list[Any]] = []

    def __call__(self, conditions: list[Any]) -> bool:
        terms = [c for c in conditions if not isinstance(c, bool)]
        key = tuple(c.get_id() for c in terms)
        if key in self.known:
            return self.known[key]
        prefix, last = terms[:-1], terms[-1:]
        shared = 0
        while shared < min(len(prefix), len(self.asserted)) and self.asserted[shared] == key[shared]:
            shared += 1
        while len(self.asserted) > shared:
            self.solver.pop()
            self.asserted.pop()
        for term in prefix[shared:]:
            self.solver.push()
            self.solver.add(term)
            self.asserted.append(term.get_id())
        self.known[key] = self.solver.check(*last) != z3.unsat
        self.kept.append(terms)      # the terms live on, so their ids in the keys stay theirs
        return self.known[key]


def explore(function: Callable[..., Any], *args: Any, assume: Iterable[Any] = (), limit: int = 4096,
            prune: bool = False, **kwargs: Any) -> list[Path]:
    """Return every path through ``function(*args, **kwargs)``: each branch on a symbolic value taken both ways.

    A branch whose condition is one of the ``assume`` terms (the very term, as z3 shares
    equal terms) is taken only the way they say: the caller's claim assumes them. Paths
    whose conditions contradict one another are included; the caller checks which are
    satisfiable — or, with ``prune``, z3 is asked at each new branch whether both ways can
    hold, and only those are taken (for code that compares numbers many times, such as a
    maximum). An exception raised on a path is its result. Raises RuntimeError past
    ``limit`` paths.
    """
    assumed = frozenset(as_z3(term).get_id() for term in assume if not isinstance(term, bool))
    feasible = _Feasible() if prune else None
    paths: list[Path] = []
    prefix: list[bool] = []
    while True:
        explorer = _Explorer(prefix, assumed, feasible)
        _EXPLORERS.append(explorer)
        try:
            result = function(*args, **kwargs)
        except Exception as error:   # noqa: BLE001 - a path that raises is a path; its claim says whether it may
            result = error
        finally:
            _EXPLORERS.pop()
        paths.append(Path(tuple(explorer.conditions), result, dict(explorer.known), tuple(explorer.numbers)))
        if len(paths) > limit:
            raise RuntimeError(f"more than {limit} paths through {getattr(function, '__name__', function)}")
        trace = explorer.trace
        last = max((i for i, choice in enumerate(trace) if choice), default=None)
        if last is None:
            return paths
        prefix = trace[:last] + [False]


# The values ---------------------------------------------------------------------------------

class SymbolicBit:
    """A condition on symbolic cards (a z3 Boolean): usable in claims, a branch only under :func:`explore`."""

    __slots__ = ("term",)

    def __init__(self, term: Any):
        self.term = term

    def __bool__(self) -> bool:
        return _decide(self.term, "a symbolic condition")

    def __index__(self) -> int:
        return int(bool(self))

    def __repr__(self) -> str:
        return f"SymbolicBit({self.term})"


def _condition(bit: Bit) -> Any:
    """A Python bool as it is, a z3 Boolean wrapped as a :class:`SymbolicBit`."""
    return bit if isinstance(bit, bool) else SymbolicBit(bit)


class SymbolicNumber:
    """A number that depends on symbolic cards (a seat, points): a z3 integer term and, when known, its possible values.

    Arithmetic gives new symbolic numbers; a comparison is a branch (only under :func:`explore`).
    """

    __slots__ = ("term", "values")

    def __init__(self, term: Any, values: frozenset[int] | None = None):
        self.term = term
        self.values = values

    def _known(self) -> int | None:
        """The value this number took on the path being explored, if it took one there."""
        return _EXPLORERS[-1].known.get(self.term.get_id()) if _EXPLORERS else None

    def _arith(self, other: Any, sign: int, swap: bool = False) -> Any:
        known = self._known()
        if known is not None and isinstance(other, int):
            return other - known if swap else known + sign * other
        if isinstance(other, int) and self.values is not None:
            values = frozenset(other - v if swap else v + sign * other for v in self.values)
        else:
            values = None
        a, b = (_term(other), self.term) if swap else (self.term, _term(other))
        return SymbolicNumber(a + b if sign > 0 else a - b, values)

    def __add__(self, other: Any) -> SymbolicNumber:
        return self._arith(other, 1)

    __radd__ = __add__

    def __sub__(self, other: Any) -> SymbolicNumber:
        return self._arith(other, -1)

    def __rsub__(self, other: Any) -> SymbolicNumber:
        return self._arith(other, -1, swap=True)

    def __neg__(self) -> SymbolicNumber:
        return SymbolicNumber(-self.term, None if self.values is None else frozenset(-v for v in self.values))

    def __mul__(self, other: int) -> SymbolicNumber:
        if not isinstance(other, int):
            return NotImplemented
        values = None if self.values is None else frozenset(v * other for v in self.values)
        return SymbolicNumber(self.term * other, values)

    __rmul__ = __mul__

    def __mod__(self, other: int) -> Any:
        """The remainder, on the path being explored (one branch per value the number can take)."""
        if not isinstance(other, int):
            return NotImplemented
        return int(self) % other

    def __eq__(self, other: object) -> bool:   # type: ignore[override]
        if isinstance(other, int) and _EXPLORERS:
            return _EXPLORERS[-1].equals(self, other)
        return _decide(self.term == _term(other), "a symbolic number compared")

    def __ne__(self, other: object) -> bool:   # type: ignore[override]
        return not self.__eq__(other)

    def __lt__(self, other: Any) -> bool:
        return _decide(self.term < _term(other), "a symbolic number compared")

    def __le__(self, other: Any) -> bool:
        return _decide(self.term <= _term(other), "a symbolic number compared")

    def __gt__(self, other: Any) -> bool:
        return _decide(self.term > _term(other), "a symbolic number compared")

    def __ge__(self, other: Any) -> bool:
        return _decide(self.term >= _term(other), "a symbolic number compared")

    def __index__(self) -> int:
        """The value on this path: one branch per possible value (only under :func:`explore`)."""
        known = self._known()
        if known is not None:
            return known
        if self.values is None:
            raise TypeError(f"a symbolic number with unknown values cannot be used as an index: {self.term}")
        for value in sorted(self.values):
            if self == value:
                return value
        raise AssertionError("a symbolic number took none of its values")

    __int__ = __index__
    __hash__ = None   # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SymbolicNumber({self.term})"


def _number(value: Any, values: frozenset[int] | None) -> Any:
    return value if isinstance(value, int) else SymbolicNumber(value, values)


def _values(value: Any) -> frozenset[int] | None:
    if isinstance(value, bool):
        return frozenset({int(value)})
    if isinstance(value, int):
        return frozenset({value})
    return value.values if isinstance(value, SymbolicNumber) else None


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
