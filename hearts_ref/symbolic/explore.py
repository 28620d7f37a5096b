"""Exploring engine code that branches on symbolic values: every way through it, a :class:`Path` each."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import z3

from hearts_ref.symbolic.logic import (
    _BoolRef, _EXPLORERS, _MK_EQ, _REF, Bit, SymbolicNumber, _wrap, all_of, as_z3, int_value, negation,
)


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
