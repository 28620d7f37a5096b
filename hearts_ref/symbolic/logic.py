"""z3 terms for the symbolic algebra: Booleans and integers built with z3's C API, and the values that stand for them.

A :class:`SymbolicBit` is a condition on symbolic cards and a :class:`SymbolicNumber` a number
that depends on them (a seat, points); both hold a z3 term. Asking one for a concrete value
is a branch, answered by the innermost explorer of :func:`hearts_ref.symbolic.explore`
(:mod:`.explore`), and a slip in rule code outside one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Union

import z3
from z3 import z3core

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


# Which explorer answers a branch -------------------------------------------------------------

_EXPLORERS: list[Any] = []   # the explorers of the paths being run (:mod:`.explore`), innermost last


def exploring() -> bool:
    """Whether a branch on a symbolic value is being explored (rather than a slip to report)."""
    return bool(_EXPLORERS)


def _decide(condition: Any, what: str) -> bool:
    if not _EXPLORERS:
        raise TypeError(f"{what} has no truth value: write the rule with ops.is_empty/ops.choose, "
                        "or run it under hearts_ref.symbolic.explore")
    return _EXPLORERS[-1].decide(condition)


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
